"""Write the server's OpenAPI schema (WebSocket messages included) to a file, with no server and
no database: the browser client's types are generated from it (``make protocol``).

    python -m courtly.web.schema openapi.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def schema() -> dict[str, Any]:
    """The OpenAPI schema of the app's routes and messages."""
    from .app import build_app

    return build_app().openapi()


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        raise SystemExit("usage: python -m courtly.web.schema OUT.json")
    Path(args[0]).write_text(json.dumps(schema(), indent=2) + "\n")


if __name__ == "__main__":
    main()
