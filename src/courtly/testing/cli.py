"""The ``courtly`` command run in-process, as the tests drive it: Typer's test runner on
Courtly's app, with stdin given as text, in a terminal that is the same wherever it runs."""

from __future__ import annotations

from collections.abc import Mapping

from typer.testing import CliRunner, Result

from ..cli import app

TERMINAL: dict[str, str | None] = {
    "COLUMNS": "200",
    "LINES": "50",
    "NO_COLOR": "1",
    "FORCE_COLOR": None,
    "TTY_COMPATIBLE": None,
    "TTY_INTERACTIVE": None,
}
"""A wide, colourless, non-interactive terminal, whatever the environment says: Rich wraps,
colours and redraws by these, so a test's output would otherwise depend on where it runs."""


def invoke(
    *args: str, input: str | None = None, env: Mapping[str, str | None] | None = None
) -> Result:
    """``courtly ARGS...`` with ``input`` on its stdin, in :data:`TERMINAL` with ``env`` laid
    over it (``None`` unsets a variable). The result holds the exit code, stdout and stderr
    apart, and the exception that ended the command, if one did."""
    return CliRunner().invoke(app, list(args), input=input, env={**TERMINAL, **(env or {})})
