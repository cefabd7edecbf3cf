"""Event's own ``__init__`` and the C-seeded generator (``core.rng.seeded``).

Both exist for the compiled build's speed (architecture.md, the compiled-build rules);
these hold them to what they replace: the dataclass's constructor (defaults, equality,
copies, pickles, ``replace``) and ``random.Random(seed)`` (the same state, so the same
draws), in whichever build imports them.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from stoptable.core.protocol import Event, compiled_event, compiled_line_event, new_event
from stoptable.core.rng import Rng, seeded


def test_event_defaults_as_the_dataclass() -> None:
    a, b = Event("tick"), Event("tick")
    assert (a.seat, a.public, a.private, a.line) == (None, {}, None, None)
    assert a.public is not b.public  # a new dict each, as default_factory gave


def test_event_equality_ignores_line_and_survives_copies() -> None:
    ev = Event("roll", 1, {"value": 3}, {"cards": ["B4"]}, {"roll": 3})
    assert ev == Event("roll", 1, {"value": 3}, {"cards": ["B4"]})
    for other in (copy.copy(ev), copy.deepcopy(ev), pickle.loads(pickle.dumps(ev))):
        assert other == ev and other.line == ev.line
    assert dataclasses.replace(ev, seat=2) == Event("roll", 2, {"value": 3}, {"cards": ["B4"]})
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.kind = "x"  # type: ignore[misc]


def test_makers_equal_the_constructor() -> None:
    want = Event("grab", 0, {"stack": "S1"}, {"pos": 2})
    assert new_event("grab", 0, {"stack": "S1"}, {"pos": 2}) == want
    assert compiled_event("grab", 0, {"stack": "S1"}, {"pos": 2}) == want
    line = compiled_line_event("roll", None, {"value": 4}, {"roll": 4})
    assert line == Event("roll", None, {"value": 4}) and line.line == {"roll": 4}


@pytest.mark.parametrize("seed", [0, 1, 7, 160_003, -5, 10**40])
def test_seeded_is_random_random(seed: int) -> None:
    ours, theirs = seeded(seed), random.Random(seed)
    assert ours.getstate() == theirs.getstate()
    assert [ours.gauss(0, 1) for _ in range(5)] == [theirs.gauss(0, 1) for _ in range(5)]
    assert Rng(seed) == Rng(seed) and Rng(seed).copy() == Rng(seed)
