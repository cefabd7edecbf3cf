"""Stop conformance: 0, Draw Two and Skip (S-30..S-37, A-10..A-15, A-35)."""

from __future__ import annotations

from tests.rules.stop_scenarios import (
    EN,
    JA,
    accept,
    draw,
    interject,
    ok,
    pass_,
    play,
    pos,
    rejected,
    run,
)

DRAW = ["B5", "B7", "G8", "Y8", "G7", "Y7", "B8", "R8"]


def draw2(count: int, victim: int, colour: str) -> dict[str, object]:
    return {"kind": "draw2", "count": count, "victim": victim, "colour": colour}


def skip(count: int, victim: int, colour: str) -> dict[str, object]:
    return {"kind": "skip", "count": count, "victim": victim, "colour": colour}


def test_S30_zero_as_ordinary_number_card() -> None:
    """S-30: a 0 may be played as an ordinary number card; it has no effect."""
    position = pos([["R0", "G1", "G3"], ["B1", "B3"], ["Y1", "Y3"]], ["R5"], 0, list(DRAW))
    out = ok(run(EN, position, play(0, "R0")))
    assert out["pending"] is None
    assert out["turn"] == 1
    assert out["discard"] == ["R5", "R0"]


SKIP3 = pos(
    [["RSkip", "RDrawX", "G1", "G3"], ["R0", "B0", "B1", "B3"], ["R0", "Y1", "Y3"]],
    ["R3"],
    0,
    list(DRAW),
)


def test_S31_zero_of_top_colour_cancels_skip() -> None:
    """S-31: the victim responds with a 0 of the top card's colour: the effect is
    cancelled and the turn passes to left(victim)."""
    for ruleset in (EN, JA):
        out = ok(run(ruleset, SKIP3, play(0, "RSkip"), play(1, "R0")))
        assert out["pending"] is None
        assert out["turn"] == 2
        assert out["discard"] == ["R3", "RSkip", "R0"]
        assert out["hands"][1] == ["B0", "B1", "B3"]


def test_S31_zero_cancels_draw_x() -> None:
    """S-31/S-42: a same-colour 0 also cancels a Draw X."""
    out = ok(run(EN, SKIP3, play(0, "RDrawX"), play(1, "R0")))
    assert out["pending"] is None
    assert out["turn"] == 2
    assert out["hands"][1] == ["B0", "B1", "B3"]
    assert out["draw_pile"] == DRAW


def test_S31_A14_only_the_victim_may_defend() -> None:
    """S-31/A-14: only the victim may defend; anyone else is not_your_turn."""
    rejected(EN, SKIP3, play(0, "RSkip"), play(2, "R0"), reason="not_your_turn")


def test_S31_A15_defence_colour() -> None:
    """S-31/A-15: the 0 must have the colour of the current top card."""
    rejected(EN, SKIP3, play(0, "RSkip"), play(1, "B0"), reason="wrong_defence_colour")


def test_S31_A15_defence_colour_is_the_last_extender() -> None:
    """A-15: the top card is the card that last extended the effect: after R2 then B2,
    only a B0 defends."""
    position = pos(
        [["R2", "G1", "G3"], ["B2", "Y4", "Y5"], ["R0", "B0", "Y1"]], ["R3"], 0, list(DRAW)
    )
    rejected(
        EN, position, play(0, "R2"), play(1, "B2"), play(2, "R0"), reason="wrong_defence_colour"
    )
    out = ok(run(EN, position, play(0, "R2"), play(1, "B2"), play(2, "B0")))
    assert out["pending"] is None
    assert out["turn"] == 0
    assert out["hands"][2] == ["R0", "Y1"]
    assert out["draw_pile"] == DRAW


TWOS = pos(
    [["R2", "FC", "G1", "G3"], ["B2", "R2", "Y4", "Y5"], ["G2", "B5", "Y1"], ["Y2", "R1", "R4"]],
    ["R3"],
    0,
    list(DRAW),
)


def test_S32_two_aims_draw_two_at_left() -> None:
    """S-32: placing a 2 starts a pending Draw Two with count 2 against left(placer);
    records §4.5: turn is the victim."""
    out = ok(run(EN, TWOS, play(0, "R2")))
    assert out["pending"] == draw2(2, 1, "R")
    assert out["turn"] == 1


def test_S32_S46_two_as_second_card_of_free_choice() -> None:
    """S-32/S-46: a 2 placed as the second card of an FC pair aims a Draw Two too."""
    out = ok(run(EN, TWOS, play(0, "FC", "R2")))
    assert out["pending"] == draw2(2, 1, "R")
    assert out["discard"] == ["R3", "FC", "R2"]
    assert out["hands"][0] == ["G1", "G3"]


def test_S33_A11_two_stacks_any_colour() -> None:
    """S-33 (b) {two_stacking_any_colour=true}/A-11: any 2 of any colour adds 2 and makes
    left(victim) the new victim."""
    for ruleset in (EN, JA):
        out = ok(run(ruleset, TWOS, play(0, "R2"), play(1, "B2"), play(2, "G2")))
        assert out["pending"] == draw2(6, 3, "G")
        assert out["turn"] == 3


def test_S33_A10_accept_en_victim_is_skipped() -> None:
    """S-33 (c) {draw_two_skips_victim=true} (en): the victim draws count cards and the
    turn passes to left(victim)."""
    out = ok(run(EN, TWOS, play(0, "R2"), play(1, "B2"), accept(2)))
    assert out["hands"][2] == ["B5", "B5", "B7", "G2", "G8", "Y1", "Y8"]
    assert out["draw_pile"] == DRAW[4:]
    assert out["pending"] is None
    assert out["turn"] == 3


def test_S33_A10_accept_ja_victim_plays_normal_turn() -> None:
    """S-33 (c) {draw_two_skips_victim=false} (ja): the victim draws, then takes a normal
    turn on the now-spent 2."""
    out = ok(run(JA, TWOS, play(0, "R2"), play(1, "B2"), accept(2)))
    assert out["pending"] is None
    assert out["turn"] == 2
    out = ok(run(JA, TWOS, play(0, "R2"), play(1, "B2"), accept(2), play(2, "B7")))
    assert out["discard"] == ["R3", "R2", "B2", "B7"]
    assert out["turn"] == 3


def test_S34_A12_interjected_two_extends() -> None:
    """S-34 {interjected_two_extends=true}/A-12: a 2 identical to the top card interjected
    on a pending Draw Two adds 2 and the victim becomes left(interjector)."""
    for ruleset in (EN, JA):
        out = ok(run(ruleset, TWOS, play(0, "R2"), interject(1, "R2")))
        assert out["pending"] == draw2(4, 2, "R")


def test_S34_interjection_by_non_victim_moves_the_victim() -> None:
    """S-34/A-12: an interjection by another player of an identical 2 (here the third
    seat) extends and aims at left(interjector); with interjected_two_extends=false only
    the victim changes."""
    position = pos(
        [["R2", "G1", "G3"], ["B1", "Y4"], ["Y1", "Y3"], ["R2", "R1", "R4"]],
        ["R3"],
        0,
        list(DRAW),
    )
    out = ok(run(EN, position, play(0, "R2"), interject(3, "R2")))
    assert out["pending"] == draw2(4, 0, "R")
    assert out["turn"] == 0
    out = ok(
        run(
            EN,
            position,
            play(0, "R2"),
            interject(3, "R2"),
            options={"interjected_two_extends": False},
        )
    )
    assert out["pending"] == draw2(2, 0, "R")


def test_S34_interjected_two_on_spent_two_starts_new_draw_two() -> None:
    """S-34: if the top 2 is already spent, the interjected 2 starts a new Draw Two with
    count 2 against left(interjector)."""
    position = pos(
        [["R2", "G1", "G3"], ["B1", "Y4"], ["Y1", "Y3"], ["R2", "R1", "R4"]],
        ["R3"],
        0,
        list(DRAW),
    )
    out = ok(run(EN, position, play(0, "R2"), accept(1), interject(3, "R2")))
    assert out["hands"][1] == ["B1", "B5", "B7", "Y4"]
    assert out["pending"] == draw2(2, 0, "R")
    assert out["turn"] == 0


def test_S35_A35_victim_may_only_respond_or_accept() -> None:
    """S-35/A-35: while an effect is pending the victim may only respond or accept: a red
    5, a draw or a pass is response_required; nobody else takes a normal turn."""
    position = pos(
        [["R2", "G1", "G3"], ["R5", "B1", "Y4"], ["R4", "Y1", "Y3"]], ["R3"], 0, list(DRAW)
    )
    rejected(EN, position, play(0, "R2"), play(1, "R5"), reason="response_required")
    rejected(EN, position, play(0, "R2"), draw(1), reason="response_required")
    rejected(EN, position, play(0, "R2"), pass_(1), reason="response_required")
    rejected(EN, position, play(0, "R2"), play(2, "R4"), reason="not_your_turn")
    rejected(EN, position, play(0, "R2"), draw(2), reason="not_your_turn")


def test_S35_victim_interjecting_identical_two_extends() -> None:
    """S-35: the victim's interjection of an identical 2 has the result of S-33 (b)."""
    out = ok(run(EN, TWOS, play(0, "R2"), interject(1, "R2")))
    assert out["pending"] == draw2(4, 2, "R")
    assert out["turn"] == 2
    assert out["hands"][1] == ["B2", "Y4", "Y5"]


SKIPS = pos(
    [["RSkip", "G1", "G3"], ["BSkip", "B1", "Y4"], ["GSkip", "Y1", "Y3"], ["YSkip", "R1"]],
    ["R3"],
    0,
    list(DRAW),
)


def test_S36_skip_starts_pending_skip() -> None:
    """S-36: a Skip starts a pending Skip with count 1 aimed at left(placer)."""
    out = ok(run(EN, SKIPS, play(0, "RSkip")))
    assert out["pending"] == skip(1, 1, "R")
    assert out["turn"] == 1


def test_S37_accept_skip() -> None:
    """S-37 (c): the count players starting with the victim lose their turns; the turn
    passes to (victim + count) mod n."""
    out = ok(run(EN, SKIPS, play(0, "RSkip"), accept(1)))
    assert out["pending"] is None
    assert out["turn"] == 2
    assert out["hands"][1] == ["B1", "BSkip", "Y4"]


def test_S37_A13_skip_passes_on_en() -> None:
    """S-37 (b) {skip_stacking=pass_on}/A-13 (en): a Skip of any colour makes
    left(responder) the victim; the count stays 1."""
    out = ok(run(EN, SKIPS, play(0, "RSkip"), play(1, "BSkip")))
    assert out["pending"] == skip(1, 2, "B")
    out = ok(run(EN, SKIPS, play(0, "RSkip"), play(1, "BSkip"), accept(2)))
    assert out["turn"] == 3


def test_S37_A13_skip_accumulates_ja() -> None:
    """S-37 (b) {skip_stacking=accumulate}/A-13 (ja): the count grows by 1."""
    out = ok(run(JA, SKIPS, play(0, "RSkip"), play(1, "BSkip")))
    assert out["pending"] == skip(2, 2, "B")
    out = ok(run(JA, SKIPS, play(0, "RSkip"), play(1, "BSkip"), accept(2)))
    assert out["turn"] == 0
    assert out["pending"] is None


def test_S37_only_first_skipped_player_responds() -> None:
    """S-37: only the first player to be skipped (the victim) may respond."""
    rejected(
        JA, SKIPS, play(0, "RSkip"), play(1, "BSkip"), play(3, "YSkip"), reason="not_your_turn"
    )


def test_S37_skip_count_wraps_past_responder() -> None:
    """S-37 (c): the formula (victim + count) mod n also applies when the count wraps."""
    position = pos(
        [["RSkip", "G1", "G3"], ["BSkip", "B1", "Y4"], ["GSkip", "Y1", "Y3"]],
        ["R3"],
        0,
        list(DRAW),
    )
    events = (play(0, "RSkip"), play(1, "BSkip"), play(2, "GSkip"))
    out = ok(run(JA, position, *events))
    assert out["pending"] == skip(3, 0, "G")
    out = ok(run(JA, position, *events, accept(0)))
    assert out["turn"] == 0
    assert out["pending"] is None
