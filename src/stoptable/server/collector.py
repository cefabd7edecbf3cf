"""Python's cyclic garbage collector, paced so that it never stops every table at once.

The server is one event loop: while the collector runs, no table moves. Under 100 busy
Stop it! tables the collector's youngest generation held 12-25 k objects at each
collection, nearly all of them alive (each connection's pending waits, made again after
every message, and the tables' growing records): a collection found nothing to free and
took 6-17 ms, every ~2 s, and every 20th (the middle generation, with the records of the
last half minute) took about 55 ms. Each of these stalls alone put every table that
acted in it over the 20 ms bar (operations.md, "Memory and the garbage collector").

So the young objects are never searched one by one: every ``freeze_every_s`` they are
moved, all at once and without being looked at, to the generation the collector does not
search (:func:`gc.freeze`, a list splice). Reference counting still frees every one of
them that dies, frozen or not; what it cannot free is garbage in a cycle (measured: about
a hundred objects for each closed connection, almost none per action). That is reclaimed
by a full collection (everything thawed, collected, frozen again) every
``full_every_s``, or sooner once the frozen objects grew by ``full_growth`` since the last
one: memory stays bounded, and the only stall left is that one, a few hundred ms every
ten minutes (one action in several hundred of a busy table). ``freeze_every_s`` 0 turns
the pacing off: the collector then runs by its thresholds alone, as Python's does.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any, Final

from prometheus_client import Histogram

THRESHOLDS: Final = (7_000, 20, 100)
"""The collector's thresholds while serving (Python's defaults: 700, 10, 10): a safety net
for a burst of allocations between two freezes; with the pacing off, what keeps the
young collections rarer than Python's defaults would."""


class Collector:
    """The pacing of one serving process (:meth:`start` in the app's lifespan, :meth:`run`
    as a background task, :meth:`stop` at shutdown). ``pauses`` (optional) observes every
    collection's duration, labelled by the generation collected."""

    def __init__(
        self,
        freeze_every_s: float = 1.0,
        full_every_s: float = 600.0,
        full_growth: int = 1_000_000,
        pauses: Histogram | None = None,
    ) -> None:
        self.freeze_every_s = freeze_every_s
        self.full_every_s = full_every_s
        self.full_growth = full_growth
        self.pauses = pauses
        self.full_collections = 0
        self.grown = 0
        """Objects frozen since the last full collection, less those freed (about)."""
        self._last_full = time.monotonic()
        self._started: float | None = None
        self._old_thresholds: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Collect once, freeze what start-up made (modules, classes, restored tables: they
        live as long as the process), raise the thresholds, start timing the pauses."""
        self._old_thresholds = gc.get_threshold()
        gc.callbacks.append(self._timed)
        self.full()
        gc.set_threshold(*THRESHOLDS)

    def stop(self) -> None:
        """Give the collector back as it was: nothing frozen, the old thresholds."""
        if self._timed in gc.callbacks:
            gc.callbacks.remove(self._timed)
        gc.unfreeze()
        if self._old_thresholds is not None:
            gc.set_threshold(*self._old_thresholds)

    async def run(self) -> None:
        """Freeze the young objects every ``freeze_every_s``; a full collection when due.
        Returns at once when the pacing is off."""
        if self.freeze_every_s <= 0:
            return
        while True:
            await asyncio.sleep(self.freeze_every_s)
            self.tick()

    def tick(self) -> None:
        """One step of :meth:`run`: a full collection if one is due, else a freeze."""
        self.grown += gc.get_count()[0]
        if self.full_due():
            self.full()
        else:
            gc.freeze()

    def full_due(self) -> bool:
        """Time for a full collection: ``full_every_s`` since the last, or the objects
        frozen since grew by ``full_growth`` (cyclic garbage piling up faster than
        expected). The growth is the sum of the young generation's counts at each freeze
        (allocations less deallocations: :func:`gc.get_freeze_count` would walk every
        frozen object, a stall of its own). What a young collection of its own took out
        between two freezes (over ``THRESHOLDS[0]`` new objects in one period) is not
        counted: the collector's generations search those as Python's always do."""
        due = time.monotonic() - self._last_full >= self.full_every_s
        return due or self.grown >= self.full_growth

    def full(self) -> int:
        """Thaw everything, collect every generation, freeze what is left; the number of
        unreachable objects found."""
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.full_collections += 1
        self.grown = 0
        self._last_full = time.monotonic()
        return found

    def _timed(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started is not None:
            took = time.perf_counter() - self._started
            self._started = None
            if self.pauses is not None:
                self.pauses.labels(generation=str(info.get("generation", 2))).observe(took)
