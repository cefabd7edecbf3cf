"""The ``stoptable`` command: replay, play, simulate and map tools.

Each game contributes its own ``play``/``simulate`` subcommands from its own module
(``cli/stop.py``, ``cli/stopit.py``, ``cli/stopandgo.py``), so that the games stay apart here
as they are in the engines.
"""

from __future__ import annotations

import typer

from stoptable.cli import replay as replay_cmd
from stoptable.cli import stop as stop_cmd
from stoptable.cli import stopandgo as stopandgo_cmd
from stoptable.cli import stopit as stopit_cmd

app = typer.Typer(
    name="stoptable",
    help="The Stop family of tabletop games: play, simulate, replay.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(help="Play a game in the terminal against bots.", no_args_is_help=True)
simulate_app = typer.Typer(help="Play many games between bots and report.", no_args_is_help=True)
map_app = typer.Typer(help="Stop & Go map tools: check and render.", no_args_is_help=True)
app.add_typer(play_app, name="play")
app.add_typer(simulate_app, name="simulate")
app.add_typer(map_app, name="map")

replay_cmd.register(app)
stop_cmd.register(play_app, simulate_app)
stopit_cmd.register(play_app, simulate_app)
stopandgo_cmd.register(play_app, simulate_app, map_app)


def main() -> None:
    """Console-script entry point."""
    app()
