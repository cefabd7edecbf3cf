"""The Stop game state: data, setup, the shared mechanics (draw, reshuffle, round end) and
the read-only views. The rules of each action live in :mod:`.engine`, the move generator
in :mod:`.legal`.

Invariants: ``draw`` is the draw pile with its **top at the end** (so a draw is a
``pop()``), ``discard`` is bottom first, hands are unordered lists of interned cards.
A discard list changes in place only by appends (placements); anything else (a reshuffle,
a late Stop's take-back, a new round, a restore) assigns a new list, so a reader that
counted a pile may add only the cards appended since while the list is the same object
(the research env's encoder does: ``rl.stop_codec.StateEncoder``).
``turn`` is the seat expected to act (the victim while a draw2/skip/drawx is pending,
left(exchanger) while a cancel window is open), or None once the round is over.

Chance and time are steps the state asks its driver for (core.protocol): the cancel
window (a WINDOW step) and the deal of the next round (a CHANCE step). Every chance
outcome, the deal and each reshuffle inside an action (S-16), is reported on its event's
``line`` as the records.md ``shuffle`` line that reproduces it, so a driver that writes
those lines before the action's own line writes a record that replays exactly.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from stoptable.core.errors import PlayerCountError, RecordError
from stoptable.core.protocol import JSON, Event, Outcome, Step, StepKind
from stoptable.core.rng import Rng
from stoptable.games.stop import engine, legal, resolve, views
from stoptable.games.stop.action_cache import ActionCache, action_cache
from stoptable.games.stop.actions import Accept, Draw, Interject, Play, StopAction
from stoptable.games.stop.cards import (
    BY_ORDER,
    DECK_CARDS,
    DECK_COUNTS,
    Card,
    parse_card,
)
from stoptable.games.stop.events import EventRec, Placed, events_of
from stoptable.games.stop.model import Obligation, Pending, RuleFlags
from stoptable.games.stop.ruleset import MAX_SEATS, Ruleset
from stoptable.games.stop.views import LOG_LIMIT, LOG_SIZE


def _ruleset(ruleset: Ruleset | str, options: dict[str, Any] | None) -> Ruleset:
    if isinstance(ruleset, Ruleset):
        return ruleset.with_options(options)
    return Ruleset.from_options(ruleset, options)


def _card_of(code: Any, what: str) -> Card:
    if not isinstance(code, str) or code not in _CODES:
        raise RecordError(f"{what}: {code!r} is not a card code")
    return parse_card(code)


def cards_of(raw: Any, what: str) -> list[Card]:
    """Card objects of a JSON list of codes; RecordError if it is not one."""
    if not isinstance(raw, list):
        raise RecordError(f"{what} must be a list of card codes")
    return [_card_of(code, what) for code in raw]


_CODES: Final = {card.code for card in DECK_CARDS}


IN_PLAY: Final = ("playing", "closing")

WINDOW_STEP: Final = "cancel_window"
DEAL_STEP: Final = Step(StepKind.CHANCE, "deal")
_WINDOW_STEPS: Final = {
    seat: Step(StepKind.WINDOW, WINDOW_STEP, seat=seat) for seat in (None, *range(MAX_SEATS))
}
"""The cancel window's step by exchanger: a frozen value, made once instead of on each of
the driver's looks while the window is open (the dataclass constructor runs a Python frame
in both builds)."""


_FIELDS: Final = (
    "cache",
    "chances",
    "consecutive_passes",
    "dealer",
    "discard",
    "draw",
    "drawn",
    "flags",
    "hands",
    "held",
    "last_placer",
    "last_reveal",
    "obligations",
    "pending",
    "phase",
    "records",
    "rng",
    "round",
    "round_actions",
    "round_scores",
    "rules",
    "seats",
    "shuffle_queue",
    "stalled",
    "starter_top",
    "totals",
    "turn",
    "winners",
)
"""The attributes of :class:`StopState`, its ``__slots__``: named here, outside the class,
because the compiled build (mypyc) cannot read ``__slots__`` through the class."""
_DERIVED: Final = frozenset({"flags", "cache"})
"""The fields a copy or a pickle of a state rebuilds from the others (``__getstate__``)."""


class StopState:
    """One game of Stop, mutated in place by :meth:`apply` (validate first, then mutate)."""

    __slots__ = _FIELDS

    rules: Ruleset
    flags: RuleFlags
    """The options read on every action, natively in the compiled build (shared by copies)."""
    seats: int
    rng: Rng
    hands: list[list[Card]]
    held: list[int]
    """The copies held in all hands together per :attr:`.cards.Card.twin` (a card and its
    6/9 twin count together): ``held[top.twin] == 0`` says at once that nobody can
    interject on the top card, the S-61 offers' usual answer (:func:`.legal.offers`), where
    looking through every hand cost a tenth of a random action. Every change of a hand
    inside the engine keeps it; code that changes ``hands`` itself (a position, a
    determinisation, a test) calls :meth:`count_held` after."""
    draw: list[Card]
    discard: list[Card]
    phase: str
    turn: int | None
    pending: Pending | None
    obligations: list[Obligation]
    dealer: int
    round: int
    round_actions: int
    """Actions applied in this round (S-64 counts them; a new round starts from 0)."""
    stalled: bool
    """The match ended by S-64, scored as it stood (:meth:`result` says ``stalled``)."""
    totals: list[int]
    round_scores: list[int] | None
    winners: list[int] | None
    consecutive_passes: int
    last_reveal: tuple[int, list[str]] | None
    last_placer: int
    starter_top: bool
    drawn: Card | None
    """play_drawn_card: the card just drawn, while its drawer may still play it (S-14)."""
    records: list[EventRec]
    """The recent events as light records (:mod:`.events`; :attr:`log` makes them Events)."""
    shuffle_queue: list[list[Card]]
    chances: list[EventRec]
    """Reshuffle events of the action being applied (their ``line`` is the shuffle order);
    :meth:`apply` hands them to the caller with the action's own events."""
    cache: ActionCache
    """The shared pre-built actions of this seat count and exchange modes (move generator)."""

    # ------------------------------------------------------------------ setup

    @staticmethod
    def _blank(rules: Ruleset, seats: int, seed: int) -> StopState:
        if not rules.min_players <= seats <= rules.max_players:
            raise PlayerCountError(
                "S-6", f"Stop is for {rules.min_players}-{rules.max_players} players, not {seats}"
            )
        st = StopState.__new__(StopState)
        st.rules = rules
        st.flags = RuleFlags(rules)
        st.seats = seats
        st.rng = Rng(seed)
        st.hands = [[] for _ in range(seats)]
        st.held = [0] * len(BY_ORDER)
        st.draw = []
        st.discard = []
        st.phase = "playing"
        st.turn = 0
        st.pending = None
        st.obligations = []
        st.dealer = rules.first_dealer % seats
        st.round = 1
        st.round_actions = 0
        st.stalled = False
        st.totals = [0] * seats
        st.round_scores = None
        st.winners = None
        st.consecutive_passes = 0
        st.last_reveal = None
        st.last_placer = (st.dealer - 1) % seats
        st.starter_top = True
        st.drawn = None
        st.records = []
        st.shuffle_queue = []
        st.chances = []
        st.cache = action_cache(seats, rules.exchange_modes)
        return st

    @staticmethod
    def new_game(
        ruleset: Ruleset | str,
        seats: int,
        seed: int = 0,
        options: dict[str, Any] | None = None,
        deck: list[str] | list[Card] | None = None,
    ) -> StopState:
        """A new game: shuffle with ``seed`` (or deal ``deck``, top first), S-7 to S-10."""
        st = StopState._blank(_ruleset(ruleset, options), seats, seed)
        st._deal(st._deck(deck))
        return st

    @staticmethod
    def from_position(
        ruleset: Ruleset | str,
        seats: int,
        position: dict[str, Any],
        seed: int = 0,
        options: dict[str, Any] | None = None,
    ) -> StopState:
        """A state from a records.md §4.2 ``position`` object (RecordError if it does not fit)."""
        from stoptable.games.stop.position import load_position

        st = StopState._blank(_ruleset(ruleset, options), seats, seed)
        load_position(st, position)
        return st

    def _deck(self, deck: list[str] | list[Card] | None) -> list[Card]:
        if deck is None:
            cards = list(DECK_CARDS)
            self.rng.shuffle(cards)
            return cards
        if not isinstance(deck, list):
            raise RecordError("deck: must be a list of 112 card codes")
        parsed = [c if isinstance(c, Card) else _card_of(c, "deck") for c in deck]
        if len(parsed) != len(DECK_CARDS) or Counter(parsed) != DECK_COUNTS:
            raise RecordError("deck: must be exactly the 112 cards of S-1")
        return parsed

    def _deal(self, deck: list[Card]) -> None:
        """S-8 to S-10 from a deck given top first."""
        n = self.seats
        size = self.rules.deal_size
        for hand in self.hands:
            hand.clear()
        first = (self.dealer + 1) % n
        for i in range(n * size):
            self.hands[(first + i) % n].append(deck[i])
        rest = deck[n * size :]
        bottom: list[Card] = []
        while rest[0].is_free:
            bottom.append(rest.pop(0))
        starter = rest.pop(0)
        self.discard = [starter]
        pile = rest + bottom  # top first
        pile.reverse()
        self.draw = pile
        self.phase = "playing"
        self.round_actions = 0
        self.pending = None
        self.obligations = []
        self.consecutive_passes = 0
        self.last_reveal = None
        self.round_scores = None
        self.turn = self.dealer
        self.last_placer = (self.dealer - 1) % n
        self.starter_top = True
        self.drawn = None
        self.count_held()
        if self.rules.starter_effect == "apply":
            engine.apply_starter(self, starter)

    def count_held(self) -> None:
        """Count :attr:`held` afresh from the hands (after the deal, a position or any
        other change of ``hands`` made outside the engine's own moves)."""
        held = [0] * len(BY_ORDER)
        for hand in self.hands:
            for card in hand:
                held[card.twin] += 1
        self.held = held

    def start_next_round(self, order: list[str] | None = None) -> list[Event]:
        """The ``shuffle`` line of round_over (records.md §4.4 rule 4); ``order`` top first.

        The ``deal`` event's ``line`` gives the deck dealt, top first, whether it came from
        ``order`` or from the seed.
        """
        if self.phase != "round_over":
            raise RecordError(f"a new round can only start in round_over, not {self.phase}")
        deck = self._deck(None if order is None else cards_of(order, "shuffle order"))
        self.dealer = (self.dealer + 1) % self.seats
        self.round += 1
        self._deal(deck)
        line = {"chance": "shuffle", "order": [c.code for c in deck]}
        deal = self._event("deal", None, {"round": self.round, "dealer": self.dealer}, line=line)
        return events_of([deal])

    # -------------------------------------------------------------- mechanics

    def _event(
        self,
        kind: str,
        seat: int | None,
        public: dict[str, JSON] | Placed | None,
        private: dict[str, JSON] | Card | None = None,
        line: dict[str, JSON] | None = None,
    ) -> EventRec:
        """Log an event as a light record (:mod:`.events`: its Event is made when somebody
        reads it, ``public`` and ``private`` in their short forms too); ``line`` (chance
        outcomes only) is the record line it stands for."""
        rec: EventRec = [kind, seat, public, private, line]
        log = self.records
        log.append(rec)
        if len(log) > LOG_LIMIT:
            self.trim_log()
        return rec

    def trim_log(self) -> None:
        """Cut the log back to its last ``LOG_SIZE`` records once it holds more than
        ``LOG_LIMIT`` (:meth:`_event`, and the placements and draws that log their record
        themselves: :func:`.resolve.place`, :func:`.engine.resolve_draw`)."""
        del self.records[:LOG_SIZE]

    @property
    def log(self) -> list[Event]:
        """The recent events (at most ``LOG_LIMIT``, at least the last ``LOG_SIZE``),
        oldest first: a new list of the Events of :attr:`records`."""
        return events_of(self.records)

    def can_draw(self) -> bool:
        """Whether a card can be drawn now (S-17)."""
        if self.draw:
            return True
        return len(self.discard) > (1 if self.flags.reshuffle_keep_top else 0)

    def _reshuffle(self) -> bool:
        """S-16; a queued ``shuffle`` line gives the order, else the seed. False if exhausted."""
        discard = self.discard
        if self.rules.reshuffle_keep_top:
            if len(discard) <= 1:
                return False
            cards = discard[:-1]
            self.discard = discard[-1:]
        else:
            if not discard:
                return False
            cards = discard[:]
            self.discard = []
        if self.shuffle_queue:
            order = self.shuffle_queue.pop(0)
            if len(order) != len(cards) or Counter(order) != Counter(cards):
                raise RecordError("shuffle order is not a permutation of the cards shuffled")
            cards = order[::-1]
        else:
            self.rng.shuffle(cards)
        self.draw = cards
        line = {"chance": "shuffle", "order": [c.code for c in reversed(cards)]}
        self.chances.append(self._event("reshuffle", None, {"count": len(cards)}, line=line))
        return True

    def draw_cards(self, seat: int, count: int) -> list[Card]:
        """Take up to ``count`` cards one at a time, reshuffling when needed (S-15, S-17)."""
        got: list[Card] = []
        hand = self.hands[seat]
        held = self.held
        for _ in range(count):
            if not self.draw and not self._reshuffle():
                break
            card = self.draw.pop()
            hand.append(card)
            held[card.twin] += 1
            got.append(card)
        if got:
            self.consecutive_passes = 0
        return got

    def end_round(self, final: bool = False) -> None:
        """Score every hand (S-53 to S-56): round_over, or game_over at the target (or at
        once with ``final``: the S-64 stall)."""
        nine = self.rules.six_nine_value == "nine"
        scores = [sum(c.value(nine) for c in hand) for hand in self.hands]
        self.round_scores = scores
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        self.pending = None
        self.obligations = []
        self.turn = None
        if final or max(self.totals) >= self.rules.target_score:
            self.phase = "game_over"
            best = min(self.totals)
            self.winners = [i for i, t in enumerate(self.totals) if t == best]
        else:
            self.phase = "round_over"
        self._event("round_end", None, {"scores": scores, "totals": list(self.totals)})

    # ------------------------------------------------------------ the protocol

    def legal_actions(self, seat: int) -> list[StopAction]:
        """Every action ``seat`` may submit now (see :func:`.legal.legal_actions`)."""
        return legal.legal_actions(self, seat)

    def apply(self, action: StopAction) -> list[Event]:
        """Validate, then apply; IllegalAction (state unchanged) if a rule forbids it.

        During an open cancel window any action other than a cancel first closes the
        window (records.md §4.4); if that action is then rejected, the state is restored.
        The ``round_end`` event is among the returned events when the action ended the round.
        """
        return events_of(self._resolved(self.phase, engine.apply_action(self, action)))

    def apply_records(self, action: StopAction) -> list[EventRec]:
        """:meth:`apply`, its events as records (:mod:`.events`), for a driver that
        reads them only sometimes (a simulation reads none)."""
        return self._resolved(self.phase, engine.apply_action(self, action))

    def apply_listed(self, action: StopAction) -> list[Event]:
        """:meth:`apply` of an action that :meth:`legal_actions` listed for this state, with
        nothing changed since: its checks are skipped (:func:`.engine.apply_listed`).
        """
        return events_of(self.apply_listed_records(action))

    def apply_listed_records(self, action: StopAction) -> list[EventRec]:
        """:meth:`apply_listed`, its events as records (see :meth:`apply_records`)."""
        phase = self.phase
        p = self.pending
        if p is not None and p.kind == "exchange":
            return self._resolved(phase, engine.apply_action(self, action))
        # engine.RESOLVERS, dispatched by hand: compiled, a direct native call each
        if type(action) is Play:
            events = engine.resolve_play(self, action)
        elif type(action) is Draw:
            events = engine.resolve_draw(self, action)
        elif type(action) is Accept:
            events = engine.listed_accept(self, action)
        elif type(action) is Interject:
            events = engine.resolve_interject(self, action)
        else:
            return self._resolved(phase, engine.apply_action(self, action))
        # _resolved, written out: every simulated action passes here
        if self.chances:
            events[:0] = self.chances
            self.chances = []
        done = self.round_actions = self.round_actions + 1
        if done == self.flags.stall_actions and self.phase in IN_PLAY:
            self.stall(events)
        if self.phase != phase:
            self._add_round_end(events)
        return events

    def _resolved(self, phase: str, events: list[EventRec]) -> list[EventRec]:
        """An action's events with the chance lines it drew first and, when it moved the
        phase on from ``phase``, the ``round_end`` event."""
        if self.chances:
            events[:0] = self.chances
            self.chances = []
        self.round_actions += 1
        if self.round_actions == self.flags.stall_actions and self.phase in IN_PLAY:
            self.stall(events)
        if self.phase != phase:
            self._add_round_end(events)
        return events

    def stall(self, events: list[EventRec]) -> None:
        """S-64: the round has run ``stall_actions`` actions without ending; the match ends
        at once, every hand scored as it stands (S-54) and the lowest total winning (S-56),
        whatever is pending. A count, not a judgement (like Stop & Go's G-22): the engine
        never has to prove that the round could not end, and no round runs unbounded."""
        self.stalled = True
        events.append(self._event("stalled", None, {"actions": self.round_actions}))
        self.end_round(final=True)

    def close_cancel_window(self) -> list[Event]:
        """Close an open cancel window without a cancel: perform the exchange (S-41)."""
        phase = self.phase
        events = resolve.close_cancel_window(self)
        if self.phase != phase:
            self._add_round_end(events)
        return events_of(events)

    def _add_round_end(self, events: list[EventRec]) -> None:
        """Scoring happens deep inside the resolution; hand its log event to the caller too."""
        if self.phase in ("round_over", "game_over"):
            for rec in reversed(self.records):
                if rec[0] == "round_end":
                    for listed in events:
                        if listed is rec:
                            break
                    else:
                        events.append(rec)
                    break

    def offers(self) -> list[int]:
        """The S-61 offer order (interjections, or cancels during a cancel window)."""
        return legal.offers(self)

    def turn_seat(self) -> int | None:
        """The seat expected to act (records.md §4.5 ``turn``); None once the round is over."""
        return self.turn

    def next_step(self) -> Step | None:
        """The open cancel window (a WINDOW step naming the exchanger, S-39), the deal of the
        next round in ``round_over`` (a CHANCE step, S-56), else None."""
        p = self.pending
        if p is not None and p.kind == "exchange":
            step = _WINDOW_STEPS.get(p.exchanger)
            return Step(StepKind.WINDOW, WINDOW_STEP, seat=p.exchanger) if step is None else step
        if self.phase == "round_over":
            return DEAL_STEP
        return None

    def run_step(self, step: Step, outcome: JSON = None) -> list[Event]:
        """Close the cancel window without a cancel (the exchange happens, S-41), or deal
        the next round: ``outcome`` is the deck, 112 codes top first, or None to shuffle
        with the seed. ValueError if ``step`` is not the one :meth:`next_step` asks for."""
        if step != self.next_step():
            raise ValueError(f"{step!r} is not the step due now ({self.next_step()!r})")
        if step.kind is StepKind.WINDOW:
            if outcome is not None:
                raise ValueError("closing a cancel window takes no outcome")
            return self.close_cancel_window()
        if outcome is not None and not isinstance(outcome, list):
            raise RecordError("a deal's outcome is a list of 112 card codes, top first")
        return self.start_next_round(outcome)

    def actors(self) -> list[int]:
        """The seats that may act now, in the order the S-61 driver first asks them: the
        offers (interjections, or cancels in a cancel window), then the seats with an open
        ja obligation (standalone calls), then :meth:`to_move`. Each seat appears once."""
        seats = self.offers()
        if self.obligations:
            for seat in sorted({ob.seat for ob in self.obligations}):
                if seat not in seats:
                    seats.append(seat)
        mover = self.to_move()
        if mover is not None and mover not in seats:
            seats.append(mover)
        return seats

    def to_move(self) -> int | None:
        """The seat on turn, or the victim of a pending effect; None while a cancel window
        is open (no turn before the exchange) and in ``round_over``/``game_over``."""
        p = self.pending
        if p is not None and p.kind == "exchange":
            return None
        return self.turn

    def result(self) -> Outcome | None:
        """The outcome once the game is over (lowest total wins, S-56)."""
        if self.phase != "game_over":
            return None
        why = "stalled" if self.stalled else "target_score"
        return Outcome.ranked(why, self.totals, lower_is_better=True)

    def round_result(self) -> Outcome | None:
        """The outcome of the round just scored, by its minus points (S-53: fewest wins;
        termination ``round``); None until a round has been scored and while the next one
        is played."""
        if self.phase not in ("round_over", "game_over") or self.round_scores is None:
            return None
        return Outcome.ranked("round", self.round_scores, lower_is_better=True)

    def copy(self) -> StopState:
        """A fast independent copy (for search bots)."""
        other = self._copy_but_rng()
        other.rng = self.rng.copy()
        other.records = self.records[:]
        return other

    def _copy_but_rng(self) -> StopState:
        """Everything but ``rng`` and ``records``, which the two copies treat differently."""
        other = StopState.__new__(StopState)
        other.rules = self.rules
        other.flags = self.flags
        other.seats = self.seats
        other.hands = [h[:] for h in self.hands]
        other.held = self.held[:]
        other.draw = self.draw[:]
        other.discard = self.discard[:]
        other.phase = self.phase
        other.turn = self.turn
        other.pending = self.pending
        other.obligations = [o.copy() for o in self.obligations]
        other.dealer = self.dealer
        other.round = self.round
        other.round_actions = self.round_actions
        other.stalled = self.stalled
        other.totals = self.totals[:]
        other.round_scores = None if self.round_scores is None else self.round_scores[:]
        other.winners = None if self.winners is None else self.winners[:]
        other.consecutive_passes = self.consecutive_passes
        other.last_reveal = self.last_reveal
        other.last_placer = self.last_placer
        other.starter_top = self.starter_top
        other.drawn = self.drawn
        other.shuffle_queue = [q[:] for q in self.shuffle_queue]
        other.chances = self.chances[:]
        other.cache = self.cache
        return other

    def __getstate__(self) -> dict[str, Any]:
        """What a deep copy or a pickle carries: every field but ``flags`` and ``cache``,
        which follow from ``rules`` and ``seats`` and are shared by every game of their
        shape (:meth:`copy` shares them too).

        The compiled build needs this: ``RuleFlags`` and ``ActionCache`` are native
        classes made only through their ``__init__``, which a copy cannot call (mypyc's
        ``serializable`` would, but its classes lose their attributes to interpreted code:
        mypyc#1172). Interpreted, a copy no longer deep-copies the whole action cache."""
        return {name: getattr(self, name) for name in _FIELDS if name not in _DERIVED}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """The fields :meth:`__getstate__` gave, then ``flags`` and ``cache`` anew."""
        for name, value in state.items():
            setattr(self, name, value)
        rules: Ruleset = self.rules
        self.flags = RuleFlags(rules)
        self.cache = action_cache(self.seats, rules.exchange_modes)

    def restore(self, other: StopState) -> None:
        """Become ``other`` (used to undo a rejected action after an implicit step)."""
        for name in _FIELDS:
            setattr(self, name, getattr(other, name))

    def _key(self) -> tuple[Any, ...]:
        return (
            self.rules,
            self.rng,
            [Counter(h) for h in self.hands],
            self.draw,
            self.discard,
            self.phase,
            self.turn,
            self.pending,
            sorted((o.sort_key(), o.placed, o.back) for o in self.obligations),
            self.dealer,
            self.round,
            self.round_actions,
            self.stalled,
            self.totals,
            self.round_scores,
            self.winners,
            self.consecutive_passes,
            self.last_reveal,
            self.last_placer,
            self.starter_top,
            self.drawn,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StopState):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def to_json(self) -> dict[str, JSON]:
        """records.md §4.5 without ``applied``."""
        return views.state_json(self)

    def view(self, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` may know (S-63): never another hand nor the draw order."""
        return views.seat_view(self, seat)

    def __repr__(self) -> str:
        return f"<StopState {self.rules.name} seats={self.seats} {self.phase} turn={self.turn}>"


def new_game(
    ruleset: Ruleset | str,
    seats: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    deck: list[str] | list[Card] | None = None,
) -> StopState:
    """Module-level alias of :meth:`StopState.new_game`."""
    return StopState.new_game(ruleset, seats, seed, options, deck)
