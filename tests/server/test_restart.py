"""protocol.md §9 for one process: clock banks, absences and what ``resume`` needs are in
the store. A real ``stoptable serve`` is killed with SIGKILL in the middle of a Stop game
with a turn clock and started again on the same database (SQLite and PostgreSQL): the
banks carry on from where the last stored line left them, an absent seat is still absent
(its stand-in plays on), and a client that resumes three changes back gets exactly the
events it missed, not only a fresh state."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from tests.server.cases import STOP_FAST
from tests.server.pg import Postgres
from tests.server.support import Client, ProcessServer, claim, create

CLOCK = {"turn_s": 1.5, "bank_s": 0.2}
"""Long enough a turn for a client to reconnect after a restart before its seat counts as
gone (§4), a bank short enough to run out in the test."""
BODY: dict[str, Any] = {
    "game": "stop",
    "ruleset": "abacus-en",
    "seats": 2,
    "seed": 11,
    "options": {**STOP_FAST, "target_score": 60},
    "round_pause_ms": 0,
    "bot_delay_ms": 0,
    "clock": CLOCK,
}


def batches(c: Client) -> list[tuple[int, list[dict[str, Any]]]]:
    return [(m["seq"], m["events"]) for k, m in c.messages if k == "events"]


def my_turn(seat: int) -> Any:
    return lambda s: s["clock"]["running"] == seat and s["legal"] != []


async def _move(c: Client, others: list[Client]) -> int:
    """The client's seat makes one move of its own turn (the first legal action); every
    client has seen it when this returns. Its seq."""
    ack = await c.act(c.last["legal"][0])
    assert ack["ok"], ack
    for x in [c, *others]:
        await x.wait(lambda s, n=ack["seq"]: s["seq"] >= n)
    return int(ack["seq"])


async def _play_then_kill(srv: ProcessServer) -> tuple[str, str, Client]:
    """Seat 0 plays fast; seat 1 lets its bank run out on its first turn and is marked
    absent (its stand-in plays it from then on); seat 0 plays on against the stand-in;
    the server is killed while seat 0 is to move. Returns the table, seat 0's token and
    its client, which saw every change up to the kill."""
    table = await create(srv.url, BODY)
    tokens = [await claim(srv.url, table, k) for k in (0, 1)]
    a = await Client(srv.url).connect(table, tokens[0])
    b = await Client(srv.url).connect(table, tokens[1])
    try:
        await a.wait(lambda s: s["clock"]["running"] is not None)
        while a.last["clock"]["running"] == 0:
            await a.wait(my_turn(0))
            await _move(a, [b])
        # seat 1 is to move and does not: after turn_s + bank_s its bank is empty
        gone = await a.wait(lambda s: 1 in s["clock"]["absent"], timeout=5)
        assert gone["clock"]["banks_ms"][1] == 0
    finally:
        await b.close()
    for _ in range(4):  # the stand-in answers each move at once (bot_delay_ms 0)
        await a.wait(my_turn(0))
        await _move(a, [])
    await a.wait(my_turn(0))
    assert len(batches(a)) >= 4
    srv.kill()
    await a.close()
    return table, tokens[0], a


async def _check_restart(db: str, log: Path | None = None) -> None:
    env = None if log is None else {"STOPTABLE_LOG_FORMAT": "json"}
    srv = ProcessServer(db, env=env, stderr=log).start()
    try:
        table, token, a = await _play_then_kill(srv)
        last = a.last
        seen = batches(a)
        killed = time.monotonic()
        await asyncio.sleep(CLOCK["turn_s"])  # down for longer than a turn, at least
        srv.start()
        a2 = await Client(srv.url).connect(table, token)
        try:
            first = await a2.wait(lambda s: True)
            waited_ms = (time.monotonic() - killed) * 1000
            assert first["seq"] == last["seq"]
            clock, before = first["clock"], last["clock"]
            assert clock["absent"] == [1]  # still absent: the stand-in plays seat 1
            assert clock["running"] == 0
            # the banks are as stored (seat 1's is empty), and seat 0's clock runs on
            # from where the last line left it: the downtime (over its turn time, see
            # waited_ms) is not charged to it
            assert waited_ms > CLOCK["turn_s"] * 1000
            assert clock["banks_ms"] == before["banks_ms"] == [200, 0]

            # resume three changes back: exactly the events missed since then
            after = seen[-4][0]
            missed = [(seq, evs) for seq, evs in seen if seq > after]
            assert len(missed) >= 3
            ack = await a2.call("resume", {"seq": after})
            assert ack == {"ok": True, "seq": last["seq"]}
            await a2.wait(lambda s: len(a2.states()) >= 2)
            assert batches(a2) == missed
            assert [k for k, _ in a2.messages] == ["state"] + ["events"] * len(missed) + ["state"]

            # play goes on: seat 0 moves, the stand-in answers for the absent seat 1
            await a2.wait(my_turn(0))
            await _move(a2, [])
            moved = await a2.wait(lambda s: s["clock"]["running"] == 0 and s["seq"] > last["seq"])
            assert moved["clock"]["absent"] == [1]
        finally:
            await a2.close()
    finally:
        srv.kill()
    if log is not None:  # the restarted process's log: JSON lines naming the table
        lines = [json.loads(x) for x in log.read_text().splitlines()]
        driven = [x for x in lines if x.get("table") == table and "driven here" in x["message"]]
        assert driven and driven[0]["level"] == "info", lines


async def test_sigkill_and_restart_keep_banks_absences_and_resume_on_sqlite(
    tmp_path: Path,
) -> None:
    await _check_restart(f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}", tmp_path / "log")


async def test_sigkill_and_restart_keep_banks_absences_and_resume_on_postgresql(
    postgres: Postgres,
) -> None:
    await _check_restart(postgres.url)
