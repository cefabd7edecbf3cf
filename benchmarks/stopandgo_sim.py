"""Stop & Go: whole 4-seat games between heuristic bots per second, default map, one process.

Each game is played by :func:`stoptable.sim.stopandgo.play_game` exactly as ``stoptable
simulate stopandgo`` plays it (rolls, one legal path per outcome, the bot's choice, the
engine's apply), without records. What is built once per map and shared by every game on
it is built before the clock starts: the heuristic bot's tables and the engine's walks of
every car state (a long simulation ends up with most of them anyway); ``--cold`` leaves
the walks to be built during the timed games. ``--profile`` prints the functions that take
the most time.

    .venv/bin/python benchmarks/stopandgo_sim.py [--games N] [--profile] [--cold]

``--compiled`` first plays ``--pairs`` alternated rounds of ``--games`` games in two fresh
processes each, the pure build (``src``) and the compiled one (``make compiled``:
``build/compiled``), and prints each round's games per CPU second, their ratio (compiled /
pure) and the median with its range.

``--peer DIR`` does the same against another version of stoptable: DIR is a checkout of it
(``git worktree add /tmp/filed 26db4b4``, the code issue 20's bar was set on); its own
``src/`` is played by this script with this ``.venv``. Each pair's ratio is this / peer
and the median with its range is printed as ``peer_ratio: R [lo-hi]``. With
``--compiled --peer DIR`` this checkout's compiled build plays against the peer's pure
``src``, so that a goal set as a ratio of the filed code's speed reads in one run. A ratio
of rounds alternated in the same run does not drift with a shared machine's speed, which
games per second do.

    .venv/bin/python benchmarks/stopandgo_sim.py --compiled --peer /tmp/filed --pairs 6

``--fixed`` warms up as the timed runs do and then plays games 3 to 10 once inside
``functools.reduce`` and nothing else, for an instruction count that a busy machine does
not move: run it under ``valgrind --tool=callgrind --collect-atstart=no
--toggle-collect=functools_reduce`` (``PYTHONPATH`` picks the build or checkout measured).
The games are played once, as in the timed runs, so that a cache of what one game met
cannot flatter the count.

With ``--compiled`` (alone or with ``--peer``) the closing games and the lines after the
pairs are those of the compiled build (a fresh process with ``build/compiled`` first on its
path): the last line reads the build that was asked for.

The last line is ``games_per_s: N``.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

from stoptable.bots.stopandgo import plan_for
from stoptable.games.stopandgo import load_default_map
from stoptable.games.stopandgo.paths import fill_path_cache
from stoptable.sim.stopandgo import play_game

BOTS = ["heuristic"] * 4


def warm_up(cold: bool = False) -> float:
    """Build the map, the engine's walks (unless ``cold``) and the bot's tables for every
    destination and dial position."""
    start = time.perf_counter()
    game_map = load_default_map()
    if not cold:
        fill_path_cache(game_map)
    plan = plan_for(game_map)
    for space in game_map.destination_space.values():
        for p in range(game_map.dial_positions):
            for held in (False, True):
                plan.move_keys(space, p, held)
    play_game(BOTS, 0)
    return time.perf_counter() - start


def run(games: int) -> tuple[float, float, int, int, int]:
    """Play ``games`` games; return (wall seconds, CPU seconds, turns, unfinished games,
    games ended by G-22).

    CPU time is printed too because on a shared machine the wall clock also counts the
    time other processes hold the core.
    """
    turns = unfinished = stalled = 0
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(1, games + 1):
        result = play_game(BOTS, seed)
        turns += result.turns
        unfinished += not result.finished
        stalled += result.termination == "stalled"
    return time.perf_counter() - start, time.process_time() - cpu, turns, unfinished, stalled


def fixed_games() -> int:
    """After :func:`warm_up`, games 3 to 10 inside ``functools.reduce`` (what callgrind
    counts with ``--toggle-collect=functools_reduce``); returns their turns."""
    warm_up()
    seeds = range(3, 11)
    return functools.reduce(lambda turns, seed: turns + play_game(BOTS, seed).turns, seeds, 0)


ROOT = Path(__file__).resolve().parent.parent


def child_rate(src: Path, games: int) -> float:
    """Games per CPU second of ``games`` games (after the warm-up) in a fresh process whose
    ``stoptable`` comes from ``src``."""
    code = (
        "import sys, stoptable; from pathlib import Path\n"
        f"assert Path(stoptable.__file__).resolve().is_relative_to({str(src.resolve())!r})\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "import stopandgo_sim\n"
        "stopandgo_sim.warm_up()\n"
        f"print({games} / stopandgo_sim.run({games})[1])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"the run under {src} failed:\n{out.stderr.strip()}")
    return float(out.stdout.strip().splitlines()[-1])


def compare(ours: Path, theirs: Path, games: int, pairs: int, names: tuple[str, str]) -> str:
    """Alternated rounds (each goes first every other round) of the stoptable under
    ``ours`` and under ``theirs`` (``names``: what to call them): prints each round's games
    per CPU second and ratio ours / theirs, and returns their median with its range."""
    for src in (ours, theirs):
        if not (src / "stoptable").is_dir():
            raise SystemExit(f"no stoptable package in {src}")
    ratios = []
    for pair in range(pairs):
        order = [theirs, ours] if pair % 2 == 0 else [ours, theirs]
        rates = {src: child_rate(src, games) for src in order}
        mine, peer = rates[ours], rates[theirs]
        ratios.append(mine / peer)
        print(
            f"pair {pair + 1}: {names[1]} {peer:.1f}, {names[0]} {mine:.1f} games per CPU s,"
            f" ratio {mine / peer:.2f}"
        )
    median = statistics.median(ratios)
    return f"{median:.2f} [{min(ratios):.2f}-{max(ratios):.2f}] (median of {pairs}"


def compiled_build() -> Path:
    """``build/compiled``, or exit saying how to make it."""
    compiled = ROOT / "build" / "compiled"
    if not (compiled / "stoptable").is_dir():
        raise SystemExit(f"--compiled: no compiled build in {compiled} (run `make compiled`)")
    return compiled


def compare_compiled(games: int, pairs: int) -> None:
    """Alternated rounds of the pure and the compiled build: compiled / pure per round."""
    summary = compare(compiled_build(), ROOT / "src", games, pairs, ("compiled", "pure"))
    print(f"compiled_ratio: {summary}; compiled / pure)")


def compare_peer(peer: Path, games: int, pairs: int, compiled: bool) -> None:
    """Alternated rounds of this checkout (its compiled build if ``compiled``) and of the
    pure ``src`` of the checkout ``peer``: this / peer per round."""
    ours = compiled_build() if compiled else ROOT / "src"
    name = "compiled" if compiled else "this"
    summary = compare(ours, peer.resolve() / "src", games, pairs, (name, "peer"))
    print(f"peer_ratio: {summary}; {name} / {peer})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--cold", action="store_true", help="do not walk every car state first")
    parser.add_argument("--compiled", action="store_true", help="also pure vs compiled rounds")
    parser.add_argument("--pairs", type=int, default=4, help="rounds with --compiled/--peer")
    parser.add_argument(
        "--peer", type=Path, default=None, metavar="DIR", help="a stoptable checkout to compare"
    )
    parser.add_argument("--fixed", action="store_true", help="games 3-10 for callgrind")
    args = parser.parse_args()
    if args.fixed:
        print(f"fixed games 3-10: {fixed_games()} turns")
        return
    if args.peer is not None:
        compare_peer(args.peer, args.games, args.pairs, args.compiled)
    elif args.compiled:
        compare_compiled(args.games, args.pairs)
    if args.compiled:  # the closing games on the compiled build, in a process of its own
        built = compiled_build()
        print(f"closing games: the compiled build ({built})", flush=True)
        argv = [sys.executable, __file__, "--games", str(args.games)]
        argv += ["--cold"] * args.cold + ["--profile"] * args.profile
        env = {**os.environ, "PYTHONPATH": str(built)}
        raise SystemExit(subprocess.run(argv, env=env, check=False).returncode)
    print(f"warm-up (map, walks, bot tables, one game): {warm_up(args.cold):.2f} s")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(max(1, args.games // 4))
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    seconds, cpu, turns, unfinished, stalled = run(args.games)
    print(f"games: {args.games}  turns: {turns}  turns/game: {turns / args.games:.1f}")
    print(f"unfinished games: {unfinished}  stalled games (G-22): {stalled}")
    print(f"turns_per_s: {turns / seconds:.0f}")
    print(f"games_per_cpu_s: {args.games / cpu:.1f}")
    print(f"games_per_s: {args.games / seconds:.1f}")


if __name__ == "__main__":
    main()
