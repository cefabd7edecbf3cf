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


_LOADED: set[str] = set()


def _load(game: str) -> None:
    """Import the game's bot module and its search bot's module, once."""
    if game in _LOADED:
        return
    import importlib
    import importlib.util

    importlib.import_module(f"stoptable.bots.{game}")
    search = SEARCH_MODULE.format(game=game)
    if importlib.util.find_spec(search) is not None:
        importlib.import_module(search)
    _LOADED.add(game)


def bot_names(game: str) -> list[str]:
    """The bot names known for ``game``."""
    _load(game)
    return sorted(name for g, name in _REGISTRY if g == game)


def make_bot(game: str, name: str, seat: int, seed: int) -> Any:
    """A new bot; ValueError naming the known bots if ``name`` is unknown.

    ``name:parameter`` hands ``parameter`` to the bot's factory (``ismcts:500``, the search
    budget); Stop it!'s ``name@factor`` (reaction times) is read by its own front end
    before the name gets here, so ``ismcts:200@0.8`` is both.
    """
    _load(game)
    base, colon, parameter = name.partition(":")
    factory = _REGISTRY.get((game, base))
    if factory is None:
        known = ", ".join(bot_names(game)) or "none"
        raise ValueError(f"unknown bot {base!r} for {game} (known: {known})")
    if colon:
        import inspect

        if len(inspect.signature(factory).parameters) < 3:
            raise ValueError(f"bot {base!r} takes no parameter (got {name!r})")
        return factory(seat, seed, parameter)
    return factory(seat, seed)
