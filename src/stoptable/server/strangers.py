"""Limits per client address on what costs the server memory for longer than a request:
tables created and left waiting (operations.md, "Running it in public").

A stranger could otherwise create tables until the store and the lobby list are full of
them (the audit made 2,000 from one address in a few seconds). Each address gets a token
bucket of creations (``creates_burst`` at once, ``creates_per_min`` a minute) and may hold
at most ``waiting_per_address`` tables that are still waiting for players; past either,
``POST /api/tables`` is 429 with ``Retry-After``. The counts are in memory: a restart
forgets them, which only ever lets an address create more, never fewer.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

MAX_ADDRESSES: Final = 100_000
"""Addresses remembered; past this the table starts afresh (memory stays bounded)."""


class TooMany(Exception):
    """A limit was reached: a one-line ``message`` and the seconds to wait."""

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after_s = retry_after_s


@dataclass
class _Address:
    tokens: float
    stamp: float
    waiting: set[str] = field(default_factory=set)


class CreateGate:
    """Per-address creation rate and cap of waiting tables."""

    def __init__(
        self,
        per_min: float,
        burst: int,
        max_waiting: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = per_min / 60.0
        self.burst = float(burst)
        self.max_waiting = max_waiting
        self.clock = clock
        self.addresses: dict[str, _Address] = {}

    def check(self, address: str, still_waiting: Callable[[str], bool]) -> None:
        """Take one creation for ``address``, or raise :class:`TooMany`.

        ``still_waiting(table_id)`` says whether a table this address created is still
        waiting for players (those that started, finished or expired no longer count).
        """
        now = self.clock()
        entry = self.addresses.get(address)
        if entry is None:
            if len(self.addresses) >= MAX_ADDRESSES:
                self.addresses.clear()
            entry = self.addresses[address] = _Address(self.burst, now)
        entry.waiting = {t for t in entry.waiting if still_waiting(t)}
        if len(entry.waiting) >= self.max_waiting:
            raise TooMany(
                f"{self.max_waiting} tables of yours are waiting for players; "
                "start or leave one first",
                60,
            )
        entry.tokens = min(self.burst, entry.tokens + (now - entry.stamp) * self.rate)
        entry.stamp = now
        if entry.tokens < 1.0:
            wait = math.ceil((1.0 - entry.tokens) / self.rate)
            raise TooMany(f"too many tables created; try again in {wait} s", wait)
        entry.tokens -= 1.0

    def created(self, address: str, table_id: str) -> None:
        """Count ``table_id`` as one of ``address``'s waiting tables."""
        entry = self.addresses.get(address)
        if entry is not None:
            entry.waiting.add(table_id)
