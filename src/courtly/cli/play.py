"""``courtly play``: a game in the terminal, one person against bots or several people sharing
the screen, narrated as it happens and saved for ``courtly replay`` on request.

What the terminal prints of the game is its story (:class:`~courtly.agents.terminal.Telling`):
the lines every front end reads, each event's lines in order, from the person's side; the table
is drawn after them, when the person must decide. Its exit status says whether the game was
played to its end (:data:`~courtly.cli.shared.ABANDONED` when it was not)."""

from __future__ import annotations

import random
from typing import Annotated, Any

import typer

from ..agents.human import HumanAgent, Quit, Screen
from ..agents.registry import make_agent
from ..agents.terminal import Telling, card_console, print_told
from ..core.actions import seat_text
from ..core.events import CHANCE
from ..core.game import Agent, State
from ..core.match import play_match
from ..core.replays import replay_record
from .shared import (
    GameArg,
    OptionsArg,
    PlayersArg,
    SaveArg,
    Saving,
    ShownThinking,
    abandoned,
    clear_errors,
    is_human,
    make_game,
    print_end,
    print_typing_help,
    recommended_variant,
    seats_for,
)


def play_command(
    game: GameArg,
    seats: Annotated[
        str | None,
        typer.Option(
            help="One agent per seat, comma-separated: human, heuristic, random ... "
            "(default: you against heuristic bots)."
        ),
    ] = None,
    players: PlayersArg = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed for the shuffles and bots (default: random; printed).")
    ] = None,
    option: OptionsArg = None,
    save: SaveArg = None,
    as_written: Annotated[
        bool,
        typer.Option(
            "--as-written",
            help="Play the rules as written where Courtly recommends a variant at this player "
            "count (King's Court at 3 and 4 players: see `courtly rules`).",
        ),
    ] = False,
    hints: Annotated[
        bool,
        typer.Option(
            "--hints/--no-hints",
            help="Whether a person may type `hint` for the best moves and their win chances.",
        ),
    ] = True,
) -> None:
    """Play a game in the terminal, against bots or hot-seat with friends.

    Exit status: 0 when the game was played to its end,
    3 when it was left unfinished (quit, end of input or Ctrl-C),
    2 on bad input.
    """
    from .prompt import terminal_ask  # prompt_toolkit: only when a game is played

    console = card_console()
    with clear_errors():
        specs, count = seats_for(game, seats, players, "human")
        option, variant_note = recommended_variant(game, count, option, as_written)
        the_game = make_game(game, count, option)
        humans = [s for s, spec in enumerate(specs) if is_human(spec)]
        telling = Telling(count)
        # Several people at one terminal share it: it is handed over between them.
        screen = Screen(console, humans, telling) if len(humans) > 1 else None
        agents: list[Agent] = []
        for seat, spec in enumerate(specs):
            if is_human(spec):
                ask = terminal_ask(console, seat)
                agents.append(HumanAgent(the_game, console, ask, screen=screen, hints=hints))
            else:
                who = f"{seat_text(seat)} ({spec.split(':')[0]})"
                agents.append(ShownThinking(make_agent(spec, the_game), console, who))
        saving = Saving(save)
    if seed is None:
        seed = random.randrange(1_000_000)
    # With one person at the table, narrate from that seat as it happens; a shared screen tells
    # each person what happened, from their side, when they take the screen.
    perspective = humans[0] if len(humans) == 1 else None
    names = ", ".join(f"{seat_text(s)} {spec}" for s, spec in enumerate(specs))
    console.print(f"[bold]{the_game.info.title}[/] · seed {seed} · {names}")
    if variant_note is not None:
        console.print(variant_note, markup=False, highlight=False)
    if humans:
        print_typing_help(console, hints)

    def narrate(state: State, actor: int, item: Any) -> None:
        agent = None if actor == CHANCE else agents[actor]
        note = agent.note if isinstance(agent, HumanAgent) else None
        telling.tell(state, actor, item, note)
        if screen is None:
            for line in telling.lines(perspective, len(state.history)):
                print_told(console, line)

    try:
        record = play_match(
            the_game,
            agents,
            seed,
            observer=narrate,
            seats=specs,
            ask_order=None if screen is None else screen.ask_order,
        )
    except (Quit, KeyboardInterrupt):
        raise abandoned(console, saving) from None
    saving.keep(record)
    final = replay_record(record)
    if screen is not None:
        for line in screen.unseen_by_all():  # the last events, after the last person looked
            print_told(console, line)
    print_end(console, final, specs)
    saving.tell(console)
