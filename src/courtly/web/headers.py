"""The security headers of every answer: what a browser may load and run on Courtly's pages,
that no other site may frame them, and that nothing is sniffed or leaked through a referrer.

The browser client is built from its own files (Vite: one module script, one style sheet, lazy
chunks, no inline script and no inline style element), so its pages run under a strict
Content-Security-Policy: scripts, styles, fonts, images and connections (the API and its
WebSocket) from this origin alone; the page's icon is a ``data:`` URL. The schema's pages
(``/docs``, ``/redoc``) are FastAPI's, which load their scripts from a CDN and start them with an
inline script: they get every header but the CSP's script rules (still never framed).

A cross-site request cannot act for a seat: a seat proves itself with its token in an
``Authorization`` header (or a WebSocket's first message), which a browser never adds by itself
to another site's request, and there are no CORS headers, so another site's script cannot read
an answer or send that header. The one cookie, a signed-in person's session, is guarded by a
CSRF token (:mod:`courtly.web.people.sessions`).
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        # WebAssembly may be compiled (Pyodide, the offline engine), never a string run as code.
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""The client's pages: nothing but this origin's own files ('self' covers its WebSocket), and
this origin's WebAssembly (the offline engine's Pyodide)."""

SCHEMA_PAGES_POLICY = "frame-ancestors 'none'; object-src 'none'; base-uri 'none'"
"""FastAPI's schema pages (a CDN's scripts, an inline start): only never framed."""

SCHEMA_PAGES = ("/docs", "/redoc")

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
"""Sent with every answer: table ids are in the pages' addresses, so no referrer leaves."""


class SecurityHeaders:
    """The ASGI middleware that adds :data:`HEADERS` and the Content-Security-Policy to every
    HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        schema_page = any(path == page or path.startswith(page + "/") for page in SCHEMA_PAGES)
        policy = SCHEMA_PAGES_POLICY if schema_page else CONTENT_SECURITY_POLICY

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
                headers.setdefault("Content-Security-Policy", policy)
            await send(message)

        await self.app(scope, receive, with_headers)
