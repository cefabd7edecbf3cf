"""A search bot thinks off the server's event loop: while one table's ISMCTS-like bot
spends its think time (a turn-based decision, or a real-time Stop it! observation), another
table's person is answered at once."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from typing import Any

import pytest

from stoptable.bots.base import bot_names, register_bot
from stoptable.bots.stop import HeuristicBot
from stoptable.bots.stopit import HeuristicBot as ItHeuristicBot
from tests.server.cases import body
from tests.server.support import Client, ThreadServer, claim, create

THINK_S = 0.8
thinking = threading.Event()


class SlowBot(HeuristicBot):
    """The heuristic bot, after THINK_S of (GIL-free) thinking: a stand-in for ISMCTS."""

    thinks_long = True

    def act(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
        thinking.set()
        time.sleep(THINK_S)
        return super().act(view, legal)


class SlowItBot(ItHeuristicBot):
    """Stop it!'s heuristic bot, after THINK_S of (GIL-free) thinking at every observation
    while the game runs: a stand-in for its ISMCTS."""

    thinks_long = True
    lean_view = False

    def observe(self, view: dict[str, Any], now: int) -> Any:
        if view["phase"] == "running":
            thinking.set()
            time.sleep(THINK_S)
        return super().observe(view, now)


def test_the_real_search_bots_say_they_think_long() -> None:
    from stoptable.bots.base import make_bot

    for game in ("stop", "stopandgo", "stopit"):
        assert make_bot(game, "ismcts", 0, 1).thinks_long is True
        assert not getattr(make_bot(game, "heuristic", 0, 1), "thinks_long", False)


@pytest.mark.parametrize(
    ("game", "slow", "changes"),
    [("stop", SlowBot, 2), ("stopit", SlowItBot, 3)],
    ids=["turn-based", "real-time"],
)
async def test_a_thinking_search_bot_does_not_hold_up_another_table(
    server: ThreadServer, game: str, slow: type, changes: int
) -> None:
    bot_names(game)  # the game's own bots first, then the stand-in
    register_bot(game, "slowpoke", slow)
    busy = await create(server.url, body(game, 2, ["slowpoke", "slowpoke"], seed=5))
    table = await create(server.url, body("stop", 2, [None, None], seed=5))
    tokens = [await claim(server.url, table, k) for k in (0, 1)]
    clients = [await Client(server.url).connect(table, tok) for tok in tokens]
    watcher = await Client(server.url).connect(busy)
    try:
        for c in clients:
            await c.wait(lambda s: s["seq"] >= 0)
        thinking.clear()  # a fresh start of thinking, not one long done
        assert await asyncio.to_thread(thinking.wait, 10), (
            "no bot started thinking (the server loop stalled?)"
        )
        mover = next(c for c in clients if c.last["legal"])
        start = time.perf_counter()
        ack = await mover.act(mover.last["legal"][0])
        took = time.perf_counter() - start
        assert ack["ok"] is True, ack
        assert took < THINK_S / 2, f"the ack took {took:.3f} s while a bot thought elsewhere"
        # and the slow bots still play their table (a newcomer is served meanwhile)
        seen = await watcher.wait(lambda s: s["seq"] >= changes, timeout=20)
        assert seen["seq"] >= changes
    finally:
        for c in [*clients, watcher]:
            await c.close()
