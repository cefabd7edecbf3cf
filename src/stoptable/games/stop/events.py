"""Stop's events as light records, made into :class:`~stoptable.core.protocol.Event` values
only when somebody reads them.

Every action logs one to three events, and most readers never look at them: a simulation
or a search rollout reads the state, not its log, and an environment step reads the
observation. Building a frozen :class:`Event` cost about a twelfth of a pure Stop action
(its five slots set one by one), so the engine logs a plain list ``[kind, seat, public,
private, line]`` instead and :func:`event_of` makes the Event the first time a record is
read (a view, a returned event list, a record writer), keeping it as the record's sixth
item: the state's log and an action's returned list share their records, so each event
is made at most once, and a given record always gives the same Event object.

The two commonest events keep even their JSON for later: a placement's ``public`` is
:data:`Placed` ``(cards, calls)``, which is read as ``{"cards": [codes], "calls": [sorted
calls]}`` (no ``calls`` key without calls; a one-card play logs its :class:`.Play` instead,
read the same way: its ``cards`` and ``calls`` are that pair, and no tuple is made), and a
one-card draw's record is ``[kind, seat, None, card]``: its ``public`` is read as
``{"count": 1}`` and its ``private`` as ``{"cards": [code]}`` (``card``, a
:class:`~stoptable.games.stop.cards.Card`).
"""

from __future__ import annotations

from typing import Any, TypeAlias

from stoptable.core.protocol import (
    COMPILED,
    Event,
    compiled_event,
    compiled_line_event,
    new_event,
    new_line_event,
)
from stoptable.games.stop.actions import Play
from stoptable.games.stop.cards import Card

EventRec: TypeAlias = list[Any]
"""``[kind, seat, public, private, line]``, plus the :class:`Event` once made."""

Placed: TypeAlias = tuple[tuple[Card, ...], frozenset[str]]
"""A placement's ``public`` in a record: the cards placed and the calls made with them."""


def event_of(rec: EventRec) -> Event:
    """The record's Event, made on the first read and kept (the record's sixth item)."""
    if len(rec) == 6:
        made: Event = rec[5]
        return made
    kind, seat, public, private, line = rec
    if type(public) is tuple:  # Placed
        cards, calls = public
        public = {"cards": [card.code for card in cards]}
        if calls:
            public["calls"] = sorted(calls)
    elif type(public) is Play:  # a one-card play logs its Play: its cards and calls
        play: Play = public
        public = {"cards": [card.code for card in play.cards]}
        if play.calls:
            public["calls"] = sorted(play.calls)
    if type(private) is Card:  # a one-card draw
        public = {"count": 1}
        private = {"cards": [private.code]}
    if line is not None and private is not None:  # no engine event has both
        ev = Event(kind, seat, public, private, line)
    elif COMPILED:  # native stores, called by name (docs/architecture.md rule 15)
        if line is None:
            ev = compiled_event(kind, seat, public, private)
        else:
            ev = compiled_line_event(kind, seat, public, line)
    elif line is None:
        ev = new_event(kind, seat, public, private)
    else:
        ev = new_line_event(kind, seat, public, line)
    rec.append(ev)
    return ev


def events_of(recs: list[EventRec]) -> list[Event]:
    """The Events of ``recs``, in order (see :func:`event_of`)."""
    return [event_of(rec) for rec in recs]
