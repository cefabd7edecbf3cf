"""Server load: N live tables against one ``stoptable serve``, load generator on the same
machine, figures per action as a person at the table sees them.

**The load model, and why.** Each table has one scripted Socket.IO client acting as a
person. A person *thinks* before each action: ``--think-ms`` is the mean think time (default
1000 ms, a quick human), each wait drawn from a seeded uniform 0.5x..1.5x the mean so that
tables do not move in lock-step. That is an open-ish load: 100 tables offer about 100
person actions/s plus what the bots do in reply, whatever the server's speed, so the
latency measured is what a person sees at that load. ``--think-ms 0`` is a closed loop
(each client acts the moment its previous action came back): it measures saturation, not
latency. By Little's law, with N tables each waiting for its own reply, latency at zero
think is N x the server's CPU per cycle (a person's action plus the three bots' replies,
with their commits and broadcasts), so its p99 says how much work a cycle costs and how
many actions/s the server can take, and nothing about the latency at a person's pace.
``--saturation`` adds that closed-loop run (fresh tables, same server) after the main one.

``--game stop`` (default): N tables of Stop, seat 0 the scripted person, three heuristic
bots at bot delay 0. Per person action it measures the time from the send to the arrival
of the broadcast ``events`` that hold it at a *second* client of the same table (a
spectator connection).

``--game stopit``: N tables of Stop it! with ``--people`` scripted people (default 4) and
``--bots`` heuristic bots at delay 0 (default 0: a real-time bot at delay 0 acts the moment
anything changes, a closed loop of its own that saturates the server whatever N is). The
people grab, insert, call stops and send Go after a think time each (default 500 ms: a
grab or an insert is quicker than a Stop decision). Per action it measures send -> ack,
and it checks I-30 on the stored record of every table: the stamps ``t`` never go back
along ``seq``; every person's stamp lies between its send and its ack on the shared wall
clock (the server stamps on arrival); an action acked before another was sent has the
smaller ``seq``. Needs the SQLite store the benchmark starts (or ``--db`` with ``--url``).
The people's clients run in ``--client-processes`` spawned processes (default 2, whole
tables each): one process for 400 clients was the largest wait of every ack. It prints
the server's breakdown of an ack from ``/metrics`` (the handler, the table's phases, the
loop's lag; operations.md, "Where an ack's time goes"), the generator's own loop lag, and
CPU per acked action of the server and of the generator. ``--peer DIR`` (Stop it!) runs
the same load ``--pairs`` times (default 2) against this checkout's server and against the
server of the checkout in DIR (its ``src/``, with this virtualenv), alternated, each on a
fresh server and SQLite file, and prints both sides' tables under 20 ms, p50 and p99, and
``peer_p99_ratio`` (peer p99 / this p99, the median of the pairs) and ``cpu_ratio`` (this
server's CPU per acked action / the peer's, median [range] of the pairs, the figure the
machine's load moves least): the bar was set on a faster machine, so the code it was set
on is measured beside this one. ``--dump FILE``
writes every person action (table, seat, type, send and ack on the wall clock) for
lining slow actions up with the server's own timings.

    .venv/bin/python benchmarks/server_load.py [--tables 100] [--seconds 30] [--think-ms 1000]
        [--saturation] [--game stop|stopit] [--db URL] [--url URL] [--processes N]

``--processes N`` (Stop): N ``stoptable serve`` processes on a local PostgreSQL and Redis
(``stoptable cluster``'s launcher, no HAProxy): tables are created round robin over the
processes (each drives its share) and every client connects to a process drawn at random,
as behind a round-robin balancer. With ``--saturation`` the closed loop runs first on one
process of that cluster and then over all N, and the ratio of their stored actions/s is
printed (the peer measured in the same run).

Prints the load model, p50, p99, person actions/s, all stored actions/s (the ``seq``
advance: every person and bot action plus chance lines), how many tables kept their own
p99 under the bar (50 ms; 20 ms for Stop it!), and last ``p99_ms: X`` (Stop) or
``stopit_tables_p99_under_20ms: K/N`` (Stop it!).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import socketio
from wire_client import WireClient

OPTIONS = {"interjection_grace_ms": 0, "cancel_window_ms": 0, "target_score": 10_000}
"""No S-62 waits: they would hold the measured actions on purpose (a held action is acked
only once the grace or window is over), and this measures the server, not the rules."""
STOPIT_OPTIONS = {"min_pause_ms": 0}
"""Go is legal at once: the state that makes it legal is the one a client already has
(no message comes when a pause ends), so a pause would only idle the table."""


OPEN_LIMITS = {
    "STOPTABLE_BOT_DELAY_MS": "0",
    "STOPTABLE_RATE_PER_S": "1000",
    "STOPTABLE_SOCKETS_PER_ADDRESS": "100000",
    "STOPTABLE_CONNECTIONS_PER_ADDRESS": "100000",
    "STOPTABLE_CREATES_PER_MIN": "1000000",
    "STOPTABLE_CREATES_BURST": "1000000",
    "STOPTABLE_WAITING_PER_ADDRESS": "1000000",
}
"""Every client of the benchmark is 127.0.0.1: the per-address limits of a public server
(operations.md, "Running it in public") are lifted, as in the tests (creating 100 tables
from one address was refused 429 once the create limits came)."""


def start_server(db: str, src: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """``stoptable serve`` on a free port (``BENCH_SERVER_CMD``: a command prefix to run it
    under, e.g. ``py-spy record -o prof.svg --``); ``src``: the ``src`` folder of another
    checkout whose server to run (``--peer``), with this virtualenv."""
    env = {**os.environ, **OPEN_LIMITS}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    prefix = os.environ.get("BENCH_SERVER_CMD", "").split()
    proc = subprocess.Popen(
        [
            *prefix,
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
        start_new_session=True,
    )
    assert proc.stdout is not None
    raw = proc.stdout.readline()
    while raw and not raw.startswith("serving on "):
        raw = proc.stdout.readline()  # a prefix command may print first
    line = raw.strip()
    if not line.startswith("serving on "):
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, line.removeprefix("serving on ")


def stop_server(proc: subprocess.Popen[str]) -> None:
    """Kill the server's process group; under ``BENCH_SERVER_CMD`` first SIGINT, so that a
    profiler writes its output and the server shuts down cleanly."""
    if os.environ.get("BENCH_SERVER_CMD"):
        os.killpg(proc.pid, signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(30)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def cpu_s(pid: int | list[int] | None) -> float | None:
    """User + system CPU seconds of process ``pid`` so far (all its threads), from /proc;
    of all of them for a list (the server processes of a cluster)."""
    if pid is None:
        return None
    total = 0.0
    for one in pid if isinstance(pid, list) else [pid]:
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            return None
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


Histograms = dict[str, tuple[list[tuple[float, float]], float, float]]
"""``name{phase}`` -> (cumulative buckets (le, count), sum, count) of a scrape."""


def scrape(url: str) -> Histograms:
    """The server's ack and phase histograms (``GET /metrics``)."""
    from prometheus_client.parser import text_string_to_metric_families

    r = httpx.get(f"{url}/metrics", timeout=60)
    if r.status_code == 404:  # an older server (a --peer checkout) without metrics
        return {}
    r.raise_for_status()
    out: Histograms = {}
    for family in text_string_to_metric_families(r.text):
        names = {
            "stoptable_ack_latency_seconds": "handler (arrival -> ack)",
            "stoptable_loop_lag_seconds": "server loop lag (a wait per hop)",
        }
        if family.name not in (*names, "stoptable_action_phase_seconds"):
            continue
        for sample in family.samples:
            key = sample.labels.get("phase", names.get(family.name, family.name))
            buckets, total, count = out.get(key, ([], 0.0, 0.0))
            if sample.name.endswith("_bucket"):
                buckets.append((float(sample.labels["le"]), sample.value))
            elif sample.name.endswith("_sum"):
                total = sample.value
            elif sample.name.endswith("_count"):
                count = sample.value
            out[key] = (buckets, total, count)
    return out


def print_breakdown(before: Histograms, after: Histograms) -> None:
    """Where an action's time went inside the server during the run: per phase its mean
    and the bucket that holds its p99 (``<= X ms``), from the histograms' differences."""
    if not after:
        print("server breakdown: none (this server has no /metrics)")
        return
    print("server breakdown (mean, p99 bucket):")
    for key, (buckets, total, count) in after.items():
        old_buckets, old_total, old_count = before.get(key, ([], 0.0, 0.0))
        n = count - old_count
        if n <= 0:
            continue
        old = dict(old_buckets)
        bound = next((le for le, c in buckets if c - old.get(le, 0.0) >= 0.99 * n), float("inf"))
        print(
            f"  {key}: n {n:.0f}, mean {(total - old_total) * 1000 / n:.2f} ms, "
            f"p99 <= {bound * 1000:g} ms"
        )


async def loop_lag(until: float, lags: list[float], every_s: float = 0.01) -> None:
    """How late this process's event loop wakes a 10 ms sleep, until ``until``: the time
    an arrived message waits before the generator reads it (its own CPU shortage)."""
    while (now := time.perf_counter()) < until:
        await asyncio.sleep(every_s)
        lags.append((time.perf_counter() - now - every_s) * 1000)


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


class Thinker:
    """A person's think time: seeded, uniform 0.5x..1.5x the mean."""

    def __init__(self, mean_ms: float, seed: int) -> None:
        self.mean_s = mean_ms / 1000
        self.rng = random.Random(seed)

    async def think(self) -> None:
        if self.mean_s > 0:
            await asyncio.sleep(self.mean_s * self.rng.uniform(0.5, 1.5))


async def connect(client: socketio.AsyncClient, url: str, auth: dict[str, str]) -> None:
    await client.connect(url, namespaces=["/table"], auth=auth, transports=["websocket"])


# ---------------------------------------------------------------------------- Stop


class StopTable:
    """One Stop table: the person (seat 0) and a spectator that sees the broadcasts."""

    def __init__(
        self, url: str, table: str, token: str, thinker: Thinker, watch_url: str | None = None
    ) -> None:
        self.url, self.table, self.token, self.thinker = url, table, token, thinker
        self.watch_url = watch_url or url
        self.player = socketio.AsyncClient(reconnection=False)
        self.watcher = socketio.AsyncClient(reconnection=False)
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.arrived = asyncio.Event()
        self.arrivals: dict[int, float] = {}
        self.latencies: list[float] = []
        self.seq = 0
        """The latest seq the spectator saw (stored lines so far)."""
        self.player.on("state", self._state, namespace="/table")
        self.watcher.on("events", self._events, namespace="/table")
        self.watcher.on("state", self._watched, namespace="/table")

    async def _state(self, data: dict[str, Any]) -> None:
        self.state = data
        self.changed.set()

    async def _watched(self, data: dict[str, Any]) -> None:
        self.seq = max(self.seq, data["seq"])

    async def _events(self, data: dict[str, Any]) -> None:
        self.arrivals[data["seq"]] = time.perf_counter()
        self.seq = max(self.seq, data["seq"])
        self.arrived.set()

    async def connect(self) -> None:
        await connect(self.watcher, self.watch_url, {"table": self.table})
        await connect(self.player, self.url, {"table": self.table, "token": self.token})

    def _arrival(self, seq: int) -> float | None:
        later = [s for s in self.arrivals if s >= seq]
        return self.arrivals[min(later)] if later else None

    def _actionable(self) -> dict[str, Any] | None:
        st = self.state
        if st is None or st["result"] is not None or not st["legal"]:
            return None
        return st

    async def play(self, until: float) -> None:
        while time.perf_counter() < until:
            if self._actionable() is None:
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), 1.0)
                continue
            await self.thinker.think()
            st = self._actionable()  # the latest state after thinking
            if st is None or time.perf_counter() >= until:
                continue
            legal = st["legal"]
            action = next((a for a in legal if a["type"] == "play"), legal[0])
            self.state = None
            sent = time.perf_counter()
            ack = await self.player.call("action", action, namespace="/table", timeout=30)
            if not ack.get("ok"):
                continue
            seq = ack["seq"]
            deadline = sent + 5.0
            while (arrived := self._arrival(seq)) is None and time.perf_counter() < deadline:
                self.arrived.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.arrived.wait(), 1.0)
            if arrived is not None:
                self.latencies.append((arrived - sent) * 1000)
            for s in [s for s in self.arrivals if s < seq]:
                del self.arrivals[s]

    async def close(self) -> None:
        for c in (self.player, self.watcher):
            with contextlib.suppress(Exception):
                await c.disconnect()


async def stop_tables(
    http: httpx.AsyncClient, urls: list[str], count: int, think_ms: float, seed: int
) -> list[StopTable]:
    """``count`` tables, created round robin over ``urls`` (so each process drives its
    share); the person and the spectator of each connect to a process drawn at random,
    as behind a round-robin balancer (with several processes, most of them reach their
    table through another process and Redis)."""
    runners = []
    pick = random.Random(seed)
    for i in range(count):
        url = urls[i % len(urls)]
        r = await http.post(
            f"{url}/api/tables",
            json={
                "game": "stop",
                "ruleset": "abacus-en",
                "seats": 4,
                "seed": seed + i,
                "options": OPTIONS,
                "bots": [None, "heuristic", "heuristic", "heuristic"],
                "bot_delay_ms": 0,
                "round_pause_ms": 0,
            },
        )
        r.raise_for_status()
        table = r.json()["table"]
        r = await http.post(f"{url}/api/tables/{table}/seats/0", json={"name": "bench"})
        r.raise_for_status()
        token, thinker = r.json()["token"], Thinker(think_ms, seed + i)
        runners.append(StopTable(pick.choice(urls), table, token, thinker, pick.choice(urls)))
    for runner in runners:
        await runner.connect()
    return runners


async def run_stop(
    urls: str | list[str],
    tables: int,
    seconds: float,
    think_ms: float,
    seed: int,
    pid: int | list[int] | None,
    counters: Counters | None = None,
) -> tuple[float, float]:
    """One measured Stop run over the server(s) at ``urls``; prints its figures and
    returns its p99 and its stored actions/s."""
    urls = [urls] if isinstance(urls, str) else urls
    async with httpx.AsyncClient(timeout=60) as http:
        runners = await stop_tables(http, urls, tables, think_ms, seed)
    await asyncio.sleep(0.5)  # the first states arrive
    seq0 = sum(r.seq for r in runners)
    before = await counters.read() if counters is not None else {}
    cpu0, own0 = cpu_s(pid), time.process_time()
    start = time.perf_counter()
    await asyncio.gather(*(r.play(start + seconds) for r in runners))
    elapsed = time.perf_counter() - start
    stored = sum(r.seq for r in runners) - seq0
    cpu1, own1 = cpu_s(pid), time.process_time()
    after = await counters.read() if counters is not None else {}
    for runner in runners:
        await runner.close()
    all_ms = [x for r in runners for x in r.latencies]
    if not all_ms:
        raise SystemExit("no action was measured")
    under = sum(1 for r in runners if r.latencies and p99(r.latencies) < 50)
    where = "" if len(urls) == 1 else f", over {len(urls)} processes"
    print(
        f"load: stop, {tables} tables x (1 person + 3 heuristic bots at delay 0), "
        f"think {think_ms:g} ms (uniform 0.5x..1.5x), {elapsed:.1f} s{where}"
    )
    print(f"measured person actions: {len(all_ms)}")
    print(f"p50_ms: {statistics.median(all_ms):.1f}")
    print(f"p99_ms_all: {p99(all_ms):.1f}")
    print(f"person_actions_per_s: {len(all_ms) / elapsed:.1f}")
    print(
        f"stored_actions_per_s: {stored / elapsed:.1f} "
        "(seq advance: person and bot actions plus deal lines)"
    )
    if cpu0 is not None and cpu1 is not None and stored:
        print(
            f"server_cpu_ms_per_stored_action: {(cpu1 - cpu0) * 1000 / stored:.2f} "
            f"(server busy {(cpu1 - cpu0) / elapsed:.0%} of a core; "
            f"load generator {(own1 - own0) / elapsed:.0%})"
        )
    print(f"tables_with_p99_under_50ms: {under}/{tables}")
    for name in after:
        delta = after[name] - before[name]
        per = f", {delta / stored:.2f} per stored action" if stored else ""
        print(f"{name}_per_s: {delta / elapsed:.1f}{per}")
    return p99(all_ms), stored / elapsed


# ---------------------------------------------------------------------------- Stop it!


@dataclass
class Sent:
    seat: int
    kind: str
    send_wall_ms: float
    ack_wall_ms: float
    seq: int | None
    """The seq of the stored line (None: refused)."""


@dataclass
class StopItPerson:
    table: str
    seat: int
    client: Any
    """python-socketio's ``AsyncClient`` or :class:`wire_client.WireClient`."""
    thinker: Thinker
    rng: random.Random
    state: dict[str, Any] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    latencies: list[float] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)

    async def _state(self, data: dict[str, Any]) -> None:
        self.state = data
        self.changed.set()

    def choose(self) -> dict[str, Any] | None:
        st = self.state
        if st is None or st["result"] is not None or not st["legal"]:
            return None
        legal = st["legal"]
        for kind in ("call_stop", "go"):
            found = [a for a in legal if a["type"] == kind]
            if found:
                return self.rng.choice(found)
        inserts = [a for a in legal if a["type"] == "insert"]
        if inserts:
            return self.rng.choice(inserts)
        grabs = [a for a in legal if a["type"] == "grab"]
        return self.rng.choice(grabs) if grabs else None

    async def play(self, until: float) -> None:
        while time.perf_counter() < until:
            if self.choose() is None:
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), 1.0)
                continue
            await self.thinker.think()
            action = self.choose()  # the latest state after thinking
            if action is None or time.perf_counter() >= until:
                continue
            self.state = None  # act on a state sent after this action (it may beat the ack)
            send_wall = time.time() * 1000
            sent = time.perf_counter()
            ack = await self.client.call("action", action, namespace="/table", timeout=30)
            self.latencies.append((time.perf_counter() - sent) * 1000)
            seq = ack["seq"] if ack.get("ok") else None
            self.sent.append(Sent(self.seat, action["type"], send_wall, time.time() * 1000, seq))


def check_i30(db_path: str, table: str, sent: list[Sent]) -> list[str]:
    """I-30 on the stored record of ``table``; the problems found (none: it holds)."""
    with contextlib.closing(sqlite3.connect(db_path)) as db:
        (started,) = db.execute("SELECT started_ms FROM tables WHERE id = ?", (table,)).fetchone()
        rows = db.execute(
            "SELECT seq, line, t FROM events WHERE table_id = ? ORDER BY seq", (table,)
        ).fetchall()
    problems: list[str] = []
    stored = {seq: (json.loads(line), t) for seq, line, t in rows}
    last = -1
    for seq, _, t in rows:
        if t < last:
            problems.append(f"seq {seq}: t {t} < {last} before it")
        last = max(last, t)
    for s in sent:
        if s.seq is None:
            continue
        line, t = stored.get(s.seq, ({}, None))
        if t is None or line.get("seat") != s.seat or line.get("type") != s.kind:
            problems.append(f"seq {s.seq}: not seat {s.seat}'s {s.kind}")
            continue
        # Whole ms on both sides: the server truncates, so allow 1 ms each way.
        if not (s.send_wall_ms - 1 <= started + t <= s.ack_wall_ms + 1):
            problems.append(f"seq {s.seq}: stamp {t} outside its send..ack window")
    done = sorted((s for s in sent if s.seq is not None), key=lambda s: s.ack_wall_ms)
    by_send = sorted((s for s in sent if s.seq is not None), key=lambda s: s.send_wall_ms)
    i, top = 0, -1
    for s in by_send:
        while i < len(done) and done[i].ack_wall_ms < s.send_wall_ms:
            top = max(top, done[i].seq or -1)
            i += 1
        if s.seq is not None and s.seq < top:
            problems.append(f"seq {s.seq}: sent after seq {top} was acked, stored before it")
    return problems


@dataclass
class Seated:
    """A person's seat as the parent claimed it, handed to a client process."""

    table: str
    seat: int
    token: str
    key: int
    """Seeds its think times and its choices."""


@dataclass
class ClientsDone:
    """What one client process measured: per person (table, seat, latencies, sent), its
    event loop's lags, its own CPU seconds over the measured window."""

    persons: list[tuple[str, int, list[float], list[Sent]]]
    lags: list[float]
    cpu_s: float


class _OrjsonModule:
    """The ``json`` module the clients' Socket.IO and Engine.IO use: orjson, as the
    server's wire.py (the standard library's decoder was a third of a client's CPU)."""

    @staticmethod
    def dumps(obj: Any, **_kwargs: Any) -> str:
        return orjson.dumps(obj).decode()

    @staticmethod
    def loads(text: str | bytes, **_kwargs: Any) -> Any:
        return orjson.loads(text)


async def play_clients(
    url: str, seated: list[Seated], think_ms: float, seconds: float, barrier: Any, kind: str
) -> ClientsDone:
    """One client process's people: connect them, wait at ``barrier`` for every process
    (and the parent, which starts its counters), play ``seconds``, wait at it again (the
    parent stops its counters), disconnect. ``kind`` is the client (``--client``)."""
    persons = []
    for s in seated:
        auth = {"table": s.table, "token": s.token}
        client: Any
        if kind == "lean":
            client = WireClient("/table")
        else:
            client = socketio.AsyncClient(reconnection=False, json=_OrjsonModule)
        person = StopItPerson(
            s.table, s.seat, client, Thinker(think_ms, s.key), random.Random(s.key)
        )
        client.on("state", person._state, namespace="/table")
        if kind == "lean":
            await client.connect(url, auth)
        else:
            await connect(client, url, auth)
        persons.append(person)
    # The generator's own collector stays out of the measured acks: a collection of a
    # process holding 200 connections took 2-8 ms (young) and 18-25 ms (full), and each
    # held every ack that process was waiting for (a person's browser is not such a
    # process). What exists now is frozen; nothing is collected until the window ends.
    gc.collect()
    gc.freeze()
    gc.disable()
    barrier.wait()  # blocks the loop for the other processes' connections: nothing is due
    own0 = time.process_time()
    start = time.perf_counter()
    lags: list[float] = []
    await asyncio.gather(
        loop_lag(start + seconds, lags), *(p.play(start + seconds) for p in persons)
    )
    own1 = time.process_time()
    gc.enable()
    gc.unfreeze()
    barrier.wait()
    for p in persons:
        with contextlib.suppress(Exception):
            await p.client.disconnect()
    return ClientsDone([(p.table, p.seat, p.latencies, p.sent) for p in persons], lags, own1 - own0)


def client_process(
    url: str,
    seated: list[Seated],
    think_ms: float,
    seconds: float,
    barrier: Any,
    results: Any,
    kind: str = "lean",
) -> None:
    """A client process's main (spawned): its people on a uvloop loop; the result (or the
    error) goes to ``results``."""
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    try:
        results.put(asyncio.run(play_clients(url, seated, think_ms, seconds, barrier, kind)))
    except BaseException as exc:
        barrier.abort()
        results.put(repr(exc))


async def seat_people(
    url: str, tables: int, people: int, bots: int, seed: int
) -> tuple[list[str], list[Seated]]:
    """``tables`` Stop it! tables, each person's seat claimed; the table ids, the seats."""
    ids: list[str] = []
    seated: list[Seated] = []
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        for i in range(tables):
            r = await http.post(
                "/api/tables",
                json={
                    "game": "stopit",
                    "seats": people + bots,
                    "seed": seed + i,
                    "options": STOPIT_OPTIONS,
                    "bots": [None] * people + ["heuristic"] * bots,
                    "bot_delay_ms": 0,
                },
            )
            r.raise_for_status()
            table = r.json()["table"]
            ids.append(table)
            for seat in range(people):
                r = await http.post(f"/api/tables/{table}/seats/{seat}", json={"name": f"b{seat}"})
                r.raise_for_status()
                seated.append(Seated(table, seat, r.json()["token"], (seed + i) * 16 + seat))
    return ids, seated


@dataclass
class StopItRun:
    """The main figures of one Stop it! run (the ``--peer`` summary compares them)."""

    under: int
    tables: int
    p50_ms: float
    p99_ms: float
    cpu_ms: float | None = None
    """Server CPU per acked action (None where it was not measured)."""


def run_stopit(
    url: str,
    db_path: str | None,
    tables: int,
    seconds: float,
    think_ms: float,
    people: int,
    bots: int,
    seed: int,
    pid: int | None = None,
    client_processes: int = 2,
    kind: str = "lean",
    dump: str | None = None,
) -> StopItRun:
    """One measured Stop it! run; prints its figures and returns the main ones.

    The people are spread over ``client_processes`` spawned processes (whole tables
    each): one Python process driving 400 Socket.IO clients needed as much CPU per
    action as the server and, on a shared machine, made its own event loop the
    largest wait of every measured ack."""
    ids, seated = asyncio.run(seat_people(url, tables, people, bots, seed))
    count = max(1, min(client_processes, tables))
    chunks = [[s for s in seated if ids.index(s.table) % count == k] for k in range(count)]
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(count + 1)
    results = ctx.Queue()
    procs = [
        ctx.Process(
            target=client_process, args=(url, chunk, think_ms, seconds, barrier, results, kind)
        )
        for chunk in chunks
    ]
    for proc in procs:
        proc.start()
    barrier.wait()
    cpu0, start = cpu_s(pid), time.perf_counter()
    before = scrape(url)
    barrier.wait()
    elapsed = time.perf_counter() - start
    cpu1 = cpu_s(pid)
    after = scrape(url)
    done = [results.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(30)
    failed = [d for d in done if not isinstance(d, ClientsDone)]
    if failed:
        raise SystemExit(f"a client process failed: {failed[0]}")
    own = sum(d.cpu_s for d in done)
    lags = [x for d in done for x in d.lags]
    by_table: dict[str, list[tuple[list[float], list[Sent]]]] = {t: [] for t in ids}
    for d in done:
        for table, _seat, latencies, sent in d.persons:
            by_table[table].append((latencies, sent))
    all_ms = [x for persons in by_table.values() for lat, _ in persons for x in lat]
    if not all_ms:
        raise SystemExit("no action was measured")
    if dump is not None:
        with open(dump, "w") as out:
            for table, persons in by_table.items():
                for _lat, sent in persons:
                    for s in sent:
                        out.write(f"{table} {s.seat} {s.kind} {s.send_wall_ms} {s.ack_wall_ms}\n")
    under = 0
    broken = 0
    first_problem = ""
    for table, persons in by_table.items():
        mine = [x for lat, _ in persons for x in lat]
        if db_path is not None:
            problems = check_i30(db_path, table, [s for _, sent in persons for s in sent])
            if problems:
                broken += 1
                first_problem = first_problem or f"{table}: {problems[0]}"
                continue
        if mine and p99(mine) < 20:
            under += 1
    refused = sum(1 for ps in by_table.values() for _, sent in ps for s in sent if s.seq is None)
    print(
        f"load: stopit, {tables} tables x ({people} people + {bots} heuristic bots at delay 0), "
        f"think {think_ms:g} ms (uniform 0.5x..1.5x), {elapsed:.1f} s"
    )
    print(f"measured person actions: {len(all_ms)} ({refused} refused: stale, interrupted)")
    print(f"p50_ms: {statistics.median(all_ms):.1f} (send -> ack)")
    print(f"p99_ms_all: {p99(all_ms):.1f}")
    print(f"person_actions_per_s: {len(all_ms) / elapsed:.1f}")
    acked = len(all_ms) - refused
    sends = [s.send_wall_ms for ps in by_table.values() for _, sent in ps for s in sent]
    per_second = Counter(int((t - min(sends)) // 1000) for t in sends)
    busiest, slow_in = (
        max(per_second.values()),
        Counter(
            int((s.send_wall_ms - min(sends)) // 1000)
            for ps in by_table.values()
            for lat, sent in ps
            for s, ms in zip(sent, lat, strict=True)
            if ms >= 20
        ),
    )
    cpu_ms = None
    if cpu0 is not None and cpu1 is not None and acked:
        per_action = (cpu1 - cpu0) / acked
        cpu_ms = per_action * 1000
        print(
            f"server_cpu_ms_per_acked_action: {per_action * 1000:.2f} "
            f"(server busy {(cpu1 - cpu0) / elapsed:.0%} of a core)"
        )
        print(
            f"busiest_second: {busiest} person actions (mean {len(all_ms) / elapsed:.0f}/s): "
            f"about {busiest * per_action:.0%} of a core at that CPU per action; "
            f"actions of 20 ms or more by second: "
            + (", ".join(f"{k}s {v}" for k, v in sorted(slow_in.items())) or "none")
        )
    if acked:
        print(
            f"generator_cpu_ms_per_acked_action: {own * 1000 / acked:.2f} "
            f"(load generator busy {own / elapsed:.0%} of a core, "
            f"{len(procs)} client processes, {kind} client)"
        )
    if db_path is None:
        print("i30: not checked (no SQLite file to read; pass --db with --url)")
    else:
        print(f"i30_tables_broken: {broken}/{tables} {first_problem}".rstrip())
    if lags:
        print(
            f"generator_loop_lag_ms: p50 {statistics.median(lags):.1f}, p99 {p99(lags):.1f} "
            "(a 10 ms sleep's overshoot: how long a message waits for the generator)"
        )
    print_breakdown(before, after)
    print(f"stopit_tables_p99_under_20ms: {under}/{tables}")
    return StopItRun(under, tables, statistics.median(all_ms), p99(all_ms), cpu_ms)


# ---------------------------------------------------------------------------- main


def run(
    args: argparse.Namespace, url: str, db_path: str | None, pid: int | None = None
) -> StopItRun | None:
    if args.game == "stopit":
        think = 500.0 if args.think_ms is None else args.think_ms
        return run_stopit(
            url,
            db_path,
            args.tables,
            args.seconds,
            think,
            args.people,
            args.bots,
            args.seed,
            pid,
            args.client_processes,
            args.client,
            args.dump,
        )
    asyncio.run(run_stops(args, url, pid))
    return None


def served(args: argparse.Namespace, src: Path | None = None) -> StopItRun | None:
    """One run against a fresh server (this checkout's, or the one under ``src``) on a
    temporary SQLite file."""
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        proc, url = start_server(db, src)
        try:
            pid = None if os.environ.get("BENCH_SERVER_CMD") else proc.pid
            return run(args, url, sqlite_file(db), pid)
        finally:
            stop_server(proc)


def compare_stopit(args: argparse.Namespace, peer: Path) -> None:
    """``--peer``: alternated Stop it! runs of this checkout's server and the peer's (each
    first in every other pair), the same load and client; a summary line per side."""
    peer_src = peer.resolve() / "src"
    if not (peer_src / "stoptable").is_dir():
        raise SystemExit(f"--peer {peer}: no src/stoptable there (a stoptable checkout?)")
    ours: list[StopItRun] = []
    theirs: list[StopItRun] = []
    for pair in range(args.pairs):
        order = [(None, ours), (peer_src, theirs)]
        for src, into in order if pair % 2 == 0 else order[::-1]:
            print(f"--- pair {pair + 1}: {'peer ' + str(peer) if src else 'this checkout'}")
            result = served(args, src)
            assert result is not None
            into.append(result)
    for name, runs in (("this", ours), ("peer", theirs)):
        print(
            f"{name}: tables under 20 ms "
            + ", ".join(f"{r.under}/{r.tables}" for r in runs)
            + "; p50 "
            + ", ".join(f"{r.p50_ms:.1f}" for r in runs)
            + " ms; p99 of all actions "
            + ", ".join(f"{r.p99_ms:.1f}" for r in runs)
            + " ms; server CPU ms per acked action "
            + ", ".join("-" if r.cpu_ms is None else f"{r.cpu_ms:.2f}" for r in runs)
        )
    ratio = statistics.median(t.p99_ms / o.p99_ms for o, t in zip(ours, theirs, strict=True))
    print(f"peer_p99_ratio: {ratio:.2f} (median of the pairs; peer p99 / this p99)")
    cpu = [
        o.cpu_ms / t.cpu_ms
        for o, t in zip(ours, theirs, strict=True)
        if o.cpu_ms is not None and t.cpu_ms
    ]
    if cpu:
        print(
            f"cpu_ratio: {statistics.median(cpu):.2f} [{min(cpu):.2f}-{max(cpu):.2f}] "
            "(this server's CPU per acked action / the peer's, median [range] of the pairs)"
        )


async def run_stops(args: argparse.Namespace, url: str, pid: int | None) -> None:
    """The Stop run, and the closed loop after it with ``--saturation``."""
    think = 1000.0 if args.think_ms is None else args.think_ms
    main_p99, _ = await run_stop(url, args.tables, args.seconds, think, args.seed, pid)
    if args.saturation and think > 0:
        print("--- saturation (closed loop, think 0 ms; fresh tables, same server)")
        await run_stop(url, args.tables, args.saturation_seconds, 0.0, args.seed + 10_000, pid)
    print(f"p99_ms: {main_p99:.1f}")


class Counters:
    """What the cluster's PostgreSQL and Redis did: committed transactions and inserted
    rows (``pg_stat_database``), messages published and delivered to subscribers (Redis
    ``INFO``), so a run can print them per stored action."""

    def __init__(self, pg_url: str, redis_url: str) -> None:
        self.pg_dsn = pg_url.replace("postgresql+asyncpg://", "postgresql://")
        self.redis_url = redis_url

    async def read(self) -> dict[str, float]:
        import asyncpg
        from redis import asyncio as aioredis

        conn = await asyncpg.connect(self.pg_dsn)
        try:
            row = await conn.fetchrow(
                "SELECT xact_commit, tup_inserted FROM pg_stat_database "
                "WHERE datname = current_database()"
            )
        finally:
            await conn.close()
        r = aioredis.Redis.from_url(self.redis_url)
        try:
            commands = await r.info("commandstats")
            stats = await r.info("stats")
        finally:
            await r.aclose()
        return {
            "pg_commits": float(row["xact_commit"]),
            "pg_rows_inserted": float(row["tup_inserted"]),
            "redis_publishes": float(commands.get("cmdstat_publish", {}).get("calls", 0)),
            "redis_output_mb": float(stats.get("total_net_output_bytes", 0)) / 1e6,
        }


async def run_cluster(
    args: argparse.Namespace, urls: list[str], pids: list[int], counters: Counters
) -> None:
    """``--processes N``: with ``--saturation`` first the closed loop on one process of the
    cluster and then spread over all N (the peer in the same run: same PostgreSQL, same
    Redis, same machine), with their ratio; then the main run spread over the N."""
    think = 1000.0 if args.think_ms is None else args.think_ms
    if args.saturation:
        sat = args.saturation_seconds
        print("--- saturation on 1 process of the cluster (closed loop, think 0 ms)")
        _, one = await run_stop(urls[:1], args.tables, sat, 0.0, args.seed + 10_000, pids, counters)
        print(f"--- saturation over {len(urls)} processes (closed loop, think 0 ms)")
        _, many = await run_stop(urls, args.tables, sat, 0.0, args.seed + 20_000, pids, counters)
        print(f"saturation_stored_actions_per_s: 1 process {one:.1f}, {len(urls)} {many:.1f}")
        print(f"saturation_ratio_{len(urls)}_to_1: {many / one:.2f}")
        print(f"--- {args.tables} tables, think {think:g} ms, over {len(urls)} processes")
    main_p99, _ = await run_stop(urls, args.tables, args.seconds, think, args.seed, pids, counters)
    print(f"p99_ms: {main_p99:.1f}")


def run_on_cluster(args: argparse.Namespace) -> None:
    """A local cluster (PostgreSQL, Redis, N servers; the launcher of ``make cluster``)."""
    from stoptable.cli.cluster import LocalCluster

    local = LocalCluster(args.processes, port=None, env=OPEN_LIMITS).start()
    try:
        urls = [s.url for s in local.servers]
        pids = [s.proc.pid for s in local.servers if s.proc is not None]
        assert local.pg is not None and local.redis is not None
        counters = Counters(local.pg.url, local.redis.url)
        asyncio.run(run_cluster(args, urls, pids, counters))
    finally:
        local.stop()


def sqlite_file(db: str) -> str | None:
    prefix = "sqlite+aiosqlite:///"
    return db.removeprefix(prefix) if db.startswith(prefix) else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=["stop", "stopit"], default="stop")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--think-ms",
        type=float,
        default=None,
        help="a person's mean think time (default 1000 for stop, 500 for stopit; 0: saturation)",
    )
    parser.add_argument("--saturation", action="store_true", help="add a think-0 run")
    parser.add_argument("--saturation-seconds", type=float, default=15.0)
    parser.add_argument("--people", type=int, default=4, help="stopit: people per table")
    parser.add_argument("--bots", type=int, default=0, help="stopit: bots per table")
    parser.add_argument(
        "--client-processes",
        type=int,
        default=2,
        help="stopit: processes the people's clients are spread over (whole tables each)",
    )
    parser.add_argument(
        "--client",
        choices=["lean", "socketio"],
        default="lean",
        help="stopit: the people's client (lean: wire_client.py; socketio: python-socketio's)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--dump",
        default=None,
        help="stopit: write every person action as 'table seat type send_ms ack_ms' "
        "(wall clock) to this file, to line them up with the server's own timings",
    )
    parser.add_argument(
        "--peer",
        type=Path,
        default=None,
        metavar="DIR",
        help="stopit: alternate runs with the server of the checkout in DIR (its src/)",
    )
    parser.add_argument("--pairs", type=int, default=2, help="with --peer (default 2)")
    parser.add_argument("--db", default=None, help="database URL (default: a temp SQLite file)")
    parser.add_argument("--url", default=None, help="use this running server instead")
    parser.add_argument("--server-pid", type=int, default=None, help="with --url: its CPU")
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        help="stop: N servers on a local PostgreSQL + Redis (protocol.md §9; 0: one on SQLite)",
    )
    args = parser.parse_args()
    if args.processes:
        run_on_cluster(args)
        return
    if args.url:
        db_path = None if args.db is None else sqlite_file(args.db)
        run(args, args.url, db_path, args.server_pid)
        return
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    if args.peer is not None:
        if args.game != "stopit":
            raise SystemExit("--peer: only with --game stopit")
        compare_stopit(args, args.peer)
        return
    served(args)


if __name__ == "__main__":
    main()
