"""Determinization for search bots: a full state consistent with one seat's view.

A bot sees only ``state.view(seat)``. ``sample_state`` deals every card the seat cannot
see (112 minus its own hand and the discard pile) into the other hands, with their public
sizes, and into the draw pile; cards left over (a position may have put some out of play)
stay out. Everything public (pending effect, obligations, turn, totals) is copied, so the
sampled state accepts exactly the actions the real one would from ``seat``.

The deal is not uniform: a uniform one throws away what the table has shown, and a search
that samples hands the other players cannot hold plans against phantoms (with the true
hands ISMCTS beats the heuristic bot by far; with uniform ones it does not). :func:`infer`
reads the public log (and, through :class:`SeatMemory`, what the seat saw at its earlier
decisions) into a :class:`Belief`: each other hand is a few *lots* of cards, each with the
cards it may hold. What the log says, assuming the others play like people and the
heuristic bot usually do - play when they can, interject and defend when they can:

* a turn draw (or an exhaustion pass) on top card ``t``: nothing in that hand matched ``t``
  (S-12; a Free Choice pair is a legal play too, S-45); a Card Exchange may have been kept
  back on purpose, so it stays possible;
* a number card placed and nobody interjecting (S-18, S-61 offers every holder): no hand
  held an identical card (0s excepted: keeping the only 0 for defence is common);
* accepting a Draw Two: no 2 and no 0 of the top's colour (S-33); accepting a Skip: no
  Skip (S-37); a Draw X flip: no 0 of the top's colour (S-43); the flipped card is public;
* a Card Exchange: the hand this seat gave away is known to lie in its receiver's hand
  (S-41) - known exactly if :class:`SeatMemory` saw this seat's hand before it;
* a ja Draw X reveal shows the whole hand (S-44).

A lot keeps its restrictions while its cards stay in the hand; cards drawn later form new
lots that may hold anything. A played card leaves the most restricted lot that may hold it
(that never makes the belief stricter than the truth). Where the restrictions cannot all
hold (a player who drew with a playable card in hand, a log that was cut), the seat's hand
falls back to uniform: the constraints steer the sample, they never make it fail.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from stoptable.core.rng import Rng
from stoptable.games.stop.cards import (
    BY_ORDER,
    DECK_COUNTS,
    DRAWX,
    EXCH,
    SKIP,
    Card,
    parse_card,
)
from stoptable.games.stop.ruleset import PRESETS, Ruleset
from stoptable.games.stop.state import StopState

ANY: Final = frozenset(BY_ORDER)
"""Every card kind: the lot restriction of cards nothing is known about."""
TRIES: Final = 8
"""Constrained deals tried before a sample falls back to uniform hands."""
PLACEMENTS: Final = ("play", "interject", "cancel", "reveal_play")
"""Log events that put cards on the discard pile (their ``cards``)."""
DRAWS: Final = ("draw", "penalty", "accept", "reveal_draw", "flip")
"""Log events that add ``count`` cards to a hand (``cards`` too, for the seat's own)."""


def _matching(top: Card) -> frozenset[Card]:
    """Cards a heuristic-like player would have played on ``top`` (S-12, S-45): same
    colour or number, same symbol, and Free Choice; Card Exchanges are left out (a player
    may keep one back rather than receive a bigger hand)."""
    out = set()
    for card in BY_ORDER:
        if card.rank == EXCH:
            continue
        same_number = card.number >= 0 and card.number == top.number
        same_symbol = card.number < 0 and card.rank == top.rank
        if card.colour < 0 or card.colour == top.colour or same_number or same_symbol:
            out.add(card)
    return frozenset(out)


MATCHING: Final = {top: _matching(top) for top in BY_ORDER}
TWINS: Final = {
    top: frozenset(c for c in BY_ORDER if top.number > 0 and top.identical(c)) for top in BY_ORDER
}
"""Identical cards (S-4) a holder would have interjected on ``top``; none for 0s."""
TWOS: Final = frozenset(c for c in BY_ORDER if c.rank == 2)
SKIPS: Final = frozenset(c for c in BY_ORDER if c.rank == SKIP)
ATTACKS: Final = (2, SKIP, DRAWX)
"""Ranks that aim an effect at the next seat (S-32, S-36, S-42)."""
COLOUR_BONUS: Final = 6.0
"""A bound on what the heuristic adds to a play for the cards of its colour kept."""


def _worth(card: Card, played: bool, nine: bool) -> float:
    """A bound on the heuristic bot's score of a single play of ``card`` (``bots/stop.py``):
    an upper bound for the card it played, a lower bound for a card it passed over
    (``nine``: every 6/9 is worth 9, S-4). A Free Choice stands for its best pair (50
    points and a second card)."""
    if card.colour < 0:
        return 42.0
    worth = float(card.value(nine)) - (8.0 if card.rank == 0 else 0.0)
    if card.rank in ATTACKS:
        worth += 30.0 + COLOUR_BONUS if played else 4.0
    elif played:
        worth += COLOUR_BONUS
    return worth


def _passed_over(top: Card, card: Card, nine: bool) -> frozenset[Card]:
    """The cards a heuristic-like player would have played on ``top`` rather than
    ``card``: playable, and worth clearly more (it sheds its most costly cards first)."""
    if card.rank == EXCH:
        return frozenset()  # its score counts the hand it brings in: no bound
    bound = _worth(card, True, nine)
    return frozenset(q for q in MATCHING[top] if _worth(q, False, nine) > bound)


PASSED_OVER: Final = {
    nine: {(top, card): _passed_over(top, card, nine) for top in BY_ORDER for card in BY_ORDER}
    for nine in (False, True)
}
"""By ``six_nine_value == "nine"``, then by (top card, card played)."""
ZERO: Final = {
    c: frozenset(z for z in BY_ORDER if z.rank == 0 and z.colour == c.colour) for c in BY_ORDER
}
"""The 0s that defend against a top card (S-31): those of its colour."""


@dataclass(slots=True)
class Lot:
    """Some cards of one hand and the card kinds they may be."""

    count: int
    allowed: frozenset[Card] = ANY


@dataclass(slots=True)
class Belief:
    """Per seat, the lots its hand is made of (empty for the observer's own seat)."""

    lots: list[list[Lot]]

    def deal(self, pool: list[Card], rng: Rng) -> list[list[Card]] | None:
        """Hands for the lots from ``pool`` (which loses them), or None if the lots could
        not all be filled. Most restricted lots first, each card uniform among the pool's
        cards its lot allows."""
        order = sorted(
            ((lot, s) for s, lots in enumerate(self.lots) for lot in lots if lot.count > 0),
            key=lambda item: len(item[0].allowed),
        )
        hands: list[list[Card]] = [[] for _ in self.lots]
        for lot, s in order:
            allowed = lot.allowed
            for _ in range(lot.count):
                if allowed is ANY:
                    if not pool:
                        return None
                    i = rng.below(len(pool))
                else:
                    fits = [i for i, c in enumerate(pool) if c in allowed]
                    if not fits:
                        return None
                    i = fits[rng.below(len(fits))]
                hands[s].append(pool[i])
                pool[i] = pool[-1]
                pool.pop()
        return hands


@dataclass(slots=True)
class SeatMemory:
    """What one seat saw at its earlier decisions of a round: the round's public log as far
    as the views' windows (``LOG_SIZE`` events each) overlap, and its own hand at each.

    Feed it every view the seat is shown, in order (:meth:`observe`); :func:`infer` uses it
    for what one window cannot tell, chiefly the hand this seat gave away in an exchange.
    """

    round: int = -1
    events: list[dict[str, Any]] = field(default_factory=list)
    hands: list[tuple[int, list[str]]] = field(default_factory=list)
    """(number of ``events`` seen when the hand was shown, the hand)."""

    def observe(self, view: Mapping[str, Any]) -> None:
        log = list(view["log"])
        if view["round"] != self.round:
            self.round = view["round"]
            self.events, self.hands = [], []
        events = self.events
        overlap = 0
        for k in range(min(len(events), len(log)), 0, -1):
            if events[-k:] == log[:k]:
                overlap = k
                break
        if events and overlap == 0 and log:
            self.events, self.hands = [], []  # a gap: what came before cannot be placed
            events = self.events
        events.extend(log[overlap:])
        self.hands.append((len(events), list(view["hand"])))

    def log_for(self, view: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[int, list[str]]]:
        """The longest log of ``view``'s round ending with the view's window, and the
        seat's hands by position in it (an empty map if the memory does not fit)."""
        log = list(view["log"])
        events = self.events
        if view["round"] != self.round or len(events) < len(log) or events[-len(log) :] != log:
            return log, {}
        return list(events), dict(self.hands)


def infer(view: Mapping[str, Any], memory: SeatMemory | None = None) -> Belief:
    """The :class:`Belief` of ``view``'s seat about the other hands (module docstring)."""
    me = view["seat"]
    n = len(view["hand_sizes"])
    snapshots: dict[int, list[str]] = {}
    if memory is None:
        log = list(view["log"])
    else:
        log, snapshots = memory.log_for(view)
    start = max((i + 1 for i, ev in enumerate(log) if ev["kind"] == "deal"), default=0)
    tracker = _Tracker(me, n, _first_top(log[start:], view["discard"]), _nine(view))
    for i in range(start, len(log)):
        if i in snapshots:
            tracker.own = Counter(parse_card(c) for c in snapshots[i])
        tracker.event(log[i])
    # offers still due at the end are being made now (perhaps to this seat): no news yet
    return tracker.belief(view["hand_sizes"])


def _nine(view: Mapping[str, Any]) -> bool:
    """Whether every 6/9 is worth 9 (S-4): the view's option overrides, else its preset."""
    options = view.get("options")
    if isinstance(options, dict) and "six_nine_value" in options:
        return bool(options["six_nine_value"] == "nine")
    preset = PRESETS.get(str(view.get("ruleset")))
    return preset is not None and preset.six_nine_value == "nine"


def _first_top(log: Sequence[Mapping[str, Any]], discard: Sequence[str]) -> Card | None:
    """The top card before ``log``: the discard pile less the cards placed since (None
    after a reshuffle, which took the older cards away)."""
    placed = 0
    for ev in log:
        if ev["kind"] == "reshuffle":
            return None
        if ev["kind"] in PLACEMENTS:
            placed += len(ev["cards"])
    if placed >= len(discard):
        return None
    return parse_card(discard[len(discard) - 1 - placed])


class _Tracker:
    """The forward pass of :func:`infer`: every other hand as lots, one event at a time.

    ``base[s]`` is the lot of seat ``s``'s cards from before the log (its size is only
    known at the end, from the hand size); ``own`` the observer's hand while it is known.
    """

    def __init__(self, me: int, n: int, top: Card | None, nine: bool) -> None:
        self.me, self.n, self.top = me, n, top
        self.passed_over = PASSED_OVER[nine]
        self.base = [Lot(0) for _ in range(n)]
        self.hands: list[list[Lot]] = [[lot] for lot in self.base]
        self.own: Counter[Card] | None = None
        self.offered: Card | None = None
        self.live = False
        """Whether a Skip, Draw Two or Draw X may be pending (a play is then an answer)."""
        """A number card on top whose interjection offers (S-61) are still due."""
        self.broken: set[int] = set()
        """Seats whose play contradicted their lots: their hand is taken as unknown."""

    def restrict(self, seat: int, banned: frozenset[Card]) -> None:
        if seat == self.me:
            return
        for lot in self.hands[seat]:
            lot.allowed = lot.allowed - banned

    def settle_offers(self) -> None:
        if self.offered is not None:
            twins = TWINS[self.offered]
            for s in range(self.n):
                self.restrict(s, twins)
            self.offered = None

    def event(self, ev: Mapping[str, Any]) -> None:
        kind = ev["kind"]
        seat = ev.get("seat")
        if kind == "interject":
            self.offered = None  # someone took the offer; who declined before is unknown
        elif kind not in ("penalty", "call"):
            self.settle_offers()
        if not isinstance(seat, int):
            return
        top = self.top
        if kind in PLACEMENTS:
            cards = [parse_card(c) for c in ev["cards"]]
            if kind == "play" and len(cards) == 1 and top is not None and not self.live:
                self.restrict(seat, self.passed_over[top, cards[0]])
            for card in cards:
                self.remove(seat, card)
            self.top = cards[-1]
            if kind != "cancel":
                self.live = self.top.rank in ATTACKS
            if self.top.number >= 0 and kind != "cancel" and "stop" not in ev.get("calls", ()):
                self.offered = self.top
            return
        if kind in ("accept", "skipped", "flip", "reveal"):
            self.live = False
        if kind in ("draw", "pass") and top is not None and not ev.get("kept_drawn"):
            self.restrict(seat, MATCHING[top])
        elif kind == "accept" and top is not None:
            self.restrict(seat, TWOS | ZERO[top])
        elif kind == "skipped":
            self.restrict(seat, SKIPS)
        elif kind == "flip" and top is not None:
            self.restrict(seat, ZERO[top])
        if kind in DRAWS:
            self.add(seat, ev)
        elif kind == "reveal" and seat != self.me:
            shown = Counter(parse_card(c) for c in ev["hand"])
            self.base[seat] = Lot(0)
            self.hands[seat] = [self.base[seat]] + [
                Lot(k, frozenset({c})) for c, k in shown.items()
            ]
            self.broken.discard(seat)
        elif kind == "exchange":
            self.exchange(ev)

    def remove(self, seat: int, card: Card) -> None:
        """A card of ``seat``'s placed: it leaves the most restricted lot that allows it."""
        if seat == self.me:
            own = self.own
            if own is not None and own[card] > 0:
                own[card] -= 1
            else:
                self.own = None
            return
        base = self.base[seat]
        fits = [
            lot
            for lot in self.hands[seat]
            if card in lot.allowed and (lot.count > 0 or lot is base)
        ]
        if fits:
            min(fits, key=lambda lot: len(lot.allowed)).count -= 1
        else:
            self.broken.add(seat)
            base.count -= 1

    def add(self, seat: int, ev: Mapping[str, Any]) -> None:
        """``count`` cards drawn by ``seat`` (the observer's own are in the event)."""
        count = int(ev["count"])
        if seat == self.me:
            got = ev.get("cards")
            if self.own is not None and isinstance(got, list):
                self.own.update(parse_card(c) for c in got)
            else:
                self.own = None
            return
        turned = ev.get("turned") if ev["kind"] == "flip" else None
        if isinstance(turned, str) and count > 0:
            self.hands[seat].append(Lot(1, frozenset({parse_card(turned)})))
            count -= 1
        if count > 0:
            self.hands[seat].append(Lot(count))

    def exchange(self, ev: Mapping[str, Any]) -> None:
        """S-41: the lots move with the hands; the observer's old hand, if known, is now
        its receiver's, card for card."""
        me, n = self.me, self.n
        giver = _exchange_sources(ev, n)
        hands = [self.hands[giver[s]] for s in range(n)]
        base = [self.base[giver[s]] for s in range(n)]
        broken = {s for s in range(n) if giver[s] in self.broken}
        receiver = giver.index(me)
        if receiver != me:
            base[receiver] = Lot(0)
            hands[receiver] = [base[receiver]]
            broken.discard(receiver)
            if self.own is not None:
                hands[receiver] += [Lot(k, frozenset({c})) for c, k in self.own.items() if k > 0]
            self.own = None
        base[me] = Lot(0)
        hands[me] = [base[me]]
        self.hands, self.base, self.broken = hands, base, broken

    def belief(self, sizes: Sequence[int]) -> Belief:
        """The lots, with each base lot sized to what the hand size leaves for it."""
        lots: list[list[Lot]] = []
        for s in range(self.n):
            if s == self.me:
                lots.append([])
                continue
            rest = [lot for lot in self.hands[s] if lot is not self.base[s] and lot.count > 0]
            left = int(sizes[s]) - sum(lot.count for lot in rest)
            if left < 0 or s in self.broken:
                lots.append([Lot(int(sizes[s]))])  # the log does not add up: know nothing
            else:
                lots.append([Lot(left, self.base[s].allowed), *rest])
        return Belief(lots)


def _exchange_sources(ev: Mapping[str, Any], n: int) -> list[int]:
    """For each seat, the seat whose hand it holds after an exchange event (S-41)."""
    mode = ev.get("mode")
    if mode == "left":
        return [(s - 1) % n for s in range(n)]
    if mode == "right":
        return [(s + 1) % n for s in range(n)]
    out = list(range(n))
    e, t = ev.get("seat"), ev.get("target")
    if isinstance(e, int) and isinstance(t, int):
        out[e], out[t] = t, e
    return out


def sample_state(
    view: dict[str, Any], rng: Rng, seed: int = 0, belief: Belief | None = None
) -> StopState:
    """A random state that ``view`` (from ``seat_view``) cannot tell from the real one,
    dealt by ``belief`` (by default :func:`infer` of the view's own log)."""
    if view["phase"] not in ("playing", "closing"):
        raise ValueError("only a view of a round in play can be sampled")
    seat = view["seat"]
    if seat is None:
        raise ValueError("a spectator view has no hand to keep")
    if belief is None:
        belief = infer(view)
    own = [parse_card(c) for c in view["hand"]]
    discard = [parse_card(c) for c in view["discard"]]
    unseen = Counter(DECK_COUNTS)
    unseen.subtract(Counter(own) + Counter(discard))
    cards: list[Card] = sorted(unseen.elements())
    dealt: list[list[Card]] | None = None
    pool = cards
    for _ in range(TRIES):
        pool = list(cards)
        dealt = belief.deal(pool, rng)
        if dealt is not None:
            break
    if dealt is None:
        pool = list(cards)
        dealt = Belief(
            [[] if s == seat else [Lot(k)] for s, k in enumerate(view["hand_sizes"])]
        ).deal(pool, rng)
        assert dealt is not None, "the unseen cards fill the other hands"
    rng.shuffle(pool)
    hands: list[list[str]] = []
    for s in range(len(view["hand_sizes"])):
        if s == seat:
            hands.append(list(view["hand"]))
        else:
            hand = dealt[s]
            rng.shuffle(hand)
            hands.append([c.code for c in hand])
    position = {
        "hands": hands,
        "discard": list(view["discard"]),
        "draw_pile": [c.code for c in pool[: view["draw_size"]]],
        "turn": view["turn"],
        "dealer": view["dealer"],
        "round": view["round"],
        "pending": view["pending"],
        "obligations": view["obligations"],
        "totals": view["totals"],
        "consecutive_passes": view["consecutive_passes"],
        "phase": view["phase"],
    }
    rules = Ruleset.from_options(view["ruleset"], view["options"])
    return StopState.from_position(rules, len(hands), position, seed=seed)


class Sampler:
    """Many determinizations of one view, as :func:`determinize` makes them, faster.

    A search samples the same view a hundred times per decision; :func:`sample_state`
    reads the whole view into a records.md position and checks it every time. This reads
    it once into a template state and then, per sample, copies the template and deals the
    unseen cards into the other hands and the draw pile: the same generator calls in the
    same order as :func:`determinize`, so an equal generator gives an equal state (a test
    holds them equal).
    """

    __slots__ = ("belief", "cards", "draw_size", "seat", "sizes", "template", "view")

    def __init__(self, view: dict[str, Any], seat: int, belief: Belief | None = None) -> None:
        if view["seat"] != seat:
            raise ValueError(f"the view is seat {view['seat']}'s, not seat {seat}'s")
        self.view = view
        """The view sampled (a search checks it samples the view it is asked about)."""
        self.template = sample_state(view, Rng(0), belief=belief)
        self.belief = infer(view) if belief is None else belief
        self.seat = seat
        self.sizes: list[int] = list(view["hand_sizes"])
        self.draw_size: int = view["draw_size"]
        unseen = Counter(DECK_COUNTS)
        unseen.subtract(Counter(self.template.hands[seat]) + Counter(self.template.discard))
        self.cards: list[Card] = sorted(unseen.elements())

    def sample(self, rng: Rng) -> StopState:
        """One determinization (what ``determinize(view, seat, rng, belief)`` returns)."""
        seed = rng.below(2**31)
        seat, cards = self.seat, self.cards
        dealt: list[list[Card]] | None = None
        pool = cards
        for _ in range(TRIES):
            pool = list(cards)
            dealt = self.belief.deal(pool, rng)
            if dealt is not None:
                break
        if dealt is None:
            pool = list(cards)
            dealt = Belief([[] if s == seat else [Lot(k)] for s, k in enumerate(self.sizes)]).deal(
                pool, rng
            )
            assert dealt is not None, "the unseen cards fill the other hands"
        rng.shuffle(pool)
        st = self.template._copy_but_rng()  # its generator and records are replaced below
        st.records = []
        hands = st.hands
        for s in range(len(self.sizes)):
            if s != seat:
                hand = dealt[s]
                rng.shuffle(hand)
                hands[s] = hand
        st.count_held()
        draw = pool[: self.draw_size]
        draw.reverse()  # the position lists the pile top first; the state keeps it last
        st.draw = draw
        st.rng = Rng(seed)
        return st


def determinize(
    view: dict[str, Any], seat: int, rng: Rng, belief: Belief | None = None
) -> StopState:
    """:func:`sample_state` of ``seat``'s view, with a fresh seed for the sample's own
    reshuffles drawn from ``rng`` (the search bots' entry point, alike in every game).
    ``belief``: :func:`infer` of the view, computed once per decision by a bot that samples
    many times (by default it is inferred from the view's log on every call).

    ValueError if ``view`` is not ``seat``'s.
    """
    if view["seat"] != seat:
        raise ValueError(f"the view is seat {view['seat']}'s, not seat {seat}'s")
    return sample_state(view, rng, seed=rng.below(2**31), belief=belief)
