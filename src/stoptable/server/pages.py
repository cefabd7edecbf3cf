"""The browser client's routes (protocol.md §7) and the few read-only endpoints it needs.

The pages themselves (``/``, ``/t/{id}``, ``/t/{id}/replay``) are static files from
``stoptable/web``; the client talks to the server only through protocol.md §2 and §3.
Besides those, the client reads public data that no message carries (docs/protocol.md):

* ``GET /api/games``: every game's rulesets, seat range, bots, bot strengths (protocol.md
  §8: ``easy``/``normal``/``hard`` -> the bot each plays as) and option table with the
  preset's defaults, so the lobby can build its form;
* ``GET /api/tables/{id}/map.svg``: a Stop & Go table's map drawn by ``render_svg`` with
  the public view (the spectator's: cars, dial, active destination);
* ``GET /api/tables/{id}/replay?upto=N``: once a game is over, the spectator view after
  its first N events, for the replay viewer.

:func:`mount_pages` adds all of them to the FastAPI app; it is the only hook into the
server's app factory.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from stoptable import games
from stoptable.core.protocol import JSON
from stoptable.core.records import replay_lines

WEB: Final = Path(__file__).resolve().parent.parent / "web"
"""The static client: HTML pages, ``css/``, ``js/``, ``vendor/``."""

NO_CACHE: Final = {"Cache-Control": "no-cache"}


def _page(name: str) -> FileResponse:
    return FileResponse(WEB / name, media_type="text/html", headers=NO_CACHE)


@cache
def games_table() -> list[dict[str, JSON]]:
    """What the lobby form needs of every registered game (``GET /api/games``)."""
    from stoptable.bots.base import bot_names
    from stoptable.bots.strength import strengths

    out: list[dict[str, JSON]] = []
    for name in games.names():
        try:
            spec = games.spec(name)
        except ModuleNotFoundError:  # a game whose spec is not written yet
            continue
        try:
            importlib.import_module(spec.bot_module)
            bots = bot_names(spec.name)
        except ModuleNotFoundError:
            bots = []
        rulesets: dict[str, JSON] = {}
        for preset in spec.rulesets:
            low, high = spec.seat_range(spec.ruleset(preset))
            rulesets[preset] = {
                "seats": [low, high],
                "options": spec.ruleset_type.option_table(preset),
            }
        out.append(
            {
                "game": spec.name,
                "title": spec.title,
                "default_ruleset": spec.default_ruleset,
                "realtime": spec.realtime,
                "bots": bots,
                "strengths": {
                    word: bot
                    for word, bot in strengths(spec.name).items()
                    if bot.partition("@")[0] in bots
                },
                "rulesets": rulesets,
            }
        )
    return out


async def _table(request: Request, table_id: str) -> Any:
    """The server's table object (its lobby answers 404 for an unknown id)."""
    lobby = request.app.state.lobby
    return await lobby.table(table_id)


def map_svg(state: Any) -> str:
    """The map of a Stop & Go game with its public view drawn on it."""
    from stoptable.games.stopandgo.svg import render_svg

    game_map = getattr(state, "game_map", None)
    if game_map is None:
        raise HTTPException(404, "this table has no map")
    data = game_map.model.model_dump(by_alias=True, exclude_none=True)
    return render_svg(data, dict(state.view(None)), legend_only=True)


def replay_state(record: str, upto: int) -> tuple[Any, int, int]:
    """The state after the first ``upto`` events of a record, how many were applied and
    how many events the record has."""
    lines = [line.removesuffix("\r") for line in record.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    events = sum(1 for line in lines[1:] if line.strip())
    result = replay_lines(lines, games.replayer, upto=max(0, min(upto, events)))
    if result.state is None or result.output is None:
        raise HTTPException(500, f"the record does not replay: {result.message}")
    return result.state, int(result.output["applied"]), events


def replay_view(record: str, upto: int) -> dict[str, JSON]:
    """The spectator view after the first ``upto`` events of a finished game's record."""
    state, applied, events = replay_state(record, upto)
    return {"upto": applied, "events": events, "view": dict(state.view(None))}


def mount_pages(app: FastAPI) -> None:
    """Serve the browser client and its read-only endpoints from ``app``."""
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return _page("index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return _page("table.html")

    @app.get("/t/{table_id}/replay", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return _page("replay.html")

    @app.get("/api/games")
    async def list_games() -> list[dict[str, JSON]]:
        return games_table()

    @app.get("/api/tables/{table_id}/map.svg")
    async def table_map(request: Request, table_id: str, upto: int | None = None) -> Response:
        """The live table's map, or with ``upto`` (a finished game) the replay's."""
        if upto is None:
            state = (await _table(request, table_id)).state
        else:
            state = replay_state(await request.app.state.lobby.record(table_id), upto)[0]
        return Response(map_svg(state), media_type="image/svg+xml", headers=NO_CACHE)

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(request: Request, table_id: str, upto: int = 0) -> dict[str, JSON]:
        lobby = request.app.state.lobby
        record = await lobby.record(table_id)
        return replay_view(record, upto)
