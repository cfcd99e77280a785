"""Game options declared as data, validated with messages that name the allowed values.

A game lists its options as :class:`Option` values; :func:`resolve_options` turns what a caller
passed (Python values, or text from a command line) into a complete, checked dict.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import InvalidOptions

OptionValue = bool | int | float | str

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Option:
    """One configuration key of a game.

    ``choices`` lists the allowed values of a text option; ``minimum``/``maximum`` bound a number
    option. The kind (bool, int, float or text) is the kind of ``default``.
    """

    name: str
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    unofficial: bool = False
    label: str = ""
    """The option's name for a person (``Target score``); its key when empty."""
    about: str = ""
    """One line for a person: what the option does, in the game's words, without rule ids
    (``help`` is the full line, rule ids included, for those who want them)."""
    choice_labels: tuple[str, ...] = ()
    """A person's name for each of ``choices``, in the same order (empty: the choices)."""
    allowed_text: str = ""
    """The values a text option without ``choices`` allows, in words, where its game checks
    them (a pattern rather than a list); empty: any text."""

    def __post_init__(self) -> None:
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"option {self.name}: one label for each choice")

    @property
    def kind(self) -> str:
        if isinstance(self.default, bool):
            return "bool"
        if isinstance(self.default, int):
            return "int"
        if isinstance(self.default, float):
            return "float"
        return "text"

    def allowed(self) -> str:
        """The allowed values, in words, for help texts and error messages."""
        if self.kind == "bool":
            return "true or false"
        if self.choices:
            return ", ".join(self.choices)
        if self.kind in ("int", "float"):
            what = "an integer" if self.kind == "int" else "a number"
            low = "" if self.minimum is None else f"{self.minimum:g}"
            high = "" if self.maximum is None else f"{self.maximum:g}"
            if low and high:
                return f"{what} from {low} to {high}"
            if low:
                return f"{what} of at least {low}"
            if high:
                return f"{what} of at most {high}"
            return what
        return self.allowed_text or "any text"

    def coerce(self, game_id: str, value: object) -> OptionValue:
        """``value`` as this option's kind, or :class:`InvalidOptions` naming the allowed values."""
        bad = InvalidOptions(
            f"{game_id}: option {self.name} must be {self.allowed()}, not {value!r}"
        )
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise bad
        if self.kind == "int":
            if isinstance(value, bool):
                raise bad
            if isinstance(value, int):
                number = value
            elif isinstance(value, str) and value.strip().removeprefix("-").isdecimal():
                number = int(value.strip())  # isdecimal: int() takes every such text ("²" no)
            else:
                raise bad
            self._check_bounds(number, bad)
            return number
        if self.kind == "float":
            if isinstance(value, bool):
                raise bad
            if isinstance(value, (int, float)):
                real = float(value)
            else:
                try:
                    real = float(str(value).strip())
                except ValueError:
                    raise bad from None
            if real != real or real in (float("inf"), float("-inf")):
                raise bad
            self._check_bounds(real, bad)
            return real
        if not isinstance(value, str):
            raise bad
        text = value.strip()
        if self.choices and text not in self.choices:
            raise bad
        return text

    def value_text(self, value: OptionValue) -> str:
        """``value`` as a person reads it: a choice by its label, true and false as yes and no."""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if self.choice_labels and value in self.choices:
            return self.choice_labels[self.choices.index(str(value))]
        return f"{value:g}" if isinstance(value, float) else str(value)

    def _check_bounds(self, number: float, bad: InvalidOptions) -> None:
        if (self.minimum is not None and number < self.minimum) or (
            self.maximum is not None and number > self.maximum
        ):
            raise bad


def resolve_options(
    game_id: str,
    declared: Sequence[Option],
    given: Mapping[str, object],
) -> dict[str, OptionValue]:
    """Every declared option's value: ``given`` checked and coerced, defaults for the rest."""
    by_name = {option.name: option for option in declared}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        names = ", ".join(sorted(by_name)) or "none"
        raise InvalidOptions(f"{game_id}: unknown option {unknown[0]!r}; its options are: {names}")
    return {
        option.name: option.coerce(game_id, given[option.name])
        if option.name in given
        else option.default
        for option in declared
    }


@dataclass(frozen=True)
class Recommendation:
    """A variant Courtly recommends at a player count where the rules as written go wrong there
    (a game that does not end, say), with the measured reason. The engine's default stays the
    rules as written, the reference; front ends pre-select the variant, say why in one line and
    keep the rules as written one choice away."""

    options: Mapping[str, OptionValue]
    """The options that make the variant (the others keep their defaults)."""
    name: str
    """The variant's name for a person (``the shorter track``)."""
    reason: str
    """Why, in one line with the measured figure (``As written, half of ...``)."""


def options_text(options: Mapping[str, OptionValue]) -> str:
    """``track_cut=5 march=1``: options as a command line's ``-o`` takes them."""
    return " ".join(f"{name}={_typed(value)}" for name, value in options.items())


def _typed(value: OptionValue) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def recommendations_text(recommended: Mapping[int, Recommendation]) -> str:
    """What ``courtly rules`` adds after a game's summary where Courtly recommends a variant at
    some player counts (empty where it recommends none), laid out as the summaries are."""
    if not recommended:
        return ""
    lines = ["Recommended variants (the rules as written stay the engine's default)"]
    for players, variant in sorted(recommended.items()):
        item = f"{variant.name}, -o {options_text(variant.options)}. {variant.reason}"
        label = f"  {players} players:  "
        lines += textwrap.wrap(
            item,
            96,
            initial_indent=label,
            subsequent_indent=" " * len(label),
            break_on_hyphens=False,
        )
    closing = (
        "The browser's table form and `courtly play` choose it at those counts; the form's "
        '"Play the rules as written" and `courtly play --as-written` keep the sheet\'s rules.'
    )
    lines += textwrap.wrap(
        closing, 96, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False
    )
    return "\n".join(lines)


def variant_words(declared: Sequence[Option], options: Mapping[str, OptionValue]) -> list[str]:
    """Each option of ``options`` that is not the rules as written, as a person reads it
    (``Shorter track for more players: 5``): what a table tells the people who join it."""
    words = []
    for option in declared:
        value = options.get(option.name, option.default)
        if value == option.default:
            continue
        label = option.label or option.name.replace("_", " ").capitalize()
        words.append(f"{label}: {option.value_text(value)}")
    return words


def parse_option_assignments(pairs: Sequence[str]) -> dict[str, str]:
    """``["target_score=40", "turn_mode=full_turn"]`` as a dict (values still text)."""
    result: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise InvalidOptions(
                f"option {pair!r} must be written name=value, e.g. target_score=40"
            )
        result[name.strip().replace("-", "_")] = value.strip()
    return result


def describe_options(declared: Sequence[Option]) -> list[dict[str, Any]]:
    """The options as JSON-able dicts (name, default, allowed values, help)."""
    return [
        {
            "name": option.name,
            "default": option.default,
            "allowed": option.allowed(),
            "help": option.help,
            "label": option.label or option.name.replace("_", " ").capitalize(),
            "about": option.about or option.help,
            **({"choice_labels": list(option.choice_labels)} if option.choice_labels else {}),
            **({"unofficial": True} if option.unofficial else {}),
        }
        for option in declared
    ]
