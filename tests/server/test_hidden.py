"""protocol.md §6 over random tables of every game: every message a client gets equals
what the engine allows that client at that seq - ``view(seat)`` for a state, and events
that differ from a spectator's only in the seat's own private parts - and no message ever
carries a seed, a record line or a key only the server knows."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import random
from typing import Any

import httpx
import pytest

from stoptable.core.records import parse_header
from stoptable.games import spec
from tests.server.cases import body
from tests.server.support import Client, ThreadServer, claim, create, play_to_end
from tests.server.test_games import GAMES

SECRET_KEYS = {"seed", "line", "deck", "draw_pile_order", "token", "token_hash"}


def _keys(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _keys(v)}
    return set()


def _plain(data: Any) -> Any:
    return json.loads(json.dumps(data))


class Replay:
    """The engine's state after the first n stored lines, advanced line by line."""

    def __init__(self, game: str, header: dict[str, Any], lines: list[dict[str, Any]]) -> None:
        self.replayer = spec(game).replayer
        self.state = self.replayer.setup(parse_header(header))
        self.lines = lines
        self.n = 0

    def at(self, seq: int) -> Any:
        assert seq >= self.n, "a client's seq went back"
        while self.n < seq:
            self.replayer.apply_event(self.state, dict(self.lines[self.n]))
            self.n += 1
        return self.state

    def closed(self) -> Any:
        """The same state after the implicit steps of the end of a record (a Stop cancel
        window closes: it has no line of its own, protocol §3)."""
        other = copy.deepcopy(self.state)
        self.replayer.finish(other)
        return other


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [101, 202])
async def test_messages_hold_only_what_the_engine_shows(
    server: ThreadServer, game: str, seed: int
) -> None:
    rng = random.Random(seed)
    seats = 3
    table = await create(server.url, body(game, seats, [None, None, "heuristic"], seed=seed))
    tokens = [await claim(server.url, table, k, f"p{k}") for k in (0, 1)]
    players = [await Client(server.url).connect(table, tok) for tok in tokens]
    watcher = await Client(server.url).connect(table)
    try:
        for c in [*players, watcher]:  # each has its first state (sent after connect returns)
            await c.wait(lambda s: True)
        await play_to_end(players, rng)
        await watcher.wait(lambda s: s["result"] is not None)
        await asyncio.sleep(0.05)
        async with httpx.AsyncClient(base_url=server.url) as http:
            text = (await http.get(f"/api/tables/{table}/record")).text
    finally:
        for c in [*players, watcher]:
            with contextlib.suppress(Exception):
                await c.close()
    rows = [json.loads(x) for x in text.splitlines()]
    header, lines = rows[0], rows[1:]
    public: dict[int, list[list[dict[str, Any]]]] = {}
    joined = watcher.states()[0]["seq"]  # the watcher saw no change up to its first state
    for kind, msg in watcher.messages:
        if kind == "events":
            public.setdefault(msg["seq"], []).append(msg["events"])
    for seat, c in [(0, players[0]), (1, players[1]), (None, watcher)]:
        replay = Replay(game, header, lines)
        assert c.messages
        for kind, msg in c.messages:
            assert not (_keys(msg) & SECRET_KEYS), (kind, msg)
            if kind == "state":
                assert msg["seat"] == seat
                state = replay.at(msg["seq"])
                if _plain(state.view(seat)) != msg["view"]:
                    view = _plain(replay.closed().view(seat))
                    if view != msg["view"]:
                        # a state between changes (a seat's presence changed, §8) shows
                        # the Stop it! table's time when it was sent: only that differs
                        assert _same_but_later_clock(view, msg["view"]), msg["seq"]
                if seat is None:
                    assert msg["legal"] == []
                continue
            if seat is None or msg["seq"] <= joined:
                continue
            # the same change as the watcher saw it, plus only this seat's private parts
            candidates = public.get(msg["seq"], [])
            assert any(_extends(msg["events"], other, seat) for other in candidates), msg


def _same_but_later_clock(replayed: dict[str, Any], sent: dict[str, Any]) -> bool:
    if "clock" not in replayed or sent.get("clock", -1) < replayed["clock"]:
        return False
    return {**replayed, "clock": None} == {**sent, "clock": None}


def _extends(mine: list[dict[str, Any]], theirs: list[dict[str, Any]], seat: int) -> bool:
    if len(mine) != len(theirs):
        return False
    for a, b in zip(mine, theirs, strict=True):
        if a == b:
            continue
        if a.get("seat") != seat or any(a.get(k) != v for k, v in b.items()):
            return False
    return True
