"""A passkey authenticator in software for the API tests: soft-webauthn's device, given and
giving the JSON a browser's ``PublicKeyCredential`` reads and writes, that verifies its user
(as a PIN or a fingerprint would: the server asks for it) unless told not to."""

from __future__ import annotations

import json
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fido2 import cbor
from soft_webauthn import SoftWebauthnDevice
from webauthn import base64url_to_bytes
from webauthn.helpers import bytes_to_base64url

USER_VERIFIED = 0x04
"""The UV bit of authenticator data's flags."""


class Authenticator:
    """One passkey's authenticator (soft-webauthn's holds one credential) at ``origin``."""

    def __init__(self, origin: str, verifies_user: bool = True) -> None:
        self.device = SoftWebauthnDevice()
        self.origin = origin
        self.verifies_user = verifies_user

    @property
    def credential_id(self) -> str:
        return bytes_to_base64url(self.device.credential_id)

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create`` with the server's options (JSON)."""
        public_key = dict(options)
        public_key["challenge"] = base64url_to_bytes(options["challenge"])
        public_key["user"] = {**options["user"], "id": base64url_to_bytes(options["user"]["id"])}
        made = self.device.create({"publicKey": public_key}, origin or self.origin)
        attestation = cbor.decode(made["response"]["attestationObject"])
        if self.verifies_user:
            data = bytearray(attestation["authData"])
            data[32] |= USER_VERIFIED
            attestation["authData"] = bytes(data)
        return _as_json(
            made,
            attestationObject=bytes_to_base64url(cbor.encode(attestation)),
            transports=["internal"],
        )

    def get(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get`` with the server's options (JSON)."""
        public_key = dict(options)
        public_key["challenge"] = base64url_to_bytes(options["challenge"])
        made = self.device.get({"publicKey": public_key}, origin or self.origin)
        data = bytearray(made["response"]["authenticatorData"])
        signature = made["response"]["signature"]
        if self.verifies_user:
            data[32] |= USER_VERIFIED
            # The flags are signed: sign again, as the device would have.
            client_data = made["response"]["clientDataJSON"]
            digest = hashes.Hash(hashes.SHA256())
            digest.update(client_data)
            signature = self.device.private_key.sign(
                bytes(data) + digest.finalize(), ec.ECDSA(hashes.SHA256())
            )
        return _as_json(
            made,
            authenticatorData=bytes_to_base64url(bytes(data)),
            signature=bytes_to_base64url(signature),
            userHandle=bytes_to_base64url(made["response"]["userHandle"]),
        )


def _as_json(made: dict[str, Any], **response: Any) -> dict[str, Any]:
    """soft-webauthn's answer as ``PublicKeyCredential.toJSON()`` gives it (base64url)."""
    raw_id = bytes_to_base64url(made["rawId"])
    client_data = bytes_to_base64url(made["response"]["clientDataJSON"])
    return {
        "id": raw_id,
        "rawId": raw_id,
        "type": "public-key",
        "response": {"clientDataJSON": client_data, **response},
        "clientExtensionResults": {},
    }


def client_data(answer: dict[str, Any]) -> dict[str, Any]:
    """The client data an answer carries (what the browser says it asked)."""
    found: dict[str, Any] = json.loads(base64url_to_bytes(answer["response"]["clientDataJSON"]))
    return found
