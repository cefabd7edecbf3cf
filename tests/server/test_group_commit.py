"""The store's group commit: the pending appends of every table go into one transaction,
each append returns only once that transaction is committed, and a failed commit fails
every append that waited on it and stores nothing of them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import sqlalchemy.exc
from sqlalchemy import event

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


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = Store(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    await s.open()
    for tid in IDS:
        await s.create_table(_row(tid), [SeatRow(0, None, None, None)])
    yield s
    await s.close()


def _commits(store: Store) -> list[int]:
    """A list that grows by one at every committed transaction of ``store``."""
    seen: list[int] = []

    @event.listens_for(store.engine.sync_engine, "commit")
    def _on_commit(_conn: Any) -> None:
        seen.append(len(seen))

    return seen


async def _seqs(store: Store) -> dict[str, int]:
    async with store.engine.connect() as conn:
        rows = await conn.execute(sa.select(tables.c.id, tables.c.seq))
        return {r.id: r.seq for r in rows}


async def test_appends_of_many_tables_share_one_commit_and_return_after_it(store: Store) -> None:
    commits = _commits(store)
    order: list[str] = []

    async def one(tid: str, k: int) -> None:
        await store.append(tid, 1, [({"seat": 0, "type": "a", "k": k}, k), ({"clock": k}, k)])
        # returned: the transaction holding this append is committed
        assert commits, "an append returned before any commit"
        order.append(tid)

    await asyncio.gather(*(one(tid, k) for k, tid in enumerate(IDS)))
    assert len(commits) == 1  # five tables, one transaction
    assert sorted(order) == IDS
    for k, tid in enumerate(IDS):
        assert await store.lines(tid) == [
            (1, {"seat": 0, "type": "a", "k": k}, k),
            (2, {"clock": k}, k),
        ]
    assert await _seqs(store) == dict.fromkeys(IDS, 2)


async def test_a_failed_commit_fails_every_waiting_append_and_stores_nothing(store: Store) -> None:
    await store.append(IDS[0], 1, [({"seat": 0, "type": "a"}, 5)])

    def _refuse(_conn: Any) -> None:
        raise sqlalchemy.exc.OperationalError("COMMIT", {}, Exception("disk I/O error"))

    event.listen(store.engine.sync_engine, "commit", _refuse)
    try:
        results = await asyncio.gather(
            *(store.append(tid, 2, [({"seat": 0, "type": "b"}, 9)], "over") for tid in IDS),
            return_exceptions=True,
        )
    finally:
        event.remove(store.engine.sync_engine, "commit", _refuse)
    assert all(isinstance(r, sqlalchemy.exc.OperationalError) for r in results), results
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
