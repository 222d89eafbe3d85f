"""Script runs take turns: the server draws one session's page at a time, in the order the runs came.

A lecture hall reruns at once.  Streamlit runs each session's script in a thread of one process,
so twenty reruns share one interpreter lock.  Run side by side, they finish in an unfair order: the
lock goes to whichever thread asks at the right moment, and the last reruns waited about twice as
long as twenty reruns' CPU.  Taking turns in arrival order, each rerun waits for the runs that came
before it and no more: it lowers the p95 of a hall's simultaneous reruns at the same CPU
(``python -m benchmarks.machinery``; the figures are in benchmarks/PERFORMANCE.md).

- :meth:`Turns.turn` wraps a whole run (app.py's ``main``).  A run that finds the turn taken waits in
  line; the run that ends hands the turn to the first in line.
- :meth:`Turns.aside` gives the turn up while a run only waits, for example for a result another
  session is computing (:mod:`olapp.cache`), and takes it back first in line afterwards.
- No run waits for ever: after :data:`PATIENCE` seconds in line a run goes ahead without a turn, as
  every run did before.  A run that computes something new (a new seed at the largest settings,
  about 1 s at most) keeps its turn meanwhile, so the others wait for it; the first view on a fresh
  install, which may compile kernels for seconds, is what the patience is for.

Runs of one process only: each replica behind the balancer has its own line.
"""

from __future__ import annotations

import collections
import contextlib
import threading
from typing import Iterator

__all__ = ["Turns", "TURNS", "PATIENCE"]

#: Seconds a run waits in line before it goes ahead without a turn.
PATIENCE = 3.0


class Turns:
    """One turn, handed from run to run in arrival order (see the module docstring)."""

    def __init__(self, patience: float = PATIENCE):
        self.patience = patience
        self._lock = threading.Lock()
        self._line: collections.deque[tuple[int, threading.Event]] = collections.deque()
        self._holder: int | None = None           # the thread that has the turn

    def holds(self) -> bool:
        """Whether the calling thread has the turn."""
        return self._holder == threading.get_ident()

    def waiting(self) -> int:
        """How many runs wait in line."""
        return len(self._line)

    def _take(self, first: bool = False) -> bool:
        """Wait for the turn (at the end of the line, or at its head with ``first``); ``False`` when
        :attr:`patience` ran out first (the caller then goes ahead without it)."""
        me = threading.get_ident()
        with self._lock:
            if self._holder is None and not self._line:
                self._holder = me
                return True
            entry = (me, threading.Event())
            (self._line.appendleft if first else self._line.append)(entry)
        if entry[1].wait(self.patience):
            return True
        with self._lock:
            if entry[1].is_set():                  # handed over just as the wait gave up
                return True
            self._line.remove(entry)
        return False

    def _give(self) -> None:
        """Hand the turn to the first in line, or free it."""
        with self._lock:
            if self._line:
                self._holder, event = self._line.popleft()
                event.set()
            else:
                self._holder = None

    @contextlib.contextmanager
    def turn(self) -> Iterator[None]:
        """Run the body with the turn (or without it after :attr:`patience` seconds in line)."""
        if self.holds():                           # a turn within a turn: the same turn
            yield
            return
        self._take()
        try:
            yield
        finally:
            if self.holds():
                self._give()

    @contextlib.contextmanager
    def aside(self) -> Iterator[None]:
        """Run the body without the turn, then take it back first in line (a no-op for a thread
        without the turn)."""
        if not self.holds():
            yield
            return
        self._give()
        try:
            yield
        finally:
            self._take(first=True)


#: The server process's line (app.py's runs take their turns here).
TURNS = Turns()
