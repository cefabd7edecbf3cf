"""The load generator's lean client (benchmarks/wire_client.py) against a real server: a
person of a Stop it! table connects, gets its seat's states, acts and gets the ack, as
python-socketio's client does (tests.server.support.Client, beside it on the same table);
a wrong token is refused at connect, and pings are answered."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.server.cases import body
from tests.server.support import Client, ThreadServer, claim, create

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from wire_client import ConnectError, WireClient


async def test_the_lean_client_plays_as_the_socketio_client_does(server: ThreadServer) -> None:
    table = await create(server.url, body("stopit", 2, [None, None], 4))
    lean_token = await claim(server.url, table, 0)
    other_token = await claim(server.url, table, 1)
    states: list[dict[str, Any]] = []
    changed = asyncio.Event()

    def on_state(data: dict[str, Any]) -> None:
        states.append(data)
        changed.set()

    lean = WireClient("/table")
    lean.on("state", on_state)
    await lean.connect(server.url, {"table": table, "token": lean_token})
    other = await Client(server.url).connect(table, other_token)
    try:
        async with asyncio.timeout(10):
            while not states or not states[-1]["legal"]:
                changed.clear()
                await changed.wait()
        first = states[-1]
        assert first["seat"] == 0 and "hand" in first["view"]
        ack = await lean.call("action", first["legal"][0])
        assert ack["ok"], ack
        seen = await other.wait(lambda s: s["seq"] >= ack["seq"])  # the other seat saw it
        assert seen["seq"] >= ack["seq"]
        refused = await lean.call("action", {"type": "teleport"})
        assert not refused["ok"] and refused["reason"]
    finally:
        await lean.disconnect()
        await other.close()


async def test_a_wrong_token_is_refused_at_connect(server: ThreadServer) -> None:
    table = await create(server.url, body("stopit", 2, [None, None], 5))
    lean = WireClient("/table")
    with pytest.raises(ConnectError):
        await lean.connect(server.url, {"table": table, "token": "not-a-token"})
    await lean.disconnect()
