"""protocol.md §5: a server killed with SIGKILL at random moments loses no acknowledged
action; after a restart on the same database the game goes on to its end."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
import socketio

from tests.server.cases import STOP_FAST
from tests.server.support import HTTP_TIMEOUT_S, Client, ProcessServer, claim, create


async def _play_until_killed(
    srv: ProcessServer,
    table: str,
    tokens: list[str],
    acked: dict[int, dict[str, Any]],
    rng: random.Random,
    kill: bool,
) -> bool:
    """Play both seats until the server dies (False) or the game is over (True)."""
    clients = [await Client(srv.url).connect(table, tok) for tok in tokens]
    loop = asyncio.get_running_loop()
    killer = loop.call_later(rng.uniform(0.05, 0.5) if kill else 3600, srv.kill)
    try:
        while True:
            if not all(c.sio.connected for c in clients):
                return False
            for seat, c in enumerate(clients):
                if not c.messages:
                    continue
                st = c.last
                if st["result"] is not None:
                    killer.cancel()
                    return True
                if st["legal"]:
                    legal = st["legal"]
                    action = legal[0] if rng.random() < 0.7 else rng.choice(legal)
                    ack = await _call_or_gone(c, action)
                    if ack is not None and ack["ok"]:
                        acked[ack["seq"]] = {"seat": seat, **action}
            await asyncio.sleep(0.005)
    except (socketio.exceptions.TimeoutError, socketio.exceptions.BadNamespaceError, OSError):
        return False
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(c.close(), 2)


async def _call_or_gone(c: Client, action: dict[str, Any]) -> Any:
    """The action's ack, or None as soon as the connection is gone: a killed server's
    socket closes at once, while an ack waited for would only time out (2 s a kill)."""
    call = asyncio.ensure_future(c.call("action", action, timeout=2))
    while not call.done():
        if not c.sio.connected:
            call.cancel()
            return None
        await asyncio.wait([call], timeout=0.01)
    return call.result()


GAMES = {
    "stop": {
        "game": "stop",
        "seats": 2,
        "seed": 11,
        "options": {**STOP_FAST, "target_score": 15},
        "round_pause_ms": 0,
    },
}


@pytest.mark.parametrize("game", list(GAMES))
async def test_sigkill_loses_no_acknowledged_action(tmp_path: Path, game: str) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'kill.db'}"
    rng = random.Random(9)
    srv = ProcessServer(db).start()
    table = await create(srv.url, GAMES[game])
    tokens = [await claim(srv.url, table, k) for k in (0, 1)]
    acked: dict[int, dict[str, Any]] = {}
    kills = 0
    try:
        for _ in range(8):
            if srv.proc is None:
                srv.start()
                kills += 1
            if await _play_until_killed(srv, table, tokens, acked, rng, kill=kills < 2):
                break
        else:
            raise AssertionError("the game did not end")
        async with httpx.AsyncClient(base_url=srv.url, timeout=HTTP_TIMEOUT_S) as http:
            r = await http.get(f"/api/tables/{table}/record")
        assert r.status_code == 200
        lines = r.text.splitlines()[1:]
        for seq, line in acked.items():
            assert lines[seq - 1] == _compact(line), (seq, lines[seq - 1], line)
        assert kills >= 1
        assert len(acked) > 6
    finally:
        srv.kill()


def _compact(line: dict[str, Any]) -> str:
    import json

    return json.dumps(line, separators=(",", ":"))
