"""Reading the setup of a game: the destination deck (G-3, G-21) and a §6.1 position.

Both raise :class:`RecordError` with a message naming the bad entry, since they read what
a record header gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from stoptable.core.errors import RecordError
from stoptable.core.rng import Rng
from stoptable.games.stopandgo.board import NO_SPACE, StopGoMap
from stoptable.games.stopandgo.ruleset import Ruleset

POSITION_KEYS: Final = frozenset(
    {"map", "cars", "dial", "active", "deck", "turn", "roll", "still_turns", "note"}
)
CAR_KEYS: Final = frozenset(
    {"pos", "prev", "reverse_ok", "tickets", "missed_turns", "collected", "note"}
)


def _check_keys(data: Mapping[str, Any], known: frozenset[str], what: str) -> None:
    """Unknown keys are errors; ``note`` is allowed but must be a string (records.md §2)."""
    unknown = sorted(set(data) - known)
    if unknown:
        raise RecordError(f"{what}: unknown key {unknown[0]!r}")
    if "note" in data and not isinstance(data["note"], str):
        raise RecordError(f"{what}.note must be a string")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _numbers(game_map: StopGoMap, values: object, what: str) -> list[int]:
    if not isinstance(values, list) or not all(_is_int(v) for v in values):
        raise RecordError(f"{what} must be a list of destination numbers")
    for v in values:
        if v not in game_map.destination_space:
            raise RecordError(f"{what}: the map has no destination {v}")
    if len(set(values)) != len(values):
        raise RecordError(f"{what}: a destination is listed twice")
    return list(values)


def initial_deck(
    game_map: StopGoMap, rules: Ruleset, rng: Rng, deck: list[int] | None
) -> list[int]:
    """The cards in play, top first: ``destination_list``, else ``deck``, else a shuffle;
    then the first ``destination_count`` of them (G-21)."""
    if rules.destination_list is not None:
        cards = _numbers(game_map, list(rules.destination_list), "destination_list")
    elif deck is not None:
        cards = _numbers(game_map, deck, "deck")
        if not cards:
            raise RecordError("deck: a deck needs at least one card")
    else:
        cards = sorted(game_map.destination_space)
        rng.shuffle(cards)
    count = rules.destination_count
    if count is not None:
        if count > len(cards):
            raise RecordError(f"destination_count {count}: only {len(cards)} cards in play")
        cards = cards[:count]
    return cards


@dataclass(frozen=True, slots=True)
class PositionValues:
    """A read position: cars as ``(pos, prev, reverse_ok, tickets, missed_turns, collected)``;
    ``still_turns`` is the G-22 count."""

    cars: list[tuple[int, int, bool, int, int, list[int]]]
    dial: int
    active: int | None
    deck: list[int]
    turn: int
    roll: int | None
    still_turns: int = 0


def _space(game_map: StopGoMap, value: object, what: str) -> int:
    if not isinstance(value, str) or value not in game_map.index:
        raise RecordError(f"{what}: the map has no space {value!r}")
    return game_map.index[value]


def _count(data: Mapping[str, Any], key: str, what: str, default: int = 0) -> int:
    value = data.get(key, default)
    if not _is_int(value) or value < 0:
        raise RecordError(f"{what}.{key} must be an integer >= 0")
    return int(value)


def _car(
    game_map: StopGoMap, data: object, what: str
) -> tuple[int, int, bool, int, int, list[int]]:
    if not isinstance(data, dict):
        raise RecordError(f"{what} must be an object")
    _check_keys(data, CAR_KEYS, what)
    if "pos" not in data:
        raise RecordError(f"{what}: 'pos' is required")
    pos = _space(game_map, data["pos"], f"{what}.pos")
    prev = NO_SPACE
    if data.get("prev") is not None:
        prev = _space(game_map, data["prev"], f"{what}.prev")
        if not game_map.is_adjacent(prev, pos):
            raise RecordError(f"{what}: prev {data['prev']!r} is not next to {data['pos']!r}")
    reverse_ok = data.get("reverse_ok", False)
    if not isinstance(reverse_ok, bool):
        raise RecordError(f"{what}.reverse_ok must be true or false")
    collected = _numbers(game_map, data.get("collected", []), f"{what}.collected")
    return (
        pos, prev, reverse_ok, _count(data, "tickets", what), _count(data, "missed_turns", what),
        collected,
    )  # fmt: skip


def position_state(
    game_map: StopGoMap, seats: int, position: Mapping[str, Any], dial_start: int
) -> PositionValues:
    """Read and check a records.md §6.1 position against ``game_map``."""
    _check_keys(position, POSITION_KEYS, "position")
    raw_cars = position.get("cars")
    if not isinstance(raw_cars, list) or len(raw_cars) != seats:
        raise RecordError(f"position.cars must be a list of {seats} cars")
    cars = [_car(game_map, c, f"position.cars[{i}]") for i, c in enumerate(raw_cars)]
    standing: dict[int, int] = {}
    for i, car in enumerate(cars):
        if car[0] != game_map.market and car[0] in standing:
            raise RecordError(f"position.cars[{i}]: space {game_map.ids[car[0]]!r} is taken")
        standing[car[0]] = i
    dial = _count(position, "dial", "position", dial_start)
    if dial >= game_map.dial_positions:
        raise RecordError(f"position.dial must be below {game_map.dial_positions}")
    active = position.get("active")
    if active is not None:
        active = _numbers(game_map, [active], "position.active")[0]
    deck = _numbers(game_map, position.get("deck", []), "position.deck")
    if active is None and deck:
        raise RecordError("position: 'active' is null but the deck is not empty")
    every = [n for car in cars for n in car[5]] + deck + ([active] if active is not None else [])
    if len(set(every)) != len(every):
        raise RecordError("position: a destination card is in two places")
    turn = _count(position, "turn", "position")
    if turn >= seats:
        raise RecordError(f"position.turn must be a seat 0-{seats - 1}")
    roll = position.get("roll")
    if roll is not None and (not _is_int(roll) or not 1 <= roll <= 6):
        raise RecordError("position.roll must be null or 1-6")
    if roll is not None and active is None:
        raise RecordError("position.roll must be null when the game is over")
    still = _count(position, "still_turns", "position")
    return PositionValues(cars, dial, active, deck, turn, roll, still)
