"""What a password costs the server: hashing one (sign-up, a new password) and checking one
(sign-in), with the Argon2id parameters accounts use (``courtly.web.people.passwords``).

    .venv/bin/python benchmarks/passwords.py [--rounds 20]

The cost bounds how many sign-ins a core can check per second: the wrong-password limits
(per account and per address) keep a guesser far below that. Figures depend on the machine and
its load; report the median with the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from courtly.web.people.passwords import check_password, hash_password


def timed(work: object, rounds: int) -> list[float]:
    assert callable(work)
    spent = []
    for index in range(rounds):
        started = time.perf_counter()
        work(index)
        spent.append((time.perf_counter() - started) * 1000)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    rounds = parser.parse_args().rounds
    stored = hash_password("warm up")
    print(f"hash: {stored.split('$')[1]} {stored.split('$')[3]}")
    made = timed(lambda i: hash_password(f"password {i}"), rounds)
    checked = timed(lambda i: check_password(f"guess {i}", stored), rounds)
    load = os.getloadavg()[0]
    for what, spent in (("hash", made), ("check", checked)):
        print(
            f"{what}: median {statistics.median(spent):.0f} ms, min {min(spent):.0f} ms, "
            f"max {max(spent):.0f} ms over {rounds} (load {load:.1f} on {os.cpu_count()} cores)"
        )


if __name__ == "__main__":
    main()
