"""``stoptable play stopit``: live Stop it! in the terminal against bots on the wall clock.

The game is the simulator's :class:`~stoptable.live.virtual.VirtualTable` with the same engine and
the same bots; only the clock differs. A Textual timer calls :meth:`StopItApp.tick`, which
lets the table catch up with the wall clock (``run_until(now)``), so the bots grab while
you think. Your keys become requests stamped with the current time and go through
:meth:`Table.submit`, exactly as a server would stamp arrivals (I-30). The clock is
injectable (``clock`` returns seconds), so tests drive the game with a fake clock and
call :meth:`tick` themselves.

You are P0. Keys: 1-9 grab from that stack (as many as the table has); ←/→ choose where
the held card goes, Enter inserts it; s calls Stop on a visible stop card (s + stack number
when several are up);
p plays a stop card from your hand (p + its number when you have several); m picks the
card under the hand cursor to move it (←/→, Enter); g sends Go when it is your restart;
w writes the record; q quits.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Final

from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import RichLog, Static

from stoptable.bots.stopit import make_stopit_bot, sorted_position
from stoptable.core.records import RecordWriter
from stoptable.games.stopit import (
    COLOURS,
    CallStop,
    Go,
    Grab,
    Insert,
    Move,
    PlayStop,
    Request,
    kind_of,
)
from stoptable.games.stopit.records import record_header
from stoptable.games.stopit.spec import SPEC
from stoptable.games.stopit.state import StopItState
from stoptable.live.machine import Happening
from stoptable.live.virtual import VirtualTable
from stoptable.sim.stopit_log import STYLE, chip, describe
from stoptable.sim.stopit_tournament import bot_seed
from stoptable.tui import PlayConfig
from stoptable.tui.stopit_text import HELP, LONG_HELP, status_line


def card_face(card: str | None, width: int = 13, tall: bool = True) -> Text:
    """A stack's top card drawn as a coloured card, three lines tall (or one)."""
    rows = 3 if tall else 1
    if card is None:
        return Text("\n".join(["·" * width] * rows), style="dim")
    label = chip(card, wide=True)
    style = label.spans[0].style if label.spans else label.style
    middle = label.plain.strip().center(width)
    if not tall:
        return Text(middle, style=style)
    blank = " " * width
    return Text(f"{blank}\n{middle}\n{blank}", style=style)


class StopItApp(App[None]):
    """The live game. ``bots`` are the opponents' bot names (seats 1..n)."""

    CSS: ClassVar[str] = """
    Screen { layout: vertical; }
    #status { height: 1; background: $boost; }
    #stacks { height: auto; padding: 0 1; }
    #players { height: auto; }
    #hand { height: auto; min-height: 3; border: round $accent; }
    #log { height: 1fr; min-height: 4; border: round $panel; }
    #message { height: 1; color: $warning; }
    #help { height: 1; color: $text-muted; }
    """

    def __init__(
        self,
        bots: list[str],
        *,
        seed: int = 0,
        delay_scale: float = 1.0,
        record_path: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        auto_tick: bool = True,
        options: dict[str, Any] | None = None,
        state: StopItState | None = None,
    ) -> None:
        """``state`` replaces the seeded deal (a game from a position; its record then
        starts from that position)."""
        super().__init__()
        self.names = ["You", *(f"P{k + 1} {name}" for k, name in enumerate(bots))]
        self.seed = seed
        self.clock = clock
        self.origin = clock()
        self.auto_tick = auto_tick
        self.record_path = record_path or Path(f"stopit-{seed}.jsonl")
        self.state = state or SPEC.new(seats=len(bots) + 1, seed=seed, options=options)
        if self.state.seats != len(bots) + 1:
            raise ValueError(f"{len(bots)} bots and you do not fill {self.state.seats} seats")
        players = {
            k + 1: make_stopit_bot(name, k + 1, bot_seed(seed, k + 1))
            for k, name in enumerate(bots)
        }
        note = "live: P0 human, bots " + ",".join(bots)
        header = record_header(self.state, seed, note, position=state is not None)
        self.writer = RecordWriter(header)
        self.table = VirtualTable(
            SPEC,
            self.state,
            players,
            writer=self.writer,
            delay_scale=delay_scale,
            listener=self._on_happening,
        )
        self.cursor = 0
        """Where the held card goes (or, when moving, where the picked card goes)."""
        self.moving: int | None = None
        self.prefix: str | None = None
        self.lines: list[Text] = []
        self.message = "Press g to shout Go! Then grab with a stack's number key."
        self.saved = False
        self.mounted = False
        self.changed = True
        """Something happened since the last full redraw."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="stacks")
        yield Static(id="players")
        yield Static(id="hand")
        yield RichLog(id="log", markup=False, wrap=True, min_width=20)
        yield Static(id="message")
        yield Static(HELP, id="help")

    def on_mount(self) -> None:
        self.title = "Stop it!"
        self.mounted = True
        self.table.start()
        if self.auto_tick:
            self.set_interval(0.05, self.tick)
        self.refresh_view()

    def on_resize(self, event: events.Resize) -> None:
        self.refresh_view()

    # ------------------------------------------------------------------ the clock

    def now(self) -> int:
        """Game time in ms since the app started."""
        return max(int((self.clock() - self.origin) * 1000), self.state.clock)

    def tick(self) -> None:
        """Let the bots and the timers catch up with the wall clock, then redraw: the
        status line always (its clock runs), the rest only when something happened."""
        was_over = self.table.over
        self.table.run_until(self.now())
        if self.table.over and not was_over:
            self._game_over()
        self.refresh_view(full=self.changed)

    # ------------------------------------------------------------------ the log

    def _on_happening(self, happening: Happening) -> None:
        self.changed = True
        for text in describe(happening, self.names):
            line = Text(f"{happening.t / 1000:6.1f}s ", style="dim") + text
            self.lines.append(line)
            if self.mounted:
                self.query_one("#log", RichLog).write(line)

    # ------------------------------------------------------------------ keys

    async def action_quit(self) -> None:
        """Ctrl+Q works as q does: ask once, then save the record and leave."""
        self.handle_key("q")
        self.refresh_view()

    def on_key(self, event: events.Key) -> None:
        key = event.key
        if key in ("ctrl+c", "ctrl+q"):
            return
        event.stop()
        event.prevent_default()
        self.handle_key(key)
        self.refresh_view()

    def handle_key(self, key: str) -> None:
        """One key press of the human (P0)."""
        view = self.state.view(0)
        prefix, self.prefix = self.prefix, None
        if key == "q" and (prefix == "quit" or self.table.over):
            self._save()
            self.exit()
        elif key == "q":
            self.prefix = "quit"
            self.message = f"Press q again to leave (the record goes to {self.record_path})."
        elif key in ("question_mark", "f1"):
            for line in LONG_HELP:
                self.query_one("#log", RichLog).write(line)
        elif key == "w":
            self._save()
        elif key == "escape":
            self.moving = None
            self.message = "Cancelled."
        elif self.table.over:
            self.message = "The game is over: w saves the record, q quits."
        elif key.isdigit() and prefix == "play":
            stops = [c for c in view["hand"] if c[0] == "S"]
            index = int(key) - 1
            if 0 <= index < len(stops):
                self._send(PlayStop(0, self.now(), stops[index]))
            else:
                self.message = f"You have no stop card number {key}."
        elif len(key) == 1 and key in "123456789" and int(key) <= len(view["tops"]):
            stack = int(key) - 1
            top = view["tops"][stack]
            if prefix == "stop":
                self._send(CallStop(0, self.now(), stack, top))
            else:
                self._send(Grab(0, self.now(), stack, top))
        elif key == "s":
            up = [(s, c) for s, c in enumerate(view["tops"]) if c is not None and c[0] == "S"]
            if len(up) == 1:
                self._send(CallStop(0, self.now(), up[0][0], up[0][1]))
            elif not up:
                self.message = "No stop card is showing on the stacks."
            else:
                self.prefix = "stop"
                self.message = f"Stop! on which stack? Press 1-{len(view['tops'])}."
        elif key == "p":
            stops = [c for c in view["hand"] if c[0] == "S"]
            if len(stops) == 1:
                self._send(PlayStop(0, self.now(), stops[0]))
            elif not stops:
                self.message = "You hold no stop card."
            else:
                self.prefix = "play"
                self.message = f"Play which stop card? Press 1-{len(stops)} (hand order)."
        elif key in ("left", "right"):
            limit = len(view["hand"]) - (1 if self.moving is not None else 0)
            step = -1 if key == "left" else 1
            self.cursor = min(max(self.cursor + step, 0), max(limit, 0))
        elif key == "enter":
            if view["held"] is not None:
                self._send(Insert(0, self.now(), min(self.cursor, len(view["hand"]))))
            elif self.moving is not None:
                origin, self.moving = self.moving, None
                self._send(Move(0, self.now(), origin, self.cursor))
            else:
                self.message = f"Nothing to insert: grab a card with 1-{len(view['tops'])}."
        elif key == "m":
            if view["held"] is not None or not view["hand"]:
                self.message = "Insert the held card first." if view["hand"] else "No cards."
            else:
                self.moving = min(self.cursor, len(view["hand"]) - 1)
                self.message = "Moving: ←/→ choose the place, Enter puts it, Esc cancels."
        elif key == "g":
            self._send(Go(0, self.now()))
        else:
            self.message = f"Key {key!r} does nothing here. {_plain(HELP)}"

    def _send(self, request: Request) -> None:
        was_over = self.table.over
        happening = self.table.submit(request)
        if happening.error is not None:
            self.message = f"Not now: {happening.error.message} ({happening.error.reason})."
        else:
            self.message = ""
            view = self.state.view(0)
            if isinstance(request, Grab) and view["held"] is not None:
                self.cursor = sorted_position(view["hand"], view["held"])
                self.message = "Place it: ←/→ then Enter (the cursor suggests its colour)."
        if self.table.over and not was_over:
            self._game_over()

    # ------------------------------------------------------------------ records

    def _save(self) -> None:
        self.table.close_record()
        self.writer.write(self.record_path)
        self.saved = True
        self.message = f"Record saved to {self.record_path}."

    def _game_over(self) -> None:
        self._save()
        names = [name.split()[0] for name in self.names]
        scores = ", ".join(f"{names[k]} {score}" for k, score in enumerate(self.state.scores))
        winners = ", ".join(self.names[w] for w in self.state.outcome.winners)  # type: ignore[union-attr]
        self.message = (
            f"Game over! Winner: {winners}. Minus points: {scores}. Saved {self.record_path}."
        )

    # ------------------------------------------------------------------ drawing

    def refresh_view(self, full: bool = True) -> None:
        if not self.mounted:
            return
        view = self.state.view(0)
        now = self.now()
        step = self.state.next_step()
        ends_at = step.at if step is not None and step.name == "endgame" else None
        self.query_one("#status", Static).update(status_line(view, now, self.names, ends_at))
        if not full:
            return
        self.changed = False
        tall = self.size.height >= 32
        self.query_one("#stacks", Static).update(stacks_panel(view, self.prefix, tall))
        self.query_one("#players", Static).update(players_panel(view, self.names))
        self.query_one("#hand", Static).update(hand_panel(view, self.cursor, self.moving))
        self.query_one("#message", Static).update(Text(self.message))


def _plain(markup: str) -> str:
    return Text.from_markup(markup).plain


def stacks_panel(view: dict[str, Any], prefix: str | None, tall: bool = True) -> RichTable:
    """The five stacks: top card, key and height; under a stop card, how to call it."""
    grid = RichTable.grid(padding=(0, 2))
    tops = view["tops"]
    for _ in tops:
        grid.add_column(justify="left", no_wrap=True)
    grid.add_row(*[card_face(top, tall=tall) for top in tops])
    grid.add_row(
        *[
            Text.assemble((f"[{i + 1}] ", "bold"), (f"{n} left", "dim"))
            for i, n in enumerate(view["stack_sizes"])
        ]
    )
    if any(top and top[0] == "S" for top in tops) and view["phase"] == "running":
        several = sum(1 for top in tops if top and top[0] == "S") > 1
        hints = []
        for i, top in enumerate(tops):
            if not (top and top[0] == "S"):
                hints.append(Text(""))
            elif prefix == "stop":
                hints.append(Text(f"press {i + 1}!", style="bold red"))
            else:
                hints.append(Text(f"s{i + 1 if several else ''}: STOP!", style="bold red"))
        grid.add_row(*hints)
    return grid


def players_panel(view: dict[str, Any], names: list[str]) -> RichTable:
    """Public hand contents per colour (I-38): who is lowest where; minimum in red."""
    table = RichTable(box=None, padding=(0, 1), show_edge=False)
    table.add_column("player", no_wrap=True)
    table.add_column("minus", justify="right")
    for colour in COLOURS:
        table.add_column(Text(f" {colour[:3]} ", style=STYLE[colour]), justify="center")
    table.add_column("stp")
    table.add_column("held")
    counts = [
        [kinds.get(c, 0) + (1 if held is not None and kind_of(held) == c else 0) for c in COLOURS]
        for kinds, held in zip(view["hand_kinds"], view["held_cards"], strict=True)
    ]
    lows = [min(row[i] for row in counts) for i in range(len(COLOURS))]
    for seat, name in enumerate(names):
        kinds = view["hand_kinds"]
        stops = sum(n for k, n in kinds[seat].items() if k[0] == "S")
        cells = [
            Text(str(n), style="bold red" if n == lows[i] else "")
            for i, n in enumerate(counts[seat])
        ]
        table.add_row(
            Text(name, style="bold" if seat == 0 else ""),
            str(view["scores"][seat]),
            *cells,
            str(stops or ""),
            chip(view["held_cards"][seat]),
        )
    return table


def hand_panel(view: dict[str, Any], cursor: int, moving: int | None) -> Group:
    hand: list[str] = view["hand"]
    held = view["held"]
    line = Text()
    shown = [c for i, c in enumerate(hand) if i != moving]
    for index, card in enumerate(shown):
        if (held is not None or moving is not None) and index == cursor:
            line.append("▼", style="bold reverse")
        line.append_text(chip(card))
    if (held is not None or moving is not None) and cursor >= len(shown):
        line.append("▼", style="bold reverse")
    if not hand:
        line.append("(no cards yet)", style="dim")
    head = Text("Your hand  ", style="bold")
    if held is not None:
        head.append("holding ")
        head.append_text(chip(held, wide=True))
        head.append("  ←/→ then Enter", style="dim")
    elif moving is not None:
        head.append("moving ")
        head.append_text(chip(hand[moving], wide=True))
    stops = [c for c in hand if c[0] == "S"]
    if stops:
        head.append("   stop cards (p): ", style="dim")
        for number, card in enumerate(stops, start=1):
            head.append(f"{number}" if len(stops) > 1 else "")
            head.append_text(chip(card)).append(" ")
    return Group(head, line)


DELAY_SCALES: Final = {"slow": 1.6, "normal": 1.0, "fast": 0.7}
"""``--speed``: the factor on the bots' reaction times."""


def make_app(config: PlayConfig) -> StopItApp:
    """The app for ``stoptable play stopit`` (``stoptable.tui.make_app``)."""
    return StopItApp(
        config.bots,
        seed=config.seed,
        delay_scale=DELAY_SCALES[config.speed],
        record_path=config.record,
        options=config.options,
    )
