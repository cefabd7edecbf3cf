"""Readable lines for what happens at a Stop it! table, in the colours of the cards.

The live game's log and ``stoptable simulate stopit --real-time-factor`` (the watch mode
of I-55) print the same lines, so both read them from here.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from stoptable.games.stopit.cards import kind_of
from stoptable.live.machine import Happening

STYLE: dict[str, str] = {
    "red": "bold white on red3",
    "blue": "bold white on blue3",
    "yellow": "bold black on yellow1",
    "green": "bold white on green4",
    "purple": "bold white on purple4",
    "orange": "bold black on dark_orange",
    "brown": "bold white on #7b4a1e",
}


def chip(card: str | None, wide: bool = False) -> Text:
    """A card as a small coloured block (the colour's full name when ``wide``)."""
    if card is None:
        return Text(" empty " if wide else " · ", style="dim")
    kind = kind_of(card)
    if kind == "SUPER":
        return Text(" SUPERSTOP " if wide else " SUP ", style="bold black on white")
    if kind.startswith("STOP-"):
        colour = kind[5:]
        label = f" STOP {colour} " if wide else f"!{colour[:3]}!"
        return Text(label, style=STYLE[colour] + " underline")
    return Text(f" {kind} " if wide else f" {kind[:3]} ", style=STYLE[kind])


def describe(happening: Happening, names: list[str]) -> list[Text]:
    """Log lines for a processed request or timer (rejections and quiet moves: none)."""
    if happening.error is not None:
        return []
    who = names[happening.seat] if happening.seat is not None else "table"
    s = "" if who == "You" else "s"
    lines: list[Text] = []
    for event in happening.events:
        data = event.public
        out = Text()
        if event.kind == "grab":
            out.append(f"{who} grab{s} ").append_text(chip(str(data["card"]), wide=True))
            out.append(f" from {data['stack']}")
        elif event.kind == "call_stop":
            out.append(f"{who} call{s} STOP on ", style="bold")
            out.append_text(chip(str(data["card"]), wide=True)).append("!")
        elif event.kind == "play_stop":
            out.append(f"{who} play{s} ", style="bold")
            out.append_text(chip(str(data["card"]), wide=True)).append(" from the hand!")
        elif event.kind == "go":
            out.append("Go! " + ("(timeout)" if data.get("auto") else f"by {who}"), style="green")
        elif event.kind == "auto_insert":
            out.append(f"{names[event.seat or 0]}: card put at the right end.", style="yellow")
        elif event.kind == "evaluation":
            out.append(evaluation_text(data, names), style="cyan")
        elif event.kind == "game_over":
            winners = ", ".join(names[w] for w in data["winners"])
            points = ", ".join(f"{names[i]} {p}" for i, p in enumerate(data["scores"]))
            out.append(f"GAME OVER. Minus points: {points}; winner: {winners}", style="bold")
        if out.plain:
            lines.append(out)
    return lines


def evaluation_text(data: Any, names: list[str]) -> str:
    what = data["colour"] or "all colours (superstop)"
    counts = ", ".join(f"{names[s].split()[0]} {n}" for s, n in enumerate(data["counts"]))
    hit = [names[s].split()[0] for s, n in enumerate(data["awarded"]) if n]
    unsorted = [names[s].split()[0] for s in data["unsorted"]]
    text = f"Evaluation of {what}: {counts}. Minus: {', '.join(hit) or 'nobody'}"
    return text + (f" (unsorted: {', '.join(unsorted)})" if unsorted else "") + "."
