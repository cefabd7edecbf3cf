"""A seeded fuzz of the raw Engine.IO level against a live ``stoptable serve`` (issue 22):
random and mutated frames from several connections; the server's log holds no traceback,
another table keeps answering all along, and the server's memory stays flat."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import httpx

from tests.server.rawio import Raw
from tests.server.support import Client, ProcessServer, claim, create

TOY = {"game": "toy", "seats": 2, "seed": 5}
SEED = 22
FRAMES_PER_ROUND = 1500

TEMPLATES = [
    '42/table,{id}["action",{{"type":"advance"}}]',
    '42/table,{id}["action",{{"type":"stay","note":"n"}}]',
    '42/table,{id}["resume",{{"seq":0}}]',
    '42/table,{id}["chat",{{"text":"hi"}}]',
    '42/table,["action",{{"type":"bump"}}]',
    '43/table,{id}[{{"ok":true}}]',
    '40/table,{{"table":"nope"}}',
    "3",
    "2probe",
    "5",
    "6",
]
NASTY = [
    "\\udfff", "\\ud800", "\x00", "١", "9" * 120, "[" * 80, "]", "{", "}", ",", ":", '"',
    "1e400", "NaN", "-", "/", "\x1e", "null", "true", "𝟘", "\u202e",
]  # fmt: skip


def mutate(rng: random.Random, frame: str) -> str | bytes:
    """One random change (or none) of ``frame``."""
    roll = rng.random()
    if roll < 0.15:
        return frame
    if roll < 0.3:
        return frame[: rng.randrange(len(frame) + 1)]
    if roll < 0.5:
        at = rng.randrange(len(frame) + 1)
        return frame[:at] + rng.choice(NASTY) + frame[at:]
    if roll < 0.6:
        at = rng.randrange(len(frame))
        return frame[:at] + chr(rng.randrange(32, 0x2FFF)) + frame[at + 1 :]
    if roll < 0.7:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    if roll < 0.8:
        return "".join(rng.choice(NASTY) for _ in range(rng.randrange(1, 8)))
    if roll < 0.9:
        return "4" + "".join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(0, 60)))
    return frame + frame[rng.randrange(len(frame)) :]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


async def fuzz_round(url: str, table: str, token: str, rng: random.Random) -> int:
    """Send FRAMES_PER_ROUND frames from up to 4 connections (reopened when the server
    closes one for garbage); how many connections were closed."""
    closed = 0
    raws = [await Raw.open(url, {"table": table, "token": token}) for _ in range(4)]
    for k in range(FRAMES_PER_ROUND):
        i = rng.randrange(len(raws))
        if raws[i].closed:
            closed += 1
            raws[i] = await Raw.open(url, {"table": table, "token": token})
        frame = mutate(rng, rng.choice(TEMPLATES).format(id=k))
        await raws[i].send(frame)
        if k % 50 == 0:
            await asyncio.sleep(0.01)
    for raw in raws:
        await raw.close()
    return closed


async def watch(url: str, stop: asyncio.Event, latencies: list[float]) -> None:
    """Another table's seat acts ten times a second; every ack must come."""
    table = await create(url, TOY)
    token = await claim(url, table, 0)
    await claim(url, table, 1)
    c = await Client(url).connect(table, token)
    try:
        while not stop.is_set():
            began = time.monotonic()
            ack = await c.call("action", {"type": "bump"}, timeout=5)
            latencies.append(time.monotonic() - began)
            assert ack["ok"] is False and ack["reason"] != "malformed", ack
            await asyncio.sleep(0.1)
    finally:
        await c.close()


def p99(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.99)] if values else 0.0


async def test_seeded_fuzz_leaves_no_traceback_and_the_server_well(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    srv = ProcessServer(f"sqlite+aiosqlite:///{tmp_path / 't.db'}", stderr=log).start()
    assert srv.proc is not None
    rng = random.Random(SEED)
    try:
        table = await create(srv.url, TOY)
        token = await claim(srv.url, table, 0)
        await claim(srv.url, table, 1)
        stop = asyncio.Event()
        quiet: list[float] = []
        watcher = asyncio.create_task(watch(srv.url, stop, quiet))
        await asyncio.sleep(1.0)
        stop.set()
        await watcher
        stop.clear()
        busy: list[float] = []
        watcher = asyncio.create_task(watch(srv.url, stop, busy))
        closed = await fuzz_round(srv.url, table, token, rng)  # warms every path up
        before = rss_kib(srv.proc.pid)
        closed += await fuzz_round(srv.url, table, token, rng)
        closed += await fuzz_round(srv.url, table, token, rng)
        after = rss_kib(srv.proc.pid)
        stop.set()
        await watcher
        assert httpx.get(f"{srv.url}/api/tables/{table}").status_code == 200
        assert closed > 0  # garbage did close connections
        assert len(busy) >= 5
        assert max(busy) < 5  # every ack came (the call itself times out at 5 s)
        assert after - before < 16 * 1024, (before, after)  # KiB: memory flat
        print(
            f"fuzz: {3 * FRAMES_PER_ROUND} frames, {closed} connections closed, "
            f"watcher p99 {p99(quiet) * 1000:.1f} ms quiet / {p99(busy) * 1000:.1f} ms "
            f"under fuzz, RSS {before} -> {after} KiB"
        )
    finally:
        srv.kill()
    text = log.read_text()
    assert "Traceback" not in text, text[-3000:]
    assert "Task exception was never retrieved" not in text
    lines = text.splitlines()
    assert len(lines) < 400, f"{len(lines)} log lines"
