"""scripts/train_ppo.py's warm start: the heuristic's demonstrations are what the env
offered and what the heuristic chose, and fitting them makes the policy agree with it
(the [rl-train] extra; a tiny budget)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="sb3-contrib is the [rl-train] extra")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))


def test_warm_start_fits_the_heuristics_choices() -> None:
    import torch
    import train_ppo
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    torch.manual_seed(0)
    data = train_ppo.demonstrations(target=20, decisions=200, seed=3, gamma=0.99)
    n = len(data["chosen"])
    assert n >= 200 and data["observation"].shape == (n, 406)
    offered = data["action_mask"][np.arange(n), data["chosen"]]
    assert (offered == 1).all()  # every demonstrated choice was offered to the learner
    # an episode's last decision is worth its last reward: returns end each game
    assert np.isfinite(data["returns"]).all()
    model = MaskablePPO(
        "MultiInputPolicy",
        train_ppo.make_env(20, "heuristic"),
        seed=0,
        policy_kwargs={"net_arch": {"pi": [32, 32], "vf": [32, 32]}},
        device="cpu",
    )
    first, _ = train_ppo.warm_start(model, data, epochs=1, seed=0)
    agree, mse = train_ppo.warm_start(model, data, epochs=4, seed=0)
    assert agree > first and agree > 0.6
    assert np.isfinite(mse)
