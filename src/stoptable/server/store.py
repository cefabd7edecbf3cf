"""The event-sourced store: tables, seats and every table's record lines.

SQLAlchemy 2 (async): aiosqlite by default, asyncpg for ``postgresql+asyncpg://`` URLs. The
schema is made by the Alembic migrations shipped in ``server/migrations`` and run when the
store opens. The stored lines of a table *are* its record (records.md): its header in
``tables.header`` and one row of ``events`` per line, with the arrival time in ms since
the table started. An append is one committed transaction; the driver acknowledges and
broadcasts only after it returned. Appends of all tables are grouped into one transaction
(group commit); on SQLite :class:`SqliteAppender` writes them, one thread hop a batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from stoptable.core.protocol import JSON
from stoptable.server import wire

log = logging.getLogger("stoptable.server")

metadata = sa.MetaData()

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("ruleset", sa.String(64), nullable=False),
    sa.Column("seats", sa.Integer, nullable=False),
    sa.Column("header", sa.Text, nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("phase", sa.String(16), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("started_ms", sa.BigInteger, nullable=True),
    sa.Column("next_table", sa.String(32), nullable=True),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("bot", sa.String(64), nullable=True),
    sa.Column("rematch", sa.Boolean, nullable=True),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("line", sa.Text, nullable=False),
    sa.Column("t", sa.BigInteger, nullable=False),
    sa.Column("published", sa.Text, nullable=True),
    sa.Column("live", sa.Text, nullable=True),
)
"""One row per record line. The last line of a stored change also carries what a restart
needs beside the record (protocol.md §9): ``published``, the event batches announced up
to it (``[[before, seq, [event…]]…]``, for ``resume``), and ``live``, the table's turn
clock and absent seats after it (:meth:`Store.carried` reads them back)."""

chat = sa.Table(
    "chat",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("t", sa.BigInteger, nullable=False),
)
"""Chat messages (protocol.md §8): stored like the record, but never part of it."""


def dumps(data: JSON) -> str:
    """The compact JSON form every stored line and header uses."""
    return json.dumps(data, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    game: str
    ruleset: str
    seats: int
    header: dict[str, JSON]
    config: dict[str, JSON]
    phase: str
    seq: int
    created_ms: int
    started_ms: int | None
    next_table: str | None = None


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    name: str | None
    token_hash: str | None
    bot: str | None
    rematch: bool = False


@dataclass(frozen=True, slots=True)
class ChatRow:
    id: int
    seat: int
    name: str
    text: str
    t: int

    def to_json(self) -> dict[str, JSON]:
        return {"id": self.id, "seat": self.seat, "name": self.name, "text": self.text, "t": self.t}


@dataclass(frozen=True, slots=True)
class Carried:
    """What a table's stored lines carry beside the record (:meth:`Store.carried`): the
    live state stored with its last change (None: none stored) and the latest published
    event batches, oldest first, as ``(before, seq, [event…])``."""

    live: dict[str, JSON] | None
    batches: list[tuple[int, int, list[dict[str, JSON]]]]


@dataclass(slots=True)
class _Append:
    table_id: str
    first_seq: int
    lines: list[tuple[dict[str, JSON], int]]
    phase: str | None
    done: asyncio.Future[None]
    published: str | None = None
    live: str | None = None


def _line_rows(a: _Append) -> list[dict[str, Any]]:
    """The ``events`` rows of one append; its last row carries ``published`` and ``live``
    (every row has every key: one executemany takes the rows of a whole batch)."""
    last = len(a.lines) - 1
    return [
        {
            "table_id": a.table_id,
            "seq": a.first_seq + i,
            "line": dumps(line),
            "t": t,
            "published": a.published if i == last else None,
            "live": a.live if i == last else None,
        }
        for i, (line, t) in enumerate(a.lines)
    ]


def _row(r: Any) -> TableRow:
    return TableRow(
        id=r.id,
        game=r.game,
        ruleset=r.ruleset,
        seats=r.seats,
        header=json.loads(r.header),
        config=json.loads(r.config),
        phase=r.phase,
        seq=r.seq,
        created_ms=r.created_ms,
        started_ms=r.started_ms,
        next_table=r.next_table,
    )


def _sqlite_pragmas(dbapi_conn: Any) -> None:
    # WAL: readers never block the writer, and a commit survives a killed process.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def _checkpointed(done: asyncio.Future[None]) -> None:
    """A checkpoint that failed (a reader held it up past the busy timeout) is only
    late: the next one moves the same pages."""
    if not done.cancelled() and done.exception() is not None:
        log.warning("SQLite checkpoint failed: %s", done.exception())


class SqliteAppender:
    """The appends of a SQLite store: one SQLAlchemy (sync) connection in one thread of its
    own, a whole batch (every line, every table's seq, the phases, in one transaction) in
    one call to that thread; checkpoints in a second thread, so no commit waits for one.

    Through SQLAlchemy's *async* engine the same batch was five or six round trips between
    the event loop and aiosqlite's thread (check-out, begin, each statement, commit, the
    reset on check-in), each a wake-up of both threads: at 100 Stop tables that was half
    of the server's CPU per stored action (1.2-1.3 ms -> 0.7-0.8 ms, same runs). The same
    Core statements on a sync engine in a thread of our own make it one hop. The commit
    stays off the loop's thread: a WAL commit at ``synchronous=NORMAL`` does not sync, but
    its writes can still block on a busy disk. The checkpoint that syncs the WAL into the
    database is taken out of the commits (``wal_autocheckpoint=0``) and run as ``PASSIVE``
    every ``CHECKPOINT_EVERY`` batches. Only appends come here: every other query keeps
    using the async engine (WAL lets its readers run beside this writer, and the store's
    write lock keeps the two writers apart).
    """

    CHECKPOINT_EVERY = 200

    def __init__(self, path: str) -> None:
        self.path = path
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="stoptable-store")
        self.checkpointer = ThreadPoolExecutor(1, thread_name_prefix="stoptable-checkpoint")
        self.engine: sa.Engine | None = None
        self.conn: sa.Connection | None = None
        self.batches = 0
        self.checkpoint: asyncio.Future[None] | None = None
        self.insert = events.insert()
        self.set_seq = (
            tables.update()
            .where(tables.c.id == sa.bindparam("tid"))
            .values(seq=sa.bindparam("new_seq"))
        )
        self.set_phase = (
            tables.update()
            .where(tables.c.id == sa.bindparam("tid"))
            .values(phase=sa.bindparam("new_phase"))
        )

    def _connection(self) -> sa.Connection:
        if self.conn is None:
            engine = sa.create_engine(f"sqlite:///{self.path}", poolclass=sa.pool.StaticPool)

            @event.listens_for(engine, "connect")
            def _on_connect(dbapi_conn: Any, _record: Any) -> None:
                _sqlite_pragmas(dbapi_conn)
                dbapi_conn.execute("PRAGMA wal_autocheckpoint=0")

            self.engine = engine
            self.conn = engine.connect()
        return self.conn

    def _write(self, batch: list[tuple[list[dict[str, Any]], str, int, str | None]]) -> None:
        """(rows, table, last seq, phase or None) of every append, in one transaction; on
        any error nothing of it stays."""
        conn = self._connection()
        with conn.begin():
            conn.execute(self.insert, [row for rows, _, _, _ in batch for row in rows])
            conn.execute(self.set_seq, [{"tid": tid, "new_seq": seq} for _, tid, seq, _ in batch])
            phases = [{"tid": tid, "new_phase": ph} for _, tid, _, ph in batch if ph is not None]
            if phases:
                conn.execute(self.set_phase, phases)

    def _checkpoint(self) -> None:
        """In the checkpoint thread, on a connection of its own (PASSIVE: the writer
        goes on committing meanwhile)."""
        with contextlib.closing(sqlite3.connect(self.path, isolation_level=None)) as conn:
            conn.execute("PRAGMA busy_timeout=5000")
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def write(self, batch: list[_Append]) -> None:
        rows = [
            (
                _line_rows(a),
                a.table_id,
                a.first_seq + len(a.lines) - 1,
                a.phase,
            )
            for a in batch
        ]
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self.thread, self._write, rows)
        self.batches += 1
        idle = self.checkpoint is None or self.checkpoint.done()
        if self.batches % self.CHECKPOINT_EVERY == 0 and idle:
            self.checkpoint = loop.run_in_executor(self.checkpointer, self._checkpoint)
            self.checkpoint.add_done_callback(_checkpointed)

    async def close(self) -> None:
        if self.checkpoint is not None:
            with contextlib.suppress(Exception):
                await self.checkpoint
        await asyncio.get_running_loop().run_in_executor(self.thread, self._close)
        self.thread.shutdown(wait=True)
        self.checkpointer.shutdown(wait=True)

    def _close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.engine is not None:
            self.engine.dispose()
            self.engine = None


def _run_migrations(sync_conn: sa.Connection) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, "head")


class Store:
    """The one gateway to the database (every query lives here, none in a handler)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine = create_async_engine(url, pool_pre_ping=False)
        self.sqlite = url.startswith("sqlite")
        self.write_lock = asyncio.Lock()
        self._pending: list[_Append] = []
        self._writer: asyncio.Task[None] | None = None
        """SQLite has one writer at a time: writers queue here instead of in SQLite's busy
        handler, whose sleeps cost a hundred ms under load."""
        self.appender: SqliteAppender | None = None
        if self.sqlite:

            @event.listens_for(self.engine.sync_engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                _sqlite_pragmas(dbapi_conn)

            path = sa.engine.make_url(url).database
            if path and path != ":memory:" and not path.startswith("file:"):
                self.appender = SqliteAppender(path)

    async def open(self) -> None:
        """Create or upgrade the schema (Alembic, programmatically)."""
        async with self.engine.begin() as conn:
            await conn.run_sync(_run_migrations)

    async def close(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer
        if self.appender is not None:
            await self.appender.close()
        await self.engine.dispose()

    # ------------------------------------------------------------------ tables

    def _writing(self) -> contextlib.AbstractAsyncContextManager[object]:
        return self.write_lock if self.sqlite else contextlib.nullcontext()

    async def create_table(self, row: TableRow, seat_rows: Sequence[SeatRow]) -> None:
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(
                tables.insert().values(
                    id=row.id,
                    game=row.game,
                    ruleset=row.ruleset,
                    seats=row.seats,
                    header=dumps(row.header),
                    config=dumps(row.config),
                    phase=row.phase,
                    seq=row.seq,
                    created_ms=row.created_ms,
                    started_ms=row.started_ms,
                )
            )
            if not seat_rows:
                return
            await conn.execute(
                seats.insert(),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "name": s.name,
                        "token_hash": s.token_hash,
                        "bot": s.bot,
                        "rematch": s.rematch or None,
                    }
                    for s in seat_rows
                ],
            )

    async def table(self, table_id: str) -> TableRow | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(tables.select().where(tables.c.id == table_id))).first()
        return None if r is None else _row(r)

    async def tables(self, unfinished: bool = False) -> list[TableRow]:
        query = tables.select().order_by(tables.c.created_ms.desc(), tables.c.id.desc())
        if unfinished:
            query = query.where(tables.c.phase != "over")
        async with self.engine.connect() as conn:
            return [_row(r) for r in await conn.execute(query)]

    async def playing(self) -> list[TableRow]:
        """Tables being played (started, not over): the ones a restart must drive again.
        Waiting tables load on first use, finished ones are read from the store."""
        query = tables.select().where(tables.c.phase == "playing").order_by(tables.c.created_ms)
        async with self.engine.connect() as conn:
            return [_row(r) for r in await conn.execute(query)]

    async def page(self, offset: int, limit: int) -> tuple[list[dict[str, JSON]], int]:
        """One page of the lobby list, waiting tables first, newest first within a phase,
        expired ones left out; and how many tables the list has in all. Two queries for
        the page (rows, their seats) whatever its size: no header or config is read. Each
        row carries ``seat_rows``, ``[seat, name, bot, claimed]`` per seat, from which the
        lobby makes its ``players`` (protocol.md §8)."""
        listed = tables.c.phase != "expired"
        waiting_first = sa.case((tables.c.phase == "waiting", 0), else_=1)
        query = (
            sa.select(
                tables.c.id,
                tables.c.game,
                tables.c.ruleset,
                tables.c.seats,
                tables.c.phase,
                tables.c.next_table,
            )
            .where(listed)
            .order_by(waiting_first, tables.c.created_ms.desc(), tables.c.id.desc())
            .offset(offset)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = list(await conn.execute(query))
            total = (await conn.execute(sa.select(sa.func.count()).where(listed))).scalar_one()
            free: dict[str, list[int]] = {r.id: [] for r in rows}
            seat_rows: dict[str, list[JSON]] = {r.id: [] for r in rows}
            if rows:
                all_seats = (
                    sa.select(
                        seats.c.table_id,
                        seats.c.seat,
                        seats.c.name,
                        seats.c.bot,
                        seats.c.token_hash,
                    )
                    .where(seats.c.table_id.in_(list(free)))
                    .order_by(seats.c.table_id, seats.c.seat)
                )
                for r in await conn.execute(all_seats):
                    claimed = r.token_hash is not None
                    if r.bot is None and not claimed:
                        free[r.table_id].append(r.seat)
                    seat_rows[r.table_id].append([r.seat, r.name, r.bot, claimed])
        out: list[dict[str, JSON]] = [
            {
                "table": r.id,
                "game": r.game,
                "ruleset": r.ruleset,
                "seats": r.seats,
                "free_seats": free[r.id],
                "phase": "waiting" if free[r.id] and r.phase != "over" else r.phase,
                "next": r.next_table,
                "seat_rows": seat_rows[r.id],
            }
            for r in rows
        ]
        return out, int(total)

    async def expire_waiting(self, created_before_ms: int) -> list[str]:
        """Mark tables still waiting that were created before ``created_before_ms`` as
        ``expired``; their ids."""
        stale = sa.and_(tables.c.phase == "waiting", tables.c.created_ms < created_before_ms)
        async with self._writing(), self.engine.begin() as conn:
            ids = [r.id for r in await conn.execute(sa.select(tables.c.id).where(stale))]
            if ids:
                await conn.execute(
                    tables.update().where(stale, tables.c.id.in_(ids)).values(phase="expired")
                )
        return ids

    async def seats(self, table_id: str) -> list[SeatRow]:
        query = seats.select().where(seats.c.table_id == table_id).order_by(seats.c.seat)
        async with self.engine.connect() as conn:
            return [
                SeatRow(r.seat, r.name, r.token_hash, r.bot, bool(r.rematch))
                for r in await conn.execute(query)
            ]

    async def claim_seat(
        self, table_id: str, seat: int, name: str, token_hash: str, rematch: bool = False
    ) -> bool:
        """Give a free person's seat to ``name``; False if it is taken or a bot's.
        ``rematch``: claimed by ``rematch`` of the table before (protocol.md §8)."""
        async with self._writing(), self.engine.begin() as conn:
            result = await conn.execute(
                seats.update()
                .where(
                    seats.c.table_id == table_id,
                    seats.c.seat == seat,
                    seats.c.token_hash.is_(None),
                    seats.c.bot.is_(None),
                )
                .values(name=name, token_hash=token_hash, rematch=rematch or None)
            )
            return bool(result.rowcount == 1)

    async def new_token(self, table_id: str, seat: int, token_hash: str) -> None:
        """A seat claimed through ``rematch`` asked again: its new token replaces the old."""
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(
                seats.update()
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(token_hash=token_hash)
            )

    async def set_next(self, table_id: str, next_id: str) -> None:
        """The table that plays again after ``table_id`` (protocol.md §8 ``next``)."""
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(
                tables.update().where(tables.c.id == table_id).values(next_table=next_id)
            )

    # ------------------------------------------------------------------ chat

    async def add_chat(self, table_id: str, row: ChatRow) -> None:
        """Store one chat message, committed when this returns (the primary key refuses
        an id stored twice)."""
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(
                chat.insert().values(
                    table_id=table_id,
                    id=row.id,
                    seat=row.seat,
                    name=row.name,
                    text=row.text,
                    t=row.t,
                )
            )

    async def chat(self, table_id: str, last: int) -> list[ChatRow]:
        """The table's latest ``last`` chat messages, oldest first."""
        query = (
            chat.select().where(chat.c.table_id == table_id).order_by(chat.c.id.desc()).limit(last)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [ChatRow(r.id, r.seat, r.name, r.text, int(r[5])) for r in reversed(rows)]

    async def set_phase(
        self, table_id: str, phase: str, started_ms: int | None = None, header: JSON = None
    ) -> None:
        values: dict[str, Any] = {"phase": phase}
        if started_ms is not None:
            values["started_ms"] = started_ms
        if header is not None:
            values["header"] = dumps(header)
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(tables.update().where(tables.c.id == table_id).values(**values))

    # ------------------------------------------------------------------ events

    async def append(
        self,
        table_id: str,
        first_seq: int,
        lines: Sequence[tuple[dict[str, JSON], int]],
        phase: str | None = None,
        *,
        published: JSON = None,
        live: JSON = None,
    ) -> None:
        """Store ``lines`` (line, t) at seq ``first_seq``, ``first_seq + 1``, ... in a
        committed transaction (the primary key refuses a seq stored twice); returns once it
        is committed. ``published`` and ``live`` (see :data:`events`) go on the last line.

        Group commit: appends that arrive while a transaction is being committed wait and
        go together into the next one, so many busy tables share one commit instead of
        queueing for one each (the commit, not the insert, is what costs).
        """
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        extra = (  # orjson: written on every change, read back only by a restart
            None if published is None else wire.dumps(published),
            None if live is None else wire.dumps(live),
        )
        self._pending.append(_Append(table_id, first_seq, list(lines), phase, done, *extra))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches())
        await done

    async def _commit(self, batch: list[_Append]) -> None:
        """``batch`` in one committed transaction, or nothing of it and an exception."""
        async with self._writing():
            if self.appender is not None:
                await self.appender.write(batch)
                return
            async with self.engine.begin() as conn:
                await self._append_all(conn, batch)

    async def _write_batches(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._commit(batch)
            except Exception:
                # One bad append (a seq stored twice) must not fail the others: retry
                # them one transaction each.
                for item in batch:
                    try:
                        await self._commit([item])
                    except Exception as exc:
                        if not item.done.done():
                            item.done.set_exception(exc)
                        continue
                    if not item.done.done():
                        item.done.set_result(None)
                continue
            for item in batch:
                if not item.done.done():
                    item.done.set_result(None)

    @staticmethod
    async def _append_all(conn: AsyncConnection, batch: list[_Append]) -> None:
        """A whole batch in three statements: every line, every table's seq, the phases."""
        rows = [row for item in batch for row in _line_rows(item)]
        if rows:
            await conn.execute(events.insert(), rows)
        last: dict[str, int] = {}
        phases: dict[str, str] = {}
        for item in batch:
            last[item.table_id] = item.first_seq + len(item.lines) - 1
            if item.phase is not None:
                phases[item.table_id] = item.phase
        await conn.execute(
            tables.update()
            .where(tables.c.id == sa.bindparam("tid"))
            .values(seq=sa.bindparam("new_seq")),
            [{"tid": tid, "new_seq": seq} for tid, seq in last.items()],
        )
        for tid, phase in phases.items():
            await conn.execute(tables.update().where(tables.c.id == tid).values(phase=phase))

    async def lines(self, table_id: str) -> list[tuple[int, dict[str, JSON], int]]:
        """Every stored line of a table as (seq, line, t), in seq order."""
        query = (
            sa.select(events.c.seq, events.c.line, events.c.t)
            .where(events.c.table_id == table_id)
            .order_by(events.c.seq)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [(int(r[0]), json.loads(r[1]), int(r[2])) for r in rows]

    async def ping(self) -> None:
        """One ``SELECT 1``: raises when the database does not answer (``/api/health``)."""
        async with self.engine.connect() as conn:
            await conn.execute(sa.text("SELECT 1"))

    async def carried(self, table_id: str, batches: int) -> Carried:
        """What a restart needs beside the record (protocol.md §9): the ``live`` state of
        the table's last change that stored one, and the published event batches of its
        last ``batches`` stored changes (each holds at least one event, so that many
        cover any ``resume`` of up to ``batches`` events)."""
        base = sa.select(events.c.seq, events.c.published, events.c.live).where(
            events.c.table_id == table_id
        )
        newest = events.c.seq.desc()
        async with self.engine.connect() as conn:
            live_row = (
                await conn.execute(base.where(events.c.live.is_not(None)).order_by(newest).limit(1))
            ).first()
            rows = (
                await conn.execute(
                    base.where(events.c.published.is_not(None)).order_by(newest).limit(batches)
                )
            ).all()
        out: list[tuple[int, int, list[dict[str, JSON]]]] = []
        for row in reversed(rows):
            for before, seq, evs in json.loads(row.published):
                out.append((int(before), int(seq), list(evs)))
        live = None if live_row is None else json.loads(live_row.live)
        return Carried(live if isinstance(live, dict) else None, out)
