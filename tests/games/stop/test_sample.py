"""The Stop determinizer: its entry point, what it infers from the log, and its fallback
(``sample_state`` on random play is checked in test_properties)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from stoptable.bots.stop import HeuristicBot
from stoptable.core.rng import Rng
from stoptable.games.stop.cards import Card, parse_card
from stoptable.games.stop.driver import StopDriver
from stoptable.games.stop.sample import (
    ANY,
    Belief,
    Lot,
    Sampler,
    SeatMemory,
    determinize,
    infer,
    sample_state,
)
from stoptable.games.stop.state import StopState, new_game


def test_determinize_keeps_the_view_and_refuses_another_seats_view() -> None:
    state = new_game("abacus-en", 4, 2, {})
    view = state.view(1)
    sampled = determinize(view, 1, Rng(3))
    mine = sampled.view(1)
    keys = [k for k in view if k not in ("log", "last_reveal")]
    assert {k: mine[k] for k in keys} == {k: view[k] for k in keys}
    assert sampled.legal_actions(1) == state.legal_actions(1)
    assert sampled.hands[0] != state.hands[0] or sampled.hands[2] != state.hands[2]
    with pytest.raises(ValueError, match="not seat 2"):
        determinize(view, 2, Rng(3))


# ---------------------------------------------------------------- inference (infer)


def _view(log: list[dict[str, Any]], sizes: list[int], discard: list[str]) -> dict[str, Any]:
    """The keys of a seat-0 view that :func:`infer` reads."""
    return {"seat": 0, "round": 1, "hand_sizes": sizes, "discard": discard, "log": log}


def _kinds(lot: Lot) -> set[str]:
    return {c.code for c in lot.allowed}


def test_a_turn_draw_rules_out_what_would_have_matched_the_top() -> None:
    """Seat 1 drew on R5: its older cards hold no red card, no 5, no Free Choice (S-12,
    S-45), though a Card Exchange may have been kept back; the drawn card may be anything."""
    view = _view([{"kind": "draw", "seat": 1, "count": 1}], [3, 4, 5], ["B2", "R5"])
    belief = infer(view)
    assert belief.lots[0] == []
    old, drawn = belief.lots[1]
    assert (old.count, drawn.count, drawn.allowed) == (3, 1, ANY)
    kinds = _kinds(old)
    assert {"R1", "RSkip", "B5", "G5", "FC"}.isdisjoint(kinds)
    assert {"B4", "G6", "RExch", "YSkip"} <= kinds
    assert [(lot.count, lot.allowed) for lot in belief.lots[2]] == [(5, ANY)]


def test_a_number_card_nobody_interjected_is_in_no_hand_and_a_taken_one_tells_nothing() -> None:
    """S-61 offers an interjection to every holder of an identical card: after B7 nobody
    interjected, so nobody holds the other B7 (nor would a 6/9 twin be held); after G6 seat
    2 interjected G9 and the offers on that G9 are still being made: no news of G6 or G9."""
    log = [
        {"kind": "play", "seat": 2, "cards": ["B7"]},
        {"kind": "play", "seat": 1, "cards": ["G6"]},
        {"kind": "interject", "seat": 2, "cards": ["G9"]},
    ]
    belief = infer(_view(log, [4, 4, 4], ["B7", "G6", "G9"]))
    for seat in (1, 2):
        (lot,) = belief.lots[seat]
        assert "B7" not in _kinds(lot)
        assert {"G6", "G9", "R7"} <= _kinds(lot)


def test_a_cheap_play_rules_out_the_costly_playable_cards_it_passed_over() -> None:
    """The heuristic sheds its most costly playable card first: R3 on R5 means no red 2,
    Skip or Draw X and no Free Choice (all worth far more); an R9 or a Card Exchange (whose
    worth depends on the hands) may still be held. An answer to a pending Draw Two is not
    such a choice."""
    log = [
        {"kind": "play", "seat": 1, "cards": ["R3"]},
        {"kind": "play", "seat": 2, "cards": ["R2"]},
        {"kind": "play", "seat": 3, "cards": ["B2"]},
    ]
    belief = infer(_view(log, [3, 4, 4, 4], ["R5", "R3", "R2", "B2"]))
    kinds = _kinds(belief.lots[1][0])
    assert {"R2", "RSkip", "RDrawX", "FC"}.isdisjoint(kinds)
    assert {"R9", "RExch", "B2", "GDrawX"} <= kinds
    assert {"BDrawX", "FC"} <= _kinds(belief.lots[3][0])


def test_accepting_a_draw_two_or_a_skip_rules_out_the_answers_to_it() -> None:
    log = [
        {"kind": "play", "seat": 0, "cards": ["Y2"]},
        {"kind": "accept", "seat": 1, "count": 2},
        {"kind": "play", "seat": 2, "cards": ["YSkip"]},
        {"kind": "skipped", "seat": 0, "count": 1},
        {"kind": "play", "seat": 1, "cards": ["BSkip"]},
        {"kind": "skipped", "seat": 2, "count": 1},
    ]
    belief = infer(_view(log, [3, 5, 4], ["Y2", "YSkip", "BSkip"]))
    old, drawn = belief.lots[1]
    assert {"R2", "B2", "Y0"}.isdisjoint(_kinds(old))
    assert {"GSkip", "B0"} <= _kinds(old)
    assert drawn.count == 2 and {"R2", "GSkip"} <= _kinds(drawn)
    assert {"R2", "Y0"} <= _kinds(belief.lots[2][0])
    assert "GSkip" not in _kinds(belief.lots[2][0])


def test_the_hand_a_seat_gave_away_in_an_exchange_is_known_to_lie_with_its_receiver() -> None:
    """Seat 0 remembers its hand (SeatMemory) and plays a Card Exchange to the left: seat 1
    now holds exactly those cards, less what it plays afterwards."""
    memory = SeatMemory()
    first = [
        {"kind": "deal", "round": 1, "dealer": 3},
        {"kind": "play", "seat": 3, "cards": ["R4"]},
    ]
    memory.observe({"round": 1, "log": first, "hand": ["RExch", "R1", "B1", "G8"]})
    log = [
        *first,
        {"kind": "play", "seat": 0, "cards": ["RExch"]},
        {"kind": "exchange", "seat": 0, "mode": "left", "target": None},
        {"kind": "play", "seat": 1, "cards": ["R1"]},
    ]
    view = {**_view(log, [6, 2, 7, 6], ["R4", "RExch", "R1"]), "hand": ["Y3"] * 6}
    memory.observe(view)
    with_memory = infer(view, memory)
    assert sorted(
        (lot.count, *sorted(_kinds(lot))) for lot in with_memory.lots[1] if lot.count
    ) == [
        (1, "B1"),
        (1, "G8"),
    ]
    window_only = infer(view)
    assert [lot.count for lot in window_only.lots[1]] == [2]
    assert {"B1", "G8", "Y5"} <= _kinds(window_only.lots[1][0])


def test_the_belief_never_contradicts_heuristic_players_and_samples_follow_it() -> None:
    """Over whole heuristic rounds, every seat's belief (with memory) admits the true hands
    of the others, and every sample deals each lot only cards it allows."""
    checked = 0

    class Checker(HeuristicBot):
        def __init__(self, seat: int, seed: int, state: StopState) -> None:
            super().__init__(seat, seed)
            self.state, self.memory = state, SeatMemory()

        def act(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
            nonlocal checked
            self.memory.observe(view)
            if view["phase"] == "playing":
                belief = infer(view, self.memory)
                for s, lots in enumerate(belief.lots):
                    if s != self.seat:
                        assert _fits(lots, self.state.hands[s]), (s, view["log"])
                sample = sample_state(view, Rng(checked), belief=belief)
                assert sample.view(self.seat)["hand_sizes"] == view["hand_sizes"]
                checked += 1
            return super().act(view, legal)

    for seed in range(6):
        state = new_game("abacus-en", 4, seed, {})
        StopDriver(state, [Checker(s, seed * 10 + s, state) for s in range(4)]).play_round()
    assert checked > 100


def _fits(lots: list[Lot], hand: Sequence[Card]) -> bool:
    """Whether ``hand`` can be split into the lots (a small bipartite matching)."""
    slots = [lot.allowed for lot in lots for _ in range(lot.count)]
    if len(slots) != len(hand):
        return False
    owner = [-1] * len(slots)

    def place(i: int, seen: set[int]) -> bool:
        for j, allowed in enumerate(slots):
            if j not in seen and hand[i] in allowed:
                seen.add(j)
                if owner[j] < 0 or place(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return all(place(i, set()) for i in range(len(hand)))


def test_an_impossible_belief_falls_back_to_uniform_hands() -> None:
    state = new_game("abacus-en", 4, 2, {})
    view = state.view(1)
    sizes = view["hand_sizes"]
    impossible = Belief([[] if s == 1 else [Lot(n, frozenset())] for s, n in enumerate(sizes)])
    assert impossible.deal([parse_card("R1")] * 112, Rng(0)) is None
    sampled = sample_state(view, Rng(4), belief=impossible)
    assert sampled.view(1)["hand_sizes"] == sizes
    assert sampled.legal_actions(1) == state.legal_actions(1)


@pytest.mark.parametrize(
    ("ruleset", "seats"), [("abacus-en", 4), ("abacus-ja", 3), ("abacus-ja", 7)]
)
def test_the_sampler_deals_what_determinize_deals(ruleset: str, seats: int) -> None:
    """:class:`Sampler` (a template copied per sample, the search's fast path) gives the
    state :func:`determinize` gives from an equal generator, the sample's own seed included."""
    checked = 0

    class Checker(HeuristicBot):
        def __init__(self, seat: int, seed: int) -> None:
            super().__init__(seat, seed)
            self.memory = SeatMemory()

        def act(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
            nonlocal checked
            self.memory.observe(view)
            if view["phase"] in ("playing", "closing"):
                belief = infer(view, self.memory)
                sampler = Sampler(view, self.seat, belief)
                for k in range(3):
                    fast = sampler.sample(Rng(checked * 7 + k))
                    slow = determinize(view, self.seat, Rng(checked * 7 + k), belief)
                    assert fast.to_json() == slow.to_json()
                    assert fast.rng.below(2**40) == slow.rng.below(2**40)
                checked += 1
            return super().act(view, legal)

    for seed in range(3):
        state = new_game(ruleset, seats, seed, {})
        StopDriver(state, [Checker(s, seed * 10 + s) for s in range(seats)]).play_round()
    assert checked > 60
