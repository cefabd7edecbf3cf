"""Every game through the server: a whole short game (bots plus one scripted client), the
record endpoint (403 while playing, 200 after) and ``stoptable replay`` of that record;
the lobby errors that need a real game (rulesets, options, seat counts, bots, bot seats)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from stoptable.games import names, spec
from tests.server.cases import CASES, body
from tests.server.support import Client, ThreadServer, claim, create

GAMES = list(names())
REPLAY = "from stoptable.cli import main; main()"


async def play_scripted(c: Client, rng: random.Random, limit_s: float = 60) -> dict[str, Any]:
    """Play the client's seat with random legal actions until the game is over."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit_s
    while loop.time() < deadline:
        if c.messages:
            st = c.last
            if st["result"] is not None:
                return st
            if st["legal"]:
                ack = await c.act(rng.choice(st["legal"]))
                assert ack["ok"] or ack["reason"] not in ("malformed", "spectator"), ack
                continue
        c.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(c.changed.wait(), 0.5)
    raise AssertionError(f"no end in {limit_s}s; last state {c.last}")


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_and_its_record(server: ThreadServer, game: str, tmp_path: Path) -> None:
    seats = 3
    table = await create(server.url, body(game, seats, [None, "heuristic", "random"], seed=7))
    token = await claim(server.url, table, 0)
    c = await Client(server.url).connect(table, token)
    watcher = await Client(server.url).connect(table)
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            assert (await http.get(f"/api/tables/{table}/record")).status_code == 403
        final = await play_scripted(c, random.Random(3))
        seen = await watcher.wait(lambda s: s["result"] is not None)
        assert seen["result"] == final["result"] and seen["legal"] == []
        async with httpx.AsyncClient(base_url=server.url) as http:
            r = await http.get(f"/api/tables/{table}/record")
            info = (await http.get(f"/api/tables/{table}")).json()
        assert info["phase"] == "over" and info["free_seats"] == []
        assert r.status_code == 200
        lines = r.text.splitlines()
        header = json.loads(lines[0])
        assert header["seed"] == 7 and header["game"] == game
        assert len(lines) == final["seq"] + 1
        path = tmp_path / "record.jsonl"
        path.write_text(r.text)
        out = subprocess.run(
            [sys.executable, "-c", REPLAY, "replay", str(path), "--json"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 0, out.stderr
        replayed = json.loads(out.stdout)
        assert replayed["applied"] == final["seq"]
        assert replayed["winners"] == final["result"]["winners"]
    finally:
        await c.close()
        await watcher.close()


@pytest.mark.parametrize("game", GAMES)
async def test_lobby_errors_of_a_real_game(server: ThreadServer, game: str) -> None:
    base = {**CASES[game], "seats": 2}
    s = spec(game)
    low, high = s.seat_range()
    bad: list[tuple[dict[str, Any], str]] = [
        ({**base, "ruleset": "no-such-rules"}, "no-such-rules"),
        ({**base, "options": {"no_such_option": 1}}, "no_such_option"),
        ({**base, "seats": high + 1}, "seats"),
        ({**base, "seats": 2, "bots": [None, "deep-blue"]}, "deep-blue"),
    ]
    async with httpx.AsyncClient(base_url=server.url) as http:
        for data, word in bad:
            r = await http.post("/api/tables", json=data)
            assert r.status_code == 422 and word in r.json()["detail"], (data, r.text)
        r = await http.post(
            "/api/tables", json={**base, "seats": low, "bots": [None] + ["random"] * (low - 1)}
        )
        assert r.status_code == 201
        table = r.json()["table"]
        r = await http.post(f"/api/tables/{table}/seats/1", json={"name": "eve"})
        assert r.status_code == 409 and "bot" in r.json()["detail"]
