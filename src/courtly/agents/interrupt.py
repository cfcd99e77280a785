"""Ctrl-C during a compiled search: :func:`allow_interrupt`, called between iterations.

This module must never be compiled: the function works by running a bytecode
(tests/agents/test_interrupt.py checks that it is interpreted).
"""

from __future__ import annotations


def allow_interrupt() -> None:
    """Nothing, on purpose: a compiled search calls it between iterations to let Ctrl-C in.

    Python runs its signal handlers (the one that raises ``KeyboardInterrupt``) only between
    the bytecodes of interpreted code. A search compiled by mypyc, whose rules and heuristic are
    compiled too, may run for its whole budget without a single bytecode, so Ctrl-C waited for
    the search to end. Entering this function runs a bytecode, and any pending handler with it;
    it costs a call (some 50 ns) per iteration. This module must therefore never be compiled
    (tests/agents/test_interrupt.py checks that the function is interpreted).
    """
