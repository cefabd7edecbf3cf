"""The store's group commit: the pending appends of every table go into one transaction,
each append returns only once that transaction is committed, and a failed transaction
fails every append that waited on it and stores nothing of them. On SQLite both writers:
the one-hop appender (the default for a file) and the engine's (PostgreSQL's path)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import sqlalchemy.exc

from stoptable.server.store import SeatRow, Store, TableRow, tables

IDS = [f"t{k}" for k in range(5)]


def _row(table_id: str) -> TableRow:
    return TableRow(
        id=table_id,
        game="toy",
        ruleset="race",
        seats=2,
        header={"format": "stoptable-record/1", "game": "toy", "ruleset": "race", "seats": 2},
        config={},
        phase="playing",
        seq=0,
        created_ms=1,
        started_ms=0,
    )


@pytest.fixture(params=["appender", "engine"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    s = Store(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    assert s.appender is not None
    if request.param == "engine":
        await s.appender.close()
        s.appender = None
    await s.open()
    for tid in IDS:
        await s.create_table(_row(tid), [SeatRow(0, None, None, None)])
    yield s
    await s.close()


def _commits(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """A list that gets the tables of every transaction the store committed, once the
    commit has returned."""
    seen: list[list[str]] = []
    commit = store._commit

    async def counted(batch: Any) -> None:
        await commit(batch)
        seen.append([item.table_id for item in batch])

    monkeypatch.setattr(store, "_commit", counted)
    return seen


async def _queue_behind_another_write(store: Store) -> None:
    """Another write holds the store until the appends started now have queued, so they
    go into one batch (on a SQLite file an append that finds the store idle is committed
    at once: ``test_an_append_to_an_idle_sqlite_file_is_committed_before_the_loop_turns``).
    The release is a timer: the loop runs it after the appends' tasks, made before it."""
    await store.write_lock.acquire()
    asyncio.get_running_loop().call_later(0.01, store.write_lock.release)


async def _seqs(store: Store) -> dict[str, int]:
    async with store.engine.connect() as conn:
        rows = await conn.execute(sa.select(tables.c.id, tables.c.seq))
        return {r.id: r.seq for r in rows}


async def test_appends_of_many_tables_share_one_commit_and_return_after_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    commits = _commits(store, monkeypatch)
    order: list[str] = []
    await _queue_behind_another_write(store)

    async def one(tid: str, k: int) -> None:
        await store.append(tid, 1, [({"seat": 0, "type": "a", "k": k}, k), ({"clock": k}, k)])
        # returned: the transaction that holds it is committed, and another connection
        # (the engine's readers) sees its lines
        assert any(tid in tables for tables in commits), "returned before its commit"
        assert len(await store.lines(tid)) == 2
        order.append(tid)

    await asyncio.gather(*(one(tid, k) for k, tid in enumerate(IDS)))
    assert commits == [IDS]  # five tables, one transaction
    assert sorted(order) == IDS
    for k, tid in enumerate(IDS):
        lines = await store.lines(tid)
        assert lines == [(1, {"seat": 0, "type": "a", "k": k}, k), (2, {"clock": k}, k)]
    assert await _seqs(store) == dict.fromkeys(IDS, 2)


async def test_an_append_to_an_idle_sqlite_file_is_committed_before_the_loop_turns(
    tmp_path: Path,
) -> None:
    """No writer task and no second round of the loop (store.append's docstring): the
    append's coroutine ends on its first step, the line visible to another connection."""
    s = Store(f"sqlite+aiosqlite:///{tmp_path / 'now.db'}")
    await s.open()
    try:
        await s.create_table(_row(IDS[0]), [SeatRow(0, None, None, None)])
        step = s.append(IDS[0], 1, [({"seat": 0, "type": "a"}, 3)], "over")
        with pytest.raises(StopIteration):
            step.send(None)  # finished without suspending once
        assert s._writer is None
        assert await s.lines(IDS[0]) == [(1, {"seat": 0, "type": "a"}, 3)]
        assert await _seqs(s) == {IDS[0]: 1}
        assert [r.phase for r in await s.tables()] == ["over"]
        with pytest.raises(sqlalchemy.exc.IntegrityError):  # seq 1 again: as the engine's
            await s.append(IDS[0], 1, [({"seat": 0, "type": "b"}, 4)])
        assert await s.lines(IDS[0]) == [(1, {"seat": 0, "type": "a"}, 3)]
    finally:
        await s.close()


async def test_a_failed_transaction_fails_every_waiting_append_and_stores_nothing(
    store: Store,
) -> None:
    await store.append(IDS[0], 1, [({"seat": 0, "type": "a"}, 5)])
    # The lines go in, then setting the tables' seq fails: the whole transaction must go.
    async with store.engine.begin() as conn:
        await conn.exec_driver_sql(
            "CREATE TRIGGER refuse BEFORE UPDATE OF seq ON tables "
            "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
        )
    await _queue_behind_another_write(store)
    results = await asyncio.gather(
        *(store.append(tid, 2, [({"seat": 0, "type": "b"}, 9)], "over") for tid in IDS),
        return_exceptions=True,
    )
    async with store.engine.begin() as conn:
        await conn.exec_driver_sql("DROP TRIGGER refuse")
    assert all(isinstance(r, sqlalchemy.exc.DBAPIError) for r in results), results
    assert all("disk on fire" in str(r) for r in results)
    # nothing of the failed appends was stored: not their lines, seq or phase
    assert await store.lines(IDS[0]) == [(1, {"seat": 0, "type": "a"}, 5)]
    for tid in IDS[1:]:
        assert await store.lines(tid) == []
    assert await _seqs(store) == {IDS[0]: 1, **dict.fromkeys(IDS[1:], 0)}
    assert {r.phase for r in await store.tables()} == {"playing"}
    # and the store goes on working
    await store.append(IDS[0], 2, [({"seat": 0, "type": "c"}, 11)])
    assert [seq for seq, _, _ in await store.lines(IDS[0])] == [1, 2]


async def test_one_bad_append_fails_alone_in_its_batch(store: Store) -> None:
    await store.append(IDS[0], 1, [({"seat": 0, "type": "a"}, 5)])
    await _queue_behind_another_write(store)
    results = await asyncio.gather(
        store.append(IDS[0], 1, [({"seat": 0, "type": "again"}, 6)]),  # seq 1 stored already
        store.append(IDS[1], 1, [({"seat": 0, "type": "b"}, 7)]),
        store.append(IDS[2], 1, [({"seat": 0, "type": "c"}, 8)]),
        return_exceptions=True,
    )
    assert isinstance(results[0], sqlalchemy.exc.IntegrityError)
    assert results[1:] == [None, None]
    assert await store.lines(IDS[0]) == [(1, {"seat": 0, "type": "a"}, 5)]
    assert await store.lines(IDS[1]) == [(1, {"seat": 0, "type": "b"}, 7)]
    assert await store.lines(IDS[2]) == [(1, {"seat": 0, "type": "c"}, 8)]


async def test_the_appender_checkpoints_the_wal_into_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "c.db"
    store = Store(f"sqlite+aiosqlite:///{db}")
    await store.open()
    try:
        await store.create_table(_row("c"), [])
        assert store.appender is not None
        monkeypatch.setattr(store.appender, "CHECKPOINT_EVERY", 3)
        before = db.stat().st_size
        for k in range(6):
            lines = [({"seat": 0, "type": "a", "pad": "x" * 400}, k) for _ in range(100)]
            await store.append("c", 1 + 100 * k, lines)
        assert store.appender.checkpoint is not None
        await store.appender.checkpoint
        # the pages went from the WAL into the database file itself
        assert db.stat().st_size > before + 100 * 400
        assert len(await store.lines("c")) == 600
    finally:
        await store.close()
