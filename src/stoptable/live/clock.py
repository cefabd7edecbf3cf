"""Turn clocks (protocol.md §4): a bank per seat, and who is absent.

Each time a person's seat becomes the seat to move it has ``turn_s`` seconds free; after
that its bank runs. When the bank is empty the seat is marked absent and the heuristic bot
moves for it; a seat whose last connection has been gone for ``turn_s`` seconds is marked
absent too. Any action from the seat's token makes it present again. Pure bookkeeping on
ms timestamps; the table driver asks it for deadlines and feeds it changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from stoptable.core.protocol import JSON


@dataclass
class TurnClock:
    turn_s: float
    bank_s: float
    seats: int
    banks_ms: list[int] = field(default_factory=list)
    running: int | None = None
    since: int = 0
    gone_since: dict[int, int] = field(default_factory=dict)
    """Seat -> when its last connection went (only seats with nobody connected)."""

    def __post_init__(self) -> None:
        if not self.banks_ms:
            self.banks_ms = [int(self.bank_s * 1000)] * self.seats

    @property
    def turn_ms(self) -> int:
        return int(self.turn_s * 1000)

    def _charge(self, t: int) -> None:
        if self.running is not None:
            used = t - self.since - self.turn_ms
            if used > 0:
                seat = self.running
                self.banks_ms[seat] = max(0, self.banks_ms[seat] - used)

    def update(self, t: int, to_move: int | None) -> None:
        """The seat to move is now ``to_move`` (None: nobody's clock runs)."""
        if to_move == self.running:
            return
        self._charge(t)
        self.running = to_move
        self.since = t

    def deadline(self) -> int | None:
        """When the running seat's bank is empty."""
        if self.running is None:
            return None
        return self.since + self.turn_ms + self.banks_ms[self.running]

    def expire(self, t: int) -> int | None:
        """The seat whose bank ran out by ``t`` (its clock stops), else None."""
        due = self.deadline()
        if due is None or t < due:
            return None
        seat = self.running
        assert seat is not None
        self.banks_ms[seat] = 0
        self.running = None
        return seat

    def gone_deadline(self) -> int | None:
        return min(self.gone_since.values()) + self.turn_ms if self.gone_since else None

    def gone(self, t: int) -> list[int]:
        """The seats disconnected for longer than the turn time by ``t`` (forgotten then)."""
        out = [s for s, since in self.gone_since.items() if t >= since + self.turn_ms]
        for seat in out:
            del self.gone_since[seat]
        return out

    def snapshot(self) -> dict[str, JSON]:
        """What a restart needs to carry on (protocol.md §9): the banks as charged so far,
        the running seat and since when. ``gone_since`` is left out: after a restart
        nobody is connected, so every seat counts as gone from then on."""
        return {"banks_ms": list(self.banks_ms), "running": self.running, "since": self.since}

    def restore(self, data: Mapping[str, JSON]) -> None:
        """Take back a :meth:`snapshot` (a malformed one leaves the clock as it is)."""
        banks, running, since = data.get("banks_ms"), data.get("running"), data.get("since")
        if not isinstance(banks, list) or len(banks) != self.seats:
            return
        if not all(isinstance(b, int) for b in banks) or not isinstance(since, int):
            return
        if running is not None and not (isinstance(running, int) and 0 <= running < self.seats):
            return
        self.banks_ms = [int(b) for b in banks]
        self.running = running
        self.since = since

    def to_json(self, t: int, absent: set[int]) -> dict[str, JSON]:
        banks = list(self.banks_ms)
        if self.running is not None:
            used = t - self.since - self.turn_ms
            if used > 0:
                banks[self.running] = max(0, banks[self.running] - used)
        return {
            "turn_s": self.turn_s,
            "bank_s": self.bank_s,
            "banks_ms": banks,
            "running": self.running,
            "absent": sorted(absent),
        }
