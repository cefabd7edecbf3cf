"""Setting a game up from a seed, an explicit deck or a position (I-3, records.md §5.2).

Malformed input raises ValueError with a message; the record layer turns it into a
RecordError. Stacks are returned *top last* (the state's internal order: a grab is a pop).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from stoptable.core.rng import Rng
from stoptable.games.stopit.cards import check_composition, shuffle_deck, standard_deck
from stoptable.games.stopit.ruleset import Ruleset

POSITION_FIELDS: Final = (
    "stacks",
    "hands",
    "held",
    "supply",
    "minus_cards",
    "extra_points",
    "phase",
    "go_seat",
    "clock",
)
"""The records.md §5.2 position keys, in the order a record header writes them."""
POSITION_KEYS: Final = frozenset(POSITION_FIELDS)


@dataclass(slots=True)
class Layout:
    """Everything a setup decides; the state takes it over."""

    kinds: dict[str, str]
    stacks: list[list[str]]
    hands: list[list[str]]
    held: list[str | None]
    supply: int
    minus_cards: list[int]
    extra_points: list[int]
    phase: str
    go_seat: int
    clock: int


def deal(deck: list[str], stack_count: int) -> list[list[str]]:
    """Round-robin deal, ``deck`` top first: deck[i] goes under stack i mod k (IA-2).

    Returned top last:

    >>> deal(["a", "b", "c", "d", "e", "f"], 5)[0]
    ['f', 'a']
    """
    return [list(reversed(deck[i::stack_count])) for i in range(stack_count)]


_STANDARD_DECK: Final = tuple(standard_deck())
"""The unshuffled ids of a seeded setup, built once (every simulated game starts here)."""


def seeded_deck(seed: int) -> tuple[list[str], Rng]:
    """The 135 ids shuffled with ``seed`` (top first) and the generator used."""
    rng = Rng(seed)
    deck = list(_STANDARD_DECK)
    shuffle_deck(rng, deck)
    return deck, rng


def _fresh(ruleset: Ruleset, seats: int, kinds: dict[str, str], deck: list[str]) -> Layout:
    return Layout(
        kinds=kinds,
        stacks=deal(deck, ruleset.stack_count),
        hands=[[] for _ in range(seats)],
        held=[None] * seats,
        supply=ruleset.minus_supply,
        minus_cards=[0] * seats,
        extra_points=[0] * seats,
        phase="waiting_go",
        go_seat=ruleset.first_go_seat,
        clock=0,
    )


def layout_from_deck(ruleset: Ruleset, seats: int, deck: object) -> Layout:
    """A fresh game dealt from an explicit deck of 135 ids, top first."""
    if not isinstance(deck, list):
        raise ValueError("'deck' must be a list of card ids")
    kinds = check_composition(deck, exact=True)
    return _fresh(ruleset, seats, kinds, list(deck))


_STANDARD_KINDS: Final = check_composition(_STANDARD_DECK, exact=True)
"""The kinds of the seeded deck's ids, computed once and shared (never mutated)."""


def layout_from_seed(ruleset: Ruleset, seats: int, seed: int) -> tuple[Layout, Rng]:
    """A fresh game dealt from the seeded shuffle."""
    deck, rng = seeded_deck(seed)
    return _fresh(ruleset, seats, _STANDARD_KINDS, deck), rng


def _int(value: object, name: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ValueError(f"position: {name!r} must be an integer >= {low}")
    return value


def _per_seat(position: dict[str, Any], key: str, seats: int, default: Any) -> list[Any]:
    value = position.get(key)
    if value is None and key not in position:
        return [default] * seats
    if not isinstance(value, list) or len(value) != seats:
        raise ValueError(f"position: {key!r} must be a list with one entry per seat")
    return list(value)


def without_note(obj: dict[str, Any], where: str) -> dict[str, Any]:
    """``obj`` without its ``note``: records.md §2 lets any object carry a note string."""
    if "note" not in obj:
        return obj
    if not isinstance(obj["note"], str):
        raise ValueError(f"{where}: 'note' must be a string")
    return {k: v for k, v in obj.items() if k != "note"}


def layout_from_position(ruleset: Ruleset, seats: int, position: object) -> Layout:
    """A game from an explicit position (records.md §5.2); ValueError if it does not fit."""
    if not isinstance(position, dict):
        raise ValueError("'position' must be an object")
    position = without_note(position, "position")
    unknown = sorted(set(position) - POSITION_KEYS)
    if unknown:
        raise ValueError(f"position: unknown key {unknown[0]!r}")
    for key in ("stacks", "hands"):
        if key not in position:
            raise ValueError(f"position: {key!r} is required")
    stacks = position["stacks"]
    if not isinstance(stacks, list) or len(stacks) != ruleset.stack_count:
        raise ValueError(f"position: 'stacks' must be {ruleset.stack_count} lists")
    hands = _per_seat(position, "hands", seats, [])
    held = _per_seat(position, "held", seats, None)
    for name, groups in (("stacks", stacks), ("hands", hands)):
        if not all(isinstance(g, list) for g in groups):
            raise ValueError(f"position: each entry of {name!r} must be a list of ids")
    every = [c for g in stacks for c in g] + [c for h in hands for c in h]
    every += [c for c in held if c is not None]
    kinds = check_composition(every, exact=False)
    minus = [_int(v, "minus_cards") for v in _per_seat(position, "minus_cards", seats, 0)]
    extra = [_int(v, "extra_points") for v in _per_seat(position, "extra_points", seats, 0)]
    phase = position.get("phase", "waiting_go")
    if phase not in ("waiting_go", "running"):
        raise ValueError("position: 'phase' must be 'waiting_go' or 'running'")
    go_seat = _int(position.get("go_seat", ruleset.first_go_seat), "go_seat")
    if go_seat >= seats:
        raise ValueError("position: 'go_seat' must be a seat")
    return Layout(
        kinds=kinds,
        stacks=[list(reversed(s)) for s in stacks],
        hands=[list(h) for h in hands],
        held=held,
        supply=_int(position.get("supply", ruleset.minus_supply), "supply"),
        minus_cards=minus,
        extra_points=extra,
        phase=str(phase),
        go_seat=go_seat,
        clock=_int(position.get("clock", 0), "clock"),
    )
