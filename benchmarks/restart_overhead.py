"""What keeping a table restartable costs per stored change (protocol.md §9), beside the
cost of encoding the change's own record lines, in one run.

Every stored change of a table with a turn clock now carries, on its last line, the events
it published (``server.fanout.stored_batch``, for ``resume`` after a restart) and the live
state of the machine (``TableMachine.live_state``: banks, running seat, absences), both
encoded with orjson (``server.wire.dumps``). This script plays seeded 4-bot Stop games on
the live machine (virtual ticks, no I/O) with a turn clock, collects every ``Commit``, and
times, alternating rounds in one process (``time.process_time``): the extra encoding of
each commit, and the peer, encoding its record lines as the store always did
(``server.store.dumps``). It prints the per-commit microseconds of both and their ratio.
The server's whole CPU per stored action is in docs/operations.md ("Capacity": 0.6-1.3 ms
on the development machine), which puts the extra in proportion.

    .venv/bin/python benchmarks/restart_overhead.py [--games 20] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

from stoptable import games
from stoptable.bots.base import make_bot
from stoptable.live.clock import TurnClock
from stoptable.live.effects import Commit
from stoptable.live.inputs import Tick
from stoptable.live.machine import TableMachine
from stoptable.server import store, wire
from stoptable.server.fanout import stored_batch


def commits(count: int) -> list[Commit]:
    """Every commit of ``count`` seeded 4-bot Stop games with a 30 s + 60 s clock."""
    spec = games.spec("stop")
    out: list[Commit] = []
    for seed in range(count):
        bots = {s: make_bot("stop", "heuristic", s, seed * 10 + s) for s in range(4)}
        machine = TableMachine(
            spec,
            spec.new("abacus-en", 4, seed),
            playing=True,
            bots=bots,
            bot_delay_ms=0,
            round_pause_ms=0,
            clock=TurnClock(30, 60, 4),
        )
        t = 0
        while not machine.over and t < 10**7:
            out += [e for e in machine.feed(Tick(t)) if isinstance(e, Commit)]
            t += 1000
    return out


def extra(batch: list[Commit]) -> float:
    start = time.process_time()
    for c in batch:
        last = c.first + len(c.lines) - 1
        wire.dumps([stored_batch(c.first - 1, last, c.events)])
        wire.dumps(dict(c.live or {}))
    return time.process_time() - start


def lines(batch: list[Commit]) -> float:
    start = time.process_time()
    for c in batch:
        for line, _ in c.lines:
            store.dumps(line)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    batch = commits(args.games)
    n = len(batch)
    ours, peer = [], []
    for _ in range(args.rounds):
        ours.append(extra(batch) / n * 1e6)
        peer.append(lines(batch) / n * 1e6)
    a, b = statistics.median(ours), statistics.median(peer)
    print(f"{n} commits of {args.games} Stop games, median of {args.rounds} rounds")
    print(f"published events + live state: {a:.1f} us/commit (orjson)")
    print(f"the record lines themselves:   {b:.1f} us/commit (store.dumps, the peer)")
    print(f"ratio: {a / b:.2f}")


if __name__ == "__main__":
    main()
