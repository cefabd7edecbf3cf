"""Wire schemas (pydantic): HTTP bodies and the Socket.IO messages a client sends.

Storage rows live in :mod:`stoptable.server.store`; nothing here touches the database.
The action line itself is checked by the game's own codec (``spec.action_from_json``);
this module checks only its envelope: a JSON object, small enough, without ``seat``/``t``.
"""

from __future__ import annotations

import json
from typing import Any, Final

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from stoptable.core.protocol import JSON
from stoptable.server.people import clean_chat


class ClockBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    turn_s: float = Field(gt=0, le=3600)
    bank_s: float = Field(ge=0, le=36000)


MAX_SEED = 2**63 - 1
"""Seeds are 64-bit signed integers at most: orjson and the stores write no larger."""


class Creator(BaseModel):
    """``creator`` of ``POST /api/tables``: the seat its person takes at once (§8)."""

    model_config = ConfigDict(extra="forbid")

    seat: StrictInt
    name: StrictStr = Field(max_length=1000)


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
    creator: Creator | None = None


class ClaimSeat(BaseModel):
    """``POST /api/tables/{id}/seats/{k}``."""

    model_config = ConfigDict(extra="forbid")

    name: StrictStr = Field(max_length=1000)
    """The rules of a name (protocol.md §8) are checked by the lobby, which names them."""


def check_chat(data: Any) -> str | None:
    """The text of a ``chat`` message (§8), trimmed, or None if it is malformed."""
    if not isinstance(data, dict) or set(data) != {"text"}:
        return None
    return clean_chat(data["text"])


def check_empty(data: Any) -> bool:
    """A message that carries nothing (``rematch {}``; a missing payload counts too)."""
    return data is None or data == {}


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


ESCAPED_PER_BYTE: Final = 6
"""Characters the size check's text (``json.dumps``, non-ASCII escaped) may have for each
byte of orjson's UTF-8 text: a character of 2-4 bytes is 6 or 12 characters escaped, a
number is written the same or a few characters longer."""


def check_action(data: Any, limit: int) -> dict[str, JSON] | str:
    """The action object, or the reason it is malformed (protocol.md §3).

    Its size is that of ``json.dumps``'s compact text (non-ASCII escaped); an action that
    is surely within the limit by orjson's text (a few dozen bytes, where the limit is
    8 KiB) is not written that slower way, and its copy is orjson's."""
    try:
        packed: bytes | None = orjson.dumps(data)
    except (orjson.JSONEncodeError, TypeError):
        packed = None
    if packed is None or len(packed) * ESCAPED_PER_BYTE > limit:
        try:
            size = len(json.dumps(data, separators=(",", ":")).encode())
        except (TypeError, ValueError):
            return "not JSON"
        if size > limit:
            return f"over {limit} bytes"
        packed = None
    if not isinstance(data, dict):
        return "an action must be a JSON object"
    for key in ("seat", "t"):
        if key in data:
            return f"the server supplies {key!r}; an action must not carry it"
    if not isinstance(data.get("type"), str):
        return "an action needs a string 'type'"
    if packed is not None:  # a fresh copy, as the model's dump was
        copy: dict[str, JSON] = orjson.loads(packed)
        return copy
    return dict(Envelope.model_validate(data).model_dump())
