"""The person at the terminal, through ``courtly play``: moves typed against menu numbers,
confirmations before leaving and before a move the game warns about, forced moves, the shared
screen of a hot-seat game, and the one end-of-game summary.

Most tests play ``test-purse-bids`` (tests/cli/toy_terminal.py), which has every case in a form
the test controls; God Save The King's declaration is checked on the real game.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Iterator

import pytest
from rich.console import Console
from typer.testing import Result

import courtly
from courtly.agents.human import CLEAR_SCROLLBACK, HumanAgent
from courtly.cli.play import ABANDONED
from courtly.core.game import State
from courtly.testing.cli import invoke

from .test_cli import PLAY, in_order
from .toy_terminal import registered

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
CLEAR_SCREEN = "\x1b[2J"


@pytest.fixture
def toy() -> Iterator[str]:
    with registered() as game_id:
        yield game_id


def play_toy(toy: str, seats: str, answers: list[str], rounds: int = 3, **env: str) -> Result:
    return invoke(
        "play", toy, "--seats", seats, "--seed", "3", "-o", f"rounds={rounds}",
        input="".join(a + "\n" for a in answers), env=env,
    )  # fmt: skip


# --------------------------------------------------------------------------- typed moves


def test_a_typed_number_that_is_a_move_wins_and_the_menu_is_not_numbered(toy: str) -> None:
    # "2" is "bid 2" here; were the menu numbered, 2 would be its second entry, "bid 1".
    result = play_toy(toy, "human,random", ["2", "y"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "p0, your move: bid 0   bid 1   bid 2\n" in out
    assert "1 bid 0" not in out
    assert "p0 bids bid 2" in out


def test_a_number_is_a_menu_choice_where_numbers_are_not_moves() -> None:
    result = invoke(*PLAY, input="2\n")
    assert result.exit_code == ABANDONED, result.output
    assert "p0, your move: 1 hit   2 stay" in result.stdout
    assert "p0 stays" in result.stdout


def test_a_number_that_is_not_a_move_is_refused_where_numbers_are_moves(toy: str) -> None:
    # Three moves, no menu numbers: "3" names no bid and is no menu entry either.
    result = play_toy(toy, "human,random", ["3", "0"])
    assert result.exit_code == ABANDONED, result.output
    out = result.stdout
    assert in_order(out, "p0> ", "'3' is not an action", "Type a move;", "p0> ", "p0 bids bid 0")
    assert "No choice 3" not in out


def test_gsk_declaration_takes_ranks_typed_in_any_case() -> None:
    """God Save The King's declaration: ``10`` declares a 10 (not menu entry 10, a Jack), and
    ``k`` or ``K`` a King. The game's shortcuts make bare ranks moves; the terminal then shows
    the declarations without numbers."""
    state, seat = _gsk_declaration()
    for typed, declared in (("10", "declare 10"), ("k", "declare k"), ("K", "declare k")):
        console = Console(file=io.StringIO(), width=200, color_system=None)
        agent = HumanAgent(state.game, console=console, ask=answering(typed))
        assert str(agent.act(state.view(seat), random.Random(0))) == declared
        menu = console.file.getvalue()  # type: ignore[attr-defined]
        assert f"p{seat}, your move: declare 2   declare 3" in menu


def answering(text: str) -> Callable[[str], str]:
    """A person who types ``text`` at every prompt."""
    return lambda _prompt, _moves=None: text


def _gsk_declaration() -> tuple[State, int]:
    """A God Save The King state at a declaration, and a seat that declares."""
    game = courtly.make("god-save-the-king", players=2)
    for seed in range(500):
        state, rng = game.new_state(), random.Random(seed)
        while not state.is_terminal:
            if state.is_chance:
                courtly.sample_chance(state, rng)
                continue
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            if any(str(action).startswith("declare") for action in legal):
                return state, seat
            state.apply(seat, rng.choice(legal))
    raise AssertionError("no declaration in 500 random games")


# --------------------------------------------------------------------------- confirmations


def test_a_move_the_game_warns_about_is_confirmed_first(toy: str) -> None:
    # "bid 2" spends the whole purse: warned; No asks again, Yes plays it.
    result = play_toy(toy, "human,random", ["bid 2", "n", "bid 2", "y"], rounds=1)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert in_order(
        out,
        "Careful: bid 2 spends your whole purse",
        "Play bid 2 all the same? (y/N)",
        "Not played. p0, choose again.",
        "p0> ",
        "Careful: bid 2 spends",
        "p0 bids bid 2",
    )
    assert out.count("p0 bids") == 1


def test_a_move_without_warning_is_played_at_once(toy: str) -> None:
    result = play_toy(toy, "human,random", ["1"], rounds=1)
    assert result.exit_code == 0, result.output
    assert "Careful" not in result.stdout
    assert "p0 bids bid 1" in result.stdout


def test_end_of_input_at_a_confirmation_leaves_with_the_goodbye(toy: str) -> None:
    result = play_toy(toy, "human,random", ["bid 2"])
    assert result.exit_code == ABANDONED, result.output
    assert in_order(result.stdout, "all the same? (y/N)", "Game abandoned. Goodbye.")
    assert "p0 bids" not in result.stdout


# --------------------------------------------------------------------------- forced moves


def test_a_forced_move_is_one_line_without_the_table(toy: str) -> None:
    # After bidding 2 the purse is empty: the two next rounds are forced.
    result = play_toy(toy, "human,random", ["2", "y"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    # One line each: the story's, noting that the terminal played it (no line of its own).
    assert out.count("p0 bids bid 0 (only choice)") == 2
    assert out.count("p0 bids bid 0") == 2
    assert out.count("p0, your move") == 1
    # The table (the toy's "round N; ..." line) is printed for the one decision, and once more
    # in the final summary; never for a forced move.
    summary = out.rindex("round 3;")
    assert re.findall(r"^round \d", out[:summary], re.MULTILINE) == ["round 0"]


# --------------------------------------------------------------------------- the end


def test_the_game_ends_with_one_summary_and_the_winners_with_their_agents(toy: str) -> None:
    result = play_toy(toy, "human,random", ["2", "y"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    # The summary is the game's render for nobody's side: both secret cards shown.
    assert re.search(r"^round 3; card \d[HSDC] \d[HSDC]; bids ", out, re.MULTILINE), out
    assert re.search(r"^(Winner: p\d|Shared win: p0 \(human\) and p1 \(random\))", out, re.M)
    line = next(x for x in out.splitlines() if x.startswith(("Winner", "Shared win")))
    assert re.fullmatch(r"Winner: p0 \(human\)|Winner: p1 \(random\)|Shared win: .*", line)
    assert "Game over" not in out
    assert out.count("round 3;") == 1


def test_a_team_win_names_the_team_and_each_seats_agent() -> None:
    # Goths Save the Queen: clans of two seats, bots only.
    specs = ["random", "heuristic", "random", "heuristic"]
    result = invoke("play", "goths-save-the-queen", "--seats", ",".join(specs), "--seed", "2")
    assert result.exit_code == 0, result.output
    teams = courtly.make("goths-save-the-queen", players=4).teams()
    expected = {
        f"Winner: {team}, " + " and ".join(f"p{s} ({specs[s]})" for s in seats)
        for team, seats in teams.items()
    }
    lines = [x for x in result.stdout.splitlines() if x.startswith(("Winner", "Shared win"))]
    assert len(lines) == 1 and lines[0] in expected, (lines, expected)


# --------------------------------------------------------------------------- hot seat


def test_hot_seat_hands_over_only_when_the_seat_changes_and_clears_the_scrollback(
    toy: str,
) -> None:
    # Round 0: p0 then p1. Round 1: p1 holds the screen, so it bids first without a
    # handover, then p0 takes it. Each handover needs an Enter ("").
    answers = ["", "1", "", "0", "1", "", "0"]
    result = play_toy(toy, "human,human", answers, rounds=2, TTY_COMPATIBLE="1")
    assert result.exit_code == 0, result.output
    raw = result.stdout
    out = ANSI.sub("", raw)
    assert re.findall(r"Pass the screen to (p\d)", out) == ["p0", "p1", "p0"]
    asked = re.findall(r"^(p\d), your move", out, re.MULTILINE)
    assert asked == ["p0", "p1", "p1", "p0"]
    # Each clear of the screen clears the scrollback too, before and after the handover.
    assert raw.count(CLEAR_SCREEN) == 6
    assert raw.count(CLEAR_SCREEN + "\x1b[H" + CLEAR_SCROLLBACK) == 6


def test_hot_seat_shows_what_happened_since_the_seat_last_looked_from_its_side(
    toy: str,
) -> None:
    answers = ["", "1", "", "1", "0", "", "0"]
    result = play_toy(toy, "human,human", answers, rounds=2)
    assert result.exit_code == 0, result.output
    out = result.stdout
    back = out.rindex("Pass the screen to p0")
    since = out[back:]
    # p0 is told its own bid and that p1 bid, not what p1 bid (still face down for p0)...
    assert in_order(since, "Since p0 last looked:", "p0 bids bid 1", "p1 bids\n", "p0, your move")
    assert "p1 bids bid" not in since[: since.index("p0, your move")]
    # ...and p1, who kept the screen into round 1, was shown its own bid, not p0's amount.
    assert in_order(out, "Pass the screen to p1", "p0 bids\n", "p1 bids bid 1", "p1, your move")
    assert "p0 bids bid" not in out[:back]


def test_hot_seat_keeps_a_seats_typed_ahead_moves_off_the_others_screen() -> None:
    # Royal Gambit plays no typed-ahead steps; God Save The King's formations are typed on one
    # line: p0's middle and right cards are played while p1 holds the screen.
    result = invoke(
        "play", "god-save-the-king", "--seats", "human,human", "--seed", "3",
        input="\n2S 3S 4S\n\n2H 3H 4H\n",
    )  # fmt: skip
    assert result.exit_code == ABANDONED, result.output
    out = result.stdout
    assert re.findall(r"Pass the screen to (p\d)", out)[:2] == ["p0", "p1"]
    after = out[out.index("Pass the screen to p1") :]
    assert "p0 lays a card face down (middle)" in after
    assert "p0: form" not in after
    assert "3S" not in after, after  # p0's middle card: face down until the trick is decided
