"""Stop & Go games between bots: the game loop, records, and the simulation report.

:func:`play_game` plays one game and can keep it as a ``stoptable-record/1`` record (every
roll written as a chance line before its move, so the record replays without the seed's
help). The die is the state's chance step (``next_step``/``run_step``), and every game ends
by a rule: the last card collected (G-19) or a stall (G-22, ``stall_turns``).
:func:`simulate` plays many, rotating the bots over the seats from game to game so
that no bot keeps the first seat, and :func:`summarize` turns the results into per-bot
win shares, mean scores with 95% intervals, game length and tickets.

Bots choose among one path per outcome: two paths with the same end space and the same
space before it leave the same state (G-15), so the engine's ``distinct_ends`` list is
the whole choice, and much shorter than every path. Bots get them as a
:class:`~stoptable.games.stopandgo.actions.LegalMoves` (Moves built on demand, with the
state each leaves) and the view as a :class:`~stoptable.games.stopandgo.views.SeatView`
snapshot (the dict of ``state.view(seat)``, built only if read): both are what a bot
could learn from the plain forms, taken cheaply every turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from stoptable.bots.base import make_bot
from stoptable.core.driver import write_lines
from stoptable.core.protocol import JSON
from stoptable.core.records import RECORD_FORMAT, RecordWriter
from stoptable.games.stopandgo import SeatView, StopGoMap, load_default_map, new_game
from stoptable.sim.stats import Estimate, mean_ci, win_shares

MAX_TURNS: Final = 20_000
"""A safety net, not a rule: G-22 ends every game unless ``stall_turns=0`` switches it off,
and a game still running after this many turns is then stopped and counted as unfinished."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished (or stopped) game; ``bots[i]`` is the bot name in seat i."""

    seed: int
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int
    tickets: tuple[int, ...]
    finished: bool
    termination: str | None = None
    """``all_collected`` (G-19) or ``stalled`` (G-22); None if stopped by :data:`MAX_TURNS`."""
    record: RecordWriter | None = None
    final: dict[str, JSON] | None = None
    """The final state (replay schema), kept with the record so that it can be checked."""


@dataclass(frozen=True, slots=True)
class BotStats:
    """What one bot name achieved over all its seats and games."""

    name: str
    games: int
    win_share: float
    score: Estimate
    tickets: float


@dataclass(frozen=True, slots=True)
class Report:
    """The summary of a simulation."""

    games: int
    unfinished: int
    turns: Estimate
    stalled: int = 0
    """Games ended by G-22 (no car moved for ``stall_turns`` turns), scored as they stood."""
    bots: list[BotStats] = field(default_factory=list)
    seat_shares: list[float] = field(default_factory=list)
    """Win share of each seat whoever sat there (seat 0 moves first)."""


def bot_seed(game_seed: int, seat: int) -> int:
    """Each bot's own seed, derived from the game seed and its seat."""
    return game_seed * 7919 + seat * 104_729 + 1


def play_game(
    bot_names: Sequence[str],
    seed: int,
    game_map: StopGoMap | None = None,
    options: dict[str, Any] | None = None,
    record: bool = False,
    map_source: JSON = None,
) -> GameResult:
    """Play one game between ``bot_names`` (seat order) on ``game_map`` (default map).

    With ``record=True`` the result carries the record; ``map_source`` is what its header
    says for ``map`` (a path or the map object; None for the default map).
    """
    from stoptable.bots.stopandgo import HeuristicBot, use_map

    the_map = game_map if game_map is not None else load_default_map()
    use_map(the_map)
    state = new_game(seats=len(bot_names), seed=seed, options=options, game_map=the_map)
    bots = [
        make_bot("stopandgo", name, seat, bot_seed(seed, seat))
        for seat, name in enumerate(bot_names)
    ]
    writer: RecordWriter | None = None
    if record:
        header: dict[str, JSON] = {
            "format": RECORD_FORMAT, "game": "stopandgo", "ruleset": state.ruleset.name,
        }  # fmt: skip
        if state.ruleset.options():
            header["options"] = state.ruleset.options()
        header.update({"seats": len(bot_names), "seed": seed})
        if map_source is not None:
            header["map"] = map_source
        header["note"] = "bots: " + ", ".join(bot_names)
        writer = RecordWriter(header)
    tickets = [0] * len(bot_names)
    turns = 0
    # The heuristic bots are called by their own method, typed (compiled: a native call
    # with native reads); any other bot through act. The state's methods are called by
    # their own names for the same reason (the compiled build's rule 15).
    heuristic: list[HeuristicBot | None] = [
        bot if type(bot) is HeuristicBot else None for bot in bots
    ]
    acts = [bot.act for bot in bots]
    max_turns = MAX_TURNS
    while not state.over and turns < max_turns:
        step = state.next_step()
        if step is not None:  # the roll of the seat on turn (G-5), the one chance step
            rolled = state.run_step(step)
            if writer is not None:
                write_lines(writer, rolled)
        seat = state.turn
        legal = state.legal_moves(seat)
        # A single legal move (standing still) is no choice: the bot is not asked.
        if len(legal.paths) == 1:
            move = legal[0]
        else:
            bot = heuristic[seat]
            if bot is not None:
                move = bot.act_listed(SeatView(state, seat), legal)
            else:
                move = acts[seat](SeatView(state, seat), legal)
        events = state.apply(move)
        if len(events) > 1:  # the move's own event comes first
            for event in events:
                if event.kind == "ticket" and event.seat is not None:
                    tickets[event.seat] += 1
        if writer is not None:
            writer.add(move.to_json())
        turns += 1
    outcome = state.result()
    return GameResult(
        seed=seed,
        bots=tuple(bot_names),
        scores=tuple(state.scores()),
        winners=outcome.winners if outcome is not None else (),
        turns=turns,
        tickets=tuple(tickets),
        finished=state.over,
        termination=state.termination,
        record=writer,
        final=state.to_json() if writer is not None else None,
    )


def seating(bot_names: Sequence[str], game: int) -> list[str]:
    """The bots of game number ``game``: the list turned by ``game`` places."""
    n = len(bot_names)
    shift = game % n
    return list(bot_names[shift:]) + list(bot_names[:shift])


def simulate(
    bot_names: Sequence[str],
    games: int,
    seed: int = 0,
    game_map: StopGoMap | None = None,
    options: dict[str, Any] | None = None,
    record: bool = False,
    map_source: JSON = None,
    on_game: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` games; game i uses seed ``seed + i`` and the seating of :func:`seating`."""
    results = []
    for i in range(games):
        result = play_game(seating(bot_names, i), seed + i, game_map, options, record, map_source)
        if on_game is not None:
            on_game(result)
        results.append(result)
    return results


def summarize(bot_names: Sequence[str], results: Sequence[GameResult]) -> Report:
    """Per bot name (a name listed twice is one entry): wins, scores, tickets; game length."""
    names = list(dict.fromkeys(bot_names))
    wins = {name: 0.0 for name in names}
    scores: dict[str, list[float]] = {name: [] for name in names}
    tickets: dict[str, list[float]] = {name: [] for name in names}
    seats_of = {name: 0 for name in names}
    for result in results:
        shares = win_shares([result.winners], len(result.bots)) if result.finished else None
        for seat, name in enumerate(result.bots):
            seats_of[name] += 1
            wins[name] += shares[seat] if shares else 0.0
            scores[name].append(float(result.scores[seat]))
            tickets[name].append(float(result.tickets[seat]))
    bots = [
        BotStats(
            name=name,
            games=seats_of[name],
            win_share=wins[name] / max(1, sum(1 for r in results if r.finished)),
            score=mean_ci(scores[name]),
            tickets=sum(tickets[name]) / max(1, len(tickets[name])),
        )
        for name in names
    ]
    return Report(
        games=len(results),
        unfinished=sum(1 for r in results if not r.finished),
        turns=mean_ci([float(r.turns) for r in results]),
        stalled=sum(1 for r in results if r.termination == "stalled"),
        bots=bots,
        seat_shares=win_shares([r.winners for r in results if r.finished], len(bot_names)),
    )
