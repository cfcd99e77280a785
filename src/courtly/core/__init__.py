"""The engine contract every game implements; knows no game (docs/architecture.md)."""

from .actions import SEAT_OUTCOMES, Action, SeatOutcome, parse_seat, seat_text
from .cards import CARDS, Card, card, cards_text, parse_cards, standard_deck
from .errors import CourtlyError, IllegalAction, InvalidOptions, ReplayError
from .events import CHANCE, HIDDEN, PUBLIC, Event, observer_bit
from .game import (
    Agent,
    BotInfo,
    Game,
    GameInfo,
    GameLength,
    GameText,
    GameViews,
    SearchHooks,
    State,
    View,
    replay,
    sample_chance,
)
from .match import play_match, play_randomly
from .options import Option, parse_option_assignments
from .records import MatchRecord, RecordWriter, find_record, read_records
from .registry import game_class, game_ids, games, make, register, unregister
from .replays import load, replay_record

__all__ = [
    "CARDS",
    "CHANCE",
    "HIDDEN",
    "PUBLIC",
    "SEAT_OUTCOMES",
    "Action",
    "Agent",
    "BotInfo",
    "Card",
    "CourtlyError",
    "Event",
    "Game",
    "GameInfo",
    "GameLength",
    "GameText",
    "GameViews",
    "IllegalAction",
    "InvalidOptions",
    "MatchRecord",
    "Option",
    "RecordWriter",
    "ReplayError",
    "SearchHooks",
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
    "replay_record",
    "sample_chance",
    "seat_text",
    "standard_deck",
    "unregister",
]
