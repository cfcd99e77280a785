"""The OpenSpiel example: outcome-sampling MCCFR through the OpenSpiel game brings a tiny King's
Court policy closer to equilibrium, as OpenSpiel's own exploitability measures it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_mccfr.py"


def test_outcome_sampling_mccfr_lowers_the_exploitability() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--iterations", "1500"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    values = [float(x) for x in re.findall(r"exploitability ([\d.]+)", done.stdout)]
    uniform, learned = values
    assert uniform > 0.05  # the uniform policy is exploitable
    assert learned < 0.7 * uniform, done.stdout
    assert "p0\nchance: " in done.stdout  # the readable information state
