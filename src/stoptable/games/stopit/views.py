"""What one seat may know (I-38, IA-20), as plain JSON data.

Public: the top card and height of every stack, every hand's *contents* (grabs are public,
so each seat's cards per kind) and held card, scores and supply, the interruption, the
last evaluation, and the hands in the order the last evaluation showed them (``revealed``).
Private: a hand's current *order*, shown only to its owner (``hand``).

The public part is built once per state change and shared by every seat's view (the clock
and the seat's own hand are added per call), so views stay cheap for simulations; its
``tops`` and ``stack_sizes`` lists are shared further until a stack changes, and its
``hand_sizes`` and ``hand_kinds`` until a hand gains or loses a card. Treat a view as
read-only.

Keys: first the header every game's view starts with (``core.protocol.view_header``):
``game`` (``"stopit"``), ``ruleset``, ``seats``, ``phase``, ``seat`` (None: spectator).
Then ``clock``; ``tops`` (top card id or None per stack) and ``stack_sizes``; ``hand``
(own hand in order; None for a spectator) and ``held`` (own held card); ``hand_sizes``,
``hand_kinds`` (per seat ``{kind: count}`` in canonical kind order) and ``held_cards``
(every seat's held card); ``revealed`` (the hands as the last evaluation showed them, or
None); ``supply``, ``minus_cards``, ``extra_points``, ``scores``; ``go_seat``,
``go_after`` (Go accepted from this time) and ``go_deadline`` (the Go timeout), all three
None unless ``waiting_go``; ``interrupt``, ``removed``, ``last_evaluation`` and
``winners`` as in records.md §5.5.

:func:`lean_look` is the part of a view that the simulator's bots read (:data:`LEAN_KEYS`),
the same values as a tuple (:data:`LeanLook`), built without the slow-changing table part
and without a dict: a simulated game looks at the table for a bot about 250 times, and
building whole views was about a sixth of the simulator's time.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Final, TypeAlias

from mypy_extensions import mypyc_attr

from stoptable.core.protocol import JSON, view_header
from stoptable.games.stopit.actions import stack_name
from stoptable.games.stopit.cards import COMPILED, is_stop_kind

if TYPE_CHECKING:
    from stoptable.games.stopit.state import StopItState


_PER_CHANGE: Final = ("tops", "stack_sizes", "hand_sizes", "hand_kinds", "held_cards")
_PER_VIEW: Final = ("clock", "hand", "held")


def table_part(state: StopItState) -> dict[str, JSON]:
    """The public keys that change only when the phase changes or points are handed out,
    the view header first (its ``seat`` is set per view).

    The keys :func:`public_part` and :func:`view` fill in follow as None, in the order of
    the view, so that each of those copies this dict whole (a copy of a dict is one block
    copy) and only overwrites values: no key is added, the copy never grows.
    """
    interrupt = state.interrupt
    over = state.phase == "game_over" and state.outcome is not None
    waiting = state.phase == "waiting_go"
    data: dict[str, JSON] = dict(
        view_header("stopit", state.ruleset.name, state.seats, state.phase, None)
    )
    data.update(
        revealed=state.revealed,
        supply=state.supply,
        minus_cards=list(state.minus_cards),
        extra_points=list(state.extra_points),
        scores=state.scores,
        go_seat=state.go_seat if waiting else None,
        go_after=state.go_after if waiting else None,
        go_deadline=state.go_deadline if waiting else None,
        interrupt=None
        if interrupt is None
        else {"card": interrupt[0], "by": interrupt[1], "deadline": interrupt[2]},
        removed=list(state.removed),
        last_evaluation=state.last_evaluation,
        winners=list(state.outcome.winners) if over and state.outcome else None,
    )
    data.update(dict.fromkeys(_PER_CHANGE + _PER_VIEW))
    return data


def public_part(state: StopItState) -> dict[str, JSON]:
    """Everything public, the slow-changing table part taken from its cache when valid
    (``clock``, ``hand`` and ``held`` are left None for :func:`view`)."""
    table = state._table
    if table is None:
        table = state._table = table_part(state)
    data = table.copy()
    data["tops"] = state._tops or tops_part(state)
    data["stack_sizes"] = list(map(len, state.stacks))
    data["hand_sizes"] = list(map(len, state.hands))
    data["hand_kinds"] = state._hand_kinds or hand_kinds_part(state)
    data["held_cards"] = state.held.copy()
    return data


# The tops and the hands' kind counts are shared by every view and lean look until a stack
# or a hand's contents change; like the rest of a view they are never changed once handed
# out. Callers read the state's cached list first (``state._tops or tops_part(state)``: a
# list with an entry per stack or seat is true), so that a valid part costs no call. The
# sizes are counted per public part instead: the bots' lean looks, far the most, read none.


def tops_part(state: StopItState) -> list[str | None]:
    """``tops``, cached on the state until a stack changes."""
    stacks = state.stacks
    if COMPILED:  # a native loop; map's itemgetter is a generic call, IndexError a raise
        tops: list[str | None] = [cards[-1] if cards else None for cards in stacks]
        state._tops = tops
        return tops
    try:
        tops = list(map(_TOP, stacks))  # in C while no stack is empty
    except IndexError:
        tops = []
        for cards in stacks:  # a loop, not a comprehension: no function object to make
            tops.append(cards[-1] if cards else None)
    state._tops = tops
    return tops


_TOP: Final = itemgetter(-1)


@mypyc_attr(native_class=False)  # a list subclass: mypyc makes no native one
class KindCounts(list[dict[str, int]]):
    """``hand_kinds`` as views and lean looks show it, a list (JSON writes it as one),
    carrying the same counts int-coded in ``rows`` (the state's :attr:`StopItState.rows`
    when it was made: per seat, the colour cards per colour of ``COLOURS``, then their
    total), so that a bot weighs colours by list index instead of looking kinds up in
    dicts. Read-only, like a view; a view made elsewhere (JSON) has a plain list."""

    __slots__ = ("rows",)  # no instance dict to make per change of a hand

    rows: list[list[int]]


def hand_kinds_part(state: StopItState) -> list[dict[str, int]]:
    """``hand_kinds``, cached on the state until a hand gains or loses a card. The kind
    counts (and rows) are the state's own, shared: the engine never changes a count dict
    or a row once made, it makes a new one (engine._add), so no copies are needed."""
    kinds = KindCounts(state.counts)
    kinds.rows = state.rows.copy()
    state._hand_kinds = kinds
    return kinds


def view(state: StopItState, seat: int | None) -> dict[str, JSON]:
    """The view of ``seat`` (None: a spectator, who sees no hand order)."""
    public = state._public
    if public is None:
        public = state._public = public_part(state)
    data = public.copy()
    data["clock"] = state.clock
    data["seat"] = seat
    if seat is not None:
        data["hand"] = state.hands[seat].copy()
        data["held"] = state.held[seat]
    return data


LEAN_KEYS: Final = (
    "phase",
    "tops",
    "hand",
    "held",
    "hand_kinds",
    "held_cards",
    "go_seat",
    "go_after",
)
"""The keys of the view that the simulator's bots read: :data:`LeanLook`'s fields, in
its order."""

LeanLook: TypeAlias = tuple[
    str,
    list[str | None],
    list[str],
    str | None,
    list[dict[str, int]],
    list[str | None],
    int | None,
    int | None,
]
"""The values of :data:`LEAN_KEYS` in a seat's view, in that order: ``(phase, tops, hand,
held, hand_kinds, held_cards, go_seat, go_after)``. Read-only, like a view."""


def lean_look(state: StopItState, seat: int) -> LeanLook:
    """``lean_of(view(state, seat))`` (I-38: the seat's own hand and held card, the rest
    public), for the bots that read nothing else, built without a view.

    A simulated game looks at the table for a bot about 250 times, about 1.5 looks per
    change of the table, so nothing per look is worth sharing; what is saved is the
    dict: no table part (scores, the last evaluation, ...), no key to insert and no dict
    to release, the bot unpacks the tuple. The hand and ``held_cards`` are the state's
    own lists, not copies: the bot must neither change them nor keep them (they change
    with the game; a bot copies what it keeps). ``tops`` and ``hand_kinds`` are shared
    as in views.
    """
    phase = state.phase
    waiting = phase == "waiting_go"
    return (
        phase,
        state._tops or tops_part(state),
        state.hands[seat],
        state.held[seat],
        state._hand_kinds or hand_kinds_part(state),
        state.held,
        state.go_seat if waiting else None,
        state.go_after if waiting else None,
    )


def lean_of(view: dict[str, JSON]) -> LeanLook:
    """The lean look of a whole view (a bot shown whole views decides from this)."""
    return (
        view["phase"],
        view["tops"],
        view["hand"],
        view["held"],
        view["hand_kinds"],
        view["held_cards"],
        view["go_seat"],
        view["go_after"],
    )


# ------------------------------------------------------------------ legal lines

_GO: Final[dict[str, JSON]] = {"type": "go"}
_INSERTS: Final[list[dict[str, JSON]]] = [{"type": "insert", "pos": p} for p in range(64)]
"""The insert lines by index, shared (a hand holds far fewer cards than this)."""


def legal_lines(state: StopItState, seat: int) -> list[dict[str, JSON]]:
    """``[line_of(r) for r in state.legal_actions(seat)]`` (the client lines: ``to_json()``
    without ``seat`` and ``t``), in the same order, built without the requests.

    A server sends every seated person its legal lines after every change (protocol §3),
    four lists a change, and building the stamped requests to strip their stamps cost more
    than the views. The lines of the stacks (a Stop call and a grab per stack) are the same
    for every seat that holds no card, and those of the seats that hold one (the calls only)
    too: both are listed once per change of the stacks' top cards and shared, like the
    insert lines. Read-only, like a view.
    """
    phase = state.phase
    if phase == "game_over":
        return []
    held = state.held[seat]
    hand = state.hands[seat]
    out: list[dict[str, JSON]] = []
    if held is not None:
        size = len(hand) + 1
        out += _INSERTS[:size] if size <= len(_INSERTS) else _inserts(size)
    if phase == "waiting_go":
        if seat == state.go_seat and state.clock >= state.go_after:
            out.append(_GO)
        return out
    if phase != "running":
        return out
    tops = state._tops or tops_part(state)
    cached = state._lines
    if cached is None or cached[0] is not tops:
        cached = state._lines = (tops, *_stack_lines(state, tops))
    if held is None:
        out += cached[1]
        kinds = state.kinds
        for card in hand:
            if is_stop_kind(kinds[card]):
                out.append({"type": "play_stop", "card_id": card})
    else:
        out += cached[2]
    return out


def _inserts(size: int) -> list[dict[str, JSON]]:
    return [{"type": "insert", "pos": p} for p in range(size)]


def _stack_lines(
    state: StopItState, tops: list[str | None]
) -> tuple[list[dict[str, JSON]], list[dict[str, JSON]]]:
    """The stacks' lines for a seat without a held card (calls and grabs) and with one
    (calls only), in stack order."""
    free: list[dict[str, JSON]] = []
    holding: list[dict[str, JSON]] = []
    kinds = state.kinds
    for index, top in enumerate(tops):
        if top is None:
            continue
        name = stack_name(index)
        if is_stop_kind(kinds[top]):
            call: dict[str, JSON] = {"type": "call_stop", "stack": name, "expect_id": top}
            free.append(call)
            holding.append(call)
        free.append({"type": "grab", "stack": name, "expect_id": top})
    return free, holding
