"""Sending e-mail: the operator's SMTP server (``courtly serve --smtp-url``), read from its URL,
a connection to it and the messages handed to it, through the standard library's
:mod:`smtplib`.

``smtp://user:pass@host:port`` speaks plain SMTP (port 25 unless given); ``smtp+starttls://``
upgrades the connection with STARTTLS before signing in (port 587); ``smtps://`` speaks TLS
from the start (port 465). User and password are optional (percent-encoded in the URL).
"""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from typing import Final
from urllib.parse import unquote, urlsplit

SCHEMES: Final = {"smtp": 25, "smtp+starttls": 587, "smtps": 465}
"""The URL schemes understood, with their default ports."""
TIMEOUT: Final = 30.0
"""Seconds an SMTP server may take to answer."""
POLICY: Final = SMTP_POLICY.clone(max_line_length=998)
"""Lines as long as SMTP allows: a link (List-Unsubscribe's too) stays whole and readable."""


class MailUrlError(ValueError):
    """An SMTP URL that cannot be used: the message says why."""


@dataclass(frozen=True)
class Mailer:
    """An SMTP server to send through, and the sender's address."""

    host: str
    port: int
    security: str
    """``plain``, ``starttls`` or ``ssl``."""
    user: str
    password: str
    sender: str

    @classmethod
    def from_url(cls, url: str, sender: str) -> Mailer:
        parts = urlsplit(url)
        if parts.scheme not in SCHEMES:
            raise MailUrlError(
                f"an SMTP URL begins with {', '.join(s + '://' for s in SCHEMES)}, "
                f"not {parts.scheme or 'nothing'}"
            )
        if not parts.hostname:
            raise MailUrlError("an SMTP URL names its host: smtp://user:pass@host:port")
        try:
            port = parts.port or SCHEMES[parts.scheme]
        except ValueError:
            raise MailUrlError("the SMTP URL's port is not a number from 1 to 65535") from None
        if "@" not in sender:
            raise MailUrlError(f"the sender {sender!r} is not an e-mail address")
        security = {"smtp": "plain", "smtp+starttls": "starttls", "smtps": "ssl"}[parts.scheme]
        return cls(
            host=parts.hostname,
            port=port,
            security=security,
            user=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
            sender=sender,
        )

    def connect(self) -> smtplib.SMTP:
        """A connection to the SMTP server, secured and signed in as the URL says (blocking;
        the caller closes it, ``with`` it)."""
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if self.security == "ssl":
            smtp = smtplib.SMTP_SSL(self.host, self.port, timeout=TIMEOUT, context=context)
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT)
        try:
            if self.security == "starttls":
                smtp.starttls(context=context)
            if self.user:
                smtp.login(self.user, self.password)
        except BaseException:
            smtp.close()
            raise
        return smtp

    def message(self, to: str, subject: str, text: str, headers: dict[str, str]) -> EmailMessage:
        """One plain-text message from the server's sender."""
        message = EmailMessage(policy=POLICY)
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = subject
        for name, value in headers.items():
            message[name] = value
        message.set_content(text)
        return message
