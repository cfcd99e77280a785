"""``courtly replay``: a recorded game told again event by event, from a seat's side or nobody's
(the game's story, as ``courtly play`` prints it), and checked to end as it was recorded; with
``--verify``, a server table's record checked to be dealt from the seed it committed to."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..agents.terminal import Telling, card_console, print_told
from ..core.deals import DealChecked, check_deal
from ..core.errors import ReplayError
from ..core.records import find_record
from ..core.replays import record_game, replay_record
from .shared import clear_errors, print_end, seat_number


def replay_command(
    file: Annotated[
        Path,
        typer.Argument(
            help="A JSONL file of games, plain or gzip-compressed (from simulate --out or "
            "play --save), or a saved state."
        ),
    ],
    game_number: Annotated[
        int | None,
        typer.Option("--game", help="The game_id to replay (default: the first game in the file)."),
    ] = None,
    seat: Annotated[
        str | None, typer.Option(help="Watch from this seat's side, e.g. p0 (default: spectator).")
    ] = None,
    quiet: Annotated[
        bool, typer.Option(help="Only check the replay and print the final table.")
    ] = False,
    verify: Annotated[
        bool,
        typer.Option(
            help="Check that a server table's game was dealt fairly: its revealed seed matches "
            "the commitment the table published, and every chance event was drawn from it."
        ),
    ] = False,
) -> None:
    """Replay a recorded game event by event and check that it ends as recorded."""
    console = card_console()
    with clear_errors():
        line, record = find_record(file, game_number)
        if verify:
            try:
                checked = check_deal(record)
            except ReplayError as error:
                raise ReplayError(f"{file} line {line}: not a fair deal: {error}") from None
            console.print(f"[green]{fair_deal_text(checked)}[/]", highlight=False)
            return
        try:
            game = record_game(record)
            perspective = None if seat is None else seat_number(seat, game.num_players)
            telling = Telling(game.num_players)
            # The whole record is checked before a line is told: a bad one gets its error alone.
            state = replay_record(record, None if quiet else telling.tell)
        except ReplayError as error:
            raise ReplayError(f"{file} line {line}: {error}") from None
    for text in telling.lines(perspective, 0):
        print_told(console, text)
    if state.is_terminal:
        print_end(console, state, record.seats)
        status = "returns match the record" if record.returns else "the game is over"
    else:
        console.print()
        console.print(state.render(perspective), markup=False)
        status = "the game is not over"
    console.print(
        f"[green]Replayed {len(record.history)} events of game {record.game_id}: {status}.[/]"
    )


def fair_deal_text(checked: DealChecked) -> str:
    """What ``--verify`` says of a record whose deal holds."""
    deal = checked.deal
    prepared = (
        f", after {checked.prepared} from the tutorial's prepared deal" if checked.prepared else ""
    )
    chosen = (
        " Its creator chose this seed, so may have known every card."
        if deal.chosen
        else " The server drew this seed in secret."
    )
    return (
        f"Fair deal: seed {checked.seed} with salt {deal.salt} hashes to the commitment "
        f"{deal.commitment} of table {deal.table}, and all {checked.drawn} chance events were "
        f"drawn from it{prepared}.{chosen}"
    )
