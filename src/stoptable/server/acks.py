"""The answers a client gets to what it sends (protocol.md §3), in one place.

Every ack is ``{"ok": true, ...}`` or a refusal ``{"ok": false, "reason", "rule",
"message"}``; the socket handlers and the table runner build them only here.
"""

from __future__ import annotations

from typing import Final

from stoptable.core.protocol import JSON
from stoptable.live.effects import Refuse

ECHO_LIMIT: Final = 200
"""Characters of a refusal's message (it may quote what the client sent)."""

Answer = dict[str, JSON]


def ok(**fields: JSON) -> Answer:
    return {"ok": True, **fields}


def refusal(reason: str, rule: str = "", message: str = "") -> Answer:
    return {"ok": False, "reason": reason, "rule": rule, "message": message[:ECHO_LIMIT]}


def malformed(message: str) -> Answer:
    return refusal("malformed", message=message)


def refused(effect: Refuse) -> Answer:
    return refusal(effect.reason, effect.rule, effect.message)


UNAVAILABLE: Final = refusal("unavailable")
"""The table failed while the action waited (it reloads itself from the store)."""
NOT_CONNECTED: Final = refusal("not_connected")
RATE_LIMITED: Final = refusal("rate_limited", message="slow down")
SPECTATOR: Final = refusal("spectator", message="watching only")
