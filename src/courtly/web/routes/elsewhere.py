"""Requests that no API route takes: 405 with the methods the path takes (``Allow``) for a
path the API has, 404 for one it has not.

The router says so itself when nothing else matches; but the browser client's files are served
at ``/`` (:mod:`courtly.web.static`), and would answer every such request with their own 404
first. So the last route of the API takes every ``/api/`` path left, and asks the routes again.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, Match, Route
from starlette.types import Receive, Scope, Send


class Elsewhere:
    """The ASGI app of the last ``/api/`` route: it finds the route whose path matches but not
    the method, and lets it refuse (405), or refuses with 404."""

    def __init__(self, routes: list[BaseRoute]) -> None:
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        for route in self.routes:
            if isinstance(route, Route) and route.endpoint is self:
                continue
            match, child = route.matches(scope)
            if match == Match.PARTIAL:
                try:
                    await route.handle({**scope, **child}, receive, send)
                except HTTPException as error:
                    if error.status_code != 405 or not error.headers:
                        raise
                    methods = error.headers.get("Allow", "")
                    raise HTTPException(
                        405,
                        f"{scope['method']} is not allowed on {scope['path']}: it takes {methods}",
                        headers=error.headers,
                    ) from None
                return
        raise HTTPException(404, f"the API has no {scope['path']}")


def refuse_elsewhere(app: FastAPI) -> None:
    """Add the route that refuses the ``/api/`` requests no route of ``app`` took: after every
    route of the API, before the client's files."""
    app.router.routes.append(Route("/api/{path:path}", Elsewhere(app.router.routes)))
