"""Wrong passwords, counted: per account and per client address, each in a moving window (the
``limits`` library, in memory: each server process counts its own). Over either limit a
password is not even checked: 429 with ``Retry-After``. Sign-ups are counted per address too
(each one makes an account, and hashes a password).

Guessing one person's password is slowed to :data:`PER_ACCOUNT` guesses per window whatever
the addresses; guessing many people's passwords from one address, to :data:`PER_ADDRESS`. A
right password clears its account's count (its owner is not kept out by the guesses before),
never the address's.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from fastapi import HTTPException
from limits import RateLimitItem, RateLimitItemPerHour, RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

WINDOW_MINUTES = 15


@dataclass(frozen=True)
class PasswordLimits:
    """Wrong passwords allowed per :data:`WINDOW_MINUTES` minutes; 0: no limit."""

    per_account: int = 10
    per_address: int = 50
    """Higher than per account: people behind one address (a household, a school) share it."""
    sign_ups_per_address: int = 20
    """Accounts one address may make per hour."""


class PasswordThrottle:
    """Counts wrong passwords per account (its folded name) and per address."""

    def __init__(self, limits: PasswordLimits | None = None) -> None:
        self.limits = limits or PasswordLimits()
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._account = RateLimitItemPerMinute(max(1, self.limits.per_account), WINDOW_MINUTES)
        self._address = RateLimitItemPerMinute(max(1, self.limits.per_address), WINDOW_MINUTES)
        self._sign_ups = RateLimitItemPerHour(max(1, self.limits.sign_ups_per_address))

    def _checks(self, account: str, address: str) -> list[tuple[RateLimitItem, str, str]]:
        checks: list[tuple[RateLimitItem, str, str]] = []
        if self.limits.per_account > 0:
            checks.append((self._account, f"account:{account}", "for this account"))
        if self.limits.per_address > 0:
            checks.append((self._address, f"address:{address}", f"from {address}"))
        return checks

    def check(self, account: str, address: str) -> None:
        """429 if ``account`` or ``address`` has had too many wrong passwords lately."""
        for item, key, whom in self._checks(account, address):
            if not self._limiter.test(item, key):
                wait = self._wait(item, key)
                raise HTTPException(
                    429,
                    f"too many wrong passwords {whom}: at most {item.amount} in "
                    f"{WINDOW_MINUTES} minutes; try again in {wait} s",
                    headers={"Retry-After": str(wait)},
                )

    def sign_up(self, address: str) -> None:
        """Count a sign-up from ``address``: 429 over :attr:`PasswordLimits.sign_ups_per_address`
        an hour."""
        if self.limits.sign_ups_per_address <= 0:
            return
        key = f"sign-up:{address}"
        if not self._limiter.hit(self._sign_ups, key):
            wait = self._wait(self._sign_ups, key)
            raise HTTPException(
                429,
                f"too many accounts made from {address}: at most "
                f"{self.limits.sign_ups_per_address} an hour; try again in {wait} s",
                headers={"Retry-After": str(wait)},
            )

    def _wait(self, item: RateLimitItem, key: str) -> int:
        stats = self._limiter.get_window_stats(item, key)
        return max(1, math.ceil(stats.reset_time - time.time()))

    def wrong(self, account: str, address: str) -> None:
        """Count a wrong password."""
        for item, key, _whom in self._checks(account, address):
            self._limiter.hit(item, key)

    def right(self, account: str) -> None:
        """A right password: the account's count starts again."""
        if self.limits.per_account > 0:
            self._limiter.clear(self._account, f"account:{account}")
