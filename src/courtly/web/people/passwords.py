"""Passwords: hashed with Argon2id (``pwdlib`` on ``argon2-cffi``, its recommended parameters),
checked in the time a real check takes even for a name nobody has (a refusal's timing tells
nobody which names exist), and rehashed when the parameters grow.

A hash takes 64 MiB and a few tenths of a second of a core: at most :data:`AT_ONCE` are made at
once (the others wait their turn), so a burst of sign-ins costs time, never the server's
memory."""

from __future__ import annotations

import os
import threading
from functools import cache

from pwdlib import PasswordHash
from pwdlib.exceptions import UnknownHashError
from pwdlib.hashers.argon2 import Argon2Hasher

_hasher = PasswordHash((Argon2Hasher(),))

AT_ONCE = max(1, os.cpu_count() or 1)
"""Hashes made or checked at once: one per core."""
_turns = threading.BoundedSemaphore(AT_ONCE)


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` in PHC form (``$argon2id$v=19$m=...``)."""
    with _turns:
        return _hasher.hash(password)


@cache
def _decoy() -> str:
    return hash_password("a password nobody has")


def check_password(password: str, stored: str | None) -> tuple[bool, str | None]:
    """Whether ``password`` matches the ``stored`` hash (None: no password, or no such account:
    checked against a decoy all the same), and the new hash to store if the hash's parameters
    are out of date."""
    decoy = _decoy()
    with _turns:
        if stored is None:
            _hasher.verify(password, decoy)
            return False, None
        try:
            return _hasher.verify_and_update(password, stored)
        except UnknownHashError:  # a hash this library cannot read: no password matches it
            return False, None
