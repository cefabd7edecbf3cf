"""What every game's ``play`` and ``simulate`` commands share: ``--bots``, ``-O key=value``,
``--seed``, and usage errors that name the option at fault (exit status 2, no traceback).

One module so that the three games read their command lines the same way.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import typer


def option_help(spec: str, example: str) -> str:
    """The help of ``-O`` for one game: where its options are listed, and an example."""
    return (
        f"A rule option of {spec} as key=value (repeatable), e.g. -O {example}; "
        "values are read as JSON (true, 3, [1,6]) when they can be."
    )


BOTS_HINT: Final = "'--bots'"
OPTIONS_HINT: Final = "'-O' / '--option'"


def usage_error(message: str, hint: str) -> typer.BadParameter:
    """A usage error (exit 2) that names the option it is about."""
    return typer.BadParameter(message, param_hint=hint)


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """``key=value`` pairs of ``-O``; values are read as JSON when they can be.

    >>> parse_options(["target_score=100", "draw_x_mode=flip", "dial_advance_on=[1,6]"])
    {'target_score': 100, 'draw_x_mode': 'flip', 'dial_advance_on': [1, 6]}
    """
    options: dict[str, Any] = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise usage_error(f"{item!r} is not key=value", OPTIONS_HINT)
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def check_options(options: dict[str, Any], check: Callable[[dict[str, Any]], object]) -> None:
    """Run the game's own option check; its ValueError becomes a usage error on ``-O``."""
    try:
        check(options)
    except (ValueError, TypeError) as exc:
        raise usage_error(str(exc), OPTIONS_HINT) from None


def parse_bots(
    game: str,
    text: str,
    low: int,
    high: int,
    *,
    count_allowed: bool,
    seats_word: str,
    factors: bool = False,
) -> list[str]:
    """``--bots``: a number of heuristic bots (when ``count_allowed``) or comma-separated
    names of registered bots, each with an optional ``:parameter`` (``ismcts:200``);
    ``low``..``high`` of them. With ``factors`` a name may carry ``@F`` (F > 0), the Stop it!
    reaction-time factor."""
    from stoptable.bots.base import bot_names

    known = bot_names(game)
    text = text.strip()
    if count_allowed and text.isdigit():
        count = int(text)
        if not low <= count <= high:
            raise usage_error(f"give {low}-{high} bots ({seats_word}), not {count}", BOTS_HINT)
        return ["heuristic"] * count
    names = [name.strip() for name in text.split(",")]
    if not text or any(not name for name in names):
        raise usage_error(f"{text!r}: give bot names separated by commas", BOTS_HINT)
    for spec in names:
        name, at, factor = spec.partition("@")
        name = name.partition(":")[0]  # ismcts:200 - the parameter is the bot's to check
        if name not in known:
            raise usage_error(f"unknown bot {name!r} (known: {', '.join(known)})", BOTS_HINT)
        if at and not factors:
            raise usage_error(f"{spec!r}: the @factor is only for Stop it!", BOTS_HINT)
        if at:
            try:
                positive = float(factor) > 0
            except ValueError:
                positive = False
            if not positive:
                raise usage_error(f"{spec!r}: the factor after @ must be > 0", BOTS_HINT)
    if not low <= len(names) <= high:
        raise usage_error(f"give {low}-{high} bots ({seats_word}), not {len(names)}", BOTS_HINT)
    return names


def game_seed(seed: int | None) -> int:
    """The seed of a played game: the one given, or a fresh random one."""
    return secrets.randbelow(2**31) if seed is None else seed


def records_dir(path: Path | None) -> Path | None:
    """``--records DIR``: created if missing; a usage error if it cannot be."""
    if path is None:
        return None
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise usage_error(f"cannot create {path}: {exc.strerror}", "'--records'") from None
    return path


def record_file(path: Path | None) -> Path | None:
    """``--record FILE``: its folder must exist, so that the game can be saved at the end."""
    if path is not None and not path.parent.is_dir():
        raise usage_error(f"no folder {path.parent} to write {path.name} in", "'--record'")
    return path


def existing_file(path: Path | None, hint: str) -> Path | None:
    """An input file option (``--map``): a usage error if there is no such file."""
    if path is not None and not path.is_file():
        raise usage_error(f"no such file: {path}", hint)
    return path
