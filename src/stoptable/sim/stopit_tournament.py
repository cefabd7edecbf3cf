"""Stop it! games between bots and the tournament runner of stop-it.md I-55.

:func:`play_game` plays one seeded game on the virtual clock; :func:`run_tournament` plays
N of them, rotating seats and ``first_go_seat``, and reports each bot's mean minus points
(with a 95% interval), its win share, and the number of evaluations per game.

Seeds: game g of a tournament with seed S is set up with seed ``S + g``; the bot in seat k
of that game is seeded ``(S + g) * 16 + k``. So one game can be replayed on its own from
its record, and the same ``(seed, bots, parameters)`` always give the same games (I-50).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from stoptable.bots.stopit import make_stopit_bot
from stoptable.core.records import RecordWriter
from stoptable.games.stopit.records import record_header
from stoptable.games.stopit.ruleset import sim_ruleset
from stoptable.games.stopit.spec import SPEC
from stoptable.games.stopit.state import StopItState
from stoptable.live.machine import Happening
from stoptable.live.virtual import VirtualTable
from stoptable.sim.run import wall_pace
from stoptable.sim.stats import Estimate, mean_ci, win_shares


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game: per-seat bot names, scores and winners, and what it took."""

    seed: int
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    termination: str
    """``supply_empty`` (I-20) or ``stacks_exhausted`` (I-21)."""
    evaluations: int
    duration_ms: int
    """Virtual time from setup to the end of the game."""
    record: str | None
    """The game's record (stoptable-record/1 text) when asked for."""


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` (see the module docstring)."""
    return game_seed * 16 + seat


def play_game(
    bots: Sequence[str],
    seed: int,
    *,
    first_go_seat: int = 0,
    options: dict[str, object] | None = None,
    record: bool = False,
    real_time_factor: float = 0.0,
    sleep: Callable[[float], None] = time.sleep,
    watch: Callable[[Happening], None] | None = None,
) -> GameResult:
    """Play one game between the named bots (seat k: ``bots[k]``) on the virtual clock.

    ``real_time_factor`` > 0 paces the game against the wall clock (1: real speed);
    ``watch`` sees every processed request and timer as it happens. A ``first_go_seat``
    in ``options`` wins over the argument (and so over the tournament's rotation).
    """
    ruleset = sim_ruleset(**{"first_go_seat": first_go_seat, **(options or {})})
    state = StopItState.new_game(ruleset, len(bots), seed)
    players = {k: make_stopit_bot(name, k, bot_seed(seed, k)) for k, name in enumerate(bots)}
    writer = RecordWriter(record_header(state, seed, "bots: " + ",".join(bots))) if record else None
    table = VirtualTable(SPEC, state, players, writer=writer, listener=watch)
    table.run(pace=wall_pace(real_time_factor, sleep))
    outcome = state.result()
    assert outcome is not None
    return GameResult(
        seed=seed,
        bots=tuple(bots),
        scores=outcome.scores,
        winners=outcome.winners,
        termination=outcome.termination,
        evaluations=table.evaluations,
        duration_ms=state.clock,
        record=writer.text() if writer is not None else None,
    )


@dataclass(frozen=True, slots=True)
class BotLine:
    """One entry of the bot list in the report (entries with the same name stay apart)."""

    entry: int
    name: str
    minus: Estimate
    win_share: float


@dataclass(frozen=True, slots=True)
class TournamentReport:
    """The I-55 report."""

    games: int
    seed: int
    lines: tuple[BotLine, ...]
    evaluations: Estimate
    duration_s: Estimate
    """Virtual game length in seconds."""


def seating(entries: int, game: int) -> tuple[list[int], int]:
    """I-55 rotation: which entry sits in each seat in game ``game``, and the first Go seat.

    Seats rotate every game; the first Go seat moves on every ``entries`` games, so over
    ``entries**2`` games every entry sits in every seat and starts from every seat.

    >>> seating(3, 4)
    ([1, 2, 0], 1)
    """
    shift = game % entries
    return [(seat + shift) % entries for seat in range(entries)], (game // entries) % entries


def run_tournament(
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    options: dict[str, object] | None = None,
    records_dir: Path | None = None,
    real_time_factor: float = 0.0,
    progress: Callable[[GameResult], None] | None = None,
    watch: Callable[[Happening], None] | None = None,
) -> TournamentReport:
    """Play ``games`` games (I-55) and report; with ``records_dir`` write each game's record
    there as ``game-<n>.jsonl``."""
    n = len(bots)
    minus: list[list[float]] = [[] for _ in range(n)]
    winners: list[list[int]] = []
    evaluations: list[float] = []
    durations: list[float] = []
    if records_dir is not None:
        records_dir.mkdir(parents=True, exist_ok=True)
    for game in range(games):
        seats, first = seating(n, game)
        result = play_game(
            [bots[e] for e in seats],
            seed + game,
            first_go_seat=first,
            options=options,
            record=records_dir is not None,
            real_time_factor=real_time_factor,
            watch=watch,
        )
        for seat, entry in enumerate(seats):
            minus[entry].append(float(result.scores[seat]))
        winners.append([seats[w] for w in result.winners])
        evaluations.append(float(result.evaluations))
        durations.append(result.duration_ms / 1000)
        if records_dir is not None and result.record is not None:
            (records_dir / f"game-{game + 1:04d}.jsonl").write_text(result.record, "utf-8")
        if progress is not None:
            progress(result)
    shares = win_shares(winners, n)
    lines = tuple(
        BotLine(entry, bots[entry], mean_ci(minus[entry]), shares[entry]) for entry in range(n)
    )
    return TournamentReport(games, seed, lines, mean_ci(evaluations), mean_ci(durations))
