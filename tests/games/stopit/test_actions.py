"""Requests: JSON lines, the compact notation, and their errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stoptable.core.errors import InvalidNotation, RecordError
from stoptable.games.stopit import (
    CallStop,
    Go,
    Grab,
    Insert,
    Move,
    PlayStop,
    Request,
    action_from_json,
    parse_card,
    parse_request,
    request_from_json,
)
from stoptable.games.stopit.actions import parse_action

IDS = st.sampled_from(["red#1", "STOP-blue#2", "SUPER#1", "brown#17", "green#x9"])
TIMES = st.integers(min_value=0, max_value=10**9)
SEATS = st.integers(min_value=0, max_value=5)
SMALL = st.integers(min_value=0, max_value=40)
STACKS = st.integers(min_value=0, max_value=8)
REQUESTS = st.one_of(
    st.builds(Go, SEATS, TIMES),
    st.builds(Grab, SEATS, TIMES, STACKS, st.none() | IDS, st.none() | SMALL),
    st.builds(Insert, SEATS, TIMES, SMALL),
    st.builds(Move, SEATS, TIMES, SMALL, SMALL),
    st.builds(CallStop, SEATS, TIMES, STACKS, st.none() | IDS),
    st.builds(PlayStop, SEATS, TIMES, IDS),
)


@settings(max_examples=60, deadline=None)
@given(REQUESTS)
def test_json_and_notation_round_trip(request: Request) -> None:
    line = request.to_json()
    assert request_from_json(line) == request
    client_line = {k: v for k, v in line.items() if k not in ("seat", "t")}
    assert action_from_json(client_line, request.seat, request.t) == request
    assert parse_request(request.seat, request.t, request.notation()) == request
    assert parse_action(request.notation(), request.seat, request.t) == request


def test_json_lines_match_records_md() -> None:
    assert Grab(1, 250, 1, "brown#4").to_json() == {
        "seat": 1,
        "type": "grab",
        "stack": "S2",
        "expect_id": "brown#4",
        "t": 250,
    }
    assert Move(0, 5, 3, 1).to_json() == {"seat": 0, "type": "move", "from": 3, "to": 1, "t": 5}
    assert Grab(0, 1, 0, None, 2).notation() == "grab S1 - @2"
    assert CallStop(0, 1, 4, "STOP-red#1").notation() == "stop S5 STOP-red#1"
    assert PlayStop(0, 1, "SUPER#2").notation() == "play SUPER#2"


@pytest.mark.parametrize(
    "line",
    [
        [],
        {"seat": 0, "type": "jump", "t": 0},
        {"seat": 0, "type": "go"},
        {"seat": 0, "type": "go", "t": -1},
        {"seat": "0", "type": "go", "t": 0},
        {"seat": 0, "type": "go", "t": 1.5},
        {"seat": 0, "type": "go", "t": True},
        {"seat": 0, "type": "go", "t": 0, "pos": 1},
        {"seat": 0, "type": "grab", "stack": "S1", "t": 0},
        {"seat": 0, "type": "grab", "stack": "S0", "expect_id": None, "t": 0},
        {"seat": 0, "type": "grab", "stack": "1", "expect_id": None, "t": 0},
        {"seat": 0, "type": "grab", "stack": "S10", "expect_id": None, "t": 0},
        {"seat": 0, "type": "grab", "stack": "S1", "expect_id": "pink#1", "t": 0},
        {"seat": 0, "type": "grab", "stack": "S1", "expect_id": "red", "t": 0},
        {"seat": 0, "type": "insert", "pos": "1", "t": 0},
        {"seat": 0, "type": "move", "from": 1, "t": 0},
        {"seat": 0, "type": "play_stop", "card_id": None, "t": 0},
    ],
)
def test_malformed_lines_are_record_errors(line: object) -> None:
    with pytest.raises(RecordError):
        request_from_json(line)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "jump",
        "go now",
        "grab S1",
        "grab S1 red#1 3",
        "grab X1 red#1",
        "grab S10 red#1",
        "insert x",
        "play -",
    ],
)
def test_unreadable_notation(text: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_request(0, 0, text)


def test_card_ids() -> None:
    assert parse_card("STOP-purple#2") == "STOP-purple"
    for bad in ("STOP#1", "red#", "red#1#2", "SUPER-red#1", "Red#1", 5):
        with pytest.raises(ValueError):
            parse_card(bad)


def test_fast_makers_build_ordinary_equal_requests() -> None:
    from stoptable.games.stopit.actions import new_grab, new_insert

    # the makers, not the constructors they fall back to, in the pure and compiled builds
    assert new_grab is not Grab and new_insert is not Insert
    grab, insert = new_grab(1, 250, 2, "red#3"), new_insert(0, 300, 4)
    assert type(grab) is Grab and type(insert) is Insert
    assert grab == Grab(1, 250, 2, "red#3") and hash(grab) == hash(Grab(1, 250, 2, "red#3"))
    assert insert == Insert(0, 300, 4) and repr(insert) == repr(Insert(0, 300, 4))
    assert grab.pos is None and grab.to_json() == Grab(1, 250, 2, "red#3").to_json()


def test_requests_copy_pickle_and_replace_as_frozen_dataclasses() -> None:
    """Each request writes its own ``__init__`` (native stores compiled) and ``__reduce__``:
    still a frozen dataclass that compares, hashes, copies, pickles and is replaced by
    field as one, in the pure build and compiled."""
    import copy
    import dataclasses
    import pickle

    made = [
        Grab(1, 250, 2, "red#3"),
        Grab(1, 250, 2, None, 4),
        Insert(0, 300, 4),
        Move(2, 10, 3, 0),
        CallStop(2, 90, 4, "SUPER#1"),
        PlayStop(1, 80, "STOP-red#2"),
        Go(3, 7),
    ]
    for request in made:
        fields = {f.name: getattr(request, f.name) for f in dataclasses.fields(request)}
        assert type(request)(**fields) == request
        for other in (
            copy.copy(request),
            copy.deepcopy(request),
            pickle.loads(pickle.dumps(request)),
        ):
            assert type(other) is type(request) and other == request
            assert hash(other) == hash(request) and repr(other) == repr(request)
        later = dataclasses.replace(request, t=request.t + 5)
        assert later.t == request.t + 5 and later != request
        with pytest.raises(dataclasses.FrozenInstanceError):
            request.seat = 5  # type: ignore[misc]
