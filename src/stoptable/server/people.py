"""Who sits at a table (protocol.md §8): name rules and the public ``players`` list.

Names are public and shown by every front end as typed, so the server keeps them to one
line of visible text: trimmed, NFC, 1 to 24 characters, no control or format characters.
Two seats of a table never share a name (``casefold`` after NFC), bots included, so a
log line "Ann plays" always means one seat.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Final

from stoptable.core.protocol import JSON

NAME_MAX: Final = 24
CHAT_MAX: Final = 300
NAME_REFUSED: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories a name may not contain: control, format, surrogate, private-use and
unassigned characters, and line/paragraph separators (each would break or hide the line
a name is shown on)."""


class NameRefused(ValueError):
    """A name that breaks a rule of §8: ``status`` 422 (its shape) or 409 (taken)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def clean_name(raw: str) -> str:
    """``raw`` trimmed and NFC-normalized; NameRefused(422) naming ``name`` if it breaks a
    rule."""
    name = unicodedata.normalize("NFC", raw.strip())
    if not name:
        raise NameRefused(422, "name: type at least one character")
    if len(name) > NAME_MAX:
        raise NameRefused(422, f"name: at most {NAME_MAX} characters (this one has {len(name)})")
    for ch in name:
        if unicodedata.category(ch) in NAME_REFUSED:
            raise NameRefused(422, f"name: no control or format characters (U+{ord(ch):04X})")
    return name


def name_key(name: str) -> str:
    """What two names are compared by: ``casefold`` after NFC."""
    return unicodedata.normalize("NFC", name).casefold()


def clean_chat(raw: object) -> str | None:
    """A chat text trimmed, or None if it is not 1 to 300 characters without control
    characters (format characters stay: emoji sequences are joined by U+200D)."""
    if not isinstance(raw, str):
        return None
    text = raw.strip()
    if not 1 <= len(text) <= CHAT_MAX:
        return None
    if any(unicodedata.category(ch) == "Cc" for ch in text):
        return None
    return text


def bot_label(seat: int, bot: str) -> str:
    """The readable name the server gives a bot seat: "Bot 2 (hard)" (seats count from 1
    on screen)."""
    return f"Bot {seat + 1} ({bot})"


@dataclass
class Roster:
    """The names and bots of a table's seats, and the table that plays again after it.

    ``names[k]`` is a person's name (None while the seat is free); ``bots[k]`` is set for a
    bot seat (its strength or bot name). Presence is not kept here: it is the table's
    connections and clock absences, passed to :meth:`players`.
    """

    names: list[str | None]
    bots: list[str | None]
    next: str | None = None
    via_rematch: set[int] = field(default_factory=set)
    """Seats claimed through ``rematch`` of the table before (their person may send it
    again, from another tab, and gets the seat back with a new token)."""

    @classmethod
    def empty(cls, seats: int) -> Roster:
        return cls([None] * seats, [None] * seats)

    def name(self, seat: int) -> str | None:
        bot = self.bots[seat]
        return bot_label(seat, bot) if bot is not None else self.names[seat]

    def taken_by(self, name: str) -> int | None:
        """The seat whose name is ``name`` (compared as §8 says), if any."""
        key = name_key(name)
        for seat in range(len(self.names)):
            other = self.name(seat)
            if other is not None and name_key(other) == key:
                return seat
        return None

    def check_free_name(self, name: str, seat: int) -> None:
        """NameRefused(409) if another seat already has ``name``."""
        other = self.taken_by(name)
        if other is not None and other != seat:
            raise NameRefused(409, "name taken")

    def players(self, connected: set[int], absent: set[int]) -> list[JSON]:
        """§8's ``players``: one entry per seat in seat order."""
        out: list[JSON] = []
        for seat, bot in enumerate(self.bots):
            name = self.name(seat)
            present = bot is not None or (
                name is not None and seat in connected and seat not in absent
            )
            out.append({"seat": seat, "name": name, "bot": bot, "present": present})
        return out
