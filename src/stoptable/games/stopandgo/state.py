"""The Stop & Go game state and its rules engine (stop-and-go.md G-1 to G-22).

A turn is a chance step and a seat action. The state asks its driver for the chance step:
``next_step()`` is ``Step(CHANCE, "roll", seat=turn)`` while the seat on turn has not
thrown, and ``run_step(step)`` throws the die from the seed (or uses a given value) and
turns the dial on a 1 or a 6 (G-5); the roll event carries its record line
``{"chance": "roll", "value": r}``. Then ``state.apply(Move(seat, path))`` drives the
path. ``apply`` validates first: an illegal path raises :class:`MoveRejected` (an
``IllegalAction`` whose ``reasons`` lists every code the path breaks, records.md §6.4)
and changes nothing. With ``enforcement=fine`` a path that breaks only traffic rules is
applied as a violation: the car stays on its last stopping place and gets a ticket (G-16,
G-17). A turn in which the car on turn ends where it began is a still turn; after
``stall_turns`` of them in a row the game ends, scored as it stands (G-22).

Everything is public in this game except the order of the face-down deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from stoptable.core.errors import IllegalAction, OptionError, RecordError
from stoptable.core.protocol import (
    COMPILED,
    JSON,
    Event,
    Outcome,
    Step,
    StepKind,
    compiled_event,
    new_event,
)
from stoptable.core.rng import Rng
from stoptable.games.stopandgo.actions import LegalMoves, Move
from stoptable.games.stopandgo.board import NO_SPACE, StopGoMap
from stoptable.games.stopandgo.car import Car, MoveRejected
from stoptable.games.stopandgo.chance import ChanceMixin
from stoptable.games.stopandgo.check import load_default_map
from stoptable.games.stopandgo.listing import ListingMixin
from stoptable.games.stopandgo.paths import Listing, legal_choices
from stoptable.games.stopandgo.ruleset import DEFAULT_RULESET, Ruleset
from stoptable.games.stopandgo.setup import initial_deck, position_state
from stoptable.games.stopandgo.views import (
    CarView,
    MoveParts,
    SeatView,
    move_dict,
    public_state,
    scores_of,
)

__all__ = ["Car", "LegalMoves", "MoveRejected", "SeatView", "StopGoState", "new_game"]

Termination = Literal["all_collected", "stalled"]
"""Why a game ended: the last card was collected (G-19) or the game stalled (G-22)."""
TERMINATIONS: Final[tuple[Termination, ...]] = ("all_collected", "stalled")


class StopGoState(ChanceMixin, ListingMixin):
    """A game in progress. Attributes are read-only for callers; mutate through methods.

    * ``game_map`` (:class:`StopGoMap`), ``ruleset``, ``seats``;
    * ``cars[i]`` (:class:`Car`, spaces as map numbers), ``dial`` (position);
    * ``turn`` (seat on turn), ``rolled`` (the roll of this turn, None before the throw);
    * ``active`` (face-up destination number, None when none is left), ``deck`` (face-down
      numbers, top first), ``over``, ``last_move`` (the §6.3 object of the last move);
    * ``still_turns`` (G-22: consecutive turns in which the car on turn ended where it
      began) and ``termination`` (None while playing, else one of :data:`TERMINATIONS`).
    """

    # Declared here as well as in ListingMixin, which stays interpreted: compiled, an
    # attribute only the interpreted mixin declares lives in the instance's __dict__ and
    # every read of it is a generic lookup (``cars`` is read several times a turn).
    cars: list[Car]
    _listed: tuple[tuple[int, ...], Listing] | None

    def __init__(
        self,
        game_map: StopGoMap,
        ruleset: Ruleset,
        cars: list[Car],
        deck: list[int],
        rng: Rng,
        dial: int = 0,
        turn: int = 0,
    ) -> None:
        self.game_map = game_map
        self.ruleset = ruleset
        self.seats = len(cars)
        self.cars = cars
        self.deck = deck
        self.rng = rng
        self.dial = dial
        self.turn = turn
        self.rolled: int | None = None
        self.active: int | None = None
        self.over = False
        self.termination: Termination | None = None
        self.still_turns = 0
        # records.md §6.3's last_move, kept as its parts and made a dict only when read
        # (views, records, tests): the simulator never reads it (:attr:`last_move`)
        self._move: MoveParts | None = None
        self._last_move: dict[str, JSON] | None = None
        self._version = 0
        # The roll step of each seat, made once: the simulator asks for one every turn.
        self._roll_steps = tuple(Step(StepKind.CHANCE, "roll", seat=k) for k in range(len(cars)))
        self._turns_dial = tuple(v in ruleset.dial_advance_on for v in range(7))
        # Each car as views show it, kept up to date by the moves (None: to be rebuilt).
        self._car_views: list[CarView] | None = None
        # The paths last listed (with the state each leaves) and the key they were listed at.
        self._listed = None

    # -- construction ----------------------------------------------------------------

    @classmethod
    def new_game(
        cls,
        ruleset: Ruleset | str | None = None,
        seats: int = 2,
        seed: int = 0,
        options: dict[str, Any] | None = None,
        game_map: StopGoMap | None = None,
        deck: list[int] | None = None,
    ) -> StopGoState:
        """Set a game up (G-3): cars on the market, deck shuffled with ``seed``, first card up.

        ``ruleset`` is a :class:`Ruleset` or a ruleset name; ``options`` override its
        options. ``deck`` (destination numbers, top first) replaces the shuffle. Any map in
        the §6 format is played (GM-1); front ends that must refuse a map failing GM-9 call
        :func:`~stoptable.games.stopandgo.playable.require_playable_map` first.
        OptionError for a bad option, PlayerCountError for a bad seat count, RecordError
        for a deck that does not fit.
        """
        rules = _resolve(ruleset, options)
        check_seats(seats)
        the_map = game_map if game_map is not None else load_default_map()
        rng = Rng(seed)
        cards = initial_deck(the_map, rules, rng, deck)
        cars = [Car(the_map.market) for _ in range(seats)]
        state = cls(the_map, rules, cars, cards, rng, _dial_start(the_map, rules))
        state._reveal([])
        return state

    @classmethod
    def from_position(
        cls,
        ruleset: Ruleset | str | None,
        seats: int,
        position: Mapping[str, Any],
        game_map: StopGoMap | None = None,
        seed: int = 0,
        options: dict[str, Any] | None = None,
    ) -> StopGoState:
        """A state from a records.md §6.1 ``position`` object (its ``map`` key is ignored:
        pass the loaded map). RecordError if the position does not fit the map."""
        rules = _resolve(ruleset, options)
        check_seats(seats)
        the_map = game_map if game_map is not None else load_default_map()
        values = position_state(the_map, seats, position, _dial_start(the_map, rules))
        if rules.stall_turns and values.still_turns >= rules.stall_turns:
            raise RecordError(
                f"position.still_turns must be below stall_turns ({rules.stall_turns}, G-22)"
            )
        cars = [Car(*car) for car in values.cars]
        state = cls(the_map, rules, cars, values.deck, Rng(seed), values.dial, values.turn)
        state.active = values.active
        state.rolled = values.roll
        state.still_turns = values.still_turns
        if values.active is None:
            state.over, state.termination = True, "all_collected"
        if not state.over and state.rolled is None:
            state._pass_missed_turns([])
        return state

    # -- moves (the listing of legal paths is in listing.ListingMixin) ---------------

    def legal_moves(self, seat: int) -> LegalMoves:
        """One shortest legal path per outcome (``legal_paths(seat, distinct_ends=True)``)
        as a :class:`LegalMoves`, what the simulator hands its bots; standing still first.

        Here rather than in :class:`ListingMixin` (which lists every other form) so that it
        is compiled with the state: the listing mixin stays interpreted (two compiled
        mixins of one class would have to be mypyc traits)."""
        if self.over or seat != self.turn or self.rolled is None:
            return LegalMoves(seat, (), (), (), ())
        # _list, written out: the simulator calls this every turn.
        active = self.active
        listed = legal_choices(
            self.game_map, self.cars, seat, self.rolled, self.dial,
            None if active is None else self.game_map.destination_space[active], True,
        )  # fmt: skip
        self._listed = ((self._version, seat, self.rolled, self.dial), listed)
        return LegalMoves(seat, listed.paths, listed.states, listed.lengths, listed.numbers)

    @property
    def last_move(self) -> dict[str, JSON] | None:
        """records.md §6.3's ``last_move`` (None before the first move): made from the
        move's parts on the first read after it, then the same dict until the next move.
        Never change it in place (views hand out copies)."""
        made = self._last_move
        if made is None and self._move is not None:
            made = self._last_move = move_dict(self._move)
        return made

    @last_move.setter
    def last_move(self, value: dict[str, JSON] | None) -> None:
        self._move = None
        self._last_move = value

    def apply(self, action: Move) -> list[Event]:
        """Validate, then drive ``action.path`` (G-15 to G-19); IllegalAction if refused.

        If the seat on turn has not rolled yet, the die is thrown first (the implicit chance
        step of records.md §6.2); that roll stays even if the path is then refused.
        """
        if self.over:
            raise IllegalAction("game_over", "G-19", "the game is over")
        events: list[Event] = []
        if self.rolled is None:
            events += self.roll()
        if action.seat != self.turn:
            raise IllegalAction("not_your_turn", "G-4", f"it is seat {self.turn}'s turn")
        roll = self.rolled
        assert roll is not None
        listed = self._listed
        ends: tuple[int, int] | None = None
        if (
            listed is not None
            and listed[0] == (self._version, self.turn, roll, self.dial)
            and isinstance(action.path, tuple)
        ):
            # A bot returns one of the listed tuples itself: found at once, by identity
            # (a loop, not tuple.index: compiled, a native loop against a generic call).
            listing, ids = listed[1], action.path
            for i, p in enumerate(listing.paths):
                if p is ids:
                    ends = listing.states[i]
                    break
            else:
                try:
                    ends = listing.states[listing.paths.index(ids)]
                except ValueError:
                    ends = None  # not listed: checked below
        traffic: list[str] = []
        if ends is None:
            hard, traffic = self.reasons(action)
            if hard or (traffic and self.ruleset.enforcement == "prevent"):
                reasons = hard + traffic
                message = f"path {' '.join(action.path)}: {', '.join(reasons)}"
                raise MoveRejected(reasons, message)
            path = self._path_numbers(action)
            if len(path) > 1:
                ends = (path[-2], path[-1])
        seat, car = action.seat, self.cars[action.seat]
        result = "violation" if traffic else "ok"
        # G-22: only an applied path with k >= 1 that is no violation moves the car.
        moved = not traffic and ends is not None and len(action.path) > 1
        path_ids = action.path if type(action.path) is tuple else tuple(action.path)
        self._move = (seat, path_ids, roll, result, traffic)
        self._last_move = None
        public: dict[str, JSON] = {"path": list(path_ids), "result": result}
        events.append(_event("move", seat, public))
        if traffic:
            self._ticket(seat, traffic, events)
        elif ends is not None and len(action.path) > 1:
            car.prev, car.pos = ends
            car.reverse_ok = False
            views = self._car_views
            if views is not None:  # only pos, prev and reverse_ok changed
                views[seat] = (
                    car.pos,
                    car.prev,
                    False,
                    car.tickets,
                    car.missed_turns,
                    views[seat][5],
                )
            if self.active is not None and car.pos == self.game_map.destination_space[self.active]:
                self._collect(seat, events)
        self.rolled = None
        self._version += 1
        self._listed = None
        if not self.over:
            if moved:
                self.still_turns = 0
            else:
                self._still_turn(events)
        if not self.over:
            self.turn = turn = (self.turn + 1) % self.seats
            if self.cars[turn].missed_turns:
                self._pass_missed_turns(events)
        return events

    def _still_turn(self, events: list[Event]) -> None:
        """G-22: count a turn in which the car on turn ended where it began; after
        ``stall_turns`` of them in a row the game ends at once, scored as it stands."""
        self.still_turns += 1
        limit = self.ruleset.stall_turns
        if limit and self.still_turns >= limit:
            self._end("stalled", events)

    def _ticket(self, seat: int, reasons: list[str], events: list[Event]) -> None:
        self._car_views = None
        car = self.cars[seat]
        car.tickets += 1
        events.append(_event("ticket", seat, {"reasons": reasons, "tickets": car.tickets}))
        if car.tickets >= self.ruleset.tickets_limit:
            car.tickets = 0
            car.missed_turns = self.ruleset.missed_turns_on_limit
            events.append(_event("suspended", seat, {"missed_turns": car.missed_turns}))

    def _collect(self, seat: int, events: list[Event]) -> None:
        self._car_views = None
        car = self.cars[seat]
        assert self.active is not None
        car.collected.append(self.active)
        car.reverse_ok = self.ruleset.reverse_after_collect
        events.append(_event("collect", seat, {"number": self.active}))
        self._reveal(events)

    def _reveal(self, events: list[Event]) -> None:
        """Turn up the next card (G-15), or end the game when none is left (G-19)."""
        if not self.deck:
            self.active = None
            self._end("all_collected", events)
            return
        self.active = self.deck.pop(0)
        events.append(_event("reveal", None, {"number": self.active}))
        if self.ruleset.collect_on_reveal:
            space = self.game_map.destination_space[self.active]
            for seat, car in enumerate(self.cars):
                if car.pos == space:
                    self._collect(seat, events)
                    return

    def _end(self, termination: Termination, events: list[Event]) -> None:
        """End the game (G-19, G-22); the face-up card, if any, stays where it is."""
        self.over = True
        self.termination = termination
        outcome = self.result()
        winners = list(outcome.winners) if outcome else []
        events.append(_event("game_over", None, {"winners": winners, "termination": termination}))

    def _pass_missed_turns(self, events: list[Event]) -> None:
        """G-5 step 2: a seat with missed turns uses one and play passes on at once; each
        is a still turn (G-22), so the game may stall while turns are being passed."""
        self._car_views = None
        while self.cars[self.turn].missed_turns > 0:
            self.cars[self.turn].missed_turns -= 1
            events.append(_event("missed_turn", self.turn, {}))
            self._still_turn(events)
            if self.over:
                return
            self.turn = (self.turn + 1) % self.seats

    # -- reading ---------------------------------------------------------------------

    def scores(self) -> list[int]:
        """Per seat: cards collected (``count``) or the sum of their numbers (``sum``)."""
        return scores_of(self.ruleset.scoring, (car.collected for car in self.cars))

    def result(self) -> Outcome | None:
        """The outcome once the last card is collected or the game stalled (G-19, G-22),
        scored by G-20 (ties share, GA-18)."""
        if not self.over:
            return None
        termination = self.termination or "all_collected"
        return Outcome.ranked(termination, self.scores(), lower_is_better=False)

    def to_json(self) -> dict[str, JSON]:
        """The records.md §6.3 object, without ``applied``."""
        data = public_state(self)
        keys = list(data)
        data["deck"] = list(self.deck)
        order = [*keys[: keys.index("cars")], "deck", *keys[keys.index("cars") :]]
        return {k: data[k] for k in order}

    def view(self, seat: int | None = None) -> dict[str, JSON]:
        """What a seat (or a spectator) may know: all of :meth:`to_json` except the deck
        order, which is replaced by ``deck_size``; ``seat`` says whose view it is and
        ``map`` names the map."""
        return SeatView(self, seat).to_dict()

    def car_views(self) -> tuple[CarView, ...]:
        """Every car as a view shows it (kept between moves: a move changes one car)."""
        views = self._car_views
        if views is None:
            views = self._car_views = [
                (
                    c.pos,
                    None if c.prev == NO_SPACE else c.prev,
                    c.reverse_ok,
                    c.tickets,
                    c.missed_turns,
                    tuple(c.collected),
                )
                for c in self.cars
            ]
        return tuple(views)

    def seat_view(self, seat: int | None = None) -> SeatView:
        """:meth:`view` as an immutable :class:`SeatView` snapshot: cheap to take every turn
        (its dict is built only if read), with the fields bots use as map numbers."""
        return SeatView(self, seat)

    def copy(self) -> StopGoState:
        """An independent copy (the map and ruleset, which never change, are shared)."""
        other = StopGoState(
            self.game_map, self.ruleset, [c.copy() for c in self.cars], list(self.deck),
            self.rng.copy(), self.dial, self.turn,
        )  # fmt: skip
        other.rolled, other.active, other.over = self.rolled, self.active, self.over
        other.termination, other.still_turns = self.termination, self.still_turns
        other.last_move = None if self.last_move is None else dict(self.last_move)
        return other

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Copies and pickles through the constructor (compiled, a native class is made
        only through its ``__init__``: architecture.md, rule 21), then the fields it does
        not take. The map is shared (:meth:`.StopGoMap.__deepcopy__`); the last listing
        and the cars' views are caches, left to be made again, as :meth:`copy` does."""
        rest = (
            self.rolled, self.active, self.over, self.termination, self.still_turns,
            self.last_move, self._version,
        )  # fmt: skip
        fields = (self.game_map, self.ruleset, self.cars, self.deck, self.rng, self.dial)
        return _restored, (*fields, self.turn, rest)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StopGoState):
            return NotImplemented
        same_map = self.game_map is other.game_map or self.game_map.model == other.game_map.model
        return (
            same_map
            and self.ruleset == other.ruleset
            and self.cars == other.cars
            and self.deck == other.deck
            and self.rng == other.rng
            and (self.dial, self.turn, self.rolled, self.active, self.over, self.still_turns)
            == (other.dial, other.turn, other.rolled, other.active, other.over, other.still_turns)
            and self.termination == other.termination
            and self.last_move == other.last_move
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<StopGoState {self.seats} seats, turn {self.turn}, active {self.active}>"


def _event(kind: str, seat: int | None, public: dict[str, JSON]) -> Event:
    """``Event(kind, seat, public)``: compiled, its fields stored natively by a direct call
    (the compiled build's rule 12: the dataclass's own ``__init__`` is interpreted and
    cost about 3,800 instructions a collect event, ``new_event`` is a generic call)."""
    if COMPILED:
        return compiled_event(kind, seat, public, None)
    return new_event(kind, seat, public, None)


def check_seats(seats: int) -> None:
    """PlayerCountError unless 2 <= seats <= 6 (G-2, GA-4): the ruleset's one check."""
    Ruleset().check_seats(seats)


def _resolve(ruleset: Ruleset | str | None, options: Mapping[str, Any] | None) -> Ruleset:
    """A ruleset object or name plus options; OptionError naming a bad one."""
    if isinstance(ruleset, Ruleset):
        return ruleset.with_options(options) if options else ruleset
    return Ruleset.from_options(ruleset or DEFAULT_RULESET, options)


def _dial_start(game_map: StopGoMap, rules: Ruleset) -> int:
    start = game_map.dial_start if rules.dial_start is None else rules.dial_start
    if start >= game_map.dial_positions:
        raise OptionError(f"dial_start {start} is not below {game_map.dial_positions} positions")
    return start


def new_game(
    ruleset: Ruleset | str | None = None,
    seats: int = 2,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    game_map: StopGoMap | None = None,
    deck: list[int] | None = None,
) -> StopGoState:
    """Shorthand for :meth:`StopGoState.new_game`."""
    return StopGoState.new_game(ruleset, seats, seed, options, game_map, deck)


def _restored(
    game_map: StopGoMap,
    ruleset: Ruleset,
    cars: list[Car],
    deck: list[int],
    rng: Rng,
    dial: int,
    turn: int,
    rest: tuple[Any, ...],
) -> StopGoState:
    """A state from what :meth:`StopGoState.__reduce__` gave."""
    st = StopGoState(game_map, ruleset, cars, deck, rng, dial, turn)
    (st.rolled, st.active, st.over, st.termination, st.still_turns, st.last_move, version) = rest
    st._version = version
    return st
