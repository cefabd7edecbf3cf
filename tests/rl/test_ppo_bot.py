"""The learned ``ppo`` bot: found through the plug-in entry point, legal, the same choice
from its view and from the state, and numpy alone at play (a round of each table shape:
whole matches only add time)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np

from stoptable.bots.base import bot_names, make_bot
from stoptable.games import spec
from stoptable.games.stop.driver import StopDriver
from stoptable.games.stop.state import StopState
from stoptable.rl import stop_codec
from stoptable.rl.ppo_bot import LAYERS, PpoBot, policy


class BothWays:
    """``ppo`` deciding from the view and from the state (``act_state``): they must agree."""

    def __init__(self, seat: int, state: StopState) -> None:
        self.bot = PpoBot(seat, 0)
        self.state = state
        self.decisions = 0

    def act(self, view: dict[str, Any], legal: list[Any]) -> Any:
        choice = self.bot.act(view, legal)
        assert self.bot.act_state(self.state, legal) == choice
        assert choice in legal
        self.decisions += 1
        return choice


def test_ppo_is_a_stop_bot_that_plays_legal_rounds() -> None:
    assert "ppo" in bot_names("stop")
    assert isinstance(make_bot("stop", "ppo", 1, 7), PpoBot)
    decisions = 0
    for ruleset, seats, seed in (("abacus-en", 2, 1), ("abacus-ja", 3, 2)):
        state = spec("stop").new(ruleset, seats, seed, {"target_score": 60})
        ppo = BothWays(0, state)  # the others heuristic, so that the round ends soon
        others = [make_bot("stop", "heuristic", s, seed) for s in range(1, seats)]
        StopDriver(state).play([ppo, *others], rounds=1)
        assert state.phase in ("round_over", "game_over")
        decisions += ppo.decisions
    assert decisions > 10


def test_the_shipped_weights_fit_the_observation_and_action_spaces() -> None:
    layers = policy().layers
    assert len(layers) == len(LAYERS)
    assert layers[0][0].shape[0] == stop_codec.N_ACTIONS + stop_codec.OBS_SIZE
    assert layers[-1][0].shape[1] == stop_codec.N_ACTIONS
    for w, b in layers:
        assert w.dtype == np.float32 and w.shape[1] == b.shape[0]
    assert policy().info["meta_trainer"].startswith("sb3-contrib MaskablePPO")


def test_playing_needs_no_torch() -> None:
    code = (
        "import sys; from stoptable.games import spec; from stoptable.bots.base import make_bot;"
        "from stoptable.games.stop.driver import StopDriver;"
        "st = spec('stop').new('abacus-en', 2, 3, {'target_score': 40});"
        "StopDriver(st).play([make_bot('stop', 'ppo', 0, 1), make_bot('stop', 'heuristic', 1, 2)],"
        " rounds=1);"
        "assert 'torch' not in sys.modules, 'torch was imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_ppo_is_an_opponent_of_the_gymnasium_env() -> None:
    import gymnasium as gym

    import stoptable.rl  # noqa: F401  (registers the ids)

    env = gym.make("stoptable/Stop-v0", opponents="ppo", target_score=20)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(30):
        obs, _, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated or truncated:
            obs, _ = env.reset()
    assert isinstance(env.unwrapped.bots[1], PpoBot)
