"""protocol.md §4: turn clocks. A seat whose bank runs out, or whose last connection is
gone for longer than its turn time, is played by the heuristic bot and marked absent; any
action from its token makes it present again."""

from __future__ import annotations

import asyncio

from tests.server.cases import body
from tests.server.support import Client, ThreadServer, claim, create

CLOCK = {"turn_s": 0.2, "bank_s": 0.1}


async def test_an_empty_bank_lets_the_heuristic_play_the_seat(server: ThreadServer) -> None:
    table = await create(server.url, body("stop", 2, [None, "heuristic"], seed=4, clock=CLOCK))
    token = await claim(server.url, table, 0)
    c = await Client(server.url).connect(table, token)
    try:
        first = await c.wait(lambda s: s["clock"] is not None)
        assert first["clock"]["turn_s"] == 0.2 and first["clock"]["bank_s"] == 0.1
        absent = await c.wait(lambda s: 0 in s["clock"]["absent"], timeout=10)
        assert absent["clock"]["banks_ms"][0] == 0
        # the stand-in plays the seat to the end of the game, nobody touching it
        final = await c.wait(lambda s: s["result"] is not None, timeout=30)
        assert final["clock"]["running"] is None
    finally:
        await c.close()


async def test_acting_again_makes_the_seat_present(server: ThreadServer) -> None:
    table = await create(
        server.url,
        body("stop", 2, [None, None], seed=5, clock={"turn_s": 0.15, "bank_s": 0}),
    )
    tokens = [await claim(server.url, table, k) for k in (0, 1)]
    a = await Client(server.url).connect(table, tokens[0])
    b = await Client(server.url).connect(table, tokens[1])
    try:
        await b.close()  # seat 1 goes away: absent after its turn time
        state = await a.wait(lambda s: 1 in s["clock"]["absent"], timeout=10)
        assert state["clock"]["absent"] in ([1], [0, 1])
        b = await Client(server.url).connect(table, tokens[1])
        st = await b.wait(lambda s: True)
        if st["result"] is None:
            ack = await b.act({"type": "call_stop"})  # any action counts, even a refused one
            assert "ok" in ack
            back = await b.wait(lambda s: 1 not in s["clock"]["absent"] or s["result"] is not None)
            assert back["result"] is not None or 1 not in back["clock"]["absent"]
        await asyncio.sleep(0)
    finally:
        await a.close()
        await b.close()
