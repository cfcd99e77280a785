"""``courtly play`` at a real terminal: a pseudo-terminal of 80 columns driven by pexpect, keys
sent as a person presses them. The prompt edits a line with the arrows, Home and End, recalls
the seat's last line with Up (never another person's at a shared screen), completes a legal
move with Tab (or lists the candidates); a slow bot shows that it is thinking; Ctrl-C and
Ctrl-D leave the game with its exit status."""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterator

import pexpect
import pytest

import courtly
from courtly.cli.shared import ABANDONED

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


def played(child: pexpect.spawn, keys: str, line: str) -> None:
    """At p0's prompt, press ``keys`` and Enter: the prompt shows ``line`` as entered, and the
    game takes it as a move and goes on to p0's next decision."""
    child.expect("p0>")
    child.send(keys + "\r")
    child.expect_exact(f"p0> {line}")
    child.expect_exact("p0, your move:")


def test_the_prompt_edits_recalls_and_completes_and_the_game_goes_on(
    royal_gambit: pexpect.spawn,
) -> None:
    child = royal_gambit
    played(child, "sty" + LEFT + "a", "stay")  # the arrow moves back: "sta|y" becomes "stay"
    played(child, UP, "stay")  # the last line again
    played(child, "ay" + HOME + "st" + END, "stay")
    played(child, "st\t", "stay")  # Tab writes out the one move that starts so
    # Several completions with nothing more in common: Tab lists them (the moves first); the
    # line stays as typed.
    child.expect("p0>")
    child.send("h\t")
    child.expect(r"hit\s+help\s+hint")
    child.send("it\r")
    child.expect_exact("p0> hit")
    child.expect_exact("p0, your move:")
    child.expect("p0>")
    child.send(CTRL_C)
    child.expect("Game abandoned. Goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == ABANDONED


def test_keys_edit_the_line_and_never_reach_the_game_as_text(
    royal_gambit: pexpect.spawn,
) -> None:
    # The issue saw "'pla\x1b[D\x1b[DX' is not an action": the arrows typed as text. Now a key
    # edits the line, and only the line reaches the game.
    child = royal_gambit
    child.expect("p0>")
    child.send("CTRL" + CTRL_A + "x" + "\r")  # "xCTRL": Ctrl-A went to the line's start
    child.expect_exact("p0> xCTRL")
    child.expect_exact("Type a number or a move")  # refused, explained, asked again
    refused = ANSI.sub("", child.before)
    child.expect("p0>")
    child.send(CTRL_D)
    child.expect("Game abandoned. Goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert "'xCTRL'" in refused
    assert "\\x1" not in refused and "CTRLx" not in refused
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
        # Once p1 has moved, the spinner stops: the cursor shows again (ESC [?25h), goes up to
        # the line and erases it (ESC [1A, ESC [2K), where the story's next line is printed.
        child.expect_exact("\x1b[?25h\r\x1b[1A\x1b[2K")
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


def test_a_lesson_is_shown_wrapped_to_80_columns_before_the_prompt() -> None:
    # Royal Gambit's tutorial starts with the learner to move once the first card is cut.
    tutorial = courtly.make("royal-gambit").info.tutorial
    assert tutorial is not None
    state = courtly.make("royal-gambit", players=tutorial.players).new_state()
    state.apply_chance(state.game.text.parse_chance(state, tutorial.deal[0]))
    words = state.game.text.coach(state, tutorial.learner)
    assert words and len(words) > 80  # too long for one line
    child = spawn("learn", "royal-gambit", "--seed", "3")
    try:
        child.expect_exact(f"Lesson 1 of {tutorial.lessons}")
        child.expect("p0>")
        lesson = ANSI.sub("", child.before).replace("\r", "")
        child.send(CTRL_D)
        child.expect("Game abandoned. Goodbye.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    lines = [line for line in lesson.split("\n") if line.strip()]
    assert len(lines) >= 2, lesson  # wrapped
    assert all(len(line) <= 80 and line.startswith("  ") for line in lines), lines
    assert " ".join(" ".join(lines).split()) == " ".join(words.split())
    assert child.exitstatus == ABANDONED
