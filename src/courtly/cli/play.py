"""``courtly play``: a game in the terminal, one person against bots or several people sharing
the screen, narrated as it happens and saved for ``courtly replay`` on request."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated, Any

import typer

from ..agents.human import HumanAgent, Quit, Screen
from ..agents.registry import make_agent
from ..agents.terminal import card_console
from ..core.actions import seat_text
from ..core.events import CHANCE
from ..core.game import Agent, State
from ..core.match import play_match
from ..core.replays import replay_record
from .shared import (
    GameArg,
    OptionsArg,
    PlayersArg,
    clear_errors,
    is_human,
    make_game,
    print_end,
    record_writer,
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
    save: Annotated[
        Path | None,
        typer.Option(help="Append the finished game to this JSONL file, for `courtly replay`."),
    ] = None,
    hints: Annotated[
        bool,
        typer.Option(
            "--hints/--no-hints",
            help="Whether a person may type `hint` for the best moves and their win chances.",
        ),
    ] = True,
) -> None:
    """Play a game in the terminal, against bots or hot-seat with friends."""
    console = card_console()
    with clear_errors():
        specs, count = seats_for(game, seats, players, "human")
        the_game = make_game(game, count, option)
        humans = [s for s, spec in enumerate(specs) if is_human(spec)]
        # Several people at one terminal share it: it is handed over between them.
        screen = Screen(console, humans) if len(humans) > 1 else None
        agents: list[Agent] = []
        for spec in specs:
            if is_human(spec):
                agents.append(HumanAgent(the_game, console=console, screen=screen, hints=hints))
            else:
                agents.append(make_agent(spec, the_game))
        new_file = save is not None and not save.exists()
        writer = record_writer(save, "a", "--save") if save is not None else None
    if seed is None:
        seed = random.randrange(1_000_000)
    # With one person at the table, narrate from that seat as it happens; a shared screen tells
    # each person what happened, from their side, when they take the screen.
    perspective = humans[0] if len(humans) == 1 else None
    names = ", ".join(f"{seat_text(s)} {spec}" for s, spec in enumerate(specs))
    console.print(f"[bold]{the_game.info.title}[/] · seed {seed} · {names}")
    console.print(
        "[dim]Type a number or an action; ? lists the moves, "
        + ("hint suggests one, " if hints else "")
        + "help shows the rules, quit leaves.[/]"
    )

    def narrate(state: State, actor: int, item: Any) -> None:
        if screen is not None:
            screen.observe(state, actor, item)
            return
        line = state.narrate(actor, item, perspective)
        if line:
            console.print(("  " if actor == CHANCE else "") + line, markup=False)

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
        if writer is not None:
            writer.close()
            if new_file and save is not None and save.stat().st_size == 0:
                save.unlink()  # nothing was saved: leave no empty file behind
        console.print("\nGame abandoned. Goodbye.")
        raise typer.Exit(0) from None
    if writer is not None:
        with clear_errors():
            writer.write(record)
            writer.close()
    final = replay_record(record)
    if screen is not None:
        for line in screen.public:  # the last events, after the last person looked
            console.print(line, markup=False)
    print_end(console, final, specs)
    if save is not None:
        console.print(
            f"Saved to {save}; watch it again with: courtly replay {save}",
            soft_wrap=True,
            markup=False,
        )
