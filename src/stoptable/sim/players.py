"""Tournament players: registered bots, and any callable as a bot (saved policies).

An entry is a registered bot name (``heuristic``, ``ismcts:200``) or
``py:<module>:<factory>``: ``factory(game, seat, seed)`` returns either an object with
``act(view, legal)`` or a plain callable ``policy(view, legal)`` that returns one of
``legal`` or its index. A policy trained on the research environments is wrapped this way
(its encoder reads the view; the mask is the legal list), and plays like any bot: it sees
its seat's view and legal actions only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from stoptable.bots.base import make_bot
from stoptable.core.protocol import JSON

Policy = Callable[[dict[str, JSON], Sequence[Any]], Any]
"""``policy(view, legal) -> an element of legal, or its index``."""


class CallableBot:
    """A bot made of a function: the small interface saved policies play through."""

    def __init__(self, policy: Policy, name: str = "callable", seat: int = 0) -> None:
        self.policy = policy
        self.name = name
        self.seat = seat

    def act(self, view: dict[str, JSON], legal: Sequence[Any]) -> Any:
        choice = self.policy(view, legal)
        if isinstance(choice, int) and not isinstance(choice, bool):
            return legal[choice]
        if choice not in legal:
            raise ValueError(f"policy {self.name!r} chose {choice!r}, which is not legal")
        return choice


def load_factory(entry: str) -> Callable[[str, int, int], Any]:
    """The factory that ``py:<module>:<name>`` names; ValueError if it cannot be found."""
    _, _, path = entry.partition("py:")
    module_name, colon, attr = path.partition(":")
    if not colon or not module_name or not attr:
        raise ValueError(f"{entry!r}: say py:<module>:<factory>")
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"{entry!r}: {exc}") from None
    if not callable(factory):
        raise ValueError(f"{entry!r} is not callable")
    return factory  # type: ignore[no-any-return]


def make_player(game: str, entry: str, seat: int, seed: int) -> Any:
    """The bot of one tournament entry for ``seat`` (see the module docstring)."""
    if not entry.startswith("py:"):
        return make_bot(game, entry, seat, seed)
    made = load_factory(entry)(game, seat, seed)
    if hasattr(made, "act"):
        return made
    return CallableBot(made, entry, seat)


def check_entry(game: str, entry: str) -> None:
    """ValueError if ``entry`` names no bot of ``game`` (a ``py:`` factory is imported)."""
    if entry.startswith("py:"):
        load_factory(entry)
    else:
        make_bot(game, entry, 0, 0)
