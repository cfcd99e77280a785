"""The engine contract every game implements; knows no game (ARCHITECTURE.md §1-§3)."""

from .actions import SEAT_OUTCOMES, Action, SeatOutcome, parse_seat, seat_text
from .agent import Agent
from .cards import CARDS, Card, card, cards_text, parse_cards, standard_deck
from .errors import CourtlyError, IllegalAction, InvalidOptions, ReplayError
from .game import (
    CHANCE,
    HIDDEN,
    PUBLIC,
    Event,
    Game,
    GameInfo,
    GameLength,
    State,
    View,
    load,
    observer_bit,
    replay,
    sample_chance,
)
from .match import play_match, play_randomly
from .options import Option, parse_option_assignments
from .records import MatchRecord, RecordWriter, find_record, read_records
from .registry import game_class, game_ids, games, make, register, unregister

__all__ = [
    "CARDS",
    "CHANCE",
    "HIDDEN",
    "PUBLIC",
    "SEAT_OUTCOMES",
    "Action",
    "Agent",
    "Card",
    "CourtlyError",
    "Event",
    "Game",
    "GameInfo",
    "GameLength",
    "IllegalAction",
    "InvalidOptions",
    "MatchRecord",
    "Option",
    "RecordWriter",
    "ReplayError",
    "SeatOutcome",
    "State",
    "View",
    "card",
    "cards_text",
    "find_record",
    "game_class",
    "game_ids",
    "games",
    "load",
    "make",
    "observer_bit",
    "parse_cards",
    "parse_option_assignments",
    "parse_seat",
    "play_match",
    "play_randomly",
    "read_records",
    "register",
    "replay",
    "sample_chance",
    "seat_text",
    "standard_deck",
    "unregister",
]
