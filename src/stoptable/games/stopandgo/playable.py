"""Who applies GM-9: the one check every front end that starts a game calls.

stop-and-go.md GM-9 ("who applies it"): ``stoptable map check`` reports every failure;
``play``, ``simulate``, the server and the research environments refuse to start a game on
a map that fails, with the same message; the engine and ``stoptable replay`` accept any map
in the §6 format (GM-1). So the engine never calls :func:`require_playable_map` itself:
front ends do, once, before :func:`~stoptable.games.stopandgo.new_game`.
"""

from __future__ import annotations

from pathlib import Path

from stoptable.core.protocol import JSON
from stoptable.games.stopandgo.board import StopGoMap
from stoptable.games.stopandgo.check import MapError, load_default_map, load_map
from stoptable.games.stopandgo.limits import check_limits, read_map_file
from stoptable.games.stopandgo.reach import reachability_problems


class UnplayableMap(MapError):
    """A map in the §6 format that fails GM-9; ``problems`` are the lines ``stoptable map
    check`` prints for it (each names the destination and the dial position)."""

    def __init__(self, name: str, problems: list[str]) -> None:
        super().__init__(problems)
        self.args = (f"map {name!r} fails GM-9: " + "; ".join(problems),)


def require_playable_map(game_map: StopGoMap) -> StopGoMap:
    """``game_map`` itself if it passes GM-9, else :class:`UnplayableMap`.

    >>> from stoptable.games.stopandgo import load_default_map
    >>> require_playable_map(load_default_map()).name
    'old-town'
    """
    problems = reachability_problems(game_map)
    if problems:
        raise UnplayableMap(game_map.name, problems)
    return game_map


def load_playable_map(path: Path | None) -> tuple[StopGoMap, JSON]:
    """``--map`` of ``play`` and ``simulate`` (the spec's ``setup_files["map"]``): the map at
    ``path`` (None: the default map) if it passes GM-9, and what a record's header says of
    it: the map object itself, so that the record replays anywhere (None for the default).

    MapError (``problems``: one line each) if the file is unreadable, not a §6 map, or
    fails GM-9; InputLimitError if it passes a limit.
    """
    if path is None:
        return require_playable_map(load_default_map()), None
    try:
        data = read_map_file(path)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise MapError([f"cannot read {path}: {exc}"]) from None
    check_limits(data)
    return require_playable_map(load_map(data)), data
