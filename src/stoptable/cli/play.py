"""``stoptable play GAME``: a game in the terminal against bots, for any registered game
that has a terminal app; and ``stoptable options GAME``: the rule options it takes.

The command line is read through the game's spec (rulesets, options, seat range, bots,
files such as Stop & Go's map); the app is found by name in :mod:`stoptable.tui`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from stoptable.cli.common import (
    BOTS_HINT,
    OPTION_HELP,
    game_rules,
    game_seed,
    game_setup,
    game_spec,
    parse_bots,
    record_file,
    usage_error,
)

SPEEDS = ("slow", "normal", "fast")


def play(
    game: Annotated[str, typer.Argument(help="The game: stop, stopit or stopandgo.")],
    ruleset: Annotated[
        str | None, typer.Option(help="The ruleset (default: the game's first).")
    ] = None,
    bots: Annotated[
        str,
        typer.Option(help="Number of bot opponents, or their names separated by commas."),
    ] = "3",
    seed: Annotated[int | None, typer.Option(help="Seed of the deal (default: random).")] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Where saving and the end of the game write the record "
            "(default: GAME-SEED.jsonl, Stop: stop-RULESET-SEED.jsonl)."
        ),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-O", metavar="KEY=VALUE", help=OPTION_HELP)
    ] = None,
    speed: Annotated[
        str, typer.Option(help="How fast the bots play: slow, normal or fast.")
    ] = "normal",
    map_file: Annotated[
        Path | None, typer.Option("--map", help="Stop & Go: play on this map.")
    ] = None,
) -> None:
    """Play a game in the terminal (you are seat 0) against bots."""
    from stoptable import tui

    spec = game_spec(game)
    if not tui.has_app(spec.name):
        raise usage_error(f"{spec.title} has no terminal app", "'GAME'")
    if speed not in SPEEDS:
        raise usage_error(f"choose one of {', '.join(SPEEDS)}", "'--speed'")
    rules, options = game_rules(spec, ruleset, option)
    low, high = spec.seat_range(rules)
    names = parse_bots(spec.name, bots, max(low - 1, 1), high - 1, count_allowed=True)
    setup, header = game_setup(spec, {"map": map_file})
    seed = game_seed(seed)
    default = (
        f"{spec.name}-{rules.name}-{seed}" if len(spec.rulesets) > 1 else f"{spec.name}-{seed}"
    )
    config = tui.PlayConfig(
        game=spec.name,
        ruleset=rules.name,
        bots=names,
        seed=seed,
        record=record_file(record) or Path(f"{default}.jsonl"),
        options=options,
        setup=setup,
        header_setup=header,
        speed=speed,  # type: ignore[arg-type]
    )
    try:
        app = tui.make_app(config)
    except ValueError as exc:  # more seats than the options allow, say
        raise usage_error(str(exc), f"{BOTS_HINT} / '-O'") from None
    app.run()


def options(
    game: Annotated[str, typer.Argument(help="The game: stop, stopit or stopandgo.")],
    ruleset: Annotated[
        str | None, typer.Option(help="Show this ruleset's defaults (default: the first).")
    ] = None,
) -> None:
    """List a game's rule options: name, default, allowed values, rule and meaning."""
    spec = game_spec(game)
    rules, _ = game_rules(spec, ruleset, None)
    table = Table(title=f"{spec.title} {rules.name}: options for -O KEY=VALUE ({spec.rules})")
    for column in ("option", "default", "values", "rule", "meaning"):
        table.add_column(column)
    for row in spec.ruleset_type.option_table(rules.name):
        values = ", ".join(row.get("choices", [])) or row["kind"]
        if "minimum" in row or "maximum" in row:
            values += f" {row.get('minimum', '')}..{row.get('maximum', '')}"
        table.add_row(row["name"], str(row["default"]), values, row["rule"], row["help"])
    Console().print(table)
