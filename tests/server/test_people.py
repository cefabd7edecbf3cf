"""protocol.md §8 against a real server: names, ``players``, the creator's seat, bot
strengths, chat (limits, history, spectators) and play again."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.cases import body
from tests.server.support import (
    Client,
    ProcessServer,
    ThreadServer,
    claim,
    create,
    play_to_end,
)

TOY = {"game": "toy", "seats": 2, "seed": 5}
QUICK = {**TOY, "options": {"goal": 1}}
"""A toy game that the first ``advance`` wins."""


async def post(url: str, path: str, data: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=url) as http:
        return await http.post(path, json=data)


async def get(url: str, path: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=url) as http:
        return await http.get(path)


async def sit(url: str, table: str, seat: int, name: str) -> httpx.Response:
    return await post(url, f"/api/tables/{table}/seats/{seat}", {"name": name})


# ---------------------------------------------------------------------- names


@pytest.mark.parametrize(
    "name",
    ["", "   ", "x" * 25, "ann\x07", "a\nb", "zero\u200bwidth", "rtl\u202eflip", "\u2028"],
)
async def test_a_name_that_breaks_a_rule_is_422_naming_name(
    server: ThreadServer, name: str
) -> None:
    table = await create(server.url, TOY)
    r = await sit(server.url, table, 0, name)
    assert r.status_code == 422, r.text
    assert "name" in r.json()["detail"]
    assert (await get(server.url, f"/api/tables/{table}")).json()["free_seats"] == [0, 1]


async def test_names_are_trimmed_nfc_and_unique_by_casefold(server: ThreadServer) -> None:
    table = await create(server.url, {**TOY, "seats": 4})
    decomposed = "  Zoe\u0301  "
    assert (await sit(server.url, table, 0, decomposed)).status_code == 200
    assert (await sit(server.url, table, 1, "x" * 24)).status_code == 200
    for clash in ("zoé", "ZOÉ", "ZOE\u0301"):
        r = await sit(server.url, table, 2, clash)
        assert r.status_code == 409 and r.json()["detail"] == "name taken", clash
    assert (await sit(server.url, table, 2, "Straße")).status_code == 200
    assert (await sit(server.url, table, 3, "STRASSE")).status_code == 409  # casefold: ss
    players = (await get(server.url, f"/api/tables/{table}")).json()["players"]
    assert players[0]["name"] == "Zoé" == unicodedata.normalize("NFC", "Zoe\u0301")
    assert [p["name"] for p in players] == ["Zoé", "x" * 24, "Straße", None]
    assert [p["seat"] for p in players] == [0, 1, 2, 3]


async def test_markup_is_kept_as_typed(server: ThreadServer) -> None:
    table = await create(server.url, TOY)
    assert (await sit(server.url, table, 0, "<b>Ann</b> & co")).status_code == 200
    info = (await get(server.url, f"/api/tables/{table}")).json()
    assert info["players"][0]["name"] == "<b>Ann</b> & co"


async def test_players_in_table_objects_and_every_state(server: ThreadServer) -> None:
    table = await create(server.url, body("stop", 3, [None, None, "easy"], 3))
    info = (await get(server.url, f"/api/tables/{table}")).json()
    assert info["next"] is None
    assert info["players"] == [
        {"seat": 0, "name": None, "bot": None, "present": False},
        {"seat": 1, "name": None, "bot": None, "present": False},
        {"seat": 2, "name": "Bot 3 (easy)", "bot": "easy", "present": True},
    ]
    # a person may not take a bot's name either
    assert (await sit(server.url, table, 0, "bot 3 (EASY)")).status_code == 409
    token = await claim(server.url, table, 0, "Ann")
    watcher = await Client(server.url).connect(table)
    ann = await Client(server.url).connect(table, token)
    try:
        first = await watcher.wait(lambda s: s["players"][0]["present"])
        assert first["players"][0] == {"seat": 0, "name": "Ann", "bot": None, "present": True}
        assert first["next"] is None
        await claim(server.url, table, 1, "Bea")
        # Bea's name reaches the watcher before she connects; she is not present yet
        st = await watcher.wait(lambda s: s["players"][1]["name"] == "Bea")
        assert st["players"][1]["present"] is False
        listing = (await get(server.url, "/api/tables")).json()
        mine = next(t for t in listing if t["table"] == table)
        assert [p["name"] for p in mine["players"]] == ["Ann", "Bea", "Bot 3 (easy)"]
        await ann.close()
        st = await watcher.wait(lambda s: not s["players"][0]["present"])
        assert all("players" in s for s in watcher.states())
    finally:
        await watcher.close()


# ---------------------------------------------------------------------- creator


async def test_the_creator_sits_at_once(server: ThreadServer) -> None:
    r = await post(server.url, "/api/tables", {**TOY, "creator": {"seat": 1, "name": " Cy "}})
    assert r.status_code == 201, r.text
    made = r.json()
    assert set(made) == {"table", "seat", "token"} and made["seat"] == 1
    info = (await get(server.url, f"/api/tables/{made['table']}")).json()
    assert info["free_seats"] == [0] and info["players"][1]["name"] == "Cy"
    c = await Client(server.url).connect(made["table"], made["token"])
    try:
        assert (await c.wait(lambda s: True))["seat"] == 1
    finally:
        await c.close()
    assert (await sit(server.url, made["table"], 0, "cy")).status_code == 409
    # without creator, the answer is the table alone
    assert set((await post(server.url, "/api/tables", TOY)).json()) == {"table"}


@pytest.mark.parametrize(
    ("creator", "status"),
    [
        ({"seat": 2, "name": "Cy"}, 422),
        ({"seat": -1, "name": "Cy"}, 422),
        ({"seat": 0, "name": ""}, 422),
        ({"seat": 0, "name": "a\tb"}, 422),
        ({"seat": 0}, 422),
        ({"seat": 0, "name": "Cy", "colour": "red"}, 422),
    ],
)
async def test_bad_creator_fields_are_refused(
    server: ThreadServer, creator: dict[str, Any], status: int
) -> None:
    before = len((await get(server.url, "/api/tables")).json())
    r = await post(server.url, "/api/tables", {**TOY, "creator": creator})
    assert r.status_code == status, r.text
    assert isinstance(r.json()["detail"], str)
    assert len((await get(server.url, "/api/tables")).json()) == before


async def test_the_creator_may_not_sit_on_a_bot_or_take_its_name(server: ThreadServer) -> None:
    base = body("stop", 2, [None, "easy"], 1)
    r = await post(server.url, "/api/tables", {**base, "creator": {"seat": 1, "name": "Cy"}})
    assert r.status_code == 422 and "creator" in r.json()["detail"]
    r = await post(
        server.url, "/api/tables", {**base, "creator": {"seat": 0, "name": "BOT 2 (easy)"}}
    )
    assert r.status_code == 409 and r.json()["detail"] == "name taken"


# ---------------------------------------------------------------------- bot strengths


async def test_bot_strengths_are_listed_and_accepted(server: ThreadServer) -> None:
    games = {g["game"]: g for g in (await get(server.url, "/api/games")).json()}
    for game in ("stop", "stopit", "stopandgo"):
        strengths = games[game]["strengths"]
        assert set(strengths) == {"easy", "normal", "hard"}
        for bot in strengths.values():
            assert bot.partition("@")[0] in games[game]["bots"]
    r = await post(server.url, "/api/tables", body("stop", 2, ["easy", "grandmaster"], 1))
    assert r.status_code == 422 and "grandmaster" in r.json()["detail"]
    for strength in ("easy", "normal", "hard"):
        made = await create(server.url, body("stopandgo", 2, [None, strength], 1))
        players = (await get(server.url, f"/api/tables/{made}")).json()["players"]
        assert players[1] == {
            "seat": 1,
            "name": f"Bot 2 ({strength})",
            "bot": strength,
            "present": True,
        }


async def test_an_easy_bot_plays_a_stop_game_to_the_end(server: ThreadServer) -> None:
    made = (
        await post(
            server.url,
            "/api/tables",
            {**body("stop", 2, ["easy", "normal"], 7), "creator": None},
        )
    ).json()
    watcher = await Client(server.url).connect(made["table"])
    try:
        end = await watcher.wait(lambda s: s["result"] is not None, timeout=30)
        assert [p["bot"] for p in end["players"]] == ["easy", "normal"]
    finally:
        await watcher.close()


# ---------------------------------------------------------------------- chat


async def seated(url: str, game: dict[str, Any]) -> tuple[str, list[Client], Client]:
    table = await create(url, game)
    tokens = [await claim(url, table, 0, "Ann"), await claim(url, table, 1, "Bea")]
    people = [await Client(url).connect(table, tok) for tok in tokens]
    watcher = await Client(url).connect(table)
    for c in [*people, watcher]:
        await c.wait_for(lambda c=c: "chat" in c.order)
    return table, people, watcher


async def test_chat_is_acked_stored_and_sent_to_everyone(server: ThreadServer) -> None:
    table, (ann, bea), watcher = await seated(server.url, TOY)
    try:
        for c in (ann, bea, watcher):
            # on connect: a state first, then one chat with the (empty) history
            assert c.order.index("state") < c.order.index("chat")
            assert c.chats() == []
        ack = await ann.call("chat", {"text": "  hello <b>all</b>  "})
        assert ack == {"ok": True, "id": 1}
        assert (await bea.call("chat", {"text": "hi Ann 👋🏽"})) == {"ok": True, "id": 2}
        for c in (ann, bea, watcher):
            await c.wait_for(lambda c=c: len(c.chats()) == 2)
            first, second = c.chats()
            assert first["id"] == 1 and first["seat"] == 0 and first["name"] == "Ann"
            assert first["text"] == "hello <b>all</b>" and isinstance(first["t"], int)
            assert second["id"] == 2 and second["name"] == "Bea" and second["t"] >= first["t"]
        # a spectator cannot chat
        assert (await watcher.call("chat", {"text": "me too"}))["reason"] == "spectator"
        # a late comer gets the history after its first state
        late = await Client(server.url).connect(table)
        try:
            await late.wait_for(lambda: len(late.chats()) == 2)
            assert late.order[0] == "state"
        finally:
            await late.close()
    finally:
        for c in (ann, bea, watcher):
            await c.close()


@pytest.mark.parametrize(
    "data",
    [
        {"text": ""},
        {"text": "   "},
        {"text": "x" * 301},
        {"text": "line\nbreak"},
        {"text": "bell\x07"},
        {"text": 7},
        {"text": "hi", "to": 1},
        {},
        "hi",
        None,
        ["hi"],
    ],
)
async def test_malformed_chat_is_refused(server: ThreadServer, data: Any) -> None:
    _table, (ann, bea), watcher = await seated(server.url, TOY)
    try:
        ack = await ann.call("chat", data)
        assert ack["ok"] is False and ack["reason"] == "malformed", ack
        assert (await ann.call("chat", {"text": "x" * 300}))["ok"] is True
        assert ann.sio.connected
    finally:
        for c in (ann, bea, watcher):
            await c.close()


async def test_chat_rate_is_five_in_ten_seconds_per_seat(server: ThreadServer) -> None:
    _table, (ann, bea), watcher = await seated(server.url, TOY)
    try:
        acks = [await ann.call("chat", {"text": f"m{i}"}) for i in range(5)]
        assert [a["id"] for a in acks] == [1, 2, 3, 4, 5]
        # refused ones (malformed or over the rate) do not count
        assert (await ann.call("chat", {"text": ""}))["reason"] == "malformed"
        refused = await ann.call("chat", {"text": "m5"})
        assert refused["ok"] is False and refused["reason"] == "rate"
        # the limit is per seat: Bea still talks
        assert (await bea.call("chat", {"text": "b"})) == {"ok": True, "id": 6}
        await watcher.wait_for(lambda: len(watcher.chats()) == 6)
        assert "m5" not in [m["text"] for m in watcher.chats()]
    finally:
        for c in (ann, bea, watcher):
            await c.close()


async def test_chat_history_comes_after_the_state_of_a_resume(server: ThreadServer) -> None:
    _table, (ann, bea), watcher = await seated(server.url, TOY)
    try:
        await ann.call("chat", {"text": "one"})
        await bea.wait_for(lambda: len(bea.chats()) == 1)
        n = len(bea.order)
        ack = await bea.call("resume", {"seq": bea.last["seq"]})
        assert ack["ok"]
        await bea.wait_for(lambda: "chat" in bea.order[n:])
        assert bea.order[n:] == ["state", "chat"]
        assert [m["text"] for m in bea.chat_batches[-1]["messages"]] == ["one"]
    finally:
        for c in (ann, bea, watcher):
            await c.close()


async def test_chat_stays_open_after_the_game(server: ThreadServer) -> None:
    _table, (ann, bea), watcher = await seated(server.url, QUICK)
    try:
        await ann.wait(lambda s: s["legal"] != [])
        assert (await ann.act({"type": "advance"}))["ok"]
        await bea.wait(lambda s: s["result"] is not None)
        assert (await bea.call("chat", {"text": "gg"}))["ok"]
        await watcher.wait_for(lambda: [m["text"] for m in watcher.chats()] == ["gg"])
    finally:
        for c in (ann, bea, watcher):
            await c.close()


async def test_chat_and_next_survive_kill_9(tmp_path: Path) -> None:
    srv = ProcessServer(f"sqlite+aiosqlite:///{tmp_path / 'chat.db'}").start()
    try:
        table = await create(srv.url, {**QUICK, "seed": 2})
        tokens = [await claim(srv.url, table, 0, "Ann"), await claim(srv.url, table, 1, "Bea")]
        ann = await Client(srv.url).connect(table, tokens[0])
        await ann.wait(lambda s: s["legal"] != [])
        assert (await ann.call("chat", {"text": "before"}))["id"] == 1
        assert (await ann.act({"type": "advance"}))["ok"]
        await ann.wait(lambda s: s["result"] is not None)
        assert (await ann.call("chat", {"text": "gg"}))["id"] == 2
        nxt = (await ann.call("rematch", {}))["table"]
        srv.kill()
        srv.start()
        info = (await get(srv.url, f"/api/tables/{table}")).json()
        assert info["next"] == nxt and [p["name"] for p in info["players"]] == ["Ann", "Bea"]
        bea = await Client(srv.url).connect(table, tokens[1])
        try:
            await bea.wait_for(lambda: len(bea.chats()) == 2)
            assert [(m["id"], m["name"], m["text"]) for m in bea.chats()] == [
                (1, "Ann", "before"),
                (2, "Ann", "gg"),
            ]
            assert (await bea.wait(lambda s: True))["next"] == nxt
            assert (await bea.call("chat", {"text": "bye"})) == {"ok": True, "id": 3}
            # the next table kept Ann's seat and her name
            players = (await get(srv.url, f"/api/tables/{nxt}")).json()["players"]
            assert players[0]["name"] == "Ann" and players[1]["name"] is None
        finally:
            await bea.close()
    finally:
        srv.kill()


# ---------------------------------------------------------------------- play again


async def test_play_again_seats_everyone_who_asks(server: ThreadServer) -> None:
    table, (ann, bea), watcher = await seated(server.url, QUICK)
    try:
        await ann.wait(lambda s: s["legal"] != [])
        assert (await ann.call("rematch", {}))["reason"] == "not_over"
        assert (await ann.act({"type": "advance"}))["ok"]
        await bea.wait(lambda s: s["result"] is not None)
        assert (await watcher.call("rematch", {}))["reason"] == "spectator"
        assert (await ann.call("rematch", {"x": 1}))["reason"] == "malformed"
        first = await bea.call("rematch", {})
        assert first["ok"] is True and first["seat"] == 1 and first["table"] != table
        nxt = first["table"]
        # the old table points at the next one, in its objects and in a pushed state
        for c in (ann, bea, watcher):
            await c.wait(lambda s: s["next"] == nxt)
        assert (await get(server.url, f"/api/tables/{table}")).json()["next"] == nxt
        info = (await get(server.url, f"/api/tables/{nxt}")).json()
        assert info["phase"] == "waiting" and info["free_seats"] == [0]
        assert info["players"][1]["name"] == "Bea" and info["next"] is None
        again = await ann.call("rematch", {})
        assert again["ok"] and again["table"] == nxt and again["seat"] == 0
        # a second rematch from the same seat: the same seat, a new token
        twice = await ann.call("rematch", {})
        assert twice["ok"] and twice["seat"] == 0 and twice["token"] != again["token"]
        info = (await get(server.url, f"/api/tables/{nxt}")).json()
        assert [p["name"] for p in info["players"]] == ["Ann", "Bea"]
        assert info["phase"] == "playing"
        ann2 = await Client(server.url).connect(nxt, twice["token"])
        bea2 = await Client(server.url).connect(nxt, first["token"])
        try:
            st = await ann2.wait(lambda s: s["players"][1]["present"])
            assert st["seat"] == 0
            assert (await bea2.wait(lambda s: True))["seat"] == 1
        finally:
            await ann2.close()
            await bea2.close()
        # same game and options, a new seed
        await _finish(server.url, nxt, twice["token"], first["token"])
        old = (await get(server.url, f"/api/tables/{table}/record")).text.splitlines()[0]
        new = (await get(server.url, f"/api/tables/{nxt}/record")).text.splitlines()[0]
        assert _json(old)["options"] == _json(new)["options"]
        assert _json(old)["game"] == _json(new)["game"]
    finally:
        for c in (ann, bea, watcher):
            await c.close()


async def test_play_again_keeps_bots_and_frees_unclaimed_seats(server: ThreadServer) -> None:
    game = body("stop", 3, [None, None, "easy"], 4)
    made = await post(server.url, "/api/tables", {**game, "creator": {"seat": 0, "name": "A"}})
    table, token_a = made.json()["table"], made.json()["token"]
    token_b = await claim(server.url, table, 1, "B")
    await _finish(server.url, table, token_a, token_b)
    ann = await Client(server.url).connect(table, token_a)
    try:
        await ann.wait(lambda s: s["result"] is not None)
        ack = await ann.call("rematch", {})
        assert ack["ok"] and ack["seat"] == 0
    finally:
        await ann.close()
    nxt = ack["table"]
    info = (await get(server.url, f"/api/tables/{nxt}")).json()
    assert info["phase"] == "waiting" and info["free_seats"] == [1]
    assert [(p["name"], p["bot"]) for p in info["players"]] == [
        ("A", None),
        (None, None),
        ("Bot 3 (easy)", "easy"),
    ]
    # anyone with the link may take the seat nobody reclaimed; then B's rematch finds it taken
    await claim(server.url, nxt, 1, "Cy")
    bea = await Client(server.url).connect(table, token_b)
    try:
        await bea.wait(lambda s: s["next"] == nxt)
        late = await bea.call("rematch", {})
        assert late["ok"] is False and late["reason"] == "taken"
    finally:
        await bea.close()
    assert (await get(server.url, f"/api/tables/{nxt}")).json()["phase"] == "playing"


async def _finish(url: str, table: str, *tokens: str) -> None:
    """Play the people's seats (their first legal action, sometimes another) to the end."""
    rng = random.Random(3)
    clients = [await Client(url).connect(table, tok) for tok in tokens]
    try:
        await play_to_end(clients, rng, first=0.8)
    finally:
        for c in clients:
            await c.close()


def _json(line: str) -> dict[str, Any]:
    import json

    data = json.loads(line)
    assert isinstance(data, dict)
    return data
