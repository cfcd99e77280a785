"""The names people give (a seat's, a learner's): cleaned to what every other person can read
safely, or refused with the reason.

A name is shown to every seat of a table, in the lobby and in records, so it must not carry what
a reader cannot see or what rewrites the text around it: control characters (a NUL, which
PostgreSQL refuses to store, newlines, escapes), bidirectional overrides and isolates (U+202E
turns ``gpj.exe`` around), zero-width characters (two names that look the same), lone
surrogates (not text at all: no database stores them). :func:`clean_name` is the one place a
name is cleaned; every request that takes a name validates it through it.
"""

from __future__ import annotations

import unicodedata
from typing import Final

MAX_NAME: Final = 64
"""Characters a name may have, once cleaned."""
MAX_RAW_NAME: Final = 256
"""Characters a name may have as sent, before cleaning (what it costs to clean it is bounded)."""

_KEPT_FORMAT: Final = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: format characters that scripts (Persian, the Indic
scripts) and emoji sequences need. Every other format character is dropped: the bidirectional
marks, embeddings, overrides and isolates (U+200E-200F, U+202A-202E, U+2066-2069, U+061C), the
zero-width space (U+200B), the word joiner (U+2060), the byte-order mark (U+FEFF), soft hyphens."""
_DROPPED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Cn"})
"""Control, format, surrogate and unassigned characters (a kept format character aside)."""


class BadName(ValueError):
    """A name that cannot be shown: the message says why, for the person who typed it."""


def shown_text(text: str) -> str:
    """``text`` as one line every reader sees alike: NFC, every run of white space one space,
    trimmed, with no control, format (but the zero-width joiners), surrogate or unassigned
    character (what :func:`clean_name` and a chat line keep)."""
    kept: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        if char.isspace():
            kept.append(" ")
        elif char in _KEPT_FORMAT or unicodedata.category(char) not in _DROPPED_CATEGORIES:
            kept.append(char)
    return " ".join("".join(kept).split())


def visible(text: str) -> bool:
    """Whether ``text`` (cleaned) has a letter, digit or sign to show."""
    return bool(text.strip("".join(_KEPT_FORMAT)))


def clean_name(text: str) -> str:
    """``text`` as a name to show: NFC, every run of white space (tabs and newlines included)
    one space, trimmed, with no control, format (but the zero-width joiners), surrogate or
    unassigned character. An empty ``text`` stays empty (the table names the seat); a
    :class:`BadName` for a name with nothing left to show or longer than :data:`MAX_NAME`."""
    if len(text) > MAX_RAW_NAME:
        raise BadName(f"a name is at most {MAX_NAME} characters")
    name = shown_text(text)
    if text and not visible(name):
        raise BadName(
            "a name needs a letter, digit or sign to show: white space, control and invisible "
            "characters are removed"
        )
    if len(name) > MAX_NAME:
        raise BadName(f"a name is at most {MAX_NAME} characters, not {len(name)}")
    return name
