"""The bot interface every turn-based game shares, and the registry of bots by game.

A bot receives its seat's view (plain JSON data from ``state.view(seat)``) and the legal
actions of that seat, and returns one of those actions. It never receives the state, so it
can never see more than its view. Each bot owns its own seeded :class:`Rng`, so a game
between bots is reproducible from the seeds alone.

Stop it! is real time and uses the ``observe(view, now)`` interface of its own simulator
(stop-it.md I-51) instead; its bots register here too so that the command line finds them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol

from stoptable.core.errors import StoptableError
from stoptable.core.protocol import JSON


class Bot(Protocol):
    """A turn-based bot."""

    name: str

    def act(self, view: dict[str, JSON], legal: Sequence[Any]) -> Any:
        """Choose one of ``legal`` (never empty) from what ``view`` shows."""
        ...


BotFactory = Callable[..., Any]
"""``factory(seat, seed) -> bot``; a bot that takes a parameter in its name
(``ismcts:500``) also accepts ``factory(seat, seed, parameter)``."""

_REGISTRY: dict[tuple[str, str], BotFactory] = {}


def register_bot(game: str, name: str, factory: BotFactory) -> None:
    """Make ``name`` available for ``game`` (done by each game's bot module on import)."""
    _REGISTRY[(game, name)] = factory


SEARCH_MODULE: Final = "stoptable.bots.ismcts_{game}"
"""The module that registers a game's search bot (``ismcts``), if the game has one."""


PLUGIN_GROUP: Final = "stoptable.bots"
"""The entry-point group of bots defined above this layer (``stoptable.rl.ppo_bot``): an
entry named ``game.bot`` names the module that registers that bot when imported."""

_LOADED: set[str] = set()
_MISSING: dict[tuple[str, str], str] = {}
"""Plug-in bots that could not be imported (their extra is not installed), and why."""


def _load(game: str) -> None:
    """Import the module that registers ``game``'s bots, as its GameSpec names it, and its
    search bot's module (:data:`SEARCH_MODULE`) if the game has one; once per game.

    UnknownGame (a ValueError) for a game that is not registered.
    """
    if game in _LOADED:
        return
    import importlib
    import importlib.util

    from stoptable.games import spec

    importlib.import_module(spec(game).bot_module)
    search = SEARCH_MODULE.format(game=game)
    if importlib.util.find_spec(search) is not None:
        importlib.import_module(search)
    _LOADED.add(game)
    _load_plugins(game)


def _load_plugins(game: str) -> None:
    """Import the :data:`PLUGIN_GROUP` entries of ``game``; one that fails to import (its
    extra is missing) is remembered, so that asking for it says what to install."""
    from importlib.metadata import entry_points

    for entry in entry_points(group=PLUGIN_GROUP):
        owner, _, bot = entry.name.partition(".")
        if owner != game:
            continue
        try:
            entry.load()
        except ImportError as exc:
            _MISSING[game, bot] = f"{exc} (pip install 'stoptable[rl]')"


def bot_names(game: str) -> list[str]:
    """The bot names known for ``game``."""
    _load(game)
    return sorted(name for g, name in _REGISTRY if g == game)


class UnknownBot(StoptableError, ValueError):
    """A bot name that the game does not offer; the message lists the ones it does."""


def make_bot(game: str, name: str, seat: int, seed: int) -> Any:
    """A new bot from ``name``, ``name:parameter`` for a bot that takes one (``ismcts:500``,
    its search budget), and ``...@F`` for a real-time bot whose reaction times are scaled
    by F > 0 (``heuristic@0.8`` reacts 20% faster; stop-it.md I-52).

    UnknownBot (a ValueError) naming the known bots if ``name`` is unknown, or saying why
    the ``:parameter`` or ``@F`` part does not fit.
    """
    _load(game)
    base, at, factor = name.partition("@")
    base, colon, parameter = base.partition(":")
    factory = _REGISTRY.get((game, base))
    if factory is None and (game, base) in _MISSING:
        raise UnknownBot(f"bot {base!r} for {game} is not installed: {_MISSING[game, base]}")
    if factory is None:
        known = ", ".join(bot_names(game)) or "none"
        raise UnknownBot(f"unknown bot {base!r} for {game} (known: {known})")
    if colon:
        import inspect

        if len(inspect.signature(factory).parameters) < 3:
            raise UnknownBot(f"bot {base!r} takes no parameter (got {name!r})")
        try:
            bot = factory(seat, seed, parameter)
        except ValueError as exc:
            raise UnknownBot(f"{name!r}: {exc}") from None
    else:
        bot = factory(seat, seed)
    if at:
        scale = getattr(bot, "scale_reaction", None)
        if scale is None:
            raise UnknownBot(f"{name!r}: the {game} bots take no @factor (real-time games only)")
        try:
            value = float(factor)
        except ValueError:
            value = 0.0
        if not value > 0:
            raise UnknownBot(f"{name!r}: the factor after @ must be a number > 0")
        scale(value)
    return bot
