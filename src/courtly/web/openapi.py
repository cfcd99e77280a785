"""The OpenAPI schema, with the WebSocket's messages in its components: a WebSocket route is not
in OpenAPI, and the browser client's types are generated from this one schema, REST and
WebSocket alike.
(:mod:`courtly.web.schema` writes it out for the client's types).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import TypeAdapter

from .protocol import SOCKET_MESSAGES

REF = "#/components/schemas/{model}"


def with_socket_messages(app: FastAPI) -> None:
    """Make ``app.openapi()`` add :data:`~courtly.web.protocol.SOCKET_MESSAGES` (and every
    shape they use) to the schema's components."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                openapi_version=app.openapi_version,
                summary=app.summary,
                description=app.description,
                routes=app.routes,
            )
            shapes = schema.setdefault("components", {}).setdefault("schemas", {})
            for name, shape in SOCKET_MESSAGES.items():
                found = TypeAdapter(shape).json_schema(ref_template=REF, mode="serialization")
                for defined, definition in found.pop("$defs", {}).items():
                    shapes.setdefault(defined, definition)
                shapes[name] = {"title": name, **found}
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
