"""S-62 on the server's clock: during an interjection grace a turn action is queued, acked
only once processed, and ``legal`` never lists it."""

from __future__ import annotations

import asyncio
import time

from tests.server.support import Client, ThreadServer, claim, create

GRACE = {"interjection_grace_ms": 400, "cancel_window_ms": 100, "deal_size": 5}


async def test_turn_actions_wait_for_the_grace(server: ThreadServer) -> None:
    body = {"game": "stop", "seats": 2, "seed": 12, "options": GRACE, "round_pause_ms": 0}
    table = await create(server.url, body)
    tokens = [await claim(server.url, table, k) for k in (0, 1)]
    clients = [await Client(server.url).connect(table, tok) for tok in tokens]
    try:
        for _ in range(40):
            st = await clients[0].wait(lambda s: s["view"]["turn"] is not None)
            seat = st["view"]["turn"]
            me, other = clients[seat], clients[1 - seat]
            mine = await me.wait(lambda s: s["legal"] != [])
            plays = [a for a in mine["legal"] if a["type"] == "play"]
            if not plays:
                ack = await me.act(mine["legal"][0])
                await asyncio.sleep(0.5)
                continue
            ack = await me.act(plays[0])
            assert ack["ok"], ack
            placed = time.monotonic()
            during = await other.wait(lambda s, n=ack["seq"]: s["seq"] >= n)
            if during["view"]["turn"] != 1 - seat or during["result"] is not None:
                await asyncio.sleep(0.5)
                continue
            turn_types = {"play", "draw", "pass", "accept"}
            assert not [a for a in during["legal"] if a["type"] in turn_types], during["legal"]
            held = await other.act({"type": "draw"})
            waited = time.monotonic() - placed
            assert "reason" in held or held["ok"]
            assert waited >= 0.3, waited  # processed only after the grace
            target = held.get("seq", 0)
            after = await other.wait(lambda s, n=target: s["seq"] >= n)
            assert after["seq"] >= ack["seq"]
            return
        raise AssertionError("no play came up")
    finally:
        for c in clients:
            await c.close()
