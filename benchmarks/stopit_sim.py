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

``--peer DIR`` measures another version of stoptable in the same run: DIR is a checkout of
it (``git worktree add /tmp/peer c4c6c02``, the code when the 300 games/s bar was set; its own
``src/`` is used, with this ``.venv``). Rounds of this checkout and of the peer alternate, each
in a fresh process, and it prints each round's ratio (this / peer, CPU rates) and their
median, ``peer_ratio: R``, before the usual last line. A ratio does not drift with the
machine's speed, which on a shared 2-core machine swings by half within minutes.

``--compiled`` does the same against this checkout's compiled build (``make compiled``,
``build/compiled``): each pair prints the compiled build as the peer, and ``peer_ratio`` is
pure / compiled.

``--compiled --peer DIR`` puts the two together: this checkout's *compiled* build against
DIR's pure ``src/``, alternated in fresh processes as above, and ``peer_ratio`` is compiled
/ peer. It is the reading of issue 20's games/s goal on a machine slower than the one it
was set on (the bar as a ratio against the code it was filed on, ``/tmp/filed``, in the
same run).

``--fixed`` plays games 10,000 to 10,002 as a warm-up and then games 10,003 to 10,012 once
inside ``functools.reduce`` and nothing else, for an instruction count that a busy machine
does not move: run it under ``valgrind --tool=callgrind --collect-atstart=no
--toggle-collect=functools_reduce`` (``PYTHONPATH`` picks the build or checkout measured:
``build/compiled``, ``src``, ``/tmp/filed/src``) and divide by 10.

With ``--compiled`` (alone or with ``--peer``) the closing rounds, their ``best:`` line and
the last line are those of the compiled build too (a fresh process with ``build/compiled``
first on its path): the last line reads the build that was asked for.

Run from the project's virtualenv: ``python benchmarks/stopit_sim.py``. The last line is
``games_per_s: N``.
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
from typing import Final

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


def fixed_games() -> int:
    """Games 10,000-10,002 (imports, first-use work), then games 10,003-10,012 inside
    ``functools.reduce`` (what callgrind counts with ``--toggle-collect=functools_reduce``);
    returns their evaluations."""
    for game in range(3):
        play_game(BOTS, 10_000 + game, first_go_seat=game % 4)
    return functools.reduce(
        lambda total, game: (
            total + play_game(BOTS, 10_000 + game, first_go_seat=game % 4).evaluations
        ),
        range(3, 13),
        0,
    )


def count_calls(games: int) -> int:
    """Python function calls (cProfile's count) of ``games`` fixed seeded games."""
    play_game(BOTS, 1)  # imports and first-use work stay out of the count
    profiler = cProfile.Profile()
    profiler.enable()
    for game in range(games):
        play_game(BOTS, 10_000 + game, first_go_seat=game % 4)
    profiler.disable()
    return int(pstats.Stats(profiler).total_calls)  # type: ignore[attr-defined]


def child_rate(src: Path, seconds: float, first_seed: int) -> float:
    """Games per CPU second of the stoptable under ``src``, measured in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    code = (
        "import sys, stoptable; from pathlib import Path\n"
        f"assert Path(stoptable.__file__).resolve().is_relative_to({str(src.resolve())!r}), "
        "f'stoptable comes from {stoptable.__file__}'\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "import stopit_sim\n"
        "stopit_sim.play_game(stopit_sim.BOTS, 1)\n"  # first-use work stays out, as in count_calls
        f"games, _wall, cpu, _ev = stopit_sim.measure({seconds}, {first_seed})\n"
        "print(games / cpu)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        raise SystemExit(f"the run under {src} failed:\n{out.stderr.strip()}")
    return float(out.stdout.strip().splitlines()[-1])


ROOT: Final = Path(__file__).resolve().parent.parent
COMPILED: Final = ROOT / "build" / "compiled"
"""This checkout's compiled build (``make compiled``): its ``stoptable`` is in the folder
itself, not in a ``src/`` below it."""


def compare(
    peer: Path, seconds: float, repeats: int, *, compiled: bool = False, ours: Path | None = None
) -> float:
    """Alternated rounds of this checkout (``ours``: the folder holding the ``stoptable``
    to measure, by default this checkout's ``src``) and of ``peer``: the median ratio of
    CPU rates. ``compiled``: ``peer`` is a compiled build, whose ``stoptable`` is in
    ``peer`` itself rather than in ``peer/src``."""
    ours_src = ROOT / "src" if ours is None else ours.resolve()
    peer_src = peer.resolve() if compiled else peer.resolve() / "src"
    for where, src in ((peer, peer_src), (ours_src, ours_src)):
        if not (src / "stoptable").is_dir():
            raise SystemExit(f"{where}: no stoptable there (a checkout? make compiled?)")
    ratios = []
    for repeat in range(repeats):
        seed = 200_000 + repeat * 100_000
        if repeat % 2:  # each goes first in every other round
            theirs = child_rate(peer_src, seconds, seed)
            ours = child_rate(ours_src, seconds, seed)
        else:
            ours = child_rate(ours_src, seconds, seed)
            theirs = child_rate(peer_src, seconds, seed)
        ratios.append(ours / theirs)
        print(
            f"pair {repeat + 1}: this {ours:.1f}, peer {theirs:.1f} games per CPU s,"
            f" ratio {ours / theirs:.2f}"
        )
    median = statistics.median(ratios)
    print(
        f"peer_ratio: {median:.2f} [{min(ratios):.2f}-{max(ratios):.2f}]"
        f" (median of {repeats} and range; {ours_src} / {peer_src})"
    )
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--calls", type=int, default=0, metavar="N")
    parser.add_argument("--peer", type=Path, default=None, metavar="DIR")
    parser.add_argument(
        "--pairs", type=int, default=8, help="alternated rounds with --peer (default 8)"
    )
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="peer: the compiled build (make compiled); peer_ratio is pure/compiled;"
        " with --peer DIR: the compiled build against DIR, peer_ratio compiled/DIR",
    )
    parser.add_argument(
        "--fixed", action="store_true", help="games 10,003-10,012 for callgrind (see above)"
    )
    args = parser.parse_args()
    if args.fixed:
        print(f"fixed games 10,003-10,012: {fixed_games()} evaluations")
        return
    if args.compiled and args.peer is not None:  # compiled here / the peer's pure src
        compare(args.peer, args.seconds / args.repeats, args.pairs, ours=COMPILED)
    elif args.compiled:
        compare(COMPILED, args.seconds / args.repeats, args.pairs, compiled=True)
    elif args.peer is not None:
        compare(args.peer, args.seconds / args.repeats, args.pairs)
    if args.compiled:  # the closing rounds of the compiled build, in a process of its own
        print(f"closing rounds: the compiled build ({COMPILED})", flush=True)
        argv = [sys.executable, __file__, "--seconds", str(args.seconds)]
        argv += ["--repeats", str(args.repeats)]
        if args.calls:
            argv += ["--calls", str(args.calls)]
        env = {**os.environ, "PYTHONPATH": str(COMPILED)}
        raise SystemExit(subprocess.run(argv, env=env, check=False).returncode)
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
