"""Generic agents (random, ISMCTS, a person at the terminal) and every agent by name."""

from .random_agent import RandomAgent
from .registry import AgentSpec, agent_names, bots_for, make_agent, parse_seats

__all__ = ["AgentSpec", "RandomAgent", "agent_names", "bots_for", "make_agent", "parse_seats"]
