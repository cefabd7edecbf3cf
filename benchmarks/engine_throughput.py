"""Stop engine throughput beside RLCard 1.2.0's UNO and OpenSpiel's ``crazy_eights``, one run.

Every side plays whole rounds with uniformly random legal actions in one process each:

* Stop (``abacus-en``) runs here, in the project's interpreter, through the synchronous
  driver of ``stoptable.games.stop.driver`` (S-61 offers included, every offer declined or taken at
  random like any other legal choice). After every action the driver finds who may be
  offered an interjection (every seat's hand is checked), lists each offered seat's legal
  interjections (``legal.interjections``: the interjections of ``legal_actions``, computed
  alone; tests hold the two equal), then the full ``legal_actions`` of the seat to act, and
  applies the random choice through the validating ``apply``. Only accepted actions are
  counted, not declined offers;
* UNO runs in ``.bench/venv`` (RLCard is not a project dependency), as a subprocess that
  plays ``rlcard.games.uno.game.UnoGame`` for a fixed time and prints its counts as JSON;
* OpenSpiel 2.0.2's ``crazy_eights`` (its C++ engine through ``pyspiel``) runs in the same
  ``.bench/venv``, stepped from Python as a research loop steps it: ``legal_actions()`` and
  ``apply_action()`` for the seat to act, and at a chance node one outcome of
  ``chance_outcomes()`` drawn by its probability. Only the players' actions are counted,
  as on the Stop side (its deals and draws are chance nodes there, engine work here);
  The issue that set the goal counted every ``apply_action`` (chance outcomes too), so
  that reading is printed as well: ``openspiel+chance`` is the same runs' player actions
  plus chance steps per second (about 1.6 times the player actions), the stricter peer;
* with ``--compiled``, Stop again in a child process whose ``stoptable`` is the mypyc build
  of ``make compiled`` (``build/compiled``; docs/architecture.md), the same code and games.

The sides are measured one after the other, alternating and repeated, so that none gets
the machine to itself while another waits. Every side times itself with the same clock, the
CPU time of its own process (``time.process_time``): all are single-threaded, so on an idle
machine it equals the wall time, and on a shared one it does not charge a side for the time
other programs held the CPU. For each pair it prints the best-of ratio (best Stop round over
the peer's best round) and the median of the per-round ratios with their range (each round's
Stop over the same round's peer: the reading that does not drift with the machine). The last
line is ``ratio: R``: Stop actions/s over UNO actions/s at 2 seats, best of the rounds.

Run from the project's virtualenv: ``python benchmarks/engine_throughput.py``. The first run
creates ``.bench/venv`` and installs ``rlcard==1.2.0`` and ``open_spiel==2.0.2`` into it (a
few minutes; ``--no-openspiel`` leaves OpenSpiel out).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stoptable.bots.base import make_bot
from stoptable.games.stop import new_game
from stoptable.games.stop.driver import StopDriver

ROOT = Path(__file__).resolve().parent.parent
BENCH_VENV = ROOT / ".bench" / "venv"
BENCH_PYTHON = BENCH_VENV / "bin" / "python"
RLCARD = "rlcard==1.2.0"
OPEN_SPIEL = "open_spiel==2.0.2"
COMPILED = ROOT / "build" / "compiled"
"""Where ``make compiled`` puts the mypyc build of stoptable (scripts/build_compiled.py)."""

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


OPEN_SPIEL_WORKER = r"""
import json, random, sys, time
import pyspiel

seats, seconds, seed = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
game = pyspiel.load_game("crazy_eights", {"players": seats})
rng = random.Random(seed)
actions = chance = rounds = 0
start = time.process_time()
while True:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
            chance += 1
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    rounds += 1
    elapsed = time.process_time() - start
    if elapsed >= seconds:
        break
print(json.dumps({"actions": actions, "chance": chance, "rounds": rounds, "seconds": elapsed}))
"""

STOP_WORKER = r"""
import json, sys
from pathlib import Path
import stoptable
assert Path(stoptable.__file__).resolve().is_relative_to(Path(sys.argv[4]).resolve()), (
    f"stoptable comes from {stoptable.__file__}"
)
sys.path.insert(0, sys.argv[5])
from engine_throughput import measure_stop
actions, rounds, elapsed = measure_stop(int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]))
print(json.dumps({"actions": actions, "rounds": rounds, "seconds": elapsed}))
"""


def log(message: str) -> None:
    """Progress on stderr-free stdout, flushed at once so a slow setup shows it is alive."""
    print(message, flush=True)


def ensure_rlcard() -> None:
    """Create ``.bench/venv`` with RLCard 1.2.0 unless it is already there and importable."""
    _ensure("rlcard", "import rlcard, numpy; print(rlcard.__version__)", "1.2.0", RLCARD)


def ensure_open_spiel() -> None:
    """Install OpenSpiel 2.0.2 (a binary wheel) into ``.bench/venv`` unless it is there."""
    probe = "import pyspiel, importlib.metadata as m; print(m.version('open_spiel'))"
    _ensure("OpenSpiel", probe, "2.0.2", OPEN_SPIEL)


def _ensure(name: str, probe: str, version: str, requirement: str) -> None:
    """Install ``requirement`` into ``.bench/venv`` (created if missing) unless ``probe``
    already prints ``version`` there."""
    if BENCH_PYTHON.exists():
        found = subprocess.run([str(BENCH_PYTHON), "-c", probe], capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.strip() == version:
            log(f"setup: {name} {version} found in {BENCH_VENV.relative_to(ROOT)}")
            return
    else:
        log(f"setup: creating {BENCH_VENV.relative_to(ROOT)} (first run only)")
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
    log(f"setup: pip install {requirement}")
    subprocess.run(
        [str(BENCH_PYTHON), "-m", "pip", "install", "--disable-pip-version-check", requirement],
        check=True,
    )
    log("setup: done")


CHANCE_STEPS: list[int] = []
"""The chance outcomes OpenSpiel applied in each of its measurements, in order (see
``openspiel+chance`` in :func:`main`)."""


def _child(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, int, float]:
    """Run a worker that prints ``{"actions", "rounds", "seconds"}`` as its last line."""
    out = subprocess.run(argv, capture_output=True, text=True, check=True, env=env)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    if "chance" in data:
        CHANCE_STEPS.append(int(data["chance"]))
    return int(data["actions"]), int(data["rounds"]), float(data["seconds"])


def measure_uno(seats: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random UNO play in the bench interpreter: (actions, rounds, seconds)."""
    return _child([str(BENCH_PYTHON), "-c", UNO_WORKER, str(seats), str(seconds), str(seed)])


def measure_open_spiel(seats: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random ``crazy_eights`` play stepped from the bench interpreter."""
    argv = [str(BENCH_PYTHON), "-c", OPEN_SPIEL_WORKER, str(seats), str(seconds), str(seed)]
    return _child(argv)


def measure_compiled(seats: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """:func:`measure_stop` in a child process that imports the compiled build."""
    env = {**os.environ, "PYTHONPATH": str(COMPILED)}
    here = str(Path(__file__).resolve().parent)
    argv = [sys.executable, "-c", STOP_WORKER, str(seats), str(seconds), str(seed)]
    return _child([*argv, str(COMPILED), here], env)


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


def play_fixed(seats: int, rounds: int, seed: int) -> int:
    """The first ``rounds`` rounds :func:`measure_stop` plays (same bots, same seeds) and
    nothing else: the actions they took. For instruction counts, which load does not move:
    ``valgrind --tool=callgrind python benchmarks/engine_throughput.py --fixed 20`` less
    the same with ``--fixed 0``, divided by the actions printed."""
    bots = [make_bot("stop", "random", seat, seed + seat) for seat in range(seats)]
    actions = 0
    for game_seed in range(seed, seed + rounds):
        actions += StopDriver(new_game("abacus-en", seats, game_seed, {}), bots).play_round()
    return actions


def play_reduced(seats: int, rounds: int, seed: int) -> int:
    """:func:`play_fixed` after two warm-up rounds of other seeds, called once inside
    ``functools.reduce``, so that ``valgrind --tool=callgrind --collect-atstart=no
    --toggle-collect=functools_reduce`` counts the rounds alone (no import, no first use);
    without the toggle the count less that of ``--fixed 0`` reads the same rounds."""
    play_fixed(seats, 2, 5000)
    return functools.reduce(lambda done, _: done + play_fixed(seats, rounds, seed), [0], 0)


def count_opcodes(seats: int, rounds: int, seed: int) -> tuple[int, int]:
    """The bytecodes the interpreter runs for :func:`play_fixed`'s rounds (``sys.settrace``
    opcode events, after one warm-up round so that no import or first-use cache is
    counted): (actions, opcodes). Pure build only (compiled code runs no bytecode). A
    count no load moves and no hash seed shifts, for comparing two versions of the pure
    engine; it weighs a C call like one opcode, so read it beside CPU time."""
    play_fixed(seats, 1, seed + rounds)
    count = 0

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        if event == "opcode":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        actions = play_fixed(seats, rounds, seed)
    finally:
        sys.settrace(None)
    return actions, count


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


Measure = Callable[[int, float, int], tuple[int, int, float]]
LABELS = {
    "stop": "Stop abacus-en",
    "compiled": "Stop compiled (mypyc)",
    "uno": "RLCard 1.2.0 UNO",
    "openspiel": "OpenSpiel crazy_eights",
    "openspiel+chance": "  + chance steps",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile", action="store_true", help="also print cProfile's top entries for Stop"
    )
    parser.add_argument("--no-openspiel", action="store_true", help="leave OpenSpiel out")
    parser.add_argument(
        "--compiled", action="store_true", help="also Stop compiled (needs `make compiled`)"
    )
    parser.add_argument(
        "--fixed",
        type=int,
        metavar="ROUNDS",
        help="only play ROUNDS seeded Stop rounds (inside functools.reduce) and print their "
        "actions (for callgrind)",
    )
    parser.add_argument("--seats", type=int, default=2, help="--fixed: seats")
    parser.add_argument(
        "--opcodes", action="store_true", help="--fixed: count the bytecodes run (pure build)"
    )
    args = parser.parse_args()
    if args.fixed is not None and args.opcodes:
        actions, opcodes = count_opcodes(args.seats, args.fixed, args.seed)
        print(f"actions: {actions} opcodes: {opcodes} per action: {opcodes / max(actions, 1):.1f}")
        return
    if args.fixed is not None:
        print(f"actions: {play_reduced(args.seats, args.fixed, args.seed)}")
        return
    if args.profile:
        profile_stop(args.seconds, args.seed)
    ensure_rlcard()
    sides: dict[str, Measure] = {"stop": measure_stop}
    if args.compiled:
        if not any(COMPILED.glob("stoptable/**/*.so")):
            sys.exit(f"--compiled: no compiled build in {COMPILED} (run `make compiled`)")
        sides["compiled"] = measure_compiled
    sides["uno"] = measure_uno
    if not args.no_openspiel:
        ensure_open_spiel()
        sides["openspiel"] = measure_open_spiel
    rates: dict[tuple[str, int], list[float]] = {}
    rounds_s: dict[tuple[str, int], list[float]] = {}
    for repeat in range(args.repeats):
        for seats in (2, 4):
            for name, measure in sides.items():
                actions, rounds, elapsed = measure(seats, args.seconds, args.seed + repeat)
                rate = (actions / elapsed, rounds / elapsed)
                log(
                    f"run {repeat + 1}/{args.repeats} {name:9} {seats} seats: "
                    f"{rate[0]:>10,.0f} actions/s {rate[1]:>8,.1f} rounds/s "
                    f"({actions / rounds:.1f} actions/round)"
                )
                rates.setdefault((name, seats), []).append(rate[0])
                rounds_s.setdefault((name, seats), []).append(rate[1])
                if name == "openspiel":  # the same run, its chance steps counted too
                    steps = actions + CHANCE_STEPS[-1]
                    rates.setdefault(("openspiel+chance", seats), []).append(steps / elapsed)
                    rounds_s.setdefault(("openspiel+chance", seats), []).append(rate[1])
    log("")
    log(f"{'game':<24}{'seats':>6}{'best actions/s':>16}{'median':>10}{'rounds/s':>10}")
    for seats in (2, 4):
        for name in [*sides, *(["openspiel+chance"] if "openspiel" in sides else [])]:
            runs = rates[(name, seats)]
            log(
                f"{LABELS[name]:<24}{seats:>6}{max(runs):>16,.0f}"
                f"{statistics.median(runs):>10,.0f}{max(rounds_s[(name, seats)]):>10,.1f}"
            )
    log("")
    ours = [name for name in ("stop", "compiled") if name in sides]
    peers = [
        name for name in ("uno", "openspiel", "openspiel+chance") if name.split("+")[0] in sides
    ]
    for seats in (4, 2):
        for name in ours:
            for peer in peers:
                mine, theirs = rates[(name, seats)], rates[(peer, seats)]
                per_round = [a / b for a, b in zip(mine, theirs, strict=True)]
                log(
                    f"ratio at {seats} seats ({name}/{peer} actions/s): "
                    f"best {max(mine) / max(theirs):.2f}, median of rounds "
                    f"{statistics.median(per_round):.2f} "
                    f"[{min(per_round):.2f}-{max(per_round):.2f}]"
                )
    log(f"ratio: {max(rates[('stop', 2)]) / max(rates[('uno', 2)]):.2f}")


if __name__ == "__main__":
    main()
