"""Helpers for the Stop conformance tests: positions, action lines and replay checks.

Every scenario is a record (rules/records.md §2) replayed through ``tests.support.replay``,
so the tests depend only on the normative record format and never on engine internals.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from stoptable.core.records import ReplayResult
from tests.support import replay

EN = "abacus-en"
JA = "abacus-ja"

COLOURS = "RBGY"
RANKS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "Skip", "Exch", "DrawX"]

# The 112-card deck of S-1 in canonical order (records.md §4.1): every coloured code twice.
FULL_DECK: list[str] = [f"{c}{r}" for c in COLOURS for r in RANKS for _ in range(2)] + ["FC"] * 8


def _key(card: str) -> tuple[int, int]:
    if card == "FC":
        return (4, 0)
    return (COLOURS.index(card[0]), RANKS.index(card[1:]))


def canon(cards: list[str] | tuple[str, ...]) -> list[str]:
    """A hand in the canonical order of records.md §4.1."""
    return sorted(cards, key=_key)


def deck_with(front: list[str]) -> list[str]:
    """A full 112-card deck (top first) that starts with ``front``; the rest canonical."""
    rest = Counter(FULL_DECK)
    rest.subtract(Counter(front))
    assert all(v >= 0 for v in rest.values()), "front is not a sub-multiset of the deck"
    return list(front) + canon(list(rest.elements()))


def pos(
    hands: list[list[str]],
    discard: list[str],
    turn: int,
    draw_pile: list[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A records.md §4.2 position; ``extra`` adds pending, obligations, totals, phase..."""
    p: dict[str, Any] = {
        "hands": hands,
        "discard": discard,
        "turn": turn,
        "draw_pile": draw_pile if draw_pile is not None else [],
    }
    p.update(extra)
    return p


def header(
    ruleset: str, position: dict[str, Any], options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A Stop header with an explicit position; ``seats`` is the number of hands."""
    h: dict[str, Any] = {
        "game": "stop",
        "ruleset": ruleset,
        "seats": len(position["hands"]),
        "position": position,
    }
    if options:
        h["options"] = options
    return h


def run(
    ruleset: str,
    position: dict[str, Any],
    *events: dict[str, Any],
    options: dict[str, Any] | None = None,
    upto: int | None = None,
) -> ReplayResult:
    """Replay ``events`` from ``position`` under ``ruleset`` (+ option overrides)."""
    return replay(header(ruleset, position, options), *events, upto=upto)


# ---- action and chance lines (records.md §4.3, §2.2) ----


def play(seat: int, *cards: str, calls: tuple[str, ...] = (), **fields: Any) -> dict[str, Any]:
    """A ``play`` line; ``fields`` may hold ``mode`` and ``target``."""
    ev: dict[str, Any] = {"seat": seat, "type": "play", "cards": list(cards)}
    if calls:
        ev["calls"] = list(calls)
    ev.update(fields)
    return ev


def interject(seat: int, card: str, calls: tuple[str, ...] = ()) -> dict[str, Any]:
    ev: dict[str, Any] = {"seat": seat, "type": "interject", "card": card}
    if calls:
        ev["calls"] = list(calls)
    return ev


def cancel(seat: int, card: str, calls: tuple[str, ...] = ()) -> dict[str, Any]:
    ev: dict[str, Any] = {"seat": seat, "type": "cancel", "card": card}
    if calls:
        ev["calls"] = list(calls)
    return ev


def accept(
    seat: int, reveal_play: str | None = None, calls: tuple[str, ...] = ()
) -> dict[str, Any]:
    ev: dict[str, Any] = {"seat": seat, "type": "accept"}
    if calls:
        ev["calls"] = list(calls)
    if reveal_play is not None:
        ev["reveal_play"] = reveal_play
    return ev


def draw(seat: int, calls: tuple[str, ...] = ()) -> dict[str, Any]:
    ev: dict[str, Any] = {"seat": seat, "type": "draw"}
    if calls:
        ev["calls"] = list(calls)
    return ev


def pass_(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "pass"}


def call_achtung(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "call_achtung"}


def call_stop(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "call_stop"}


def shuffle(order: list[str] | None = None) -> dict[str, Any]:
    """A ``shuffle`` chance line; without ``order`` the shuffle is drawn from the seed."""
    ev: dict[str, Any] = {"chance": "shuffle"}
    if order is not None:
        ev["order"] = order
    return ev


# ---- checks ----


def ok(result: ReplayResult) -> dict[str, Any]:
    """The output of a replay that must have succeeded (exit 0)."""
    assert result.exit_code == 0, (result.exit_code, result.message, result.output)
    assert result.output is not None
    return result.output


def rejected(
    ruleset: str,
    position: dict[str, Any],
    *events: dict[str, Any],
    reason: str,
    options: dict[str, Any] | None = None,
    compare_before: bool = True,
) -> dict[str, Any]:
    """Replay a scenario whose LAST event must be rejected with ``reason`` (exit 2).

    Also checks records.md §1/§3 and S-59: ``error.line`` is that event's line, ``applied``
    counts the earlier events, and the state printed is exactly the state before the
    rejected event (the same as replaying only the earlier events). A rejected ``cancel``
    leaves a cancel window open, which the shorter replay would close at its end
    (§4.4.2): pass ``compare_before=False`` there. Returns the output.
    """
    result = run(ruleset, position, *events, options=options)
    assert result.exit_code == 2, (result.exit_code, result.message, result.output)
    out = result.output
    assert out is not None
    assert out["error"]["reason"] == reason, out["error"]
    assert out["error"]["line"] == len(events) + 1
    assert out["applied"] == len(events) - 1
    if compare_before:
        before = ok(run(ruleset, position, *events[:-1], options=options))
        same = {k: v for k, v in out.items() if k != "error"}
        assert same == before
    return out


def rule_error(result: ReplayResult) -> tuple[int, str]:
    """(line, reason) of an exit-2 replay."""
    assert result.exit_code == 2, (result.exit_code, result.message, result.output)
    assert result.output is not None
    err = result.output["error"]
    return err["line"], err["reason"]


def malformed(result: ReplayResult) -> str:
    """The message of a replay that must be malformed (exit 1)."""
    assert result.exit_code == 1, (result.exit_code, result.output)
    assert result.message
    return result.message
