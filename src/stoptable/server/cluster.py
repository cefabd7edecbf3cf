"""Several processes on one PostgreSQL and one Redis (protocol.md §9).

Who drives a table is PostgreSQL's to say: the ``owners`` row of a table names the process
holding its lease, with a fencing token that grows at every change of hands, and every
write of a driver checks its token inside its own transaction (``Store._fenced``), so a
process that lost a table (paused, cut off, slow) cannot store anything for it even
before it notices. This module keeps the leases alive, takes over tables whose lease ran
out, hands its tables over on SIGTERM, and carries the messages of a table's clients
between processes through Redis:

* *calls*: a process that does not drive a table sends its clients' messages (connect,
  leave, action, resume, chat, rematch) and the lobby's questions (a table's info, a
  seat claim) to the driving process's own channel, one outgoing queue per process, so
  they arrive in the order they were sent; the answer comes back on the caller's channel.
* *the driver's messages to clients* go through python-socketio's ``AsyncRedisManager``
  (rooms ``table/seat`` on every process), so a client connected anywhere gets them.
* *moved* / *released*: a process that starts driving a table says so to all (the others
  re-register their connections of it there, each of which gets a fresh ``state``); a
  process stopping says which tables it let go, and the others take them at once.

operations.md, "Several processes", has the argument for why two drivers never store.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import socketio
from redis import asyncio as aioredis

from stoptable.core.protocol import JSON
from stoptable.server import acks, wire
from stoptable.server.store import Store

log = logging.getLogger("stoptable.server")

ALL: Final = "stoptable:all"
"""The channel every process listens to (moved, released)."""
MOVED: Final[dict[str, JSON]] = {"ok": False, "moved": True}
"""The answer of a process asked about a table it does not drive (any more)."""
CALL_TIMEOUT_S: Final = 10.0
"""How long a call waits for the driving process (a dead one never answers)."""


REDIS_CONNECTIONS: Final = 32
"""Connections to Redis of a process's Socket.IO manager (its listener holds one)."""


class RedisRooms(socketio.AsyncRedisManager):  # type: ignore[misc]
    """python-socketio's Redis manager with a bounded, *blocking* connection pool: a busy
    process publishes from many table tasks at once, and redis-py's default pool refuses
    past 100 connections (``MaxConnectionsError``; the manager then reconnected and
    retried, and under load lost messages); here a publish waits for a free connection."""

    subscribed: asyncio.Event | None = None
    """Set while the listener is subscribed to the channel (:meth:`listening`)."""

    def _redis_connect(self) -> None:
        pool = aioredis.BlockingConnectionPool.from_url(
            self.redis_url, max_connections=REDIS_CONNECTIONS, timeout=None
        )
        self.redis = aioredis.Redis(connection_pool=pool)
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self.connected = True

    async def listening(self, server: socketio.AsyncServer, timeout_s: float = 10.0) -> None:
        """Start the listener now and return once it is subscribed.

        python-socketio starts it at the process's first Engine.IO connection and
        subscribes in the background, so what another process sent to that connection's
        room before the subscription was lost: the first states of a person on a process
        started again after a crash (a cluster test that waited 20 s for one). A process
        says it serves only once this returns (the lifespan awaits it)."""
        self.subscribed = asyncio.Event()
        if not server.manager_initialized:
            server.manager_initialized = True
            self.initialize()
        await asyncio.wait_for(self.subscribed.wait(), timeout_s)

    async def _redis_listen_with_retries(self) -> AsyncIterator[Any]:
        """python-socketio's listener (its retries, its back-off), telling
        :meth:`listening` when each subscription is made and lost."""
        retry_sleep = 1.0
        subscribed = False
        while True:
            try:
                if not subscribed:
                    self._redis_connect()
                    await self.pubsub.subscribe(self.channel)
                    subscribed = True
                    if self.subscribed is not None:
                        self.subscribed.set()
                    retry_sleep = 1.0
                async for message in self.pubsub.listen():
                    yield message
            except Exception as exc:
                if self.subscribed is not None:
                    self.subscribed.clear()
                log.warning("Redis listener lost (%s); again in %g s", exc, retry_sleep)
                subscribed = False
                await asyncio.sleep(retry_sleep)
                retry_sleep = min(retry_sleep * 2, 60.0)


def channel(process: str) -> str:
    return f"stoptable:to:{process}"


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class Elsewhere(Exception):
    """The table is driven by another process (``owner``)."""

    def __init__(self, table_id: str, owner: str) -> None:
        super().__init__(f"table {table_id} is driven by {owner}")
        self.table_id = table_id
        self.owner = owner


@dataclass(slots=True)
class _Call:
    table_id: str
    owner: str
    future: asyncio.Future[dict[str, JSON]]


Serve = Callable[[str, str, dict[str, JSON]], Awaitable[dict[str, JSON]]]
"""(table, op, args) -> the answer, run where the table is driven."""


class Cluster:
    """This process's part of the cluster: its id, its Redis channels, its leases."""

    def __init__(self, redis_url: str, store: Store, lease_s: float, me: str) -> None:
        self.me = me
        """This process's id (``health.ProcessInfo.id``: host, pid and a random tail)."""
        self.url = redis_url
        self.store = store
        self.lease_s = lease_s
        self.redis: aioredis.Redis | None = None
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.pending: dict[int, _Call] = {}
        self.numbers = itertools.count(1)
        self.owners: dict[str, str] = {}
        """Table -> the process last known to drive it (a cache: a call that finds the
        table gone is answered MOVED and the caller asks the store again)."""
        self.valid_until = 0.0
        """Monotonic time up to which this process's leases are surely still its own."""
        self.tasks: list[asyncio.Task[None]] = []
        self.serve: Serve | None = None
        self.on_moved: Callable[[str, str, int], Awaitable[None]] | None = None
        self.on_released: Callable[[list[str]], Awaitable[None]] | None = None
        self.keep_tables: Callable[[], list[str]] = list
        self.on_lost: Callable[[list[str]], Awaitable[None]] | None = None
        self.on_scan: Callable[[list[str]], Awaitable[None]] | None = None

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        self.redis = aioredis.Redis.from_url(self.url)
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(channel(self.me), ALL)
        self.valid_until = time.monotonic() + self.lease_s
        self.tasks = [
            asyncio.create_task(self._listen(pubsub), name="cluster-listen"),
            asyncio.create_task(self._send(), name="cluster-send"),
            asyncio.create_task(self._keep(), name="cluster-keep"),
            asyncio.create_task(self._scan(), name="cluster-scan"),
        ]

    async def ping(self) -> None:
        """``GET /api/health``'s Redis check: raises when Redis does not answer."""
        if self.redis is None:
            raise ConnectionError("not connected to Redis yet")
        await self.redis.ping()

    async def listening(self, processes: list[str]) -> dict[str, bool]:
        """Whether each process still listens on its Redis channel. A process that dies
        loses its Redis connection and with it its subscription, so a count of 0
        subscribers means it is gone (how a driver learns that the people connected
        through another process have left, when that process died)."""
        assert self.redis is not None
        counts = await self.redis.pubsub_numsub(*(channel(p) for p in processes))
        by_channel = {_text(name): int(n) for name, n in counts}
        return {p: by_channel.get(channel(p), 0) > 0 for p in processes}

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for call in self.pending.values():
            if not call.future.done():
                call.future.set_result(dict(acks.UNAVAILABLE))
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()

    async def release(self, table_ids: list[str]) -> None:
        """SIGTERM: ``table_ids`` (already stopped here) are let go, and every other
        process is told to take them now rather than when their leases would end."""
        await self.store.release(table_ids, self.me)
        if table_ids and self.redis is not None:
            message = wire.dumps({"kind": "released", "tables": table_ids, "from": self.me})
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.redis.publish(ALL, message), 2)

    # ------------------------------------------------------------------ ownership

    async def acquire(self, table_id: str) -> int | None:
        """Take ``table_id`` if no live lease holds it: its new fencing token, else None."""
        token = await self.store.acquire(table_id, self.me, self.lease_s)
        if token is not None:
            self.owners[table_id] = self.me
        return token

    async def owner_of(self, table_id: str) -> str | None:
        """The process driving ``table_id`` (the cache, else the store)."""
        owner = self.owners.get(table_id)
        if owner is not None:
            return owner
        owner = await self.store.owner_of(table_id)
        if owner is not None:
            # a `moved` that came while the store answered is newer than this answer
            owner = self.owners.setdefault(table_id, owner)
        return owner

    def forget(self, table_id: str) -> None:
        self.owners.pop(table_id, None)

    def adopted(self, table_id: str, token: int) -> None:
        """This process drives ``table_id`` now: every other one is told."""
        self.post(ALL, {"kind": "moved", "table": table_id, "owner": self.me, "token": token})

    async def _keep(self) -> None:
        """Renew this process's leases every quarter lease. A table the renewal no longer
        returns was taken over: it stops here. If renewals fail for so long that the
        leases may have run out, every table stops here (the store would refuse their
        writes anyway; this stops their timers and bots too)."""
        every = self.lease_s / 4
        while True:
            await asyncio.sleep(every)
            sent = time.monotonic()
            mine = self.keep_tables()
            try:
                renewal = self.store.renew(self.me, self.lease_s, mine)
                held = await asyncio.wait_for(renewal, every * 2)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("lease renewal failed: %s", exc)
                if time.monotonic() > self.valid_until and self.on_lost is not None:
                    await self.on_lost(self.keep_tables())
                continue
            self.valid_until = sent + self.lease_s - 0.5
            fences = self.store.fences or {}
            lost = [t for t in mine if held.get(t) != fences.get(t)]
            if lost and self.on_lost is not None:
                log.warning("tables taken over by another process: %s", lost)
                await self.on_lost(lost)

    async def _scan(self) -> None:
        """Every second or so, take over tables being played that nobody drives."""
        while True:
            await asyncio.sleep(random.uniform(0.5, 1.0))
            try:
                orphans = await self.store.orphans()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("orphan scan failed: %s", exc)
                continue
            if orphans and self.on_scan is not None:
                random.shuffle(orphans)
                await self.on_scan(orphans)

    # ------------------------------------------------------------------ messages

    def post(self, where: str, data: dict[str, JSON]) -> None:
        """Queue a message; one sender publishes them in order."""
        self.outbox.put_nowait((where, wire.dumps(data)))

    async def _send(self) -> None:
        while True:
            where, text = await self.outbox.get()
            assert self.redis is not None
            try:
                await self.redis.publish(where, text)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cannot publish to Redis: %s", exc)

    async def call(
        self,
        owner: str,
        table_id: str,
        op: str,
        args: dict[str, JSON],
        timeout: float = CALL_TIMEOUT_S,
    ) -> dict[str, JSON]:
        """``op`` on ``table_id`` at ``owner``: its answer, MOVED, or ``unavailable``
        when the owner does not answer in ``timeout`` (it may have died)."""
        if self.owners.get(table_id, owner) != owner:
            return dict(MOVED)  # it moved since the caller looked: not sent, so ask again
        number = next(self.numbers)
        future: asyncio.Future[dict[str, JSON]] = asyncio.get_running_loop().create_future()
        self.pending[number] = _Call(table_id, owner, future)
        self.post(
            channel(owner),
            {
                "kind": "call",
                "id": number,
                "from": self.me,
                "table": table_id,
                "op": op,
                "args": args,
            },
        )
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self.forget(table_id)
            return dict(acks.UNAVAILABLE)
        finally:
            self.pending.pop(number, None)

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                async for message in pubsub.listen():
                    await self._handle(wire.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster listener failed; listening again")
                await asyncio.sleep(0.5)

    async def _handle(self, data: Any) -> None:
        if not isinstance(data, dict):
            return
        kind = data.get("kind")
        if kind == "call":
            # A task per call, started in arrival order: each posts to its table's inbox
            # before its first wait, so a client's messages reach the table in order.
            asyncio.get_running_loop().create_task(self._answer(data))
        elif kind == "reply":
            call = self.pending.get(int(data["id"]))
            if call is not None and not call.future.done():
                call.future.set_result(data["answer"])
        elif kind == "moved":
            table_id, owner, token = str(data["table"]), str(data["owner"]), int(data["token"])
            self.owners[table_id] = owner
            for call in self.pending.values():  # the old driver will never answer
                if call.table_id == table_id and call.owner != owner and not call.future.done():
                    # not MOVED: it may have stored the action before it died, so the
                    # caller must not send it again
                    call.future.set_result(dict(acks.UNAVAILABLE))
            if owner != self.me and self.on_moved is not None:
                await self.on_moved(table_id, owner, token)
        elif kind == "released" and data.get("from") != self.me:
            tables = [str(t) for t in data.get("tables", [])]
            for t in tables:
                if self.owners.get(t) == data.get("from"):
                    self.forget(t)
            if self.on_released is not None:
                await self.on_released(tables)

    async def _answer(self, data: dict[str, Any]) -> None:
        assert self.serve is not None
        try:
            answer = await self.serve(str(data["table"]), str(data["op"]), data.get("args") or {})
        except Exception:
            log.exception("call %s on table %s failed", data.get("op"), data.get("table"))
            answer = dict(acks.UNAVAILABLE)
        self.post(channel(str(data["from"])), {"kind": "reply", "id": data["id"], "answer": answer})
