"""Who the server is to a passkey (WebAuthn's "relying party"): the origin the browser must
name in what the authenticator signs, and the RP id (a host name) the passkey is bound to.

By default both come from the request: the scheme (``https`` when the request came over TLS,
directly or through a trusted proxy's ``X-Forwarded-Proto``) and the ``Host`` header. A proxy
that rewrites ``Host`` hides the address the browser used: the operator then names it
(``courtly serve --origin https://cards.example.org``, and ``--rp-id example.org`` to share the
passkeys with the other hosts of the domain).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection

NAME = "Courtly"
"""The name an authenticator shows beside a passkey of this server."""


@dataclass(frozen=True)
class RelyingParty:
    """The origin a ceremony's answer must come from, and the RP id its passkey is bound to."""

    id: str
    origin: str


@dataclass(frozen=True)
class RelyingPartySettings:
    """What the operator fixed (None: taken from each request)."""

    origin: str | None = None
    rp_id: str | None = None

    def __post_init__(self) -> None:
        if self.origin is not None:
            parts = urlsplit(self.origin)
            if parts.scheme not in ("http", "https") or not parts.hostname or parts.path:
                raise ValueError(
                    f"the origin {self.origin!r} is not a scheme and a host (and a port), "
                    "such as https://cards.example.org"
                )
        if self.rp_id is not None and (not self.rp_id or "/" in self.rp_id or ":" in self.rp_id):
            raise ValueError(f"the RP id {self.rp_id!r} is not a host name")

    def of(self, connection: HTTPConnection) -> RelyingParty:
        """The relying party a ceremony of this request takes part with (400 when the request
        names no host the server can be)."""
        origin = self.origin or _request_origin(connection)
        host = urlsplit(origin).hostname
        if not host:
            raise HTTPException(400, "the request names no host: passkeys need one")
        return RelyingParty(id=self.rp_id or host, origin=origin)


def _request_origin(connection: HTTPConnection) -> str:
    refusal = HTTPException(400, "the request's Host header is not a host name: passkeys need one")
    host = connection.headers.get("host", "").lower()
    parts = urlsplit(f"//{host}")
    try:
        port = parts.port
    except ValueError:  # a port that is no number
        raise refusal from None
    if not parts.hostname or parts.path or parts.query or parts.fragment or "@" in host:
        raise refusal
    scheme = "https" if connection.url.scheme in ("https", "wss") else "http"
    # A browser's origin leaves out the scheme's own port.
    if port == {"https": 443, "http": 80}[scheme]:
        host = host.rsplit(":", 1)[0]
    return f"{scheme}://{host}"
