"""Stop conformance: random records keep the invariants of records.md §3/§4.5.

Random action lines (many of them illegal) are appended one at a time to a seeded record
and replayed. Whatever the engine decides, the record format promises: exit 0 or 2 for
well-formed lines, a rejected line leaves the state exactly as before it, all 112 cards stay
in hands + draw pile + discard pile, hands are in canonical order, the victim is on turn
while an effect is pending, and en never has open obligations.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rules.stop_scenarios import EN, FULL_DECK, JA, canon
from tests.support import replay

NUMBERS = [f"{c}{n}" for c in "RBGY" for n in range(10)]


def random_event(rng: random.Random, out: dict[str, Any]) -> dict[str, Any]:
    """A well-formed action line for the current output, legal or not."""
    seats = out["seats"]
    if out["phase"] == "round_over":
        return {"chance": "shuffle"}
    seat = out["turn"] if out["turn"] is not None and rng.random() < 0.7 else rng.randrange(seats)
    hand = out["hands"][seat]
    calls = [c for c in ("achtung", "stop") if len(hand) <= 3 and rng.random() < 0.6]
    kind = rng.choice(["play"] * 6 + ["interject", "cancel", "accept", "draw", "draw", "pass"]
                      + ["call_achtung", "call_stop"])  # fmt: skip
    card = rng.choice(hand) if hand else rng.choice(NUMBERS)
    pending = out["pending"]
    if pending is not None and pending["kind"] != "exchange" and rng.random() < 0.5:
        seat = pending["victim"]
        hand = out["hands"][seat]
        kind = "accept"
    if kind == "play":
        top = out["discard"][-1]
        matching = [c for c in hand if c != "FC" and (c[0] == top[0] or c[1:] == top[1:])]
        if matching and rng.random() < 0.8:
            card = rng.choice(matching)
        coloured = [c for c in hand if c != "FC"]
        cards = ["FC", rng.choice(coloured)] if card == "FC" and coloured else [card]
        ev: dict[str, Any] = {"seat": seat, "type": "play", "cards": cards, "calls": calls}
        if cards[-1].endswith("Exch"):
            ev["mode"] = rng.choice(["left", "right", "swap"])
            if ev["mode"] == "swap":
                ev["target"] = rng.randrange(seats)
        return ev
    if kind in ("interject", "cancel"):
        return {"seat": seat, "type": kind, "card": card, "calls": calls}
    if kind == "accept":
        ev = {"seat": seat, "type": "accept", "calls": calls}
        numbers = [c for c in hand if c[1:].isdigit()]
        if numbers:
            ev["reveal_play"] = rng.choice(numbers)
        return ev
    if kind == "draw":
        return {"seat": seat, "type": "draw", "calls": calls}
    return {"seat": seat, "type": kind}


def check_invariants(out: dict[str, Any], ruleset: str) -> None:
    cards: Counter[str] = Counter(out["draw_pile"]) + Counter(out["discard"])
    for hand in out["hands"]:
        assert hand == canon(hand)
        cards += Counter(hand)
    assert cards == Counter(FULL_DECK)
    assert out["discard"], "the discard pile never becomes empty"
    pending = out["pending"]
    if pending is not None:
        assert pending["colour"] == out["discard"][-1][0]
        if pending["kind"] in ("draw2", "skip", "drawx"):
            assert out["turn"] == pending["victim"]
    if ruleset == EN:
        assert out["obligations"] == []
    if out["phase"] in ("round_over", "game_over"):
        assert out["turn"] is None
        assert out["round_scores"] is not None
        assert sum(out["totals"]) >= sum(out["round_scores"])
    else:
        assert out["turn"] in range(out["seats"])


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    ruleset=st.sampled_from([EN, JA]),
    seats=st.integers(2, 5),
)
def test_S59_S57_random_records_keep_invariants(seed: int, ruleset: str, seats: int) -> None:
    """S-59: a rejected action changes nothing; S-57/records §4.5: output invariants."""
    rng = random.Random(seed)
    deal = rng.randint(2, 4)  # small hands reach round ends, scoring and new rounds
    head = {
        "game": "stop",
        "ruleset": ruleset,
        "seats": seats,
        "seed": seed,
        "options": {"deal_size": deal, "target_score": 150},
    }
    events: list[dict[str, Any]] = []
    res = replay(head)
    assert res.exit_code == 0 and res.output is not None
    out = res.output
    check_invariants(out, ruleset)
    for _ in range(60):
        if out["phase"] == "game_over":
            break
        ev = random_event(rng, out)
        res = replay(head, *events, ev)
        assert res.exit_code in (0, 2), (res.message, events, ev)
        assert res.output is not None
        if res.exit_code == 2:
            err = res.output.pop("error")
            assert err["line"] == len(events) + 2
            if ev.get("type") != "cancel":  # a rejected cancel leaves its window open
                assert res.output == out, (events, ev, err)
            continue
        events.append(ev)
        out = res.output
        assert out["applied"] == len(events)
        check_invariants(out, ruleset)
