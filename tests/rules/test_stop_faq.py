"""Stop conformance: the FAQ rulings Q1-Q12 of [JA] under the abacus-ja ruleset (stop.md §13)."""

from __future__ import annotations

from tests.rules.stop_scenarios import (
    JA,
    accept,
    call_achtung,
    call_stop,
    cancel,
    draw,
    interject,
    ok,
    play,
    pos,
    rejected,
    run,
)

PILE = ["B5", "B7", "G8", "Y8", "G7", "Y7", "B8", "R8", "G4", "R7", "Y3", "G3"]


def test_Q1_draw_x_after_draw_x_only_when_effect_ignored() -> None:
    """Q1: right after a Draw X aimed at you only a same-colour 0 may follow; if your
    revealed hand has no number card the effect is ignored and you may then play a Draw X."""
    p = pos([["RDrawX", "G1", "G3"], ["BDrawX", "FC"], ["Y1", "Y3"]], ["R5"], 0, PILE)
    rejected(JA, p, play(0, "RDrawX"), play(1, "BDrawX"), reason="response_required")
    out = ok(run(JA, p, play(0, "RDrawX"), accept(1), play(1, "BDrawX", calls=("achtung",))))
    assert out["pending"] == {"kind": "drawx", "victim": 2, "colour": "B"}
    assert out["hands"][1] == ["FC"]
    assert out["last_reveal"] == {"seat": 1, "hand": ["BDrawX", "FC"]}


def test_Q2_card_exchange_cannot_be_interjected() -> None:
    """Q2/S-19: a Card Exchange cannot be interjected (nor Skip, Draw X, FC). The pending
    exchange is performed before the interjection is checked (records §4.4.2), so P0 then
    holds P2's RExch."""
    p = pos([["RExch", "G1", "G3"], ["B1", "B3", "B4"], ["RExch", "Y1"]], ["R5"], 0, PILE)
    out = rejected(
        JA, p, play(0, "RExch", mode="left"), interject(0, "RExch"),
        reason="symbol_not_interjectable",
    )  # fmt: skip
    assert out["hands"] == [["RExch", "Y1"], ["G1", "G3"], ["B1", "B3", "B4"]]
    assert out["pending"] is None


def test_Q3_achtung_in_time_counts() -> None:
    """Q3/S-26: Achtung may be called until the card after next has been played; a call
    made in time counts and nothing is drawn."""
    p = pos([["R1", "B1"], ["G1", "G2", "G4"], ["G5", "Y2", "Y4"]], ["R3"], 0, PILE)
    out = ok(run(JA, p, play(0, "R1"), play(1, "G1"), call_achtung(0), play(2, "G5")))
    assert out["hands"][0] == ["B1"]
    assert out["obligations"] == []
    assert out["draw_pile"] == PILE


def test_Q4_interject_on_own_card() -> None:
    """Q4/S-18: you may interject on your own card; the turn passes to your left."""
    p = pos([["B4", "B4", "G1"], ["R1", "R3"], ["Y1", "Y3"]], ["B7"], 0, PILE)
    out = ok(run(JA, p, play(0, "B4"), interject(0, "B4", ("achtung",))))
    assert out["discard"] == ["B7", "B4", "B4"]
    assert out["hands"][0] == ["G1"]
    assert out["turn"] == 1
    assert out["obligations"] == []


def test_Q5_interject_last_card_with_stop() -> None:
    """Q5/S-18/S-27: play B4 calling Achtung, then interject the last B4 calling Stop:
    the round ends."""
    p = pos([["B4", "B4"], ["R1", "R3"], ["Y1", "Y3"]], ["B7"], 0, PILE)
    out = ok(
        run(
            JA,
            p,
            play(0, "B4", calls=("achtung",)),
            interject(0, "B4", ("stop",)),
        )
    )
    assert out["phase"] == "round_over"
    assert out["round_scores"] == [0, 4, 4]
    assert out["discard"] == ["B7", "B4", "B4"]


def test_Q6_lone_free_choice_cannot_be_played() -> None:
    """Q6/S-45: a last FC cannot be played alone; draw instead."""
    p = pos([["FC"], ["R1", "R3"], ["Y1", "Y3"]], ["B7"], 0, PILE)
    rejected(JA, p, play(0, "FC", calls=("stop",)), reason="fc_needs_colour_card")
    out = ok(run(JA, p, draw(0)))
    assert out["hands"][0] == ["B5", "FC"]
    assert out["turn"] == 1


Q7 = pos([["RExch"], ["R0", "B1", "B3"], ["Y1", "Y3"]], ["R5"], 0, PILE)


def test_Q7_A27_last_exchange_with_stop_still_exchanges() -> None:
    """Q7/S-52/S-41/A-27: a last Card Exchange with Stop ends the round, but the exchange
    still happens and the player who went out takes cards, which are scored."""
    out = ok(run(JA, Q7, play(0, "RExch", calls=("stop",), mode="swap", target=1)))
    assert out["phase"] == "round_over"
    assert out["hands"] == [["R0", "B1", "B3"], [], ["Y1", "Y3"]]
    assert out["round_scores"] == [4, 0, 4]


def test_Q7_S52_closing_exchange_may_be_cancelled() -> None:
    """S-52: the closing phase allows every response, a cancel included (here by the swap
    target): no exchange, and the round ends."""
    out = ok(run(JA, Q7, play(0, "RExch", calls=("stop",), mode="swap", target=1), cancel(1, "R0")))
    assert out["phase"] == "round_over"
    assert out["hands"] == [[], ["B1", "B3"], ["Y1", "Y3"]]
    assert out["round_scores"] == [0, 4, 4]


def test_Q7_Q8_without_stop_play_continues() -> None:
    """Q7: without Stop play continues. Q8/S-29: the player who received the empty hand
    has not gone out; on their turn they draw and must call Achtung at 1 card."""
    swap = play(0, "RExch", mode="swap", target=1)
    out = ok(run(JA, Q7, swap))
    assert out["phase"] == "playing"
    assert out["hands"] == [["R0", "B1", "B3"], [], ["Y1", "Y3"]]
    assert out["obligations"] == []
    assert out["turn"] == 1
    out = ok(run(JA, Q7, swap, draw(1)))
    assert out["hands"][1] == ["B5"]
    assert out["obligations"] == [{"seat": 1, "kind": "achtung", "placed": 0}]
    out = ok(run(JA, Q7, swap, draw(1, ("achtung",))))
    assert out["obligations"] == []
    assert out["turn"] == 2


def test_Q9_late_stop_window_then_play_continues() -> None:
    """Q9/S-28: a Stop is needed to end the round; without it by the card after next the
    round continues, the call is refused and the empty-handed player draws on their turn."""
    p = pos([["R5"], ["R1", "B1", "G1"], ["R3", "B3", "G3"]], ["R4"], 0, PILE)
    events = (play(0, "R5"), play(1, "R1"), play(2, "R3"))
    out = rejected(JA, p, *events, call_stop(0), reason="window_closed")
    assert out["phase"] == "playing"
    out = ok(run(JA, p, *events, draw(0, ("achtung",))))
    assert out["hands"][0] == ["B5"]
    assert out["phase"] == "playing"
    out = ok(run(JA, p, play(0, "R5"), play(1, "R1"), call_stop(0)))
    assert out["hands"][1] == ["R1", "B1", "G1"]
    assert out["phase"] == "round_over"


Q10 = pos(
    [["R2"], ["B2", "Y4"], ["G2", "G1", "G3"], ["Y2", "B2", "R1", "R4"]],
    ["R3"],
    0,
    ["B5", "B7", "G8", "Y8", "G7", "Y7", "B8", "R8", "G4", "R7", "Y3"],
)


def test_Q10_S52_A27_went_out_player_draws_eight() -> None:
    """Q10/S-52/S-33/A-27: a last 2 with Stop, then 2s chained by the other three: the
    player who went out cannot defend, draws 8, and the round ends; those cards are
    scored. An Achtung obligation that fails in the closing phase is still penalised."""
    chain = (play(0, "R2", calls=("stop",)), play(1, "B2"), play(2, "G2"), play(3, "Y2"))
    out = ok(run(JA, Q10, *chain))
    assert out["phase"] == "closing"
    assert out["pending"] == {"kind": "draw2", "count": 8, "victim": 0, "colour": "Y"}
    assert out["hands"][1] == ["B5", "B7", "Y4"]  # failed Achtung: drew 2
    out = ok(run(JA, Q10, *chain, accept(0)))
    assert out["phase"] == "round_over"
    assert out["hands"][0] == ["R7", "R8", "B8", "G4", "G7", "G8", "Y7", "Y8"]
    assert out["round_scores"] == [57, 16, 4, 25]
    assert out["draw_pile"] == ["Y3"]


def test_Q11_no_interjection_after_stop() -> None:
    """Q11/S-22: in that situation no 2 can be interjected once Stop has been called."""
    rejected(
        JA, Q10, play(0, "R2", calls=("stop",)), play(1, "B2"), interject(3, "B2"),
        reason="closing",
    )  # fmt: skip


def test_Q12_last_draw_x_reveal_two_continues_until_resolved() -> None:
    """Q12/S-44/S-52: a last Draw X with Stop; the victim reveals and plays a 2: the victim
    draws 2, and play continues until the Draw Two is resolved."""
    p = pos([["RDrawX"], ["B2", "B1", "BSkip"], ["Y1", "Y3"]], ["R5"], 0, PILE)
    events = (play(0, "RDrawX", calls=("stop",)), accept(1, reveal_play="B2"))
    out = ok(run(JA, p, *events))
    assert out["phase"] == "closing"
    assert out["hands"][1] == ["B1", "B5", "B7", "BSkip"]
    assert out["pending"] == {"kind": "draw2", "count": 2, "victim": 2, "colour": "B"}
    out = ok(run(JA, p, *events, accept(2)))
    assert out["phase"] == "round_over"
    assert out["hands"][2] == ["G8", "Y1", "Y3", "Y8"]
    assert out["round_scores"] == [0, 1 + 5 + 7 + 10, 8 + 1 + 3 + 8]
