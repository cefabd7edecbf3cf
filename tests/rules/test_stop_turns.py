"""Stop conformance: turns, matching, drawing, reshuffle and exhaustion (S-11..S-17)."""

from __future__ import annotations

from tests.rules.stop_scenarios import (
    EN,
    JA,
    accept,
    draw,
    interject,
    malformed,
    ok,
    pass_,
    play,
    pos,
    rejected,
    run,
    shuffle,
)

THREE = pos([["R1", "R4", "B1"], ["G1", "G2"], ["Y1", "Y2"]], ["R3"], 0, ["B5", "B7"])


def test_S11_one_action_per_turn() -> None:
    """S-11: on your turn do exactly one of play/draw/pass; a second play is out of turn."""
    out = rejected(EN, THREE, play(0, "R1"), play(0, "R4"), reason="not_your_turn")
    assert out["hands"][0] == ["R4", "B1"]
    assert out["turn"] == 1


def test_S11_only_the_seat_on_turn_may_play() -> None:
    """S-11: a normal play by a seat whose turn it is not is rejected (not_your_turn)."""
    rejected(EN, THREE, play(1, "G1"), reason="not_your_turn")


def test_S12_matching_by_colour_number_and_symbol() -> None:
    """S-12: a coloured card matches the top card's colour, the same number, or the same
    symbol (e.g. on a blue 4 any blue card or any 4)."""
    position = pos([["R4", "G1", "G3"], ["R7", "Y1", "Y3"], ["Y5", "Y7"]], ["B4"], 0, ["G7"])
    out = ok(run(EN, position, play(0, "R4"), play(1, "R7")))
    assert out["discard"] == ["B4", "R4", "R7"]
    assert out["turn"] == 2
    # Same symbol: a red Skip on a (spent) blue Skip.
    out = ok(
        run(EN, pos([["RSkip", "G5", "G1"], ["Y1", "Y3"]], ["BSkip"], 0, ["G7"]), play(0, "RSkip"))
    )
    assert out["discard"] == ["BSkip", "RSkip"]
    assert out["pending"] == {"kind": "skip", "count": 1, "victim": 1, "colour": "R"}


def test_S12_no_match() -> None:
    """S-12: R5 on B4 (other colour, other number) and RSkip on BExch (other symbol,
    other colour) do not match."""
    rejected(EN, pos([["R5", "G1"], ["Y1"]], ["B4"], 0, ["G7"]), play(0, "R5"), reason="no_match")
    rejected(
        EN,
        pos([["RSkip", "G1"], ["Y1"]], ["BExch"], 0, ["G7"]),
        play(0, "RSkip"),
        reason="no_match",
    )
    rejected(
        EN, pos([["R0", "G1"], ["Y1"]], ["BSkip"], 0, ["G7"]), play(0, "R0"), reason="no_match"
    )


def test_S13_turn_passes_to_left_of_placer() -> None:
    """S-13: after a placement the turn passes to left(placer), wrapping to seat 0."""
    position = pos([["R1", "G4"], ["G1", "G2"], ["Y1", "R2", "R5"]], ["R3"], 2, ["B5"])
    out = ok(run(EN, position, play(2, "R5")))
    assert out["turn"] == 0
    out = ok(run(EN, position, play(2, "R5"), play(0, "R1")))
    assert out["turn"] == 1


def test_S14_A6_voluntary_draw_en() -> None:
    """S-14/A-6 {voluntary_draw=true} (en): you may draw even with a legal play; take the
    top card of the draw pile and the turn ends."""
    out = ok(run(EN, THREE, draw(0)))
    assert out["hands"][0] == ["R1", "R4", "B1", "B5"]
    assert out["draw_pile"] == ["B7"]
    assert out["turn"] == 1
    assert out["discard"] == ["R3"]


def test_S14_A6_no_voluntary_draw_ja() -> None:
    """S-14/A-6 {voluntary_draw=false} (ja): draw only without a legal play."""
    rejected(JA, THREE, draw(0), reason="draw_unavailable")
    position = pos([["G5", "B1", "Y8"], ["G1", "G2"], ["Y1", "Y2"]], ["R3"], 0, ["B5", "B7"])
    out = ok(run(JA, position, draw(0)))
    assert out["hands"][0] == ["B1", "B5", "G5", "Y8"]
    assert out["turn"] == 1


def test_S14_A6_voluntary_draw_override_on_ja() -> None:
    """S-14 as an option: ja with voluntary_draw=true lets a player with a play draw."""
    out = ok(run(JA, THREE, draw(0), options={"voluntary_draw": True}))
    assert out["hands"][0] == ["R1", "R4", "B1", "B5"]


def test_S14_free_choice_counts_as_play_only_with_a_coloured_card() -> None:
    """S-14: an FC counts as a legal play only if you also hold a coloured card (ja)."""
    rejected(JA, pos([["B5", "FC"], ["G1"]], ["R3"], 0, ["Y1"]), draw(0), reason="draw_unavailable")
    out = ok(run(JA, pos([["FC"], ["G1"]], ["R3"], 0, ["Y1"]), draw(0)))
    assert out["hands"][0] == ["Y1", "FC"]


def test_S14_A7_drawn_card_not_played_same_turn_but_interjectable() -> None:
    """S-14 {play_drawn_card=false}/A-7: the drawn card cannot be played in that turn, but
    it may be interjected later (S-18), even at once after the turn has passed."""
    position = pos([["B1", "G8"], ["G1", "G2"], ["Y1", "Y2"]], ["R3"], 0, ["R3", "B7"])
    rejected(EN, position, draw(0), play(0, "R3"), reason="not_your_turn")
    out = ok(run(EN, position, draw(0), interject(0, "R3")))
    assert out["discard"] == ["R3", "R3"]
    assert out["hands"][0] == ["B1", "G8"]
    assert out["turn"] == 1


def test_S15_S16_A8_multi_card_draw_reshuffles_midway() -> None:
    """S-15: a draw of k cards takes them one at a time, reshuffling whenever the pile is
    empty; S-16: the top discard stays, the rest is shuffled (records §4.4.3: the shuffle
    line gives the new draw pile, top first)."""
    position = pos([["B2", "G1", "G3"], ["Y1", "Y3"], ["Y4", "Y5"]], ["R1", "R4", "B4"], 0, ["R7"])
    out = ok(run(EN, position, play(0, "B2"), shuffle(["B4", "R1", "R4"]), accept(1)))
    assert out["hands"][1] == ["R7", "B4", "Y1", "Y3"]
    assert out["draw_pile"] == ["R1", "R4"]
    assert out["discard"] == ["B2"]
    assert out["pending"] is None
    assert out["turn"] == 2


def test_S16_A8_reshuffle_keeps_top_and_includes_free_choice() -> None:
    """S-16 {reshuffle_keep_top=true}: all other discard cards, FCs included, form the new
    draw pile."""
    position = pos([["R1", "B1"], ["G1", "G3"]], ["FC", "Y5", "R5"], 0, [])
    out = ok(run(EN, position, shuffle(["Y5", "FC"]), draw(0)))
    assert out["hands"][0] == ["R1", "B1", "Y5"]
    assert out["draw_pile"] == ["FC"]
    assert out["discard"] == ["R5"]


def test_S16_reshuffle_without_shuffle_line_uses_seed() -> None:
    """records §4.4.3: a reshuffle with no queued shuffle line is drawn from the seed."""
    position = pos([["R1", "B1"], ["G1", "G3"]], ["FC", "Y5", "R5"], 0, [])
    out = ok(run(EN, position, draw(0)))
    drawn = [c for c in out["hands"][0] if c not in ("R1", "B1")]
    assert len(drawn) == 1
    assert sorted(drawn + out["draw_pile"]) == ["FC", "Y5"]
    assert out["discard"] == ["R5"]


def test_S16_shuffle_line_that_does_not_fit_is_malformed() -> None:
    """records §4.4.3: a shuffle order that is not a permutation of the cards being
    shuffled, or a shuffle line not consumed by the next seat action, is exit 1."""
    position = pos([["R1", "B1"], ["G1", "G3"]], ["FC", "Y5", "R5"], 0, ["B7"])
    empty = pos([["R1", "B1"], ["G1", "G3"]], ["FC", "Y5", "R5"], 0, [])
    malformed(run(EN, empty, shuffle(["Y5", "R1"]), draw(0)))
    malformed(run(EN, empty, shuffle(["Y5", "FC", "R5"]), draw(0)))
    malformed(run(EN, position, shuffle(["Y5", "FC"]), draw(0)))  # no reshuffle needed


def test_S17_A9_exhaustion_passes_end_the_round() -> None:
    """S-17/A-9: with the draw pile empty and only the top discard left, draw is
    unavailable; a player with no legal play passes; n consecutive passes end the round
    and every hand is scored."""
    position = pos([["R5", "B7"], ["G1", "G8"]], ["Y3"], 0, [])
    rejected(EN, position, draw(0), reason="draw_unavailable")
    out = ok(run(EN, position, pass_(0)))
    assert out["consecutive_passes"] == 1
    assert out["turn"] == 1
    assert out["phase"] == "playing"
    out = ok(run(EN, position, pass_(0), pass_(1)))
    assert out["phase"] == "round_over"
    assert out["round_scores"] == [12, 9]
    assert out["totals"] == [12, 9]
    assert out["turn"] is None
    assert out["next_dealer"] == 1
    assert out["hands"] == [["R5", "B7"], ["G1", "G8"]]


def test_S17_placement_resets_pass_count() -> None:
    """S-17: only n *consecutive* passes end the round; a placement resets the count, and
    with two discard cards the piles are no longer exhausted (draw, not pass)."""
    position = pos([["R5", "B7"], ["G1", "G5", "Y8"]], ["Y3"], 0, [])
    out = ok(run(EN, position, pass_(0), play(1, "Y8")))
    assert out["consecutive_passes"] == 0
    assert out["turn"] == 0
    rejected(EN, position, pass_(0), play(1, "Y8"), pass_(0), reason="pass_unavailable")
    out = ok(run(EN, position, pass_(0), play(1, "Y8"), draw(0), pass_(1)))
    assert out["hands"][0] == ["R5", "B7", "Y3"]
    assert out["draw_pile"] == []
    assert out["discard"] == ["Y8"]
    assert out["consecutive_passes"] == 1
    assert out["turn"] == 0


def test_S17_pass_needs_exhaustion_and_no_legal_play() -> None:
    """S-17: a player with a legal play must play; pass is only for exhaustion."""
    rejected(EN, pos([["Y5", "B7"], ["G1"]], ["Y3"], 0, []), pass_(0), reason="pass_unavailable")
    rejected(
        EN, pos([["R5", "B7"], ["G1"]], ["Y3"], 0, ["B1"]), pass_(0), reason="pass_unavailable"
    )
    # The draw pile is empty but a reshuffle is possible: not exhausted.
    rejected(
        EN, pos([["R5", "B7"], ["G1"]], ["R1", "Y3"], 0, []), pass_(0), reason="pass_unavailable"
    )


def test_S17_A34_draw_two_lapses_when_piles_run_out() -> None:
    """S-17/A-34: draw as many cards as the piles allow (reshuffling, S-15) and the rest
    of that draw lapses."""
    position = pos([["R2", "G1", "G3"], ["Y1", "Y3"], ["Y4", "Y5"]], ["R3"], 0, [])
    out = ok(run(EN, position, play(0, "R2"), shuffle(["R3"]), accept(1)))
    assert out["hands"][1] == ["R3", "Y1", "Y3"]
    assert out["draw_pile"] == []
    assert out["discard"] == ["R2"]
    assert out["pending"] is None
    assert out["turn"] == 2
