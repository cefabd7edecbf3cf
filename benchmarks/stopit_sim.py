"""Stop it! simulation throughput: whole games per second, 4 heuristic bots, one process.

Each game is a complete seeded game of the discrete-event simulator (stop-it.md I-50..I-54)
on the virtual clock: setup, every observation, grab, insert, call and evaluation, until
the supply of minus cards is empty. No record is written. The games run for about
``--seconds`` seconds (default 5); the best of ``--repeats`` (5) rounds is kept, the usual
reading on a shared machine.

Each round prints two rates: per wall-clock second and per CPU second of this process (one
process, one core); a ``best:`` line gives the best of each. The last line uses the CPU
time, because the machines this runs on are shared (2 cores, several engineers' test runs):
wall-clock figures there measure the neighbours as much as this code. On an idle core the
two agree.

``--calls N`` first counts the Python function calls of N fixed seeded games under
cProfile (seeds 10000..; the same games every run, so the count compares two versions of
the code however busy the machine is). With ``--profile`` it prints the top cProfile
entries first.

Run from the project's virtualenv: ``python benchmarks/stopit_sim.py``. The last line is
``games_per_s: N``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from stoptable.sim.stopit_tournament import play_game

BOTS = ["heuristic"] * 4


def measure(seconds: float, first_seed: int) -> tuple[int, float, float, int]:
    """Play games for ``seconds`` of wall clock: (games, wall s, CPU s, evaluations)."""
    games = evaluations = 0
    start, cpu = time.perf_counter(), time.process_time()
    while True:
        result = play_game(BOTS, first_seed + games, first_go_seat=games % 4)
        games += 1
        evaluations += result.evaluations
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, elapsed, time.process_time() - cpu, evaluations


def count_calls(games: int) -> int:
    """Python function calls (cProfile's count) of ``games`` fixed seeded games."""
    play_game(BOTS, 1)  # imports and first-use work stay out of the count
    profiler = cProfile.Profile()
    profiler.enable()
    for game in range(games):
        play_game(BOTS, 10_000 + game, first_go_seat=game % 4)
    profiler.disable()
    return int(pstats.Stats(profiler).total_calls)  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--calls", type=int, default=0, metavar="N")
    args = parser.parse_args()
    if args.calls:
        print(f"python_calls: {count_calls(args.calls)} for {args.calls} games")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        measure(args.seconds, 10_000)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    best = best_wall = 0.0
    for repeat in range(args.repeats):
        games, wall, cpu, evaluations = measure(args.seconds / args.repeats, repeat * 100_000)
        best = max(best, games / cpu)
        best_wall = max(best_wall, games / wall)
        print(
            f"round {repeat + 1}: {games} games, {games / wall:.1f} games per wall s, "
            f"{games / cpu:.1f} games per CPU s, {evaluations / games:.1f} evaluations/game"
        )
    print(f"best: {best_wall:.1f} games per wall s, {best:.1f} games per CPU s")
    print(f"games_per_s: {best:.0f}")


if __name__ == "__main__":
    main()
