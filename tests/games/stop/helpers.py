"""Shared helpers of the Stop engine tests: random rule mixes and checked random play."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from stoptable.core.records import replay_lines
from stoptable.core.rng import Rng
from stoptable.games import replayer
from stoptable.games.stop import new_game
from stoptable.games.stop.cards import DECK_COUNTS
from stoptable.games.stop.randomplay import step
from stoptable.games.stop.state import StopState


def random_options(rng: Rng) -> dict[str, Any]:
    """A random house rule: every option of stop.md §11 that changes play, drawn at random."""
    flip = rng.random
    return {
        "six_nine_value": "nine" if flip() < 0.5 else "face",
        "voluntary_draw": flip() < 0.5,
        "play_drawn_card": flip() < 0.3,
        "interject_on_starter": flip() < 0.8,
        "starter_effect": "apply" if flip() < 0.3 else "none",
        "reshuffle_keep_top": flip() < 0.85,
        "two_stacking_any_colour": flip() < 0.5,
        "draw_two_skips_victim": flip() < 0.5,
        "interjected_two_extends": flip() < 0.5,
        "skip_stacking": "accumulate" if flip() < 0.5 else "pass_on",
        "exchange_modes": [m for m in ("left", "right", "swap") if flip() < 0.6] or ["swap"],
        "exchange_cancel_by": "affected" if flip() < 0.5 else "any",
        "draw_x_mode": "reveal_and_play" if flip() < 0.5 else "flip",
        "draw_x_stacking": flip() < 0.3,
        "free_choice_second_effect": flip() < 0.7,
        "free_choice_as_response": flip() < 0.3,
        "achtung_trigger": "hand_becomes_one" if flip() < 0.5 else "play_second_to_last",
        "call_window_cards": rng.randint(0, 3),
        "missed_stop_penalty": rng.randint(0, 3),
        "achtung_penalty": rng.randint(0, 3),
        "last_card_effect": flip() < 0.5,
        "target_score": rng.randint(50, 400),
    }


def cards_in_play(st: StopState) -> Counter[Any]:
    """Every card of hands, draw pile and discard pile."""
    total: Counter[Any] = Counter(st.draw) + Counter(st.discard)
    for hand in st.hands:
        total.update(hand)
    return total


def assert_conserved(st: StopState, expected: Counter[Any] | None = None) -> None:
    """All 112 cards (or the position's cards) are still somewhere, and the state's count
    of the copies held (``held``, by twin) agrees with the hands."""
    assert cards_in_play(st) == (DECK_COUNTS if expected is None else expected)
    held = [0] * len(st.held)
    for hand in st.hands:
        for card in hand:
            held[card.twin] += 1
    assert st.held == held


def replay_record(header: dict[str, Any], events: list[dict[str, Any]]) -> Any:
    """Replay like ``stoptable replay --json``; returns the ReplayResult."""
    lines = [json.dumps({"format": "stoptable-record/1", **header})]
    lines += [json.dumps(e) for e in events]
    return replay_lines(lines, replayer)


def recorded_game(
    ruleset: str,
    seats: int,
    seed: int,
    options: dict[str, Any] | None = None,
    max_rounds: int = 3,
    max_actions: int = 20000,
) -> tuple[StopState, dict[str, Any], list[dict[str, Any]]]:
    """Play a seeded random game, writing its record as it goes."""
    st = new_game(ruleset, seats, seed=seed, options=options)
    header: dict[str, Any] = {"game": "stop", "ruleset": ruleset, "seats": seats, "seed": seed}
    if options:
        header["options"] = options
    events: list[dict[str, Any]] = []
    rng = Rng(seed + 7)
    rounds = 1
    for _ in range(max_actions):
        if st.phase == "game_over":
            break
        if st.phase == "round_over":
            if rounds >= max_rounds:
                break
            st.start_next_round()
            events.append({"chance": "shuffle"})
            rounds += 1
            continue
        action = step(st, rng, take=0.4, drop_calls=0.15)
        if action is not None:
            events.append(action.to_json())
    return st, header, events
