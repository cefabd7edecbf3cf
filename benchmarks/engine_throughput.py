"""Stop engine throughput beside RLCard 1.2.0's UNO game object, measured in the same run.

Both sides play whole rounds with uniformly random legal actions in one process each:

* Stop (``abacus-en``) runs here, in the project's interpreter, through the synchronous
  driver of ``stoptable.games.stop.driver`` (S-61 offers included, every offer declined or taken at
  random like any other legal choice). After every action the driver finds who may be
  offered an interjection (every seat's hand is checked), lists each offered seat's legal
  interjections (``legal.interjections``: the interjections of ``legal_actions``, computed
  alone; tests hold the two equal), then the full ``legal_actions`` of the seat to act, and
  applies the random choice through the validating ``apply``. Only accepted actions are
  counted, not declined offers;
* UNO runs in ``.bench/venv`` (RLCard is not a project dependency), as a subprocess that
  plays ``rlcard.games.uno.game.UnoGame`` for a fixed time and prints its counts as JSON.

The two are measured one after the other, alternating and repeated, so that neither gets
the machine to itself while the other waits; the best of the repeats is kept for each side
(the usual way to read a noisy shared machine). Both sides time themselves with the same
clock, the CPU time of their own process (``time.process_time``): both are single-threaded,
so on an idle machine it equals the wall time, and on a shared one it does not charge a side
for the time other programs held the CPU. The last line is ``ratio: R``: Stop actions/s
over UNO actions/s at 2 seats.

Run from the project's virtualenv: ``python benchmarks/engine_throughput.py``. The first run
creates ``.bench/venv`` and installs ``rlcard==1.2.0`` into it (a minute or two).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from stoptable.bots.base import make_bot
from stoptable.games.stop import new_game
from stoptable.games.stop.driver import StopDriver

ROOT = Path(__file__).resolve().parent.parent
BENCH_VENV = ROOT / ".bench" / "venv"
BENCH_PYTHON = BENCH_VENV / "bin" / "python"
RLCARD = "rlcard==1.2.0"

UNO_WORKER = r"""
import json, random, sys, time
import numpy as np
from rlcard.games.uno.game import UnoGame

seats, seconds, seed = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
game = UnoGame(num_players=seats)
game.np_random = np.random.RandomState(seed)
rng = random.Random(seed)
actions = rounds = 0
start = time.process_time()
while True:
    game.init_game()
    while not game.is_over():
        legal = game.get_legal_actions()
        game.step(legal[rng.randrange(len(legal))])
        actions += 1
    rounds += 1
    elapsed = time.process_time() - start
    if elapsed >= seconds:
        break
print(json.dumps({"actions": actions, "rounds": rounds, "seconds": elapsed}))
"""


def log(message: str) -> None:
    """Progress on stderr-free stdout, flushed at once so a slow setup shows it is alive."""
    print(message, flush=True)


def ensure_rlcard() -> None:
    """Create ``.bench/venv`` with RLCard 1.2.0 unless it is already there and importable."""
    if BENCH_PYTHON.exists():
        probe = subprocess.run(
            [str(BENCH_PYTHON), "-c", "import rlcard, numpy; print(rlcard.__version__)"],
            capture_output=True,
            text=True,
        )
        if probe.returncode == 0 and probe.stdout.strip() == "1.2.0":
            log(f"setup: RLCard 1.2.0 found in {BENCH_VENV.relative_to(ROOT)}")
            return
    log(f"setup: creating {BENCH_VENV.relative_to(ROOT)} (first run only)")
    subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
    log(f"setup: pip install {RLCARD} (pulls numpy and termcolor)")
    subprocess.run(
        [str(BENCH_PYTHON), "-m", "pip", "install", "--disable-pip-version-check", RLCARD],
        check=True,
    )
    log("setup: done")


def measure_uno(seats: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random UNO play in the bench interpreter: (actions, rounds, seconds)."""
    out = subprocess.run(
        [str(BENCH_PYTHON), "-c", UNO_WORKER, str(seats), str(seconds), str(seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return int(data["actions"]), int(data["rounds"]), float(data["seconds"])


def measure_stop(seats: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random Stop rounds (``abacus-en``) here: (actions, rounds, seconds)."""
    bots = [make_bot("stop", "random", seat, seed + seat) for seat in range(seats)]
    actions = rounds = 0
    start = time.process_time()
    game_seed = seed
    while True:
        state = new_game("abacus-en", seats, game_seed, {})
        driver = StopDriver(state, bots)
        actions += driver.play_round()
        rounds += 1
        game_seed += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return actions, rounds, elapsed


def profile_stop(seconds: float, seed: int) -> None:
    """Where the Stop side spends its time (2 seats), by internal time."""
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    measure_stop(2, seconds, seed)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
    log(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile", action="store_true", help="also print cProfile's top entries for Stop"
    )
    args = parser.parse_args()
    if args.profile:
        profile_stop(args.seconds, args.seed)
    ensure_rlcard()
    best: dict[tuple[str, int], tuple[float, float]] = {}
    for repeat in range(args.repeats):
        for seats in (2, 4):
            for name, measure in (("stop", measure_stop), ("uno", measure_uno)):
                actions, rounds, elapsed = measure(seats, args.seconds, args.seed + repeat)
                rate = (actions / elapsed, rounds / elapsed)
                log(
                    f"run {repeat + 1}/{args.repeats} {name:4} {seats} seats: "
                    f"{rate[0]:>10,.0f} actions/s {rate[1]:>8,.1f} rounds/s "
                    f"({actions / rounds:.1f} actions/round)"
                )
                key = (name, seats)
                if key not in best or rate[0] > best[key][0]:
                    best[key] = rate
    log("")
    log(f"{'game':<22}{'seats':>6}{'actions/s':>14}{'rounds/s':>12}")
    for seats in (2, 4):
        for name, label in (("stop", "Stop abacus-en"), ("uno", "RLCard 1.2.0 UNO")):
            a, r = best[(name, seats)]
            log(f"{label:<22}{seats:>6}{a:>14,.0f}{r:>12,.1f}")
    for seats in (4, 2):
        ratio = best[("stop", seats)][0] / best[("uno", seats)][0]
        log(f"ratio at {seats} seats (Stop/UNO actions/s): {ratio:.2f}")
    log(f"ratio: {best[('stop', 2)][0] / best[('uno', 2)][0]:.2f}")


if __name__ == "__main__":
    main()
