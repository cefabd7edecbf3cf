"""I-30 at a busy table: a request is checked against the state at its arrival time, even
when a timer, a window or a bot fell due while it waited in the inbox. The table's time
never runs past the stamp of an action that has arrived and is not processed yet."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import socketio

from stoptable import games
from stoptable.core.protocol import JSON
from stoptable.server.botplay import BotSeats
from stoptable.server.store import SeatRow, Store, TableRow
from stoptable.server.table import Table, now_ms
from tests.server.support import register_toy


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    """A toy table between two people, in play for 10 s of wall time, seat 0 to move with
    a 6 rolled; its task is not running yet."""
    register_toy()
    spec = games.spec("toy")
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'a.db'}")
    await store.open()
    header: dict[str, JSON] = {
        "format": "stoptable-record/1",
        "game": "toy",
        "ruleset": "race",
        "seats": 2,
        "seed": 1,
    }
    started = now_ms() - 10_000
    row = TableRow("a1", "toy", "race", 2, header, {}, "playing", 0, 0, started)
    await store.create_table(row, [SeatRow(0, "a", "h0", None), SeatRow(1, "b", "h1", None)])
    state = spec.new_state(spec.ruleset("race", {}), 2, 1)
    t = Table(
        table_id="a1",
        ruleset="race",
        spec=spec,
        state=state,
        store=store,
        sio=socketio.AsyncServer(async_mode="asgi"),
        seq=0,
        started_ms=started,
        last_t=0,
        bots=BotSeats(game="toy", realtime=False, delay_ms=0, seed=1),
        people={0: "h0", 1: "h1"},
        clock=None,
        round_pause_ms=0,
        resume_limit=10,
    )
    step = state.next_step()
    assert step is not None
    state.run_step(step, 6)
    yield t
    await t.stop()
    await store.close()


async def _ack(table: Table, seat: int, kind: str, t: int) -> asyncio.Future[dict[str, JSON]]:
    ack: asyncio.Future[dict[str, JSON]] = asyncio.get_running_loop().create_future()
    table.post(("action", seat, {"type": kind}, t, ack))
    return ack


async def _busy(table: Table, bump_at: int) -> dict[str, JSON]:
    """Seat 0 advances by its 6 at t=1000 (seat 1 may bump it until the window closes at
    1100); a tick and seat 1's bump stamped ``bump_at`` arrive while the table is busy
    with that advance, so they wait in the inbox while wall time is long past 1100."""
    first = await _ack(table, 0, "advance", 1000)
    table.post(("tick",))
    bump = await _ack(table, 1, "bump", bump_at)
    table.task = asyncio.create_task(table.run())
    assert (await asyncio.wait_for(first, 5))["ok"]
    return await asyncio.wait_for(bump, 5)


async def test_a_request_that_arrived_before_a_window_closed_finds_it_open(table: Table) -> None:
    ack = await _busy(table, 1050)
    assert ack["ok"], ack
    lines = await table.store.lines("a1")
    kinds = [(line.get("type"), t) for _, line, t in lines]
    assert kinds[:2] == [("advance", 1000), ("bump", 1050)]
    stamps = [t for _, _, t in lines]
    assert stamps == sorted(stamps)


async def test_a_request_that_arrived_after_the_window_closed_is_refused(table: Table) -> None:
    ack = await _busy(table, 1150)
    assert not ack["ok"] and ack["reason"] == "nothing_pending"
    lines = await table.store.lines("a1")
    assert [line.get("type") for _, line, _ in lines][:1] == ["advance"]
    assert [t for _, _, t in lines] == sorted(t for _, _, t in lines)
