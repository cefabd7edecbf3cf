"""Rng determinism, error types and the small protocol values."""

from __future__ import annotations

import random

import pytest

from stoptable.core.errors import IllegalAction, InvalidNotation, StoptableError
from stoptable.core.protocol import Event, Outcome
from stoptable.core.rng import Rng


def test_same_seed_same_draws_and_copy_is_independent() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.randint(1, 6) for _ in range(50)] == [b.randint(1, 6) for _ in range(50)]
    c = a.copy()
    assert c == a
    assert [a.random() for _ in range(5)] == [c.random() for _ in range(5)]
    a.random()
    assert a != c


def test_different_seeds_differ_and_ranges_hold() -> None:
    xs = [Rng(1).randint(1, 6) for _ in range(1)] + [Rng(2).randint(1, 6)]
    assert all(1 <= x <= 6 for x in xs)
    values = {Rng(3).below(4) for _ in range(1)}
    assert values <= {0, 1, 2, 3}
    rng = Rng(5)
    assert {rng.randint(1, 6) for _ in range(500)} == {1, 2, 3, 4, 5, 6}
    seq = list(range(20))
    rng.shuffle(seq)
    assert sorted(seq) == list(range(20)) and seq != list(range(20))


def test_shuffle_is_the_written_out_fisher_yates() -> None:
    """Rng.shuffle draws its indices in C; the items and every later draw are those of the
    plain loop (every seeded deal of every game depends on it)."""
    for seed in range(60):
        for n in (0, 1, 2, 3, 17, 135):
            plain = random.Random(seed)
            expected = list(range(n))
            for i in range(n - 1, 0, -1):
                j = int(plain.random() * (i + 1))
                expected[i], expected[j] = expected[j], expected[i]
            rng = Rng(seed)
            items = list(range(n))
            rng.shuffle(items)
            assert items == expected
            assert rng.random() == plain.random()


def test_errors_are_value_errors_with_reason_and_rule() -> None:
    err = IllegalAction("stale", "I-31", "the top card changed")
    assert isinstance(err, ValueError) and isinstance(err, StoptableError)
    assert err.to_json() == {"reason": "stale", "rule": "I-31", "message": "the top card changed"}
    assert issubclass(InvalidNotation, ValueError)


def test_event_private_part_only_for_its_seat() -> None:
    event = Event("draw", 1, {"count": 1}, {"cards": ["B4"]})
    assert event.for_seat(1) == {"kind": "draw", "seat": 1, "count": 1, "cards": ["B4"]}
    assert event.for_seat(0) == {"kind": "draw", "seat": 1, "count": 1}
    assert event.for_seat(None) == {"kind": "draw", "seat": 1, "count": 1}


def test_outcome_ranks_share_places() -> None:
    low = Outcome.ranked("target_score", [120, 510, 120], lower_is_better=True)
    assert low.winners == (0, 2) and low.ranks == (1, 3, 1)
    high = Outcome.ranked("all_collected", [3, 5, 1], lower_is_better=False)
    assert high.winners == (1,) and high.ranks == (2, 1, 3)


def test_rng_random_function_draws_what_below_draws() -> None:
    """``int(f() * n)`` with ``f = rng.random_function()`` is ``below(n)``, draw for draw
    (the random bot's one call less), and it advances the same generator."""
    a, b = Rng(11), Rng(11)
    draw = a.random_function()
    assert [int(draw() * n) for n in range(1, 40)] == [b.below(n) for n in range(1, 40)]
    assert a == b


def test_event_setters_build_an_equal_event() -> None:
    """``EVENT_SETTERS`` (the engines' slot-by-slot build) gives an Event equal to the
    constructor's, where the build has them (the interpreted one)."""
    from stoptable.core.protocol import EVENT_SETTERS

    if EVENT_SETTERS is None:
        pytest.skip("the compiled build: Event is a native class, built by its constructor")
    kind, seat, public, private, line = EVENT_SETTERS
    ev = object.__new__(Event)
    kind(ev, "draw")
    seat(ev, 1)
    public(ev, {"count": 1})
    private(ev, {"cards": ["B4"]})
    line(ev, None)
    assert ev == Event("draw", 1, {"count": 1}, {"cards": ["B4"]})
    assert ev.for_seat(1) == {"kind": "draw", "seat": 1, "count": 1, "cards": ["B4"]}


def test_field_setters_cover_every_field_in_order_or_nothing() -> None:
    """One setter per field in field order, building an equal object on ``__new__``; None
    for other names, or where a field has no descriptor of its own (no slots: the class
    holds a default, or nothing)."""
    from dataclasses import dataclass

    from stoptable.core.protocol import field_setters

    @dataclass(frozen=True, slots=True)
    class Slotted:
        a: int
        b: str = ""

    @dataclass(frozen=True)
    class Plain:
        a: int
        b: str = ""

    assert field_setters(Plain, ("a", "b")) is None
    assert field_setters(Slotted, ("b", "a")) is None
    assert field_setters(Slotted, ("a",)) is None
    setters = field_setters(Slotted, ("a", "b"))
    assert setters is not None
    made = Slotted.__new__(Slotted)
    setters[0](made, 3)
    setters[1](made, "x")
    assert made == Slotted(3, "x") and hash(made) == hash(Slotted(3, "x"))


def test_line_event_maker_builds_an_equal_event() -> None:
    """``new_line_event`` (a chance outcome with its record line) is the fast maker, not
    the constructor's fallback, and its event equals the constructor's."""
    from stoptable.core.protocol import new_event, new_line_event

    line = {"chance": "roll", "value": 4}
    made = new_line_event("roll", 2, {"value": 4}, line)
    assert made == Event("roll", 2, {"value": 4}, line=line) and made.line is line
    assert made.private is None and made.for_seat(2) == {"kind": "roll", "seat": 2, "value": 4}
    assert new_event is not Event
