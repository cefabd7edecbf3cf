"""Stop conformance: calls Achtung and Stop, windows, late Stop, empty hands (S-24..S-29)."""

from __future__ import annotations

from tests.rules.stop_scenarios import (
    EN,
    JA,
    accept,
    call_achtung,
    call_stop,
    draw,
    interject,
    ok,
    play,
    pos,
    rejected,
    run,
)

DRAW = ["B5", "B7", "G8", "Y8", "G7"]


def ach(seat: int, placed: int) -> dict[str, object]:
    return {"seat": seat, "kind": "achtung", "placed": placed}


def late(seat: int, placed: int) -> dict[str, object]:
    return {"seat": seat, "kind": "late_stop", "placed": placed}


def test_S24_A29_unneeded_flags_are_ignored() -> None:
    """S-24/A-29: a flag that is not needed is ignored and never penalised."""
    position = pos([["R1", "R4", "B1"], ["G1", "G2"], ["Y1", "Y2"]], ["R3"], 0, list(DRAW))
    for ruleset in (EN, JA):
        out = ok(run(ruleset, position, play(0, "R1", calls=("achtung", "stop"))))
        assert out["hands"][0] == ["R4", "B1"]
        assert out["draw_pile"] == DRAW
        assert out["phase"] == "playing"
        assert out["obligations"] == []


def test_S24_standalone_calls_need_a_window() -> None:
    """S-24/S-58: standalone calls exist only with call_window_cards > 0 (en: rejected
    with window_closed); in ja they need an open obligation of that kind."""
    position = pos([["R1", "R4", "B1"], ["G1", "G2"], ["Y1", "Y2"]], ["R3"], 0, list(DRAW))
    rejected(EN, position, call_achtung(0), reason="window_closed")
    rejected(EN, position, call_stop(0), reason="window_closed")
    rejected(JA, position, call_achtung(0), reason="window_closed")
    rejected(JA, position, call_stop(1), reason="window_closed")


def test_S25_S26_en_missed_achtung_draws_two() -> None:
    """S-25 {play_second_to_last} / S-26 {call_window_cards=0} (en): a placement leaving
    exactly 1 card needs an achtung flag; without it the player draws 2 at once."""
    position = pos([["R1", "B1"], ["G1", "G2"], ["Y1", "Y2"]], ["R3"], 0, list(DRAW))
    out = ok(run(EN, position, play(0, "R1")))
    assert out["hands"][0] == ["B1", "B5", "B7"]
    assert out["draw_pile"] == DRAW[2:]
    assert out["obligations"] == []
    out = ok(run(EN, position, play(0, "R1", calls=("achtung",))))
    assert out["hands"][0] == ["B1"]
    assert out["draw_pile"] == DRAW


def test_S25_en_interjection_leaving_one_card_needs_achtung() -> None:
    """S-25 (en): the trigger is any own placement action, interjections included."""
    position = pos([["R4", "G1", "G3"], ["R4", "B1"], ["Y1", "Y2"]], ["R3"], 0, list(DRAW))
    out = ok(run(EN, position, play(0, "R4"), interject(1, "R4")))
    assert out["hands"][1] == ["B1", "B5", "B7"]
    assert out["turn"] == 2
    out = ok(run(EN, position, play(0, "R4"), interject(1, "R4", calls=("achtung",))))
    assert out["hands"][1] == ["B1"]


def test_S25_A21_ja_obligation_window_opens() -> None:
    """S-25 {hand_becomes_one} / S-26 {call_window_cards=2} (ja): no penalty at once; an
    obligation with a placement counter opens (records §4.5 obligations)."""
    position = pos([["R1", "B1"], ["G1", "G2", "G4"], ["R5", "Y2", "Y4"]], ["R3"], 0, list(DRAW))
    out = ok(run(JA, position, play(0, "R1")))
    assert out["hands"][0] == ["B1"]
    assert out["obligations"] == [ach(0, 0)]
    out = ok(run(JA, position, play(0, "R1"), play(1, "G1")))
    assert out["obligations"] == [ach(0, 1)]
    assert out["hands"][0] == ["B1"]


def test_S26_A22_ja_obligation_fails_at_second_placement() -> None:
    """S-26 (i): the obligation fails, and the player draws 2 at that moment, at the
    action that brings the cards placed since it arose to 2."""
    position = pos([["R1", "B1"], ["G1", "G2", "G4"], ["G5", "Y2", "Y4"]], ["R3"], 0, list(DRAW))
    out = ok(run(JA, position, play(0, "R1"), play(1, "G1"), play(2, "G5")))
    assert out["hands"][0] == ["B1", "B5", "B7"]
    assert out["draw_pile"] == DRAW[2:]
    assert out["obligations"] == []


def test_S26_ja_flag_on_triggering_action_discharges() -> None:
    """S-26 (ja): an achtung flag on the triggering action discharges the obligation."""
    position = pos([["R1", "B1"], ["G1", "G2", "G4"], ["G5", "Y2", "Y4"]], ["R3"], 0, list(DRAW))
    out = ok(run(JA, position, play(0, "R1", calls=("achtung",)), play(1, "G1"), play(2, "G5")))
    assert out["hands"][0] == ["B1"]
    assert out["obligations"] == []
    assert out["draw_pile"] == DRAW


def test_S26_ja_last_card_without_achtung_fails_and_ignores_stop() -> None:
    """S-26 (ii): placing your last card without an achtung flag while the obligation is
    open fails it: you draw 2, have not gone out, and the stop flag is ignored."""
    position = pos(
        [["R5"], ["G1", "G2", "G4"], ["G5", "Y2", "Y4"]],
        ["R3"],
        0,
        list(DRAW),
        obligations=[ach(0, 0)],
    )
    out = ok(run(JA, position, play(0, "R5", calls=("stop",))))
    assert out["hands"][0] == ["B5", "B7"]
    assert out["phase"] == "playing"
    assert out["obligations"] == []
    assert out["turn"] == 1
    assert out["round_scores"] is None


def test_S26_ja_obligation_lapses_when_hand_grows() -> None:
    """S-26: the obligation lapses without penalty if your hand stops being exactly 1 card
    for another reason, e.g. you draw."""
    position = pos(
        [["R5"], ["G1", "G2", "G4"], ["G5", "Y2", "Y4"]],
        ["G3"],
        0,
        list(DRAW),
        obligations=[ach(0, 0)],
    )
    out = ok(run(JA, position, draw(0), play(1, "G1"), play(2, "G5")))
    assert out["hands"][0] == ["R5", "B5"]
    assert out["obligations"] == []
    assert out["draw_pile"] == DRAW[1:]


def test_S25_Q8_ja_draw_to_one_card_creates_obligation() -> None:
    """S-25 {hand_becomes_one}, S-29, FAQ Q8: a player with 0 cards (not out) draws on
    their turn, which is always allowed, and must call Achtung at 1 card."""
    position = pos([[], ["G1", "G2", "G4"], ["G5", "Y2", "Y4"]], ["G3"], 0, list(DRAW))
    out = ok(run(JA, position, draw(0)))
    assert out["hands"][0] == ["B5"]
    assert out["obligations"] == [ach(0, 0)]
    assert out["turn"] == 1
    out = ok(run(JA, position, draw(0, calls=("achtung",))))
    assert out["obligations"] == []
    out = ok(run(JA, position, draw(0), play(1, "G1"), play(2, "G5")))
    assert out["hands"][0] == ["B5", "B7", "G8"]


def test_S27_en_stop_flag_ends_round_immediately() -> None:
    """S-27/S-50(a)/S-51: in en a last card placed with stop ends the round at once and
    every other hand is scored."""
    position = pos([["R5"], ["G1", "G2"], ["Y5", "Y8"]], ["R3"], 0, list(DRAW))
    out = ok(run(EN, position, play(0, "R5", calls=("stop",))))
    assert out["phase"] == "round_over"
    assert out["round_scores"] == [0, 21, 13]
    assert out["totals"] == [0, 21, 13]
    assert out["hands"][0] == []
    assert out["turn"] is None
    assert out["pending"] is None


def test_S27_A23_en_missed_stop_draws_two_and_effect_resolves() -> None:
    """S-27 {missed_stop_penalty=2} (en): without the flag the player draws 2, play goes
    on and the card's effect resolves normally (after the penalty, S-60)."""
    position = pos([["R2"], ["G1", "G3"], ["Y5", "Y8"]], ["R3"], 0, list(DRAW))
    out = ok(run(EN, position, play(0, "R2")))
    assert out["hands"][0] == ["B5", "B7"]
    assert out["phase"] == "playing"
    assert out["pending"] == {"kind": "draw2", "count": 2, "victim": 1, "colour": "R"}
    assert out["turn"] == 1
    out = ok(run(EN, position, play(0, "R2"), accept(1)))
    assert out["hands"][1] == ["G1", "G3", "G8", "Y8"]


def test_S27_A23_ja_missed_stop_no_penalty_late_stop_window() -> None:
    """S-27 {missed_stop_penalty=0} (ja): the player holds 0 cards, play continues, and a
    late-Stop window opens (records §4.5: late_stop obligation)."""
    position = pos([["R5"], ["G1", "G3"], ["Y5", "Y8"]], ["R3"], 0, list(DRAW))
    out = ok(run(JA, position, play(0, "R5")))
    assert out["hands"][0] == []
    assert out["phase"] == "playing"
    assert out["obligations"] == [late(0, 0)]
    assert out["turn"] == 1
    assert out["draw_pile"] == DRAW


def test_S28_late_stop_takes_back_cards_and_ends_round() -> None:
    """S-28 (FAQ Q9): within the window, call_stop returns every card placed since the
    last card to its placer, and the round ends at once without a closing phase."""
    position = pos([["R5"], ["R1", "B1", "G1"], ["R3", "B3"]], ["R4"], 0, list(DRAW))
    out = ok(run(JA, position, play(0, "R5"), play(1, "R1")))
    assert out["obligations"] == [late(0, 1)]
    out = ok(run(JA, position, play(0, "R5"), play(1, "R1"), call_stop(0)))
    assert out["phase"] == "round_over"
    assert out["hands"][1] == ["R1", "B1", "G1"]
    assert out["discard"] == ["R4", "R5"]
    assert out["round_scores"] == [0, 3, 6]
    assert out["obligations"] == []


def test_S28_late_stop_discards_pending_effect_keeps_drawn_cards() -> None:
    """S-28: a pending effect is discarded, an extending 2 goes back to its placer, and
    cards drawn in the meantime stay where they are."""
    position = pos([["R2"], ["B2", "B1"], ["G3", "G4"]], ["R4"], 0, list(DRAW))
    out = ok(run(JA, position, play(0, "R2"), play(1, "B2"), call_stop(0)))
    assert out["phase"] == "round_over"
    assert out["pending"] is None
    assert out["hands"][1] == ["B1", "B2"]
    assert out["discard"] == ["R4", "R2"]
    assert out["round_scores"] == [0, 21, 7]
    out = ok(run(JA, position, play(0, "R2"), accept(1), call_stop(0)))
    assert out["phase"] == "round_over"
    assert out["hands"][1] == ["B1", "B2", "B5", "B7"]
    assert out["round_scores"] == [0, 33, 7]


def test_S28_late_stop_window_closes_after_two_placements() -> None:
    """S-28: once 2 cards have been placed since the last card, call_stop is rejected and
    the late_stop entry is gone."""
    position = pos([["R5"], ["R1", "B1", "G1"], ["R3", "B3", "G3"]], ["R4"], 0, list(DRAW))
    out = rejected(
        JA, position, play(0, "R5"), play(1, "R1"), play(2, "R3"), call_stop(0),
        reason="window_closed",
    )  # fmt: skip
    assert out["obligations"] == []
    assert out["phase"] == "playing"
    assert out["hands"][0] == []


def test_S29_A26_empty_hand_victim_accepts_and_plays_on() -> None:
    """S-29: a player with 0 cards who has not gone out takes part: as a victim they
    accept (ja Draw Two: then a normal turn, S-33 c)."""
    position = pos([[], ["G1", "G3"], ["R2", "Y5", "Y8"]], ["R4"], 2, list(DRAW))
    out = ok(run(JA, position, play(2, "R2"), accept(0)))
    assert out["hands"][0] == ["B5", "B7"]
    assert out["turn"] == 0
    assert out["pending"] is None
    assert out["obligations"] == []
