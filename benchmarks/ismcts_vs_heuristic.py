"""ISMCTS against the heuristic bot, measured as paired differences with 95% intervals.

For every game seed the same deal is played twice: once with ISMCTS in one seat and the
heuristic bot in the others, once with the heuristic bot in every seat (the same bot seeds
in the other seats). The paired difference is ISMCTS's result minus the heuristic's result
in the same seat of the same deal, signed so that a positive number means ISMCTS did
better; the ISMCTS seat rotates with the seed. A second figure compares ISMCTS with the
mean of its opponents in its own games (0 expected between equal bots, by symmetry).

* Stop: abacus-en, 4 seats, single rounds (the round is what the search optimises);
  result = the round's minus points (lower is better).
* Stop & Go: default map, 4 seats, whole games; result = the game's score.
* Stop it!: the discrete-event simulator, 4 seats, whole games; result = minus points.

Run: ``python benchmarks/ismcts_vs_heuristic.py --game stop --games 200 --budget 50``
(``--workers`` processes; the games are seeded, so the figures do not depend on them).

``--game stop --sampler`` measures the Stop determinizer instead: over heuristic rounds,
how often a card sampled into another hand is in that hand, for uniform deals, for the
belief read from the view's log window, and for the belief with the seat's memory.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from rich.progress import Progress, TimeElapsedColumn

from stoptable.sim.stats import Estimate, mean_ci, paired_difference

SEATS = 4


def _stop(seed: int, names: list[str]) -> list[float]:
    from stoptable.bots.base import make_bot
    from stoptable.sim.stop import bot_seed, play_match

    bots = [make_bot("stop", n, s, bot_seed(seed, 0, s)) for s, n in enumerate(names)]
    options = {"first_dealer": seed % SEATS}
    result = play_match("abacus-en", bots, seed, options, rounds_only=True)
    return [-float(x) for x in result.round_scores[0]]


def _stopandgo(seed: int, names: list[str]) -> list[float]:
    from stoptable.sim.stopandgo import play_game

    return [float(x) for x in play_game(names, seed).scores]


def _stopit(seed: int, names: list[str]) -> list[float]:
    from stoptable.sim.stopit_tournament import play_game

    return [-float(x) for x in play_game(names, seed, first_go_seat=seed % SEATS).scores]


GAMES: dict[str, Callable[[int, list[str]], list[float]]] = {
    "stop": _stop,
    "stopandgo": _stopandgo,
    "stopit": _stopit,
}


def pair(job: tuple[str, int, str]) -> tuple[float, float, float]:
    """(ISMCTS's result, the heuristic's in the same seat and deal, ISMCTS's opponents' mean)."""
    game, seed, bot = job
    seat = seed % SEATS
    names = ["heuristic"] * SEATS
    base = GAMES[game](seed, names)
    names[seat] = bot
    mine = GAMES[game](seed, names)
    others = [x for s, x in enumerate(mine) if s != seat]
    return mine[seat], base[seat], sum(others) / len(others)


def sampler_check(rounds: int, seed: int) -> None:
    """Print the share of sampled cards of the other hands that are in the true hands."""
    from collections import Counter
    from typing import Any

    from stoptable.bots.stop import HeuristicBot
    from stoptable.core.rng import Rng
    from stoptable.games.stop.driver import StopDriver
    from stoptable.games.stop.sample import Belief, Lot, SeatMemory, infer, sample_state
    from stoptable.games.stop.state import StopState, new_game

    hits = {"uniform": 0.0, "log window": 0.0, "window and memory": 0.0}
    counted = 0

    class Probe(HeuristicBot):
        def __init__(self, seat: int, seed: int, state: StopState) -> None:
            super().__init__(seat, seed)
            self.state, self.memory, self.probe = state, SeatMemory(), Rng(seed)

        def act(self, view: dict[str, Any], legal: Any) -> Any:
            nonlocal counted
            self.memory.observe(view)
            if view["phase"] == "playing" and self.probe.random() < 0.3:
                me, sizes = view["seat"], view["hand_sizes"]
                uniform = Belief([[] if s == me else [Lot(n)] for s, n in enumerate(sizes)])
                beliefs = [uniform, infer(view), infer(view, self.memory)]
                others = [s for s in range(len(sizes)) if s != me and sizes[s]]
                counted += len(others)
                for name, belief in zip(hits, beliefs, strict=True):
                    sample = sample_state(view, self.probe, belief=belief)
                    for s in others:
                        true = Counter(self.state.hands[s])
                        common = Counter(sample.hands[s]) & true
                        hits[name] += sum(common.values()) / sizes[s]
            return super().act(view, legal)

    for game in range(rounds):
        state = new_game("abacus-en", SEATS, seed + game, {"first_dealer": game % SEATS})
        bots = [Probe(s, (seed + game) * SEATS + s, state) for s in range(SEATS)]
        StopDriver(state, bots).play_round()
    print(f"stop sampler, {rounds} heuristic rounds, seed {seed}: {counted} hands sampled")
    for name, total in hits.items():
        print(f"  {name:<18} {total / counted:.1%} of sampled cards are in the true hand")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--budget", default="50", help="iterations (500) or time (50ms)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sampler", action="store_true", help="check the Stop sampler")
    args = parser.parse_args()
    if args.sampler:
        sampler_check(args.games, args.seed)
        return
    bot = f"ismcts:{args.budget}"
    jobs = [(args.game, args.seed + g, bot) for g in range(args.games)]
    start = time.perf_counter()
    with (
        ProcessPoolExecutor(args.workers) as pool,
        Progress(*Progress.get_default_columns(), TimeElapsedColumn(), transient=True) as bar,
    ):
        task = bar.add_task(f"{args.game}: deals played twice", total=len(jobs))
        rows = []
        for row in pool.map(pair, jobs, chunksize=1):  # in order: the figures stay seeded
            rows.append(row)
            bar.advance(task)
    mine = [r[0] for r in rows]
    base = [r[1] for r in rows]
    opp = [r[2] for r in rows]
    diff: Estimate = paired_difference(mine, base)
    edge: Estimate = paired_difference(mine, opp)
    sign = "minus points" if args.game != "stopandgo" else "score"
    print(f"game: {args.game}  bot: {bot}  games: {args.games}  seed: {args.seed}")
    print(f"result ({sign}, higher is better): ismcts {mean_ci(mine)}  heuristic {mean_ci(base)}")
    print(
        f"paired ismcts - heuristic (same seat, same deal): {diff}  "
        f"95% CI [{diff.low:.2f}, {diff.high:.2f}]"
    )
    print(
        f"ismcts - mean of its opponents (same game):        {edge}  "
        f"95% CI [{edge.low:.2f}, {edge.high:.2f}]"
    )
    print(f"excludes zero: {diff.low > 0 or diff.high < 0}  ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
