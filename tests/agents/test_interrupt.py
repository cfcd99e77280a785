"""Ctrl-C while a bot thinks stops the program at once, in the compiled build as in plain Python.

Compiled, a search would run no bytecode for its whole budget, and Python runs signal handlers
only between bytecodes; the search lets them in between iterations (``core.bots.allow_interrupt``).
"""

from __future__ import annotations

import inspect
import os
import signal
import subprocess
import sys
import time

from courtly.agents.interrupt import allow_interrupt

# The child installs Python's own Ctrl-C handler, as an interactive run has it, even if the test
# runner's process ignores SIGINT (which a child would inherit).
CHILD = (
    "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from courtly.cli import main; main()"
)


def test_ctrl_c_while_a_bot_thinks_stops_the_game_within_seconds() -> None:
    seats = "ismcts:seconds=30,ismcts:seconds=30"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, "play", "kings-court", "--seats", seats, "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"},
        text=True,
    )
    try:
        assert child.stdout is not None
        header = child.stdout.readline()  # printed once the game and its bots are made
        assert "seed 1" in header, header
        time.sleep(2.0)  # the first decision is being searched: 30 seconds of budget
        assert child.poll() is None, "the game ended before it was interrupted"
        interrupted = time.perf_counter()
        child.send_signal(signal.SIGINT)
        output, _ = child.communicate(timeout=60)
        took = time.perf_counter() - interrupted
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert took < 5.0, f"Ctrl-C took {took:.1f} s to stop the search"
    assert "Traceback" not in output, output


def test_the_search_lets_signals_in_through_interpreted_code() -> None:
    # Were core/bots.py compiled, the call would run no bytecode and let no signal in.
    assert inspect.isfunction(allow_interrupt) and allow_interrupt.__code__ is not None
