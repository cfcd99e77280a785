"""What every route module shares: how a route declares the body it answers with.

A route returns the dict it built (a :mod:`courtly.web.protocol` ``TypedDict``, checked by
mypy), sent as it is: the declared shape goes to the OpenAPI schema only, with no validation or
copy of the answer at run time.
"""

from __future__ import annotations

from typing import Any


def answers(shape: Any, status: int = 200, description: str = "Successful Response") -> Any:
    """The route options that declare ``shape`` as the body of its ``status`` answer."""
    return {
        "status_code": status,
        "response_model": None,
        "responses": {status: {"model": shape, "description": description}},
    }
