"""The built browser client, when the package has it (built by ``make client``).

The client routes in the browser (``/table/ID?seat=1``, a share link): a path that is no file
and no API route is answered with ``index.html``, which shows the page it names. A missing file
with an extension (an old asset) or under ``/api`` stays a 404, but for a person's page
(``/people/NAME``): a name may hold a dot.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.types import Scope

CLIENT = Path(__file__).parent / "static"


class ClientFiles(StaticFiles):
    async def get_response(self, path: str, scope: Scope) -> Response:
        try:
            return await super().get_response(path, scope)
        except StarletteHTTPException as error:
            first, last = path.split("/", 1)[0], path.rstrip("/").rsplit("/", 1)[-1]
            asset = "." in last and first != "people"
            if error.status_code != 404 or first == "api" or asset:
                raise
            return await super().get_response("index.html", scope)


def serve_client(app: FastAPI) -> None:
    """Serve the built client at ``/`` (nothing, if it is not built)."""
    if (CLIENT / "index.html").is_file():
        app.mount("/", ClientFiles(directory=CLIENT, html=True), name="client")
