"""Episode lengths of the Gymnasium ids under honest play: the figures behind their
``max_episode_steps`` (docs/rl.md, "Every episode ends").

Not a timing: it plays whole matches of ``stoptable/Stop-v0`` (and, with ``--game``, the
other turn-based id) at the id's defaults, the learner's actions chosen by the ``heuristic``
bot from the learner's own view (what an honest, competent learner would do), and prints
the distribution of learner steps per episode (p50, p99, p99.9, max) and, for Stop, of
engine actions per round (what S-64's ``stall_actions`` counts) and of the learner's
return (its minimum bounds what a legal episode can cost, against ``illegal_reward``).
Games are seeded 0..N-1, so a run reproduces its figures exactly.

    python benchmarks/episode_lengths.py --games 10000 --jobs 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from typing import Any

import numpy as np

from stoptable.bots.base import make_bot
from stoptable.rl.single import make_stop, make_stopandgo

IDS = {"stop": "stoptable/Stop-v0", "stopandgo": "stoptable/StopAndGo-v0"}
MAKERS = {"stop": make_stop, "stopandgo": make_stopandgo}


def play(job: tuple[str, str, int, int]) -> list[tuple[int, float, list[int]]]:
    """``(learner steps, return, engine actions per round)`` of games ``start..stop-1``."""
    game, learner, start, stop = job
    env = MAKERS[game](opponents="heuristic")  # the id's env without its TimeLimit
    aec: Any = env.aec
    rounds: list[int] = []
    scored = aec.adapter.stopped

    def stopped(state: Any, driver: Any) -> Any:
        rounds.append(getattr(state, "round_actions", 0))
        return scored(state, driver)

    aec.adapter.stopped = stopped
    out = []
    for seed in range(start, stop):
        env.reset(seed=seed)
        bot = make_bot(game, learner, env.seat, seed)
        rounds.clear()
        steps, total = 0, 0.0
        while True:
            by_state = getattr(bot, "act_state", None)  # act's choice without the view
            if by_state is not None:
                choice = by_state(aec.state, aec.legal)
            else:
                choice = bot.act(aec.state.view(env.seat), aec.legal)
            _, reward, terminated, truncated, _ = env.step(aec.codec.index(choice))
            steps += 1
            total += float(reward)
            if terminated or truncated:
                break
        out.append((steps, total, rounds[:]))
    return out


def quantiles(values: list[float]) -> str:
    v = np.sort(np.asarray(values))
    q = {k: v[min(len(v) - 1, int(len(v) * p))] for k, p in (("p50", 0.5), ("p99", 0.99))}
    p999 = v[min(len(v) - 1, int(len(v) * 0.999))]
    return (
        f"n={len(v)} min={v[0]:g} p50={q['p50']:g} p99={q['p99']:g} "
        f"p99.9={p999:g} max={v[-1]:g} mean={v.mean():.3g}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(IDS), default="stop")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--learner", default="heuristic", help="the bot choosing its actions")
    parser.add_argument("--progress", action="store_true", help="print the figures so far")
    args = parser.parse_args()
    chunk = max(1, min(250, args.games // (args.jobs * 8)))
    jobs = [
        (args.game, args.learner, s, min(s + chunk, args.games))
        for s in range(0, args.games, chunk)
    ]
    t0 = time.perf_counter()
    results: list[tuple[int, float, list[int]]] = []
    with multiprocessing.Pool(args.jobs) as pool:
        for part in pool.imap(play, jobs):
            results += part
            if args.progress and len(results) < args.games:
                report(args, results, t0)
    report(args, results, t0)


def report(
    args: argparse.Namespace, results: list[tuple[int, float, list[int]]], t0: float
) -> None:
    """The distributions of the games played so far (seeds 0..len-1, in order)."""
    print(
        f"{IDS[args.game]} learner={args.learner} opponents=heuristic, seeds 0..{len(results) - 1}"
    )
    print("learner steps per episode:", quantiles([r[0] for r in results]))
    print("learner return per episode:", quantiles([r[1] for r in results]))
    if args.game == "stop":
        print("engine actions per round:", quantiles([a for r in results for a in r[2]]))
    print(f"({time.perf_counter() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
