"""Tournaments between bots for any game: schedules, games, openskill ratings.

A tournament is a list of *entries* (bot names, ``ismcts:200``, or ``py:module:factory``
for a saved policy, see :mod:`stoptable.sim.players`) and a schedule of games:

* ``round-robin``: every set of ``seats`` entries (all of them if there are fewer entries
  than seats, cycled to fill the table) plays every rotation of its seating;
* ``gauntlet``: the first entry against each other one, alone against ``seats - 1``
  copies of it (1 ISMCTS vs 3 heuristic), in every seat.

Each seating is played ``games`` times. Game ``i`` of the schedule has seed ``seed + i``
and its bots seeds derived from it, so a game's result depends on nothing but its job;
the backends (local processes, Ray: :mod:`stoptable.sim.backends`) may play the jobs in any
order, and the results are put back in schedule order before the ratings are computed.
The same seed therefore gives the same JSON with any backend and any number of workers.

Games reach the engines only through the registry (``stoptable.games.spec``): a turn-based
game runs in its spec's synchronous driver, a real-time one (``spec.realtime``) in the
discrete-event simulator.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final, Literal

from stoptable.core.protocol import JSON, Outcome
from stoptable.live.virtual import driver_for
from stoptable.sim.stats import mean_ci

Mode = Literal["round-robin", "gauntlet"]
MODES: Final = ("round-robin", "gauntlet")


@dataclass(frozen=True, slots=True)
class Job:
    """One game to play: who sits where (entry indices), and its seed."""

    index: int
    game: str
    ruleset: str | None
    options: dict[str, JSON]
    entries: tuple[str, ...]
    seating: tuple[int, ...]
    seed: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One played game: the seating (entry indices per seat), scores and ranks per seat."""

    index: int
    seed: int
    seating: tuple[int, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    termination: str


@dataclass(frozen=True, slots=True)
class Rating:
    """An entry's openskill (Plackett-Luce) rating: ``mu`` ± ``sigma``, and ``mu - 3 sigma``."""

    entry: str
    mu: float
    sigma: float
    ordinal: float


@dataclass
class TournamentResult:
    """Everything a tournament reports (``to_json`` is what ``--out`` writes)."""

    game: str
    ruleset: str | None
    options: dict[str, JSON]
    mode: str
    seats: int
    seed: int
    entries: list[str]
    lower_is_better: bool
    games: list[GameRecord] = field(default_factory=list)
    ratings: list[Rating] = field(default_factory=list)

    def win_share_by_seat(self) -> list[list[float]]:
        """``[entry][seat]``: the share of that entry's games in that seat that it won
        (a shared first place counts 1/k)."""
        won = [[0.0] * self.seats for _ in self.entries]
        played = [[0] * self.seats for _ in self.entries]
        for g in self.games:
            firsts = [s for s, r in enumerate(g.ranks) if r == 1]
            for seat, entry in enumerate(g.seating):
                played[entry][seat] += 1
                if seat in firsts:
                    won[entry][seat] += 1.0 / len(firsts)
        return [
            [w / p if p else 0.0 for w, p in zip(row_w, row_p, strict=True)]
            for row_w, row_p in zip(won, played, strict=True)
        ]

    def scores_of(self, entry: int) -> list[int]:
        """Every score ``entry`` made, in schedule order."""
        return [g.scores[s] for g in self.games for s, e in enumerate(g.seating) if e == entry]

    def to_json(self) -> dict[str, JSON]:
        summary = []
        shares = self.win_share_by_seat()
        for i, name in enumerate(self.entries):
            scores = [float(x) for x in self.scores_of(i)]
            estimate = mean_ci(scores)
            summary.append(
                {
                    "entry": name,
                    "games": len(scores),
                    "mean_score": estimate.mean,
                    "mean_score_ci95": estimate.half_width,
                    "win_share_by_seat": shares[i],
                }
            )
        return {
            "game": self.game,
            "ruleset": self.ruleset,
            "options": self.options,
            "mode": self.mode,
            "seats": self.seats,
            "seed": self.seed,
            "entries": self.entries,
            "lower_is_better": self.lower_is_better,
            "ratings": [asdict(r) for r in self.ratings],
            "summary": summary,
            "games": [
                {**asdict(g), "seating": list(g.seating), "scores": list(g.scores)}
                for g in self.games
            ],
        }


def seatings(entries: int, seats: int, mode: Mode) -> list[tuple[int, ...]]:
    """The seatings a schedule plays (each once per repetition), every rotation included.

    >>> seatings(2, 2, "round-robin")
    [(0, 1), (1, 0)]
    >>> seatings(3, 3, "gauntlet")
    [(0, 1, 1), (1, 0, 1), (1, 1, 0), (0, 2, 2), (2, 0, 2), (2, 2, 0)]
    """
    if entries < 2:
        raise ValueError("a tournament needs at least 2 entries")
    if mode == "gauntlet":
        tables = [(0,) + (other,) * (seats - 1) for other in range(1, entries)]
    elif mode == "round-robin":
        if entries >= seats:
            tables = list(itertools.combinations(range(entries), seats))
        else:
            tables = [tuple(i % entries for i in range(seats))]
    else:
        raise ValueError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")
    out: list[tuple[int, ...]] = []
    for table in tables:
        for shift in range(seats):
            out.append(table[shift:] + table[:shift])
    return out


def schedule(
    game: str,
    entries: Sequence[str],
    seats: int,
    mode: Mode,
    games: int,
    seed: int = 0,
    ruleset: str | None = None,
    options: dict[str, JSON] | None = None,
) -> list[Job]:
    """Every game of the tournament, in schedule order (repetition-major)."""
    tables = seatings(len(entries), seats, mode)
    jobs: list[Job] = []
    for _ in range(games):
        for table in tables:
            i = len(jobs)
            jobs.append(Job(i, game, ruleset, dict(options or {}), tuple(entries), table, seed + i))
    return jobs


def play_job(job: Job) -> GameRecord:
    """Play one scheduled game (in whatever process the backend runs it)."""
    from stoptable.games import spec as game_spec
    from stoptable.sim.players import make_player

    spec = game_spec(job.game)
    names = [job.entries[e] for e in job.seating]
    seats = len(names)
    if spec.realtime:
        from stoptable.sim.stopit_tournament import play_game

        first = (job.seed // seats) % seats
        played = play_game(names, job.seed, first_go_seat=first, options=job.options)
        scores, winners = played.scores, played.winners
        low = all(scores[w] == min(scores) for w in winners)
        outcome = Outcome.ranked(played.termination, scores, lower_is_better=low)
    else:
        state = spec.new(job.ruleset, seats, job.seed, job.options)
        bots = [
            make_player(job.game, name, seat, job.seed * 1_009 + seat)
            for seat, name in enumerate(names)
        ]
        driver_for(spec)(state).play(bots)
        result = state.result()
        assert result is not None
        outcome = result
    return GameRecord(
        job.index, job.seed, job.seating, tuple(outcome.scores), outcome.ranks,
        outcome.termination,
    )  # fmt: skip


def lower_is_better(games: Sequence[GameRecord]) -> bool:
    """Whether the scores are minus points (Stop, Stop it!) rather than gains (Stop & Go),
    read off the games: the first game with unequal scores says which end won."""
    for g in games:
        if min(g.scores) != max(g.scores):
            best = [s for s, r in enumerate(g.ranks) if r == 1]
            return g.scores[best[0]] == min(g.scores)
    return True


def rate(entries: Sequence[str], games: Sequence[GameRecord]) -> list[Rating]:
    """openskill Plackett-Luce ratings from the games in schedule order.

    An entry that fills several seats of one game (a gauntlet's copies) plays as that
    many copies of its rating; its new rating is the mean of the copies' updates.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating(name=name) for name in entries]
    for g in games:
        teams = [[model.rating(mu=ratings[e].mu, sigma=ratings[e].sigma)] for e in g.seating]
        updated = model.rate(teams, ranks=list(g.ranks))
        for entry in set(g.seating):
            mine = [updated[s][0] for s, e in enumerate(g.seating) if e == entry]
            mu = sum(r.mu for r in mine) / len(mine)
            sigma = sum(r.sigma for r in mine) / len(mine)
            ratings[entry] = model.rating(mu=mu, sigma=sigma, name=entries[entry])
    return [
        Rating(name, r.mu, r.sigma, r.mu - 3 * r.sigma)
        for name, r in zip(entries, ratings, strict=True)
    ]


def run_tournament(
    game: str,
    entries: Sequence[str],
    *,
    seats: int,
    mode: Mode = "round-robin",
    games: int = 1,
    seed: int = 0,
    ruleset: str | None = None,
    options: dict[str, JSON] | None = None,
    backend: Any = None,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play the whole schedule on ``backend`` (default: in this process) and rate it.

    ``progress(done, total)`` is called after each game arrives.
    """
    from stoptable.sim.backends import LocalBackend

    jobs = schedule(game, entries, seats, mode, games, seed, ruleset, options)
    runner = backend if backend is not None else LocalBackend(workers=1)
    records = sorted(runner.run(play_job, jobs, progress), key=lambda r: r.index)
    result = TournamentResult(
        game, ruleset, dict(options or {}), mode, seats, seed, list(entries),
        lower_is_better(records), records,
    )  # fmt: skip
    result.ratings = rate(entries, records)
    return result
