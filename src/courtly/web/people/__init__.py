"""People: the accounts a person may make (optional: guests play with seat tokens alone), how
they sign in (a password; passkeys), the server-side sessions their browsers hold, and what an
account may do to itself.

:mod:`.model` is what the rest of the server knows of an account; :mod:`.passwords` hashes and
checks passwords (Argon2id through ``pwdlib``); :mod:`.sessions` starts, finds and ends
sessions and sets their cookie; :mod:`.accounts` is ``server.people``, the account logic and its
storage.
"""

from __future__ import annotations

from .accounts import People
from .model import DELETED_NAME, Account
from .sessions import begin_session

__all__ = ["DELETED_NAME", "Account", "People", "begin_session"]
