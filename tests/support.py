"""Shared test helpers: build a record in memory and replay it like ``stoptable replay``."""

from __future__ import annotations

import json
from typing import Any

from stoptable.core.records import ReplayResult, replay_lines
from stoptable.games import replayer


def replay(
    header: dict[str, Any], *events: dict[str, Any], upto: int | None = None
) -> ReplayResult:
    """Replay a record given as a header and event objects; ``format`` is filled in."""
    head = {"format": "stoptable-record/1", **header}
    lines = [json.dumps(head)] + [json.dumps(e) for e in events]
    return replay_lines(lines, replayer, upto=upto)


def conforms(value: object, protocol: type) -> bool:
    """Whether ``value`` has every public member of ``protocol`` (what ``isinstance`` of a
    ``@runtime_checkable`` protocol checks; the core protocols are static contracts only,
    so that the compiled build can hold them)."""
    members = [name for name in vars(protocol) if not name.startswith("_")]
    return bool(members) and all(hasattr(value, name) for name in members)
