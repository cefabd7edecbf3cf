"""The table driver on the toy game (tests/server/toygame.py): chance lines, a WINDOW step,
a grace that holds actions, acks, seq numbers, resume and the record."""

from __future__ import annotations

import asyncio

import httpx

from tests.server.support import Client, ThreadServer, claim, create

OK_REASONS = ("not_your_turn", "nothing_pending", "game_over")


async def test_toy_game_through_the_server(server: ThreadServer) -> None:
    table = await create(server.url, {"game": "toy", "seats": 2, "seed": 3})
    t0 = await claim(server.url, table, 0, "ann")
    t1 = await claim(server.url, table, 1, "bob")
    a = await Client(server.url).connect(table, t0)
    b = await Client(server.url).connect(table, t1)
    watcher = await Client(server.url).connect(table)
    try:
        for c in (a, b, watcher):  # each has its first state (the table sends it after connect)
            await c.wait(lambda s: True)
        first = await a.wait(lambda s: s["view"]["roll"] is not None)
        assert first["seq"] == 1  # the first roll line
        clients = {0: a, 1: b}
        for _ in range(2000):
            state = a.last
            if state["result"] is not None:
                break
            # whoever has something legal acts
            acted = False
            for _seat, c in clients.items():
                st = c.last
                if st["legal"]:
                    ack = await c.act(st["legal"][0])
                    assert ack["ok"] or ack["reason"] in (
                        "not_your_turn",
                        "nothing_pending",
                        "game_over",
                    ), ack
                    acted = True
                    break
            if not acted:
                await asyncio.sleep(0.02)
        final = await watcher.wait(lambda s: s["result"] is not None)
        assert final["legal"] == []
        assert final["view"]["secret"] is None
        async with httpx.AsyncClient(base_url=server.url) as http:
            r = await http.get(f"/api/tables/{table}/record")
            assert r.status_code == 200
            lines = r.text.splitlines()
            assert len(lines) == final["seq"] + 1
    finally:
        for c in (a, b, watcher):
            await c.close()
