"""The store against SQLite and a real, throwaway PostgreSQL: migrations, seats, appends,
and a whole server run (create, play, restart, rebuild) on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import sqlalchemy.exc

from stoptable.server.store import Carried, SeatRow, Store, TableRow
from tests.server.pg import Postgres
from tests.server.support import Client, ThreadServer, claim, create


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


async def test_chat_rows_next_table_and_rematch_seats(store: Store) -> None:
    import secrets

    from stoptable.server.chat import HISTORY, ChatRoom
    from stoptable.server.store import ChatRow

    tid = secrets.token_hex(6)
    await store.create_table(_row(tid, 10**12), [SeatRow(0, None, None, None)])
    for i in range(1, 56):
        await store.add_chat(tid, ChatRow(i, 0, "ann", f"m{i}", i * 10))
    with pytest.raises(sqlalchemy.exc.IntegrityError):
        await store.add_chat(tid, ChatRow(3, 0, "ann", "again", 0))
    last = await store.chat(tid, HISTORY)
    assert [r.id for r in last] == list(range(6, 56)) and last[0].text == "m6"
    await store.set_next(tid, "abc")
    row = await store.table(tid)
    assert row is not None and row.next_table == "abc"
    assert await store.claim_seat(tid, 0, "ann", "h" * 64, rematch=True)
    assert (await store.seats(tid))[0].rematch is True
    await store.new_token(tid, 0, "n" * 64)
    assert (await store.seats(tid))[0].token_hash == "n" * 64

    # the room: history of the last 50, ids going on from the stored ones, the rate window
    now = [0.0]
    room = ChatRoom(tid, 10**12, store, None, last, clock=lambda: now[0])  # type: ignore[arg-type]
    assert len(room.history) == HISTORY and room.last_id == 55
    for i in range(5):
        row = await room.say(0, "ann", f"r{i}", 10**12 + 500)
        assert row is not None and row.id == 56 + i and row.t == 500
    assert await room.say(0, "ann", "too fast", 10**12) is None
    assert await room.say(1, "bea", "other seat", 10**12) is not None
    now[0] = 9.99
    assert await room.say(0, "ann", "still too fast", 10**12) is None
    now[0] = 10.0
    assert (await room.say(0, "ann", "again", 10**12)) is not None
    assert [r.text for r in await store.chat(tid, 2)] == ["other seat", "again"]
    assert len(room.history) == HISTORY and room.history[-1].text == "again"


async def test_published_events_and_live_state_ride_on_the_last_line(store: Store) -> None:
    """protocol.md §9: what a restart needs beside the record is stored with each change's
    last line, in the same transaction, and read back (the latest ``live``, the batches of
    the last n changes, oldest first)."""
    import secrets

    tid = secrets.token_hex(6)
    await store.create_table(_row(tid, 10**12), [])
    assert await store.carried(tid, 10) == Carried(None, [])
    event = {"kind": "draw", "seat": 0, "public": {"count": 1}, "private": {"cards": ["B4"]}}
    await store.append(
        tid,
        1,
        [({"chance": "roll", "value": 3}, 0), ({"seat": 0, "type": "a"}, 7)],
        published=[[0, 2, [event]]],
        live={"clock": {"banks_ms": [5, 6], "running": 0, "since": 7}, "absent": []},
    )
    await store.append(tid, 3, [({"seat": 1, "type": "b"}, 9)], published=[[2, 2, []], [2, 3, []]])
    await store.append(tid, 4, [({"seat": 1, "type": "c"}, 9)], live={"absent": [1]})
    lines = await store.lines(tid)
    assert [seq for seq, _, _ in lines] == [1, 2, 3, 4]  # the record is unchanged by them
    carried = await store.carried(tid, 10)
    assert carried.live == {"absent": [1]}
    assert carried.batches == [(0, 2, [event]), (2, 2, []), (2, 3, [])]
    assert (await store.carried(tid, 1)).batches == [(2, 2, []), (2, 3, [])]
    assert (await store.carried(tid, 0)).batches == []


async def test_a_database_of_the_previous_schema_is_upgraded_in_place(tmp_path: Path) -> None:
    """Migration 0003 adds the two columns to a database with lines in it: the old lines
    read back as before, with nothing carried (a restart then gives a state only)."""
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from stoptable.server import store as store_module

    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    old = Store(url)

    def to_0002(conn: sa.Connection) -> None:
        cfg = Config()
        where = Path(store_module.__file__).parent / "migrations"
        cfg.set_main_option("script_location", str(where))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")

    async with old.engine.begin() as conn:
        await conn.run_sync(to_0002)
        await conn.execute(
            sa.text(
                "INSERT INTO tables (id, game, ruleset, seats, header, config, phase, seq,"
                " created_ms) VALUES ('t1', 'toy', 'race', 2, '{}', '{}', 'playing', 1, 1)"
            )
        )
        await conn.execute(
            sa.text("INSERT INTO events (table_id, seq, line, t) VALUES ('t1', 1, :line, 5)"),
            {"line": '{"a":1}'},
        )
    await old.close()
    new = Store(url)
    await new.open()
    try:
        assert await new.lines("t1") == [(1, {"a": 1}, 5)]
        assert await new.carried("t1", 10) == Carried(None, [])
        await new.append("t1", 2, [({"b": 2}, 6)], published=[[1, 2, []]], live={"absent": []})
        assert (await new.carried("t1", 10)).batches == [(1, 2, [])]
    finally:
        await new.close()
