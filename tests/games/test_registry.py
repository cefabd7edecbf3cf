"""Every registered game, driven only through the registry and the core protocol.

Nothing here imports a game package: a fourth game that registers a spec is checked by
these tests as it stands. Random games are played to the end (or a step limit) with chance
and time taken as the explicit steps the state asks for; every action goes through its JSON
line and its notation and back; a rejected action leaves ``to_json()`` as it was
(records.md §3: a rejected event changes nothing).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from stoptable import games
from stoptable.core.errors import IllegalAction, OptionError, PlayerCountError, UnknownGame
from stoptable.core.game import GameSpec
from stoptable.core.protocol import GameState, StepKind

STEP_LIMIT = 4000
NAMES = games.names()


def _split(action: Any) -> tuple[dict[str, Any], int, int | None]:
    """An action's line without the parts the driver supplies (``seat``, ``t``)."""
    line = dict(action.to_json())
    seat = line.pop("seat")
    t = line.pop("t", None)
    return line, seat, t


def _check_round_trips(spec: GameSpec, action: Any) -> None:
    line, seat, t = _split(action)
    json.dumps(line)  # plain JSON
    assert spec.action_from_json(line, seat, t) == action
    assert spec.parse_action(action.notation(), seat, t) == action


def _take_step(state: GameState, rng: random.Random) -> bool:
    """Run the pending step if it must run now (chance) or, for a window or a timer,
    sometimes, as a driver whose clock moved on would. True if a step was taken."""
    step = state.next_step()
    if step is None:
        return False
    if step.kind is StepKind.CHANCE or not state.actors() or rng.random() < 0.2:
        state.run_step(step)
        return True
    return False


def _rejected_leaves_state(spec: GameSpec, state: GameState, rng: random.Random) -> None:
    """Try an action of a seat that may not act with it now: it must change nothing."""
    seat = rng.randrange(state.seats)
    others = [s for s in range(state.seats) if s != seat]
    candidates = [a for s in others for a in state.legal_actions(s)]
    own = {json.dumps(a.to_json(), sort_keys=True) for a in state.legal_actions(seat)}
    for action in candidates:
        line, _, t = _split(action)
        try:
            mine = spec.action_from_json(line, seat, t)
        except ValueError:
            continue
        if json.dumps(mine.to_json(), sort_keys=True) in own:
            continue
        before = state.to_json()
        with pytest.raises(IllegalAction):
            state.apply(mine)
        assert state.to_json() == before
        return


def play_random(spec: GameSpec, seats: int, seed: int) -> GameState:
    """A random game through the protocol only; returns the final state."""
    rng = random.Random(seed)
    state: GameState = spec.new(seats=seats, seed=seed)
    for _ in range(STEP_LIMIT):
        if state.result() is not None:
            break
        if _take_step(state, rng):
            continue
        movers = [(s, state.legal_actions(s)) for s in state.actors()]
        movers = [(s, legal) for s, legal in movers if legal]
        if not movers:
            step = state.next_step()
            if step is None:
                break
            state.run_step(step)
            continue
        if rng.random() < 0.05:
            _rejected_leaves_state(spec, state, rng)
        legal = rng.choice(movers)[1]
        to_move = state.to_move()
        if to_move is not None and rng.random() < 0.7:
            legal = state.legal_actions(to_move) or legal
        action = rng.choice(legal)
        _check_round_trips(spec, action)
        state.apply(action)
    return state


@pytest.mark.parametrize("name", NAMES)
def test_random_games_through_the_registry(name: str) -> None:
    spec = games.spec(name)
    low, high = spec.seat_range()
    for seed in range(6):
        seats = low + seed % (high - low + 1)
        state = play_random(spec, seats, seed)
        view = state.view(None)
        assert {k: view[k] for k in ("game", "ruleset", "seats", "seat")} == {
            "game": name,
            "ruleset": spec.default_ruleset,
            "seats": seats,
            "seat": None,
        }
        assert isinstance(view["phase"], str)
        outcome = state.result()
        if outcome is not None:
            assert outcome.termination in spec.terminations
            assert len(outcome.scores) == seats


@pytest.mark.parametrize("name", NAMES)
def test_views_share_the_header(name: str) -> None:
    spec = games.spec(name)
    state = spec.new(seed=3)
    for seat in [None, *range(state.seats)]:
        view = state.view(seat)
        assert list(view)[:5] == ["game", "ruleset", "seats", "phase", "seat"]
        assert view["seat"] == seat


@pytest.mark.parametrize("name", NAMES)
def test_seat_counts_out_of_range_are_player_count_errors(name: str) -> None:
    spec = games.spec(name)
    low, high = spec.seat_range()
    for seats in (low - 1, high + 1):
        with pytest.raises(PlayerCountError) as err:
            spec.new(seats=seats)
        assert err.value.reason == "player_count"
        assert err.value.rule == spec.seat_rule


@pytest.mark.parametrize("name", NAMES)
def test_unknown_rulesets_and_options_are_named(name: str) -> None:
    spec = games.spec(name)
    with pytest.raises(OptionError, match="'no-such-ruleset'"):
        spec.new("no-such-ruleset")
    with pytest.raises(OptionError, match="'no_such_option'"):
        spec.new(options={"no_such_option": 1})
    for ruleset in spec.rulesets:
        table = spec.ruleset_type.option_table(ruleset)
        assert table and all(row["rule"] for row in table)


@pytest.mark.parametrize("name", NAMES)
def test_the_driver_supplies_seat_and_time(name: str) -> None:
    spec = games.spec(name)
    state = spec.new(seed=1)
    while (step := state.next_step()) is not None and step.kind is StepKind.CHANCE:
        state.run_step(step)
    seat = state.actors()[0]
    action = state.legal_actions(seat)[0]
    line = dict(action.to_json())
    with pytest.raises(ValueError, match="seat"):
        spec.action_from_json(line, seat, line.get("t"))


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match="stop"):
        games.spec("chess")


def test_core_names_no_game() -> None:
    """The kernel is game-agnostic: no game name appears in its code."""
    from pathlib import Path

    import stoptable.core

    core = Path(stoptable.core.__file__).parent
    for path in core.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for name in NAMES:
            assert f'"{name}"' not in text, f"{path.name} names the game {name!r}"
