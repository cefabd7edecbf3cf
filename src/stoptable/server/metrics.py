"""Prometheus metrics of one server process, scraped at ``GET /metrics`` (operations.md).

One :class:`Metrics` per app, each with a registry of its own (not prometheus-client's
global one): a test process runs several servers, and each must count only its own. The
cluster (protocol.md §9) increments :attr:`Metrics.takeovers` when a process takes over a
table another one drove; everything else is counted where it happens (the table runner
counts stored lines, the Socket.IO handler times acks) or read when scraped (gauges).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Final

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

CONTENT_TYPE: Final = CONTENT_TYPE_LATEST
ACK_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: an ack is a store commit plus the table's turn (a few ms; protocol.md §5)."""
PHASE_BUCKETS: Final = (
    0.0001,
    0.00025,
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
)
"""Seconds: a phase of an action's way through its table takes 0.1 ms to a few ms."""
LAG_EVERY_S: Final = 0.05
"""How often ``stoptable_loop_lag_seconds`` is sampled (a timer's cost: nothing)."""
PHASES: Final = ("inbox", "machine", "commit", "publish")
"""The parts of an action's time in its table (``stoptable_action_phase_seconds``): waiting
in the table's inbox, the machine's step (the rules, the states of every watched seat),
the store's commit (group commit: the wait for the batch before it too), the broadcast
(every connection's messages queued). What ``stoptable_ack_latency_seconds`` holds beyond
their sum is the event loop's own wait (the ack's turn after the commit)."""


class Metrics:
    """The process's counters, histogram and gauges (names in operations.md)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.actions_stored = Counter(
            "stoptable_actions_stored",
            "Record lines committed to the store (actions, chance and clock lines).",
            registry=self.registry,
        )
        self.ack_latency = Histogram(
            "stoptable_ack_latency_seconds",
            "From an action's arrival at the server to its ack (stored, or refused by a rule).",
            buckets=ACK_BUCKETS,
            registry=self.registry,
        )
        self.action_phase = Histogram(
            "stoptable_action_phase_seconds",
            "An acted change's time in its table, by phase (operations.md, 'Where an ack's "
            "time goes').",
            ["phase"],
            buckets=PHASE_BUCKETS,
            registry=self.registry,
        )
        self.phase = {name: self.action_phase.labels(phase=name) for name in PHASES}
        """The phase histograms by name, labelled once (a ``labels()`` call per action
        costs a lock and a dict lookup)."""
        self.loop_lag = Histogram(
            "stoptable_loop_lag_seconds",
            "How late the event loop woke a timer (sampled every LAG_EVERY_S).",
            buckets=PHASE_BUCKETS,
            registry=self.registry,
        )
        self.gc_pauses = Histogram(
            "stoptable_gc_pause_seconds",
            "How long each run of Python's cyclic collector stopped the event loop, by the "
            "generation collected (2: a full collection; operations.md, 'Memory and the "
            "garbage collector').",
            ["generation"],
            buckets=PHASE_BUCKETS,
            registry=self.registry,
        )
        self.tables_driven = Gauge(
            "stoptable_tables_driven",
            "Tables this process drives now (the ids are in GET /api/health).",
            registry=self.registry,
        )
        self.connections = Gauge(
            "stoptable_connections",
            "Open Socket.IO connections of /table on this process.",
            registry=self.registry,
        )
        self.backlog_drops = Counter(
            "stoptable_backlog_drops",
            "Connections dropped because more than MAX_SEND_BUFFER_BYTES waited to be sent "
            "to them (a client that stopped reading; operations.md, 'Running it in public').",
            registry=self.registry,
        )
        self.takeovers = Counter(
            "stoptable_takeovers",
            "Tables this process took over from another process (protocol.md §9).",
            registry=self.registry,
        )

    async def watch_loop(self, every_s: float = LAG_EVERY_S) -> None:
        """Sample the loop's lag for ever: each message an action takes through Socket.IO
        and the table waits about this long for its turn, several times (operations.md,
        "Where an ack's time goes")."""
        while True:
            before = time.perf_counter()
            await asyncio.sleep(every_s)
            self.loop_lag.observe(max(0.0, time.perf_counter() - before - every_s))

    def watch(self, tables_driven: Callable[[], int], connections: Callable[[], int]) -> None:
        """Read the gauges from the process's own counts when scraped (never stale)."""
        self.tables_driven.set_function(lambda: float(tables_driven()))
        self.connections.set_function(lambda: float(connections()))

    def exposition(self) -> bytes:
        """The text format a Prometheus server scrapes."""
        return bytes(generate_latest(self.registry))
