"""Stop simulations: whole matches (or single rounds) between bots, and their figures.

The games themselves run in the S-61 driver of the game package
(:class:`~stoptable.games.stop.driver.StopDriver`); this module only loops over matches,
seeds the bots and collects the scores that ``stoptable simulate stop`` reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from stoptable.core.protocol import JSON
from stoptable.core.records import RecordWriter
from stoptable.games.stop.driver import StopDriver
from stoptable.games.stop.records import record_header
from stoptable.games.stop.state import new_game


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One finished match (or single round): per-round scores, final totals, winners."""

    round_scores: list[list[int]]
    round_lengths: list[int]
    totals: list[int]
    winners: list[int]
    record: RecordWriter | None
    final_state: dict[str, JSON]
    """``state.to_json()`` at the end (what ``stoptable replay --json`` prints of the record)."""


def play_match(
    ruleset: str,
    bots: Sequence[Any],
    seed: int,
    options: dict[str, JSON] | None = None,
    rounds_only: bool = False,
    record: bool = False,
) -> MatchResult:
    """Play a whole match to ``target_score`` (or one round with ``rounds_only``)."""
    state = new_game(ruleset, len(bots), seed, dict(options or {}))
    writer = RecordWriter(record_header(state, seed, options)) if record else None
    driver = StopDriver(state, bots, writer)
    scores: list[list[int]] = []
    lengths: list[int] = []
    while True:
        lengths.append(driver.play_round())
        assert state.round_scores is not None
        scores.append(list(state.round_scores))
        if rounds_only or state.phase == "game_over":
            break
        driver.next_round()
    totals = list(state.totals)
    best = min(totals)
    winners = [i for i, t in enumerate(totals) if t == best]
    return MatchResult(scores, lengths, totals, winners, writer, state.to_json())


@dataclass(frozen=True, slots=True)
class SimReport:
    """Everything ``stoptable simulate stop`` prints, from many matches or single rounds."""

    names: list[str]
    ruleset: str
    rounds_only: bool
    games: int
    winners: list[list[int]]
    game_scores: list[list[int]]
    """Per game: final totals (matches) or the round's scores (rounds)."""
    round_scores: list[list[int]]
    """Every round played, in order."""
    round_lengths: list[int]
    """Accepted actions per round."""

    def seat_round_scores(self, seat: int) -> list[float]:
        return [float(r[seat]) for r in self.round_scores]

    def seat_game_scores(self, seat: int) -> list[float]:
        return [float(g[seat]) for g in self.game_scores]


def bot_seed(seed: int, game: int, seat: int) -> int:
    """The seed of ``seat``'s bot in game ``game`` (distinct from the game's own seed)."""
    return (seed + game) * 1_000_003 + 7919 * (seat + 1)


def simulate(
    names: Sequence[str],
    games: int,
    ruleset: str = "abacus-en",
    seed: int = 0,
    rounds_only: bool = False,
    options: dict[str, JSON] | None = None,
    records: Any = None,
    progress: Any = None,
) -> SimReport:
    """Play ``games`` seeded matches (or rounds) between the named bots.

    Game ``g`` uses seed ``seed + g``; ``records`` (a directory Path) receives one record
    per game, ``stop-<g>.jsonl``; ``progress`` is called with no argument after each game.
    With ``rounds_only`` the first dealer rotates from game to game (``g mod seats``, unless
    the options fix ``first_dealer``), so that no seat always has the dealer's first turn;
    a match rotates the dealer itself (S-7).
    """
    from stoptable.bots.base import make_bot

    winners: list[list[int]] = []
    game_scores: list[list[int]] = []
    round_scores: list[list[int]] = []
    lengths: list[int] = []
    for g in range(games):
        bots = [
            make_bot("stop", name, seat, bot_seed(seed, g, seat)) for seat, name in enumerate(names)
        ]
        game_options = options
        if rounds_only and "first_dealer" not in (options or {}):
            game_options = {**(options or {}), "first_dealer": g % len(names)}
        result = play_match(ruleset, bots, seed + g, game_options, rounds_only, records is not None)
        round_scores.extend(result.round_scores)
        lengths.extend(result.round_lengths)
        if rounds_only:
            scores = result.round_scores[0]
            best = min(scores)
            winners.append([i for i, s in enumerate(scores) if s == best])
            game_scores.append(list(scores))
        else:
            winners.append(result.winners)
            game_scores.append(result.totals)
        if records is not None and result.record is not None:
            result.record.write(records / f"stop-{g:05d}.jsonl")
        if progress is not None:
            progress()
    return SimReport(
        list(names), ruleset, rounds_only, games, winners, game_scores, round_scores, lengths
    )
