"""Actions: small immutable values with a stable text form and an integer id.

Every game builds its whole action space once, as a tuple indexed by id (``game.actions``), so the
hot path hands out shared instances and never allocates an action. Games that need to carry more
than a text (a card, a target seat) subclass :class:`Action` and add slots.
"""

from __future__ import annotations

from typing import Any


class Action:
    """One decision a seat can make. ``str(action)`` is what a person types; ``action.id`` indexes
    the game's action space (``range(game.num_actions)``, e.g. for RL masks)."""

    __slots__ = ("id", "text")

    id: int
    text: str

    def __init__(self, id: int, text: str, **fields: Any) -> None:
        """``fields`` fill the slots a game's subclass adds (``kind=..., card=...``)."""
        set_field = object.__setattr__
        set_field(self, "id", id)
        set_field(self, "text", text)
        for name, value in fields.items():
            set_field(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}: {self.text}>"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Action):
            return self.id == other.id and self.text == other.text
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.id)

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from every slot of the class and its bases, so subclasses need no code for it.
        names = [name for cls in type(self).__mro__ for name in getattr(cls, "__slots__", ())]
        return (_restore, (type(self), {name: getattr(self, name) for name in names}))


def _restore(cls: type[Action], fields: dict[str, Any]) -> Action:
    action = cls.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(action, name, value)
    return action


def seat_text(seat: int) -> str:
    """The text form of a seat: ``p0``, ``p1``, ..."""
    return f"p{seat}"


def parse_seat(text: str, num_players: int) -> int:
    """The seat named ``p2`` (or ``2``); ``ValueError`` if it names no seat of this game."""
    t = text.strip().lower()
    digits = t[1:] if t.startswith("p") else t
    if digits.isdecimal() and int(digits) < num_players:
        return int(digits)
    seats = ", ".join(seat_text(s) for s in range(num_players))
    raise ValueError(f"{text!r} is not a seat of this game; seats are {seats}")


class SeatOutcome(int):
    """A chance outcome that picks a seat (e.g. a random start player); its text is ``p2``."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"p{int(self)}"

    def __repr__(self) -> str:
        return f"SeatOutcome(p{int(self)})"


SEAT_OUTCOMES = tuple(SeatOutcome(i) for i in range(16))
