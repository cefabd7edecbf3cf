"""The Stop it! discrete-event simulator (stop-it.md I-50..I-55)."""

from __future__ import annotations

import copy
import math
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stoptable.bots.ismcts_stopit import IsmctsBot
from stoptable.bots.stopit import DEFAULT_TIMINGS, HeuristicBot, RandomBot, ReactionTimes, Timing
from stoptable.core.errors import OptionError
from stoptable.core.records import replay_lines
from stoptable.core.rng import Rng
from stoptable.games import replayer
from stoptable.games.stopit import CallStop, Go, Grab, Insert, Request, StopItState
from stoptable.games.stopit.ruleset import sim_ruleset
from stoptable.games.stopit.spec import SPEC as STOPIT
from stoptable.games.stopit.views import LEAN_KEYS, LeanLook
from stoptable.live.machine import Happening
from stoptable.live.virtual import VirtualTable
from stoptable.sim.stopit_tournament import play_game, run_tournament, seating

Plan = Callable[[dict[str, Any], int], "tuple[Request, int] | None"]


class ScriptBot:
    """A bot with a fixed perceive delay that answers from a plan and logs its observations."""

    name = "script"

    def __init__(self, seat: int, plan: Plan, perceive: int = 200) -> None:
        self.seat = seat
        self.plan = plan
        self.reaction = ReactionTimes(Rng(seat), {"perceive": Timing(perceive, perceive, 0.0)})
        self.seen: list[tuple[int, str]] = []

    def observe(self, view: dict[str, Any], now: int) -> tuple[Request, int] | None:
        self.seen.append((now, view["phase"]))
        return self.plan(view, now)


def idle(view: dict[str, Any], now: int) -> None:
    return None


def running(stacks: list[list[str]], hands: int = 2, **extra: Any) -> StopItState:
    stacks = stacks + [[] for _ in range(5 - len(stacks))]
    position = {"stacks": stacks, "hands": [[] for _ in range(hands)], "phase": "running"}
    position.update(extra)
    return StopItState.from_position(sim_ruleset(), hands, position)


def log_of(table: VirtualTable) -> list[Happening]:
    log: list[Happening] = []
    table.listener = log.append
    return log


# ---------------------------------------------------------------- I-50


def test_I50_virtual_clock_same_seed_same_record_byte_for_byte() -> None:
    bots = ["heuristic", "random", "heuristic", "random"]
    first = play_game(bots, 11, record=True)
    second = play_game(bots, 11, record=True)
    assert first.record is not None
    assert first.record == second.record
    assert play_game(bots, 12, record=True).record != first.record
    # The game lasts tens of seconds of game time but never waits on the wall clock.
    assert first.duration_ms > 5_000


def test_I50_queue_is_processed_in_time_order() -> None:
    state = StopItState.new_game(sim_ruleset(), 3, 5)
    from stoptable.bots.base import make_bot

    table = VirtualTable(
        STOPIT, state, {k: make_bot("stopit", "heuristic", k, k) for k in range(3)}
    )
    log = log_of(table)
    table.run()
    times = [h.t for h in log]
    assert times == sorted(times)
    assert state.phase == "game_over"


@settings(max_examples=20, deadline=None)
@given(
    st.integers(min_value=0, max_value=2**31),
    st.lists(st.sampled_from(["heuristic", "random"]), min_size=2, max_size=6),
)
def test_I50_I21_simulated_games_end(seed: int, bots: list[str]) -> None:
    result = play_game(bots, seed, first_go_seat=seed % len(bots))
    assert len(result.winners) >= 1
    if result.termination == "supply_empty":
        assert sum(result.scores) >= 15
    else:
        assert result.termination == "stacks_exhausted"


# ---------------------------------------------------------------- I-51


def test_I51_request_reaches_engine_at_now_plus_delay() -> None:
    state = running([["red#1"], ["blue#1"]])

    def plan(view: dict[str, Any], now: int) -> tuple[Request, int] | None:
        if view["tops"][0] is not None and view["held"] is None:
            return Grab(0, 0, 0, view["tops"][0]), 333
        return None

    table = VirtualTable(STOPIT, state, {0: ScriptBot(0, plan), 1: ScriptBot(1, idle)})
    log = log_of(table)
    table.run_until(2_000)
    grab = next(h for h in log if isinstance(h.request, Grab))
    assert grab.t == 200 + 333
    assert grab.request == Grab(0, 533, 0, "red#1")
    assert state.held[0] == "red#1"


def test_I51_a_lean_bot_sees_the_lean_look_and_any_other_bot_the_whole_view() -> None:
    """A bot that says ``lean_view`` is shown just the :data:`LEAN_KEYS` of its seat's
    view, through its ``look``; every other bot (a script, ISMCTS) the whole view."""
    state = running([["red#1"], ["blue#1"]])
    shown: dict[int, list[Any]] = {0: [], 1: []}

    def keep(seat: int) -> Plan:
        def plan(view: Any, now: int) -> None:
            whole = state.view(seat)
            assert view == (whole if seat else tuple(whole[key] for key in LEAN_KEYS))
            shown[seat].append(view)

        return plan

    class LeanScriptBot(ScriptBot):
        lean_view = True

        def look(self, look: LeanLook, now: int) -> tuple[Request, int] | None:
            return self.plan(look, now)

    table = VirtualTable(STOPIT, state, {0: LeanScriptBot(0, keep(0)), 1: ScriptBot(1, keep(1))})
    table.run_until(1_000)
    assert shown[0] and shown[1]
    assert all(isinstance(look, tuple) and len(look) == len(LEAN_KEYS) for look in shown[0])
    assert all(view.keys() == state.view(1).keys() for view in shown[1])
    assert not IsmctsBot.lean_view and HeuristicBot.lean_view and RandomBot.lean_view


class Guarded:
    """Wraps a lean bot: checks that its look leaves the look and the game unchanged."""

    lean_view = True

    def __init__(self, bot: Any, state: StopItState) -> None:
        self.bot, self.state = bot, state
        self.seat, self.reaction = bot.seat, bot.reaction
        self.looks = 0

    def look(self, look: LeanLook, now: int) -> tuple[Request, int] | None:
        before, game = copy.deepcopy(look), self.state.to_json()
        answer = self.bot.look(look, now)
        assert look == before and self.state.to_json() == game
        self.looks += 1
        return answer  # type: ignore[no-any-return]


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_I51_lean_bots_never_change_the_look_they_are_shown(seats: int) -> None:
    """The look's hand and held cards are the state's own lists and its other lists are
    shared by every look until the table changes: the bots only read them
    (views.lean_look)."""
    from stoptable.bots.base import make_bot

    for seed in range(3):
        state = StopItState.new_game(sim_ruleset(drop_penalty="fumble"), seats, seed)
        names = ["heuristic", "random"]
        bots = {
            k: Guarded(make_bot("stopit", names[k % 2 if seed else 0], k, seed * 8 + k), state)
            for k in range(seats)
        }
        VirtualTable(STOPIT, state, bots).run()
        assert state.phase == "game_over" and all(bot.looks for bot in bots.values())


def test_the_simulation_ruleset_is_cached_but_still_checked() -> None:
    assert sim_ruleset(first_go_seat=1) is sim_ruleset(first_go_seat=1)
    assert sim_ruleset(first_go_seat=1).min_pause_ms == 0
    with pytest.raises(OptionError):
        sim_ruleset(first_go_seat=True)  # equal to 1 as a key, still not an integer
    with pytest.raises(OptionError):
        sim_ruleset(first_go_seat=[1])  # not hashable: checked without the cache


# ---------------------------------------------------------------- I-52


def test_I52_reaction_times_shifted_lognormal_defaults() -> None:
    table = {name: (t.shift, t.median, t.sigma) for name, t in DEFAULT_TIMINGS.items()}
    assert table == {
        "perceive": (150, 250, 0.25),
        "reach": (200, 400, 0.20),
        "sort": (150, 300, 0.30),
        "shout": (100, 250, 0.30),
        "go": (1000, 1000, 0.0),
    }
    assert DEFAULT_TIMINGS["sort"].per_card == 15
    rt = ReactionTimes(Rng(3))
    for name, (shift, median, sigma) in table.items():
        samples = [rt.sample(name) for _ in range(4000)]  # type: ignore[arg-type]
        assert all(isinstance(x, int) and x >= shift for x in samples)
        assert abs(statistics.median(samples) - median) <= 0.03 * median
        if sigma > 0:
            logs = [math.log(x - shift) for x in samples if x > shift]
            assert abs(statistics.stdev(logs) - sigma) < 0.03
        else:
            assert set(samples) == {median}


def test_I52_sort_median_grows_with_the_hand_and_bots_are_seeded() -> None:
    rt = ReactionTimes(Rng(4))
    samples = [rt.sample("sort", 20) for _ in range(4000)]
    assert abs(statistics.median(samples) - (300 + 15 * 20)) <= 20
    a, b = ReactionTimes(Rng(9)), ReactionTimes(Rng(9))
    assert [a.sample("reach") for _ in range(50)] == [b.sample("reach") for _ in range(50)]
    fast = ReactionTimes(Rng(9), {"reach": Timing(50, 100, 0.1)})
    assert max(fast.sample("reach") for _ in range(200)) < 200


# ---------------------------------------------------------------- I-53


def test_I53_idle_bots_observed_at_t_plus_perceive_after_a_public_change() -> None:
    state = StopItState.from_position(
        sim_ruleset(), 3, {"stacks": [["red#1"], [], [], [], []], "hands": [[], [], []]}
    )

    def go(view: dict[str, Any], now: int) -> tuple[Request, int] | None:
        return (Go(0, 0), 1000) if view["phase"] == "waiting_go" else None

    bots = {0: ScriptBot(0, go, 150), 1: ScriptBot(1, idle, 180), 2: ScriptBot(2, idle, 260)}
    table = VirtualTable(STOPIT, state, bots)
    table.run_until(5_000)
    # Setup at 0 is the first public change; Go arrives at 150 + 1000.
    assert bots[1].seen == [(180, "waiting_go"), (1150 + 180, "running")]
    assert bots[2].seen == [(260, "waiting_go"), (1150 + 260, "running")]
    # The Go sender is observed at once when its request is processed.
    assert bots[0].seen == [(150, "waiting_go"), (1150, "running")]


def test_I53_a_bot_with_a_request_in_flight_is_observed_when_it_is_processed() -> None:
    state = running([["red#1", "blue#1"], ["green#1"]], hands=2)

    def slow_grab(view: dict[str, Any], now: int) -> tuple[Request, int] | None:
        if view["held"] is None and view["tops"][0] is not None and now < 1000:
            return Grab(0, 0, 0, view["tops"][0]), 900
        return None

    def quick_grab(view: dict[str, Any], now: int) -> tuple[Request, int] | None:
        if view["held"] is None and view["tops"][1] is not None:
            return Grab(1, 0, 1, view["tops"][1]), 100
        return None

    bots = {0: ScriptBot(0, slow_grab), 1: ScriptBot(1, quick_grab)}
    VirtualTable(STOPIT, state, bots).run_until(3_000)
    # Seat 1's grab at 300 is a public change, but seat 0's grab is in flight: seat 0 is
    # not observed at 300 + 200, only when its own grab is processed at 1100.
    assert [t for t, _ in bots[0].seen] == [200, 1100]
    # Seat 1 answered None at 300 and is idle: seat 0's grab at 1100 wakes it at 1300.
    assert [t for t, _ in bots[1].seen] == [200, 300, 1300]
    assert state.held == ["red#1", "green#1"]


def test_I53_I35_holding_bot_observed_at_once_on_interruption() -> None:
    state = running([["STOP-red#1"], ["blue#1"]], hands=3, held=[None, "red#2", "red#3"])
    state.hands[1:] = [[], []]

    def call(view: dict[str, Any], now: int) -> tuple[Request, int] | None:
        top = view["tops"][0]
        if view["phase"] == "running" and top is not None and top.startswith("STOP"):
            return CallStop(0, 0, 0, top), 100
        return None

    def insert_fast(view: dict[str, Any], now: int) -> tuple[Request, int] | None:
        if view["held"] is not None and view["phase"] == "interrupted":
            return Insert(1, 0, 0), 400
        return None

    def insert_too_late(view: dict[str, Any], now: int) -> tuple[Request, int] | None:
        if view["held"] is not None and view["phase"] == "interrupted":
            return Insert(2, 0, 0), 3_500  # longer than sort_grace_ms = 3000
        return None

    bots = {
        0: ScriptBot(0, call, 100),
        1: ScriptBot(1, insert_fast, 5_000),
        2: ScriptBot(2, insert_too_late, 5_000),
    }
    table = VirtualTable(STOPIT, state, bots)
    log = log_of(table)
    table.run_until(10_000)
    assert (200, "interrupted") in bots[1].seen
    assert (200, "interrupted") in bots[2].seen
    inserted = next(h for h in log if isinstance(h.request, Insert) and h.seat == 1)
    assert inserted.t == 600 and inserted.error is None
    late = next(h for h in log if isinstance(h.request, Insert) and h.seat == 2)
    assert late.t == 3_700 and late.error is not None and late.error.reason == "held_empty"
    grace_end = next(h for h in log if h.request is None)
    assert grace_end.t == 3_200
    assert any(e.kind == "auto_insert" and e.seat == 2 for e in grace_end.events)


# ---------------------------------------------------------------- I-54


def test_I54_same_time_ties_by_seq_never_by_seat() -> None:
    def grab_top(seat: int, delay: int) -> Plan:
        def plan(view: dict[str, Any], now: int) -> tuple[Request, int] | None:
            if view["held"] is None and now < 1000 and view["tops"][0] is not None:
                return Grab(seat, 0, 0, view["tops"][0]), delay
            return None

        return plan

    # Seat 1 looks first (t=200) and schedules its grab for t=500 first; seat 0 looks at
    # t=250 and schedules its grab for the same t=500 later: seat 1 gets the card.
    state = running([["red#1", "blue#1"]], hands=2)
    bots = {0: ScriptBot(0, grab_top(0, 250), 250), 1: ScriptBot(1, grab_top(1, 300), 200)}
    table = VirtualTable(STOPIT, state, bots)
    log = log_of(table)
    table.run_until(600)
    grabs = [h for h in log if isinstance(h.request, Grab)]
    assert [(h.t, h.seat) for h in grabs] == [(500, 1), (500, 0)]
    assert grabs[0].error is None
    assert grabs[1].error is not None and grabs[1].error.reason == "stale"
    assert state.held == [None, "red#1"]


# ---------------------------------------------------------------- I-55


def test_I55_tournament_rotates_seats_and_first_go_and_reports() -> None:
    assert [seating(2, g) for g in range(4)] == [
        ([0, 1], 0),
        ([1, 0], 0),
        ([0, 1], 1),
        ([1, 0], 1),
    ]
    seen: list[tuple[tuple[str, ...], int]] = []
    report = run_tournament(
        ["heuristic", "random"], 4, seed=7, progress=lambda r: seen.append((r.bots, r.seed))
    )
    assert seen == [
        (("heuristic", "random"), 7),
        (("random", "heuristic"), 8),
        (("heuristic", "random"), 9),
        (("random", "heuristic"), 10),
    ]
    assert report.games == 4
    assert [line.name for line in report.lines] == ["heuristic", "random"]
    assert math.isclose(sum(line.win_share for line in report.lines), 1.0)
    assert all(line.minus.n == 4 for line in report.lines)
    assert report.evaluations.mean >= 1


def test_I55_records_written_rotate_first_go_seat(tmp_path: Path) -> None:
    run_tournament(["heuristic", "random"], 3, seed=1, records_dir=tmp_path)
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["game-0001.jsonl", "game-0002.jsonl", "game-0003.jsonl"]
    third = files[2].read_text("utf-8").splitlines()
    assert '"first_go_seat":1' in third[0]
    assert '"seat":1,"type":"go"' in third[1]


def test_I55_real_time_factor_paces_against_the_wall_clock() -> None:
    waits: list[float] = []
    result = play_game(["heuristic", "heuristic"], 3, real_time_factor=1.0, sleep=waits.append)
    # The fake sleep does not sleep, so the last wait is the whole game time.
    assert max(waits) == __import__("pytest").approx(result.duration_ms / 1000, abs=1.0)
    assert play_game(["heuristic", "heuristic"], 3).scores == result.scores


# ---------------------------------------------------------------- records


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=2**31), st.integers(min_value=2, max_value=6))
def test_I50_records_replay_to_the_same_final_state(seed: int, seats: int) -> None:
    bots = ["heuristic", "random"] * 3
    ruleset = sim_ruleset(first_go_seat=seed % seats)
    state = StopItState.new_game(ruleset, seats, seed)
    from stoptable.bots.base import make_bot
    from stoptable.core.records import RecordWriter
    from stoptable.games.stopit.records import record_header

    writer = RecordWriter(record_header(state, seed))
    players = {k: make_bot("stopit", bots[k], k, seed + k) for k in range(seats)}
    VirtualTable(STOPIT, state, players, writer=writer).run()
    result = replay_lines(writer.lines(), replayer)
    assert result.exit_code == 0
    final = state.to_json()
    assert result.output is not None
    assert {k: v for k, v in result.output.items() if k != "applied"} == final


def test_I52_per_bot_parameters_from_name_at_factor() -> None:
    from stoptable.bots.stopit import make_stopit_bot

    fast = make_stopit_bot("heuristic@0.5", 0, 1)
    assert fast.reaction.timings["reach"] == Timing(100, 200, 0.2)
    assert fast.reaction.sample("go") == 500
    plain = make_stopit_bot("heuristic", 0, 1)
    assert plain.reaction.timings == dict(DEFAULT_TIMINGS)
    for bad in ("heuristic@0", "heuristic@x", "nobody"):
        try:
            make_stopit_bot(bad, 0, 1)
        except ValueError:
            continue
        raise AssertionError(f"{bad} was accepted")
    # Against itself at double speed, the fast copy wins clearly more often.
    report = run_tournament(["heuristic@0.5", "heuristic@2"], 8, seed=3)
    assert report.lines[0].win_share > report.lines[1].win_share


def test_I55_watch_sees_every_happening_in_order() -> None:
    seen: list[Happening] = []
    result = play_game(["heuristic", "random"], 4, watch=seen.append)
    assert seen and [h.t for h in seen] == sorted(h.t for h in seen)
    assert sum(1 for h in seen for e in h.events if e.kind == "evaluation") == result.evaluations


class Watched:
    """Wraps a real bot and checks I-53: never observed with a request in flight."""

    def __init__(self, bot: Any, in_flight: set[int]) -> None:
        self.bot, self.in_flight = bot, in_flight
        self.name, self.seat, self.reaction = bot.name, bot.seat, bot.reaction

    def observe(self, view: dict[str, Any], now: int) -> tuple[Request, int] | None:
        assert self.seat not in self.in_flight, f"P{self.seat} observed while in flight"
        answer = self.bot.observe(view, now)
        if answer is not None:
            self.in_flight.add(self.seat)
        return answer


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=2**31), st.integers(min_value=2, max_value=6))
def test_I53_at_most_one_request_in_flight_per_bot(seed: int, seats: int) -> None:
    from stoptable.bots.base import make_bot

    in_flight: set[int] = set()
    names = ["heuristic", "random"]
    bots = {
        k: Watched(make_bot("stopit", names[k % 2], k, seed + k), in_flight) for k in range(seats)
    }
    table = VirtualTable(STOPIT, StopItState.new_game(sim_ruleset(), seats, seed), bots)

    def processed(happening: Happening) -> None:
        if happening.seat is not None:
            in_flight.discard(happening.seat)

    table.listener = processed
    table.run()
