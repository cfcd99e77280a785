"""Passkeys (WebAuthn, through the ``webauthn`` library): adding one to a signed-in account,
signing in with one (a discoverable passkey, no name typed; or the passkeys of a name), listing
and removing one's passkeys.

Each ceremony is two requests: the options (with a fresh challenge, kept in the database so
that any server process may take the answer), then the answer, which consumes the challenge
whether it verifies or not (single use; expired after :data:`CHALLENGE_SECONDS`). A passkey
must verify its user (a PIN, a fingerprint: it is the only thing a passkey sign-in asks for),
and its signature counter, where the authenticator keeps one, must grow at every use: a
counter that does not is a copied authenticator's, refused.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import delete, func, select
from starlette.exceptions import HTTPException
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    bytes_to_base64url,
    options_to_json_dict,
    parse_authentication_credential_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticationCredential,
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    RegistrationCredential,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..protocol import PasskeyCeremony, PasskeyInfo
from ..storage import Storage, Transaction
from ..storage.rows import AccountRow, ChallengeRow, PasskeyRow
from .model import Account, name_key
from .relying_party import NAME, RelyingParty

CHALLENGE_SECONDS: Final = 300
"""Seconds a ceremony's challenge may be answered in (the browser is told as much)."""
MAX_PASSKEYS: Final = 20
"""Passkeys one account may hold (a phone, a laptop, a security key or two: far fewer)."""
MAX_CREDENTIAL_ID: Final = 400
"""Characters of a credential's id (base64url) the database keeps; authenticators' are far
shorter."""
MAX_CHALLENGES: Final = 50_000
"""Ceremonies under way on the server (anyone may begin a sign-in): a few MB of rows at most,
whatever many addresses ask; beyond, 429 until some are answered or expire."""
CHALLENGE_RETRY: Final = 60
"""Seconds a client is told to wait when :data:`MAX_CHALLENGES` are under way."""
REGISTER: Final = "register"
SIGN_IN: Final = "sign-in"


class PasskeyRefused(HTTPException):
    """A ceremony the server refuses: the status and, in words, why."""


def _expired_ceremony() -> PasskeyRefused:
    return PasskeyRefused(
        400, "this passkey request is unknown, already answered or expired: start again"
    )


def _not_verified() -> PasskeyRefused:
    return PasskeyRefused(401, "the passkey's answer did not verify: sign in again")


class Passkeys:
    """The passkeys of the accounts, and their ceremonies, on the server's storage."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # ------------------------------------------------------------------------------ adding one

    def registration_options(self, account: Account, party: RelyingParty) -> PasskeyCeremony:
        """Begin adding a passkey to ``account``: the options for
        ``navigator.credentials.create`` (its passkeys excluded: an authenticator holds one
        passkey of an account)."""
        with self.storage.session() as session:
            held = self._credentials_of(session, account.id)
            if len(held) >= MAX_PASSKEYS:
                raise PasskeyRefused(
                    409, f"an account holds at most {MAX_PASSKEYS} passkeys: remove one first"
                )
            options = generate_registration_options(
                rp_id=party.id,
                rp_name=NAME,
                user_name=account.name,
                user_id=account.id.encode(),
                user_display_name=account.name,
                timeout=CHALLENGE_SECONDS * 1000,
                authenticator_selection=AuthenticatorSelectionCriteria(
                    resident_key=ResidentKeyRequirement.REQUIRED,
                    user_verification=UserVerificationRequirement.REQUIRED,
                ),
                exclude_credentials=[PublicKeyCredentialDescriptor(id=c) for c in held],
            )
            ceremony = self._add_challenge(session, options.challenge, REGISTER, account.id)
        return {"ceremony": ceremony, "options": options_to_json_dict(options)}

    def register(
        self,
        account: Account,
        party: RelyingParty,
        ceremony: str,
        credential: dict[str, Any],
        label: str,
    ) -> PasskeyInfo:
        """Finish adding a passkey: verify the authenticator's answer to ``ceremony`` and keep
        the passkey under ``label`` (a default one if empty)."""
        challenge = self._take_challenge(ceremony, REGISTER)
        if challenge.account_id != account.id:
            raise _expired_ceremony()
        try:
            parsed: RegistrationCredential = parse_registration_credential_json(credential)
            verified = verify_registration_response(
                credential=parsed,
                expected_challenge=challenge.challenge,
                expected_rp_id=party.id,
                expected_origin=party.origin,
                require_user_verification=True,
            )
        # The library and those under it (CBOR, ASN.1, cryptography) raise many kinds of
        # error at a hostile answer: whichever it is, the answer did not verify.
        except Exception as error:
            raise PasskeyRefused(400, f"the new passkey did not verify: {_reason(error)}") from None
        credential_id = bytes_to_base64url(verified.credential_id)
        if len(credential_id) > MAX_CREDENTIAL_ID:
            raise PasskeyRefused(400, "this authenticator's credential id is too long to keep")
        now = time.time()
        with self.storage.session() as session:
            if session.get(PasskeyRow, credential_id) is not None:
                raise PasskeyRefused(409, "this passkey is already added")
            held = self._credentials_of(session, account.id)
            if len(held) >= MAX_PASSKEYS:
                raise PasskeyRefused(
                    409, f"an account holds at most {MAX_PASSKEYS} passkeys: remove one first"
                )
            row = PasskeyRow(
                credential_id=credential_id,
                account_id=account.id,
                public_key=verified.credential_public_key,
                sign_count=verified.sign_count,
                transports=[t.value for t in parsed.response.transports or ()][:8],
                label=label or f"passkey {len(held) + 1}",
                created_at=now,
                used_at=None,
            )
            session.add(row)
        return _info(row)

    # ------------------------------------------------------------------------------ signing in

    def sign_in_options(self, party: RelyingParty, name: str | None) -> PasskeyCeremony:
        """Begin a sign-in: the options for ``navigator.credentials.get``. With no ``name``,
        any passkey of this server the authenticator holds (it tells whose); with a name, that
        account's passkeys only (404 when it has none)."""
        with self.storage.session() as session:
            account_id: str | None = None
            allowed: list[PublicKeyCredentialDescriptor] = []
            if name is not None:
                row = session.scalars(
                    select(AccountRow).where(AccountRow.name_key == name_key(name))
                ).first()
                held = [] if row is None else self._credentials_of(session, row.id)
                if row is None or row.deleted_at is not None or not held:
                    raise PasskeyRefused(404, "no account of that name has a passkey")
                account_id = row.id
                allowed = [PublicKeyCredentialDescriptor(id=c) for c in held]
            options = generate_authentication_options(
                rp_id=party.id,
                timeout=CHALLENGE_SECONDS * 1000,
                allow_credentials=allowed,
                user_verification=UserVerificationRequirement.REQUIRED,
            )
            ceremony = self._add_challenge(session, options.challenge, SIGN_IN, account_id)
        return {"ceremony": ceremony, "options": options_to_json_dict(options)}

    def sign_in(self, party: RelyingParty, ceremony: str, credential: dict[str, Any]) -> str:
        """Finish a sign-in: verify the authenticator's answer to ``ceremony``, count the
        passkey's use, and return its account's id (the caller starts the session)."""
        challenge = self._take_challenge(ceremony, SIGN_IN)
        try:
            parsed: AuthenticationCredential = parse_authentication_credential_json(credential)
        except Exception:  # the library's, or a type it did not expect: not an answer
            raise _not_verified() from None
        credential_id = bytes_to_base64url(parsed.raw_id)
        with self.storage.session() as session:
            row = session.scalars(
                select(PasskeyRow)
                .where(PasskeyRow.credential_id == credential_id)
                .with_for_update()
            ).first()
            if row is None:
                raise PasskeyRefused(401, "this passkey is not known here (removed?)")
            owner = row.account_id
            if challenge.account_id is not None and challenge.account_id != owner:
                raise PasskeyRefused(401, "this passkey is not one of that name's")
            handle = parsed.response.user_handle
            if handle is not None and handle != owner.encode():
                raise _not_verified()
            account = session.get(AccountRow, owner)
            if account is None or account.deleted_at is not None:
                raise PasskeyRefused(401, "this passkey is not known here (removed?)")
            if account.disabled:
                raise PasskeyRefused(403, "this account is disabled")
            try:
                verified = verify_authentication_response(
                    credential=parsed,
                    expected_challenge=challenge.challenge,
                    expected_rp_id=party.id,
                    expected_origin=party.origin,
                    credential_public_key=row.public_key,
                    credential_current_sign_count=row.sign_count,
                    require_user_verification=True,
                )
            except Exception:  # as in :meth:`register`: any failure is the same refusal
                raise _not_verified() from None
            row.sign_count = verified.new_sign_count
            row.used_at = time.time()
        return owner

    # ------------------------------------------------------------------------------ one's own

    def of(self, account_id: str) -> list[PasskeyInfo]:
        """The account's passkeys, the oldest first."""
        with self.storage.session() as session:
            rows = session.scalars(
                select(PasskeyRow)
                .where(PasskeyRow.account_id == account_id)
                .order_by(PasskeyRow.created_at)
            ).all()
            return [_info(row) for row in rows]

    def remove(self, account_id: str, credential_id: str) -> None:
        """Remove one of the account's passkeys (404 if it holds no such passkey); refused
        (409) for the last one of an account with no password, which could no longer sign in."""
        with self.storage.session() as session:
            row = session.get(PasskeyRow, credential_id)
            if row is None or row.account_id != account_id:
                raise PasskeyRefused(404, "you hold no such passkey")
            account = session.get(AccountRow, account_id)
            if account is not None and account.password_hash is None:
                count = session.scalar(
                    select(func.count()).where(PasskeyRow.account_id == account_id)
                )
                if (count or 0) <= 1:
                    raise PasskeyRefused(
                        409, "this is your only way to sign in: add another passkey first"
                    )
            session.delete(row)

    # ------------------------------------------------------------------------------ storage

    @staticmethod
    def _credentials_of(session: Transaction, account_id: str) -> list[bytes]:
        ids = session.scalars(
            select(PasskeyRow.credential_id).where(PasskeyRow.account_id == account_id)
        ).all()
        return [base64url_to_bytes(i) for i in ids]

    @staticmethod
    def _add_challenge(
        session: Transaction, challenge: bytes, purpose: str, account_id: str | None
    ) -> str:
        now = time.time()
        # Expired challenges go as new ones come: the table holds only the last minutes'.
        session.execute(delete(ChallengeRow).where(ChallengeRow.expires_at < now))
        under_way = session.scalar(select(func.count()).select_from(ChallengeRow)) or 0
        if under_way >= MAX_CHALLENGES:
            raise PasskeyRefused(
                429,
                f"too many passkey ceremonies under way (at most {MAX_CHALLENGES}): try again "
                f"in {CHALLENGE_RETRY} s",
                headers={"Retry-After": str(CHALLENGE_RETRY)},
            )
        ceremony = secrets.token_urlsafe(24)
        session.add(
            ChallengeRow(
                id=ceremony,
                challenge=challenge,
                purpose=purpose,
                account_id=account_id,
                expires_at=now + CHALLENGE_SECONDS,
            )
        )
        return ceremony

    def _take_challenge(self, ceremony: str, purpose: str) -> Challenge:
        """The ceremony's challenge, deleted in a transaction of its own (committed before the
        answer is verified: a failed answer uses it up too). Of two processes given the same
        answer, one deletes the row and gets it back; the other gets nothing, and refuses."""
        with self.storage.session() as session:
            found = session.execute(
                delete(ChallengeRow)
                .where(ChallengeRow.id == ceremony)
                .returning(
                    ChallengeRow.challenge,
                    ChallengeRow.purpose,
                    ChallengeRow.account_id,
                    ChallengeRow.expires_at,
                )
            ).first()
        if found is None:
            raise _expired_ceremony()
        challenge = Challenge(*found)
        if challenge.purpose != purpose or challenge.expires_at < time.time():
            raise _expired_ceremony()
        return challenge


@dataclass(frozen=True)
class Challenge:
    """A ceremony's challenge, taken: what its answer must sign, for what, and for whom."""

    challenge: bytes
    purpose: str
    account_id: str | None
    expires_at: float


def _info(row: PasskeyRow) -> PasskeyInfo:
    return {
        "id": row.credential_id,
        "label": row.label,
        "created_at": row.created_at,
        "used_at": row.used_at,
        "transports": list(row.transports),
    }


def _reason(error: Exception) -> str:
    """The library's words for its own refusals (they name the check that failed); a plain
    phrase for the rest, which may quote the hostile input."""
    if isinstance(error, WebAuthnException) and str(error):
        return str(error).split(". See __cause__")[0][:200]
    return "the answer is malformed"
