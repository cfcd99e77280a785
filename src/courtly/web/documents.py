"""Each game's rules document, ``docs/rules/<game id>.md``: the project's own full rules (rule
ids, the rule sheet's gaps and how Courtly settles them, worked examples), which the browser's
rules page formats.

An installed wheel holds them as package data, in ``courtly/docs/rules/`` (pyproject.toml's
``force-include``); a checkout (an editable install) reads them where they are written.
"""

from __future__ import annotations

from pathlib import Path

import courtly

PACKAGED = Path(courtly.__file__).parent / "docs" / "rules"
CHECKOUT = Path(courtly.__file__).parents[2] / "docs" / "rules"


def documents_folder() -> Path:
    """Where this installation's rules documents are: the package's copy, else the checkout's."""
    return PACKAGED if PACKAGED.is_dir() else CHECKOUT


def rules_document(game_id: str) -> str | None:
    """The Markdown of a registered game's rules document; None when there is none (a game
    without one, or an installation that lacks them). ``game_id`` must be a registered id: it
    names a file."""
    path = documents_folder() / f"{game_id}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None
