"""protocol.md §9: three ``stoptable serve`` processes on one PostgreSQL and one Redis
(the launcher of ``make cluster``), with HAProxy in front.

Two people of a Stop table on two processes and a spectator on the third play to the end
while the driving process is killed (``kill -9``, twice, at random moments) and then
stopped (SIGTERM): the table goes on elsewhere within 10 s each time, and every
acknowledged action and chat message is in the store exactly once. Then the races: two
processes started at once on a database of busy tables, and a process paused (SIGSTOP)
until its table moved. The fencing itself is tested on the store (a process that lost a
table cannot append to it, even before it noticed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import socketio
import sqlalchemy as sa

from stoptable.cli.cluster import LocalCluster, Server, missing_programs
from stoptable.server.store import IDLE_IN_TRANSACTION_MS, Fenced, Store
from tests.server.cases import STOP_FAST
from tests.server.support import HTTP_TIMEOUT_S, OPEN_LIMITS_ENV, Client, claim, create

TAKEOVER_S = 10.0
"""protocol.md §9: a table goes on within 10 s of its driver's death."""

STOP_BODY: dict[str, Any] = {
    "game": "stop",
    "seats": 2,
    "seed": 5,
    "options": {**STOP_FAST, "target_score": 15},
    "round_pause_ms": 0,
    "bot_delay_ms": 0,
}


def _need_programs() -> None:
    missing = missing_programs()
    if missing:
        why = f"not installed: {', '.join(missing)} (make sysdeps installs them as root)"
        if os.environ.get("STOPTABLE_REQUIRE_ALL") == "1":
            pytest.fail(f"STOPTABLE_REQUIRE_ALL=1 and the cluster tests cannot run: {why}")
        pytest.skip(why)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    _need_programs()
    logs = tmp_path_factory.mktemp("cluster-logs")
    env = {**OPEN_LIMITS_ENV, "STOPTABLE_BOT_DELAY_MS": "0"}
    local = LocalCluster(3, port=0, env=env, logs=logs).start()
    yield local
    local.stop()


async def health(url: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=5) as http:
        r = await http.get("/api/health")
        return dict(r.json())


async def driver_of(local: LocalCluster, table: str, skip: Server | None = None) -> Server | None:
    """The live process whose health lists ``table`` (``skip``: one not to ask, e.g. a
    paused one, whose health request would only time out)."""
    for s in local.servers:
        if s.alive and s.port and s is not skip:
            with contextlib.suppress(httpx.HTTPError):
                if table in (await health(s.url))["driving"]:
                    return s
    return None


async def restart(local: LocalCluster, dead: Server) -> None:
    """A killed process comes back on its port (in the background: its clients went
    elsewhere), where HAProxy looks for it."""
    fresh = local.server(dead.port).spawn()
    local.servers[local.servers.index(dead)] = fresh
    await asyncio.to_thread(fresh.ready)


class Seat:
    """A person (or a spectator, token None) who reconnects to a live process and
    ``resume``s whenever its process goes away."""

    def __init__(self, table: str, token: str | None, urls: Callable[[], list[str]]) -> None:
        self.table = table
        self.token = token
        self.urls = urls
        self.client: Client | None = None
        self.seq = 0
        self.reconnects = 0
        self.failed: str | None = None
        """The last connect that failed, for a stalled game's message."""
        self.dead: list[Client] = []
        """Clients whose server died: closing one can hold the event loop for seconds
        (the client waits for its dead transport), so they are closed after the game."""

    @property
    def up(self) -> bool:
        return self.client is not None and self.client.sio.connected

    async def ensure(self) -> bool:
        if self.up:
            return True
        if self.client is not None:
            self.reconnects += 1
            self.dead.append(self.client)
            self.client = None
        for url in random.sample(self.urls(), len(self.urls())):
            client = Client(url)
            try:
                await client.connect(self.table, self.token)
            except (socketio.exceptions.ConnectionError, OSError) as exc:
                self.failed = f"{url}: {type(exc).__name__}: {exc}"
                continue
            self.client = client
            if self.seq:
                await call(client, "resume", {"seq": self.seq})
            return True
        return False

    def state(self) -> dict[str, Any] | None:
        if self.client is None or not self.client.states():
            return None
        st = self.client.last
        self.seq = max(self.seq, int(st["seq"]))
        return st


async def call(client: Client, event: str, data: Any) -> Any:
    """``client.call``, but None as soon as the connection drops (a call pending on a
    dead server would wait for its whole timeout)."""
    task = asyncio.create_task(client.call(event, data, timeout=12))
    while not task.done():
        if not client.sio.connected:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
            return None
        await asyncio.wait({task}, timeout=0.05)
    return task.result()


class Game:
    """Two seats and a spectator playing one Stop table; what was acknowledged."""

    def __init__(self, table: str, seats: list[Seat], watcher: Seat, rng: random.Random) -> None:
        self.table = table
        self.seats = seats
        self.watcher = watcher
        self.rng = rng
        self.acked: dict[int, dict[str, Any]] = {}
        self.chats: dict[int, str] = {}
        self.last_ok = time.monotonic()
        self.over = False

    async def step(self) -> None:
        """Every seat that may act does (or chats now and then)."""
        await self.watcher.ensure()
        for k, seat in enumerate(self.seats):
            if not await seat.ensure():
                continue
            st = seat.state()
            if st is None:
                continue
            if st["result"] is not None:
                self.over = True
                return
            assert seat.client is not None
            try:
                if self.rng.random() < 0.08:
                    text = f"hello {len(self.chats)} from {k}"
                    ack = await call(seat.client, "chat", {"text": text})
                    if ack is not None and ack["ok"]:
                        assert ack["id"] not in self.chats
                        self.chats[ack["id"]] = text
                if st["legal"]:
                    legal = st["legal"]
                    action = legal[0] if self.rng.random() < 0.7 else self.rng.choice(legal)
                    ack = await call(seat.client, "action", action)
                    if ack is not None and ack["ok"]:
                        assert ack["seq"] not in self.acked
                        self.acked[ack["seq"]] = {"seat": k, **action}
                        self.last_ok = time.monotonic()
            except (socketio.exceptions.TimeoutError, socketio.exceptions.BadNamespaceError):
                continue

    async def play(self, until: Callable[[], bool], limit_s: float = 60) -> None:
        deadline = time.monotonic() + limit_s
        while not self.over and not until():
            if time.monotonic() > deadline:
                seen = [
                    s.failed if s.client is None else (s.client.url, s.client.order[-3:], s.state())
                    for s in self.seats
                ]
                raise AssertionError(f"the game stalled; acked {len(self.acked)}; {seen}")
            await self.step()
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        for seat in [*self.seats, self.watcher]:
            if seat.client is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(seat.client.close(), 2)
            for dead in seat.dead:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(dead.close(), 1)


async def check_stored(local: LocalCluster, game: Game) -> None:
    """Every acknowledged action at its seq and every acknowledged chat message by its id,
    once each; the lines 1..n with no gap or repeat; the record replays."""
    assert local.pg is not None
    store = Store(local.pg.url)
    try:
        lines = await store.lines(game.table)
        chat = await store.chat(game.table, 10_000)
    finally:
        await store.close()
    assert [seq for seq, _, _ in lines] == list(range(1, len(lines) + 1))
    by_seq = {seq: line for seq, line, _ in lines}
    for seq, action in game.acked.items():
        assert by_seq[seq] == action, (seq, by_seq[seq], action)
    assert [row.id for row in chat] == sorted({row.id for row in chat})
    stored = {row.id: row.text for row in chat}
    for chat_id, text in game.chats.items():
        assert stored[chat_id] == text
    async with httpx.AsyncClient(base_url=local.servers[-1].url, timeout=HTTP_TIMEOUT_S) as http:
        r = await http.get(f"/api/tables/{game.table}/record")
    assert r.status_code == 200
    record = r.text.splitlines()
    assert [json.loads(x) for x in record[1:]] == [line for _, line, _ in lines]


async def start_game(local: LocalCluster, seed: int, through: str | None, target: int = 15) -> Game:
    """A table created on the first process, its seats on the second and third, the
    spectator on the first (or all of them through HAProxy, ``through``)."""
    urls = [s.url for s in local.servers]
    options = {**STOP_FAST, "target_score": target}
    table = await create(urls[0], {**STOP_BODY, "seed": seed, "options": options})
    tokens = [await claim(urls[1], table, 0), await claim(urls[2], table, 1)]
    rng = random.Random(seed)

    def live() -> list[str]:
        if through is not None:
            return [through]
        return [s.url for s in local.servers if s.alive and s.port]

    seats = [Seat(table, tok, live) for tok in tokens]
    watcher = Seat(table, None, live)
    for seat, url in zip([*seats, watcher], [urls[1], urls[2], urls[0]], strict=True):
        if through is None:
            seat.client = await Client(url).connect(table, seat.token)
        else:
            await seat.ensure()
    return Game(table, seats, watcher, rng)


async def test_two_people_on_two_processes_and_a_spectator_on_a_third(
    cluster: LocalCluster,
) -> None:
    game = await start_game(cluster, seed=3, through=None)
    for server in cluster.servers:  # the lobby works on every process
        async with httpx.AsyncClient(base_url=server.url, timeout=HTTP_TIMEOUT_S) as http:
            listed = (await http.get("/api/tables")).json()
            one = (await http.get(f"/api/tables/{game.table}")).json()
        assert game.table in [t["table"] for t in listed]
        assert one["phase"] == "playing" and [p["name"] for p in one["players"]] == ["p0", "p1"]
    try:
        await game.play(lambda: False)
        assert game.watcher.client is not None
        await game.watcher.client.wait(lambda st: st["result"] is not None)
    finally:
        await game.close()
    await check_stored(cluster, game)
    # Both people, each on their own process, had actions acknowledged. The game's length is
    # not fixed: with three cards a hand, which seat's action lands first depends on timing,
    # and a round (so the game, at 15 points) can end after four actions (CI, stop 27).
    assert {action["seat"] for action in game.acked.values()} == {0, 1}
    assert all(s.reconnects == 0 for s in game.seats)


async def _interrupt(local: LocalCluster, game: Game, how: str, after: int) -> bool:
    """Play ``after`` more acknowledged actions, then stop the driving process (``kill``:
    SIGKILL, ``term``: SIGTERM) and play until the table acknowledges again: within
    TAKEOVER_S. The dead process is started again. False, and nothing stopped, if the
    game ended first."""
    goal = len(game.acked) + after
    await game.play(lambda: len(game.acked) >= goal)
    if game.over:
        return False
    victim = await driver_of(local, game.table)
    assert victim is not None, "nobody drives the table"
    killed = time.monotonic()
    if how == "kill":
        victim.kill()
    else:
        took = await asyncio.to_thread(victim.terminate)
        assert took < 10, f"SIGTERM took {took:.1f} s"
    before = len(game.acked)
    back = asyncio.create_task(restart(local, victim))
    await game.play(lambda: len(game.acked) > before, limit_s=TAKEOVER_S + 5)
    if not game.over:
        assert game.last_ok - killed < TAKEOVER_S, f"{how}: {game.last_ok - killed:.1f} s"
    await back
    return True


async def test_the_driver_killed_twice_then_stopped_loses_nothing(cluster: LocalCluster) -> None:
    """Three interruptions of the driver, each of a game being played; how long a game
    lasts depends on who sees which state when, so one that ends before all three have
    happened is followed by another (and every game is checked)."""
    games = [await start_game(cluster, seed=7, through=None, target=150)]
    rng = random.Random(21)
    try:
        for how in ("kill", "kill", "term"):
            while not await _interrupt(cluster, games[-1], how, after=rng.randint(3, 12)):
                assert len(games) < 4, "every game ended before its interruption"
                games.append(
                    await start_game(cluster, seed=7 + len(games), through=None, target=150)
                )
        await games[-1].play(lambda: False)
    finally:
        for game in games:
            await game.close()
    for game in games:
        await check_stored(cluster, game)


async def test_the_same_through_haproxy(cluster: LocalCluster) -> None:
    assert cluster.haproxy is not None
    game = await start_game(cluster, seed=11, through=cluster.haproxy.url, target=60)
    try:
        await _interrupt(cluster, game, "kill", after=random.Random(4).randint(3, 12))
        await game.play(lambda: False)
    finally:
        await game.close()
    await check_stored(cluster, game)


async def _busy_tables(url: str, count: int) -> list[str]:
    body = {
        "game": "stop",
        "seats": 2,
        "bots": ["random", "random"],
        "options": {**STOP_FAST, "target_score": 500},
        "round_pause_ms": 0,
        "bot_delay_ms": 40,
    }
    return [await create(url, {**body, "seed": k}) for k in range(count)]


async def _driving(local: LocalCluster) -> list[set[str]]:
    out = []
    for s in local.servers:
        if s.alive and s.port:
            with contextlib.suppress(httpx.HTTPError):
                out.append(set((await health(s.url))["driving"]))
    return out


CLOCK = {"turn_s": 0.3, "bank_s": 3.0}
"""A turn short enough to run out at once, a bank long enough to last the test."""


async def test_a_takeover_keeps_the_clock_banks(cluster: LocalCluster) -> None:
    """§9: a bank spent before the driver's death is still spent after the takeover (read
    from the store, not reset): given back at most the time since the last stored line."""
    urls = [s.url for s in cluster.servers]
    options = {**STOP_FAST, "target_score": 150}
    body = {**STOP_BODY, "seed": 13, "options": options, "clock": CLOCK}
    table = await create(urls[0], body)
    tokens = [await claim(urls[1], table, 0), await claim(urls[2], table, 1)]
    clients = [await Client(urls[1 + k]).connect(table, tokens[k]) for k in (0, 1)]
    watcher: Client | None = None
    try:
        first = await clients[0].wait(lambda s: s["clock"]["running"] is not None)
        k = first["clock"]["running"]
        mover = clients[k]
        await mover.wait(lambda s: s["clock"]["running"] == k and s["legal"] != [])
        await asyncio.sleep(CLOCK["turn_s"] + 1.0)  # the turn runs out, then a second of bank
        ack = await mover.act(mover.last["legal"][0])
        assert ack["ok"], ack
        acked_at = time.monotonic()
        seen = await mover.wait(lambda s: s["seq"] >= ack["seq"])
        spent = seen["clock"]["banks_ms"][k]
        assert spent <= 2_300, seen["clock"]  # the bank did run
        victim = await driver_of(cluster, table)
        assert victim is not None, "nobody drives the table"
        victim.kill()
        killed = time.monotonic()
        back = asyncio.create_task(restart(cluster, victim))
        while (driver := await driver_of(cluster, table)) is None:
            assert time.monotonic() - killed < TAKEOVER_S, "no takeover within 10 s"
            await asyncio.sleep(0.2)
        watcher = await Client(driver.url).connect(table, None)
        after = (await watcher.wait(lambda s: True))["clock"]["banks_ms"][k]
        given_back_ms = (killed - acked_at) * 1000 + 100
        assert after <= spent + given_back_ms, (spent, after)
        await back
    finally:
        for c in [*clients, watcher]:
            if c is not None:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(c.close(), 2)


async def test_a_person_on_a_process_that_dies_leaves_the_table(cluster: LocalCluster) -> None:
    """§4 with §9: a person connected through a process that dies (not the driver) is
    gone at the driver, as after a disconnect: absent once the turn time has passed, long
    before a bank would run out (the driver sees the dead process's Redis channel empty)."""
    body = {
        **STOP_BODY,
        "seed": 17,
        "options": {**STOP_FAST, "target_score": 150},
        "clock": {"turn_s": 1.0, "bank_s": 60.0},
    }
    table = await create(cluster.servers[0].url, body)
    driver = await driver_of(cluster, table)
    assert driver is not None
    others = [s for s in cluster.servers if s is not driver]
    tokens = [await claim(others[k].url, table, k) for k in (0, 1)]
    clients = [await Client(others[k].url).connect(table, tokens[k]) for k in (0, 1)]
    watcher = await Client(driver.url).connect(table, None)
    try:
        await watcher.wait(lambda s: s["clock"]["running"] is not None)
        others[1].kill()
        back = asyncio.create_task(restart(cluster, others[1]))
        gone = await watcher.wait(lambda s: 1 in s["clock"]["absent"], timeout=10)
        assert gone["clock"]["absent"] == [1]
        await back
    finally:
        for c in [*clients, watcher]:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(c.close(), 1)


async def test_a_process_serves_only_once_it_hears_the_others(cluster: LocalCluster) -> None:
    """§9: what another process sends to a room of this one reaches it from its first
    connection on: a process is subscribed to the Socket.IO channel before it says it
    serves (python-socketio subscribes at the first connection, in the background, so
    the first states for a person on a process started again could be lost)."""
    from redis import asyncio as aioredis

    assert cluster.redis is not None
    redis = aioredis.Redis.from_url(cluster.redis.url)

    async def listeners() -> int:
        [(_, count)] = await redis.pubsub_numsub("stoptable:socketio")
        return int(count)

    extra = cluster.server()
    try:
        before = await listeners()
        await asyncio.to_thread(extra.start)  # no connection to it at all
        assert await listeners() == before + 1
    finally:
        extra.kill()
        await redis.aclose()


async def test_two_processes_started_at_once_on_a_busy_database(cluster: LocalCluster) -> None:
    tables = await _busy_tables(cluster.servers[0].url, 8)
    dead = cluster.servers[:2]
    for s in dead:
        s.kill()
    fresh = [cluster.server(s.port).spawn() for s in dead]  # at once; the third scans too
    for old, new in zip(dead, fresh, strict=True):
        cluster.servers[cluster.servers.index(old)] = new
    await asyncio.gather(*(asyncio.to_thread(s.ready) for s in fresh))
    # exclusivity is what this checks (the 10 s bound is the kill test's): time enough for
    # a loaded machine to read every table back
    deadline = time.monotonic() + 30
    polls_after = 3
    while True:
        sets = await _driving(cluster)
        for a in range(len(sets)):
            for b in range(a + 1, len(sets)):
                assert not (sets[a] & sets[b]), "a table driven by two processes"
        if set(tables) <= set().union(*sets):
            polls_after -= 1
            if not polls_after:
                break
        elif time.monotonic() > deadline:
            missing = set(tables) - set().union(*sets)
            raise AssertionError(f"not taken over: {missing}; {await _owners(cluster, missing)}")
        await asyncio.sleep(0.2)
    assert cluster.pg is not None
    store = Store(cluster.pg.url)
    try:
        for table in tables:
            seqs = [seq for seq, _, _ in await store.lines(table)]
            assert seqs == list(range(1, len(seqs) + 1))
    finally:
        await store.close()


async def _owners(local: LocalCluster, tables: set[str]) -> list[Any]:
    import sqlalchemy as sa

    assert local.pg is not None
    store = Store(local.pg.url)
    try:
        async with store.engine.connect() as conn:
            rows = await conn.execute(
                sa.text(
                    "SELECT o.*, t.phase, clock_timestamp() FROM owners o "
                    "JOIN tables t ON t.id = o.table_id WHERE table_id = ANY(:ids)"
                ),
                {"ids": sorted(tables)},
            )
            return [tuple(r) for r in rows]
    finally:
        await store.close()


async def test_a_paused_process_cannot_write_after_its_table_moved(cluster: LocalCluster) -> None:
    (table,) = await _busy_tables(cluster.servers[0].url, 1)
    victim = await driver_of(cluster, table)
    assert victim is not None and victim.proc is not None
    assert cluster.pg is not None
    store = Store(cluster.pg.url)
    try:
        victim.signal(signal.SIGSTOP)
        try:
            deadline = time.monotonic() + TAKEOVER_S
            while (now := await driver_of(cluster, table, skip=victim)) is None:
                assert time.monotonic() < deadline, "the paused process's table did not move"
                await asyncio.sleep(0.2)
            moved_at = len(await store.lines(table))
        finally:
            victim.signal(signal.SIGCONT)
        await asyncio.sleep(1.5)  # its timers and bots wake up and try
        assert table not in (await health(victim.url))["driving"]
        seqs = [seq for seq, _, _ in await store.lines(table)]
        assert len(seqs) > moved_at, "the table did not go on"
        assert seqs == list(range(1, len(seqs) + 1))
        assert now is not None and table in (await health(now.url))["driving"]
    finally:
        await store.close()


@pytest.fixture
async def pg_store(cluster: LocalCluster) -> AsyncIterator[tuple[Store, Store]]:
    assert cluster.pg is not None
    a, b = Store(cluster.pg.url), Store(cluster.pg.url)
    for s in (a, b):
        await s.open()
        s.fence_on()
    yield a, b
    await a.close()
    await b.close()


async def test_a_store_that_lost_its_table_cannot_append(pg_store: tuple[Store, Store]) -> None:
    """The fencing token, checked inside the append's transaction: process A's lease runs
    out, B takes the table, and A's next append (A has not noticed) stores nothing."""
    a, b = pg_store
    (table,) = await _busy_tables_in(a)
    assert await a.acquire(table, "A", 1.0) is not None
    assert await b.acquire(table, "B", 1.0) is None  # A's lease is live
    await a.append(table, 1, [({"type": "x"}, 0)])
    await asyncio.sleep(1.1)
    token = await b.acquire(table, "B", 5.0)
    assert token is not None
    with pytest.raises(Fenced):
        await a.append(table, 2, [({"type": "from A"}, 1)])
    with pytest.raises(Fenced):
        await a.set_phase(table, "over")
    await b.append(table, 2, [({"type": "from B"}, 1)])
    assert [line for _, line, _ in await b.lines(table)] == [{"type": "x"}, {"type": "from B"}]
    assert await a.renew("A", 5.0, [table]) == {}
    assert await b.renew("B", 5.0, [table]) == {table: token}


async def test_a_transaction_left_open_does_not_block_a_takeover(
    pg_store: tuple[Store, Store],
) -> None:
    """A process paused inside an append's transaction holds its fence check's FOR SHARE
    lock on the table's ``owners`` row, on which a takeover's INSERT … ON CONFLICT waits:
    PostgreSQL ends that session after IDLE_IN_TRANSACTION_MS, and the takeover goes on."""
    a, b = pg_store
    (table,) = await _busy_tables_in(a)
    assert await a.acquire(table, "A", 0.5) is not None
    async with a.engine.connect() as conn:  # "A", paused mid-transaction
        await conn.begin()
        query = "SELECT token FROM owners WHERE table_id = :t FOR SHARE"
        await conn.execute(sa.text(query), {"t": table})
        await asyncio.sleep(0.6)  # A's lease runs out while it holds the lock
        began = time.monotonic()
        token = await asyncio.wait_for(
            b.acquire(table, "B", 5.0), IDLE_IN_TRANSACTION_MS / 1000 + 5
        )
        waited = time.monotonic() - began
        with contextlib.suppress(Exception):  # PostgreSQL has ended A's session
            await conn.rollback()
    assert token is not None
    assert waited < IDLE_IN_TRANSACTION_MS / 1000 + 2, waited


async def _busy_tables_in(store: Store) -> list[str]:
    from stoptable.server.store import SeatRow, TableRow

    table = f"fence{random.randrange(10**6)}"
    row = TableRow(table, "stop", "r", 2, {"game": "stop"}, {}, "waiting", 0, 0, None)
    await store.create_table(row, [SeatRow(0, "a", None, None)])
    return [table]


def test_sqlite_with_redis_is_refused_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from stoptable.cli import main

    db = f"sqlite+aiosqlite:///{tmp_path / 'x.db'}"
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--db", db, "--redis", "redis://127.0.0.1:1/0"])
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert "--redis" in err and "postgresql+asyncpg" in err and "SQLite" in err
