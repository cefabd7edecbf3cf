"""Engine rules through the Python API (the conformance suite covers them via records)."""

from __future__ import annotations

from typing import Any

import pytest

from stoptable.core.errors import IllegalAction
from stoptable.games.stop import (
    Accept,
    CallAchtung,
    CallStop,
    Cancel,
    Draw,
    Interject,
    Pass,
    Play,
    StopState,
    new_game,
    parse_action,
)
from stoptable.games.stop.cards import FULL_DECK


def at(ruleset: str, hands: list[list[str]], discard: list[str], turn: int, **kw: Any) -> StopState:
    options = kw.pop("options", None)
    position = {"hands": hands, "discard": discard, "turn": turn, **kw}
    return StopState.from_position(ruleset, len(hands), position, options=options)


def do(st: StopState, seat: int, *texts: str) -> StopState:
    for text in texts:
        st.apply(parse_action(seat, text))
    return st


def reason(st: StopState, seat: int, text: str) -> str:
    before = st.to_json()
    with pytest.raises(IllegalAction) as info:
        st.apply(parse_action(seat, text))
    assert st.to_json() == before
    return info.value.reason


def test_S7_S8_S9_S10_deal_from_a_deck() -> None:
    # left(dealer 1) = seat 0 gets cards 0 and 2; FCs before the starter go to the bottom
    front = ["R1", "B1", "R2", "B2"]
    rest = list(FULL_DECK)
    for code in [*front, "FC", "FC", "G5"]:
        rest.remove(code)
    deck = [*front, "FC", "FC", "G5", *rest]
    st = new_game("abacus-en", 2, deck=deck, options={"deal_size": 2, "first_dealer": 1})
    data = st.to_json()
    assert data["hands"] == [["R1", "R2"], ["B1", "B2"]]
    assert data["discard"] == ["G5"]
    assert data["draw_pile"][-2:] == ["FC", "FC"] and data["draw_pile"][0] == rest[0]
    assert data["turn"] == 1 == data["dealer"]
    st.hands = [[], []]
    st.end_round()
    st.start_next_round()
    assert st.dealer == 0 and st.round == 2 and st.turn == 0


def test_S12_S13_match_then_left_neighbour() -> None:
    st = at("abacus-en", [["B7", "R4", "G1"], ["G2", "G3"], ["Y5", "Y6"]], ["B4"], 0)
    assert reason(st, 0, "play G1") == "no_match"
    do(st, 0, "play R4")
    assert st.turn == 1
    assert reason(st, 2, "play Y5") == "not_your_turn"


def test_S14_ja_draw_only_without_a_legal_play() -> None:
    st = at("abacus-ja", [["B7", "G1"], ["G2", "G3"]], ["B4"], 0, draw_pile=["R1"])
    assert reason(st, 0, "draw") == "draw_unavailable"
    assert Draw(0) not in st.legal_actions(0)
    st = at("abacus-ja", [["FC", "G1"], ["G2", "G3"]], ["B4"], 0, draw_pile=["R1"])
    assert reason(st, 0, "draw") == "draw_unavailable"  # FC + coloured card is a play
    st = at("abacus-en", [["B7", "G1"], ["G2", "G3"]], ["B4"], 0, draw_pile=["R1"])
    assert do(st, 0, "draw").hands[0][-1].code == "R1" and st.turn == 1


def test_S16_reshuffle_keeps_top() -> None:
    st = at("abacus-en", [["B7", "G1"], ["G2", "G3"]], ["R1", "R2", "B4"], 0)
    do(st, 0, "draw")
    assert [c.code for c in st.discard] == ["B4"]
    assert len(st.draw) == 1 and len(st.hands[0]) == 3


def test_S17_exhaustion_pass_cycle_ends_round() -> None:
    st = at("abacus-en", [["G1", "G3"], ["Y2", "Y3"]], ["B4"], 0)
    assert reason(st, 0, "draw") == "draw_unavailable"
    st2 = at("abacus-en", [["B1", "G3"], ["Y2", "Y3"]], ["B4"], 0)
    assert reason(st2, 0, "pass") == "pass_unavailable"
    do(st, 0, "pass")
    assert st.consecutive_passes == 1
    do(st, 1, "pass")
    assert st.phase == "round_over" and st.round_scores == [4, 23]


def test_S18_S20_interjection_on_own_card_and_skipping() -> None:
    st = at("abacus-en", [["B6", "B9", "G1"], ["G2", "G3"], ["Y5", "B6"], ["Y1"]], ["B8"], 0)
    do(st, 0, "play B6")
    assert st.offers() == [2, 0]
    do(st, 0, "interject B9 achtung")
    assert st.turn == 1
    do(st, 2, "interject B6 achtung")
    assert st.turn == 3
    assert reason(st, 0, "interject G1") == "not_identical"
    assert reason(st, 0, "interject B6") == "not_in_hand"


def test_S19_no_interjection_of_or_onto_symbols() -> None:
    st = at("abacus-en", [["BSkip", "G1"], ["G2", "G3"]], ["BSkip"], 0)
    assert reason(st, 1, "interject G2") == "symbol_not_interjectable"
    assert reason(st, 0, "interject BSkip") == "symbol_not_interjectable"


def test_S26_en_missing_achtung_draws_two_before_the_effect() -> None:
    st = at("abacus-en", [["B2", "G1"], ["G2", "G3"]], ["B4"], 0, draw_pile=["R1", "R3"])
    do(st, 0, "play B2")
    assert len(st.hands[0]) == 3 and st.pending is not None and st.pending.victim == 1


def test_S26_ja_window_of_two_cards() -> None:
    hands = [["B3", "G1"], ["B5", "G3", "G4"], ["B7", "Y1", "Y2"]]
    st = at("abacus-ja", hands, ["B4"], 0, draw_pile=["R1", "R3"])
    do(st, 0, "play B3")
    assert st.to_json()["obligations"] == [{"seat": 0, "kind": "achtung", "placed": 0}]
    do(st, 1, "play B5")
    assert st.obligations[0].placed == 1
    do(st, 0, "call achtung")
    assert st.obligations == [] and reason(st, 0, "call achtung") == "window_closed"
    # (i): the second card placed since the obligation arose makes it fail
    st = at("abacus-ja", hands, ["B4"], 0, draw_pile=["R1", "R3"])
    do(st, 0, "play B3")
    do(st, 1, "play B5")
    do(st, 2, "play B7")
    assert len(st.hands[0]) == 3 and st.obligations == []


def test_S26_ja_last_card_without_achtung_flag_fails() -> None:
    hands = [["B3", "B5"], ["B5", "G3", "G4"]]
    st = at("abacus-ja", hands, ["B4"], 0, draw_pile=["R1", "R3"])
    do(st, 0, "play B3")
    do(st, 1, "play B5")
    do(st, 0, "interject B5 stop")  # (ii): no Achtung flag, so no Stop either
    assert len(st.hands[0]) == 2 and st.phase == "playing" and st.obligations == []
    st = at("abacus-ja", hands, ["B4"], 0, draw_pile=["R1", "R3"])
    do(st, 0, "play B3")
    do(st, 1, "play B5")
    do(st, 0, "interject B5 achtung stop")
    assert st.phase == "round_over" and st.round_scores == [0, 7]


def test_S27_en_missed_stop_draws_two() -> None:
    st = at("abacus-en", [["B1"], ["G2", "G3"]], ["B4"], 0, draw_pile=["R1", "R3"])
    do(st, 0, "play B1")
    assert len(st.hands[0]) == 2 and st.phase == "playing"
    st = at("abacus-en", [["B1"], ["G2", "G3"]], ["B4"], 0)
    do(st, 0, "play B1 stop")
    assert st.phase == "round_over" and st.round_scores == [0, 23]


def test_S28_late_stop_gives_cards_back() -> None:
    st = at("abacus-ja", [["B1"], ["B3", "G3", "G4"]], ["B4"], 0)
    do(st, 0, "play B1")
    assert st.to_json()["obligations"] == [{"seat": 0, "kind": "late_stop", "placed": 0}]
    do(st, 1, "play B3")
    do(st, 0, "call stop")
    assert st.phase == "round_over"
    assert st.to_json()["hands"] == [[], ["B3", "G3", "G4"]]
    assert st.round_scores == [0, 10]


def test_S31_S33_draw_two_defence_stacking_and_accept() -> None:
    st = at(
        "abacus-en",
        [["B2", "G1", "G5"], ["Y2", "G3", "R0"], ["B0", "Y7"]],
        ["B4"],
        0,
        draw_pile=["R1", "R3", "R5", "R7", "Y1"],
    )
    do(st, 0, "play B2")
    assert reason(st, 1, "play R0") == "wrong_defence_colour"
    assert reason(st, 1, "play G3") == "response_required"
    assert reason(st, 2, "play B0") == "not_your_turn"
    do(st, 1, "play Y2")
    assert st.pending is not None and (st.pending.count, st.pending.victim) == (4, 2)
    do(st, 2, "accept")
    assert len(st.hands[2]) == 6 and st.turn == 0


def test_S34_interjected_two_extends() -> None:
    st = at("abacus-en", [["B2", "G1", "G5"], ["Y2", "G3"], ["B2", "Y7", "Y8"]], ["B4"], 0)
    do(st, 0, "play B2")
    do(st, 2, "interject B2")
    assert st.pending is not None and (st.pending.count, st.pending.victim) == (4, 0)


def test_S37_skip_stacking_modes() -> None:
    hands = [["BSkip", "G1", "G5"], ["YSkip", "G3", "G9"], ["B0", "Y7"], ["Y1", "Y3"]]
    st = at("abacus-en", hands, ["B4"], 0)
    do(st, 0, "play BSkip")
    do(st, 1, "play YSkip")
    assert st.pending is not None and (st.pending.count, st.pending.victim) == (1, 2)
    do(st, 2, "accept")
    assert st.turn == 3
    st = at("abacus-ja", hands, ["B4"], 0)
    do(st, 0, "play BSkip")
    do(st, 1, "play YSkip")
    do(st, 2, "accept")
    assert st.turn == 0


def test_S39_S40_S41_exchange_window() -> None:
    hands = [["BExch", "G1", "G5"], ["B0", "G3"], ["Y7", "Y8", "Y9", "R1"]]
    st = at("abacus-ja", hands, ["B4"], 0)
    do(st, 0, "play BExch swap 2")
    assert st.offers() == []  # seat 1 holds B0 but is not affected by a swap
    assert reason(st, 1, "cancel B0") == "not_eligible"
    st.close_cancel_window()
    assert st.to_json()["hands"][0] == ["R1", "Y7", "Y8", "Y9"] and st.turn == 1
    st = at("abacus-en", hands, ["B4"], 0)
    do(st, 0, "play BExch left")
    assert st.offers() == [1]
    assert Cancel(1, st.hands[1][0], frozenset({"achtung"})) in st.legal_actions(1)
    do(st, 1, "cancel B0 achtung")
    assert st.pending is None and st.turn == 2


def test_S41_exchange_closes_before_any_other_action() -> None:
    hands = [["BExch", "G1", "G5"], ["B0", "G3"], ["Y7", "B8"]]
    st = at("abacus-en", hands, ["B4"], 0)
    do(st, 0, "play BExch right")
    before = st.copy()
    assert reason_after_close(st, 2, "play Y7") == "not_your_turn"
    assert st == before  # the window is open again: the rejected action changed nothing
    do(st, 1, "play B8")  # hands moved right: seat 1 now holds seat 2's cards
    assert st.pending is None and st.to_json()["hands"][0] == ["B0", "G3"]


def reason_after_close(st: StopState, seat: int, text: str) -> str:
    with pytest.raises(IllegalAction) as info:
        st.apply(parse_action(seat, text))
    return info.value.reason


def test_S43_flip_takes_value_plus_card() -> None:
    st = at(
        "abacus-en",
        [["BDrawX", "G1"], ["G3", "G4"]],
        ["B4"],
        0,
        draw_pile=["R3", "R5", "R7", "Y1", "Y2"],
    )
    do(st, 0, "play BDrawX achtung")
    do(st, 1, "accept")
    assert len(st.hands[1]) == 6 and st.turn == 0


def test_S44_reveal_and_play() -> None:
    st = at(
        "abacus-ja",
        [["BDrawX", "G1"], ["G2", "GSkip", "R5"], ["Y1", "Y2"]],
        ["B4"],
        0,
        draw_pile=["R3", "R5", "R7"],
    )
    do(st, 0, "play BDrawX achtung")
    assert reason(st, 1, "accept") == "not_a_number_card"
    assert reason(st, 1, "accept reveal GSkip") == "not_a_number_card"
    assert reason(st, 1, "accept reveal Y1") == "not_in_hand"
    assert Accept(1, frozenset(), st.hands[1][0]) in st.legal_actions(1)
    do(st, 1, "accept reveal G2")
    data = st.to_json()
    assert data["last_reveal"] == {"seat": 1, "hand": ["R5", "G2", "GSkip"]}
    assert data["pending"] == {"kind": "draw2", "count": 2, "victim": 2, "colour": "G"}
    assert len(st.hands[1]) == 4


def test_S45_S46_S47_free_choice_pair() -> None:
    st = at("abacus-en", [["FC", "GSkip"], ["G3", "G4"]], ["B4"], 0)
    assert reason(st, 0, "play FC") == "fc_needs_colour_card"
    assert reason(st, 0, "play GSkip") == "no_match"
    do(st, 0, "play FC GSkip stop")
    assert st.phase == "round_over"


def test_S52_closing_phase_applies_the_last_card() -> None:
    st = at(
        "abacus-ja",
        [["B2"], ["Y2", "G3"], ["B2", "Y7"]],
        ["B4"],
        0,
        draw_pile=["R1", "R3", "R5", "R7"],
    )
    do(st, 0, "play B2 stop")
    assert st.phase == "closing"
    assert reason(st, 2, "interject B2") == "closing"
    do(st, 1, "play Y2 achtung")
    do(st, 2, "accept")
    assert st.phase == "round_over" and st.totals == [0, 3, 43]


def test_S56_game_ends_at_target_with_shared_wins() -> None:
    st = at(
        "abacus-en",
        [["B1"], ["G5", "G9"], ["Y8"]],
        ["B4"],
        0,
        totals=[10, 490, 2],
        options={"target_score": 500},
    )
    do(st, 0, "play B1 stop")
    assert st.phase == "game_over" and st.winners == [0, 2]
    out = st.result()
    assert out is not None and out.winners == (0, 2) and out.ranks == (1, 3, 1)


def test_S61_offers_start_left_of_last_placer() -> None:
    hands = [["R6", "G1"], ["R9", "G3"], ["R9", "G7"], ["R6", "Y1"]]
    st = at("abacus-en", hands, ["R1"], 1)
    do(st, 1, "play R9")
    assert st.offers() == [2, 3, 0]


def test_legal_actions_carry_the_due_calls() -> None:
    st = at("abacus-en", [["B1", "B2"], ["G3"]], ["B4"], 0)
    plays = [a for a in st.legal_actions(0) if isinstance(a, Play)]
    assert all(a.calls == frozenset({"achtung"}) for a in plays)
    st = at("abacus-en", [["B1"], ["G3"]], ["B4"], 0)
    assert Play(0, st.hands[0][:1] and (st.hands[0][0],), frozenset({"stop"})) in st.legal_actions(
        0
    )
    assert st.legal_actions(1) == []
    assert Pass(0) not in st.legal_actions(0) and Interject not in st.legal_actions(0)
    assert CallAchtung(0) not in st.legal_actions(0) and CallStop(0) not in st.legal_actions(0)


def test_S25_S26_ja_exchange_obligations_and_the_exchangers_flag() -> None:
    hands = [["GExch", "B1"], ["Y3"], ["Y5", "Y6"]]
    st = at("abacus-ja", hands, ["G4"], 0)
    do(st, 0, "play GExch right achtung")
    st.close_cancel_window()
    assert st.to_json()["hands"] == [["Y3"], ["Y5", "Y6"], ["B1"]]
    assert st.to_json()["obligations"] == [{"seat": 2, "kind": "achtung", "placed": 0}]
    st = at("abacus-ja", hands, ["G4"], 0)
    do(st, 0, "play GExch right")
    assert [o.seat for o in st.obligations] == [0]
    st.close_cancel_window()
    assert [(o.seat, o.placed) for o in st.obligations] == [(0, 0), (2, 0)]
    st = at("abacus-en", hands, ["G4"], 0)
    do(st, 0, "play GExch right achtung")
    st.close_cancel_window()
    assert st.obligations == []  # en: an exchange never creates an obligation


PILE = ["R1", "R3", "R4", "R7", "R8", "B1", "B3", "B4", "B5"]


def test_Q7_last_exchange_with_stop_still_exchanges() -> None:
    st = at("abacus-ja", [["GExch"], ["Y3", "Y4"], ["R5", "R6"]], ["G4"], 0)
    do(st, 0, "play GExch left stop")
    assert st.phase == "closing" and st.offers() == []
    st.close_cancel_window()
    assert st.phase == "round_over" and st.round_scores == [14, 0, 7]


def test_Q10_the_player_out_draws_the_chained_twos() -> None:
    st = at("abacus-ja", [["G2"], ["Y2", "Y4"], ["R2", "R6"]], ["G4"], 0, draw_pile=PILE)
    do(st, 0, "play G2 stop")
    do(st, 1, "play Y2 achtung")
    do(st, 2, "play R2 achtung")
    assert st.to_json()["pending"] == {"kind": "draw2", "count": 6, "victim": 0, "colour": "R"}
    assert [type(a) for a in st.legal_actions(0)] == [Accept]
    do(st, 0, "accept")
    assert st.phase == "round_over" and st.round_scores == [24, 4, 9]


def test_Q12_last_draw_x_then_revealed_two_resolves_before_the_end() -> None:
    hands = [["GDrawX"], ["Y2", "Y4", "BSkip"], ["R5", "R6"]]
    st = at("abacus-ja", hands, ["G4"], 0, draw_pile=PILE)
    do(st, 0, "play GDrawX stop")
    do(st, 1, "accept reveal Y2")
    assert st.phase == "closing" and st.pending is not None and st.pending.victim == 2
    do(st, 2, "accept")
    assert st.phase == "round_over" and st.round_scores == [0, 18, 25]


def test_copy_is_equal_and_independent() -> None:
    st = new_game("abacus-ja", 4, seed=3)
    twin = st.copy()
    assert twin == st and twin.rng == st.rng and twin is not st
    action = twin.legal_actions(twin.turn)[0]
    twin.apply(action)
    assert twin != st and st == new_game("abacus-ja", 4, seed=3)
    assert st.view(0)["hand"] == new_game("abacus-ja", 4, seed=3).view(0)["hand"]


def test_S14_play_drawn_card_option() -> None:
    options = {"play_drawn_card": True}
    st = at("abacus-en", [["G1", "Y3"], ["G2", "G3"]], ["B4"], 0, draw_pile=["B7", "R1"],
            options=options)  # fmt: skip
    do(st, 0, "draw")
    assert st.turn == 0 and st.view(0)["drawn"] == "B7" and st.view(1)["drawn"] is None
    assert {a.notation() for a in st.legal_actions(0)} == {"play B7", "pass"}
    assert reason(st, 0, "draw") == "draw_unavailable"
    do(st, 0, "play B7")
    assert st.turn == 1 and st.drawn is None
    st = at("abacus-en", [["G1", "Y3"], ["G2", "G3"]], ["B4"], 0, draw_pile=["B7", "R1"],
            options=options)  # fmt: skip
    do(st, 0, "draw", "pass")
    assert st.turn == 1 and st.consecutive_passes == 0 and len(st.hands[0]) == 3
    st = at("abacus-en", [["G1", "Y3"], ["G2", "G3"]], ["B4"], 0, draw_pile=["R1", "B7"],
            options=options)  # fmt: skip
    do(st, 0, "draw")  # R1 cannot be played: the turn ends as usual
    assert st.turn == 1 and st.drawn is None


def test_S38_a_swap_target_that_is_no_seat_is_malformed_and_changes_nothing() -> None:
    """records.md §3: naming a seat that does not exist is malformed (RecordError, the
    server's ``malformed``), before any rule is checked, also off turn and during a cancel
    window; a target that exists but is the exchanger itself is the S-38 refusal."""
    from stoptable.core.errors import RecordError

    st = at("abacus-ja", [["RExch", "B1"], ["R2", "G3"], ["Y4", "Y5"]], ["R7"], 0)
    before = st.to_json()
    for seat, target in ((0, 3), (0, -1), (1, 9)):
        with pytest.raises(RecordError, match=f"no seat {target}"):
            st.apply(
                Play(seat, (parse_action(0, "play RExch").cards[0],), mode="swap", target=target)
            )
        assert st.to_json() == before
    assert reason(st, 0, "play RExch swap 0") == "invalid_mode"
    do(st, 0, "play RExch swap 2")  # a cancel window opens (S-40)
    assert st.pending is not None and st.pending.kind == "exchange"
    before = st.to_json()
    with pytest.raises(RecordError):
        st.apply(Play(1, (parse_action(1, "play R2").cards[0],), mode="swap", target=5))
    assert st.to_json() == before
