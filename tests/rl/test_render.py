"""``render_mode="rgb_array"``: the browser's pictures as ``(H, W, 3)`` uint8 arrays."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import stoptable.rl  # noqa: F401  (registers the ids)
from stoptable.rl import stopandgo_v0


def test_rgb_array_is_an_h_w_3_uint8_picture() -> None:
    env = gym.make("stoptable/Stop-v0", render_mode="rgb_array")
    assert env.metadata["render_fps"] > 0 and "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=3)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.ndim == 3 and frame.shape[2] == 3 and min(frame.shape[:2]) > 100
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 10  # drawn, not a blank page


def test_the_aec_env_draws_the_map() -> None:
    """Stop & Go's frame is its map (the Gymnasium env draws the same through its AEC env:
    one Stop & Go picture is enough, each costs a few seconds on a loaded machine)."""
    env = stopandgo_v0.env(render_mode="rgb_array")
    assert env.metadata["render_fps"] > 0
    env.reset(seed=1)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert frame.shape[0] > 500 and frame.shape[1] > 500
