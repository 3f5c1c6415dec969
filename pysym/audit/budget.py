"""Per-claim resource budgets: CPU time and memory, never wall-clock time.

One pathological claim must not stall an audit, and a verdict must not
depend on how busy the machine is.  Two layers guarantee both:

1. **At parse time** every expression is built with bounded sizes
   (:mod:`pysym.audit.expr`): no exact number above 4096 bits, no factorial
   of a number above 500, no derivative of order above 10, ...
2. **At evaluation time** each claim runs in a forked worker process under
   ``setrlimit``: ``RLIMIT_CPU`` (CPU seconds) and ``RLIMIT_AS`` (address
   space).  The kernel enforces both, so they also stop work that Python
   signals cannot interrupt (C-level big-integer arithmetic): at the CPU
   limit the kernel sends ``SIGXCPU`` (and ``SIGKILL`` shortly after), and an
   allocation beyond the memory limit fails with ``MemoryError``.

Running out is reported as :class:`Exhausted` (which budget, how much), and
the engine turns it into an ``inconclusive`` verdict that names the budget.
CPU time does not grow with the machine's load, so the same inputs give the
same verdicts on a busy machine; the budgets are generous (60 s of CPU time
and 2 GiB for a claim that normally needs under 6 s and 100 MB).

Inside a worker, :func:`cpu_limit` bounds one step (a SymPy ``solve`` or
``limit``) by CPU time with a virtual-time timer, so a step that runs long
is abandoned while the rest of the claim still gets its verdict.

>>> run_budgeted(lambda: 6 * 7, Budget(cpu_seconds=5))
('ok', 42)
>>> run_budgeted(lambda: bytearray(10**12), Budget(cpu_seconds=5, memory_mb=256))
('budget', Exhausted(resource='memory', limit='256 MB'))
"""

from __future__ import annotations

import gc
import math
import os
import pickle
import resource
import selectors
import signal
import struct
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

from pysym.derive import budget as derive_budget

__all__ = ["Budget", "DEFAULT_BUDGET", "Exhausted", "CPUTimeout", "run_budgeted", "run_many", "cpu_limit",
           "steps_stopped", "WORKERS"]


@dataclass(frozen=True)
class Budget:
    """What one claim may use: CPU seconds and memory (MB beyond what the
    auditor already holds when the worker starts)."""

    cpu_seconds: int = 60
    memory_mb: int = 2048

    def describe(self) -> str:
        return f"{self.cpu_seconds} s of CPU time and {self.memory_mb} MB of memory"


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class Exhausted:
    """A budget that ran out: ``resource`` is ``CPU time``, ``memory`` or ``recursion depth``."""

    resource: str
    limit: str

    def describe(self) -> str:
        return f"its {self.resource} budget ({self.limit})"


class CPUTimeout(Exception):
    """A :func:`cpu_limit` step ran out of CPU time."""


def _vm_bytes() -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _set_soft(which, soft: int) -> None:
    """Set a soft limit, keeping the hard one (so that the next task may raise it again)."""
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(which, (soft, hard))


def _prepare_worker() -> None:
    """In a new worker: default SIGXCPU action (terminate), no core files."""
    signal.signal(signal.SIGXCPU, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _limit_task(budget: Budget) -> None:
    """Before each task: CPU time and memory from here on, within the budget."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _set_soft(resource.RLIMIT_CPU, math.ceil(usage.ru_utime + usage.ru_stime) + budget.cpu_seconds)
    vm = _vm_bytes()
    if vm is not None:
        _set_soft(resource.RLIMIT_AS, vm + budget.memory_mb * 2**20)


def _call(fn, budget: Budget | None):
    try:
        return "ok", fn()
    except MemoryError:
        return "budget", Exhausted("memory", f"{budget.memory_mb} MB" if budget else "the machine's")
    except RecursionError:
        return "budget", Exhausted("recursion depth", "Python's limit")
    except Exception as exc:  # noqa: BLE001 - every failure goes back to the caller
        return "raised", exc


def _dumps(index: int, status, value) -> bytes:
    try:
        return pickle.dumps((index, status, value))
    except Exception as exc:  # noqa: BLE001 - e.g. an exception that does not pickle
        text = f"{type(value).__name__}: {value}" if status == "raised" else f"result does not pickle ({exc})"
        return pickle.dumps((index, "error", text))


def _death(status: int, budget: Budget):
    """The result of a task whose worker died (``status`` from ``waitpid``)."""
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        return "budget", Exhausted("CPU time", f"{budget.cpu_seconds} s")
    if os.WIFSIGNALED(status):
        return "error", f"the worker process was killed by signal {os.WTERMSIG(status)}"
    return "error", f"the worker process exited with status {os.waitstatus_to_exitcode(status)} and no result"


WORKERS = 2  # worker processes of run_many (fixed, so that the same inputs give the same files)


def run_many(thunks: list, budget: Budget | None, workers: int = WORKERS, weights: list | None = None) -> list:
    """``[run_budgeted(t, budget) for t in thunks]``, in ``workers`` forked processes.

    The tasks are assigned to the workers before any runs (a fixed assignment,
    so that nothing depends on timing): task ``i`` to worker ``i % workers``,
    or, with ``weights`` (a static estimate of each task's cost), greedily to
    the least loaded worker, heaviest first; each worker runs its tasks in order, each under
    its own budget (limits are set afresh before each task); a task that
    exhausts its budget ends its worker, and a new one takes the rest of that
    worker's tasks.  Sharing a worker lets SymPy's caches carry over between
    tasks, as in one process.  With ``budget=None`` (or without ``os.fork``)
    the tasks run in this process."""
    if budget is None or not hasattr(os, "fork"):
        return [_call(t, budget) for t in thunks]
    results: list = [None] * len(thunks)
    width = max(1, min(workers, len(thunks)))
    pending = {w: list(range(w, len(thunks), width)) for w in range(width)}
    if weights is not None:
        load = [0.0] * width
        pending = {w: [] for w in range(width)}
        for i in sorted(range(len(thunks)), key=lambda j: (-weights[j], j)):
            w = min(range(width), key=lambda k: (load[k], k))
            pending[w].append(i)
            load[w] += weights[i]
        pending = {w: sorted(tasks) for w, tasks in pending.items()}
    running: dict = {}  # read fd -> [pid, stripe, buffer]
    selector = selectors.DefaultSelector()

    def start(stripe: int) -> None:
        read_fd, write_fd = os.pipe()
        pid = fork_frozen()
        if pid == 0:  # the worker
            try:
                os.close(read_fd)
                for fd in running:
                    os.close(fd)
                _prepare_worker()
                with os.fdopen(write_fd, "wb") as out:
                    for i in pending[stripe]:
                        _limit_task(budget)
                        status, value = _call(thunks[i], budget)
                        data = _dumps(i, status, value)
                        out.write(struct.pack("<Q", len(data)) + data)
                        out.flush()
                        if status == "budget":
                            break  # a fresh worker for the rest
            finally:
                os._exit(0)
        os.close(write_fd)
        running[read_fd] = [pid, stripe, b""]
        selector.register(read_fd, selectors.EVENT_READ)

    for stripe in range(width):
        start(stripe)
    while running:
        for key, _ in selector.select():
            fd = key.fd
            chunk = os.read(fd, 1 << 16)
            entry = running[fd]
            if chunk:
                entry[2] += chunk
                while len(entry[2]) >= 8:
                    size = struct.unpack("<Q", entry[2][:8])[0]
                    if len(entry[2]) < 8 + size:
                        break
                    i, status, value = pickle.loads(entry[2][8:8 + size])
                    entry[2] = entry[2][8 + size:]
                    results[i] = (status, value)
                    pending[entry[1]].remove(i)
                    entry.append(status)
                continue
            selector.unregister(fd)
            os.close(fd)
            del running[fd]
            pid, stripe = entry[0], entry[1]
            _, status = os.waitpid(pid, 0)
            todo = pending[stripe]
            stopped_for_budget = entry[-1] == "budget"
            if todo and not (_ended_cleanly(status) and stopped_for_budget):
                results[todo[0]] = _death(status, budget)  # the task it was running when it ended
                todo.pop(0)
            if todo:
                start(stripe)
    selector.close()
    return results


def fork_frozen() -> int:
    """``os.fork()`` with every object the parent holds moved out of the
    garbage collector's reach first (``gc.freeze``; the parent's are given
    back right after).  Otherwise the first full collection in the child
    walks the parent's whole heap (SymPy, NumPy, their caches), writing to
    every object and so copying every page it shares with the parent:
    measured, a fifth of a worker's CPU time on the audit's red-team claims.
    Only when garbage is collected changes, never what is computed.  (A
    caller that froze objects itself keeps its own arrangement.)"""
    freeze = gc.get_freeze_count() == 0
    if freeze:
        gc.freeze()
    pid = os.fork()
    if pid != 0 and freeze:
        gc.unfreeze()
    return pid


def _ended_cleanly(status: int) -> bool:
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def run_budgeted(fn, budget: Budget | None):
    """Call ``fn()`` in a forked worker under ``budget``.

    Returns ``("ok", value)``, ``("budget", Exhausted)``, ``("raised", exc)``
    (``AuditInputError`` pickles), or ``("error", text)``.  ``value`` must
    pickle.  With ``budget=None`` (or without ``os.fork``) ``fn`` runs in this
    process, unbounded."""
    return run_many([fn], budget)[0]


# --------------------------------------------------------------------------- CPU-time limit for one step

_deadlines: list[float] = []


def steps_stopped() -> int:
    """How many steps a CPU-time limit has stopped in this process so far, this
    module's :func:`cpu_limit` and the provers' budgets
    (:func:`pysym.derive.budget.stops`) alike: an outcome reached after a
    stopped step depends on the machine's speed."""
    return derive_budget.stops()


def _on_timer(signum, frame):
    derive_budget.note_stop()
    raise CPUTimeout()


def _arm() -> None:
    if _deadlines:
        signal.setitimer(signal.ITIMER_VIRTUAL, max(_deadlines[-1] - time.process_time(), 1e-3))
    else:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)


@contextmanager
def cpu_limit(seconds: float):
    """Raise :class:`CPUTimeout` inside the block after ``seconds`` of CPU
    time (nested limits keep the earliest deadline).  Only in the main
    thread; elsewhere the block runs unbounded."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "ITIMER_VIRTUAL"):
        yield
        return
    deadline = time.process_time() + seconds
    if _deadlines:
        deadline = min(deadline, _deadlines[-1])
    old = signal.signal(signal.SIGVTALRM, _on_timer)
    _deadlines.append(deadline)
    _arm()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        _deadlines.pop()
        signal.signal(signal.SIGVTALRM, old)
        _arm()
