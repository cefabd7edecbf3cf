"""The Stop & Go GameSpec (src/stoptable/games/stopandgo/spec.py): registry entry, option
table, seat checks, the action codec and notation round trips, facts and the driver."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from stoptable.core.driver import TurnDriver
from stoptable.core.errors import InvalidNotation, OptionError, PlayerCountError, RecordError
from stoptable.core.records import RecordWriter, replay_lines
from stoptable.games import replayer, spec
from stoptable.games.stopandgo import StopGoState, load_default_map
from stoptable.games.stopandgo.ruleset import Ruleset
from stoptable.games.stopandgo.spec import SPEC
from tests.games.stopandgo.support import MAPS


def test_the_registry_finds_the_spec_and_its_fixed_names() -> None:
    assert spec("stopandgo") is SPEC
    assert (SPEC.name, SPEC.title, SPEC.rules, SPEC.seat_rule) == (
        "stopandgo", "Stop & Go", "stop-and-go.md", "G-2",
    )  # fmt: skip
    assert SPEC.rulesets == ("stopgo-standard",) and SPEC.default_ruleset == "stopgo-standard"
    assert SPEC.terminations == ("all_collected", "stalled") and not SPEC.realtime
    assert SPEC.bot_module == "stoptable.bots.stopandgo" and replayer("stopandgo") is SPEC.replayer


def test_G22_the_option_table_lists_every_option_of_section_7_with_its_rule() -> None:
    table = {o["name"]: o for o in Ruleset.option_table("stopgo-standard")}
    assert list(table) == [
        "enforcement", "tickets_limit", "missed_turns_on_limit", "scoring",
        "destination_count", "destination_list", "dial_start", "dial_advance_on",
        "collect_on_reveal", "reverse_after_collect", "stall_turns",
    ]  # fmt: skip
    assert table["stall_turns"] == {
        "name": "stall_turns", "kind": "int", "default": 60, "rule": "G-22",
        "help": "consecutive still turns that end the game (0: off)", "minimum": 0,
        "maximum": 1000,
    }  # fmt: skip
    assert all(o["rule"].startswith("G-") and o["help"] for o in table.values())
    assert table["dial_advance_on"]["default"] == [1, 6]


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"speed": 3}, "'speed'"),
        ({"stall_turns": -1}, "'stall_turns'"),
        ({"stall_turns": True}, "'stall_turns'"),
        ({"enforcement": "maybe"}, "'enforcement'"),
        ({"dial_advance_on": [0]}, "'dial_advance_on'"),
        ({"destination_list": [2, 2]}, "'destination_list'"),
        ({"note": 3}, "note"),
    ],
)
def test_a_bad_option_is_an_OptionError_that_names_it(
    options: dict[str, object], named: str
) -> None:
    with pytest.raises(OptionError, match=named):
        SPEC.ruleset(None, options)
    with pytest.raises(OptionError, match=named):
        SPEC.new(seats=2, options=options)
    with pytest.raises(OptionError, match="'stopgo-deluxe'"):
        SPEC.ruleset("stopgo-deluxe")


@pytest.mark.parametrize("seats", [0, 1, 7])
def test_G2_a_bad_seat_count_is_a_PlayerCountError(seats: int) -> None:
    with pytest.raises(PlayerCountError) as err:
        SPEC.check_seats(seats)
    assert (err.value.reason, err.value.rule) == ("player_count", "G-2")
    with pytest.raises(PlayerCountError):
        SPEC.new(seats=seats)
    with pytest.raises(PlayerCountError):
        StopGoState.new_game(seats=seats)
    assert SPEC.seat_range() == (2, 6)


def test_new_state_takes_a_map_object_a_path_or_none() -> None:
    default = SPEC.new(seats=3, seed=4)
    assert default.game_map is load_default_map() and default.seats == 3
    from_path = SPEC.new(seats=2, map=MAPS / "base.json")
    assert from_path.game_map.name == "fixture-base"
    assert SPEC.new(seats=2, map=from_path.game_map).game_map is from_path.game_map


def test_position_state_reads_the_map_relative_to_base_dir() -> None:
    position = {"map": "base.json", "cars": [{"pos": "M"}, {"pos": "s1", "prev": "M"}]}
    state = SPEC.from_position(position, 2, base_dir=MAPS, options={"stall_turns": 9})
    assert state.cars[1].pos == state.game_map.index["s1"] and state.ruleset.stall_turns == 9
    with pytest.raises(RecordError, match=r"position\.map"):
        SPEC.from_position({"cars": [{"pos": "M"}] * 2}, 2)


def _random_states(games: int, turns: int) -> list[tuple[StopGoState, int]]:
    """States of seeded random games in which a seat is to move."""
    found = []
    for seed in range(games):
        rnd = random.Random(seed)
        state = SPEC.new(seats=2 + seed % 5, seed=seed, options={"enforcement": "fine"})
        for _ in range(turns):
            if state.result() is not None:
                break
            step = state.next_step()
            if step is not None:
                state.run_step(step)
            seat = state.to_move()
            assert seat is not None
            found.append((state.copy(), seat))
            legal = state.legal_actions(seat)
            state.apply(legal[rnd.randrange(len(legal))])
    return found


def test_every_legal_move_round_trips_through_json_and_notation() -> None:
    for state, seat in _random_states(games=6, turns=40):
        for move in state.legal_actions(seat):
            line = move.to_json()
            assert line.pop("seat") == seat
            assert SPEC.action_from_json(json.loads(json.dumps(line)), seat) == move
            assert SPEC.parse_action(move.notation(), seat) == move


@pytest.mark.parametrize(
    "line",
    [
        {"type": "fly", "path": ["M"]},
        {"path": ["M"]},
        {"type": "move"},
        {"type": "move", "path": "M a1"},
        {"type": "move", "path": ["M", 3]},
        {"type": "move", "path": ["M", "a-1"]},
        {"type": "move", "path": ["M"], "speed": 2},
        {"type": "move", "path": ["M"], "seat": 0},
        {"type": "move", "path": ["M"], "t": 5},
    ],
)
def test_a_malformed_action_line_is_InvalidNotation(line: dict[str, object]) -> None:
    with pytest.raises(InvalidNotation):
        SPEC.action_from_json(line, 0)


def test_a_space_id_the_map_lacks_is_InvalidNotation_from_apply() -> None:
    state = SPEC.new(seats=2, seed=1)
    move = SPEC.action_from_json({"type": "move", "path": ["M", "nowhere"]}, 0)
    before = state.to_json()
    state.run_step(state.next_step() or pytest.fail("a roll is due"), 3)
    rolled = state.to_json()
    with pytest.raises(InvalidNotation, match="nowhere"):
        state.apply(move)
    assert state.to_json() == rolled != before


@pytest.mark.parametrize("text", ["", "move", "  ", "move M a-1", "move M é"])
def test_unreadable_notation_is_InvalidNotation(text: str) -> None:
    with pytest.raises(InvalidNotation):
        SPEC.parse_action(text, 0)


def test_facts_are_what_an_encoder_needs() -> None:
    m = load_default_map()
    assert dict(SPEC.facts) == {
        "min_seats": 2, "max_seats": 6, "die_faces": 6, "max_path_spaces": 7,
        "max_destination": 25, "default_map_spaces": len(m.ids),
        "default_map_destinations": 25, "default_map_car_states": len(m.car_states),
        "default_map_dial_positions": 4,
    }  # fmt: skip
    assert SPEC.facts["default_map_spaces"] == 185
    with pytest.raises(KeyError):
        SPEC.facts["longest_hand"]


def test_the_driver_plays_a_game_to_its_end_and_writes_a_record_that_replays() -> None:
    from stoptable.bots.base import make_bot

    rules = SPEC.ruleset(None, {"destination_count": 3})
    state = SPEC.new(seats=3, seed=11, options={"destination_count": 3})
    writer = RecordWriter(SPEC.header(rules, 3, 11))
    driver = SPEC.driver(state, writer=writer) if SPEC.driver else pytest.fail("no driver")
    assert isinstance(driver, TurnDriver)
    bots = [make_bot("stopandgo", "heuristic", seat, seat + 1) for seat in range(3)]
    driver.play(bots)
    assert state.result() is not None and driver.decision() is None
    assert writer.events[0] == {"chance": "roll", "value": writer.events[0]["value"]}
    replayed = replay_lines(writer.lines(), replayer)
    assert replayed.exit_code == 0 and replayed.output is not None
    assert {k: v for k, v in replayed.output.items() if k != "applied"} == state.to_json()


def test_json_action_refuses_a_time() -> None:
    with pytest.raises(InvalidNotation):
        SPEC.json_action({"type": "move", "path": ["M"]}, 0, 5)
    with pytest.raises(InvalidNotation):
        SPEC.parse_action("move M", 0, 5)
    assert Path(SPEC.rules).suffix == ".md"
