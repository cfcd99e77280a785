"""A throwaway game for the terminal's tests: the sealed bids of ``tests/toy_games.py`` with what
the real games offer a person at the terminal, in a form the tests control.

- Bare numbers are moves: ``2`` bids 2 (a shortcut, as a rank is in God Save The King's
  declaration), so the menu must not be numbered.
- Bidding 2 spends the whole purse, and the game warns before it (the game's text's ``caution``).
- A seat whose purse is spent may only bid 0: a forced move.

It is registered for a test and removed after it (:func:`registered`), so the contract suite
never sees it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from courtly.core import Action, State, register
from courtly.core.registry import unregister

from ..toy_games import SealedBids, SealedBidsState, SealedBidsText

PURSE = 2


class PurseBidsText(SealedBidsText):
    def caution(self, state: State, seat: int, action: Action) -> str | None:
        assert isinstance(state, PurseBidsState)
        if action.id == PURSE - state.spent[seat] and action.id > 0:
            return f"{action} spends your whole purse: you will only bid 0 after it"
        return None


class PurseBids(SealedBids):
    info = dataclasses.replace(
        SealedBids.info,
        id="test-purse-bids",
        title="Purse Bids (test only)",
        rules="Test game: bid 0, 1 or 2 from a purse of 2.",
        text=PurseBidsText(),
    )

    def action_from_text(self, text: str) -> Action | None:
        key = text.strip()
        if key.isdigit() and int(key) < len(self.actions):
            return self.actions[int(key)]  # "2" is "bid 2"
        return super().action_from_text(text)

    def new_state(self) -> PurseBidsState:
        return PurseBidsState(self)


class PurseBidsState(SealedBidsState):
    __slots__ = ()

    def legal_actions(self, seat: int) -> Sequence[Action]:
        if seat not in self.to_move:
            return ()
        return self.game.actions[: PURSE - self.spent[seat] + 1]

    def clone(self) -> PurseBidsState:
        other = super().clone()
        other.__class__ = PurseBidsState  # the same fields: the toy's copy serves
        assert isinstance(other, PurseBidsState)
        return other


@contextmanager
def registered() -> Iterator[str]:
    """The toy's id, registered for the duration."""
    register(PurseBids)
    try:
        yield PurseBids.info.id
    finally:
        unregister(PurseBids.info.id)
