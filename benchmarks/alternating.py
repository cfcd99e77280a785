"""Two builds measured in turn: this checkout's and another's, in the same sitting.

A benchmark that can print its own measure as JSON (``--json``) is run here and in a fresh
interpreter importing another checkout's ``src`` (built alike), ``rounds`` times in turn, so that
both sides meet the same machine: its speed wanders by tens of per cent between minutes, and
only measures taken side by side compare.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable

Measure = dict[str, object]
"""One run's measure, as the script prints it with ``--json``."""


def run_elsewhere(script: str, source: str, argv: list[str]) -> Measure:
    """``script``'s ``--json`` measure in a fresh interpreter importing ``source`` (compiled
    modules included: ``COURTLY_PURE`` is not passed on)."""
    environment = dict(os.environ, PYTHONPATH=source)
    environment.pop("COURTLY_PURE", None)
    done = subprocess.run(
        [sys.executable, script, "--json", *argv],
        env=environment,
        check=True,
        capture_output=True,
        text=True,
    )
    result: Measure = json.loads(done.stdout)
    return result


def alternate(
    script: str,
    measure: Callable[[], Measure],
    argv: list[str],
    baseline: str | None,
    rounds: int,
) -> tuple[list[Measure], list[Measure]]:
    """This build's runs and the baseline's (none without one), ``rounds`` of each in turn.
    With a baseline, this build is measured in a fresh interpreter too, so that neither side
    inherits the other's warm caches."""
    here = os.environ.get("PYTHONPATH", "")
    ours: list[Measure] = []
    theirs: list[Measure] = []
    for _ in range(rounds):
        ours.append(run_elsewhere(script, here, argv) if baseline else measure())
        if baseline:
            theirs.append(run_elsewhere(script, baseline, argv))
    return ours, theirs


def compiled_line(ours: list[Measure], theirs: list[Measure]) -> str:
    """Whether each side ran compiled (figures of the pure-Python engine do not compare)."""
    return (
        f"compiled: this {ours[0]['compiled']}, baseline {theirs[0]['compiled'] if theirs else '-'}"
    )
