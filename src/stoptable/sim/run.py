"""Games between bots for any registered game: one runner and one report for all of them.

A game is found in the registry and played by its spec's driver
(``spec.driver(state, writer=w).play(bots)``): Stop's S-61 offer driver, the turn driver of
Stop & Go, the discrete-event table of Stop it!. Nothing here knows which game it runs.

Seeds and seating: game g of a run with seed S is dealt with seed ``S + g``; the bots are
turned by g places (game g puts ``bots[(k + g) % n]`` in seat k), so over n games each bot
sits in each seat once and a first-seat advantage cancels out; the bot in seat k of game g
is seeded ``(S + g) * 7919 + k``. So one game can be replayed on its own from its record,
and the same arguments always give the same games.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stoptable.bots.base import make_bot
from stoptable.core.game import GameSpec
from stoptable.core.protocol import JSON, Outcome
from stoptable.core.records import RecordWriter
from stoptable.live.virtual import driver_for
from stoptable.sim.stats import Estimate, mean_ci, paired_difference, win_shares

MAX_ACTIONS = 200_000
"""A bot game that has not ended after this many actions is a bug, not a result."""


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game dealt with ``game_seed``."""
    return game_seed * 7919 + seat


def seating(names: Sequence[str], game: int) -> list[str]:
    """The bots of game ``game``, seat by seat: the list turned by ``game`` places.

    >>> seating(["a", "b", "c"], 1)
    ['b', 'c', 'a']
    """
    shift = game % len(names)
    return [*names[shift:], *names[:shift]]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game: who sat where, how it ended, how long it took, and its record if kept."""

    seed: int
    bots: tuple[str, ...]
    outcome: Outcome
    actions: int
    record: str | None = None


def play_game(
    spec: GameSpec,
    bots: Sequence[str],
    seed: int,
    *,
    ruleset: str | None = None,
    options: Mapping[str, JSON] | None = None,
    setup: Mapping[str, Any] | None = None,
    header_setup: Mapping[str, JSON] | None = None,
    record: bool = False,
    rounds: bool = False,
    real_time_factor: float = 0.0,
    watch: Callable[[Any], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> GameResult:
    """Play one game of ``spec`` between the named bots (seat k: ``bots[k]``).

    ``setup`` goes to ``spec.new`` (a Stop & Go ``map``); ``header_setup`` is what the
    record's header says about it (the map's path). ``rounds``: play only the first round
    and report its outcome (a game whose driver ``plays_rounds``: Stop).
    ``real_time_factor`` > 0 paces the game against the wall clock (1: real speed, through
    ``sleep``) and ``watch`` sees everything that happens: I-55's watch mode, for a game
    whose driver ``plays_paced`` (Stop it!); the game is the same as unpaced. OptionError,
    PlayerCountError or UnknownBot if the arguments do not make a game; ValueError for
    ``rounds`` in a game without rounds, or pacing or watching a game that is not paced.
    """
    _check_modes(spec, rounds, real_time_factor, watch)
    rules = spec.ruleset(ruleset, options)
    state = spec.new(rules.name, len(bots), seed, options, **(setup or {}))
    players = [
        make_bot(spec.name, name, seat, bot_seed(seed, seat)) for seat, name in enumerate(bots)
    ]
    writer = None
    if record:
        header = spec.header(rules, len(bots), seed, **(header_setup or {})).to_json()
        header["note"] = "bots: " + ", ".join(bots)
        writer = RecordWriter(header)
    driver = driver_for(spec)(state, writer=writer)
    if rounds:
        actions = driver.play(players, MAX_ACTIONS, rounds=1)
        outcome = state.round_result()
    elif real_time_factor > 0 or watch is not None:
        actions = driver.play(
            players, MAX_ACTIONS, pace=wall_pace(real_time_factor, sleep), watch=watch
        )
        outcome = state.result()
    else:
        actions = driver.play(players, MAX_ACTIONS)
        outcome = state.result()
    if outcome is None:
        raise RuntimeError(f"{spec.title} game {seed} stopped before its end")
    return GameResult(
        seed=seed,
        bots=tuple(bots),
        outcome=outcome,
        actions=actions,
        record=writer.text() if writer is not None else None,
    )


def plays_rounds(spec: GameSpec) -> bool:
    """Whether the game's driver can stop after a round (``plays_rounds``)."""
    return bool(getattr(driver_for(spec), "plays_rounds", False))


def plays_paced(spec: GameSpec) -> bool:
    """Whether the game's driver can be paced and watched (``plays_paced``: real time)."""
    return bool(getattr(driver_for(spec), "plays_paced", False))


def _check_modes(
    spec: GameSpec, rounds: bool, factor: float, watch: Callable[[Any], None] | None
) -> None:
    """ValueError for a way of playing the game's driver does not offer."""
    if rounds and not plays_rounds(spec):
        raise ValueError(f"{spec.title} is not played in rounds: --rounds is for Stop")
    if factor < 0:
        raise ValueError(f"the real-time factor must be 0 or more, not {factor}")
    if (factor > 0 or watch is not None) and not plays_paced(spec):
        raise ValueError(
            f"{spec.title} is not a real-time game: --real-time-factor is for Stop it!"
        )


def wall_pace(factor: float, sleep: Callable[[float], None]) -> Callable[[int], None] | None:
    """``pace(t)`` for a real-time driver: wait until ``t`` ms of game time, times
    ``factor``, have passed on the wall clock since the pacer was made (I-55's
    ``real_time_factor``; None for 0: as fast as possible)."""
    if factor <= 0:
        return None
    origin = time.monotonic()

    def pace(t: int) -> None:
        wait = origin + t / 1000 * factor - time.monotonic()
        if wait > 0:
            sleep(wait)

    return pace


def simulate(
    spec: GameSpec,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    ruleset: str | None = None,
    options: Mapping[str, JSON] | None = None,
    setup: Mapping[str, Any] | None = None,
    header_setup: Mapping[str, JSON] | None = None,
    records: Path | None = None,
    on_game: Callable[[GameResult], None] | None = None,
    rounds: bool = False,
    real_time_factor: float = 0.0,
    watch: Callable[[Any], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` games (see the module docstring for seeds and seating); with
    ``records`` write each game's record there as ``<game>-<n>.jsonl``; ``rounds``,
    ``real_time_factor`` and ``watch`` as in :func:`play_game`."""
    _check_modes(spec, rounds, real_time_factor, watch)
    results = []
    for g in range(games):
        result = play_game(
            spec,
            seating(bots, g),
            seed + g,
            ruleset=ruleset,
            options=options,
            setup=setup,
            header_setup=header_setup,
            record=records is not None,
            rounds=rounds,
            real_time_factor=real_time_factor,
            watch=watch,
        )
        if records is not None and result.record is not None:
            (records / f"{spec.name}-{g + 1:04d}.jsonl").write_text(result.record, "utf-8")
        if on_game is not None:
            on_game(result)
        results.append(result)
    return results


@dataclass(frozen=True, slots=True)
class BotLine:
    """What one bot name achieved over all its seats (a name listed twice is one line)."""

    name: str
    seats_played: int
    win_share: float
    """Wins per seat played (a shared win counts 1/k): 1/seats when all bots are equal."""
    score: Estimate
    rank: Estimate
    difference: Estimate | None
    """Its score minus the first bot's in the same games (None for the first bot)."""


@dataclass(frozen=True, slots=True)
class Report:
    """The summary of a run: per bot, game length, how games ended."""

    game: str
    games: int
    lower_is_better: bool
    lines: list[BotLine]
    actions: Estimate
    terminations: dict[str, int] = field(default_factory=dict)
    seat_shares: list[float] = field(default_factory=list)
    """Win share of each seat whoever sat there."""


def _per_game_means(result: GameResult, name: str, values: Sequence[float]) -> float | None:
    taken = [values[seat] for seat, bot in enumerate(result.bots) if bot == name]
    return sum(taken) / len(taken) if taken else None


def summarize(spec: GameSpec, results: Sequence[GameResult]) -> Report:
    """Per bot name: win share, mean score and rank with 95% intervals, and its score minus
    the first bot's, paired game by game (a tighter test than comparing means)."""
    if not results:
        raise ValueError("no games to summarize")
    names = list(dict.fromkeys(name for r in results for name in r.bots))
    first = results[0].bots[0]
    names.remove(first)
    names.insert(0, first)
    seats = len(results[0].bots)
    wins = dict.fromkeys(names, 0.0)
    played = dict.fromkeys(names, 0)
    scores: dict[str, list[float]] = {n: [] for n in names}
    ranks: dict[str, list[float]] = {n: [] for n in names}
    pairs: dict[str, tuple[list[float], list[float]]] = {n: ([], []) for n in names}
    terminations: dict[str, int] = {}
    for result in results:
        outcome = result.outcome
        terminations[outcome.termination] = terminations.get(outcome.termination, 0) + 1
        shares = win_shares([outcome.winners], seats)
        for seat, name in enumerate(result.bots):
            played[name] += 1
            wins[name] += shares[seat]
            scores[name].append(float(outcome.scores[seat]))
            ranks[name].append(float(outcome.ranks[seat]))
        base = _per_game_means(result, first, [float(s) for s in outcome.scores])
        for name in names[1:]:
            mine = _per_game_means(result, name, [float(s) for s in outcome.scores])
            if base is not None and mine is not None:
                pairs[name][0].append(mine)
                pairs[name][1].append(base)
    lines = [
        BotLine(
            name=name,
            seats_played=played[name],
            win_share=wins[name] / played[name] if played[name] else 0.0,
            score=mean_ci(scores[name]),
            rank=mean_ci(ranks[name]),
            difference=None
            if name == first or not pairs[name][0]
            else paired_difference(*pairs[name]),
        )
        for name in names
    ]
    return Report(
        game=spec.name,
        games=len(results),
        lower_is_better=spec.lower_is_better,
        lines=lines,
        actions=mean_ci([float(r.actions) for r in results]),
        terminations=terminations,
        seat_shares=win_shares([r.outcome.winners for r in results], seats),
    )
