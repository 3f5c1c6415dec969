"""CPU-time budgets for symbolic work.

A SymPy simplification can run for minutes on an unlucky expression, so every
piece of symbolic work runs under a budget.  Budgets count the **CPU time of
this process** (a ``SIGPROF`` interval timer, ``signal.ITIMER_PROF``), not
wall-clock time: a machine busy with other work slows a proof down but does not
make it use more of its budget, so the same inputs give the same verdicts on a
loaded machine.

>>> import time
>>> with budget(5):
...     time.sleep(0.2)  # sleeping uses no CPU time: the budget is untouched
>>> try:
...     with budget(0.2):
...         while True:  # pure CPU work runs out of it
...             pass
... except OutOfTime as exc:
...     print(exc)
ran out of its CPU budget of 0.2 s

Budgets nest: an inner budget never outlives the one around it, and when the
outer budget runs out the exception names the outer budget, whatever inner
budget was active:

>>> try:
...     with budget(0.2):
...         with budget(100):
...             while True:
...                 pass
... except OutOfTime as exc:
...     exc.seconds
0.2

:func:`active` tells a prover whether a caller already set a budget (then it
must let :class:`OutOfTime` propagate, so that running out fails the whole
step instead of silently turning into "no proof"):

>>> active()
False
>>> with budget(1):
...     active()
True

The timer is a signal, so budgets apply only in the main thread; elsewhere the
work runs unbounded (and :func:`active` is ``False``).
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = ["OutOfTime", "budget", "active", "remaining", "stops", "note_stop", "enforced"]

_TIMER = getattr(signal, "ITIMER_PROF", None)
_SIGNAL = getattr(signal, "SIGPROF", None)


class OutOfTime(Exception):
    """Symbolic work ran out of a CPU budget; ``seconds`` is that budget."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        super().__init__(f"ran out of its CPU budget of {seconds:g} s")


@dataclass
class _Budget:
    seconds: float
    deadline: float  # in time.process_time() seconds


_stack: list[_Budget] = []  # active budgets, outermost first
_saved_handler = None
_stops = [0]


def stops() -> int:
    """How many times a CPU-time limit has stopped work in this process: these
    budgets and :func:`pysym.audit.budget.cpu_limit` (which calls
    :func:`note_stop`).  Whatever is computed after a stop depends on the
    machine's speed (a faster machine might have finished the stopped work)."""
    return _stops[0]


def note_stop() -> None:
    _stops[0] += 1


def enforced() -> bool:
    """Whether budgets take effect here (the main thread, on a system with
    ``SIGPROF``): elsewhere work runs unbounded, so what it reaches may differ
    from what a budgeted run reaches."""
    return _TIMER is not None and threading.current_thread() is threading.main_thread()


def active() -> bool:
    """True inside a budget (in the main thread)."""
    return bool(_stack) and enforced()


def remaining() -> float | None:
    """CPU seconds left in the innermost effective budget (``None`` without one)."""
    if not active():
        return None
    return min(b.deadline for b in _stack) - time.process_time()


def _arm() -> None:
    left = min(b.deadline for b in _stack) - time.process_time()
    signal.setitimer(_TIMER, max(left, 0.001))


def _expired(signum, frame):
    now = time.process_time()
    for b in _stack:  # the outermost expired budget is the one that ran out
        if b.deadline <= now + 0.001:
            signal.setitimer(_TIMER, 0.001)  # any enclosing handler gets its turn, too
            note_stop()
            raise OutOfTime(b.seconds)
    if _stack:  # the timer ran slightly ahead of process_time: wait for the rest
        _arm()


@contextmanager
def budget(seconds: float):
    """Raise :class:`OutOfTime` inside the block once it has used ``seconds``
    of CPU time (or when an enclosing budget runs out)."""
    global _saved_handler
    if not enforced() or seconds <= 0:
        yield
        return
    if not _stack:
        _saved_handler = signal.signal(_SIGNAL, _expired)
    _stack.append(_Budget(seconds, time.process_time() + seconds))
    _arm()
    try:
        yield
    finally:
        _stack.pop()
        if _stack:
            _arm()
        else:
            signal.setitimer(_TIMER, 0)
            signal.signal(_SIGNAL, _saved_handler if _saved_handler is not None else signal.SIG_DFL)
            _saved_handler = None
