"""Train the ``ppo`` Stop bot: MaskablePPO on ``stoptable/Stop-v0``, weights to npz.

    python scripts/train_ppo.py                     # the shipped weights (see docs/rl.md)
    python scripts/train_ppo.py --timesteps 20000   # a quick try

Two stages. First a warm start (``--bc-decisions``, 0 to skip): the heuristic bot plays the
learner's seat of the same env against the same opponents, from its own view
(``HeuristicBot.act_state``), and the policy is fitted to its choices (masked cross
entropy over the offered indices) and the critic to the discounted returns that followed
(squared error), so PPO starts from a policy that already plays, with a critic that knows
what its states are worth. From scratch PPO spends its whole budget learning to shed
cards at all (the first shipped weights, 81,920 steps from scratch, drew where the
heuristic sheds and won 3% against it). Then MaskablePPO itself (``--timesteps``, 0 to
ship the warm start alone) at ``--lr``, lower than SB3's 3e-4 so that the first updates,
whose advantages come from the fitted critic, do not undo the warm start.

Needs the [rl-train] extra (torch, sb3-contrib). Everything is seeded (``--seed``, the
envs' reset seeds, torch with one thread), so a run on the same versions reproduces the
same weights. It trains sb3-contrib's ``MaskablePPO("MultiInputPolicy")`` with its
defaults but the actor and critic sizes (``--hidden``, two tanh layers each), on
``--envs`` copies of 2-seat abacus-en Stop (``--target`` points, ``reward="round+match"``)
against the heuristic bot, then writes the actor's layers to
``src/stoptable/rl/stop_ppo.npz`` in float16 (what :class:`stoptable.rl.ppo_bot.Policy`
reads) with the settings and the training time as ``meta_*`` entries, after every
update (so a run stopped early leaves its last update's weights, those of ``--timesteps``
that count). At the end it checks that the numpy policy's logits are the torch actor's on
observations of real games, and prints how often the float16 weights pick the same
action as float32.
"""

from __future__ import annotations

import argparse
import subprocess
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import stoptable.rl  # noqa: F401  (registers the ids)
from stoptable.bots.base import make_bot
from stoptable.rl.ppo_bot import LAYERS, WEIGHTS, Policy

ROOT = Path(__file__).resolve().parent.parent


def make_env(target: int, opponents: str) -> gym.Env:  # type: ignore[type-arg]
    return gym.make("stoptable/Stop-v0", seats=2, target_score=target, opponents=opponents)


def actor_layers(model: MaskablePPO) -> list[tuple[np.ndarray, np.ndarray]]:
    """The actor's linear layers as ``(w (in, out), b)``: mlp_extractor.policy_net's
    Linear layers, then action_net."""
    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(model.policy.action_net)
    return [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears]


def sample_inputs(target: int, count: int, seed: int) -> dict[str, np.ndarray]:
    """Observations and masks of ``count`` learner decisions of random-legal play."""
    env = make_env(target, "heuristic")
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    masks, observations = [], []
    while len(masks) < count:
        masks.append(obs["action_mask"].copy())
        observations.append(obs["observation"].copy())
        obs, _, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated or truncated:
            obs, _ = env.reset()
    return {"action_mask": np.array(masks), "observation": np.array(observations)}


def demonstrations(target: int, decisions: int, seed: int, gamma: float) -> dict[str, np.ndarray]:
    """``decisions`` learner decisions of the heuristic bot in the learner's seat (games
    seeded ``seed``, ``seed + 1``, ...; whole episodes): observations, masks, the chosen
    index and the discounted return from each decision on."""
    env = make_env(target, "heuristic")
    single = env.unwrapped
    aec = single.aec
    observations, masks, chosen, returns = [], [], [], []
    game = 0
    while len(chosen) < decisions:
        obs, _ = env.reset(seed=seed + game)
        bot = make_bot("stop", "heuristic", single.seat, seed + game)
        rewards: list[float] = []
        done = False
        while not done:
            observations.append(obs["observation"].copy())
            masks.append(obs["action_mask"].copy())
            index = aec.codec.index(bot.act_state(aec.state, aec.legal))
            chosen.append(index)
            obs, reward, terminated, truncated, _ = env.step(index)
            rewards.append(float(reward))
            done = terminated or truncated
        to_go, running = [], 0.0
        for r in reversed(rewards):
            running = r + gamma * running
            to_go.append(running)
        returns += to_go[::-1]
        game += 1
    return {
        "observation": np.array(observations, dtype=np.float32),
        "action_mask": np.array(masks, dtype=np.float32),
        "chosen": np.array(chosen, dtype=np.int64),
        "returns": np.array(returns, dtype=np.float32),
    }


def warm_start(
    model: MaskablePPO, data: dict[str, np.ndarray], epochs: int, seed: int
) -> tuple[float, float]:
    """Fit the policy to the demonstrations' choices (masked cross entropy) and the critic to
    their returns; return the policy's agreement with them and the critic's mean squared
    error after the last epoch (on the training data: a fit check, not a strength)."""
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    n = len(data["chosen"])
    gen = np.random.default_rng(seed)
    obs = torch.as_tensor(data["observation"])
    masks = torch.as_tensor(data["action_mask"])
    chosen = torch.as_tensor(data["chosen"])
    returns = torch.as_tensor(data["returns"])
    agree = mse = 0.0
    for _ in range(epochs):
        order = torch.as_tensor(gen.permutation(n))
        hits, squares = 0, 0.0
        for start in range(0, n, 256):
            rows = order[start : start + 256]
            features = policy.extract_features(
                {"observation": obs[rows], "action_mask": masks[rows]},
                policy.pi_features_extractor,
            )
            latent_pi, latent_vf = policy.mlp_extractor(features)
            logits = policy.action_net(latent_pi).masked_fill(masks[rows] == 0, -1e8)
            values = policy.value_net(latent_vf).squeeze(-1)
            policy_loss = torch.nn.functional.cross_entropy(logits, chosen[rows])
            value_loss = torch.nn.functional.mse_loss(values, returns[rows])
            optimizer.zero_grad()
            (policy_loss + 0.5 * value_loss).backward()
            optimizer.step()
            hits += int((logits.argmax(-1) == chosen[rows]).sum())
            squares += float(value_loss.detach()) * len(rows)
        agree, mse = hits / n, squares / n
        print(f"warm start: agrees with the heuristic on {agree:.1%}, critic mse {mse:.3f}")
    return agree, mse


def check_export(model: MaskablePPO, path: Path, inputs: dict[str, np.ndarray]) -> float:
    """Assert the float32 export computes the torch actor's logits; return the share of
    inputs on which the float16 file picks the torch actor's masked argmax."""
    with torch.no_grad():
        tensors = {k: torch.as_tensor(v) for k, v in inputs.items()}
        features = model.policy.extract_features(tensors, model.policy.pi_features_extractor)
        latent = model.policy.mlp_extractor.forward_actor(features)
        expected = model.policy.action_net(latent).numpy()
    exact = Policy.__new__(Policy)
    exact.layers = actor_layers(model)
    got = exact.logits(inputs["action_mask"], inputs["observation"])
    assert np.allclose(got, expected, atol=1e-4), np.abs(got - expected).max()
    shipped = Policy(path).logits(inputs["action_mask"], inputs["observation"])
    masked = inputs["action_mask"].astype(bool)
    best = np.where(masked, expected, -np.inf).argmax(axis=1)
    best16 = np.where(masked, shipped, -np.inf).argmax(axis=1)
    return float((best == best16).mean())


def save(model: MaskablePPO, path: Path, meta: dict[str, str]) -> None:
    """The actor's layers in float16 and ``meta`` as ``meta_*`` entries."""
    arrays: dict[str, np.ndarray] = {}
    for name, (w, b) in zip(LAYERS, actor_layers(model), strict=True):
        arrays[f"{name}_w"] = w.astype(np.float16)
        arrays[f"{name}_b"] = b.astype(np.float16)
    extra = {f"meta_{k}": np.array(v) for k, v in meta.items()}
    np.savez_compressed(path, **arrays, **extra)


class Checkpoints(BaseCallback):  # type: ignore[misc]
    """After every rollout's update, the weights so far (``timesteps`` in their meta): a
    run stopped early leaves the weights of its last update, which are those a run with
    ``--timesteps`` of that count would write (the default schedules are constant)."""

    def __init__(self, path: Path, meta: dict[str, str]) -> None:
        super().__init__()
        self.path, self.meta = path, meta
        self.start = time.perf_counter()
        self.cpu = time.process_time()

    def _on_rollout_start(self) -> None:
        if self.num_timesteps == 0:
            return
        wall = time.perf_counter() - self.start
        cpu = time.process_time() - self.cpu
        meta = {**self.meta, "timesteps": str(self.num_timesteps)}
        meta |= {"cpu_seconds": f"{cpu:.0f}", "wall_seconds": f"{wall:.0f}"}
        save(self.model, self.path, meta)
        print(f"{self.num_timesteps} steps, {wall:.0f} s ({cpu:.0f} s CPU)", flush=True)

    def _on_step(self) -> bool:
        return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=14_336)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--target", type=int, default=100, help="target_score of training")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument(
        "--bc-decisions", type=int, default=100_000, help="warm start's heuristic decisions"
    )
    parser.add_argument("--bc-epochs", type=int, default=8)
    parser.add_argument("--lr", type=float, default=1e-4, help="PPO's learning rate")
    parser.add_argument("--warm-out", type=Path, help="also keep the warm start's weights here")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    venv = DummyVecEnv([lambda: make_env(args.target, "heuristic") for _ in range(args.envs)])
    venv.seed(args.seed)
    model = MaskablePPO(
        "MultiInputPolicy",
        venv,
        seed=args.seed,
        n_steps=2048 // args.envs,
        learning_rate=args.lr,
        policy_kwargs={"net_arch": {"pi": [args.hidden] * 2, "vf": [args.hidden] * 2}},
        device="cpu",
    )
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    meta = {
        "trainer": "sb3-contrib MaskablePPO, MultiInputPolicy, defaults but net_arch, n_steps, "
        f"learning_rate={args.lr}; warm start on {args.bc_decisions} heuristic decisions, "
        f"{args.bc_epochs} epochs",
        "env": f"stoptable/Stop-v0 seats=2 abacus-en target_score={args.target} "
        "opponents=heuristic reward=round+match",
        "envs": str(args.envs),
        "hidden": str(args.hidden),
        "seed": str(args.seed),
        "commit": commit,
    }
    checkpoints = Checkpoints(args.out, meta)
    if args.bc_decisions > 0:
        data = demonstrations(args.target, args.bc_decisions, args.seed + 500_000, model.gamma)
        warm_start(model, data, args.bc_epochs, args.seed)
        save(model, args.out, {**meta, "timesteps": "0"})
        if args.warm_out is not None:
            save(model, args.warm_out, {**meta, "timesteps": "0"})
        print(f"warm start done, {time.perf_counter() - checkpoints.start:.0f} s", flush=True)
    model.learn(total_timesteps=args.timesteps, callback=checkpoints, progress_bar=False)
    checkpoints._on_rollout_start()  # the last update's weights
    wall = time.perf_counter() - checkpoints.start
    cpu = time.process_time() - checkpoints.cpu
    agree = check_export(model, args.out, sample_inputs(args.target, 2000, args.seed + 1))
    print(f"trained {args.timesteps} steps in {wall:.0f} s ({cpu:.0f} s CPU); wrote {args.out}")
    print(f"float16 weights pick the float32 actor's action on {agree:.1%} of 2000 decisions")


if __name__ == "__main__":
    main()
