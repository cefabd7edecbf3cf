"""Stop conformance: Draw X (flip and reveal-and-play) and Free Choice (S-42..S-47,
A-18..A-20, A-31, A-36, A-37)."""

from __future__ import annotations

from tests.rules.stop_scenarios import (
    EN,
    JA,
    accept,
    canon,
    draw,
    interject,
    ok,
    play,
    pos,
    rejected,
    run,
    shuffle,
)

PILE = ["R1", "R3", "R4", "R7", "R8", "G4", "G5", "G7", "G8", "Y7", "Y8", "B7", "B8"]


def dx(draw_pile: list[str], victim_hand: list[str] | None = None) -> dict[str, object]:
    hand = victim_hand if victim_hand is not None else ["B1", "B3", "YDrawX"]
    return pos([["RDrawX", "G1", "G3"], hand, ["Y1", "Y3"]], ["R5"], 0, draw_pile)


def test_S42_draw_x_is_aimed_at_left() -> None:
    """S-42: a Draw X starts a pending Draw X aimed at left(placer)."""
    out = ok(run(EN, dx(PILE), play(0, "RDrawX")))
    assert out["pending"] == {"kind": "drawx", "victim": 1, "colour": "R"}
    assert out["turn"] == 1


def test_S42_A19_no_draw_x_on_draw_x() -> None:
    """S-42 {draw_x_stacking=false}/A-19: a Draw X may not be answered with a Draw X (a
    non-response, S-35)."""
    for ruleset in (EN, JA):
        rejected(
            ruleset, dx(PILE), play(0, "RDrawX"), play(1, "YDrawX"), reason="response_required"
        )


def test_S43_A18_flip_number_card() -> None:
    """S-43 {draw_x_mode=flip} (en): the victim turns over the top card; a number card of
    value v: v more cards plus the turned card; the victim loses the turn; the turned
    card never reaches the discard pile."""
    pile = ["B4", "R7", "R8", "G5", "G7", "Y5", "Y7"]
    out = ok(run(EN, dx(pile), play(0, "RDrawX"), accept(1)))
    assert out["hands"][1] == ["R7", "R8", "B1", "B3", "B4", "G5", "G7", "YDrawX"]
    assert out["draw_pile"] == ["Y5", "Y7"]
    assert out["discard"] == ["R5", "RDrawX"]
    assert out["pending"] is None
    assert out["turn"] == 2


def test_S43_flip_symbol_and_zero() -> None:
    """S-43: a turned symbol card (FC included) is taken alone; a turned 0 is worth 0."""
    for turned in ("GSkip", "FC", "B0"):
        out = ok(run(EN, dx([turned, "R7", "R8"]), play(0, "RDrawX"), accept(1)))
        assert out["hands"][1] == canon(["B1", "B3", "YDrawX", turned])
        assert out["draw_pile"] == ["R7", "R8"]
        assert out["turn"] == 2


def test_S43_flip_two_draws_two() -> None:
    """S-43: "Values: 0→0, 2→2" — a turned 2 means 2 more cards (not its score 20), and
    the turned 2 has no effect."""
    pile = ["G2", "R7", "R8", "G5", "G7"]
    out = ok(run(EN, dx(pile), play(0, "RDrawX"), accept(1)))
    assert out["hands"][1] == ["R7", "R8", "B1", "B3", "G2", "YDrawX"]
    assert out["draw_pile"] == ["G5", "G7"]
    assert out["pending"] is None
    assert out["turn"] == 2


def test_S43_S4_flip_six_nine_value() -> None:
    """S-43/S-4 {six_nine_value}: a turned 6 is worth 6 under face (en) and 9 under nine."""
    pile = ["B6", *PILE]
    out = ok(run(EN, dx(pile), play(0, "RDrawX"), accept(1)))
    assert len(out["hands"][1]) == 3 + 7
    assert out["draw_pile"] == PILE[6:]
    out = ok(run(EN, dx(pile), play(0, "RDrawX"), accept(1), options={"six_nine_value": "nine"}))
    assert len(out["hands"][1]) == 3 + 10
    assert out["draw_pile"] == PILE[9:]


def test_S43_S15_A34_flip_reshuffles_and_lapses() -> None:
    """S-43/S-15: the flip reshuffles if needed; S-17/A-34: what cannot be drawn lapses,
    and the en Draw X skip still applies."""
    position = dx([])
    out = ok(run(EN, position, play(0, "RDrawX"), shuffle(["R5"]), accept(1)))
    assert out["hands"][1] == ["R5", "B1", "B3", "YDrawX"]
    assert out["draw_pile"] == []
    assert out["discard"] == ["RDrawX"]
    assert out["turn"] == 2


def test_S43_flip_with_nothing_to_turn() -> None:
    """S-43: if no card can be turned (S-17), the victim takes nothing and loses the turn;
    records §4.2: a position may start with a pending Draw X."""
    position = pos(
        [["G1", "G3"], ["B1", "B3"], ["Y1", "Y3"]],
        ["RDrawX"],
        1,
        [],
        pending={"kind": "drawx", "victim": 1, "colour": "R"},
    )
    out = ok(run(EN, position, accept(1)))
    assert out["hands"][1] == ["B1", "B3"]
    assert out["pending"] is None
    assert out["turn"] == 2


REVEAL = ["B0", "B2", "B4", "BSkip", "Y6"]


def test_S44_S63_A36_reveal_and_play() -> None:
    """S-44 {draw_x_mode=reveal_and_play} (ja): the victim reveals the hand (public,
    S-63/A-36: last_reveal), places a chosen number card of any colour and draws its
    value; then the turn passes to left(victim)."""
    out = ok(run(JA, dx(PILE, REVEAL), play(0, "RDrawX"), accept(1, reveal_play="B4")))
    assert out["last_reveal"] == {"seat": 1, "hand": REVEAL}
    assert out["discard"] == ["R5", "RDrawX", "B4"]
    assert out["hands"][1] == ["R1", "R3", "R4", "R7", "B0", "B2", "BSkip", "Y6"]
    assert out["draw_pile"] == PILE[4:]
    assert out["pending"] is None
    assert out["turn"] == 2


def test_S44_S4_A3_reveal_six_counts_nine_ja() -> None:
    """S-44/S-4 {six_nine_value=nine}/A-3: a revealed 6 makes the victim draw 9 in ja."""
    out = ok(run(JA, dx(PILE, REVEAL), play(0, "RDrawX"), accept(1, reveal_play="Y6")))
    assert len(out["hands"][1]) == 4 + 9
    assert out["draw_pile"] == PILE[9:]
    assert out["discard"][-1] == "Y6"


def test_S44_A37_reveal_two_aims_draw_two() -> None:
    """S-44/A-37: a revealed 2 draws 2 and its own effect applies: a Draw Two against
    left(victim)."""
    out = ok(run(JA, dx(PILE, REVEAL), play(0, "RDrawX"), accept(1, reveal_play="B2")))
    assert out["pending"] == {"kind": "draw2", "count": 2, "victim": 2, "colour": "B"}
    assert out["turn"] == 2
    assert out["hands"][1] == ["R1", "R3", "B0", "B4", "BSkip", "Y6"]


def test_S44_A37_reveal_zero_draws_nothing() -> None:
    """A-37: any number card may be chosen, including a 0 (draw 0)."""
    out = ok(run(JA, dx(PILE, REVEAL), play(0, "RDrawX"), accept(1, reveal_play="B0")))
    assert out["hands"][1] == ["B2", "B4", "BSkip", "Y6"]
    assert out["draw_pile"] == PILE
    assert out["turn"] == 2
    assert out["pending"] is None


def test_S44_reveal_play_must_be_a_held_number_card() -> None:
    """S-44/records §4.6: reveal_play missing while holding a number card, or a symbol
    card, is not_a_number_card; a card not in hand is not_in_hand."""
    base = (play(0, "RDrawX"),)
    rejected(JA, dx(PILE, REVEAL), *base, accept(1), reason="not_a_number_card")
    rejected(
        JA, dx(PILE, REVEAL), *base, accept(1, reveal_play="BSkip"), reason="not_a_number_card"
    )
    rejected(JA, dx(PILE, REVEAL), *base, accept(1, reveal_play="R9"), reason="not_in_hand")


def test_S44_Q1_A19_no_number_card_effect_ignored() -> None:
    """S-44/FAQ Q1: with no number card the effect is ignored and the victim takes a
    normal turn, in which they may play a Draw X on the Draw X."""
    hand = ["BSkip", "BDrawX", "FC"]
    out = ok(run(JA, dx(PILE, hand), play(0, "RDrawX"), accept(1)))
    assert out["last_reveal"] == {"seat": 1, "hand": hand}
    assert out["pending"] is None
    assert out["turn"] == 1
    assert out["hands"][1] == hand
    out = ok(run(JA, dx(PILE, hand), play(0, "RDrawX"), accept(1), play(1, "BDrawX")))
    assert out["pending"] == {"kind": "drawx", "victim": 2, "colour": "B"}


def test_S44_calls_judged_after_drawing() -> None:
    """S-44: calls are judged on the hand after drawing (here en calls with the
    reveal_and_play option): B1 leaves 1 card then draws 1, so no Achtung is due; B0
    leaves 1 card and draws none, so a missing Achtung costs 2 cards."""
    opts = {"draw_x_mode": "reveal_and_play"}
    out = ok(run(EN, dx(PILE, ["B1", "BSkip"]), play(0, "RDrawX"), accept(1, "B1"), options=opts))
    assert out["hands"][1] == ["R1", "BSkip"]
    out = ok(run(EN, dx(PILE, ["B0", "BSkip"]), play(0, "RDrawX"), accept(1, "B0"), options=opts))
    assert out["hands"][1] == ["R1", "R3", "BSkip"]
    out = ok(
        run(
            EN,
            dx(PILE, ["B0", "BSkip"]),
            play(0, "RDrawX"),
            accept(1, "B0", ("achtung",)),
            options=opts,
        )
    )
    assert out["hands"][1] == ["BSkip"]


FCS = pos(
    [["FC", "FC", "Y7", "RSkip", "RExch"], ["B1", "B3", "R0", "FC"], ["G1", "G3"]], ["R3"], 0, PILE
)


def test_S45_A20_free_choice_pair_on_any_card() -> None:
    """S-45/A-20: an FC plus one coloured card (no matching needed) is one action; the
    second card names the colour and is the new top card (S-46)."""
    out = ok(run(EN, FCS, play(0, "FC", "Y7")))
    assert out["discard"] == ["R3", "FC", "Y7"]
    assert out["hands"][0] == ["RSkip", "RExch", "FC"]
    assert out["turn"] == 1
    assert out["pending"] is None


def test_S45_Q6_free_choice_needs_a_coloured_card() -> None:
    """S-45/FAQ Q6: a lone FC, or FC on FC, cannot be played."""
    rejected(EN, FCS, play(0, "FC"), reason="fc_needs_colour_card")
    rejected(EN, FCS, play(0, "FC", "FC"), reason="fc_needs_colour_card")


def test_S45_A20_free_choice_not_a_response() -> None:
    """S-45 {free_choice_as_response=false}/A-20: an FC pair is no response to a pending
    effect, and an FC cannot be interjected."""
    rejected(EN, FCS, play(0, "RSkip"), play(1, "FC", "R0"), reason="response_required")
    position = pos([["G1", "G3"], ["B1", "B3", "FC"]], ["FC", "R3"], 0, PILE)
    rejected(EN, position, interject(1, "FC"), reason="symbol_not_interjectable")


def test_S46_second_card_effect_applies() -> None:
    """S-46 {free_choice_second_effect=true}: the second card counts as played, its effect
    applies and a Card Exchange mode is declared with it."""
    out = ok(run(EN, FCS, play(0, "FC", "RSkip")))
    assert out["pending"] == {"kind": "skip", "count": 1, "victim": 1, "colour": "R"}
    out = ok(run(EN, FCS, play(0, "FC", "RExch", mode="right")))
    assert out["hands"] == [["R0", "B1", "B3", "FC"], ["G1", "G3"], ["RSkip", "Y7", "FC"]]
    assert out["turn"] == 1
    rejected(EN, FCS, play(0, "FC", "RExch"), reason="invalid_mode")


def test_S46_A20_second_effect_off() -> None:
    """S-46 with free_choice_second_effect=false: the second card has no effect."""
    out = ok(run(EN, FCS, play(0, "FC", "RSkip"), options={"free_choice_second_effect": False}))
    assert out["pending"] is None
    assert out["turn"] == 1


def test_S47_A31_calls_judged_after_both_placements() -> None:
    """S-47/A-31: an FC pair is judged on the hand after both placements: 1 card left
    needs Achtung (en: else draw 2); 0 left needs only Stop."""
    position = pos([["FC", "R5", "B3"], ["G1", "G3"], ["Y1", "Y3"]], ["G4"], 0, PILE)
    out = ok(run(EN, position, play(0, "FC", "R5")))
    assert out["hands"][0] == ["R1", "R3", "B3"]
    out = ok(run(EN, position, play(0, "FC", "R5", calls=("achtung",))))
    assert out["hands"][0] == ["B3"]
    last = pos([["FC", "R5"], ["G1", "G3"], ["Y1", "Y3"]], ["G4"], 0, PILE)
    for ruleset in (EN, JA):
        out = ok(run(ruleset, last, play(0, "FC", "R5", calls=("stop",))))
        assert out["phase"] == "round_over"
        assert out["round_scores"] == [0, 4, 4]
    out = ok(run(EN, last, play(0, "FC", "R5")))
    assert out["hands"][0] == ["R1", "R3"]
    assert out["phase"] == "playing"


def test_S14_draw_with_lone_free_choice_ja() -> None:
    """FAQ Q6/S-14: with only an FC there is no legal play, so a ja player draws."""
    out = ok(run(JA, pos([["FC"], ["G1", "G3"]], ["R3"], 0, PILE), draw(0)))
    assert out["hands"][0] == ["R1", "FC"]
