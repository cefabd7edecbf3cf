"""What every game's ``play`` and ``simulate`` commands share: ``--bots``, ``-O key=value``,
``--seed``, and usage errors that name the option at fault (exit status 2, no traceback).

One module so that the three games read their command lines the same way.
"""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import typer

if TYPE_CHECKING:
    from stoptable.core.game import GameSpec


OPTION_HELP: Final = (
    "A rule option as key=value (repeatable), e.g. -O target_score=100; "
    "'stoptable options GAME' lists them; values are read as JSON (true, 3, [1,6])."
)


def problem_lines(path: object, problems: list[str]) -> list[str]:
    """How ``map check`` lists a file's problems, and how ``play`` and ``simulate`` refuse
    one (GM-9: "with the same message"): a count, then one problem a line."""
    lines = (" ".join(str(p).split()) for p in problems)
    return [f"{path}: {len(problems)} problem(s)", *(f"  - {p}" for p in lines)]


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


def parse_bots(game: str, text: str, low: int, high: int, *, count_allowed: bool) -> list[str]:
    """``--bots``: a number of heuristic bots (when ``count_allowed``) or comma-separated
    names of the game's bots; ``low``..``high`` of them. A name is checked by making it, so
    ``name@F`` (a real-time bot's reaction factor) is judged by the bot registry alone."""
    from stoptable.bots.base import make_bot

    text = text.strip()
    if count_allowed and text.isdigit():
        count = int(text)
        if not low <= count <= high:
            raise usage_error(f"give {low}-{high} bots, not {count}", BOTS_HINT)
        return ["heuristic"] * count
    names = [name.strip() for name in text.split(",")]
    if not text or any(not name for name in names):
        raise usage_error(f"{text!r}: give bot names separated by commas", BOTS_HINT)
    for name in dict.fromkeys(names):
        try:
            make_bot(game, name, 0, 0)
        except ValueError as exc:
            raise usage_error(str(exc), BOTS_HINT) from None
    if not low <= len(names) <= high:
        raise usage_error(f"give {low}-{high} bots, not {len(names)}", BOTS_HINT)
    return names


def game_spec(name: str) -> GameSpec:
    """The registered game ``name``; a usage error listing the games otherwise."""
    from stoptable import games

    try:
        return games.spec(name)
    except ValueError as exc:
        raise usage_error(str(exc), "'GAME'") from None


def game_rules(
    spec: GameSpec, ruleset: str | None, items: list[str] | None
) -> tuple[Any, dict[str, Any]]:
    """The ruleset of ``--ruleset`` with the ``-O`` options, and those options; a usage
    error naming the ruleset or the option at fault."""
    options = parse_options(items)
    if ruleset is not None and ruleset not in spec.rulesets:
        known = ", ".join(spec.rulesets)
        raise usage_error(
            f"{spec.title} has no ruleset {ruleset!r} (known: {known})", "'--ruleset'"
        )
    try:
        return spec.ruleset(ruleset, options), options
    except ValueError as exc:
        raise usage_error(str(exc), OPTIONS_HINT) from None


def game_setup(
    spec: GameSpec, files: dict[str, Path | None]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The setup arguments read from files (``--map``): values for ``new`` and what a
    record's header says of them. A file the game takes no such thing from is a usage error;
    one that cannot start a game is one line per problem on stderr and exit 1."""
    setup: dict[str, Any] = {}
    header: dict[str, Any] = {}
    for key, path in files.items():
        loader = spec.setup_files.get(key)
        if loader is None:
            if path is not None:
                raise usage_error(f"{spec.title} takes no {key}", f"'--{key}'")
            continue
        existing_file(path, f"'--{key}'")
        try:
            value, recorded = loader(path)
        except ValueError as exc:
            problems = getattr(exc, "problems", None) or [str(exc)]
            for line in problem_lines(path or f"the default {key}", problems):
                print(line, file=sys.stderr)
            raise typer.Exit(1) from None
        setup[key] = value
        if recorded is not None:
            header[key] = recorded
    return setup, header


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
