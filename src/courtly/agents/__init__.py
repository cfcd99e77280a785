"""Generic agents (random, human at the terminal, later ISMCTS) and agents by name."""

from .random_agent import RandomAgent
from .registry import AgentSpec, agent_names, make_agent, parse_seats

__all__ = ["AgentSpec", "RandomAgent", "agent_names", "make_agent", "parse_seats"]
