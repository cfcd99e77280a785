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
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from rich.console import Console
from typer.testing import Result

import courtly
from courtly.agents.human import CLEAR_SCROLLBACK, HumanAgent, Quit
from courtly.agents.terminal import card_console, print_told, thinking
from courtly.cli.prompt import EditingPrompt, MoveCompleter, terminal_ask
from courtly.cli.shared import ABANDONED
from courtly.core.events import CHANCE, Event
from courtly.core.game import State, replay
from courtly.core.records import MatchRecord, find_record
from courtly.core.registry import game_class
from courtly.core.replays import record_game
from courtly.core.story import story_of
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
    # p1's own steps typed ahead are told once, by the story, noted as typed ahead; never p0's.
    noted = [line for line in after.splitlines() if line.endswith("(typed ahead)")]
    assert len(noted) == 2 and all(line.startswith("p1 ") for line in noted), noted
    assert "p1: form" not in after


# --------------------------------------------------------------------------- the story


def _told(record: MatchRecord, seat: int | None) -> list[tuple[int, Event, list[str]]]:
    """Each event of a record with the story's lines ``seat`` reads of it, as the terminal
    prints them (chance's lines indented)."""
    game = record_game(record)
    story = story_of(game, record.history)
    events = replay(game, record.history).history
    lines: dict[int, list[str]] = {}
    for index, text in story.told_to(seat, game.num_players):
        indent = "  " if events[index][0] == CHANCE else ""
        lines.setdefault(index, []).extend((indent + text).splitlines())
    return [(index, event, lines.get(index, [])) for index, event in enumerate(events)]


GAMES = [info for info in courtly.games() if not info.id.startswith("test-")]


@pytest.mark.parametrize("info", GAMES, ids=lambda info: info.id)
def test_a_bots_only_game_prints_the_story_of_every_event_once_and_replay_the_same(
    info: courtly.GameInfo, tmp_path: Path
) -> None:
    saved = tmp_path / "game.jsonl"
    seats = ",".join(["random"] * info.default_players)
    result = invoke("play", info.id, "--seats", seats, "--seed", "5", "--save", str(saved),
                    env={"COLUMNS": "1000"})  # fmt: skip
    assert result.exit_code == 0, result.output
    told = [line for _, _, lines in _told(find_record(saved)[1], None) for line in lines]
    assert told, "the story tells nothing"
    out = result.stdout.splitlines()
    # The title, then exactly the story's lines (no typing hint: nobody types), then the end.
    assert out[1 : 1 + len(told)] == told
    assert out[1 + len(told)] == ""
    assert "Type a number" not in result.stdout
    # Replayed, the game tells the same story.
    replayed = invoke("replay", str(saved), env={"COLUMNS": "1000"})
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout.splitlines()[: len(told) + 1] == [*told, ""]


def test_a_person_reads_the_story_of_every_event_in_order_with_the_table_after_it(
    tmp_path: Path,
) -> None:
    saved = tmp_path / "game.jsonl"
    result = invoke(*PLAY, "--save", str(saved), input="stay\n" * 400)
    assert result.exit_code == 0, result.output
    record = find_record(saved)[1]
    game = record_game(record)
    state = game.new_state()
    expected: list[str] = []
    for _, (actor, item), lines in _told(record, 0):
        if actor == 0 and len(state.legal_actions(0)) > 1:
            # The table's first line, after the lines of every event before the decision.
            expected += [state.render(0).splitlines()[0], "p0, your move", "p0> "]
        expected += lines
        if actor == CHANCE:
            state.apply_chance(item)
        else:
            state.apply(actor, item)
    assert len(expected) > 20
    assert in_order(result.stdout, *expected)


# --------------------------------------------------------------------------- 80 columns

NARROW = {"COLUMNS": "80"}


def _indented_as_written(text: str, shown: str) -> None:
    """``shown`` has ``text``'s words in order, every line within 80 columns, and no line is
    less indented than the line of ``text`` its first word comes from (a sentence of an
    indented item never wraps back to the margin)."""
    source = [(word, len(line) - len(line.lstrip())) for line in text.splitlines()
              for word in line.split()]  # fmt: skip
    assert [word for word, _ in source] == shown.split()
    position = 0
    for line in shown.splitlines():
        assert len(line) <= 80, line
        words = line.split()
        if not words:
            continue
        indent = len(line) - len(line.lstrip())
        assert indent >= source[position][1], (line, source[position])
        position += len(words)


@pytest.mark.parametrize("info", GAMES, ids=lambda info: info.id)
def test_rules_fit_80_columns_keeping_their_layout(info: courtly.GameInfo) -> None:
    result = invoke("rules", info.id, env=NARROW)
    assert result.exit_code == 0, result.output
    _indented_as_written(info.rules_text(), result.stdout)


def test_rules_are_printed_as_written_where_they_fit() -> None:
    info = game_class("royal-gambit").info
    assert invoke("rules", info.id).stdout == info.rules_text() + "\n"


def test_help_at_the_prompt_fits_80_columns() -> None:
    result = invoke("play", "god-save-the-king", "--seed", "3", input="help\n", env=NARROW)
    assert result.exit_code == ABANDONED, result.output
    out = result.stdout
    rules = game_class("god-save-the-king").info.rules
    start = out.index(rules.splitlines()[0][:40])
    shown = out[start : out.index("p0>", start)]
    _indented_as_written(rules, shown)


def test_a_long_menu_is_laid_out_in_columns_at_80_never_splitting_an_entry() -> None:
    # God Save The King's first formation: 13 numbered moves, "form left 2S" ... "form left AS".
    result = invoke("play", "god-save-the-king", "--seed", "3", input="?\n9\n", env=NARROW)
    out = result.stdout
    menu = out[out.index("p0, your move:") : out.index("p0>")]
    lines = menu.splitlines()
    assert lines[0] == "p0, your move:"
    entries = [entry for line in lines[1:] for entry in re.split(r"\s{2,}", line.strip())]
    cards = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]
    assert entries == [f"{n} form left {card}" for n, card in enumerate(cards, 1)]
    assert all(len(line) <= 80 for line in lines)
    assert len(lines) <= 5  # in columns, not one entry a line
    # "?" shows the same menu again; then "9" is its ninth entry: 10S goes to the left slot.
    assert out.count("p0, your move:\n   1 form left 2S") == 2
    assert "form middle 9S" in out and "form middle 10S" not in out


def test_a_short_menu_stays_on_the_line_that_asks() -> None:
    result = invoke(*PLAY, input="stay\n", env=NARROW)
    assert "p0, your move: 1 hit   2 stay\n" in result.stdout


# --------------------------------------------------------------------------- exit status


def test_a_finished_game_exits_0_and_an_abandoned_one_exits_3() -> None:
    finished = invoke(*PLAY, input="stay\n" * 400)
    assert finished.exit_code == 0, finished.output
    assert re.search(r"^(Winner|Shared win): ", finished.stdout, re.MULTILINE)
    for typed in ("", "quit\ny\n", "stay\n"):
        left = invoke(*PLAY, input=typed)
        assert left.exit_code == ABANDONED == 3, (typed, left.output)
        assert "Game abandoned. Goodbye." in left.stdout
        assert left.stderr == ""


def test_ctrl_c_at_the_prompt_abandons_the_game_with_exit_status_3(toy: str) -> None:
    def interrupted(_prompt: str, _moves: Sequence[str] | None = None) -> str:
        raise KeyboardInterrupt

    game = courtly.make(toy, players=2, rounds=1)
    agent = HumanAgent(game, console=Console(file=io.StringIO()), ask=interrupted)
    with pytest.raises(Quit):
        agent.act(game.new_state().view(0), random.Random(0))
    # The command turns it into its exit status: end of input takes the same road.
    assert play_toy(toy, "human,random", []).exit_code == ABANDONED


def test_play_help_documents_the_exit_statuses() -> None:
    result = invoke("play", "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert (
        "Exit status: 0 when the game was played to its end, 3 when it was left unfinished "
        "(quit, end of input or Ctrl-C), 2 on bad input." in text
    )


# --------------------------------------------------------------------------- a slow bot


def _terminal(interactive: bool) -> Console:
    return Console(file=io.StringIO(), width=80, force_terminal=interactive,
                   force_interactive=interactive)  # fmt: skip


def test_a_wait_longer_than_a_moment_shows_a_spinner_line_then_erases_it() -> None:
    console = _terminal(interactive=True)
    with thinking(console, "p1 (slow) is thinking…", delay=0.05):
        time.sleep(0.5)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "p1 (slow) is thinking…" in out
    assert "\x1b[2K" in out[out.rindex("thinking…") :]  # the line erased at the end


def test_a_quick_move_or_a_piped_output_shows_no_thinking_line() -> None:
    quick = _terminal(interactive=True)
    with thinking(quick, "p1 (quick) is thinking…", delay=0.5):
        pass
    piped = _terminal(interactive=False)
    with thinking(piped, "p1 (slow) is thinking…", delay=0.0):
        time.sleep(0.2)
    assert quick.file.getvalue() == piped.file.getvalue() == ""  # type: ignore[attr-defined]


def test_a_slow_bot_thinks_in_silence_when_the_output_is_piped() -> None:
    result = invoke("play", "royal-gambit", "--seats", "human,ismcts:seconds=0.6", "--seed",
                    "7", input="")  # fmt: skip
    assert result.exit_code == ABANDONED, result.output
    assert "p0, your move" in result.stdout  # p1, who starts, did think, and moved
    assert "thinking" not in result.output


# --------------------------------------------------------------------------- the prompt


def test_tab_completes_the_line_into_a_legal_move_or_a_command_in_any_case() -> None:
    completer = MoveCompleter(["form left 2S", "form left 10S", "?", "help", "hint", "quit"])

    def completed(typed: str) -> list[str]:
        found = completer.get_completions(Document(typed), CompleteEvent(completion_requested=True))
        return [completion.text for completion in found]

    assert completed("form left 1") == ["form left 10S"]
    assert completed("FORM LEFT 1") == ["form left 10S"]
    assert completed("h") == ["help", "hint"]
    assert completed("form") == ["form left 2S", "form left 10S"]
    assert completed("x") == []


def test_piped_input_is_read_as_plain_lines() -> None:
    # Under pytest stdin is no terminal: the prompt is the plain one, as for a pipe.
    assert not isinstance(terminal_ask(Console(file=io.StringIO()), 0), EditingPrompt)


def test_a_chance_line_keeps_its_indent_on_every_row_it_wraps_to() -> None:
    out = io.StringIO()
    console = card_console(file=out, width=40, force_terminal=True, color_system="standard")
    print_told(
        console, "  p0 flips 7D, the hot potato. p0 must give it to p1, the only one (RG-9)."
    )
    print_told(console, "p0 hits.")
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())
    assert plain.splitlines() == [
        "  p0 flips 7D, the hot potato. p0 must",
        "  give it to p1, the only one (RG-9).",
        "p0 hits.",
    ]
    assert "\x1b[" in out.getvalue()  # the cards and seats keep their colours
