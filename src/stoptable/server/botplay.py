"""Bots at a live table: when each bot seat is asked, and what it answers.

Two shapes of bot, told apart by the spec's ``realtime`` flag, never by a game name:

* turn-based bots (``act(view, legal)``) are asked ``delay`` ms after a change when their
  seat is among ``state.actors()``; a seat that is not the one to move gets a
  :class:`~stoptable.core.driver.Decline` in its list (an offer it may let go);
* real-time bots (``observe(view, now)``, stop-it.md I-51) are observed after every change;
  their request arrives ``delay`` ms later (their own reaction time, or the table's fixed
  delay) and is stamped with that arrival time.

Either way the answer goes through the table's one submission path, like a person's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from stoptable.bots.base import make_bot
from stoptable.core.driver import Decline
from stoptable.core.protocol import JSON

DEFAULT_DELAY_MS: Final = 700
"""A turn-based bot's human-like thinking time when neither table nor server fixes one."""
RETRY_MS: Final = 50
"""How long a real-time bot whose request was refused waits before it looks again."""


def line_of(action: Any) -> dict[str, JSON]:
    """The action line a client would send: ``to_json()`` without ``seat`` and ``t``."""
    data: dict[str, JSON] = dict(action.to_json())
    data.pop("seat", None)
    data.pop("t", None)
    return data


@dataclass
class BotSeats:
    """The seats a bot plays now: bot seats, and absent people's seats (heuristic)."""

    game: str
    realtime: bool
    delay_ms: int | None
    seed: int
    bots: dict[int, Any] = field(default_factory=dict)
    standins: dict[int, Any] = field(default_factory=dict)
    due: dict[int, int] = field(default_factory=dict)
    """Seat -> when it is asked (turn-based) or observed (real time)."""
    asked: dict[int, int] = field(default_factory=dict)
    """Seat -> the change number it was last asked at (asked once per change)."""
    flight: dict[int, tuple[int, dict[str, JSON]]] = field(default_factory=dict)
    """Real time: seat -> (arrival, action line) of its request on the way."""
    retry_at: dict[int, int] = field(default_factory=dict)

    def add_bot(self, seat: int, name: str) -> None:
        self.bots[seat] = make_bot(self.game, name, seat, self.seed * 7919 + seat)

    def stand_in(self, seat: int) -> None:
        if seat not in self.standins:
            self.standins[seat] = make_bot(self.game, "heuristic", seat, self.seed * 7717 + seat)

    def player(self, seat: int, absent: set[int]) -> Any:
        if seat in self.bots:
            return self.bots[seat]
        if seat in absent:
            return self.standins.get(seat)
        return None

    def seats(self, absent: set[int]) -> list[int]:
        return sorted(set(self.bots) | (absent & set(self.standins)))

    def think_ms(self) -> int:
        return DEFAULT_DELAY_MS if self.delay_ms is None else self.delay_ms

    def schedule(self, t: int, change: int, actors: list[int], absent: set[int]) -> None:
        """After change number ``change`` at ``t``: who is asked when."""
        for seat in self.seats(absent):
            if seat in self.due or seat in self.flight or self.asked.get(seat) == change:
                continue
            if self.realtime:
                self.due[seat] = max(t, self.retry_at.get(seat, 0))
            elif seat in actors:
                self.due[seat] = t + self.think_ms()

    def deadline(self) -> int | None:
        times = list(self.due.values()) + [a for a, _ in self.flight.values()]
        return min(times) if times else None

    def thinks_long(self, seat: int, absent: set[int]) -> bool:
        """Whether ``seat``'s bot searches (``thinks_long``: tens to hundreds of
        milliseconds a decision or an observation), so that the table asks it in a worker
        thread instead of on the event loop, where it would hold up every other table
        while it thinks."""
        return bool(getattr(self.player(seat, absent), "thinks_long", False))

    def decide(
        self, seat: int, t: int, state: Any, legal: list[Any], absent: set[int]
    ) -> dict[str, JSON] | None:
        """Ask a turn-based bot now; the action line it sends, or None."""
        bot = self.player(seat, absent)
        if bot is None or not legal:
            return None
        options = list(legal)
        if seat != state.to_move():
            options.append(Decline(seat))
        choice = bot.act(state.view(seat), options)
        if isinstance(choice, Decline) or type(choice).__name__ == "Decline":
            return None
        return line_of(choice)

    def answer(
        self, seat: int, t: int, view: dict[str, JSON], absent: set[int]
    ) -> tuple[Any, int] | None:
        """Observe a real-time bot: what it makes of ``view`` seen at ``t``, (request,
        delay) or None; :meth:`fly` puts the request in flight. Only the bot runs here (a
        search bot runs this in a worker thread)."""
        bot = self.player(seat, absent)
        if bot is None:
            return None
        answer: tuple[Any, int] | None = bot.observe(view, t)
        return answer

    def fly(self, seat: int, t: int, answer: tuple[Any, int] | None) -> None:
        """Put the request of an :meth:`answer` at ``t`` in flight: it arrives after the
        bot's delay (or the table's fixed one), stamped with that arrival time."""
        if answer is None:
            return
        request, delay = answer
        wait = delay if self.delay_ms is None else self.delay_ms
        self.flight[seat] = (t + max(0, int(wait)), line_of(request))

    def forget(self, seat: int) -> None:
        self.due.pop(seat, None)
        self.flight.pop(seat, None)
