"""protocol.md §2-§3 against a real server: lobby, seats, watching, malformed input, acks,
resume, the record endpoint."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import socketio

from tests.server.support import Client, ThreadServer, claim, create

TOY = {"game": "toy", "seats": 2, "seed": 5}


async def post(url: str, path: str, body: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=url) as http:
        return await http.post(path, json=body)


async def get(url: str, path: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=url) as http:
        return await http.get(path)


@pytest.mark.parametrize(
    ("body", "names"),
    [
        ({"game": "chess", "seats": 2}, "chess"),
        ({"game": "toy", "ruleset": "sprint", "seats": 2}, "sprint"),
        ({"game": "toy", "seats": 2, "options": {"speed": 3}}, "speed"),
        ({"game": "toy", "seats": 2, "options": {"goal": "far"}}, "goal"),
        ({"game": "toy", "seats": 9}, "seats"),
        ({"game": "toy", "seats": 2, "bots": [None]}, "bots"),
        ({"game": "toy", "seats": 2, "bots": [None, "grandmaster"]}, "grandmaster"),
        ({"game": "toy", "seats": "two"}, "seats"),
        ({"game": "toy", "seats": 2, "colour": "red"}, "colour"),
    ],
)
async def test_create_errors_are_422_naming_the_culprit(
    server: ThreadServer, body: dict[str, Any], names: str
) -> None:
    r = await post(server.url, "/api/tables", body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and names in detail


async def test_unknown_table_and_seat_errors(server: ThreadServer) -> None:
    assert (await get(server.url, "/api/tables/nope")).status_code == 404
    assert (await get(server.url, "/api/tables/nope/record")).status_code == 404
    assert (await post(server.url, "/api/tables/nope/seats/0", {"name": "x"})).status_code == 404
    table = await create(server.url, TOY)
    info = (await get(server.url, f"/api/tables/{table}")).json()
    assert info == {
        "table": table,
        "game": "toy",
        "ruleset": "race",
        "seats": 2,
        "free_seats": [0, 1],
        "phase": "waiting",
        "players": [
            {"seat": 0, "name": None, "bot": None, "present": False},
            {"seat": 1, "name": None, "bot": None, "present": False},
        ],
        "next": None,
    }
    assert (
        await post(server.url, f"/api/tables/{table}/seats/5", {"name": "x"})
    ).status_code == 404
    assert (await post(server.url, f"/api/tables/{table}/seats/0", {})).status_code == 422
    await claim(server.url, table, 0)
    r = await post(server.url, f"/api/tables/{table}/seats/0", {"name": "eve"})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    listing = (await get(server.url, "/api/tables")).json()
    assert listing[0]["table"] == table and listing[0]["free_seats"] == [1]
    assert (await get(server.url, f"/api/tables/{table}/record")).status_code == 403


async def test_connections_tokens_and_spectators(server: ThreadServer) -> None:
    table = await create(server.url, TOY)
    token = await claim(server.url, table, 0)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await Client(server.url).connect(table, "not-a-token")
    with pytest.raises(socketio.exceptions.ConnectionError):
        await Client(server.url).connect("no-such-table")
    watcher = await Client(server.url).connect(table)
    tab1 = await Client(server.url).connect(table, token)
    tab2 = await Client(server.url).connect(table, token)
    try:
        w = await watcher.wait(lambda s: True)
        assert w["seat"] is None and w["legal"] == [] and w["view"]["secret"] is None
        assert (await watcher.act({"type": "advance"}))["reason"] == "spectator"
        s1 = await tab1.wait(lambda s: True)
        assert s1["seat"] == 0 and s1["view"]["secret"] is not None
        # waiting: nothing is accepted before the last seat is claimed
        assert (await tab1.act({"type": "advance"}))["reason"] == "not_started"
        await claim(server.url, table, 1)
        for tab in (tab1, tab2):
            await tab.wait(lambda s: s["legal"] != [])
        ack = await tab2.act({"type": "advance"})
        assert ack["ok"] and ack["seq"] == 2
        # both tabs of the seat get the same messages
        await tab1.wait(lambda s: s["seq"] >= 3)
        await tab2.wait(lambda s: s["seq"] >= 3)
        assert tab1.last == tab2.last
        assert (await get(server.url, f"/api/tables/{table}")).json()["phase"] == "playing"
    finally:
        for c in (watcher, tab1, tab2):
            await c.close()


MALFORMED: list[Any] = [
    "advance",
    7,
    None,
    [],
    {"type": "fly"},
    {"type": "advance", "speed": 2},
    {"type": 3},
    {"type": "advance", "seat": 1},
    {"type": "advance", "t": 10},
    {"type": "advance", "note": "x" * 9000},
]


async def test_malformed_input_keeps_the_connection(server: ThreadServer) -> None:
    table = await create(server.url, TOY)
    token = await claim(server.url, table, 0)
    await claim(server.url, table, 1)
    c = await Client(server.url).connect(table, token)
    try:
        await c.wait(lambda s: s["legal"] != [])
        for data in MALFORMED:
            ack = await c.act(data)
            assert ack["ok"] is False and ack["reason"] == "malformed", (data, ack)
        assert (await c.call("resume", {"seq": "x"}))["reason"] == "malformed"
        assert (await c.call("dance", {}))["reason"] == "malformed"
        assert c.sio.connected
        ack = await c.act({"type": "advance"})
        assert ack["ok"] is True
        # a rejected action gets the reason and rule of records.md, and changes nothing
        seq = (await c.wait(lambda s: s["seq"] >= 3))["seq"]
        bad = await c.act({"type": "stay"})
        assert bad == {
            "ok": False,
            "reason": "not_your_turn",
            "rule": "R-1",
            "message": "seat 1 is to move",
        }
        await asyncio.sleep(0.1)
        assert c.last["seq"] == seq
    finally:
        await c.close()


async def test_rate_limit_answers_and_other_tables_go_on(server: ThreadServer) -> None:
    table = await create(server.url, TOY)
    token = await claim(server.url, table, 0)
    c = await Client(server.url).connect(table, token)
    try:
        acks = await asyncio.gather(*(c.act({"type": "fly"}) for _ in range(120)))
        reasons = {a["reason"] for a in acks}
        assert reasons == {"malformed", "rate_limited"}
        r = await get(server.url, f"/api/tables/{table}")
        assert r.status_code == 200
    finally:
        await c.close()


async def test_resume_after_a_dropped_connection(server: ThreadServer) -> None:
    table = await create(server.url, {**TOY, "options": {"goal": 100}})
    tokens = [await claim(server.url, table, k) for k in (0, 1)]
    a = await Client(server.url).connect(table, tokens[0])
    b = await Client(server.url).connect(table, tokens[1])
    a2: Client | None = None
    try:
        await a.wait(lambda s: s["legal"] != [])
        # b's hello is served by the table after connect returns, maybe after the game's
        # first events: b sees as batches only what came after its first state
        await b.wait(lambda s: True)
        b0 = b.states()[0]["seq"]
        ack = await a.act({"type": "advance"})
        assert ack["ok"]
        await a.wait(lambda s: s["seq"] > ack["seq"])
        seen = a.last["seq"]
        await a.close()  # the connection drops; seat 1 plays on
        await b.wait(lambda s: s["legal"] != [])
        ack_b = await b.act({"type": "stay"})
        assert ack_b["ok"]
        done = await b.wait(lambda s: s["seq"] > ack_b["seq"])
        a2 = await Client(server.url).connect(table, tokens[0])
        await a2.wait(lambda s: True)
        r = await a2.call("resume", {"seq": seen})
        assert r == {"ok": True, "seq": done["seq"]}
        await a2.wait(lambda s: s["seq"] == done["seq"] and len(a2.states()) >= 2)

        def batches(c: Client) -> list[int]:
            return [m["seq"] for k, m in c.messages if k == "events"]

        before, after, everyone = batches(a), batches(a2), batches(b)
        assert after == sorted(set(after)) and min(after) > seen
        assert everyone and min(everyone) > b0
        # nothing missed, nothing twice (of what b saw as batches too)
        assert sorted(k for k in before + after if k > b0) == sorted(everyone)
        # resuming from the present sends only a state
        n = len(a2.messages)
        assert (await a2.call("resume", {"seq": done["seq"]}))["ok"]
        await a2.wait(lambda s: len(a2.messages) > n)
        assert [k for k, _ in a2.messages[n:]] == ["state"]
    finally:
        await b.close()
        if a2 is not None:
            await a2.close()


def test_messages_are_json(server: ThreadServer) -> None:
    json.dumps(TOY)


async def test_a_flood_on_one_table_does_not_slow_another(server: ThreadServer) -> None:
    noisy = await create(server.url, TOY)
    quiet = await create(server.url, TOY)
    flooder = await Client(server.url).connect(noisy, await claim(server.url, noisy, 0))
    tokens = [await claim(server.url, quiet, k) for k in (0, 1)]
    player = await Client(server.url).connect(quiet, tokens[0])
    try:
        await player.wait(lambda s: s["legal"] != [])
        garbage: list[Any] = [{"type": "x" * 5000}, [1, 2, 3], "junk", {"seat": 0}] * 100
        flood = asyncio.gather(*(flooder.act(g) for g in garbage), return_exceptions=True)
        loop = asyncio.get_running_loop()
        start = loop.time()
        ack = await player.act({"type": "advance"})
        took = loop.time() - start
        assert ack["ok"] and took < 2.0, took
        results = await flood
        assert all(isinstance(r, dict) and r["ok"] is False for r in results)
        assert flooder.sio.connected
    finally:
        await flooder.close()
        await player.close()
