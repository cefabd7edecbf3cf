"""Stop's fixed action indices and its observation encoder (docs/rl.md, "Stop").

Actions. ``Discrete(1116)``; an index names one records.md §4.3 action line *without* its
seat, so the same index means the same thing for every seat, seat count and ruleset
(the mask says what is legal now). In order:

====================  =====  ==================================================================
block                 size   index layout
====================  =====  ==================================================================
play ``[c]``          384    per coloured card ``c`` (52, canonical order R0..RDrawX, B.., G..,
                             Y..): 4 call sets x (1, or 12 modes for a Card Exchange)
play ``[FC, c]``      384    the same, for a Free Choice pair whose second card is ``c``
interject ``c``       160    40 number cards x 4 call sets
cancel ``c``          16     4 zeros x 4 call sets
accept                164    4 call sets x (no reveal, or ``reveal_play`` one of 40 number cards)
draw                  4      4 call sets
pass                  1
call_achtung          1
call_stop             1
decline               1      let an S-61 interjection or cancel offer (or a ja call) go by
====================  =====  ==================================================================

Call sets are ``[]``, ``[achtung]``, ``[stop]``, ``[achtung, stop]``; the 12 exchange modes
are no mode, ``left``, ``right`` and ``swap`` with the target 1..9 seats clockwise from the
player (a target past the table does not exist at that seat count and is never legal).

The card vocabulary is the card notation of records.md §4.1 (colour letter + rank, the
symbols, ``FC``), checked against ``spec.facts["card_codes"]``; an index becomes an action
only through ``spec.action_from_json``, and an action an index only through its JSON line.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from stoptable.core.driver import Decline
from stoptable.core.game import GameSpec
from stoptable.core.protocol import JSON
from stoptable.games import spec
from stoptable.games.stop.cards import BY_ORDER, Card
from stoptable.rl.common import MASK_DTYPE

if TYPE_CHECKING:
    from stoptable.games.stop.ruleset import Ruleset
    from stoptable.games.stop.state import StopState

COLOURS: Final = ("R", "B", "G", "Y")
RANKS: Final = (*(str(r) for r in range(10)), "Skip", "Exch", "DrawX")
COLOURED: Final = tuple(c + r for c in COLOURS for r in RANKS)
"""The 52 coloured codes in canonical order (records.md §4.1)."""
CODES: Final = (*COLOURED, "FC")
"""All 53 card codes; ``CODES.index(code)`` is a card plane's index."""
CODE_INDEX: Final = {code: i for i, code in enumerate(CODES)}
NUMBERS: Final = tuple(c for c in COLOURED if c[1:].isdigit())
ZEROS: Final = tuple(c for c in COLOURED if c[1:] == "0")
CALLSETS: Final[tuple[tuple[str, ...], ...]] = ((), ("achtung",), ("stop",), ("achtung", "stop"))
FACTS: Final = spec("stop").facts
MAX_SEATS: Final = int(FACTS["max_seats"])
"""Seat planes and swap targets are sized for the most seats any ruleset allows (10)."""
if len(CALLSETS) != FACTS["call_sets"] or len(CODES) != FACTS["card_codes"]:
    raise RuntimeError("the Stop action vocabulary no longer matches spec('stop').facts")
if tuple(card.code for card in BY_ORDER) != CODES:
    raise RuntimeError("a card's order no longer is its code's index (StateEncoder reads it)")
MODES: Final[tuple[tuple[str | None, int | None], ...]] = (
    (None, None),
    ("left", None),
    ("right", None),
    *(("swap", k) for k in range(1, MAX_SEATS)),
)
"""Exchange modes: (mode, swap target counted clockwise from the player)."""

Key = tuple[Any, ...]
"""An action line without its seat, as a hashable value (relative swap target)."""


def _calls_index(calls: list[str]) -> int:
    return ("achtung" in calls) + 2 * ("stop" in calls)


def _build() -> list[Key]:
    keys: list[Key] = []
    for pair in (False, True):
        for code in COLOURED:
            cards = ("FC", code) if pair else (code,)
            modes = MODES if code.endswith("Exch") else MODES[:1]
            for ci in range(4):
                for mode, target in modes:
                    keys.append(("play", cards, ci, mode, target))
    keys += [("interject", code, ci) for code in NUMBERS for ci in range(4)]
    keys += [("cancel", code, ci) for code in ZEROS for ci in range(4)]
    keys += [("accept", ci, reveal) for ci in range(4) for reveal in (None, *NUMBERS)]
    keys += [("draw", ci) for ci in range(4)]
    keys += [("pass",), ("call_achtung",), ("call_stop",), ("decline",)]
    return keys


KEYS: Final = tuple(_build())
"""Index -> action key; the table of the module docstring."""
INDEX: Final = {key: i for i, key in enumerate(KEYS)}
N_ACTIONS: Final = len(KEYS)
DECLINE: Final = INDEX[("decline",)]


def key_of(line: Mapping[str, JSON], seats: int) -> Key:
    """The key of an action's records.md line (its ``seat`` makes a swap target relative)."""
    kind = line["type"]
    calls = _calls_index(line.get("calls", []))
    if kind == "play":
        target = line.get("target")
        rel = None if target is None else (target - line["seat"]) % seats
        return ("play", tuple(line["cards"]), calls, line.get("mode"), rel)
    if kind in ("interject", "cancel"):
        return (kind, line["card"], calls)
    if kind == "accept":
        return ("accept", calls, line.get("reveal_play"))
    if kind == "draw":
        return ("draw", calls)
    return (kind,)


def line_of(index: int, seat: int, seats: int) -> dict[str, JSON] | None:
    """The action line (without ``seat``) of ``index`` for ``seat``; None for the decline
    and for a swap target that does not exist at this seat count."""
    key = KEYS[index]
    kind = key[0]
    if kind == "play":
        _, cards, ci, mode, rel = key
        line: dict[str, JSON] = {"type": "play", "cards": list(cards), "calls": list(CALLSETS[ci])}
        if mode is not None:
            line["mode"] = mode
        if rel is not None:
            if rel >= seats:
                return None
            line["target"] = (seat + rel) % seats
        return line
    if kind in ("interject", "cancel"):
        return {"type": kind, "card": key[1], "calls": list(CALLSETS[key[2]])}
    if kind == "accept":
        line = {"type": "accept", "calls": list(CALLSETS[key[1]])}
        if key[2] is not None:
            line["reveal_play"] = key[2]
        return line
    if kind == "draw":
        return {"type": "draw", "calls": list(CALLSETS[key[1]])}
    if kind == "decline":
        return None
    return {"type": kind}


class ActionCodec:
    """Index <-> action for one game of ``seats`` seats (caches each action's index)."""

    def __init__(self, spec: GameSpec, seats: int) -> None:
        if len(CODES) != spec.facts["card_codes"]:
            raise RuntimeError("the Stop card vocabulary no longer matches spec.facts")
        self.spec = spec
        self.seats = seats
        self._index: dict[Any, int] = {}
        self._by_id: dict[int, int] = {}
        self._kept: list[Any] = []
        """The actions whose ids ``_by_id`` holds, kept alive so that no id is reused."""

    def __getstate__(self) -> dict[str, Any]:
        """The codec for a copy or a pickle, without its identity cache: the ids in
        ``_by_id`` name this codec's objects in this process, and a copy holds other
        objects (copies, or new ones in another process) whose addresses a later action
        could take, reading a wrong index. The copy finds each index again by value (the
        ``_index`` cache, which travels) the first time it meets an action."""
        state = self.__dict__.copy()
        state["_by_id"] = {}
        state["_kept"] = []
        return state

    def index(self, action: Any) -> int:
        """The index of an engine action (or of a driver's decline)."""
        found = self._index.get(action)
        if found is None:
            if isinstance(action, Decline):
                found = DECLINE
            else:
                found = INDEX[key_of(action.to_json(), self.seats)]
            self._index[action] = found
        return found

    def action(self, index: int, seat: int) -> Any:
        """The engine action of ``index`` for ``seat`` (None for decline or no such action)."""
        line = line_of(index, seat, self.seats)
        return None if line is None else self.spec.action_from_json(line, seat)

    def indexed(self, legal: list[Any]) -> dict[int, Any]:
        """The action behind each index of a legal list (the first listed, in list order).

        The move generator hands out shared action objects (``action_cache``), so an
        action's index is looked up by identity (``_kept`` keeps every action looked up
        alive, so an identity cannot be confused with a later object's); its value is
        hashed only the first time. (Keeping whole masks per legal list was tried: it cost
        more than it saved, measured in instructions and cache misses per step.)
        """
        by_id = self._by_id
        if len(by_id) >= _KEPT:  # actions built on the fly (ja reveals, calls, declines)
            by_id.clear()
            self._kept.clear()
        chosen: dict[int, Any] = {}
        for action in legal:
            i = by_id.get(id(action))
            if i is None:  # (an id found is that action's: _kept holds every one listed)
                i = DECLINE if type(action) is Decline else self.index(action)
                by_id[id(action)] = i
                self._kept.append(action)
            if i not in chosen:
                chosen[i] = action
        return chosen

    def mask(self, legal: list[Any]) -> tuple[np.ndarray, dict[int, Any]]:
        """The action mask of a legal list and :meth:`indexed` (the batched env writes
        every game's mask into one array from ``indexed`` alone). :meth:`indexed` is
        written out here: the env masks at every step, and the call was a frame more."""
        by_id = self._by_id
        if len(by_id) >= _KEPT:
            by_id.clear()
            self._kept.clear()
        chosen: dict[int, Any] = {}
        for action in legal:
            i = by_id.get(id(action))
            if i is None:
                i = DECLINE if type(action) is Decline else self.index(action)
                by_id[id(action)] = i
                self._kept.append(action)
            if i not in chosen:
                chosen[i] = action
        mask = np.zeros(N_ACTIONS, _MASK)  # dtype by position: the keyword costs more
        if len(chosen) > 16:
            mask[list(chosen)] = 1
        else:  # item stores beat building a list for a fancy index (2 us vs 4 us for 5)
            for i in chosen:
                mask[i] = 1
        return mask, chosen


_MASK: Final = np.dtype(MASK_DTYPE)
_KEPT: Final = 1 << 16
"""Actions whose index :meth:`ActionCodec.mask` keeps by identity before it starts again
(a few thousand shared ones exist per game shape)."""


# ---------------------------------------------------------------------- observations

PENDING_KINDS: Final = ("draw2", "skip", "drawx", "exchange")
PHASES: Final = ("playing", "closing", "round_over", "game_over")
EXCHANGE_NAMES: Final = ("left", "right", "swap")

PLANES: Final[tuple[tuple[str, int], ...]] = (
    ("hand: own cards per code / 8", 53),
    ("top: the top card, one-hot by code", 53),
    ("discard: cards on the discard pile per code / 8", 53),
    ("drawn: the card this seat just drew (S-14), one-hot", 53),
    ("revealed: the last ja Draw X reveal (S-44), per code / 8", 53),
    ("revealed_by: who revealed, relative seat one-hot", MAX_SEATS),
    ("hand_sizes: per relative seat / 111", MAX_SEATS),
    ("totals: per relative seat / (2 x target_score)", MAX_SEATS),
    ("seated: 1 for each relative seat that exists", MAX_SEATS),
    ("turn: relative seat one-hot", MAX_SEATS),
    ("dealer: relative seat one-hot", MAX_SEATS),
    ("pending: kind one-hot (draw2, skip, drawx, exchange)", 4),
    ("pending_count: count / 20", 1),
    ("pending_colour: R, B, G, Y one-hot", 4),
    ("pending_victim: relative seat one-hot", MAX_SEATS),
    ("pending_exchanger: relative seat one-hot", MAX_SEATS),
    ("pending_mode: left, right, swap one-hot", 3),
    ("pending_target: relative seat one-hot", MAX_SEATS),
    ("achtung_open: ja obligations per relative seat", MAX_SEATS),
    ("late_stop_open: ja late-Stop windows per relative seat", MAX_SEATS),
    ("obligation_placed: cards placed since, per relative seat / 2", MAX_SEATS),
    ("phase: playing, closing, round_over, game_over one-hot", 4),
    ("draw_size: / 112", 1),
    ("consecutive_passes: / 10", 1),
    ("round: / 50", 1),
    ("ruleset: one-hot in spec.rulesets order", 2),
)
"""The observation vector, plane by plane (name: meaning, width), as docs/rl.md lists it."""
OBS_SIZE: Final = sum(width for _, width in PLANES)


OFFSETS: Final = {
    name.partition(":")[0]: sum(w for _, w in PLANES[:i]) for i, (name, _) in enumerate(PLANES)
}
"""Where each plane starts in the vector."""
_HAND, _TOP, _DISCARD, _DRAWN, _REVEALED, _REVEALED_BY = (
    OFFSETS[k] for k in ("hand", "top", "discard", "drawn", "revealed", "revealed_by")
)
_DISCARD_END: Final = _DISCARD + len(CODES)
"""Where the discard plane ends (read at every encode)."""
_SIZES, _TOTALS, _SEATED, _TURN, _DEALER = (
    OFFSETS[k] for k in ("hand_sizes", "totals", "seated", "turn", "dealer")
)
_PENDING, _COUNT, _COLOUR, _VICTIM, _EXCHANGER, _MODE, _TARGET = (
    OFFSETS[k]
    for k in (
        "pending",
        "pending_count",
        "pending_colour",
        "pending_victim",
        "pending_exchanger",
        "pending_mode",
        "pending_target",
    )
)
_ACHTUNG, _LATE, _PLACED, _PHASE, _DRAW_SIZE, _PASSES, _ROUND, _RULESET = (
    OFFSETS[k]
    for k in (
        "achtung_open",
        "late_stop_open",
        "obligation_placed",
        "phase",
        "draw_size",
        "consecutive_passes",
        "round",
        "ruleset",
    )
)
if _HAND != 0:
    raise RuntimeError("StateEncoder writes the hand plane at a card's order: it must come first")
_PHASE_INDEX: Final = {phase: i for i, phase in enumerate(PHASES)}
_PENDING_INDEX: Final = {kind: i for i, kind in enumerate(PENDING_KINDS)}
_COLOUR_INDEX: Final = {colour: i for i, colour in enumerate(COLOURS)}
_MODE_INDEX: Final = {mode: i for i, mode in enumerate(EXCHANGE_NAMES)}


def encode(view: Mapping[str, JSON], rulesets: tuple[str, ...]) -> np.ndarray:
    """The observation of a seat's view (``state.view(seat)``); reads nothing else.

    Written flat into a Python list (one numpy conversion at the end): environments
    encode once per step, so this is on the hot path of every training loop.
    """
    me = view["seat"]
    n = view["seats"]
    v = [0.0] * OBS_SIZE
    ci = CODE_INDEX
    for code in view["hand"]:
        v[_HAND + ci[code]] += 0.125
    top = view["top"]
    if top is not None:
        v[_TOP + ci[top]] = 1.0
    for code, count in Counter(view["discard"]).items():
        v[_DISCARD + ci[code]] = count * 0.125
    drawn = view["drawn"]
    if drawn is not None:
        v[_DRAWN + ci[drawn]] = 1.0
    reveal = view["last_reveal"]
    if reveal is not None:
        for code in reveal["hand"]:
            v[_REVEALED + ci[code]] += 0.125
        v[_REVEALED_BY + (reveal["seat"] - me) % n] = 1.0
    sizes = view["hand_sizes"]
    totals = view["totals"]
    scale = 1.0 / (2 * max(int(view["target_score"]), 1))
    for k in range(n):
        s = (me + k) % n
        v[_SIZES + k] = sizes[s] / 111
        v[_TOTALS + k] = min(totals[s] * scale, 1.0)
        v[_SEATED + k] = 1.0
    turn = view["turn"]
    if turn is not None:
        v[_TURN + (turn - me) % n] = 1.0
    dealer = view["dealer"]
    if dealer is not None:
        v[_DEALER + (dealer - me) % n] = 1.0
    pending = view["pending"]
    if pending is not None:
        v[_PENDING + _PENDING_INDEX[pending["kind"]]] = 1.0
        v[_COUNT] = min(pending.get("count", 0) / 20, 1.0)
        colour = pending.get("colour")
        if colour is not None:
            v[_COLOUR + _COLOUR_INDEX[colour]] = 1.0
        for offset, key in ((_VICTIM, "victim"), (_EXCHANGER, "exchanger"), (_TARGET, "target")):
            seat = pending.get(key)
            if seat is not None:
                v[offset + (seat - me) % n] = 1.0
        mode = pending.get("mode")
        if mode is not None:
            v[_MODE + _MODE_INDEX[mode]] = 1.0
    for ob in view["obligations"]:
        k = (ob["seat"] - me) % n
        v[(_ACHTUNG if ob["kind"] == "achtung" else _LATE) + k] = 1.0
        v[_PLACED + k] = max(v[_PLACED + k], min(ob["placed"] / 2, 1.0))
    v[_PHASE + _PHASE_INDEX[view["phase"]]] = 1.0
    v[_DRAW_SIZE] = view["draw_size"] / 112
    v[_PASSES] = min(view["consecutive_passes"] / 10, 1.0)
    v[_ROUND] = min(view["round"] / 50, 1.0)
    ruleset = view["ruleset"]
    if ruleset in rulesets:
        v[_RULESET + rulesets.index(ruleset)] = 1.0
    return np.array(v, dtype=np.float32)


_ZEROS: Final = array("f", bytes(4 * OBS_SIZE))
_NO_CARDS: Final = array("f", bytes(4 * len(CODES)))
_PENDING_OF: Final = {kind: _PENDING + i for i, kind in enumerate(PENDING_KINDS)}
_MODE_OF: Final = {mode: _MODE + i for i, mode in enumerate(EXCHANGE_NAMES)}
_PHASE_AT: Final = {phase: _PHASE + i for i, phase in enumerate(PHASES)}
_FLOAT32: Final = np.dtype(np.float32)
_RELATIVE: Final = [[tuple((s - me) % n for s in range(n)) for me in range(n)] for n in range(11)]
"""``_RELATIVE[n][me][seat]``: ``seat`` counted clockwise from ``me`` at ``n`` seats."""
_ROTATION: Final = [[tuple((me + k) % n for k in range(n)) for me in range(n)] for n in range(11)]
"""``_ROTATION[n][me]``: the seats in relative order (``me`` first)."""
_SIZE_AT: Final = [
    [tuple(zip(range(_SIZES, _SIZES + n), rotation, strict=True)) for rotation in seats]
    for n, seats in enumerate(_ROTATION)
]
"""``_SIZE_AT[n][me]``: (where its hand size goes, seat) per seat in relative order; the
encoder's per-seat loop then adds no offsets and counts nothing."""
_RoundTemplate = tuple["Ruleset", int, int, list[int], np.ndarray]
# NDARRAY-BUFFER: the lines marked so ignore mypy because numpy's stubs do not declare
# ``ndarray`` a ``Buffer`` on Python 3.11 (no ``__buffer__`` before 3.12), yet
# ``memoryview(a)`` of a float32 array, and a memoryview's slice assigned from one, work
# (format 'f'); a ``cast`` would be a call more on every encode.
"""What :meth:`StateEncoder._round_template` made it from (rules, round, dealer, totals),
then the template."""


class StateEncoder:
    """:func:`encode` of a seat, read from the state itself (what the Stop env uses).

    The same vector as ``encode(state.view(seat), rulesets)``, plane for plane, and it reads
    only what that view shows (``views.seat_view``): the seat's own hand, every hand's
    *size*, the discard pile, the draw pile's size, the drawn card only to the seat on turn
    (tests check both: equal vectors at every step of random games in both rulesets, and
    unchanged vectors when every card the seat cannot see is redealt). It skips the view
    because an environment encodes at every step and the JSON view (the event log alone is
    a few dozen dicts) costs more than the rest of the step:

    * cards are interned objects whose ``order`` is their code's index (checked at import);
      the hand plane adds 1/8 per card straight from the hand (no sorted copy; keeping it
      per seat and adding or taking away only the cards drawn or played since was tried:
      fewer instructions, about 3% more CPU time per env step, measured in one process);
    * the vector is a float32 ``ndarray`` copied from a template (``seated`` and
      ``ruleset`` already set for the table's ruleset and seat count; numpy's copy is
      cheaper than an ``array`` copy wrapped by ``np.frombuffer``), written through a
      memoryview (its item store converts the float directly; the array's own parses it,
      about a hundred instructions more per store); relative seats are looked up;
    * the discard plane is kept from the previous call and only the cards appended since
      are added while the pile is the same list object: the engine changes a pile in place
      only by appending and gives it a new list for anything else (a reshuffle, a late
      Stop, a new round, a restore; ``StopState.discard``), so a new object makes it
      recount. The encoder holds the list it counted, so its identity cannot be reused.
      One encoder per env;
    * the planes that change only between rounds (``seated``, ``ruleset``, ``totals``,
      ``dealer``, ``round``) come written in a template kept per seat, made again when
      the rules object, the round, the dealer or the totals (compared by value) differ
      from what it was made for: the seat is observed at every step, these planes change
      a few times a game, and writing them cost about a tenth of an encode.
    """

    __slots__ = ("_count", "_pile", "_plane", "_rounds", "rulesets")

    def __init__(self, rulesets: tuple[str, ...]) -> None:
        self.rulesets = rulesets
        self._pile: list[Card] | None = None
        self._count = 0
        self._plane = _NO_CARDS[:]
        self._rounds: list[_RoundTemplate | None] = [None] * MAX_SEATS

    def _round_template(self, st: StopState, me: int) -> _RoundTemplate:
        """Seat ``me``'s planes that stay for a round (see the class doc), made anew."""
        n = st.seats
        rules = st.rules
        v = _ZEROS[:]
        for k in range(n):
            v[_SEATED + k] = 1.0
        if rules.name in self.rulesets:
            v[_RULESET + self.rulesets.index(rules.name)] = 1.0
        target_score = rules.target_score
        scale = 1.0 / (2 * target_score) if target_score > 1 else 0.5
        totals = st.totals
        for k, s in enumerate(_ROTATION[n][me]):
            total = totals[s] * scale
            v[_TOTALS + k] = total if total < 1.0 else 1.0
        v[_DEALER + _RELATIVE[n][me][st.dealer]] = 1.0
        rnd = st.round
        v[_ROUND] = rnd / 50 if rnd < 50 else 1.0
        made = self._rounds[me] = (rules, rnd, st.dealer, totals[:], np.array(v, _FLOAT32))
        return made

    def _discard_plane(self, pile: list[Card]) -> array[float]:
        """Cards per code / 8 of ``pile``: the last call's plane plus the cards appended
        since, or counted afresh for another pile (see the class doc)."""
        seen = self._count
        if pile is self._pile and len(pile) >= seen:
            plane = self._plane
            for i in range(seen, len(pile)):
                plane[pile[i].order] += 0.125
        else:
            plane = self._plane = _NO_CARDS[:]
            for card in pile:
                plane[card.order] += 0.125
            self._pile = pile
        self._count = len(pile)
        return plane

    def encode(self, st: StopState, me: int) -> np.ndarray:
        """The observation vector of seat ``me`` (docs/rl.md)."""
        made = self._rounds[me]  # _template written out: the env encodes at every step
        if (
            made is None
            or made[0] is not st.rules
            or made[1] != st.round
            or made[2] != st.dealer
            or made[3] != st.totals
        ):
            made = self._round_template(st, me)
        out: np.ndarray = made[4].copy()
        v: memoryview[float] = memoryview(out)  # type: ignore[arg-type]  # NDARRAY-BUFFER
        for card in st.hands[me]:
            v[card.order] += 0.125  # _HAND is 0
        self._fill(v, st, me)
        return out

    def encode_into(self, st: StopState, me: int, row: memoryview[float]) -> None:
        """:meth:`encode` written into ``row``, a memoryview of a float32 row of
        :data:`OBS_SIZE` (the batched env's buffer: no vector of its own, no copy)."""
        row[:] = self._template(st, me)  # type: ignore[call-overload]  # NDARRAY-BUFFER
        for card in st.hands[me]:
            row[card.order] += 0.125  # _HAND is 0
        self._fill(row, st, me)

    def encode_into_but_hand(self, st: StopState, me: int, row: memoryview[float]) -> list[Card]:
        """:meth:`encode_into` but the hand plane, left zero; the hand, for
        :func:`write_hand_planes` (the batched env writes every game's hand plane in one
        numpy pass: card by card through the memoryview it was a fifth of an encode)."""
        row[:] = self._template(st, me)  # type: ignore[call-overload]  # NDARRAY-BUFFER
        self._fill(row, st, me)
        return st.hands[me]

    def _template(self, st: StopState, me: int) -> np.ndarray:
        """Seat ``me``'s template of this round (:meth:`_round_template`, kept)."""
        made = self._rounds[me]
        if (
            made is None
            or made[0] is not st.rules
            or made[1] != st.round
            or made[2] != st.dealer
            or made[3] != st.totals
        ):
            made = self._round_template(st, me)
        return made[4]

    def _fill(self, v: memoryview[float], st: StopState, me: int) -> None:
        """Write the planes that change within a round, but the hand plane, over the
        template in ``v``."""
        n = st.seats
        rel = _RELATIVE[n][me]
        hands = st.hands
        discard = st.discard
        if discard:
            plane = (
                self._plane
                if discard is self._pile and len(discard) == self._count
                else self._discard_plane(discard)
            )
            v[_TOP + discard[-1].order] = 1.0
            v[_DISCARD:_DISCARD_END] = plane
        turn = st.turn
        drawn = st.drawn
        if drawn is not None and me == turn:
            v[_DRAWN + drawn.order] = 1.0
        reveal = st.last_reveal
        if reveal is not None:
            ci = CODE_INDEX
            for code in reveal[1]:
                v[_REVEALED + ci[code]] += 0.125
            v[_REVEALED_BY + rel[reveal[0]]] = 1.0
        for at, s in _SIZE_AT[n][me]:
            v[at] = len(hands[s]) / 111
        if turn is not None:
            v[_TURN + rel[turn]] = 1.0
        pending = st.pending
        if pending is not None:  # the fields of Pending.to_json, which the view shows
            kind = pending.kind
            v[_PENDING_OF[kind]] = 1.0
            if pending.colour >= 0:
                v[_COLOUR + pending.colour] = 1.0
            if kind == "exchange":
                if pending.exchanger is not None:
                    v[_EXCHANGER + rel[pending.exchanger]] = 1.0
                if pending.target is not None:
                    v[_TARGET + rel[pending.target]] = 1.0
                if pending.mode is not None:
                    v[_MODE_OF[pending.mode]] = 1.0
            else:
                if kind != "drawx":
                    v[_COUNT] = min(pending.count / 20, 1.0)
                if pending.victim is not None:
                    v[_VICTIM + rel[pending.victim]] = 1.0
        for ob in st.obligations:  # (the view sorts them; the planes do not depend on it)
            k = rel[ob.seat]
            v[(_ACHTUNG if ob.kind == "achtung" else _LATE) + k] = 1.0
            v[_PLACED + k] = max(v[_PLACED + k], min(ob.placed / 2, 1.0))
        v[_PHASE_AT[st.phase]] = 1.0
        v[_DRAW_SIZE] = len(st.draw) / 112
        passes = st.consecutive_passes
        v[_PASSES] = passes / 10 if passes < 10 else 1.0


_CARD_CODES: Final = len(CODES)
if _CARD_CODES > 256:
    raise RuntimeError("write_hand_planes packs card orders into bytes: at most 256 codes")


def write_hand_planes(obs: np.ndarray, hands: Sequence[list[Card]]) -> None:
    """Row ``i`` of ``obs`` gets the hand plane of ``hands[i]`` (own cards per code / 8,
    as :meth:`StateEncoder.encode_into` writes it, to the bit: ``k / 8`` is exact), over
    whatever the plane held. One pass for the whole batch: the cards' orders gathered
    into bytes (a code's order is below 256), counted per row by one ``bincount``: about
    4,600 instructions a game against 7,500 card by card through a row's memoryview
    (callgrind, 256 hands of 7 to 15 cards), plus a dozen microseconds a call."""
    rows = len(hands)
    orders = np.frombuffer(bytes([card.order for hand in hands for card in hand]), np.uint8)
    at = orders + np.repeat(np.arange(0, rows * _CARD_CODES, _CARD_CODES), list(map(len, hands)))
    counts = np.bincount(at, minlength=rows * _CARD_CODES)
    obs[:, _HAND : _HAND + _CARD_CODES] = counts.reshape(rows, _CARD_CODES) * 0.125
