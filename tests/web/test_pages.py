"""The pages and the client's read-only endpoints (docs/protocol.md), without a browser."""

from __future__ import annotations

import urllib.request

from tests.web.support import Server, http_error


def fetch(server: Server, path: str) -> tuple[str, str]:
    with urllib.request.urlopen(server.url + path, timeout=10) as res:
        return res.headers.get("Content-Type", ""), res.read().decode()


def test_pages_and_static_files_are_served(server: Server) -> None:
    for path in ("/", "/t/abc", "/t/abc/replay"):
        kind, body = fetch(server, path)
        assert kind.startswith("text/html") and '<script type="module"' in body
    kind, body = fetch(server, "/static/vendor/socket.io.esm.min.js")
    assert "javascript" in kind and "Socket.IO" in body
    assert fetch(server, "/static/js/games/stop.js")[1].startswith("//")


def test_games_lists_every_game_with_its_option_table(server: Server) -> None:
    listing = server.request("GET", "/api/games")
    assert [g["game"] for g in listing] == ["stop", "stopit", "stopandgo"]
    stop = listing[0]
    assert set(stop["rulesets"]) == {"abacus-en", "abacus-ja"}
    assert "heuristic" in stop["bots"]
    options = {o["name"]: o for o in stop["rulesets"]["abacus-ja"]["options"]}
    assert options["call_window_cards"]["default"] == 2  # the preset's default, not en's
    assert options["deal_size"]["rule"] == "S-8"
    assert stop["rulesets"]["abacus-en"]["seats"] == [2, 10]


def test_map_svg_has_clickable_spaces_and_replays_are_closed_until_the_end(
    server: Server,
) -> None:
    table = server.create("stopandgo", 2, [None, "heuristic"])
    kind, svg = fetch(server, f"/api/tables/{table}/map.svg")
    assert kind.startswith("image/svg+xml")
    assert svg.startswith("<svg") and 'class="space market" data-space="M"' in svg
    assert http_error(server, "GET", f"/api/tables/{table}/replay?upto=1")[0] == 403
    assert http_error(server, "GET", f"/api/tables/{table}/map.svg?upto=1")[0] == 403
    stop = server.create("stop", 2, [None, "heuristic"])
    assert http_error(server, "GET", f"/api/tables/{stop}/map.svg")[0] == 404
    assert http_error(server, "GET", "/api/tables/nope/map.svg")[0] == 404


def test_replay_views_of_a_finished_game(server: Server) -> None:
    table = server.create(
        "stopandgo", 2, ["heuristic", "heuristic"], options={"destination_count": 1}
    )
    server.wait_phase(table, "over")
    first = server.request("GET", f"/api/tables/{table}/replay?upto=0")
    last = server.request("GET", f"/api/tables/{table}/replay?upto=100000")
    assert first["upto"] == 0 and last["upto"] == last["events"] > 0
    assert first["view"]["seat"] is None and last["view"]["phase"] == "game_over"
    kind, svg = fetch(server, f"/api/tables/{table}/map.svg?upto=0")
    assert kind.startswith("image/svg+xml") and "data-space" in svg
