"""Where a table's messages go: its runner in this process, or the process that drives it.

Every socket handler and the lobby's per-table questions go through :meth:`Router.send`
with an operation name and JSON arguments. When this process drives the table (always,
for a single process) the operation runs here on its :class:`~stoptable.server.table.Table`;
otherwise it is a call through Redis to the driving process (protocol.md §9), which runs
the same :meth:`Router.run` there. The router also keeps this process's connections, so
that a table that starts being driven somewhere (a takeover) gets them registered again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Final

from stoptable.core.protocol import JSON
from stoptable.server import acks
from stoptable.server.cluster import MOVED, Cluster, Elsewhere
from stoptable.server.guard import Bucket
from stoptable.server.lobby import Lobby, LobbyError
from stoptable.server.table import Table, now_ms

log = logging.getLogger("stoptable.server")

ATTEMPTS: Final = 3
"""Tries of an operation whose driver answered MOVED (it had not run it)."""


@dataclass
class Conn:
    """One Socket.IO connection: its table, its seat (None: watching), its client address
    and its bucket (a seat's bucket is shared by every connection of that seat, so opening
    more connections buys no more actions)."""

    table_id: str
    seat: int | None
    address: str
    bucket: Bucket

    def allow(self) -> bool:
        return self.bucket.allow()


def _int(value: JSON) -> int:
    assert isinstance(value, int)
    return value


def _seat(value: JSON) -> int | None:
    return None if value is None else _int(value)


class Router:
    def __init__(self, lobby: Lobby, cluster: Cluster | None) -> None:
        self.lobby = lobby
        self.cluster = cluster
        self.conns: dict[str, Conn] = {}
        self.chores: set[asyncio.Task[Any]] = set()
        self.remote: dict[str, dict[str, tuple[str, int | None]]] = {}
        """Process -> its connections (sid -> table, seat) to tables driven here: if that
        process dies they never send their ``leave``, so :meth:`watch_remote` sends it."""
        if cluster is not None:
            cluster.serve = self.serve
            cluster.on_moved = self.moved
            cluster.on_released = self.released
            cluster.on_lost = self.lost
            cluster.on_scan = self.take
            cluster.keep_tables = lambda: list(lobby.tables)
            lobby.on_adopt = self.adopted

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)

    # ------------------------------------------------------------------ routing

    async def send(self, table_id: str, op: str, args: dict[str, JSON]) -> dict[str, JSON]:
        """``op`` on ``table_id`` wherever it is driven; LobbyError if there is no such
        table."""
        for _ in range(ATTEMPTS):
            try:
                table = await self.lobby.table(table_id)
            except Elsewhere as where:
                assert self.cluster is not None
                answer = await self.cluster.call(where.owner, table_id, op, args)
                if answer.get("moved"):
                    self.cluster.forget(table_id)
                    continue
                return answer
            return await self.run(table, op, args)
        return dict(acks.UNAVAILABLE)

    async def serve(self, table_id: str, op: str, args: dict[str, JSON]) -> dict[str, JSON]:
        """A call from another process: run here if this process drives the table."""
        table = self.lobby.tables.get(table_id)
        if table is None:
            return dict(MOVED)
        return await self.run(table, op, args)

    async def run(self, table: Table, op: str, args: dict[str, JSON]) -> dict[str, JSON]:
        """One operation on a table this process drives."""
        seat = _seat(args.get("seat"))
        sid = str(args.get("sid"))
        if op == "action":
            line = args["line"]
            assert isinstance(line, dict) and seat is not None
            return await table.submit(seat, line)
        if op == "connect":
            table.connect(sid, seat)
            origin = args.get("from")
            if isinstance(origin, str) and self.cluster is not None and origin != self.cluster.me:
                self.remote.setdefault(origin, {})[sid] = (table.id, seat)
            return acks.ok()
        if op == "leave":
            table.leave(sid, seat)
            for conns in self.remote.values():
                conns.pop(sid, None)
            return acks.ok()
        if op == "seq":
            return acks.ok(seq=table.seq)
        if op == "resume":
            table.resume(sid, seat, _int(args["after"]))
            return acks.ok()
        if op == "chat":
            assert seat is not None
            return await self.say(table, seat, str(args["text"]))
        if op == "rematch":
            assert seat is not None
            try:
                return await self.lobby.rematch(table, seat)
            except LobbyError as exc:
                return acks.refusal("unavailable", message=exc.message)
        if op == "info":
            return acks.ok(info=self.lobby.info(table))
        if op == "claim":
            assert seat is not None
            try:
                token = await self.lobby.claim(table.id, seat, str(args["name"]))
            except LobbyError as exc:
                return {"ok": False, "status": exc.status, "message": exc.message}
            return acks.ok(token=token)
        return acks.malformed(f"unknown operation {op[:40]!r}")

    async def say(self, table: Table, seat: int, text: str) -> dict[str, JSON]:
        """§8 chat: stored before its ack, then sent to every client of the table."""
        name = table.roster.names[seat]
        if name is None or table.chat is None:
            return acks.SPECTATOR
        row = await table.chat.say(seat, name, text, now_ms())
        if row is None:
            return acks.refusal("rate", message="at most 5 messages in 10 seconds")
        await table.chat.send_all([row], list(table.fanout.conns))
        return acks.ok(id=row.id)

    async def ask(self, table_id: str, op: str, args: dict[str, JSON]) -> dict[str, JSON]:
        """A lobby question (info, claim): its answer, or the LobbyError it raised there."""
        answer = await self.send(table_id, op, args)
        if answer.get("ok"):
            return answer
        status = answer.get("status")
        if isinstance(status, int):
            raise LobbyError(status, str(answer.get("message")))
        raise LobbyError(503, f"table {table_id} is changing process; try again")

    # ------------------------------------------------------------------ connections

    async def seat_of(self, table_id: str, digest: str | None) -> int | None:
        """The seat whose token hashes to ``digest`` (None: watching); LobbyError for an
        unknown table, ValueError for a bad token. Asked of the store where another
        process drives the table (a claim is committed before its token is given)."""
        try:
            table = await self.lobby.table(table_id)
        except Elsewhere:
            people = {
                s.seat: s.token_hash
                for s in await self.lobby.store.seats(table_id)
                if s.bot is None
            }
        else:
            people = table.people
        if digest is None:
            return None
        seat = next((k for k, h in people.items() if h == digest), None)
        if seat is None:
            raise ValueError("bad token")
        return seat

    def joined(self, sid: str, conn: Conn) -> None:
        """A connection accepted here: the driver learns of it (after this handler has
        answered, so its first state comes after the CONNECT)."""
        self.conns[sid] = conn
        args = self._connect_args(sid, conn)
        asyncio.get_running_loop().call_soon(self.spawn, self.send(conn.table_id, "connect", args))

    def _connect_args(self, sid: str, conn: Conn) -> dict[str, JSON]:
        """A ``connect`` names the process the connection is on (``from``)."""
        args: dict[str, JSON] = {"sid": sid, "seat": conn.seat}
        if self.cluster is not None:
            args["from"] = self.cluster.me
        return args

    async def watch_remote(self, every_s: float = 2.0) -> None:
        """Every ``every_s``, the connections of processes that died leave the tables
        driven here (§4: their seats count as gone, as if they had disconnected)."""
        assert self.cluster is not None
        while True:
            await asyncio.sleep(every_s)
            self.remote = {p: conns for p, conns in self.remote.items() if conns}
            if not self.remote:
                continue
            try:
                listening = await self.cluster.listening(list(self.remote))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: the next round asks again
                log.warning("could not ask Redis which processes listen: %s", exc)
                continue
            for process, alive in listening.items():
                if alive:
                    continue
                for sid, (table_id, seat) in self.remote.pop(process, {}).items():
                    table = self.lobby.tables.get(table_id)
                    if table is not None:
                        table.leave(sid, seat)

    def left(self, sid: str) -> Conn | None:
        conn = self.conns.pop(sid, None)
        if conn is not None:
            self.spawn(self.quietly(conn.table_id, "leave", {"sid": sid, "seat": conn.seat}))
        return conn

    async def quietly(self, table_id: str, op: str, args: dict[str, JSON]) -> None:
        try:
            await self.send(table_id, op, args)
        except Exception as exc:  # the table went (expired, unknown): nothing to tell
            log.debug("%s of table %s: %s", op, table_id, exc)

    def here(self, table_id: str) -> list[tuple[str, Conn]]:
        return [(sid, c) for sid, c in self.conns.items() if c.table_id == table_id]

    # ------------------------------------------------------------------ cluster events

    def adopted(self, table: Table) -> None:
        """This process drives ``table`` now: its connections here join it again."""
        for sid, conn in self.here(table.id):
            table.connect(sid, conn.seat)

    async def moved(self, table_id: str, owner: str, token: int) -> None:
        """Another process drives ``table_id`` now: stop it here if it still ran here,
        and register this process's connections of it there (each gets a fresh state)."""
        fences = self.lobby.store.fences or {}
        if table_id in self.lobby.tables and fences.get(table_id, 0) < token:
            await self.lobby.drop([table_id])
        for sid, conn in self.here(table_id):
            self.spawn(self.quietly(table_id, "connect", self._connect_args(sid, conn)))

    async def released(self, table_ids: list[str]) -> None:
        """A process stopped and let ``table_ids`` go: take them now (one process wins
        each; the others find it driven)."""
        self.spawn(self.take(table_ids))

    async def lost(self, table_ids: list[str]) -> None:
        await self.lobby.drop(table_ids)

    async def take(self, table_ids: list[str]) -> None:
        for table_id in table_ids:
            if table_id in self.lobby.tables:
                continue
            if self.cluster is not None:  # the cache may name the dead driver
                self.cluster.forget(table_id)
            try:
                await self.lobby.table(table_id)
            except (Elsewhere, LobbyError):
                continue
            except Exception:
                log.exception("table %s could not be taken over", table_id)
