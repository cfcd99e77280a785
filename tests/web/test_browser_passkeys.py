"""Passkeys in Chromium, made and used by its virtual authenticator (WebAuthn through
Playwright's CDP session, a discoverable credential that verifies its user): a passkey added
to an account signs it in again after signing out, in the same browser and in another one that
holds the same passkey (a phone's passkey synced to a laptop); the same through the pages'
buttons (the account page's list, the sign-in page's button).

The pages are served at ``localhost``: an RP id must be a host name, never an IP address.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import CDPSession, Locator, Page, expect

from .browsing import Server
from .test_browser_people import sign

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}

SIGN_UP = """async ([name, password]) => {
  const answer = await fetch("/api/account", {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({name, password}),
  });
  return [answer.status, await answer.json()];
}"""

ADD_PASSKEY = """async (csrf) => {
  const headers = {"Content-Type": "application/json", "X-Courtly-CSRF": csrf};
  const begun = await (await fetch("/api/account/passkeys/options", {method: "POST", headers})).json();
  const made = await navigator.credentials.create({
    publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(begun.options),
  });
  const added = await fetch("/api/account/passkeys", {
    method: "POST",
    headers,
    body: JSON.stringify({ceremony: begun.ceremony, credential: made.toJSON(), label: "laptop"}),
  });
  return [added.status, await added.json()];
}"""

SIGN_IN = """async (name) => {
  const headers = {"Content-Type": "application/json"};
  const begun = await (await fetch("/api/account/passkey-session/options", {
    method: "POST", headers, body: JSON.stringify({name}),
  })).json();
  const used = await navigator.credentials.get({
    publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(begun.options),
  });
  const signed = await fetch("/api/account/passkey-session", {
    method: "POST",
    headers,
    body: JSON.stringify({ceremony: begun.ceremony, credential: used.toJSON()}),
  });
  return [signed.status, await signed.json()];
}"""

SIGN_OUT = """async (csrf) => {
  await fetch("/api/account/session", {method: "DELETE", headers: {"X-Courtly-CSRF": csrf}});
  return (await fetch("/api/account")).status;
}"""

WHO = """async () => {
  const answer = await fetch("/api/account");
  return [answer.status, await answer.json()];
}"""


@pytest.fixture
def at_localhost(
    new_page: Callable[..., Page], server: Server
) -> Iterator[Callable[[], tuple[Page, CDPSession, str]]]:
    """Pages of the server at ``localhost``, each with a virtual authenticator of its own."""

    def make() -> tuple[Page, CDPSession, str]:
        page = new_page(base_url=server.url.replace("127.0.0.1", "localhost"))
        page.goto("/")
        cdp = page.context.new_cdp_session(page)
        cdp.send("WebAuthn.enable", {"enableUI": False})
        added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
        return page, cdp, added["authenticatorId"]

    yield make


def menu(page: Page) -> Locator:
    """The header's account menu."""
    return page.get_by_role("navigation", name="Account")


def credentials(cdp: CDPSession, authenticator: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = cdp.send(
        "WebAuthn.getCredentials", {"authenticatorId": authenticator}
    )["credentials"]
    return found


def test_a_passkey_signs_in_again_here_and_on_another_device(
    at_localhost: Callable[[], tuple[Page, CDPSession, str]],
) -> None:
    laptop, laptop_cdp, laptop_authenticator = at_localhost()
    status, account = laptop.evaluate(SIGN_UP, ["Anna", "a long password"])
    assert status == 201, account
    status, added = laptop.evaluate(ADD_PASSKEY, account["csrf"])
    assert status == 201, added
    assert added["label"] == "laptop"
    held = credentials(laptop_cdp, laptop_authenticator)
    assert len(held) == 1 and held[0]["isResidentCredential"] and held[0]["rpId"] == "localhost"
    assert laptop.evaluate(SIGN_OUT, account["csrf"]) == 401

    # Signed in again with no name typed: the authenticator tells whose passkey it is.
    status, signed = laptop.evaluate(SIGN_IN, None)
    assert status == 200, signed
    assert signed["name"] == "Anna"
    assert laptop.evaluate(WHO)[1]["name"] == "Anna"

    # Another browser (its own cookies and storage) holding the same passkey, as a synced one
    # is held: it signs in by name, then with none.
    phone, phone_cdp, phone_authenticator = at_localhost()
    assert phone.evaluate(WHO)[0] == 401
    # A copy made before the laptop signed in: its counter is behind the server's, a cloned
    # authenticator's mark.
    phone_cdp.send(
        "WebAuthn.addCredential", {"authenticatorId": phone_authenticator, "credential": held[0]}
    )
    status, refused = phone.evaluate(SIGN_IN, "Anna")
    assert status == 401, refused
    assert phone.evaluate(WHO)[0] == 401
    phone_cdp.send(
        "WebAuthn.removeCredential",
        {"authenticatorId": phone_authenticator, "credentialId": held[0]["credentialId"]},
    )
    synced = credentials(laptop_cdp, laptop_authenticator)[0]
    assert synced["signCount"] > held[0]["signCount"]
    phone_cdp.send(
        "WebAuthn.addCredential", {"authenticatorId": phone_authenticator, "credential": synced}
    )
    status, signed = phone.evaluate(SIGN_IN, "Anna")
    assert status == 200, signed
    assert signed["name"] == "Anna"
    assert phone.evaluate(WHO)[1]["name"] == "Anna"
    # The laptop's session is its own, untouched.
    assert laptop.evaluate(WHO)[1]["name"] == "Anna"


def test_the_pages_add_a_passkey_and_sign_in_with_it(
    at_localhost: Callable[[], tuple[Page, CDPSession, str]],
) -> None:
    laptop, laptop_cdp, laptop_authenticator = at_localhost()
    sign(laptop, "Bea")
    laptop.get_by_test_id("signed-in-name").click()
    laptop.get_by_label("Name it (optional)").fill("my laptop")
    laptop.get_by_role("button", name="Add a passkey").click()
    expect(laptop.get_by_role("status")).to_contain_text('Passkey "my laptop" added')
    expect(laptop.locator(".passkey-list li")).to_have_count(1)
    assert len(credentials(laptop_cdp, laptop_authenticator)) == 1
    laptop.get_by_role("button", name="Sign out", exact=True).click()
    menu(laptop).get_by_role("link", name="Sign in").click()
    # No name typed: the passkey tells whose it is.
    laptop.get_by_role("button", name="Sign in with a passkey").click()
    expect(laptop.get_by_test_id("signed-in-name")).to_have_text("Bea")

    # Another device holding the passkey (synced): the name typed, then the passkey.
    phone, phone_cdp, phone_authenticator = at_localhost()
    synced = credentials(laptop_cdp, laptop_authenticator)[0]
    phone_cdp.send(
        "WebAuthn.addCredential", {"authenticatorId": phone_authenticator, "credential": synced}
    )
    phone.goto("/signin")
    phone.fill("#account-name", "Bea")
    phone.get_by_role("button", name="Sign in with a passkey").click()
    expect(phone.get_by_test_id("signed-in-name")).to_have_text("Bea")

    # Removed on the account page, it signs nobody in: the page says why.
    phone.get_by_test_id("signed-in-name").click()
    phone.get_by_role("button", name="Remove the passkey my laptop").click()
    expect(phone.get_by_role("status")).to_contain_text('Passkey "my laptop" removed')
    expect(phone.locator(".passkey-list li")).to_have_count(0)
    phone.get_by_role("button", name="Sign out", exact=True).click()
    menu(phone).get_by_role("link", name="Sign in").click()
    phone.get_by_role("button", name="Sign in with a passkey").click()
    expect(phone.locator(".passkey-sign-in .error")).to_contain_text("not known here")
    expect(menu(phone).get_by_role("link", name="Sign in")).to_be_visible()
