"""Tutorial tables: a newcomer's first game of a game, against its bots, on a prepared deal."""

from __future__ import annotations

from fastapi import APIRouter

from ..deps import ServerDep
from ..protocol import CreateTutorial, SeatToken
from .base import answers

router = APIRouter(prefix="/api/tutorials", tags=["tables"])


@router.post(
    "",
    summary="Learn a game: a tutorial table against its bots, the learner seated (token shown once)",
    **answers(SeatToken, 201),
)
def create_tutorial(request: CreateTutorial, server: ServerDep) -> SeatToken:
    """A table of the game's tutorial: the learner at their seat (the token answered, as when
    joining), the game's bots at the others, the prepared deal, hints on. Nobody can join it and
    it is never listed. 404 for an unknown game, 400 for a game without a tutorial."""
    token, table = server.tables.tutorials.start(request.game, request.name)
    assert table.teaching is not None
    return {"table": table.id, "seat": table.teaching.learner, "token": token}
