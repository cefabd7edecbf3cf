"""Stop conformance: round end, closing phase, scoring, game end, next round, resolution
order and replay rules (S-50..S-63, records §4.4, §1 --upto)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.rules.stop_scenarios import (
    EN,
    FULL_DECK,
    JA,
    accept,
    call_stop,
    cancel,
    canon,
    deck_with,
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

PILE = ["B5", "B7", "G8", "Y8", "G7", "Y7", "B8", "R8", "G4", "Y4"]
LOW = ["R1", "R3", "R4", "R5", "R7", "R8"]  # 28 points
HIGH = ["R0", "R2", "R6", "R9", "RSkip", "RExch", "RDrawX", "FC"]  # 165 en / 168 ja


def scoring(totals: list[int] | None = None) -> dict[str, Any]:
    extra: dict[str, Any] = {"totals": totals} if totals is not None else {}
    return pos([["G5"], list(LOW), list(HIGH)], ["G3"], 0, list(PILE), **extra)


def test_S53_S54_card_values_en() -> None:
    """S-53: 1,3,4,5,7,8 face; 0→0; 2→20; 6→6 (en); 9→9; Skip 10; Exchange 30; Draw X 40;
    FC 50. S-54: the round score is the hand's sum; the player who went out scores 0."""
    out = ok(run(EN, scoring(), play(0, "G5", calls=("stop",))))
    assert out["round_scores"] == [0, 28, 165]
    assert out["totals"] == [0, 28, 165]


def test_S53_A3_six_worth_nine_ja() -> None:
    """S-53/A-3 {six_nine_value=nine} (ja): every 6/9 is worth 9."""
    out = ok(run(JA, scoring(), play(0, "G5", calls=("stop",))))
    assert out["phase"] == "round_over"
    assert out["round_scores"] == [0, 28, 168]


def test_S55_totals_accumulate() -> None:
    """S-55: round scores add up over the game."""
    out = ok(run(EN, scoring([100, 50, 7]), play(0, "G5", calls=("stop",))))
    assert out["round_scores"] == [0, 28, 165]
    assert out["totals"] == [100, 78, 172]
    assert out["phase"] == "round_over"
    assert out["winners"] is None
    assert out["next_dealer"] == 1


def test_S56_A33_game_ends_at_target_lowest_total_wins() -> None:
    """S-56/A-33: the game ends when a total is at least {target_score=500}; the lowest
    total wins."""
    out = ok(run(EN, scoring([0, 480, 10]), play(0, "G5", calls=("stop",))))
    assert out["phase"] == "game_over"
    assert out["totals"] == [0, 508, 175]
    assert out["winners"] == [0]
    assert out["turn"] is None


def test_S56_A33_tie_shares_the_win() -> None:
    """S-56/A-33: a tie for the lowest total shares the win (winners ascending)."""
    position = pos([["G5"], list(HIGH), list(LOW)], ["G3"], 0, list(PILE), totals=[30, 400, 2])
    out = ok(run(EN, position, play(0, "G5", calls=("stop",))))
    assert out["totals"] == [30, 565, 30]
    assert out["phase"] == "game_over"
    assert out["winners"] == [0, 2]


def test_S56_target_score_option_and_exact_threshold() -> None:
    """S-56 {target_score}: a total of at least the target ends the game (165 >= 165),
    one point short does not (165 < 166)."""
    stop = play(0, "G5", calls=("stop",))
    out = ok(run(EN, scoring(), stop, options={"target_score": 166}))
    assert out["phase"] == "round_over"
    out = ok(run(EN, scoring(), stop, options={"target_score": 165}))
    assert out["totals"] == [0, 28, 165]
    assert out["phase"] == "game_over"
    assert out["winners"] == [0]


def test_S56_game_over_rejects_actions_and_shuffles() -> None:
    """records §4.4.4: in game_over every seat action is rejected with round_over, and a
    shuffle line is malformed."""
    stop = play(0, "G5", calls=("stop",))
    rejected(EN, scoring([0, 480, 10]), stop, draw(1), reason="round_over")
    malformed(run(EN, scoring([0, 480, 10]), stop, shuffle()))


def test_S7_S56_next_round_from_shuffle_line() -> None:
    """records §4.4.4/S-7/S-56: after round_over a shuffle line listing all 112 codes
    deals the next round: dealer := next_dealer, deal from left(dealer), dealer plays."""
    front = ["B1", "G1", "Y1", "B3", "G3", "Y3", "B4", "G4", "Y4", "B5", "G5", "Y5"]
    front += ["B7", "G7", "Y7", "B8", "G8", "Y8", "B1", "G1", "Y1", "R7"]
    deck = deck_with(front)
    stop = play(0, "G5", calls=("stop",))
    out = ok(run(EN, scoring([5, 6, 7]), stop, shuffle(deck)))
    assert out["round"] == 2
    assert out["dealer"] == 1
    assert out["next_dealer"] is None
    assert out["turn"] == 1
    assert out["phase"] == "playing"
    # dealer 1: card 0 -> P2, card 1 -> P0, card 2 -> P1, ...
    assert out["hands"][2] == canon(front[0:21:3])
    assert out["hands"][0] == canon(front[1:21:3])
    assert out["hands"][1] == canon(front[2:21:3])
    assert out["discard"] == ["R7"]
    assert out["draw_pile"] == deck[22:]
    assert out["totals"] == [5, 34, 172]
    assert out["round_scores"] is None
    assert out["pending"] is None


def test_S56_next_round_seeded_and_actions_before_it() -> None:
    """records §4.4.4: a shuffle line without order deals from the seed with the full
    deck; before it every seat action is rejected with round_over; a shuffle order that
    is not the 112-card deck is malformed."""
    stop = play(0, "G5", calls=("stop",))
    out = ok(run(EN, scoring(), stop, shuffle()))
    assert out["round"] == 2
    cards: Counter[str] = Counter(out["draw_pile"]) + Counter(out["discard"])
    for hand in out["hands"]:
        assert len(hand) == 7
        cards += Counter(hand)
    assert cards == Counter(FULL_DECK)
    rejected(EN, scoring(), stop, draw(1), reason="round_over")
    rejected(EN, scoring(), stop, pass_(1), reason="round_over")
    malformed(run(EN, scoring(), stop, shuffle(FULL_DECK[:-1])))


def test_S50_round_end_ways() -> None:
    """S-50: (a) en stop; (b) ja closing phase finishes; (c) ja late Stop; (d) exhaustion."""
    p = pos([["R5"], ["G1", "G3"], ["Y1", "Y3"]], ["R3"], 0, list(PILE))
    assert ok(run(EN, p, play(0, "R5", calls=("stop",))))["phase"] == "round_over"
    assert ok(run(JA, p, play(0, "R5", calls=("stop",))))["phase"] == "round_over"
    assert ok(run(JA, p, play(0, "R5"), call_stop(0)))["phase"] == "round_over"
    q = pos([["R5"], ["G1", "G3"], ["Y1", "Y3"]], ["B8"], 0, [])
    out = ok(run(EN, q, pass_(0), pass_(1), pass_(2)))
    assert out["phase"] == "round_over"
    assert out["round_scores"] == [5, 4, 4]


def test_S51_A24_en_last_card_effect_does_not_apply() -> None:
    """S-51 {last_card_effect=false}/A-24 (en): the round ends immediately; the last
    card's effect does not apply and no response or cancel follows."""
    p = pos([["R2"], ["R0", "G1", "G3"], ["Y1", "Y3"]], ["R3"], 0, list(PILE))
    out = ok(run(EN, p, play(0, "R2", calls=("stop",))))
    assert out["phase"] == "round_over"
    assert out["pending"] is None
    assert out["hands"][1] == ["R0", "G1", "G3"]
    assert out["round_scores"] == [0, 4, 4]
    assert out["draw_pile"] == PILE
    x = pos([["RExch"], ["R0", "G1", "G3"], ["Y1", "Y3"]], ["R3"], 0, list(PILE))
    out = ok(run(EN, x, play(0, "RExch", calls=("stop",), mode="left")))
    assert out["hands"] == [[], ["R0", "G1", "G3"], ["Y1", "Y3"]]
    assert out["pending"] is None
    rejected(
        EN, x, play(0, "RExch", calls=("stop",), mode="left"), cancel(1, "R0"), reason="round_over"
    )


def test_S52_A24_ja_closing_phase_resolves_last_effect() -> None:
    """S-52 {last_card_effect=true}/A-24 (ja): the last card's effect resolves with every
    response it allows (here an extension), no normal turn is played, and the round ends
    as soon as no effect is pending."""
    p = pos([["R2"], ["B2", "G1", "G3"], ["Y1", "Y3"]], ["R3"], 0, list(PILE))
    out = ok(run(JA, p, play(0, "R2", calls=("stop",))))
    assert out["phase"] == "closing"
    assert out["pending"] == {"kind": "draw2", "count": 2, "victim": 1, "colour": "R"}
    assert out["turn"] == 1
    out = ok(run(JA, p, play(0, "R2", calls=("stop",)), play(1, "B2")))
    assert out["phase"] == "closing"
    assert out["pending"] == {"kind": "draw2", "count": 4, "victim": 2, "colour": "B"}
    out = ok(run(JA, p, play(0, "R2", calls=("stop",)), play(1, "B2"), accept(2)))
    assert out["phase"] == "round_over"
    assert out["hands"][2] == ["B5", "B7", "G8", "Y1", "Y3", "Y8"]
    assert out["round_scores"] == [0, 4, 4 + 5 + 7 + 8 + 8]
    rejected(JA, p, play(0, "R2", calls=("stop",)), play(2, "Y1"), reason="not_your_turn")


def test_S52_ja_last_plain_card_ends_round_at_once() -> None:
    """S-52: with no effect pending after the last card, the closing phase ends at once."""
    p = pos([["R5"], ["G1", "G3"], ["Y1", "Y3"]], ["R3"], 0, list(PILE))
    out = ok(run(JA, p, play(0, "R5", calls=("stop",))))
    assert out["phase"] == "round_over"
    assert out["round_scores"] == [0, 4, 4]
    assert out["turn"] is None


def test_S52_ja_closing_skip_accept_ends_round() -> None:
    """S-52: a last Skip with stop: the victim may respond (defence) or accept; then the
    round ends with no normal turn."""
    p = pos([["RSkip"], ["R0", "G1", "G3"], ["Y1", "Y3"]], ["R3"], 0, list(PILE))
    out = ok(run(JA, p, play(0, "RSkip", calls=("stop",)), play(1, "R0")))
    assert out["phase"] == "round_over"
    assert out["round_scores"] == [0, 4, 4]
    out = ok(run(JA, p, play(0, "RSkip", calls=("stop",)), accept(1)))
    assert out["phase"] == "round_over"
    assert out["round_scores"] == [0, 4, 4]


def test_S59_rejected_action_no_penalty_no_counter() -> None:
    """S-59: a rejected action changes nothing and carries no penalty: an en player who
    would be left with 1 card draws nothing; a ja window counter does not advance."""
    p = pos([["R1", "B1"], ["G1", "G2", "G4"], ["Y1", "Y3"]], ["R3"], 0, list(PILE))
    out = rejected(EN, p, play(0, "B1"), reason="no_match")
    assert out["hands"][0] == ["R1", "B1"]
    assert out["draw_pile"] == PILE
    out = rejected(JA, p, play(0, "R1"), play(1, "G2"), reason="no_match")
    assert out["obligations"] == [{"seat": 0, "kind": "achtung", "placed": 0}]


def test_S60_penalty_before_effect() -> None:
    """S-60: placement, then call checks, then the card's effect: a missed en Achtung on a
    2 draws the top two cards before the victim draws the next two."""
    p = pos([["R2", "B1"], ["G1", "G3"], ["Y1", "Y3"]], ["R3"], 0, list(PILE))
    out = ok(run(EN, p, play(0, "R2"), accept(1)))
    assert out["hands"][0] == ["B1", "B5", "B7"]
    assert out["hands"][1] == ["G1", "G3", "G8", "Y8"]
    assert out["draw_pile"] == PILE[4:]
    assert out["turn"] == 2


def test_S62_real_time_options_do_not_change_replay() -> None:
    """S-62: interjection_grace_ms and cancel_window_ms concern real-time mode only; a
    replay is synchronous (S-61, records §4.4), so they change nothing."""
    p = pos([["R4", "G1", "G3"], ["R4", "B1", "B3"], ["Y1", "Y3"]], ["R3"], 0, list(PILE))
    events = (play(0, "R4"), interject(1, "R4"))
    base = ok(run(EN, p, *events))
    fast = ok(run(EN, p, *events, options={"interjection_grace_ms": 0, "cancel_window_ms": 0}))
    assert fast == base
    assert base["turn"] == 2


def test_S63_reveal_is_public_only_in_reveal_mode() -> None:
    """S-63: the ja Draw X reveal is public (last_reveal); an en flip reveals no hand."""
    p = pos([["RDrawX", "G1", "G3"], ["B4", "BSkip"], ["Y1", "Y3"]], ["R5"], 0, list(PILE))
    out = ok(run(EN, p, play(0, "RDrawX"), accept(1)))
    assert out["last_reveal"] is None
    out = ok(run(JA, p, play(0, "RDrawX"), accept(1, reveal_play="B4")))
    assert out["last_reveal"] == {"seat": 1, "hand": ["B4", "BSkip"]}


def test_upto_replays_a_prefix() -> None:
    """records §1: --upto N applies only the first N events (0 = right after setup; beyond
    the end applies all); records §4.4.2: the cancel window closes at the end of the
    applied events."""
    p = pos([["RExch", "R1", "G3"], ["R0", "B1", "B3"], ["Y1", "Y3", "Y4"]], ["R5"], 0, PILE)
    events = (play(0, "RExch", mode="left"), cancel(1, "R0"))
    zero = ok(run(EN, p, *events, upto=0))
    assert zero["applied"] == 0
    assert zero["hands"] == [["R1", "RExch", "G3"], ["R0", "B1", "B3"], ["Y1", "Y3", "Y4"]]
    one = ok(run(EN, p, *events, upto=1))
    assert one["applied"] == 1
    assert one["hands"] == [["Y1", "Y3", "Y4"], ["R1", "G3"], ["R0", "B1", "B3"]]
    assert one["pending"] is None
    full = ok(run(EN, p, *events))
    assert ok(run(EN, p, *events, upto=9)) == full
    assert full["hands"] == [["R1", "G3"], ["B1", "B3"], ["Y1", "Y3", "Y4"]]
    # Lines after N are not even parsed.
    bad = {"seat": 0, "type": "play", "cards": ["R1"], "bogus": True}
    assert ok(run(EN, p, *events, bad, upto=2)) == full
