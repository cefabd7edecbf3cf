"""Wire schemas (pydantic): HTTP bodies and the Socket.IO messages a client sends.

Storage rows live in :mod:`stoptable.server.store`; nothing here touches the database.
The action line itself is checked by the game's own codec (``spec.action_from_json``);
this module checks only its envelope: a JSON object, small enough, without ``seat``/``t``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from stoptable.core.protocol import JSON


class ClockBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    turn_s: float = Field(gt=0, le=3600)
    bank_s: float = Field(ge=0, le=36000)


MAX_SEED = 2**63 - 1
"""Seeds are 64-bit signed integers at most: orjson and the stores write no larger."""


class CreateTable(BaseModel):
    """``POST /api/tables`` (protocol.md §2). Every number has a range and every string a
    length, so nothing a stranger sends here can make a table the server cannot write,
    store or finish (issue 22); the options' ranges are the game's option table's."""

    model_config = ConfigDict(extra="forbid")

    game: StrictStr = Field(max_length=64)
    ruleset: StrictStr | None = Field(default=None, max_length=64)
    options: dict[str, Any] = Field(default_factory=dict, max_length=64)
    seats: StrictInt = Field(ge=0, le=1000)
    bots: list[StrictStr | None] | None = Field(default=None, max_length=64)
    seed: StrictInt | None = Field(default=None, ge=0, le=MAX_SEED)
    clock: ClockBody | None = None
    bot_delay_ms: StrictInt | None = Field(default=None, ge=0, le=60_000)
    round_pause_ms: StrictInt | None = Field(default=None, ge=0, le=600_000)


class ClaimSeat(BaseModel):
    """``POST /api/tables/{id}/seats/{k}``."""

    model_config = ConfigDict(extra="forbid")

    name: StrictStr = Field(min_length=1, max_length=64)


class TableInfo(BaseModel):
    table: str
    game: str
    ruleset: str
    seats: int
    free_seats: list[int]
    phase: str


class Auth(BaseModel):
    """The Socket.IO ``auth`` of a connection: a table, and a token to play a seat."""

    model_config = ConfigDict(extra="forbid")

    table: StrictStr = Field(max_length=64)
    token: StrictStr | None = Field(default=None, max_length=256)


class Resume(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seq: StrictInt = Field(ge=0)


class Envelope(BaseModel):
    """What every ``action`` must be before the game's codec reads it."""

    model_config = ConfigDict(extra="allow")


def check_action(data: Any, limit: int) -> dict[str, JSON] | str:
    """The action object, or the reason it is malformed (protocol.md §3)."""
    try:
        size = len(json.dumps(data, separators=(",", ":")).encode())
    except (TypeError, ValueError):
        return "not JSON"
    if size > limit:
        return f"over {limit} bytes"
    if not isinstance(data, dict):
        return "an action must be a JSON object"
    for key in ("seat", "t"):
        if key in data:
            return f"the server supplies {key!r}; an action must not carry it"
    if not isinstance(data.get("type"), str):
        return "an action needs a string 'type'"
    return dict(Envelope.model_validate(data).model_dump())
