"""The collector's pacing (server/collector.py; operations.md, "Memory and the garbage
collector"): young objects frozen instead of searched, cyclic garbage reclaimed by the
full collections, the pauses timed for /metrics."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Iterator

import pytest
from prometheus_client.parser import text_string_to_metric_families

from stoptable.server.collector import THRESHOLDS, Collector
from stoptable.server.config import Settings
from stoptable.server.metrics import Metrics


class Node:
    """A container that can be put in a cycle and watched through a weak reference."""

    def __init__(self) -> None:
        self.other: object = None


@pytest.fixture
def collector() -> Iterator[Collector]:
    metrics = Metrics()
    c = Collector(freeze_every_s=0.01, full_every_s=3600, pauses=metrics.gc_pauses)
    c.start()
    try:
        yield c
    finally:
        c.stop()


def test_start_freezes_what_exists_and_stop_gives_the_collector_back() -> None:
    old = gc.get_threshold()
    c = Collector()
    c.start()
    try:
        assert gc.get_threshold() == THRESHOLDS
        assert gc.get_freeze_count() > 0
    finally:
        c.stop()
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == old


def test_a_tick_freezes_the_young_objects_without_searching_them(collector: Collector) -> None:
    kept = [[i] for i in range(5_000)]  # young, alive containers
    assert gc.get_count()[0] > 0
    frozen = gc.get_freeze_count()
    collector.tick()
    assert gc.get_count()[0] == 0
    assert gc.get_freeze_count() >= frozen + len(kept)
    assert collector.grown >= len(kept)
    assert collector.full_collections == 1  # the one start() made


def test_frozen_cyclic_garbage_waits_for_the_full_collection(collector: Collector) -> None:
    a, b = Node(), Node()
    a.other, b.other = b, a
    watch = weakref.ref(a)
    collector.tick()
    del a, b
    gc.collect()  # searches no frozen object: the cycle survives it
    assert watch() is not None
    found = collector.full()
    assert watch() is None
    assert found >= 2


def test_objects_that_die_frozen_are_freed_by_reference_counting(collector: Collector) -> None:
    node = Node()
    watch = weakref.ref(node)
    collector.tick()
    del node
    assert watch() is None


def test_a_full_collection_is_due_by_time_or_by_growth() -> None:
    c = Collector(freeze_every_s=1, full_every_s=3600, full_growth=3_000)
    c.start()
    try:
        assert not c.full_due()
        c.tick()
        assert c.full_collections == 1  # start()'s: nothing grew since
        kept = [[i] for i in range(4_000)]  # fewer than a young collection's threshold
        c.tick()  # counts the growth: due, so a full collection instead of a freeze
        assert c.full_collections == 2 and c.grown == 0
        assert not c.full_due()
        c._last_full = time.monotonic() - 3601
        assert c.full_due()
        c.tick()
        assert c.full_collections == 3
        del kept
    finally:
        c.stop()


def test_the_pauses_are_timed_by_generation() -> None:
    metrics = Metrics()
    c = Collector(pauses=metrics.gc_pauses)
    c.start()  # one full collection
    try:
        gc.collect(0)
    finally:
        c.stop()
    counts = {
        s.labels["generation"]: s.value
        for family in text_string_to_metric_families(metrics.exposition().decode())
        if family.name == "stoptable_gc_pause_seconds"
        for s in family.samples
        if s.name.endswith("_count")
    }
    assert counts["2"] >= 1 and counts["0"] >= 1


async def test_run_ticks_until_cancelled_and_returns_at_once_when_off() -> None:
    off = Collector(freeze_every_s=0)
    await asyncio.wait_for(off.run(), 1)  # returns: the pacing is off
    c = Collector(freeze_every_s=0.01, full_every_s=3600)
    c.start()
    try:
        task = asyncio.create_task(c.run())
        kept = [[i] for i in range(1_000)]
        for _ in range(200):
            await asyncio.sleep(0.01)
            if c.grown >= len(kept):
                break
        assert c.grown >= len(kept)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        c.stop()


def test_the_settings_bound_what_an_operator_may_set() -> None:
    s = Settings()
    assert (s.gc_freeze_every_s, s.gc_full_every_s, s.gc_full_growth) == (1.0, 600.0, 1_000_000)
    with pytest.raises(ValueError):
        Settings(gc_freeze_every_s=-1)
    with pytest.raises(ValueError):
        Settings(gc_full_every_s=0)
