"""The learning example trains a policy that beats the random bot."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_royal_gambit.py"


def test_the_numpy_policy_learns_to_beat_random() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--episodes", "800", "--test-games", "300"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    rates = [float(x) for x in re.findall(r"wins ([\d.]+)% of 300 games", done.stdout)]
    before, after = rates
    assert 35 < before < 65  # a uniform policy: about as good as random
    assert after > 75, done.stdout
