"""The synchronous Stop driver (stop.md S-61) shared by bots, simulations and the terminal.

After every accepted action the driver walks the S-61 order, which ``state.actors()``
lists too:

1. interjection offers (or, while a Card Exchange cancel window is open, cancel offers) go
   to the seats of ``state.offers()`` in that order; each may take it or decline; a taken
   offer is applied and the offers start again for the new top card;
2. ja standalone calls (S-26, S-28): each seat with an open obligation is asked once;
3. the state's steps are taken (``next_step``/``run_step``): an open cancel window closes
   without a cancel (the exchange happens, records.md §4.4 rule 2, so nothing is written
   for it), and in ``round_over`` the next round is dealt;
4. the seat ``state.to_move()`` acts (a normal turn or the victim's response).

Offers and calls are optional :class:`~stoptable.core.driver.Decision` values whose legal
list ends with a :class:`~stoptable.core.driver.Decline`, the driver-only "no thanks" of
S-58 that never reaches the engine or a record. Every accepted action is written to the
optional :class:`RecordWriter`, after the record lines its events carry (each reshuffle
inside the action and each deal: ``write_lines``), so a written record replays exactly.

The driver is step-wise (:meth:`StopDriver.decision` then :meth:`StopDriver.submit`) so that
the terminal game can stop at a person's decisions; :meth:`StopDriver.play_round` and
:meth:`StopDriver.play` run bots to the end of a round or of the match.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn

from stoptable.core.driver import Decision, Decline, write_lines
from stoptable.core.errors import GameTooLong
from stoptable.core.protocol import Event
from stoptable.core.records import RecordWriter
from stoptable.games.stop import engine
from stoptable.games.stop.actions import (
    Accept,
    CallAchtung,
    CallStop,
    Cancel,
    Draw,
    Interject,
    Play,
    StopAction,
)
from stoptable.games.stop.events import events_of
from stoptable.games.stop.legal import (
    interjection_offers,
    interjections,
    legal_actions,
    offers,
    turn_actions,
)
from stoptable.games.stop.state import IN_PLAY, StopState

OVER = ("round_over", "game_over")

_NONE: Final[list[tuple[int, bool]]] = []
"""The S-61 queue when nobody is asked anything (most actions): shared and never mutated
(a decline pops only a queue with a question in it), so none is built per action."""


_NO_SEATS: Final[list[int]] = []
"""No seat offered anything (read, never mutated)."""


def _decision_maker() -> Callable[[int, list[Any], bool], Decision]:
    """``Decision(seat, legal, optional)``, built by setting its slots directly.

    Environments ask for a decision after every action, and the frozen dataclass
    ``__init__`` (one generic ``object.__setattr__`` per field) costs twice this; the
    result is an ordinary, equal Decision (``core.protocol.new_event`` does the same for
    events). Should :class:`Decision` change its fields or lose its slots, this falls
    back to the constructor.
    """
    names = tuple(f.name for f in dataclasses.fields(Decision))
    if names != ("seat", "legal", "optional") or "__slots__" not in vars(Decision):
        return Decision
    set_seat, set_legal, set_optional = (getattr(Decision, n).__set__ for n in names)
    new = object.__new__

    def make(seat: int, legal: list[Any], optional: bool) -> Decision:
        decision: Decision = new(Decision)
        set_seat(decision, seat)
        set_legal(decision, legal)
        set_optional(decision, optional)
        return decision

    return make


_new_decision: Final = _decision_maker()


@dataclass
class StopDriver:
    """Runs one StopState under the S-61 order; ``bots[i]`` is None for a person.

    ``deal_rounds``: :meth:`decision` deals the next round itself in ``round_over`` (the
    chance step is due like any other); False makes it stop there (None) so that a person
    or a caller that collects round scores decides when :meth:`next_round` deals.
    """

    state: StopState
    bots: Sequence[Any] = ()
    writer: RecordWriter | None = None
    actions: int = 0
    """Accepted actions so far (all rounds)."""
    keep_events: bool = False
    """Collect every engine event in :attr:`events` (the terminal game drains it)."""
    deal_rounds: bool = True
    events: list[Event] = field(default_factory=list)
    _queue: list[tuple[int, bool]] | None = field(default=None, repr=False)
    """The S-61 questions still to ask after the last action: (seat, is a call)."""
    _declines: list[Decline] = field(default_factory=list, repr=False)
    """One shared :class:`Decline` per seat (a value: equal to a new one)."""

    def __post_init__(self) -> None:
        self._declines = [Decline(seat) for seat in range(self.state.seats)]

    # ------------------------------------------------------------- step-wise

    def _refill(self, seats: list[int] | None = None) -> list[tuple[int, bool]]:
        """The S-61 queue after an action: offers (``seats``, if already known), then calls."""
        st = self.state
        if seats is None:
            seats = offers(st)
        queue: list[tuple[int, bool]] = [(s, False) for s in seats] if seats else []
        if st.obligations:
            for seat in sorted({ob.seat for ob in st.obligations}):
                queue.append((seat, True))
        return queue

    def _ran(self, events: list[Event]) -> None:
        """Events of a step or an action: their record lines, then (if kept) the events."""
        if self.writer is not None:
            write_lines(self.writer, events)
        if self.keep_events:
            self.events.extend(events)

    def decision(self) -> Decision | None:
        """The next decision, after taking the steps due; None once play stops (the game
        is over, or the round is over and ``deal_rounds`` is False).

        Environments call this after every action, so it takes the short ways of
        :meth:`play_round`: no offer queue is built when nobody is offered anything, the
        steps are looked at only while an effect is pending (the cancel window is the only
        step inside a round), and the seat to move is ``turn`` (``to_move`` differs from it
        only while the window is open).
        """
        st = self.state
        while True:
            phase = st.phase
            if phase in OVER:
                if phase == "game_over" or not self.deal_rounds:
                    return None
                self.next_round()
                continue
            queue = self._queue
            if queue is None:
                # offers()'s first answer read here, as play_round does: no hand holds a
                # twin of the top and no cancel window is open (nine actions in ten)
                discard = st.discard
                pending = st.pending
                if (
                    discard
                    and not st.held[discard[-1].twin]
                    and (pending is None or pending.kind != "exchange")
                ):
                    seats = _NO_SEATS
                else:
                    seats = offers(st)
                queue = self._queue = self._refill(seats) if seats or st.obligations else _NONE
            while queue:
                seat, call = queue[0]
                legal: list[Any] = self._offer_actions(seat, call)
                if legal:
                    legal.append(self._declines[seat])
                    return _new_decision(seat, legal, True)
                del queue[0]
            if st.pending is not None:
                step = st.next_step()
                if step is not None:  # the cancel window closes without a cancel
                    self._ran(st.run_step(step))
                    self._queue = None
                    continue
            turn = st.turn
            if turn is None:
                return None
            if st.pending is None and phase == "playing":  # legal_actions' usual answer
                return _new_decision(turn, turn_actions(st, turn), False)
            return _new_decision(turn, legal_actions(st, turn), False)

    def _offer_actions(self, seat: int, call: bool) -> list[StopAction]:
        st = self.state
        if call:
            return [a for a in st.legal_actions(seat) if isinstance(a, CallAchtung | CallStop)]
        p = st.pending
        if p is None or p.kind != "exchange":
            return interjections(st, seat)  # the Interjects of legal_actions, alone
        return [a for a in st.legal_actions(seat) if isinstance(a, Cancel)]

    def submit(self, action: StopAction | Decline) -> list[Event]:
        """Apply a decision's choice (IllegalAction leaves everything as it was)."""
        if isinstance(action, Decline):
            return self._decline(action)
        return self._applied(action, self.state.apply(action))

    def _decline(self, action: Decline) -> list[Event]:
        """An offer let go: the next question of the S-61 queue is due."""
        if self._queue and self._queue[0][0] == action.seat:
            self._queue.pop(0)
        return []

    def submit_listed(self, action: StopAction | Decline) -> list[Event]:
        """:meth:`submit` of a choice from the legal list of the decision just returned,
        the state unchanged since: the engine skips checking it again
        (:meth:`.StopState.apply_listed`). Environments submit only what their mask
        offered, which is that list; anything else must go through :meth:`submit`."""
        if isinstance(action, Decline):
            return self._decline(action)
        return self._applied(action, self.state.apply_listed(action))

    def submit_quietly(self, action: StopAction | Decline) -> None:
        """:meth:`submit` for a caller that does not read the events (a search's walk): the
        state makes none of them (their light records stay in its log, :mod:`.events`)."""
        if isinstance(action, Decline):
            self._decline(action)
        elif self.writer is not None or self.keep_events:
            self._applied(action, self.state.apply(action))
        else:
            self.state.apply_records(action)
            self.actions += 1
            self._queue = None

    def submit_listed_quietly(self, action: StopAction | Decline) -> None:
        """:meth:`submit_listed` for a caller that does not read the events (an
        environment's step reads the state): see :meth:`submit_quietly`."""
        if isinstance(action, Decline):
            self._decline(action)
        elif self.writer is not None or self.keep_events:
            self._applied(action, self.state.apply_listed(action))
        else:
            self.state.apply_listed_records(action)
            self.actions += 1
            self._queue = None

    def _applied(self, action: StopAction, events: list[Event]) -> list[Event]:
        """The bookkeeping after an action: its events and line recorded, the offers due."""
        writer = self.writer
        if writer is not None or self.keep_events:
            self._ran(events)
        self.actions += 1
        if writer is not None:
            writer.add(action.to_json())
        self._queue = None
        return events

    def next_round(self, order: list[str] | None = None) -> list[Event]:
        """Deal the next round after ``round_over`` (the state's deal step; ``order``: the
        deck, top first, or None for the seed) and write its ``shuffle`` line."""
        st = self.state
        step = st.next_step()
        if step is None or step.name != "deal":
            raise ValueError(f"no round to deal in phase {st.phase}")
        events = st.run_step(step, order)
        self._ran(events)
        self._queue = None
        return events

    # ------------------------------------------------------------ bots only

    plays_rounds = True
    """:meth:`play` can stop after a number of rounds (``stoptable simulate --rounds``)."""

    def play(
        self, bots: Sequence[Any], max_actions: int = 100_000, rounds: int | None = None
    ) -> int:
        """Let ``bots`` (one per seat) play the match to its end, dealing every round, or
        only its first ``rounds`` rounds (then :meth:`.StopState.round_result` is the last
        round's outcome); the number of actions taken. GameTooLong past ``max_actions``."""
        self.bots = bots
        start = self.actions
        played = 0
        while True:
            self.play_round(max_actions - (self.actions - start))
            played += 1
            if self.state.phase == "game_over" or played == rounds:
                return self.actions - start
            self.next_round()

    def play_round(self, max_actions: int = 50_000) -> int:
        """Let the bots play until the round ends; the number of actions it took.

        Bots that all pick uniformly among the listed actions (``picks_uniform``: the random
        bot, whose draw is its ``uniform`` function) with nothing recorded or kept play in
        :meth:`_play_lean`; every other table in :meth:`play_round_general`. Both make the
        same decisions, draws and states (tests/games/stop/test_driver.py holds them equal).
        """
        bots = self.bots
        if (
            self.writer is None
            and not self.keep_events
            and self._queue is None
            and all(getattr(bot, "picks_uniform", False) for bot in bots)
        ):
            return self._play_lean(max_actions, [bot.uniform for bot in bots])
        return self.play_round_general(max_actions)

    def _play_lean(self, max_actions: int, draws: list[Callable[[], float]]) -> int:
        """:meth:`play_round_general` for uniform bots, nothing written or kept: a bot's
        pick is ``legal[int(draw() * len(legal))]`` read here (no call of the bot, no view,
        an offer's Decline drawn as the index one past the list instead of appended to it),
        and every choice is a listed object (:meth:`.StopState.apply_listed_records`).
        Random play (the benchmarks, tests, search rollouts) spends its time here.

        Every action applied here counts once in ``st.round_actions`` (the apply's own
        count), so that count, read into ``count``, is the loop's only counter: the actions
        taken are its growth. ``queue`` stays None while no question is queued, as a
        decision would find it (the general loop leaves ``[]`` once its offers are asked,
        and so does this loop where it stops with them asked)."""
        st = self.state
        first = count = st.round_actions
        limit = count + max_actions
        stall_at = st.flags.stall_actions
        queue: list[tuple[int, bool]] | None = None
        try:
            while True:
                phase = st.phase
                if phase in OVER:
                    return count - first
                discard = st.discard
                pending = st.pending
                choice: Any = None
                if (
                    discard
                    and not st.obligations
                    and (pending is None or pending.kind != "exchange")
                ):
                    # the usual case, no queue built: no call is open, so the questions are
                    # the interjection offers alone, and (offers()'s first answer, read
                    # here) none is due unless some hand holds a twin of the top
                    if st.held[discard[-1].twin]:
                        asked = interjection_offers(st)
                        for i, (seat, legal) in enumerate(asked):
                            if count >= limit:
                                queue = [(later, False) for later, _ in asked[i:]]
                                self._too_long(max_actions)
                            size = len(legal)
                            pick = int(draws[seat]() * (size + 1))  # size: the Decline
                            if pick < size:
                                choice = legal[pick]
                                break
                else:
                    if discard and not st.held[discard[-1].twin] and pending is None:
                        queue = self._refill([])  # the calls alone
                    else:
                        seats = offers(st)
                        queue = self._refill(seats) if seats or st.obligations else _NONE
                    while queue:
                        seat, call = queue[0]
                        legal = self._offer_actions(seat, call)
                        if not legal:
                            del queue[0]
                            continue
                        if count >= limit:
                            self._too_long(max_actions)
                        size = len(legal)
                        pick = int(draws[seat]() * (size + 1))  # size: the Decline
                        if pick < size:
                            choice = legal[pick]
                            break
                        del queue[0]
                if choice is None:
                    if pending is None:
                        turn = st.turn
                        if turn is None:
                            return count - first
                        if count >= limit:
                            if queue is None:
                                queue = _NONE  # the offers were asked
                            self._too_long(max_actions)
                        if phase == "playing":
                            legal = turn_actions(st, turn)
                        else:
                            legal = legal_actions(st, turn)
                    else:
                        # a cancel window closes without a cancel (next_step's only answer
                        # while an effect is pending in play)
                        if pending.kind == "exchange":
                            step = st.next_step()
                            if step is not None:
                                st.run_step(step)
                                queue = None
                                continue
                        turn = st.turn
                        if turn is None:
                            return count - first
                        if count >= limit:
                            if queue is None:
                                queue = _NONE
                            self._too_long(max_actions)
                        legal = legal_actions(st, turn)
                    size = len(legal)
                    choice = legal[0] if size == 1 else legal[int(draws[turn]() * size)]
                queue = None
                # StopState.apply_listed_records written out, its events unread: the state
                # changes as there, and the records stay in the state's log alone
                kind = type(choice)
                if pending is not None and pending.kind == "exchange":
                    st.apply_listed_records(choice)
                    count = st.round_actions
                    continue
                if kind is Play:
                    engine.resolve_play(st, choice)
                elif kind is Draw:
                    engine.resolve_draw(st, choice)
                elif kind is Accept:
                    engine.listed_accept(st, choice)
                elif kind is Interject:
                    engine.resolve_interject(st, choice)
                else:  # a call, a cancel, a pass: the rare actions take the whole way
                    st.apply_listed_records(choice)
                    count = st.round_actions
                    continue
                if st.chances:
                    st.chances = []
                count = st.round_actions = count + 1
                if count == stall_at and st.phase in IN_PLAY:
                    st.stall([])
        finally:
            self.actions += count - first
            self._queue = queue

    def play_round_general(self, max_actions: int = 50_000) -> int:
        """Let the bots play until the round ends; the number of actions it took.

        The same walk as :meth:`decision` then :meth:`submit` in a loop (same decisions,
        same legal lists, same bot calls, so the same game), written out flat because
        simulations and the throughput benchmark spend their time here. A bot whose
        ``reads_view`` is False (the random bot) is handed an empty view instead of building
        one it would not read: views carry the event log and cost more than the move
        generator. The seat on turn's list comes from :func:`.legal.turn_actions` when no
        effect is pending, and a choice that is one of the listed objects is applied
        without its checks (:meth:`.StopState.apply_listed`): the same resolution. A bot
        that says it returns the listed object itself (``picks_listed``, the random bot) is
        not looked for in the list.
        """
        start = done = self.actions
        limit = start + max_actions
        st = self.state
        bots = self.bots
        reads = [getattr(bot, "reads_view", True) for bot in bots]
        picks = [getattr(bot, "picks_listed", False) for bot in bots]
        declines = self._declines
        writer = self.writer
        keep = self.keep_events
        # The action count and the S-61 queue live in locals while the bots play (an
        # attribute store per action costs more) and go back to the driver however the
        # loop ends, an exception from a bot or the engine included.
        queue = self._queue
        try:
            phase = st.phase  # read again whenever an action or a step may have moved it
            if phase in OVER:
                return 0
            while True:
                if queue is None:  # an action or a step changed the state
                    phase = st.phase
                    if phase in OVER:
                        return done - start
                    # offers()'s first answer, read here (a call less nine actions in ten):
                    # no hand holds a twin of the top and no cancel window is open
                    discard = st.discard
                    pending = st.pending
                    if (
                        discard
                        and not st.held[discard[-1].twin]
                        and (pending is None or pending.kind != "exchange")
                    ):
                        queue = self._refill([]) if st.obligations else _NONE
                    else:
                        seats = offers(st)
                        queue = self._refill(seats) if seats or st.obligations else _NONE
                choice: Any = None
                while queue:
                    seat, call = queue[0]
                    legal: list[Any] = self._offer_actions(seat, call)
                    if not legal:
                        del queue[0]
                        continue
                    if done >= limit:
                        self._too_long(max_actions)
                    legal.append(declines[seat])
                    choice = bots[seat].act(st.view(seat) if reads[seat] else {}, legal)
                    if type(choice) is not Decline:
                        listed = picks[seat]
                        break
                    if queue[0][0] == choice.seat:
                        del queue[0]
                    choice = None
                if choice is None:
                    pending = st.pending
                    if pending is None:
                        turn = st.turn
                        if turn is None:
                            return done - start
                        if done >= limit:
                            self._too_long(max_actions)
                        if phase == "playing":  # nine turns in ten
                            legal = turn_actions(st, turn)
                        else:
                            legal = legal_actions(st, turn)  # st.legal_actions, one call less
                    else:
                        step = st.next_step()  # a cancel window closes without a cancel
                        if step is not None:
                            self._ran(st.run_step(step))
                            queue = None
                            continue
                        turn = st.turn
                        if turn is None:
                            return done - start
                        if done >= limit:
                            self._too_long(max_actions)
                        legal = legal_actions(st, turn)
                    if len(legal) == 1:
                        choice = legal[0]
                        listed = True
                    else:
                        choice = bots[turn].act(st.view(turn) if reads[turn] else {}, legal)
                        listed = picks[turn]
                # A choice that is one of the listed objects needs no second check (a bot
                # whose ``picks_listed`` is True always returns one; the others' are looked
                # for in the list); anything else goes through the validating apply.
                if listed:
                    records = st.apply_listed_records(choice)
                else:
                    for item in legal:
                        if item is choice:
                            records = st.apply_listed_records(choice)
                            break
                    else:
                        if type(choice) is Decline:  # a bot may decline only an offer
                            continue
                        records = st.apply_records(choice)
                if keep or writer is not None:  # the events are made only for a reader
                    events = events_of(records)
                    if keep:
                        self.events.extend(events)
                    if writer is not None:
                        write_lines(writer, events)
                        writer.add(choice.to_json())
                done += 1
                queue = None
        finally:
            self.actions = done
            self._queue = queue

    def _too_long(self, max_actions: int) -> NoReturn:
        raise GameTooLong(
            f"round {self.state.round} still running after {max_actions} actions: "
            "the bots are going round in circles"
        )
