"""Stop conformance: reason codes and their precedence (records.md §4.6, S-59).

Each test picks an action that breaks two or more rules at once and checks that the code
listed first in records §4.6 wins; ``rejected`` also checks that the state is unchanged.
"""

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
    pass_,
    play,
    pos,
    rejected,
)

PILE = ["B5", "B7", "G8", "Y8", "G7", "Y7"]
P = pos(
    [["R2", "RSkip", "BExch", "FC", "G1"], ["R0", "B0", "B5", "Y4"], ["Y1", "Y3", "R4"]],
    ["R3"],
    0,
    PILE,
)
OVER = pos([["R5"], ["R5", "G1", "G3"], ["Y1", "Y3", "R0"]], ["R3"], 0, PILE)
STOP = play(0, "R5", calls=("stop",))


def test_S50_S59_round_over_wins_over_everything() -> None:
    """records §4.6: round_over comes first for every seat action in round_over."""
    rejected(EN, OVER, STOP, play(2, "G9"), reason="round_over")
    rejected(EN, OVER, STOP, interject(1, "R5"), reason="round_over")
    rejected(EN, OVER, STOP, interject(2, "G9"), reason="round_over")
    rejected(EN, OVER, STOP, cancel(2, "R0"), reason="round_over")
    rejected(EN, OVER, STOP, accept(1), reason="round_over")
    rejected(EN, OVER, STOP, pass_(1), reason="round_over")
    rejected(EN, OVER, STOP, call_achtung(1), reason="round_over")
    rejected(JA, OVER, STOP, call_stop(0), reason="round_over")


def test_S11_S35_play_precedence_with_pending_effect() -> None:
    """records §4.6 play: with a draw2 pending, a non-victim gets not_your_turn before
    not_in_hand; the victim gets not_in_hand before response_required; then
    response_required / wrong_defence_colour."""
    r2 = play(0, "R2")
    rejected(EN, P, r2, play(2, "G9"), reason="not_your_turn")
    rejected(EN, P, r2, play(1, "G9"), reason="not_in_hand")
    rejected(EN, P, r2, play(1, "Y4"), reason="response_required")
    rejected(EN, P, r2, play(1, "B0"), reason="wrong_defence_colour")
    rejected(EN, P, r2, play(1, "FC", "R0"), reason="not_in_hand")


def test_S11_S58_play_precedence_normal_turn() -> None:
    """records §4.6 play: not_your_turn, then not_in_hand, then fc_needs_colour_card,
    no_match, invalid_mode."""
    rejected(EN, P, play(1, "G9"), reason="not_your_turn")
    rejected(EN, P, play(0, "G9"), reason="not_in_hand")
    rejected(EN, P, play(0, "FC"), reason="fc_needs_colour_card")
    rejected(EN, P, play(0, "BExch"), reason="no_match")
    rejected(EN, P, play(0, "FC", "BExch"), reason="invalid_mode")


def test_S18_interject_precedence() -> None:
    """records §4.6 interject: closing before not_in_hand; not_in_hand before
    symbol_not_interjectable; symbol_not_interjectable before not_identical."""
    last = pos([["R2"], ["G1", "G3"], ["Y1", "Y3", "R4"]], ["R3"], 0, PILE)
    rejected(JA, last, play(0, "R2", calls=("stop",)), interject(2, "G9"), reason="closing")
    spent = pos([["G1", "G3"], ["B1", "B3"]], ["RSkip"], 0, PILE)
    rejected(EN, spent, interject(1, "RSkip"), reason="not_in_hand")
    rejected(EN, spent, interject(1, "B3"), reason="symbol_not_interjectable")
    rejected(EN, P, interject(2, "Y1"), reason="not_identical")


def test_S39_S40_cancel_precedence() -> None:
    """records §4.6 cancel: nothing_pending, not_eligible, not_in_hand,
    wrong_defence_colour (a non-0 as cancel)."""
    ex = pos([["RExch", "G1", "G3"], ["B1", "B3"], ["Y1", "Y3", "R4"]], ["R5"], 0, PILE)
    rejected(JA, ex, cancel(1, "G0"), reason="nothing_pending")
    swap = play(0, "RExch", mode="swap", target=2)
    rejected(JA, ex, swap, cancel(1, "G0"), reason="not_eligible", compare_before=False)
    rejected(JA, ex, swap, cancel(2, "R0"), reason="not_in_hand", compare_before=False)
    rejected(JA, ex, swap, cancel(2, "Y1"), reason="wrong_defence_colour", compare_before=False)


def test_S35_accept_precedence() -> None:
    """records §4.6 accept: nothing_pending before not_your_turn."""
    rejected(EN, P, accept(2), reason="nothing_pending")
    rejected(EN, P, play(0, "RSkip"), accept(2), reason="not_your_turn")


def test_S14_S17_draw_and_pass_precedence() -> None:
    """records §4.6 draw/pass: with a pending effect the victim gets response_required and
    others not_your_turn; otherwise not_your_turn before draw_unavailable /
    pass_unavailable."""
    rejected(EN, P, play(0, "RSkip"), pass_(2), reason="not_your_turn")
    rejected(EN, P, play(0, "RSkip"), pass_(1), reason="response_required")
    rejected(JA, P, draw(1), reason="not_your_turn")
    rejected(EN, P, pass_(2), reason="not_your_turn")
    rejected(JA, P, draw(0), reason="draw_unavailable")
    rejected(EN, P, pass_(0), reason="pass_unavailable")


def test_S26_call_precedence() -> None:
    """records §4.6 calls: window_closed when no obligation of that kind is open (a
    late_stop window is not an Achtung window and vice versa)."""
    last = pos([["R5"], ["G1", "G3"], ["Y1", "Y3"]], ["R3"], 0, PILE)
    rejected(JA, last, play(0, "R5"), call_achtung(0), reason="window_closed")
    one = pos([["R5", "R1"], ["G1", "G3", "G4"], ["Y1", "Y3"]], ["R3"], 0, PILE)
    rejected(JA, one, play(0, "R5"), call_stop(0), reason="window_closed")
