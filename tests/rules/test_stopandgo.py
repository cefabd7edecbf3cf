"""Stop & Go rules (stop-and-go.md): one test per rule id G-1..G-21 and GM-1..GM-10.

Game rules are tested on the default map (ids: junction ``Xij``/``Lk``/``M``, street spaces
``h{i}{j}a..d`` running east and ``v{i}{j}a..d`` running south from junction (i, j)) or on
the fixture maps of tests/games/stopandgo/maps where a rule needs a small board.
"""

from __future__ import annotations

import json
import random

import pytest

from stoptable.core.errors import IllegalAction
from stoptable.games.stopandgo import Move, MoveRejected, Ruleset, load_default_map, new_game
from stoptable.games.stopandgo.mapgen import DEFAULT_PATH
from stoptable.games.stopandgo.reach import reachability_problems
from stoptable.games.stopandgo.requirements import requirement_problems
from stoptable.games.stopandgo.svg import render_svg
from tests.games.stopandgo.support import (
    car,
    codes,
    default_position,
    fixture,
    is_legal,
    play_out,
    position,
)
from tests.games.stopandgo.test_svg import groups, parse, space_points
from tests.support import replay


def _problems(prefix: str) -> list[str]:
    return [p for p in requirement_problems(load_default_map()) if p.startswith(prefix)]


# -- 1. Components, players, setup ---------------------------------------------------


def test_G1_components_map_die_dial_cards_cars_tickets() -> None:
    m = load_default_map()
    state = new_game(seats=4, seed=5)
    cards = [state.active, *state.deck]
    assert sorted(cards) == list(range(1, 26))
    assert len(set(m.destination_name.values())) == 25
    assert m.dial_positions == 4
    assert len(state.cars) == 4 and all(c.tickets == 0 for c in state.cars)
    rolls = set()
    for seed in range(40):
        s = new_game(seats=2, seed=seed)
        s.roll()
        rolls.add(s.rolled)
    assert rolls == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("seats", [1, 7])
def test_G2_GA4_two_to_six_players(seats: int) -> None:
    with pytest.raises(ValueError):
        new_game(seats=seats)
    result = replay({"game": "stopandgo", "ruleset": "stopgo-standard", "seats": seats})
    assert result.exit_code == 2
    assert result.output is not None and result.output["error"]["reason"] == "player_count"
    assert len(new_game(seats=6).cars) == 6 and len(new_game(seats=2).cars) == 2


def test_G3_GA17_setup_cars_on_market_deck_shuffled_first_card_up() -> None:
    m = load_default_map()
    a, b = new_game(seats=3, seed=11), new_game(seats=3, seed=11)
    assert a == b
    assert all(c.pos == m.market and c.prev == -1 for c in a.cars)
    assert a.active is not None and len(a.deck) == 24 and a.dial == 0
    orders = {tuple([new_game(seed=s).active, *new_game(seed=s).deck]) for s in range(5)}
    assert len(orders) == 5
    assert new_game(options={"dial_start": 2}).dial == 2
    assert len(new_game(options={"destination_count": 6}).deck) == 5


def test_G4_seats_play_in_order_and_out_of_turn_is_refused() -> None:
    state = new_game(seats=3, seed=1)
    order = []
    for _ in range(6):
        order.append(state.turn)
        state.roll()
        with pytest.raises(IllegalAction) as err:
            state.apply(Move((state.turn + 1) % 3, ("M",)))
        assert err.value.reason == "not_your_turn" and err.value.rule == "G-4"
        state.apply(Move(state.turn, ("M",)))
    assert order == [0, 1, 2, 0, 1, 2]


# -- 2. A turn -----------------------------------------------------------------------


def test_G5_GA19_missed_turn_no_roll_no_dial_and_dial_turns_before_the_move() -> None:
    m = fixture("dial")
    state = position(m, [car("s1", "M"), car("cm", "C", missed_turns=2)], active=1)
    state.apply_roll(6)
    assert state.dial == 1  # turned before the move: s1 -> X now shows red
    assert codes(state, 0, "s1", "X") == ["red"]
    state.apply(Move(0, ("s1",)))
    assert state.turn == 0 and state.cars[1].missed_turns == 1 and state.dial == 1
    state.apply_roll(3)
    assert state.dial == 1
    state.apply(Move(0, ("s1",)))
    assert state.turn == 0 and state.cars[1].missed_turns == 0
    state.apply_roll(1)
    assert state.dial == 2
    state.apply(Move(0, ("s1",)))
    assert state.turn == 1


def test_G6_move_up_to_the_roll_fewer_or_stand_still() -> None:
    state = default_position([car("h12b", "h12a"), car("M")], roll=3)
    for path in (("h12b",), ("h12b", "h12c"), ("h12b", "h12c", "h12d", "M")):
        assert is_legal(state, 0, *path)
    assert codes(state, 0, "h12c", "h12d") == ["bad_start"]
    with pytest.raises(MoveRejected) as err:
        state.apply(Move(0, ()))
    assert err.value.reasons == ["bad_start"] and err.value.rule == "G-6"


def test_G7_steps_must_be_adjacent_and_no_more_than_the_roll() -> None:
    state = default_position([car("h12a", "X12"), car("M")], roll=2)
    assert codes(state, 0, "h12a", "h12b", "h12c", "h12d") == ["too_far"]
    assert codes(state, 0, "h12a", "h12c") == ["not_adjacent"]
    assert codes(state, 0, "h12a", "h12a") == ["not_adjacent"]


def test_G8_one_car_per_space_except_market_and_passing_is_allowed() -> None:
    state = default_position([car("h12a", "X12"), car("h12c", "h12b"), car("M")], roll=4)
    assert codes(state, 0, "h12a", "h12b", "h12c") == ["occupied"]
    assert is_legal(state, 0, "h12a", "h12b", "h12c", "h12d")
    assert is_legal(state, 0, "h12a", "h12b", "h12c", "h12d", "M")


def test_G9_GA7_entering_the_active_destination_ends_the_move() -> None:
    # Destination 22 is h11b; a car entering it must stop there (GA-7).
    state = default_position([car("h11a", "L1"), car("M")], roll=5, active=22, deck=[1])
    assert codes(state, 0, "h11a", "h11b", "h11c") == ["passes_destination"]
    assert is_legal(state, 0, "h11a", "h11b")
    blocked = default_position([car("h11a", "L1"), car("h11b", "h11c")], roll=5, active=22)
    assert codes(blocked, 0, "h11a", "h11b") == ["occupied"]


# -- 3. Movement and traffic rules -----------------------------------------------------


def test_G10_GA21_no_u_turn_outside_market() -> None:
    state = default_position([car("h12c", "h12b"), car("M")], roll=3)
    assert codes(state, 0, "h12c", "h12b") == ["u_turn"]
    assert is_legal(state, 0, "h12c", "h12d", "M", "h12d")  # U-turn on the market
    assert codes(state, 0, "h12c", "h12d", "M", "h12d", "h12c") == ["too_far"]
    fresh = default_position([car("h12c"), car("M")], roll=1)  # prev null: any way
    assert is_legal(fresh, 0, "h12c", "h12b") and is_legal(fresh, 0, "h12c", "h12d")
    at_cross = default_position([car("X21", "v20d"), car("M")], roll=1)
    # Any arm but the one it came from (v21a is also fine to drive through, not to stop on).
    assert {p[-1] for p in at_cross.legal_paths(0)} == {"X21", "h11d", "h21a"}
    assert codes(at_cross, 0, "X21", "v20d") == ["u_turn"]


def test_G11_GA8_u_turn_once_after_collecting() -> None:
    state = default_position([car("h11a", "L1"), car("M")], roll=1, active=22, deck=[1])
    state.apply(Move(0, ("h11a", "h11b")))
    assert state.cars[0].reverse_ok and state.cars[0].collected == [22]
    for seat in (1, 0, 1):
        state.apply_roll(2)
        state.apply(Move(seat, (state.game_map.ids[state.cars[seat].pos],)))
    state.apply_roll(2)
    assert state.cars[0].reverse_ok  # a k = 0 move keeps it
    assert is_legal(state, 0, "h11b", "h11a")
    assert codes(state, 0, "h11b", "h11a", "h11b") == ["u_turn"]  # only the first step
    state.apply(Move(0, ("h11b", "h11a")))
    assert not state.cars[0].reverse_ok
    off = default_position(
        [car("h11a", "L1"), car("M")], roll=1, active=22, deck=[1], reverse_after_collect=False
    )
    off.apply(Move(0, ("h11a", "h11b")))
    assert not off.cars[0].reverse_ok


def test_G12_fixed_signs_on_the_default_map() -> None:
    cars = [car("v20b", "v20c"), car("X30", "h30a"), car("h02d", "h02c"), car("h32a", "h32b")]
    state = default_position(cars, roll=3)
    assert codes(state, 0, "v20b", "v20a", "X20") == ["stop"]
    assert is_legal(state, 0, "v20b", "v20a")
    state.turn = 1
    assert codes(state, 1, "X30", "h20d") == ["no_entry", "one_way"]
    state.turn = 2
    assert codes(state, 2, "h02d", "X12", "v11d") == ["compulsory_straight_or_right"]
    assert is_legal(state, 2, "h02d", "X12", "v12a") and is_legal(state, 2, "h02d", "X12", "h12a")
    state.turn = 3
    assert codes(state, 3, "h32a", "X32", "v32a") == ["no_turn"]
    priority = default_position([car("v20d", "v20c"), car("h11d", "h11c")], roll=2)
    assert codes(priority, 0, "v20d", "X21", "h21a") == ["major_road_ahead"]
    assert codes(priority, 0, "v20d", "X21", "v21a") == ["major_road_ahead", "no_waiting"]


def test_G13_dial_slots_show_one_value_per_position() -> None:
    m = load_default_map()
    north, west = (m.index["v10d"], m.index["L1"]), (m.index["h01d"], m.index["L1"])
    assert north not in m.dial[0] and north not in m.dial[2]  # green at q = 0 and 2
    assert m.dial[1][north].kind == "red" and m.dial[0][west].kind == "red"
    assert m.dial[2][west].kind == "major_road_ahead"
    assert {m.ids[w] for w in m.dial[2][west].watch} == {"v10d", "v11a"}
    state = default_position([car("v10d", "v10c"), car("v11a", "v11b")], roll=2, dial=1)
    assert codes(state, 0, "v10d", "L1", "h11a") == ["red"]
    at_zero = default_position([car("h01d", "h01c"), car("v10d", "v10c")], roll=2, dial=2)
    assert codes(at_zero, 0, "h01d", "L1", "h11a") == ["major_road_ahead"]
    exit_closed = default_position([car("v10d", "v10c"), car("M")], roll=2, dial=0)
    assert codes(exit_closed, 0, "v10d", "L1", "h01d") == ["closed"]


def test_G14_GA16_red_forbids_only_its_step_a_car_on_the_crossroads_may_leave() -> None:
    state = default_position([car("L1", "h01d"), car("h01d", "h01c")], roll=2, dial=0)
    assert is_legal(state, 0, "L1", "h11a", "h11b")
    state.apply(Move(0, ("L1", "h11a")))
    state.apply_roll(2)
    assert codes(state, 1, "h01d", "L1") == ["red"]
    assert is_legal(state, 1, "h01d")  # waiting at the light is always possible


# -- 4. Destinations, violations, end ------------------------------------------------------


def test_G15_applying_a_path_collects_and_turns_up_the_next_card() -> None:
    state = default_position([car("h11a", "L1"), car("M")], roll=4, active=22, deck=[5, 9])
    events = state.apply(Move(0, ("h11a", "h11b")))
    c = state.cars[0]
    m = state.game_map
    assert (m.ids[c.pos], m.ids[c.prev], c.collected) == ("h11b", "h11a", [22])
    assert state.active == 5 and state.deck == [9]
    assert [e.kind for e in events] == ["move", "collect", "reveal"]
    still = default_position([car("h11a", "L1"), car("M")], roll=4, active=22)
    before = still.copy()
    still.apply(Move(0, ("h11a",)))
    assert still.cars == before.cars


def test_G16_GA3_GA5_GA20_prevent_refuses_fine_returns_the_car_with_one_ticket() -> None:
    cars = [car("v20b", "v20c"), car("M")]
    prevent = default_position(cars, roll=3)
    with pytest.raises(MoveRejected) as err:
        prevent.apply(Move(0, ("v20b", "v20a", "X20", "v20a")))
    assert err.value.reasons == ["stop", "u_turn"]
    fine = default_position(cars, roll=3, enforcement="fine")
    fine.apply(Move(0, ("v20b", "v20a", "X20", "v20a")))
    c = fine.cars[0]
    assert (fine.game_map.ids[c.pos], fine.game_map.ids[c.prev], c.tickets) == ("v20b", "v20c", 1)
    assert fine.last_move is not None and fine.last_move["result"] == "violation"
    assert fine.last_move["reasons"] == ["stop", "u_turn"]
    hard = default_position(cars, roll=1, enforcement="fine")
    with pytest.raises(MoveRejected):
        hard.apply(Move(0, ("v20b", "v20a", "X20")))
    # GA-5: back to the start of the move with its heading and its U-turn permission.
    after_collect = default_position(
        [car("h11b", "h11a", reverse_ok=True), car("M")], roll=3, enforcement="fine"
    )
    after_collect.apply(Move(0, ("h11b", "h11c", "h11b")))
    back = after_collect.cars[0]
    assert back.reverse_ok and back.tickets == 1 and after_collect.game_map.ids[back.pos] == "h11b"


def test_G17_GA6_third_ticket_costs_three_turns_and_the_car_keeps_its_space() -> None:
    cars = [car("h12c", "h12b", tickets=2), car("M"), car("h12a", "X12")]
    state = default_position(cars, roll=1, enforcement="fine")
    state.apply(Move(0, ("h12c", "h12b")))
    assert (state.cars[0].tickets, state.cars[0].missed_turns) == (0, 3)
    for _ in range(3):
        for seat in (1, 2):
            assert state.turn == seat
            state.apply_roll(2)
            state.apply(Move(seat, (state.game_map.ids[state.cars[seat].pos],)))
    assert state.turn == 1 and state.cars[0].missed_turns == 0
    blocked = default_position(
        [car("h12c", "h12b", missed_turns=2), car("h12a", "X12")], roll=2, turn=1
    )
    assert codes(blocked, 1, "h12a", "h12b", "h12c") == ["occupied"]


def test_G18_GA9_a_card_turned_up_under_a_car_is_not_collected() -> None:
    m = fixture("base")
    state = position(m, [car("A", "aw"), car("be", "B")], roll=1, active=1, deck=[2])
    state.apply(Move(0, ("A", "an")))
    assert state.active == 2 and state.cars[1].collected == []
    on = position(
        m, [car("A", "aw"), car("be", "B")], roll=1, active=1, deck=[2], collect_on_reveal=True
    )
    on.apply(Move(0, ("A", "an")))
    assert on.cars[1].collected == [2] and on.over


def test_G19_the_game_ends_with_the_last_card() -> None:
    m = fixture("base")
    state = position(m, [car("A", "aw"), car("M")], roll=1, active=1)
    state.apply(Move(0, ("A", "an")))
    assert state.over and state.active is None and state.to_json()["turn"] is None
    with pytest.raises(IllegalAction) as err:
        state.apply(Move(1, ("M",)))
    assert (err.value.reason, err.value.rule) == ("game_over", "G-19")
    result = state.result()
    assert result is not None and result.winners == (0,)


def test_G20_GA18_scoring_count_or_sum_ties_share() -> None:
    m = fixture("base")
    cars = [car("A", "aw", collected=[4]), car("M", collected=[2, 3])]
    count = position(m, cars, roll=1, active=1)
    count.apply(Move(0, ("A", "an")))
    outcome = count.result()
    assert outcome is not None and outcome.scores == (2, 2) and outcome.winners == (0, 1)
    total = position(m, cars, roll=1, active=1, scoring="sum")
    total.apply(Move(0, ("A", "an")))
    outcome = total.result()
    assert outcome is not None and outcome.scores == (5, 5) and outcome.winners == (0, 1)


def test_G21_shorter_game_by_count_or_list() -> None:
    state = new_game(seats=2, seed=3, options={"destination_count": 3})
    full = new_game(seats=2, seed=3)
    assert [state.active, *state.deck] == [full.active, *full.deck][:3]
    listed = new_game(seats=2, seed=3, options={"destination_list": [7, 2]})
    assert (listed.active, listed.deck) == (7, [2])
    play_out(state, random.Random(3))
    assert sum(len(c.collected) for c in state.cars) == 3


# -- 5. The default map ------------------------------------------------------------


def test_GM1_GA1_the_engine_accepts_any_valid_map() -> None:
    state = new_game(seats=2, seed=2, game_map=fixture("dial"))
    assert play_out(state, random.Random(2)) > 0
    assert sum(len(c.collected) for c in state.cars) == 4


def test_GM2_size_connected_grid_streets_and_crossroads() -> None:
    m = load_default_map()
    assert 160 <= len(m.ids) <= 260
    assert _problems("GM-2") == []


def test_GM3_one_market_at_the_centre_with_four_neighbours() -> None:
    m = load_default_map()
    assert m.kinds.count("market") == 1 and len(m.neighbours[m.market]) >= 4
    assert _problems("GM-3") == []


def test_GM4_no_dead_ends() -> None:
    assert _problems("GM-4") == []


def test_GM5_twenty_five_destinations_spread_and_apart() -> None:
    m = load_default_map()
    assert sorted(m.destination_space) == list(range(1, 26))
    assert _problems("GM-5") == []


def test_GM6_crossroads_and_four_lighted_ones_with_slots() -> None:
    m = load_default_map()
    assert sum(k == "crossroads" for k in m.kinds) >= 16
    assert {m.ids[x] for x in m.lighted} == {"L1", "L2", "L3", "L4"}
    assert _problems("GM-6") == []


def test_GM7_every_sign_of_the_rulebook_appears() -> None:
    assert _problems("GM-7") == []


def test_GM8_sign_placement() -> None:
    assert _problems("GM-8") == []


def test_GM9_every_destination_reachable_for_every_dial_state() -> None:
    assert reachability_problems(load_default_map()) == []


def test_GM10_every_sign_and_window_is_drawn_on_the_right_of_its_step() -> None:
    m = load_default_map()
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    root = parse(render_svg(data, {"dial": 0, "cars": []}))
    pts = space_points(root)
    spots = groups(root, "sign") + groups(root, "window")
    wanted = {(s.from_, s.to, s.type) for s in m.model.signs}
    drawn = {(g.get("data-from"), g.get("data-to"), g.get("data-kind")) for g in spots}
    assert wanted <= drawn
    assert len(spots) == len(m.model.signs) + len(m.model.dial.slots)
    for g in spots:
        (ax, ay), (bx, by) = pts[g.get("data-from", "")], pts[g.get("data-to", "")]
        x, y = float(g.get("data-x", 0)), float(g.get("data-y", 0))
        dx, dy = bx - ax, by - ay
        side = (x - (ax + bx) / 2) * -dy + (y - (ay + by) / 2) * dx  # y grows south
        assert side > 0, g.attrib


def test_ruleset_options_are_validated() -> None:
    with pytest.raises(ValueError):
        Ruleset.preset("stopgo-standard", enforcement="maybe")
    with pytest.raises(ValueError):
        Ruleset.from_options("stopgo-standard", {"speed": 3})
    assert Ruleset.preset(dial_advance_on=[6]).options() == {"dial_advance_on": [6]}
