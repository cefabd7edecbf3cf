"""Stop conformance: interjection (Dazwischenwerfen, S-18..S-23, S-61, A-28)."""

from __future__ import annotations

from tests.rules.stop_scenarios import (
    EN,
    JA,
    deck_with,
    interject,
    ok,
    play,
    pos,
    rejected,
    run,
)
from tests.support import replay

FOUR = pos(
    [["B4", "G1", "G3"], ["R1", "R3"], ["B4", "Y1", "Y3"], ["Y4", "Y7"]], ["B7"], 0, ["G5", "G7"]
)


def test_S18_S20_interjection_out_of_turn_skips_players() -> None:
    """S-18: any player may place a number card identical to the top card out of turn;
    S-20: the turn passes to left(interjector), players in between lose their turn."""
    for ruleset in (EN, JA):
        out = ok(run(ruleset, FOUR, play(0, "B4"), interject(2, "B4")))
        assert out["discard"] == ["B7", "B4", "B4"]
        assert out["hands"][2] == ["Y1", "Y3"]
        assert out["turn"] == 3
        assert out["pending"] is None


def test_S18_player_on_turn_may_interject() -> None:
    """S-18: this includes the player whose turn it is."""
    position = pos(
        [["B4", "G1", "G3"], ["B4", "R3", "Y8"], ["Y1", "Y3"], ["Y5", "Y7"]], ["B7"], 0, ["G5"]
    )
    out = ok(run(EN, position, play(0, "B4"), interject(1, "B4")))
    assert out["turn"] == 2
    assert out["hands"][1] == ["R3", "Y8"]


def test_S18_A5_interject_on_starter_before_dealer_acts() -> None:
    """S-18 {interject_on_starter=true}/A-5: interjecting onto the starter is allowed
    before the dealer acts, and the interjected card's own effect applies."""
    # 3 seats, dealer 0: deck[0] goes to P1; the starter is deck[21].
    front = ["R2", "G1", "B1", "R7", "G3", "B3", "Y1", "G4", "B4", "Y3", "G5", "B5"]
    front += ["Y4", "G7", "B7", "Y5", "G8", "B8", "Y7", "Y8", "B9", "R2"]
    deck = deck_with(front)
    out = ok(
        replay(
            {"game": "stop", "ruleset": EN, "seats": 3, "deck": deck},
            interject(1, "R2"),
        )
    )
    assert out["discard"] == ["R2", "R2"]
    assert out["hands"][1] == ["R7", "Y1", "Y3", "Y4", "Y5", "Y7"]
    assert out["pending"] == {"kind": "draw2", "count": 2, "victim": 2, "colour": "R"}
    assert out["turn"] == 2


def test_S19_symbol_cards_cannot_be_interjected() -> None:
    """S-19: symbol cards (Skip, Card Exchange, Draw X, FC) can never be interjected, and
    nothing can be interjected on a symbol card."""
    for card, top in (("RSkip", "RSkip"), ("RExch", "RExch"), ("RDrawX", "RDrawX")):
        position = pos([["G1", "G3"], [card, "Y1"]], ["B3", top], 0, ["G5"])
        rejected(EN, position, interject(1, card), reason="symbol_not_interjectable")
    position = pos([["G1", "G3"], ["FC", "R5"]], ["R5"], 0, ["G5"])
    rejected(JA, position, interject(1, "FC"), reason="symbol_not_interjectable")
    # Nothing on a symbol card: this check precedes not_identical (records §4.6).
    position = pos([["G1", "G3"], ["R5", "Y1"]], ["RSkip"], 0, ["G5"])
    rejected(EN, position, interject(1, "R5"), reason="symbol_not_interjectable")


def test_S21_interjected_zero_has_no_effect() -> None:
    """S-21: an interjected card has its normal effect; an interjected 0 has none."""
    position = pos([["R0", "G1", "G3"], ["B1", "B3"], ["R0", "Y1", "Y3"]], ["R3"], 0, ["G5"])
    out = ok(run(EN, position, play(0, "R0"), interject(2, "R0")))
    assert out["pending"] is None
    assert out["turn"] == 0
    assert out["discard"] == ["R3", "R0", "R0"]


def test_S22_A25_no_interjection_after_stop_en() -> None:
    """S-22/A-25 (en): once the round ended instantly (S-51), interjection is rejected
    with round_over."""
    position = pos([["R5"], ["R5", "G1"], ["Y1", "Y3"]], ["R3"], 0, ["G5"])
    out = rejected(
        EN, position, play(0, "R5", calls=("stop",)), interject(1, "R5"), reason="round_over"
    )
    assert out["phase"] == "round_over"


def test_S22_no_interjection_in_closing_phase_ja() -> None:
    """S-22 (ja): once the closing phase has started (S-52, FAQ Q11), interjection is
    rejected with closing."""
    position = pos([["R2"], ["G1", "G3"], ["R2", "Y1", "Y3"]], ["R3"], 0, ["G5", "G7", "B1"])
    out = rejected(
        JA, position, play(0, "R2", calls=("stop",)), interject(2, "R2"), reason="closing"
    )
    assert out["phase"] == "closing"
    assert out["pending"] == {"kind": "draw2", "count": 2, "victim": 1, "colour": "R"}


def test_S23_A28_successive_interjections_checked_at_processing() -> None:
    """S-23/A-28: each interjection is checked when processed: a R9 after R6 after R6 is
    still identical (6≡9) and valid; the turn follows the last interjector."""
    position = pos(
        [["R6", "G1", "G3"], ["R9", "Y1"], ["R6", "Y3"], ["R9", "Y4", "Y5"]], ["R3"], 0, ["G5"]
    )
    ach = ("achtung",)
    out = ok(run(EN, position, play(0, "R6"), interject(2, "R6", ach), interject(1, "R9", ach)))
    assert out["discard"] == ["R3", "R6", "R6", "R9"]
    assert out["turn"] == 2
    out = ok(
        run(EN, position, play(0, "R6"), interject(2, "R6"), interject(1, "R9"), interject(3, "R9"))
    )
    assert out["turn"] == 0
    assert out["hands"][3] == ["Y4", "Y5"]


def test_S23_not_identical() -> None:
    """S-18/S-23: same number other colour is not identical; and after the top card has
    changed, a formerly identical card no longer is."""
    rejected(EN, FOUR, play(0, "B4"), interject(3, "Y4"), reason="not_identical")
    position = pos(
        [["B4", "G1", "G3"], ["B7", "R3"], ["B4", "Y1", "Y3"], ["Y5", "Y7"]], ["B1"], 0, ["G5"]
    )
    rejected(EN, position, play(0, "B4"), play(1, "B7"), interject(2, "B4"), reason="not_identical")


def test_S61_A28_untaken_offer_is_declined() -> None:
    """S-61/records §4.4.1: offers are not written; an interjection the record does not
    take is declined, and after the next placement it is too late (A-28)."""
    position = pos([["R6", "G1", "G3"], ["R9", "R1", "Y8"], ["Y1", "Y3"]], ["R3"], 0, ["G5"])
    out = rejected(
        EN, position, play(0, "R6"), play(1, "R1"), interject(1, "R9"), reason="not_identical"
    )
    assert out["turn"] == 2
    assert out["discard"] == ["R3", "R6", "R1"]


def test_S61_record_order_is_arbitration_order() -> None:
    """S-61/S-23/records §3: events are applied in file order: the first of two
    interjectors listed wins the turn order, the second interjects on the new top card."""
    position = pos(
        [["R6", "G1", "G3"], ["R9", "Y1", "Y8"], ["R6", "Y3", "Y4"], ["Y5"]], ["R3"], 0, ["G5"]
    )
    out = ok(run(EN, position, play(0, "R6"), interject(2, "R6"), interject(1, "R9")))
    assert out["turn"] == 2
    out = ok(run(EN, position, play(0, "R6"), interject(1, "R9"), interject(2, "R6")))
    assert out["turn"] == 3
