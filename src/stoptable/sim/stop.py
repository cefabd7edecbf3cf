"""The synchronous Stop driver (stop.md S-61) shared by bots, simulations and the terminal.

After every accepted action the driver walks the S-61 order:

1. interjection offers (or, while a Card Exchange cancel window is open, cancel offers) go
   to the seats of ``state.offers()`` in that order; each may take it or decline; a taken
   offer is applied and the offers start again for the new top card;
2. ja standalone calls (S-26, S-28): each seat with an open obligation is asked once;
3. if a cancel window is still open it is closed (``close_cancel_window``: the exchange
   happens, records.md §4.4 rule 2, so nothing is written for it);
4. the seat ``state.turn_seat()`` acts (a normal turn or the victim's response).

Every accepted action is written with :class:`RecordWriter`, as is the ``shuffle`` line that
starts each later round (a seeded one: the state's own generator shuffles, exactly as
``stoptable replay`` does), so a written record replays to the same final state.

The driver is step-wise (:meth:`SyncDriver.decision` then :meth:`SyncDriver.submit`) so that
the terminal game can stop at the human's decisions; :meth:`SyncDriver.play_round` and
:func:`play_match` run bots to the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NoReturn

from stoptable.bots.stop import Decline
from stoptable.core.protocol import JSON, Event
from stoptable.core.records import RecordWriter
from stoptable.games.stop.actions import CallAchtung, CallStop, Cancel, Interject, StopAction
from stoptable.games.stop.legal import interjections, legal_actions, offers
from stoptable.games.stop.state import StopState, new_game

DecisionKind = Literal["offer", "call", "turn"]


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must decide now, and among what.

    ``offer`` and ``call`` decisions may be declined (their ``legal`` ends with a
    :class:`Decline`); a ``turn`` decision is the seat on turn or the pending effect's victim.
    """

    seat: int
    kind: DecisionKind
    legal: list[Any]


def record_header(
    state: StopState,
    seed: int,
    options: dict[str, JSON] | None,
    position: dict[str, JSON] | None = None,
) -> dict[str, JSON]:
    """The records.md §2.1 header of a game of ``state``'s ruleset (seeded or from a position)."""
    header: dict[str, JSON] = {
        "format": "stoptable-record/1",
        "game": "stop",
        "ruleset": state.rules.name,
    }
    if options:
        header["options"] = dict(options)
    header["seats"] = state.seats
    header["seed"] = seed
    if position is not None:
        header["position"] = position
    return header


@dataclass
class SyncDriver:
    """Runs one StopState under the S-61 offer order; ``bots[i]`` is None for a person."""

    state: StopState
    bots: Sequence[Any]
    writer: RecordWriter | None = None
    actions: int = 0
    """Accepted actions so far (all rounds)."""
    keep_events: bool = False
    """Collect every engine event in :attr:`events` (the terminal game drains it)."""
    events: list[Event] = field(default_factory=list)
    _queue: list[tuple[int, DecisionKind]] | None = field(default=None, repr=False)

    # ------------------------------------------------------------- step-wise

    def _refill(self, seats: list[int] | None = None) -> list[tuple[int, DecisionKind]]:
        """The S-61 queue after an action: offers (``seats``, if already known), then calls."""
        st = self.state
        if seats is None:
            seats = offers(st)
        queue: list[tuple[int, DecisionKind]] = [(s, "offer") for s in seats] if seats else []
        if st.obligations:
            for seat in sorted({ob.seat for ob in st.obligations}):
                queue.append((seat, "call"))
        return queue

    def decision(self) -> Decision | None:
        """The next decision to make, or None once the round (or the game) is over."""
        st = self.state
        while True:
            if st.phase in ("round_over", "game_over"):
                return None
            if self._queue is None:
                self._queue = self._refill()
            while self._queue:
                seat, kind = self._queue[0]
                legal = self._offer_actions(seat, kind)
                if legal:
                    return Decision(seat, kind, [*legal, Decline(seat)])
                self._queue.pop(0)
            pending = st.pending
            if pending is not None and pending.kind == "exchange":
                closed = st.close_cancel_window()
                if self.keep_events:
                    self.events.extend(closed)
                self._queue = None
                continue
            turn = st.turn_seat()
            if turn is None:
                return None
            return Decision(turn, "turn", st.legal_actions(turn))

    def _offer_actions(self, seat: int, kind: DecisionKind) -> list[StopAction]:
        st = self.state
        if kind == "offer":
            p = st.pending
            if p is None or p.kind != "exchange":
                return interjections(st, seat)  # the Interjects of legal_actions, alone
            return [a for a in st.legal_actions(seat) if isinstance(a, Interject | Cancel)]
        return [a for a in st.legal_actions(seat) if isinstance(a, CallAchtung | CallStop)]

    def submit(self, action: StopAction | Decline) -> list[Event]:
        """Apply a decision's choice (IllegalAction leaves everything as it was)."""
        if isinstance(action, Decline):
            if self._queue and self._queue[0][0] == action.seat:
                self._queue.pop(0)
            return []
        events = self.state.apply(action)
        if self.keep_events:
            self.events.extend(events)
        self.actions += 1
        if self.writer is not None:
            self.writer.add(action.to_json())
        self._queue = None
        return events

    def next_round(self, order: list[str] | None = None) -> list[Event]:
        """Deal the next round after ``round_over`` and write its ``shuffle`` line."""
        events = self.state.start_next_round(order)
        if self.keep_events:
            self.events.extend(events)
        if self.writer is not None:
            line: dict[str, JSON] = {"chance": "shuffle"}
            if order is not None:
                line["order"] = list(order)
            self.writer.add(line)
        self._queue = None
        return events

    # ------------------------------------------------------------ bots only

    def play_round(self, max_actions: int = 50_000) -> int:
        """Let the bots play until the round ends; the number of actions it took.

        The same walk as :meth:`decision` then :meth:`submit` in a loop (same decisions,
        same legal lists, same bot calls, so the same game), written out flat because
        simulations and the throughput benchmark spend their time here. A bot whose
        ``reads_view`` is False (the random bot) is handed an empty view instead of building
        one it would not read: views carry the event log and cost more than the move
        generator.
        """
        start = self.actions
        st = self.state
        bots = self.bots
        reads = [getattr(bot, "reads_view", True) for bot in bots]
        declines = [Decline(seat) for seat in range(st.seats)]
        writer = self.writer
        keep = self.keep_events
        over = ("round_over", "game_over")
        while True:
            if st.phase in over:
                return self.actions - start
            queue = self._queue
            if queue is None:
                seats = offers(st)
                queue = self._queue = self._refill(seats) if seats or st.obligations else []
            choice: Any = None
            while queue:
                seat, kind = queue[0]
                legal: list[Any] = self._offer_actions(seat, kind)
                if not legal:
                    del queue[0]
                    continue
                if self.actions - start >= max_actions:
                    self._too_long(max_actions)
                legal.append(declines[seat])
                bot = bots[seat]
                choice = bot.act(st.view(seat) if reads[seat] else {}, legal)
                if type(choice) is not Decline:
                    break
                if queue[0][0] == choice.seat:
                    del queue[0]
                choice = None
            if choice is None:
                pending = st.pending
                if pending is not None and pending.kind == "exchange":
                    closed = st.close_cancel_window()
                    if keep:
                        self.events.extend(closed)
                    self._queue = None
                    continue
                turn = st.turn
                if turn < 0:
                    return self.actions - start
                if self.actions - start >= max_actions:
                    self._too_long(max_actions)
                legal = legal_actions(st, turn)  # st.legal_actions, one call less
                if len(legal) == 1:
                    choice = legal[0]
                else:
                    bot = bots[turn]
                    choice = bot.act(st.view(turn) if reads[turn] else {}, legal)
                if type(choice) is Decline:  # a bot may decline only an offer: nothing to do
                    continue
            events = st.apply(choice)
            if keep:
                self.events.extend(events)
            self.actions += 1
            if writer is not None:
                writer.add(choice.to_json())
            self._queue = None

    def _too_long(self, max_actions: int) -> NoReturn:
        raise RuntimeError(
            f"round {self.state.round} still running after {max_actions} actions: "
            "the bots are going round in circles"
        )


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
    driver = SyncDriver(state, bots, writer)
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
