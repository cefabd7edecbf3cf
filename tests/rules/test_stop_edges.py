"""Stop conformance: interactions between rules (windows, counters, positions, seeds)."""

from __future__ import annotations

from tests.rules.stop_scenarios import (
    EN,
    JA,
    accept,
    call_achtung,
    call_stop,
    cancel,
    draw,
    interject,
    ok,
    pass_,
    play,
    pos,
    run,
)
from tests.support import replay

PILE = ["B5", "B7", "G8", "Y8", "G7", "Y7", "B8", "R8", "G4"]


def ach(seat: int, placed: int) -> dict[str, object]:
    return {"seat": seat, "kind": "achtung", "placed": placed}


def test_S26_obligations_sorted_by_seat_and_counted_per_placement() -> None:
    """records §4.5: obligations are sorted by seat; ``placed`` counts cards placed by
    anyone since each arose (S-26)."""
    p = pos([["R1", "R4"], ["G1", "G2", "G4"], ["R5", "Y2"]], ["R3"], 2, PILE)
    out = ok(run(JA, p, play(2, "R5")))
    assert out["obligations"] == [ach(2, 0)]
    out = ok(run(JA, p, play(2, "R5"), play(0, "R1")))
    assert out["obligations"] == [ach(0, 0), ach(2, 1)]


def test_S26_S45_free_choice_pair_counts_two_placements() -> None:
    """S-26 (i)/S-45: a Free Choice pair places 2 cards, so another player's pair alone
    makes an open Achtung obligation fail (the player draws 2)."""
    p = pos([["R1", "B1"], ["FC", "G2", "G4", "G9"], ["G5", "Y2", "Y4"]], ["R3"], 0, PILE)
    out = ok(run(JA, p, play(0, "R1"), play(1, "FC", "G2")))
    assert out["hands"][0] == ["B1", "B5", "B7"]
    assert out["obligations"] == []
    assert out["discard"] == ["R3", "R1", "FC", "G2"]


def test_S26_interjections_advance_the_window() -> None:
    """S-26 (i): interjections are placements and advance the counter like plays."""
    p = pos([["R4", "B1"], ["R4", "G2", "G4"], ["G5", "Y2", "Y4"]], ["R3"], 0, PILE)
    out = ok(run(JA, p, play(0, "R4"), interject(1, "R4")))
    assert out["obligations"] == [ach(0, 1)]
    assert out["turn"] == 2


def test_S25_S44_ja_reveal_leaving_one_card() -> None:
    """S-25 (ja, a Draw X reveal-and-play) and S-44 (calls judged after drawing): a
    revealed 0 leaves 1 card and opens an obligation; an achtung flag on the accept
    discharges it."""
    p = pos([["RDrawX", "G1", "G3"], ["B0", "BSkip"], ["Y1", "Y3"]], ["R5"], 0, PILE)
    out = ok(run(JA, p, play(0, "RDrawX"), accept(1, "B0")))
    assert out["hands"][1] == ["BSkip"]
    assert out["obligations"] == [ach(1, 0)]
    out = ok(run(JA, p, play(0, "RDrawX"), accept(1, "B0", ("achtung",))))
    assert out["obligations"] == []


def test_S27_S44_reveal_of_last_card_is_going_out() -> None:
    """S-27/S-32/S-44: the reveal-and-play placement is the victim's own placement; if it
    is their last card (a 0, drawing nothing) the Stop flag on the accept ends the round
    (ja: via the closing phase, which has nothing pending)."""
    p = pos([["RDrawX", "G1", "G3"], ["B0"], ["Y1", "Y3"]], ["R5"], 0, PILE)
    out = ok(run(JA, p, play(0, "RDrawX"), accept(1, "B0", ("stop",))))
    assert out["phase"] == "round_over"
    assert out["round_scores"] == [4, 0, 4]
    out = ok(run(JA, p, play(0, "RDrawX"), accept(1, "B0")))
    assert out["phase"] == "playing"
    assert out["obligations"] == [{"seat": 1, "kind": "late_stop", "placed": 0}]


def test_S27_S41_A26_en_missed_stop_on_exchange_draws_before_exchange() -> None:
    """S-27/S-41/A-26/A-30 (en): a last Card Exchange without stop: the 2 penalty cards are
    drawn first and then passed on, so no en hand is ever empty without going out."""
    p = pos([["RExch"], ["B1", "B3"], ["Y1", "Y3", "Y4"]], ["R5"], 0, PILE)
    out = ok(run(EN, p, play(0, "RExch", mode="left")))
    assert out["hands"] == [["Y1", "Y3", "Y4"], ["B5", "B7"], ["B1", "B3"]]
    assert out["phase"] == "playing"
    assert out["turn"] == 1


def test_S40_S27_cancel_with_last_card_and_stop_ends_round_en() -> None:
    """S-40: calls apply to a cancel like any placement: an en cancel with the last card
    and stop ends the round at once (S-51), without the exchange."""
    p = pos([["RExch", "G1", "G3"], ["B1", "B3"], ["R0"]], ["R5"], 0, PILE)
    out = ok(run(EN, p, play(0, "RExch", mode="left"), cancel(2, "R0", ("stop",))))
    assert out["phase"] == "round_over"
    assert out["hands"] == [["G1", "G3"], ["B1", "B3"], []]
    assert out["round_scores"] == [4, 4, 0]


def test_S31_S37_defence_after_accumulated_skips_ja() -> None:
    """S-31/S-37: after Skips accumulate, the victim's 0 of the top Skip's colour cancels
    the whole effect and the turn passes to left(victim)."""
    p = pos(
        [["RSkip", "G1", "G3"], ["BSkip", "B1", "Y4"], ["B0", "Y1", "Y3"], ["Y5", "R1"]],
        ["R3"],
        0,
        PILE,
    )
    out = ok(run(JA, p, play(0, "RSkip"), play(1, "BSkip"), play(2, "B0")))
    assert out["pending"] is None
    assert out["turn"] == 3


def test_S17_pass_cycle_needs_all_seats() -> None:
    """S-17: n consecutive passes end the round; n-1 do not. records §4.2: a position may
    set consecutive_passes."""
    p = pos([["R5", "R7"], ["G1", "G4"], ["Y1", "Y4"]], ["B8"], 0, [])
    out = ok(run(EN, p, pass_(0), pass_(1)))
    assert out["phase"] == "playing"
    assert out["consecutive_passes"] == 2
    q = pos([["R5", "R7"], ["G1", "G4"], ["Y1", "Y4"]], ["B8"], 2, [], consecutive_passes=2)
    out = ok(run(EN, q, pass_(2)))
    assert out["phase"] == "round_over"
    assert out["round_scores"] == [12, 5, 5]


def test_S52_position_in_closing_phase() -> None:
    """records §4.2: a position may start in the closing phase with a pending effect;
    accepting it ends the round (S-52)."""
    p = pos(
        [[], ["G1", "G3"], ["Y1", "Y3"]],
        ["R3", "R2"],
        1,
        PILE,
        pending={"kind": "draw2", "count": 2, "victim": 1, "colour": "R"},
        phase="closing",
    )
    out = ok(run(JA, p, accept(1)))
    assert out["phase"] == "round_over"
    assert out["round_scores"] == [0, 4 + 5 + 7, 4]


def test_S7_position_dealer_round_and_totals() -> None:
    """records §4.2/S-7: dealer, round and totals of a position carry into the output;
    next_dealer is left(dealer) when the round ends."""
    p = pos(
        [["R5"], ["G1", "G3"], ["Y1", "Y3"]], ["R3"], 0, PILE, dealer=2, round=3, totals=[1, 2, 3]
    )
    out = ok(run(EN, p, play(0, "R5", calls=("stop",))))
    assert out["round"] == 3
    assert out["dealer"] == 2
    assert out["next_dealer"] == 0
    assert out["totals"] == [1, 6, 7]


def test_S8_seeded_setup_is_deterministic() -> None:
    """records §2.1: with neither deck nor position, setup shuffles with seed: the same
    seed gives the same game."""
    h = {"game": "stop", "ruleset": EN, "seats": 4, "seed": 12345}
    assert ok(replay(h)) == ok(replay(dict(h)))


def test_S58_notes_are_ignored() -> None:
    """records §2: any object may carry a "note" string, which is ignored."""
    p = pos([["R1", "R4", "B1"], ["G1", "G2"]], ["R3"], 0, PILE)
    with_note = {**play(0, "R1"), "note": "first move"}
    assert ok(run(EN, p, with_note)) == ok(run(EN, p, play(0, "R1")))


def test_S26_call_achtung_discharges_only_the_caller() -> None:
    """S-26: a standalone call_achtung discharges the caller's own obligation only."""
    p = pos([["R1", "R4"], ["G1", "G2", "G4"], ["R5", "Y2"]], ["R3"], 2, PILE)
    out = ok(run(JA, p, play(2, "R5"), play(0, "R1"), call_achtung(0)))
    assert out["obligations"] == [ach(2, 1)]


def test_S26_achtung_penalty_option() -> None:
    """S-26 {achtung_penalty} (stop.md §11): the Achtung penalty size is an option."""
    p = pos([["R1", "B1"], ["G1", "G2"]], ["R3"], 0, PILE)
    out = ok(run(EN, p, play(0, "R1"), options={"achtung_penalty": 3}))
    assert out["hands"][0] == ["B1", "B5", "B7", "G8"]
    assert out["draw_pile"] == PILE[3:]


def test_S6_min_players_option() -> None:
    """S-6 {min_players}: a house rule may raise the minimum; 2 seats then fail."""
    res = replay({"game": "stop", "ruleset": JA, "seats": 2, "options": {"min_players": 3}})
    assert res.exit_code == 2
    assert res.output is not None
    assert res.output["error"]["reason"] == "player_count"
    assert res.output["applied"] == 0


def test_S17_S29_empty_hand_player_passes_when_exhausted() -> None:
    """S-17/S-29: draw is unavailable also for a player with 0 cards when the piles are
    exhausted; that player passes."""
    p = pos([[], ["G1", "G4"], ["Y1", "Y4"]], ["B8"], 0, [])
    out = ok(run(JA, p, pass_(0)))
    assert out["consecutive_passes"] == 1
    assert out["turn"] == 1
    out = ok(run(JA, p, pass_(0), pass_(1), pass_(2)))
    assert out["phase"] == "round_over"
    assert out["round_scores"] == [0, 5, 5]


def test_S16_one_shuffle_line_per_reshuffle() -> None:
    """records §4.4.3: shuffle lines are consumed one per reshuffle by the next seat
    action; a second queued line that this action does not consume is malformed."""
    p = pos([["R1", "B1", "G1"], ["G3", "G4"]], ["FC", "Y5", "R5"], 0, [])
    sh = {"chance": "shuffle", "order": ["Y5", "FC"]}
    assert ok(run(EN, p, sh, draw(0)))["hands"][0] == ["R1", "B1", "G1", "Y5"]
    res = run(EN, p, sh, dict(sh), draw(0))
    assert res.exit_code == 1


def test_S32_two_on_spent_two_starts_new_draw_two() -> None:
    """S-32/S-33 (c): a 2 played normally on a spent 2 matches by number and starts a new
    Draw Two with count 2 (not an extension)."""
    p = pos([["R2", "G1", "G3"], ["B1", "B3"], ["G2", "Y1", "Y3"]], ["R3"], 0, PILE)
    out = ok(run(EN, p, play(0, "R2"), accept(1), play(2, "G2")))
    assert out["pending"] == {"kind": "draw2", "count": 2, "victim": 0, "colour": "G"}
    assert out["turn"] == 0


def test_S28_late_stop_entry_removed_when_holder_gets_cards() -> None:
    """records §4.5/S-28: the late_stop entry is removed as soon as its holder holds a card
    (here as the victim of a Draw Two); before that, call_stop discards the pending effect
    and returns the 2 to its placer."""
    p = pos([["R5"], ["R2", "G1", "G3"]], ["R3"], 0, PILE)
    out = ok(run(JA, p, play(0, "R5"), play(1, "R2")))
    assert out["obligations"] == [{"seat": 0, "kind": "late_stop", "placed": 1}]
    out = ok(run(JA, p, play(0, "R5"), play(1, "R2"), accept(0)))
    assert out["hands"][0] == ["B5", "B7"]
    assert out["obligations"] == []
    out = ok(run(JA, p, play(0, "R5"), play(1, "R2"), call_stop(0)))
    assert out["phase"] == "round_over"
    assert out["pending"] is None
    assert out["hands"][1] == ["R2", "G1", "G3"]
    assert out["round_scores"] == [0, 24]
