"""The error hierarchy: every failure a caller can cause has its own class and a clear message."""

from __future__ import annotations


class CourtlyError(Exception):
    """Base of every error Courtly raises on purpose."""


class InvalidOptions(CourtlyError, ValueError):
    """An unknown game, option, option value or player count. The message names the allowed values."""


class IllegalAction(CourtlyError, ValueError):
    """An action that may not be applied now: wrong seat, not legal, or unparsable text.

    The state it was offered to is left exactly as it was.
    """


class ReplayError(CourtlyError, ValueError):
    """A record or saved game that cannot be read or does not replay."""
