"""The event-sourced store: tables, seats and every table's record lines.

SQLAlchemy 2 (async): aiosqlite by default, asyncpg for ``postgresql+asyncpg://`` URLs. The
schema is made by the Alembic migrations shipped in ``server/migrations`` and run when the
store opens. The stored lines of a table *are* its record (records.md): its header in
``tables.header`` and one row of ``events`` per line, with the arrival time in ms since
the table started. An append is one committed transaction; the driver acknowledges and
broadcasts only after it returned. Appends of all tables are grouped into one transaction
(group commit); on SQLite :class:`SqliteAppender` writes them on the loop's thread, at once
when nothing else is being written.
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

IDLE_IN_TRANSACTION_MS = 3000
"""PostgreSQL ends a session idle inside a transaction this long (protocol.md §9: a paused
process must not hold a table's row locks past its lease; our transactions take ms)."""

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

owners = sa.Table(
    "owners",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("owner", sa.String(64), nullable=False),
    sa.Column("token", sa.BigInteger, nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
)
"""Who drives each table when several processes share the database (protocol.md §9): the
process, the fencing token (one more at every change of hands) and the lease's end, on
PostgreSQL's clock. Only PostgreSQL stores use it."""


class Fenced(Exception):
    """A write for a table this process no longer drives: another one took it over (its
    fencing token is not ours any more), so nothing of the write was stored."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is driven by another process now")
        self.table_id = table_id


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
    fence: int | None = None
    """The fencing token the driver held when it asked (None: a single process)."""


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
    """The appends of a SQLite store: one plain ``sqlite3`` connection written on the
    event loop's own thread, a whole batch (every line, every table's seq, the phases) in
    one transaction of three ``executemany``; checkpoints in a thread, so no commit waits
    for one.

    Through SQLAlchemy's *async* engine the same batch was five or six round trips between
    the event loop and aiosqlite's thread (check-out, begin, each statement, commit, the
    reset on check-in), each a wake-up of both threads. A sync engine in a thread of its
    own made it one hop, but on a busy machine even that hop was the largest part of an
    ack: the loop hands the batch over, the thread waits for the GIL (SQLAlchemy's
    parameter handling is Python), then the loop waits for its answer, each a scheduling
    turn of a process that shares its cores (100 Stop it! tables: 77-190 ms a commit on
    average, for well under a millisecond of work). So the batch is written here, in C
    calls with plain tuples: a WAL commit at ``synchronous=NORMAL`` does not sync, it
    appends to the WAL file (the page cache). The checkpoint that syncs the WAL into the
    database is taken out of the commits (``wal_autocheckpoint=0``) and run as
    ``PASSIVE`` every ``CHECKPOINT_EVERY`` batches, in its thread. Only appends come here:
    every other query keeps using the async engine (WAL lets its readers run beside this
    writer; the store's write lock keeps the two writers apart, so this connection never
    waits in SQLite's busy handler while the loop is needed to finish the other).
    """

    CHECKPOINT_EVERY = 200

    INSERT = (
        "INSERT INTO events (table_id, seq, line, t, published, live) VALUES (?, ?, ?, ?, ?, ?)"
    )
    SET_SEQ = "UPDATE tables SET seq = ? WHERE id = ?"
    SET_PHASE = "UPDATE tables SET phase = ? WHERE id = ?"

    def __init__(self, path: str) -> None:
        self.path = path
        self.checkpointer = ThreadPoolExecutor(1, thread_name_prefix="stoptable-checkpoint")
        self.conn: sqlite3.Connection | None = None
        self.batches = 0
        self.checkpoint: asyncio.Future[None] | None = None

    def _connection(self) -> sqlite3.Connection:
        if self.conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None)
            _sqlite_pragmas(conn)
            conn.execute("PRAGMA wal_autocheckpoint=0")
            self.conn = conn
        return self.conn

    def _write(self, batch: list[_Append]) -> None:
        """Every append of ``batch`` in one transaction; on any error nothing of it stays."""
        conn = self._connection()
        rows: list[tuple[str, int, str, int, str | None, str | None]] = []
        seqs: list[tuple[int, str]] = []
        phases: list[tuple[str, str]] = []
        for a in batch:
            tid, first, last = a.table_id, a.first_seq, len(a.lines) - 1
            for i, (line, t) in enumerate(a.lines):
                if i == last:
                    rows.append((tid, first + i, dumps(line), t, a.published, a.live))
                else:
                    rows.append((tid, first + i, dumps(line), t, None, None))
            seqs.append((first + last, tid))
            if a.phase is not None:
                phases.append((a.phase, tid))
        statement = "BEGIN"
        try:
            conn.execute(statement)
            try:
                for statement, params in (
                    (self.INSERT, rows),
                    (self.SET_SEQ, seqs),
                    (self.SET_PHASE, phases),
                ):
                    if params:
                        conn.executemany(statement, params)
                statement = "COMMIT"
                conn.execute(statement)
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:  # as the engine's path raises it (IntegrityError, ...)
            raise sa.exc.DBAPIError.instance(statement, None, exc, sqlite3.Error) from exc

    def _checkpoint(self) -> None:
        """In the checkpoint thread, on a connection of its own (PASSIVE: the writer
        goes on committing meanwhile)."""
        with contextlib.closing(sqlite3.connect(self.path, isolation_level=None)) as conn:
            conn.execute("PRAGMA busy_timeout=5000")
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def write(self, batch: list[_Append]) -> None:
        self.write_now(batch)

    def write_now(self, batch: list[_Append]) -> None:
        """``batch`` committed before this returns (the loop waits for it), or nothing of
        it and an exception; every ``CHECKPOINT_EVERY`` batches a checkpoint is started."""
        self._write(batch)
        self.batches += 1
        idle = self.checkpoint is None or self.checkpoint.done()
        if self.batches % self.CHECKPOINT_EVERY == 0 and idle:
            loop = asyncio.get_running_loop()
            self.checkpoint = loop.run_in_executor(self.checkpointer, self._checkpoint)
            self.checkpoint.add_done_callback(_checkpointed)

    async def close(self) -> None:
        if self.checkpoint is not None:
            with contextlib.suppress(Exception):
                await self.checkpoint
        self.checkpointer.shutdown(wait=True)
        if self.conn is not None:
            self.conn.close()
            self.conn = None


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
        connect_args: dict[str, Any] = {}
        if url.startswith("postgresql+asyncpg"):
            # A process paused (SIGSTOP) or hung inside a transaction would hold its row
            # locks (the fence check's FOR SHARE on `owners`) for ever, and the takeover's
            # INSERT … ON CONFLICT would wait on them: PostgreSQL ends such a session.
            settings = {"idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS)}
            connect_args["server_settings"] = settings
        self.engine: AsyncEngine = create_async_engine(
            url, pool_pre_ping=False, connect_args=connect_args
        )
        self.sqlite = url.startswith("sqlite")
        self.write_lock = asyncio.Lock()
        self._pending: list[_Append] = []
        self._writer: asyncio.Task[None] | None = None
        """SQLite has one writer at a time: writers queue here instead of in SQLite's busy
        handler, whose sleeps cost a hundred ms under load."""
        self.appender: SqliteAppender | None = None
        self.fences: dict[str, int] | None = None
        """Table -> the fencing token this process holds, when several processes share the
        database (:meth:`fence_on`); None for a single process (no checks)."""
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

    def fence_on(self) -> None:
        """Check every write of a table against its fencing token (protocol.md §9)."""
        if self.sqlite:
            raise ValueError("several processes need PostgreSQL, not SQLite")
        self.fences = {}

    async def drain(self) -> None:
        """Until every append asked for so far is committed or failed."""
        while self._writer is not None and not self._writer.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(self._writer)

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
        fence = self._fence_of(table_id)
        async with self._writing(), self.engine.begin() as conn:
            if await self._fenced(conn, {table_id: fence}):
                raise Fenced(table_id)
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
        fence = self._fence_of(table_id)
        async with self._writing(), self.engine.begin() as conn:
            if await self._fenced(conn, {table_id: fence}):
                raise Fenced(table_id)
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

        On a SQLite file an append that finds nothing being written is committed at once,
        before this returns to the loop: its transaction costs about 90 us (no sync at
        ``synchronous=NORMAL``), while waiting for a writer task and then for the table's
        own turn again were two rounds of the event loop, tens of ms on a busy machine
        (:class:`SqliteAppender`).
        """
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        extra = (  # orjson: written on every change, read back only by a restart
            None if published is None else wire.dumps(published),
            None if live is None else wire.dumps(live),
        )
        fence = self._fence_of(table_id)
        item = _Append(table_id, first_seq, list(lines), phase, done, *extra, fence=fence)
        appender = self.appender
        if (
            appender is not None
            and not self._pending
            and not self.write_lock.locked()
            and (self._writer is None or self._writer.done())
        ):
            appender.write_now([item])
            return
        self._pending.append(item)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches())
        await done

    async def _commit(self, batch: list[_Append]) -> None:
        """``batch`` in one committed transaction, or nothing of it and an exception. The
        appends of tables another process drives now are left out of it and fail with
        :class:`Fenced` once it is committed; the others are stored."""
        async with self._writing():
            if self.appender is not None:
                await self.appender.write(batch)
                return
            async with self.engine.begin() as conn:
                fenced = await self._fenced(conn, {a.table_id: a.fence for a in batch})
                await self._append_all(conn, [a for a in batch if a.table_id not in fenced])
        for item in batch:
            if item.table_id in fenced and not item.done.done():
                item.done.set_exception(Fenced(item.table_id))

    def _fence_of(self, table_id: str) -> int | None:
        return None if self.fences is None else self.fences.get(table_id, -1)

    async def _fenced(self, conn: AsyncConnection, held: dict[str, int | None]) -> set[str]:
        """The tables of ``held`` (table -> the token its writer holds) whose stored token
        is another: they changed hands, their writes must not be stored. The rows are
        locked ``FOR SHARE`` until this transaction ends, so a takeover (which changes
        the token) waits for it, and the new driver reads what it committed. Sorted, so
        two transactions never lock the same rows in opposite orders (no deadlock with
        the lease renewals)."""
        if self.fences is None or not held:
            return set()
        query = (
            sa.select(owners.c.table_id, owners.c.token)
            .where(owners.c.table_id.in_(sorted(held)))
            .order_by(owners.c.table_id)
            .with_for_update(read=True)
        )
        stored = {r.table_id: int(r.token) for r in await conn.execute(query)}
        return {t for t, token in held.items() if token is None or stored.get(t) != token}

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
        if not batch:
            return
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

    # ------------------------------------------------------------------ ownership (§9)

    async def acquire(self, table_id: str, owner: str, lease_s: float) -> int | None:
        """Take ``table_id`` for ``owner`` if nobody holds a live lease on it: the new
        fencing token (one more than the last), or None if another process drives it.
        One statement: of two processes asking at once, PostgreSQL lets one win."""
        query = sa.text(
            "INSERT INTO owners (table_id, owner, token, expires_at) "
            "VALUES (:t, :me, 1, clock_timestamp() + make_interval(secs => :s)) "
            "ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, "
            "token = owners.token + 1, expires_at = excluded.expires_at "
            "WHERE owners.expires_at < clock_timestamp() RETURNING token"
        )
        async with self.engine.begin() as conn:
            row = (await conn.execute(query, {"t": table_id, "me": owner, "s": lease_s})).first()
        if row is None:
            return None
        token = int(row[0])
        if self.fences is not None:
            self.fences[table_id] = token
        return token

    async def renew(self, owner: str, lease_s: float, table_ids: Sequence[str]) -> dict[str, int]:
        """Extend the leases of ``owner`` on ``table_ids`` (the tables it runs); the ones
        it still holds, with their tokens. A lease that ran out but that nobody took is
        extended too: its token is unchanged, so no other process can have written (a
        process slowed past its lease, e.g. by a busy machine, keeps its tables unless
        another took them). A lease of a table the process does not run (its load
        failed) is not renewed: it runs out, and another process takes the table. Rows
        locked in table order, like the appends' checks."""
        if not table_ids:
            return {}
        query = sa.text(
            "UPDATE owners SET expires_at = clock_timestamp() + make_interval(secs => :s) "
            "WHERE table_id IN (SELECT table_id FROM owners WHERE owner = :me "
            "AND table_id = ANY(:ids) AND expires_at > '-infinity' "
            "ORDER BY table_id FOR UPDATE) AND owner = :me RETURNING table_id, token"
        )
        async with self.engine.begin() as conn:
            rows = await conn.execute(query, {"me": owner, "s": lease_s, "ids": list(table_ids)})
            return {str(r[0]): int(r[1]) for r in rows}

    async def release(self, table_ids: Sequence[str], owner: str) -> None:
        """Give up ``table_ids`` (their leases end now; the token stays, the next owner
        makes it one more)."""
        if not table_ids:
            return
        if self.fences is not None:
            for t in table_ids:
                self.fences.pop(t, None)
        query = sa.text(
            "UPDATE owners SET expires_at = '-infinity' WHERE table_id = ANY(:ids) AND owner = :me"
        )
        async with self.engine.begin() as conn:
            await conn.execute(query, {"ids": list(table_ids), "me": owner})

    async def owner_of(self, table_id: str) -> str | None:
        """The process holding a live lease on ``table_id``, if any."""
        query = sa.text(
            "SELECT owner FROM owners WHERE table_id = :t AND expires_at > clock_timestamp()"
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query, {"t": table_id})).first()
        return None if row is None else str(row[0])

    async def orphans(self, limit: int = 100) -> list[str]:
        """Tables being played that no process drives (no lease, or a lease run out):
        the ones a takeover must drive again, oldest first. A table still ``waiting``
        whose seats are all taken counts too: its start was not stored yet when its
        process died."""
        query = sa.text(
            "SELECT t.id FROM tables t LEFT JOIN owners o ON o.table_id = t.id "
            "WHERE (t.phase = 'playing' OR (t.phase = 'waiting' AND NOT EXISTS ("
            "SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.bot IS NULL "
            "AND s.token_hash IS NULL))) AND (o.table_id IS NULL OR "
            "o.expires_at < clock_timestamp()) ORDER BY t.created_ms LIMIT :n"
        )
        async with self.engine.connect() as conn:
            return [str(r[0]) for r in await conn.execute(query, {"n": limit})]
