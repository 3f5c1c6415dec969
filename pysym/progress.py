"""Progress output for work that takes more than a few seconds.

Everything goes to standard error so that standard output stays clean for
results (``--json``).  On a terminal a line is redrawn in place; elsewhere
(CI logs) a new line is printed at coarse steps only.
"""

from __future__ import annotations

import sys
import threading
import time

__all__ = ["Progress", "Ticker"]


class Progress:
    """Prints steps and byte counts; ``quiet`` silences everything."""

    def __init__(self, stream=None, quiet: bool = False):
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last_pct = -1

    def step(self, message: str) -> None:
        if not self.quiet:
            print(message, file=self.stream, flush=True)

    def bytes(self, label: str, done: int, total: int | None) -> None:
        """Report ``done`` of ``total`` bytes (``total`` may be unknown)."""
        if self.quiet:
            return
        mb = done / 1e6
        if total:
            pct = int(100 * done / total)
            text = f"  {label}: {mb:6.1f} / {total / 1e6:.1f} MB ({pct:3d}%)"
            if self.tty:
                end = "\n" if done >= total else ""
                print("\r" + text, end=end, file=self.stream, flush=True)
            elif pct // 25 != self._last_pct // 25 or done >= total:
                print(text, file=self.stream, flush=True)
            self._last_pct = pct if done < total else -1
        elif self.tty:
            print(f"\r  {label}: {mb:6.1f} MB", end="", file=self.stream, flush=True)


class Ticker:
    """Context manager that reports elapsed time while a long call runs.

    On a terminal it redraws ``label ... 12 s`` every second; in logs it prints
    a line every ``every`` seconds, so long runs never look hung.
    """

    def __init__(self, progress: Progress, label: str, every: float = 15.0):
        self.progress = progress
        self.label = label
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.start = 0.0

    def _run(self) -> None:
        p = self.progress
        period = 1.0 if p.tty else self.every
        while not self._stop.wait(period):
            elapsed = time.monotonic() - self.start
            if p.tty:
                print(f"\r{self.label} ... {elapsed:4.0f} s", end="", file=p.stream, flush=True)
            else:
                print(f"{self.label} ... {elapsed:.0f} s", file=p.stream, flush=True)

    def __enter__(self) -> "Ticker":
        self.start = time.monotonic()
        if not self.progress.quiet:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            if self.progress.tty:
                print("\r" + " " * (len(self.label) + 12) + "\r", end="", file=self.progress.stream, flush=True)

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start
