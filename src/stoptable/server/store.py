"""The event-sourced store: tables, seats and every table's record lines.

SQLAlchemy 2 (async): aiosqlite by default, asyncpg for ``postgresql+asyncpg://`` URLs. The
schema is made by the Alembic migrations shipped in ``server/migrations`` and run when the
store opens. The stored lines of a table *are* its record (records.md): its header in
``tables.header`` and one row of ``events`` per line, with the arrival time in ms since
the table started. An append is one committed transaction; the driver acknowledges and
broadcasts only after it returned.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from stoptable.core.protocol import JSON

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
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("bot", sa.String(64), nullable=True),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("line", sa.Text, nullable=False),
    sa.Column("t", sa.BigInteger, nullable=False),
)


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


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    name: str | None
    token_hash: str | None
    bot: str | None


@dataclass(slots=True)
class _Append:
    table_id: str
    first_seq: int
    lines: list[tuple[dict[str, JSON], int]]
    phase: str | None
    done: asyncio.Future[None]


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
    )


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
        if self.sqlite:
            # WAL: readers never block the writer, and a commit survives a killed process.
            @event.listens_for(self.engine.sync_engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute("PRAGMA busy_timeout=5000")
                cur.close()

    async def open(self) -> None:
        """Create or upgrade the schema (Alembic, programmatically)."""
        async with self.engine.begin() as conn:
            await conn.run_sync(_run_migrations)

    async def close(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer
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

    async def seats(self, table_id: str) -> list[SeatRow]:
        query = seats.select().where(seats.c.table_id == table_id).order_by(seats.c.seat)
        async with self.engine.connect() as conn:
            return [SeatRow(r.seat, r.name, r.token_hash, r.bot) for r in await conn.execute(query)]

    async def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        """Give a free person's seat to ``name``; False if it is taken or a bot's."""
        async with self._writing(), self.engine.begin() as conn:
            result = await conn.execute(
                seats.update()
                .where(
                    seats.c.table_id == table_id,
                    seats.c.seat == seat,
                    seats.c.token_hash.is_(None),
                    seats.c.bot.is_(None),
                )
                .values(name=name, token_hash=token_hash)
            )
            return bool(result.rowcount == 1)

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
    ) -> None:
        """Store ``lines`` (line, t) at seq ``first_seq``, ``first_seq + 1``, ... in a
        committed transaction (the primary key refuses a seq stored twice); returns once it
        is committed.

        Group commit: appends that arrive while a transaction is being committed wait and
        go together into the next one, so many busy tables share one commit instead of
        queueing for one each (the commit, not the insert, is what costs).
        """
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(_Append(table_id, first_seq, list(lines), phase, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches())
        await done

    async def _write_batches(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                async with self._writing(), self.engine.begin() as conn:
                    await self._append_all(conn, batch)
            except Exception:
                # One bad append (a seq stored twice) must not fail the others: retry
                # them one transaction each.
                for item in batch:
                    try:
                        async with self._writing(), self.engine.begin() as conn:
                            await self._append(conn, item)
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
        rows = [
            {"table_id": item.table_id, "seq": item.first_seq + i, "line": dumps(line), "t": t}
            for item in batch
            for i, (line, t) in enumerate(item.lines)
        ]
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

    @staticmethod
    async def _append(conn: AsyncConnection, item: _Append) -> None:
        if item.lines:
            await conn.execute(
                events.insert(),
                [
                    {
                        "table_id": item.table_id,
                        "seq": item.first_seq + i,
                        "line": dumps(line),
                        "t": t,
                    }
                    for i, (line, t) in enumerate(item.lines)
                ],
            )
        values: dict[str, Any] = {"seq": item.first_seq + len(item.lines) - 1}
        if item.phase is not None:
            values["phase"] = item.phase
        await conn.execute(tables.update().where(tables.c.id == item.table_id).values(**values))

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
