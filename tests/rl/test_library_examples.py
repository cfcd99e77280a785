"""The examples with libraries nobody here wrote run at a small budget and learn: sb3-contrib's
MaskablePPO through the Gymnasium env with no wrapper of the user's own, and a self-play loop
through the PettingZoo env."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RATE = re.compile(r"win rate ([\d.]+)% \[([\d.]+)%, ([\d.]+)%\] over (\d+) games")


def run(example: str, *arguments: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / example), *arguments],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return done.stdout


def test_maskable_ppo_trains_through_gymnasium_with_no_illegal_action() -> None:
    out = run("maskable_ppo.py", "--steps", "4096", "--n-steps", "512", "--test-games", "60")
    (before, *_), (after, low, *_) = (tuple(map(float, m)) for m in RATE.findall(out))
    assert "illegal actions tried in training: 0" in out
    assert 30 < before < 70  # uniform over the legal actions: about as good as random
    assert after > before and low > 50, out


def test_a_pettingzoo_self_play_loop_learns_to_beat_random() -> None:
    out = run("pettingzoo_self_play.py", "--episodes", "600", "--test-games", "100")
    (before, *_), (after, low, *_) = (tuple(map(float, m)) for m in RATE.findall(out))
    assert 35 < before < 70
    assert after > 85 and low > 75, out
