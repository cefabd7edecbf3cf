"""Environment throughput: the Stop AEC env beside RLCard 1.2.0's UNO ``env.run``, same run.

Both sides step their multi-agent environment with uniformly random *legal* actions,
observations included, in one process each:

* Stop (``abacus-en``, 2 seats) runs here through ``stoptable.rl.stop_v0.env`` with the
  usual PettingZoo loop: ``for agent in env.agent_iter(): obs, ... = env.last()``, a random
  index among ``obs["action_mask"]``, ``env.step(index)``. Every step builds the acting
  seat's view, encodes it and builds its mask; S-61 offers (interjections, cancels) are
  steps like any other, as are their declines. Matches play to ``target_score=500``;
* UNO runs in ``.bench/venv`` (RLCard is not a project dependency; the venv is set up
  exactly as by ``engine_throughput.py``, whose helper this reuses) as a subprocess:
  ``rlcard.make("uno")`` with two ``RandomAgent``s, ``env.run(is_training=False)`` over and
  over, counting ``env.timestep`` (one per action; it runs on across episodes).

Measured alternately and repeated (5 rounds by default), best of the repeats kept, each side
timing its own CPU time (``time.process_time``), as ``engine_throughput.py`` does. The
machines this runs on are shared and their speed drifts by a quarter within minutes, which
moves a single reading of either side far more than any change to the code: the best of
several rounds is the reading of the quiet moments, and the Stop/UNO ratio within each
round (the two measured seconds apart) is printed too, with its median, as a check on it.
It also prints the steps/s of the Stop & Go AEC env (2 seats, random masked actions) and
of the Stop it! Parallel env (2 seats, 100 ms ticks; one step = one tick of both agents).
The last line is ``ratio: R``: the best Stop env steps/s over the best UNO ``env.run``
steps/s. The random index is drawn by :func:`pick_offered` (one ``random()`` among the
offered indices); the Stop env is also measured with the draw this loop made before,
``Generator.choice(np.flatnonzero(mask))``, which cost more than the env's own step, and
that ratio is printed above the last line (``ratio_with_generator_choice``).

Run from the project's virtualenv: ``python benchmarks/env_throughput.py``.

``--vector`` measures the batched env instead: learner steps/s of
``stoptable.rl.vector.TurnVectorEnv`` (``stoptable/Stop-v0``'s game, abacus-en, 2 seats,
``--opponents``, default random) beside Gymnasium's ``SyncVectorEnv`` of ``gym.make`` of the
same id, at N = 1, 16 and 256 games per call, alternated and best of ``--repeats``; every
side draws its random masked actions the same vectorised way (:func:`sample_masked`). Two
floors at N = 256 are measured beside them: the same games stepped alone (each game's
``step_quietly`` with a random offered index: the learner's action and the bots' moves, the
engine's work, which every side pays) and the games with their observations written
(``encode_into``); SyncVectorEnv's time over the first is the most that any batched env of
these games could gain. RLCard UNO ``env.run`` (one
env, random agents; RLCard has no batched env) is measured in every round too, in
``.bench/venv`` as above (set up on the first run). The last line is ``ratio: R``, the
batched env over SyncVectorEnv at N = 256.

``--compiled`` runs all of it (every side of ours, both envs alike) on the mypyc build of
``make compiled`` (``build/compiled`` first on ``PYTHONPATH``; docs/architecture.md): the
same code and games with a cheaper engine step, which every side of ours pays. It prints
which build it measured.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from engine_throughput import BENCH_PYTHON, COMPILED, ensure_rlcard, log

import stoptable
from stoptable.rl import stop_v0, stopandgo_v0, stopit_v0

UNO_WORKER = r"""
import json, sys, time
import numpy as np
import rlcard
from rlcard.agents import RandomAgent

seconds, seed = float(sys.argv[1]), int(sys.argv[2])
np.random.seed(seed)
env = rlcard.make("uno", config={"seed": seed})
env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
steps = games = 0
start = time.process_time()
while True:
    before = env.timestep  # RLCard's counter runs on across episodes
    env.run(is_training=False)
    steps += env.timestep - before
    games += 1
    elapsed = time.process_time() - start
    if elapsed >= seconds:
        break
print(json.dumps({"steps": steps, "games": games, "seconds": elapsed}))
"""


def measure_uno(seconds: float, seed: int) -> tuple[int, int, float]:
    """RLCard UNO ``env.run`` with random agents in the bench interpreter."""
    out = subprocess.run(
        [str(BENCH_PYTHON), "-c", UNO_WORKER, str(seconds), str(seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return int(data["steps"]), int(data["games"]), float(data["seconds"])


def pick_offered(mask: np.ndarray, draw: Callable[[], float]) -> int:
    """A uniformly random index among those ``mask`` (0/1 int8) offers.

    The mask seen as booleans takes numpy's fast path of ``flatnonzero``, and one
    ``random()`` picks among the few offered indices: about 14 us where
    ``Generator.choice(np.flatnonzero(mask))`` took about 70 us (loaded machine), more than
    a Stop env step itself; the sampler is this loop's, not the env's, so it costs what a
    plain one costs. RLCard's side keeps its own ``RandomAgent``, as ``env.run`` calls it."""
    offered = np.flatnonzero(mask.view(np.bool_))
    return int(offered[int(draw() * len(offered))])


def _aec(
    make: Callable[[], object], seconds: float, seed: int, choice: bool = False
) -> tuple[int, int, float]:
    """Random masked steps of an AEC env, whole episodes, for ``seconds`` of CPU
    (``choice``: drawn by ``Generator.choice`` over the offered indices, as this loop did
    before :func:`pick_offered`)."""
    env: object = make()
    draw = random.Random(seed).random
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.process_time()
    while True:
        env.reset(seed=seed + episodes)  # type: ignore[attr-defined]
        for _agent in env.agent_iter():  # type: ignore[attr-defined]
            obs, _, terminated, truncated, _ = env.last()  # type: ignore[attr-defined]
            if terminated or truncated:
                env.step(None)  # type: ignore[attr-defined]
                continue
            mask = obs["action_mask"]
            if choice:
                env.step(int(rng.choice(np.flatnonzero(mask))))  # type: ignore[attr-defined]
            else:
                env.step(pick_offered(mask, draw))  # type: ignore[attr-defined]
            steps += 1
        episodes += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return steps, episodes, elapsed


def measure_stop(seconds: float, seed: int) -> tuple[int, int, float]:
    return _aec(lambda: stop_v0.env(ruleset="abacus-en", seats=2), seconds, seed)


def measure_stop_choice(seconds: float, seed: int) -> tuple[int, int, float]:
    return _aec(lambda: stop_v0.env(ruleset="abacus-en", seats=2), seconds, seed, choice=True)


def measure_stopandgo(seconds: float, seed: int) -> tuple[int, int, float]:
    return _aec(lambda: stopandgo_v0.env(seats=2), seconds, seed)


def measure_stopit(seconds: float, seed: int) -> tuple[int, int, float]:
    """Ticks of the Parallel env (both agents act every tick)."""
    env = stopit_v0.parallel_env(seats=2, tick_ms=100)
    draw = random.Random(seed).random
    steps = episodes = 0
    start = time.process_time()
    while True:
        obs, _ = env.reset(seed=seed + episodes)
        while env.agents:
            actions = {a: pick_offered(obs[a]["action_mask"], draw) for a in env.agents}
            obs, *_ = env.step(actions)
            steps += 1
        episodes += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return steps, episodes, elapsed


def sample_masked(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly random offered index per row of ``masks`` (``(N, A)`` 0/1 int8), in
    a handful of numpy calls whose cost follows the offered indices, not ``N x A`` floats:
    the rows' offered indices in one ``flatnonzero`` of the masks seen as booleans, a
    uniform draw below each row's count, and that one taken. (``argmax`` of ``N x A``
    random floats times the mask, the first sampler, cost 12 us per learner step at
    N = 256, about a sixth of a batched step, paid by every side alike.)"""
    offered = masks.view(np.bool_)
    flat = np.flatnonzero(offered)
    counts = np.count_nonzero(offered, axis=1)
    ends = np.cumsum(counts)
    picked = flat[ends - counts + (rng.random(len(counts)) * counts).astype(np.intp)]
    return picked - np.arange(len(counts)) * masks.shape[1]  # type: ignore[no-any-return]


def _vector_steps(
    envs: Any, seconds: float, seed: int, calls: int | None = None
) -> tuple[int, float]:
    """Learner steps of a vector env (N per call) with random masked actions, for
    ``seconds`` of CPU or exactly ``calls`` calls."""
    rng = np.random.default_rng(seed)
    obs, _ = envs.reset(seed=seed)
    steps = 0
    start = time.process_time()
    while True:
        for _ in range(8 if calls is None else calls):
            obs, *_ = envs.step(sample_masked(rng, obs["action_mask"]))
            steps += envs.num_envs
        elapsed = time.process_time() - start
        if calls is not None or elapsed >= seconds:
            return steps, elapsed


def _floor_steps(
    envs: Any, seconds: float, seed: int, observe: bool = False, calls: int | None = None
) -> tuple[int, float]:
    """The batched env's games stepped as its ``step`` steps them (each game's
    ``step_quietly``: the learner's action, then the bots' moves until the learner is to
    move again, and a finished game reset), a uniformly random offered index each, but no
    mask, rewards or arrays, and no observation unless ``observe`` (then each game's
    ``encode_into`` into its row, as ``step`` does): what every side pays for the games
    themselves, so the most any batched env of these games can gain over SyncVectorEnv is
    SyncVectorEnv's time over this one."""
    draw = random.Random(seed).random
    envs.reset(seed=seed)
    buffer = np.zeros(envs.observation_space["observation"].shape, dtype=np.float32)
    games = [
        (env, env.aec, env.aec.adapter.observation_into, memoryview(row))
        for env, row in zip(envs.envs, buffer, strict=True)
    ]
    steps = 0
    start = time.process_time()
    while True:
        for _ in range(8 if calls is None else calls):
            for env, aec, write, row in games:
                if env.over:
                    env.reset()
                else:
                    offered = list(aec.offered_indices())
                    env.step_quietly(offered[int(draw() * len(offered))])
                if observe:
                    write(aec.state, env.seat, row)
            steps += len(games)
        elapsed = time.process_time() - start
        if calls is not None or elapsed >= seconds:
            return steps, elapsed


def fixed_main(args: argparse.Namespace) -> None:
    """``--fixed SIDE --calls K``: K calls of one side at N = 256 and nothing else, for an
    instruction count that machine load does not move: ``valgrind --tool=callgrind`` of
    ``--calls 25`` minus ``--calls 5``, over 20 x 256, is a side's instructions per
    learner step (docs/rl.md)."""
    import gymnasium as gym
    from gymnasium.vector import SyncVectorEnv

    import stoptable.rl  # noqa: F401  (registers the ids)
    from stoptable.rl.vector import TurnVectorEnv

    options = {"opponents": args.opponents}
    if args.fixed == "sync":
        sync = SyncVectorEnv([lambda: gym.make("stoptable/Stop-v0", **options)] * 256)
        steps, elapsed = _vector_steps(sync, 0.0, args.seed, args.calls)
    elif args.fixed == "batched":
        envs = TurnVectorEnv("stop", 256, **options)
        steps, elapsed = _vector_steps(envs, 0.0, args.seed, args.calls)
    else:
        envs = TurnVectorEnv("stop", 256, **options)
        observe = args.fixed == "games+obs"
        steps, elapsed = _floor_steps(envs, 0.0, args.seed, observe, args.calls)
    log(f"{args.fixed}: {steps} learner steps in {elapsed:.2f} s")


def vector_main(args: argparse.Namespace) -> None:
    import gymnasium as gym
    from gymnasium.vector import SyncVectorEnv

    import stoptable.rl  # noqa: F401  (registers the ids)
    from stoptable.rl.vector import TurnVectorEnv

    try:
        ensure_rlcard()
        uno_ok = True
    except (subprocess.CalledProcessError, OSError) as exc:
        log(f"setup: could not install RLCard ({exc}); measuring only stoptable's envs")
        uno_ok = False
    options = {"opponents": args.opponents}
    best: dict[tuple[str, int], float] = {}
    uno = 0.0
    for repeat in range(args.repeats):
        if uno_ok:
            steps, _, elapsed = measure_uno(args.seconds, args.seed + repeat)
            rate = steps / elapsed
            uno = max(uno, rate)
            log(f"run {repeat + 1}/{args.repeats} uno      env.run {rate:>9,.0f} steps/s")
        for n in (1, 16, 256):
            sides = {
                "batched": lambda n=n: TurnVectorEnv("stop", n, **options),
                "sync": lambda n=n: SyncVectorEnv(
                    [lambda: gym.make("stoptable/Stop-v0", **options) for _ in range(n)]
                ),
            }
            for name, make in sides.items():
                steps, elapsed = _vector_steps(make(), args.seconds, args.seed + repeat)
                rate = steps / elapsed
                best[name, n] = max(best.get((name, n), 0.0), rate)
                log(f"run {repeat + 1}/{args.repeats} {name:8} N={n:<4} {rate:>10,.0f} steps/s")
        for name, observe in (("games", False), ("games+obs", True)):
            envs = TurnVectorEnv("stop", 256, **options)
            steps, elapsed = _floor_steps(envs, args.seconds, args.seed + repeat, observe)
            rate = steps / elapsed
            best[name, 256] = max(best.get((name, 256), 0.0), rate)
            log(f"run {repeat + 1}/{args.repeats} {name:9} N=256 {rate:>10,.0f} steps/s")
    log("")
    log(f"Stop-v0 (abacus-en, 2 seats, opponents={args.opponents}), learner steps/s, best:")
    for n in (1, 16, 256):
        ours, sync = best["batched", n], best["sync", n]
        log(
            f"  N={n:<4} batched {ours:>10,.0f}   SyncVectorEnv {sync:>10,.0f}   x{ours / sync:.2f}"
        )
    sync, games, observed = best["sync", 256], best["games", 256], best["games+obs", 256]
    log(
        f"  N=256 the games alone (step_quietly, no observation or mask) {games:>10,.0f}: "
        f"at most x{games / sync:.2f} over SyncVectorEnv for any batched env of them"
    )
    log(
        f"  N=256 the games and their observations (encode_into)      {observed:>10,.0f}: "
        f"x{observed / sync:.2f} over SyncVectorEnv"
    )
    if uno_ok:
        log(f"RLCard 1.2.0 UNO env.run (2 players, one env): {uno:,.0f} steps/s, best")
        log(f"  batched N=256 over UNO env.run: x{best['batched', 256] / uno:.2f}")
    log(f"ratio: {best['batched', 256] / best['sync', 256]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--vector", action="store_true", help="the batched env (see above)")
    parser.add_argument("--opponents", default="random", help="--vector: the bots")
    parser.add_argument(
        "--compiled", action="store_true", help="run on the mypyc build (`make compiled`)"
    )
    parser.add_argument(
        "--fixed",
        choices=("batched", "sync", "games", "games+obs"),
        help="--calls calls of one side at N = 256, for callgrind (see fixed_main)",
    )
    parser.add_argument("--calls", type=int, default=25, help="--fixed: calls of the side")
    args = parser.parse_args()
    if args.compiled and os.environ.get("STOPTABLE_BENCH_COMPILED") != "1":
        if not (COMPILED / "stoptable").is_dir():
            sys.exit(f"--compiled: no compiled build in {COMPILED} (run `make compiled`)")
        env = dict(os.environ, STOPTABLE_BENCH_COMPILED="1")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(COMPILED), env.get("PYTHONPATH")]))
        os.execve(sys.executable, [sys.executable, *sys.argv], env)
    build = "compiled" if str(COMPILED) in str(stoptable.__file__) else "pure"
    if args.compiled and build != "compiled":
        sys.exit(f"--compiled: imported {stoptable.__file__}, not the compiled build")
    log(f"stoptable build: {build} ({Path(stoptable.__file__).parent})")
    if args.fixed:
        fixed_main(args)
        return
    if args.vector:
        vector_main(args)
        return
    try:
        ensure_rlcard()
        uno = True
    except (subprocess.CalledProcessError, OSError) as exc:
        log(f"setup: could not install RLCard ({exc}); measuring only stoptable's envs")
        uno = False
    sides: dict[str, Callable[[float, int], tuple[int, int, float]]] = {
        "stop": measure_stop,
        "stop-choice": measure_stop_choice,
        "stopandgo": measure_stopandgo,
        "stopit": measure_stopit,
    }
    if uno:
        sides["uno"] = measure_uno
    best: dict[str, float] = {}
    rounds: list[float] = []  # Stop over UNO within each round (measured seconds apart)
    for repeat in range(args.repeats):
        this: dict[str, float] = {}
        for name, measure in sides.items():
            steps, episodes, elapsed = measure(args.seconds, args.seed + repeat)
            rate = this[name] = steps / elapsed
            log(
                f"run {repeat + 1}/{args.repeats} {name:9} {rate:>10,.0f} steps/s "
                f"({steps / episodes:.0f} steps/episode)"
            )
            best[name] = max(best.get(name, 0.0), rate)
        if uno:
            rounds.append(this["stop"] / this["uno"])
    log("")
    labels = {
        "stop": "Stop AEC env (abacus-en, 2 seats)",
        "stop-choice": "  the same, drawn by Generator.choice (before)",
        "stopandgo": "Stop & Go AEC env (2 seats)",
        "stopit": "Stop it! Parallel env (2 seats, 100 ms ticks)",
        "uno": "RLCard 1.2.0 UNO env.run (2 players)",
    }
    for name, rate in best.items():
        log(f"{labels[name]:<48}{rate:>12,.0f} steps/s")
    if uno:
        ratios = ", ".join(f"{r:.2f}" for r in rounds)
        log(f"Stop / UNO within each round: median {statistics.median(rounds):.2f} ({ratios})")
        log(f"ratio_with_generator_choice: {best['stop-choice'] / best['uno']:.2f}")
        log(f"ratio: {best['stop'] / best['uno']:.2f}")
    else:
        log("ratio: n/a (RLCard unavailable)")


if __name__ == "__main__":
    main()
