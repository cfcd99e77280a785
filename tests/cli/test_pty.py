"""``courtly play`` at a real terminal: a pseudo-terminal of 80 columns driven by pexpect, keys
sent as a person presses them. The prompt edits a line with the arrows, Home and End, recalls
the seat's last line with Up (never another person's at a shared screen), completes a legal
move with Tab (or lists the candidates); a slow bot shows that it is thinking; Ctrl-C and Ctrl-D leave the game with its
exit status."""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterator

import pexpect
import pytest

from courtly.cli.play import ABANDONED

LEFT, HOME, END, UP = "\x1b[D", "\x1b[H", "\x1b[F", "\x1b[A"
CTRL_A, CTRL_C, CTRL_D = "\x01", "\x03", "\x04"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

ENV = {
    **{
        name: value
        for name, value in os.environ.items()
        if name not in ("COLUMNS", "LINES", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
    },
    "TERM": "xterm-256color",
    "NO_COLOR": "1",
    # A terminal answers prompt_toolkit's request for the cursor's position; pexpect does not,
    # and prompt_toolkit would wait for the answer, then warn about it.
    "PROMPT_TOOLKIT_NO_CPR": "1",
}
"""The environment of the game: the pseudo-terminal's own size (no COLUMNS to override it)."""


def spawn(*args: str) -> pexpect.spawn:
    """``courtly ARGS...`` in a pseudo-terminal of 24 lines and 80 columns."""
    code = "from courtly.cli import main; main()"
    return pexpect.spawn(
        sys.executable,
        ["-c", code, *args],
        env=ENV,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
    )


@pytest.fixture
def royal_gambit() -> Iterator[pexpect.spawn]:
    """You (p0) against the heuristic in Royal Gambit, seed 7: p0 decides "hit or stay" at the
    start of each of the first hands."""
    child = spawn("play", "royal-gambit", "--seats", "human,heuristic", "--seed", "7")
    yield child
    child.close(force=True)


def stays(child: pexpect.spawn, typed: str) -> None:
    """At p0's prompt, type ``typed`` (keys and all): the game takes it as "stay"."""
    child.expect("p0>")
    child.send(typed + "\r")
    child.expect(r"p0 stays and banks")


def test_the_prompt_edits_recalls_and_completes_and_the_game_goes_on(
    royal_gambit: pexpect.spawn,
) -> None:
    child = royal_gambit
    stays(child, "sty" + LEFT + "a")  # the arrow moves back: "sta|y" becomes "stay"
    stays(child, UP)  # the last line again
    stays(child, "ay" + HOME + "st" + END)
    child.expect("p0>")
    child.send("st\t")  # Tab writes out the one move that starts so
    child.expect("stay")
    child.send("\r")
    child.expect("p0 stays and banks")
    # Several completions, with nothing more in common: Tab lists them (the moves first); the
    # line stays as typed.
    child.expect("p0>")
    child.send("h\t")
    child.expect(r"hit\s+help\s+hint")
    child.send("it\r")
    child.expect("p0 hits")
    child.expect("p0>")
    child.send(CTRL_C)
    child.expect("Game abandoned. Goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == ABANDONED


def test_without_the_editing_prompt_the_keys_would_be_typed_as_text(
    royal_gambit: pexpect.spawn,
) -> None:
    # The line the issue saw refused ("'pla\x1b[D\x1b[DX' is not an action") is now edited: no
    # escape code reaches the game.
    child = royal_gambit
    child.expect("p0>")
    child.send("CTRL" + CTRL_A + "x" + "\r")  # "xCTRL": edited at the line's start
    child.expect("not an action")
    before = child.before + child.after
    child.expect("p0>")
    child.send(CTRL_D)
    child.expect("Game abandoned. Goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert "'xCTRL' is not an action" in ANSI.sub("", before)
    assert "\x1b[D" not in before and "\\x1" not in before
    assert child.exitstatus == ABANDONED


def test_a_shared_screen_keeps_each_persons_history_and_its_menu_fits_80_columns() -> None:
    child = spawn("play", "god-save-the-king", "--seats", "human,human", "--seed", "3")
    child.logfile_read = seen = io.StringIO()
    try:
        child.expect("Pass the screen to p0")
        child.send("\r")
        child.expect("p0, your move:")
        child.expect("p0>")
        menu = ANSI.sub("", child.before)
        child.send("2S 3S 4S\r")  # p0's whole formation, secret
        child.expect("Pass the screen to p1")
        child.send("\r")
        child.expect("p1, your move:")
        child.expect("p1>")
        child.send(UP + "\r")  # p1 has typed nothing yet: Up recalls nothing, and p0's line
        child.expect("p1>")  # least of all; an empty line is asked again
        child.send("2H 3H 4H\r")
        child.expect("p1, your move:")  # the route question, at p1's screen
        child.expect("p1>")
        child.send(UP)
        child.expect("2H 3H 4H")  # p1's own line comes back
        child.send(CTRL_C)
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    out = seen.getvalue()
    assert "2S 3S 4S" not in out[out.index("Pass the screen to p1") :]
    assert out.count("2H 3H 4H") >= 2  # typed, then recalled
    # The menu of 13 formations, in columns within 80, each entry whole.
    rows = [row for row in menu.splitlines() if "form left" in row]
    assert len(rows) <= 5
    assert all(len(row.rstrip("\r")) <= 80 for row in rows)
    assert any(re.search(r"\b9 form left 10S\b", row) for row in rows), rows
    assert child.exitstatus == ABANDONED


def test_a_slow_bot_shows_that_it_is_thinking() -> None:
    # The search takes a second a move (p1 starts the first hand at seed 7).
    child = spawn("play", "royal-gambit", "--seats", "human,ismcts:seconds=1", "--seed", "7")
    try:
        child.expect_exact("p1 (ismcts) is thinking…")
        # Once p1 has moved, the line is erased (ESC [2K) and the story's line takes its place.
        child.expect_exact("\x1b[2Kp1 hits.")
        child.expect("p0>")
        child.send(CTRL_D)
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == ABANDONED


def test_ctrl_c_while_a_bot_thinks_leaves_the_game() -> None:
    child = spawn("play", "royal-gambit", "--seats", "human,ismcts:seconds=5", "--seed", "7")
    try:
        child.expect_exact("p1 (ismcts) is thinking…")
        child.send(CTRL_C)
        child.expect("Game abandoned. Goodbye.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert "Traceback" not in child.before
    assert child.exitstatus == ABANDONED
