"""Short games of every registered game for the server tests: create bodies, bots."""

from __future__ import annotations

from typing import Any

STOP_FAST = {
    "deal_size": 3,
    "target_score": 1,
    "interjection_grace_ms": 20,
    "cancel_window_ms": 40,
}
STOPIT_FAST = {
    "sort_grace_ms": 150,
    "min_pause_ms": 0,
    "go_timeout_ms": 200,
    "endgame_timeout_ms": 200,
}

CASES: dict[str, dict[str, Any]] = {
    "stop": {"game": "stop", "ruleset": "abacus-en", "options": STOP_FAST, "round_pause_ms": 0},
    "stopit": {"game": "stopit", "ruleset": "stopit-standard", "options": STOPIT_FAST},
    "stopandgo": {"game": "stopandgo", "options": {"destination_count": 6}},
}


def body(game: str, seats: int, bots: list[str | None], seed: int, **extra: Any) -> dict[str, Any]:
    return {**CASES[game], "seats": seats, "bots": bots, "seed": seed, "bot_delay_ms": 0, **extra}
