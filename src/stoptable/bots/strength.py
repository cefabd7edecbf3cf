"""Bot strengths (``easy``, ``normal``, ``hard``): what a person picks, mapped per game to a bot.

People choose an opponent by how hard it plays, not by its algorithm (protocol.md §8). Each
game maps the three words to one of its registered bots; the table stores the word and
makes the bot from :func:`bot_for` when it is (re)built, so the mapping may improve later
without touching stored tables.
"""

from __future__ import annotations

from typing import Final

STRENGTHS: Final = ("easy", "normal", "hard")

_BY_GAME: Final[dict[str, dict[str, str]]] = {
    # Turn-based games: random moves, the one-ply heuristic, the determinized search.
    "stop": {"easy": "random", "normal": "heuristic", "hard": "ismcts"},
    "stopandgo": {"easy": "random", "normal": "heuristic", "hard": "ismcts"},
    # Stop it! is a race: a random grabber is no opponent at all, so "easy" is the
    # heuristic reacting 1.6 times slower than the I-52 defaults.
    "stopit": {"easy": "heuristic@1.6", "normal": "heuristic", "hard": "ismcts"},
}


def strengths(game: str) -> dict[str, str]:
    """Strength -> bot name for ``game`` (empty for a game without a mapping)."""
    return dict(_BY_GAME.get(game, {}))


def bot_for(game: str, name: str) -> str:
    """The bot name to make for a stored ``bots`` entry: a strength is mapped, anything
    else (a bot's own name) passes through."""
    return _BY_GAME.get(game, {}).get(name, name)
