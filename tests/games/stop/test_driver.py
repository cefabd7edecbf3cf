"""The synchronous Stop driver (S-61): offer order, steps, records that replay to the same state."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from stoptable.bots.base import make_bot
from stoptable.core.driver import Decision, Decline
from stoptable.core.errors import GameTooLong, IllegalAction
from stoptable.core.records import RecordWriter, replay_lines
from stoptable.games import replayer
from stoptable.games.stop import Cancel, Draw, Interject, Play, StopState, parse_card
from stoptable.games.stop.driver import StopDriver
from stoptable.games.stop.records import record_header
from stoptable.games.stop.state import new_game
from stoptable.sim.stop import play_match


class Scripted:
    """A bot that logs what it was asked and answers from a list (else the first legal)."""

    def __init__(self, answers: list[str] | None = None) -> None:
        self.asked: list[tuple[int, list[str]]] = []
        self.answers = answers or []

    def act(self, view: dict[str, Any], legal: list[Any]) -> Any:
        self.asked.append((int(view["seat"]), [a.notation() for a in legal]))
        for action in legal:
            if self.answers and action.notation() == self.answers[0]:
                self.answers.pop(0)
                return action
        return legal[0]


def _replay_json(writer: RecordWriter) -> str:
    result = replay_lines(writer.lines(), replayer)
    assert result.exit_code == 0, result
    assert result.output is not None
    out = dict(result.output)
    out.pop("applied")
    return json.dumps(out, sort_keys=True)


def test_S61_interjection_offers_go_clockwise_from_left_of_the_placer() -> None:
    """P1 plays R6; P3 (R9, identical under 6≡9) and P0 (R6) may interject, P2 may not: P3
    is asked first, and once P3 declines P0 is asked; P0 takes it, P3 is asked again about
    the new top card, and then the turn goes to left(P0) = P1."""
    position = {
        "hands": [["R6", "B1"], ["R6", "G2", "G3"], ["Y5", "Y7"], ["R9", "B8"]],
        "discard": ["R3"],
        "draw_pile": ["B2", "B3", "B5"],
        "turn": 1,
    }
    state = StopState.from_position("abacus-en", 4, position)
    bots = [Scripted(), Scripted(), Scripted(), Scripted()]
    driver = StopDriver(state, bots)
    d = driver.decision()
    assert d is not None and (d.seat, d.optional) == (1, False)
    driver.submit(Play(1, (parse_card("R6"),)))
    d = driver.decision()
    assert d is not None and (d.seat, d.optional) == (3, True)
    assert isinstance(d.legal[-1], Decline)
    driver.submit(Decline(3))
    d = driver.decision()
    assert d is not None and (d.seat, d.optional) == (0, True)
    driver.submit(d.legal[0])
    assert isinstance(d.legal[0], Interject)
    d = driver.decision()  # the offers start again for the new top card, from left(P0)
    assert d is not None and (d.seat, d.optional) == (3, True)
    driver.submit(Decline(3))
    d = driver.decision()
    assert d is not None and (d.seat, d.optional) == (1, False)


def test_S61_cancel_offers_come_before_the_exchange_is_made() -> None:
    position = {
        "hands": [["RExch", "B1", "B2"], ["R0", "G2"], ["Y5", "Y6"]],
        "discard": ["R3"],
        "draw_pile": ["B3", "B5"],
        "turn": 0,
    }
    state = StopState.from_position("abacus-en", 3, position)
    driver = StopDriver(state, [Scripted(), Scripted(), Scripted()])
    driver.submit(Play(0, (parse_card("RExch"),), mode="left"))
    d = driver.decision()
    assert d is not None and (d.seat, d.optional) == (1, True)
    assert isinstance(d.legal[0], Cancel)
    driver.submit(Decline(1))
    d = driver.decision()  # no one else holds R0: the window closes, hands move left
    assert d is not None and (d.seat, d.optional) == (1, False)
    assert sorted(c.code for c in state.hands[1]) == ["B1", "B2"]


@pytest.mark.parametrize("ruleset", ["abacus-en", "abacus-ja"])
def test_records_replay_to_the_same_final_state(ruleset: str) -> None:
    for game in range(4):
        bots = [make_bot("stop", n, i, game + i) for i, n in enumerate(["heuristic", "random"])]
        result = play_match(ruleset, bots, game, {"target_score": 120}, record=True)
        assert result.record is not None
        assert result.record.events[0].get("chance") is None
        deals = [e for e in result.record.events if len(e.get("order", ())) == 112]
        assert len(deals) == len(result.round_scores) - 1
        assert _replay_json(result.record) == json.dumps(result.final_state, sort_keys=True)


def test_a_position_header_replays_too() -> None:
    position = {
        "hands": [["R4", "B1"], ["R7", "G2", "G3"]],
        "discard": ["R3"],
        "draw_pile": ["B2", "B3", "B5", "Y1", "Y2"],
        "turn": 0,
    }
    state = StopState.from_position("abacus-en", 2, position, seed=3)
    writer = RecordWriter(record_header(state, 3, None, position))
    bots = [make_bot("stop", "random", i, i) for i in range(2)]  # a random walk ends
    StopDriver(state, bots, writer).play_round()
    assert _replay_json(writer) == json.dumps(state.to_json(), sort_keys=True)


def test_S56_decision_deals_the_next_round_unless_told_to_stop_there() -> None:
    bots = [make_bot("stop", "random", i, i) for i in range(3)]
    state = StopState.from_position(
        "abacus-en", 3, {"hands": [["R4"], ["B1"], ["G2"]], "discard": ["R3"], "turn": 0}
    )
    writer = RecordWriter(record_header(state, 0, None, None))
    driver = StopDriver(state, bots, writer, deal_rounds=False)
    driver.submit(Play(0, (parse_card("R4"),), frozenset({"stop"})))
    assert state.phase == "round_over" and driver.decision() is None
    driver.deal_rounds = True
    d = driver.decision()  # the deal step is due: taken, and its line written
    assert d is not None and state.round == 2 and state.phase == "playing"
    assert writer.events[-1]["chance"] == "shuffle" and len(writer.events[-1]["order"]) == 112


def test_S16_a_reshuffle_line_is_written_before_the_action_that_needed_it() -> None:
    position = {
        "hands": [["R4", "B1"], ["G2", "G3"]],
        "discard": ["R5", "Y7", "R3"],
        "draw_pile": [],
        "turn": 0,
    }
    state = StopState.from_position("abacus-en", 2, position, seed=4)
    writer = RecordWriter(record_header(state, 4, None, position))
    driver = StopDriver(state, [Scripted(), Scripted()], writer)
    events = driver.submit(Draw(0))
    assert [ev.kind for ev in events] == ["reshuffle", "draw"]
    shuffle, action = writer.events
    assert shuffle["chance"] == "shuffle" and sorted(shuffle["order"]) == ["R5", "Y7"]
    assert action == {"seat": 0, "type": "draw", "calls": []}
    assert _replay_json(writer) == json.dumps(state.to_json(), sort_keys=True)


def test_decisions_are_ordinary_decisions() -> None:
    """``decision`` builds its Decision by setting slots (it runs at every env step): the
    result is an ordinary, equal value; an optional one ends with the seat's Decline."""
    state = StopState.new_game("abacus-en", 3, 4)
    driver = StopDriver(state, deal_rounds=False)
    optional = 0
    for _ in range(300):
        d = driver.decision()
        if d is None:
            break
        assert type(d) is Decision and d == Decision(d.seat, list(d.legal), d.optional)
        assert d.optional == isinstance(d.legal[-1], Decline)
        if d.optional:
            optional += 1
            assert d.legal[-1] == Decline(d.seat)
        driver.submit(d.legal[0])
    assert optional > 0


def test_play_stops_after_the_rounds_asked_for() -> None:
    """``play(bots, rounds=k)`` (``simulate --rounds``) deals and plays k rounds, then stops
    at that round's end; ``round_result`` is its outcome by minus points (fewest wins)."""
    state = new_game("abacus-en", 3, 21, {"target_score": 10_000})
    assert state.round_result() is None
    bots = [make_bot("stop", "random", seat, 100 + seat) for seat in range(3)]
    driver = StopDriver(state)
    driver.play(bots, rounds=2)
    assert state.phase == "round_over" and state.round == 2
    outcome = state.round_result()
    assert outcome is not None and outcome.termination == "round"
    assert outcome.scores == tuple(state.round_scores or ())
    best = min(outcome.scores)
    assert outcome.winners == tuple(i for i, s in enumerate(outcome.scores) if s == best)
    driver.next_round()
    assert state.round_result() is None  # the next round is being played


class _CopyingBot:
    """The random bot's choices handed back as equal copies, never the listed objects
    (``picks_listed`` is not claimed, so the driver must look for them and check them)."""

    reads_view = False

    def __init__(self, seat: int, seed: int) -> None:
        self.inner = make_bot("stop", "random", seat, seed)

    def act(self, view: Any, legal: Any) -> Any:
        choice = self.inner.act(view, legal)
        return choice if isinstance(choice, Decline) else dataclasses.replace(choice)


def test_S61_listed_and_copied_choices_play_the_same_game() -> None:
    """A bot that claims ``picks_listed`` (the random bot) is applied unchecked; equal copies
    of the same choices go through the checked apply and give the same game."""
    games = []
    for factory in (
        lambda s: make_bot("stop", "random", s, 7 + s),
        lambda s: _CopyingBot(s, 7 + s),
    ):
        state = new_game("abacus-en", 3, 11)
        driver = StopDriver(state, [factory(s) for s in range(3)])
        games.append((driver.play_round(), driver.actions, state.to_json()))
    assert make_bot("stop", "random", 0, 0).picks_listed is True
    assert not hasattr(_CopyingBot(0, 0), "picks_listed")
    assert games[0] == games[1]


class _CheatingBot:
    """Plays randomly until its ``after``-th decision, then a card it does not hold."""

    reads_view = False

    def __init__(self, seat: int, after: int) -> None:
        self.inner = make_bot("stop", "random", seat, seat)
        self.seat, self.after = seat, after

    def act(self, view: Any, legal: Any) -> Any:
        self.after -= 1
        if self.after < 0:
            return Play(self.seat, (parse_card("FC"), parse_card("FC")))
        return self.inner.act(view, legal)


def test_S58_play_round_keeps_its_count_when_a_bot_breaks_a_rule() -> None:
    """The flat loop keeps its count and queue in locals: an IllegalAction from a bot's
    choice leaves the state as it was and the driver's count at the actions applied."""
    state = new_game("abacus-en", 2, 3)
    driver = StopDriver(state, [_CheatingBot(0, 5), _CheatingBot(1, 5)])
    with pytest.raises(IllegalAction):
        driver.play_round()
    before = state.to_json()
    assert 0 < driver.actions == state.round_actions
    with pytest.raises(IllegalAction):
        driver.submit(Play(0, (parse_card("FC"), parse_card("FC"))))
    assert state.to_json() == before


def _played(ruleset: str, seats: int, seed: int, lean: bool, max_actions: int) -> tuple[Any, ...]:
    """One seeded round of random bots through the lean loop or the general one."""
    state = new_game(ruleset, seats, seed)
    bots = [make_bot("stop", "random", s, seed * 10 + s) for s in range(seats)]
    driver = StopDriver(state, bots)
    play = driver._play_lean if lean else driver.play_round_general
    try:
        if lean:
            done = driver._play_lean(max_actions, [bot.uniform for bot in bots])
        else:
            done = play(max_actions)
        error = None
    except GameTooLong as exc:
        done, error = -1, str(exc)
    return (
        done,
        error,
        driver.actions,
        driver._queue,
        state.to_json(),
        state.records[-3:],
        state.round_actions,
        [bot.rng.random() for bot in bots],
    )


@pytest.mark.parametrize("ruleset", ["abacus-en", "abacus-ja"])
def test_S61_the_lean_loop_plays_the_general_loops_game(ruleset: str) -> None:
    """Random bots play in ``_play_lean`` (their draw read by the driver, the apply's
    bookkeeping written out): the same actions, draws, states and log as the general loop,
    whatever the seats, and the same count and queue when a round runs too long."""
    for seats in range(2, 7):
        for seed in range(12):
            lean = _played(ruleset, seats, seed, True, 50_000)
            assert lean == _played(ruleset, seats, seed, False, 50_000), (seats, seed)
            assert lean[0] > 0
            cut = max(1, lean[0] // 2)
            assert _played(ruleset, seats, seed, True, cut) == _played(
                ruleset, seats, seed, False, cut
            )


def test_S61_play_round_takes_the_lean_loop_only_for_uniform_bots() -> None:
    """Only bots that say ``picks_uniform`` (the random bot) are drawn for by the driver;
    another bot's ``act`` is called, and a writer or kept events take the general loop."""
    assert make_bot("stop", "random", 0, 0).picks_uniform is True
    calls = []

    class Spy(_CopyingBot):
        def act(self, view: Any, legal: Any) -> Any:
            calls.append(1)
            return super().act(view, legal)

    state = new_game("abacus-en", 2, 5)
    StopDriver(state, [make_bot("stop", "random", 0, 1), Spy(1, 2)]).play_round()
    assert calls
    lean_state = new_game("abacus-en", 3, 8)
    kept_state = new_game("abacus-en", 3, 8)
    lean = StopDriver(lean_state, [make_bot("stop", "random", s, s) for s in range(3)])
    kept = StopDriver(
        kept_state, [make_bot("stop", "random", s, s) for s in range(3)], keep_events=True
    )
    assert lean.play_round() == kept.play_round()
    assert kept.events and not lean.events
    assert lean_state == kept_state
