"""The store against SQLite and a real, throwaway PostgreSQL: migrations, seats, appends,
and a whole server run (create, play, restart, rebuild) on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import sqlalchemy.exc

from stoptable.server.store import SeatRow, Store, TableRow
from tests.server.pg import Postgres, find_bin
from tests.server.support import Client, ThreadServer, claim, create


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    bindir = find_bin()
    if bindir is None:
        pytest.skip(
            "PostgreSQL is not installed (apt-get install postgresql; make test does it as root)"
        )
    pg = Postgres(bindir).start()
    yield pg
    pg.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 's.db'}"
    else:
        url = request.getfixturevalue("postgres").url
    s = Store(url)
    await s.open()
    await s.open()  # migrations are idempotent
    yield s
    await s.close()


def _row(table_id: str, created: int) -> TableRow:
    return TableRow(
        id=table_id,
        game="toy",
        ruleset="race",
        seats=2,
        header={"format": "stoptable-record/1", "game": "toy", "ruleset": "race", "seats": 2},
        config={"bots": [None, "x"]},
        phase="waiting",
        seq=0,
        created_ms=created,
        started_ms=None,
    )


async def test_store_tables_seats_and_lines(store: Store) -> None:
    import secrets

    tid = secrets.token_hex(6)
    await store.create_table(
        _row(tid, 10**12), [SeatRow(0, None, None, None), SeatRow(1, "x", None, "x")]
    )
    assert (await store.table(tid)) == _row(tid, 10**12)
    assert await store.claim_seat(tid, 0, "ann", "h" * 64)
    assert not await store.claim_seat(tid, 0, "eve", "e" * 64)
    assert not await store.claim_seat(tid, 1, "eve", "e" * 64)
    seats = await store.seats(tid)
    assert seats[0] == SeatRow(0, "ann", "h" * 64, None)
    await store.set_phase(tid, "playing", started_ms=5)
    await store.append(tid, 1, [({"chance": "roll", "value": 3}, 0), ({"seat": 0, "type": "a"}, 7)])
    await store.append(tid, 3, [({"seat": 1, "type": "b"}, 9)], phase="over")
    with pytest.raises(sqlalchemy.exc.IntegrityError):
        await store.append(tid, 3, [({"seat": 1, "type": "again"}, 9)])
    lines = await store.lines(tid)
    assert lines == [
        (1, {"chance": "roll", "value": 3}, 0),
        (2, {"seat": 0, "type": "a"}, 7),
        (3, {"seat": 1, "type": "b"}, 9),
    ]
    row = await store.table(tid)
    assert row is not None and row.phase == "over" and row.seq == 3 and row.started_ms == 5
    assert tid not in [r.id for r in await store.tables(unfinished=True)]


async def test_a_whole_server_on_postgresql(postgres: Postgres) -> None:
    srv = ThreadServer(postgres.url).start()
    try:
        table = await create(srv.url, {"game": "toy", "seats": 2, "seed": 1})
        tokens = [await claim(srv.url, table, k) for k in (0, 1)]
        a = await Client(srv.url).connect(table, tokens[0])
        first = await a.wait(lambda s: s["legal"] != [])
        ack = await a.act(first["legal"][0])
        assert ack["ok"]
        seq = (await a.wait(lambda s: s["seq"] > ack["seq"]))["seq"]
        await a.close()
    finally:
        srv.stop()
    # a new server on the same database rebuilds the table from its lines
    srv = ThreadServer(postgres.url).start()
    try:
        b = await Client(srv.url).connect(table, tokens[1])
        state = await b.wait(lambda s: True)
        assert state["seq"] == seq and state["legal"] != []
        await b.close()
    finally:
        srv.stop()
