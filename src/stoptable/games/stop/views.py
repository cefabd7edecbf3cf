"""The two read-only pictures of a Stop state: the full replay JSON (records.md §4.5) and
a seat's view (S-63), which shows its own hand, every hand size and the public log only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stoptable.core.protocol import JSON, view_header
from stoptable.games.stop.cards import codes
from stoptable.games.stop.events import event_of
from stoptable.games.stop.model import Obligation

if TYPE_CHECKING:
    from stoptable.games.stop.state import StopState

LOG_SIZE: Final = 24
"""How many recent public events a view shows."""

LOG_LIMIT: Final = 2 * LOG_SIZE
"""The state's log keeps at most this many records (cut back to ``LOG_SIZE`` when it
overflows: :meth:`.state.StopState.trim_log`)."""


def state_json(st: StopState) -> dict[str, JSON]:
    """records.md §4.5 without ``applied``."""
    over = st.phase in ("round_over", "game_over")
    return {
        "game": "stop",
        "ruleset": st.rules.name,
        "phase": st.phase,
        "seats": st.seats,
        "round": st.round,
        "dealer": st.dealer,
        "next_dealer": (st.dealer + 1) % st.seats if st.phase == "round_over" else None,
        "turn": None if over else st.turn,
        "hands": [codes(h) for h in st.hands],
        "draw_pile": [c.code for c in reversed(st.draw)],
        "discard": [c.code for c in st.discard],
        "pending": None if st.pending is None else st.pending.to_json(),
        "obligations": [o.to_json() for o in sorted(st.obligations, key=Obligation.sort_key)],
        "consecutive_passes": st.consecutive_passes,
        "last_reveal": None
        if st.last_reveal is None
        else {"seat": st.last_reveal[0], "hand": list(st.last_reveal[1])},
        "round_scores": None if st.round_scores is None else list(st.round_scores),
        "totals": list(st.totals),
        "winners": None if st.winners is None else list(st.winners),
    }


def seat_view(st: StopState, seat: int | None) -> dict[str, JSON]:
    """What ``seat`` may know (S-63): never another hand nor the draw order.

    It starts with the keys every game's view starts with (``view_header``). ``options``
    are the overrides of the named ruleset; ``target_score`` is repeated on its own since
    every front end shows it.
    """
    top = st.discard[-1].code if st.discard else None
    data: dict[str, JSON] = {
        **view_header("stop", st.rules.name, st.seats, st.phase, seat),
        "options": st.rules.options(),
        "target_score": st.rules.target_score,
        "round": st.round,
        "dealer": st.dealer,
        "turn": st.turn_seat(),
        "hand": codes(st.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in st.hands],
        "drawn": st.drawn.code if st.drawn is not None and seat == st.turn else None,
        "top": top,
        "discard_size": len(st.discard),
        "discard": [c.code for c in st.discard],
        "draw_size": len(st.draw),
        "pending": None if st.pending is None else st.pending.to_json(),
        "obligations": [o.to_json() for o in sorted(st.obligations, key=Obligation.sort_key)],
        "consecutive_passes": st.consecutive_passes,
        "totals": list(st.totals),
        "round_scores": None if st.round_scores is None else list(st.round_scores),
        "winners": None if st.winners is None else list(st.winners),
        "last_reveal": None
        if st.last_reveal is None
        else {"seat": st.last_reveal[0], "hand": list(st.last_reveal[1])},
        "log": [event_of(rec).for_seat(seat) for rec in st.records[-LOG_SIZE:]],
    }
    return data
