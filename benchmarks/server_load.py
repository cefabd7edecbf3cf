"""Server load: N tables of Stop, each with one scripted Socket.IO client (a person) and
three bots at bot delay 0, all at once against one ``stoptable serve``.

Per action of the scripted client it measures the time from the client's send to the
arrival of the broadcast ``events`` that hold the action at a *second* client of the same
table (a spectator connection). The load generator runs on the same machine.

    .venv/bin/python benchmarks/server_load.py [--tables 100] [--seconds 20] [--db URL]

Prints p50, p99 and actions/s of the whole run, how many tables kept their own p99 under
50 ms, and last ``p99_ms: X``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import socketio

OPTIONS = {"interjection_grace_ms": 0, "cancel_window_ms": 0, "target_score": 10_000}
"""No S-62 waits: they would hold the measured actions on purpose (a held action is acked
only once the grace or window is over), and this measures the server, not the rules."""


def start_server(db: str) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "STOPTABLE_BOT_DELAY_MS": "0", "STOPTABLE_RATE_PER_S": "1000"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from stoptable.cli import main; main()",
            "serve",
            "--db",
            db,
            "--port",
            "0",
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.startswith("serving on "):
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, line.removeprefix("serving on ")


class Table:
    def __init__(self, url: str, table: str, token: str) -> None:
        self.url, self.table, self.token = url, table, token
        self.player = socketio.AsyncClient(reconnection=False)
        self.watcher = socketio.AsyncClient(reconnection=False)
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.arrivals: dict[int, float] = {}
        self.latencies: list[float] = []
        self.player.on("state", self._state, namespace="/table")
        self.watcher.on("events", self._events, namespace="/table")

    async def _state(self, data: dict[str, Any]) -> None:
        self.state = data
        self.changed.set()

    async def _events(self, data: dict[str, Any]) -> None:
        self.arrivals[data["seq"]] = time.perf_counter()

    async def connect(self) -> None:
        await self.watcher.connect(
            self.url, namespaces=["/table"], auth={"table": self.table}, transports=["websocket"]
        )
        await self.player.connect(
            self.url,
            namespaces=["/table"],
            auth={"table": self.table, "token": self.token},
            transports=["websocket"],
        )

    def _arrival(self, seq: int) -> float | None:
        later = [s for s in self.arrivals if s >= seq]
        return self.arrivals[min(later)] if later else None

    async def play(self, until: float) -> None:
        while time.perf_counter() < until:
            st = self.state
            if st is None or st["result"] is not None or not st["legal"]:
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), 1.0)
                continue
            legal = st["legal"]
            action = next((a for a in legal if a["type"] == "play"), legal[0])
            self.state = None
            sent = time.perf_counter()
            ack = await self.player.call("action", action, namespace="/table", timeout=30)
            if not ack.get("ok"):
                continue
            seq = ack["seq"]
            for _ in range(2000):
                arrived = self._arrival(seq)
                if arrived is not None:
                    self.latencies.append((arrived - sent) * 1000)
                    if os.environ.get("BENCH_DEBUG") and self.latencies[-1] > 100:
                        acked = (time.perf_counter() - sent) * 1000
                        print("slow", round(self.latencies[-1]), round(acked), action, seq)
                    break
                await asyncio.sleep(0.002)
            for s in [s for s in self.arrivals if s < seq]:
                del self.arrivals[s]

    async def close(self) -> None:
        for c in (self.player, self.watcher):
            with contextlib.suppress(Exception):
                await c.disconnect()


async def run(url: str, tables: int, seconds: float) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        made = []
        for i in range(tables):
            r = await http.post(
                "/api/tables",
                json={
                    "game": "stop",
                    "ruleset": "abacus-en",
                    "seats": 4,
                    "seed": i,
                    "options": OPTIONS,
                    "bots": [None, "heuristic", "heuristic", "heuristic"],
                    "bot_delay_ms": 0,
                    "round_pause_ms": 0,
                },
            )
            r.raise_for_status()
            table = r.json()["table"]
            made.append((table, None))
        runners = []
        for table, _ in made:
            r = await http.post(f"/api/tables/{table}/seats/0", json={"name": "bench"})
            r.raise_for_status()
            runners.append(Table(url, table, r.json()["token"]))
    for runner in runners:
        await runner.connect()
    start = time.perf_counter()
    await asyncio.gather(*(r.play(start + seconds) for r in runners))
    elapsed = time.perf_counter() - start
    for runner in runners:
        await runner.close()
    all_ms = sorted(x for r in runners for x in r.latencies)
    if not all_ms:
        raise SystemExit("no action was measured")
    p99 = all_ms[min(len(all_ms) - 1, int(0.99 * len(all_ms)))]
    under = sum(
        1
        for r in runners
        if r.latencies
        and sorted(r.latencies)[min(len(r.latencies) - 1, int(0.99 * len(r.latencies)))] < 50
    )
    print(f"tables: {tables}  seconds: {elapsed:.1f}  measured actions: {len(all_ms)}")
    print(f"p50_ms: {statistics.median(all_ms):.1f}")
    print(f"p99_ms_all: {p99:.1f}")
    print(f"actions_per_s: {len(all_ms) / elapsed:.1f} (scripted clients; bots act in between)")
    print(f"tables_with_p99_under_50ms: {under}/{tables}")
    print(f"p99_ms: {p99:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--db", default=None, help="database URL (default: a temp SQLite file)")
    parser.add_argument("--url", default=None, help="use this running server instead")
    args = parser.parse_args()
    if args.url:
        asyncio.run(run(args.url, args.tables, args.seconds))
        return
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        proc, url = start_server(db)
        try:
            asyncio.run(run(url, args.tables, args.seconds))
        finally:
            proc.terminate() if os.environ.get("BENCH_SERVER_CMD") else proc.kill()
            proc.wait()


if __name__ == "__main__":
    main()
