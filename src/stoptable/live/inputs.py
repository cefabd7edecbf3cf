"""What goes into a live table (:class:`~stoptable.live.machine.TableMachine`).

Every input carries ``t``, the table's time in ms when it arrived (the machine owns no
clock: the server stamps inputs from the wall clock, a simulator from its virtual one).
An input that somebody waits on carries a ``ticket``, which comes back on its
:class:`~stoptable.live.effects.Ack` or :class:`~stoptable.live.effects.Refuse`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from stoptable.core.protocol import JSON


@dataclass(frozen=True, slots=True)
class Act:
    """An action line from ``seat`` (without ``seat`` and ``t``: the driver supplies them),
    arrived at ``t`` (I-30, S-62: checked against the state at its time)."""

    seat: int
    line: Mapping[str, JSON]
    t: int
    ticket: int | None = None


@dataclass(frozen=True, slots=True)
class Connect:
    """A connection ``conn`` for ``seat`` (None: watching) opened."""

    conn: str
    seat: int | None
    t: int


@dataclass(frozen=True, slots=True)
class Leave:
    """The connection ``conn`` of ``seat`` closed."""

    conn: str
    seat: int | None
    t: int


@dataclass(frozen=True, slots=True)
class Resume:
    """``conn`` asks for what it missed after ``after`` (protocol.md §3 ``resume``)."""

    conn: str
    seat: int | None
    after: int
    t: int


@dataclass(frozen=True, slots=True)
class Start:
    """The last free seat was claimed: play starts at ``t``."""

    t: int


@dataclass(frozen=True, slots=True)
class Tick:
    """Time has come to ``t``: whatever is due by then is done."""

    t: int


@dataclass(frozen=True, slots=True)
class BotReply:
    """What a bot asked through :class:`~stoptable.live.effects.AskBot` answered (the
    return value of the effect's ``think``), for the question numbered ``question``."""

    seat: int
    question: int
    answer: Any
    t: int


Input = Act | Connect | Leave | Resume | Start | Tick | BotReply
"""Everything a table's inbox holds."""

PASSIVE = (Connect, Leave, Resume)
"""Inputs that change no game state: a runner may serve them between steps."""
