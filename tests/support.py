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
