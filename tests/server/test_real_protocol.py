"""protocol.md §3 on each real game: malformed lines (records.md §3 included: a seat,
stack or space that does not exist), rule refusals with the reason and rule of records.md,
and the spectator's view and acks."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.cases import body
from tests.server.support import Client, ThreadServer, claim, create

MALFORMED: dict[str, list[Any]] = {
    "stop": [
        {"type": "teleport"},
        {"type": "draw", "colour": "red"},
        {"type": "play", "cards": "R4"},
        {"type": "play", "cards": ["Q9"]},
        {"type": "draw", "seat": 0},
        {"type": "draw", "t": 5},
        {"type": "play", "cards": ["RExch"], "mode": "swap", "target": 9},
    ],
    "stopit": [
        {"type": "teleport"},
        {"type": "go", "when": 3},
        {"type": "grab", "stack": 2, "expect_id": None},
        {"type": "grab", "stack": "S9", "expect_id": None},
        {"type": "insert", "pos": "left"},
        {"type": "go", "t": 5},
        {"type": "go", "seat": 1},
    ],
    "stopandgo": [
        {"type": "teleport"},
        {"type": "move", "path": "M"},
        {"type": "move", "path": ["M"], "speed": 3},
        {"type": "move", "path": ["nowhere-street"]},
        {"type": "move", "path": ["M"], "seat": 0},
        {"type": "move", "path": ["M"], "t": 1},
    ],
}

REFUSED: dict[str, tuple[dict[str, Any], str]] = {
    # seat 1 is not on turn at the start (seat 0 is, or deals)
    "stop": ({"type": "pass"}, "S-"),
    "stopit": ({"type": "insert", "pos": 0}, "I-"),
    "stopandgo": ({"type": "move", "path": ["M"]}, "G-"),
}


@pytest.mark.parametrize("game", list(MALFORMED))
async def test_malformed_refused_and_spectators(server: ThreadServer, game: str) -> None:
    table = await create(server.url, body(game, 2, [None, None], seed=3))
    tokens = [await claim(server.url, table, k) for k in (0, 1)]
    c = await Client(server.url).connect(table, tokens[1])
    watcher = await Client(server.url).connect(table)
    try:
        await c.wait(lambda s: s["seq"] >= 0)
        for data in [*MALFORMED[game], {"type": "x", "pad": "y" * 9000}]:
            ack = await c.act(data)
            assert ack["ok"] is False and ack["reason"] == "malformed", (data, ack)
        line, prefix = REFUSED[game]
        before = c.last["seq"]
        ack = await c.act(line)
        assert ack["ok"] is False and ack["reason"] != "malformed", ack
        assert ack["rule"].startswith(prefix) and ack["message"], ack
        assert c.last["seq"] == before
        seen = await watcher.wait(lambda s: True)
        assert seen["seat"] is None and seen["legal"] == [] and seen["view"]["seat"] is None
        assert (await watcher.act(line))["reason"] == "spectator"
        assert c.sio.connected and watcher.sio.connected
    finally:
        await c.close()
        await watcher.close()
