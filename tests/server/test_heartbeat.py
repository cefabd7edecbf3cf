"""Engine.IO's heartbeat is the server's setting (``ping_interval_s``, ``ping_timeout_s``):
the open packet announces it, and a client that answers no ping is closed after about
their sum, on the lean path and the library's."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pydantic
import pytest
import websockets

from stoptable.server.config import Settings
from tests.server.support import ThreadServer


@pytest.mark.parametrize(
    "field, value", [("ping_interval_s", 0.5), ("ping_timeout_s", 301), ("ping_interval_s", 0)]
)
def test_the_heartbeat_has_bounds(field: str, value: float) -> None:
    with pytest.raises(pydantic.ValidationError, match=field):
        Settings(**{field: value})


@pytest.mark.parametrize("lean", [True, False])
async def test_a_client_that_answers_no_ping_is_closed(lean: bool, tmp_path: Path) -> None:
    server = ThreadServer(
        f"sqlite+aiosqlite:///{tmp_path / 't.db'}",
        lean_transport=lean,
        ping_interval_s=1,
        ping_timeout_s=1,
    ).start()
    try:
        url = server.url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
        async with websockets.connect(url) as ws:
            opened = await ws.recv()
            assert isinstance(opened, str) and opened.startswith("0")
            handshake = json.loads(opened[1:])
            assert (handshake["pingInterval"], handshake["pingTimeout"]) == (1000, 1000)
            start = time.monotonic()
            pings = 0
            with pytest.raises(websockets.ConnectionClosed):
                while time.monotonic() - start < 10:
                    frame = await asyncio.wait_for(ws.recv(), 10)
                    pings += frame == "2"  # never answered
            closed_after = time.monotonic() - start
        assert pings >= 1
        assert 1.5 < closed_after < 6, closed_after
    finally:
        server.stop()
