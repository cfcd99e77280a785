"""Shared fixtures. The test-only game is registered here, before collection, so that the
contract suite (parametrized over the registry) covers it too."""

from __future__ import annotations

import os

from hypothesis import settings

from courtly.core import register

from .toy_games import SealedBids

register(SealedBids)

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
