"""``stoptable play stopandgo``: a Textual game of Stop & Go against 1-5 bots.

The whole city is drawn as box-drawing text (three columns per grid step): streets,
crossroads, the market ``◆``, destination numbers, the lanes into lighted crossroads in
the colour their light shows now, the cars as an arrow of their heading plus their seat
number, and - on your turn - the number of each move you may make on the space where it
ends. You type that number (or ``0`` to stand still, or a whole path ``move a b c``);
the engine's refusal, with its reasons in words, is shown if a path is not allowed.
As in Stop it!, leaving takes ``quit`` (or Ctrl+Q) twice and saves the record on the way out.

The app drives the engine only through views and legal moves; bots play their turns one
by one (``bot_delay`` seconds apart, 0 in tests).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Final

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, RichLog, Static

from stoptable.bots.base import make_bot
from stoptable.core.driver import write_lines
from stoptable.core.errors import IllegalAction, InvalidNotation
from stoptable.core.protocol import JSON
from stoptable.games.stopandgo import Move, MoveRejected, StopGoMap, StopGoState, new_game
from stoptable.tui import PlayConfig
from stoptable.tui.leaving import leave
from stoptable.tui.stopandgo_text import (
    HELP,
    LEGEND,
    LIGHT_STYLES,
    SEAT_STYLES,
    around,
    describe,
    explain,
    heading,
    new_writer,
    save,
    status_text,
)

_BOX: Final = {(1, 0, 1, 0): "│", (0, 1, 0, 1): "─", (1, 1, 0, 0): "└", (1, 0, 0, 1): "┘",
               (0, 1, 1, 0): "┌", (0, 0, 1, 1): "┐", (1, 1, 1, 0): "├", (1, 0, 1, 1): "┤",
               (1, 1, 0, 1): "┴", (0, 1, 1, 1): "┬", (1, 1, 1, 1): "┼", (1, 0, 0, 0): "╵",
               (0, 1, 0, 0): "╶", (0, 0, 1, 0): "╷", (0, 0, 0, 1): "╴"}  # fmt: skip


def draw_map(
    game_map: StopGoMap, view: dict[str, Any], marks: dict[str, int] | None = None
) -> Text:
    """The whole map as text: three columns per grid step, one row per grid row."""
    xs = [c[0] for c in game_map.coords]
    ys = [c[1] for c in game_map.coords]
    x0, y0 = min(xs), min(ys)
    width, height = (max(xs) - x0 + 1) * 3, max(ys) - y0 + 1
    cells: list[list[tuple[str, str]]] = [[(" ", "")] * width for _ in range(height)]
    lights: dict[int, str] = {}
    dial = int(view.get("dial") or 0)
    for (a, b), sign in game_map.dial[dial].items():
        if b in game_map.lighted:
            lights[a] = sign.kind
    ix = game_map.index
    lit_ways = {ix[t.from_] for t in game_map.model.dial.slots if ix[t.to] in game_map.lighted}
    for s, (x, y) in enumerate(game_map.coords):
        col, row = (x - x0) * 3, y - y0
        arms = {
            (game_map.coords[n][0] - x, game_map.coords[n][1] - y) for n in game_map.neighbours[s]
        }
        n, e, so, w = (int(d in arms) for d in ((0, -1), (1, 0), (0, 1), (-1, 0)))
        key = (n, e, so, w)
        kind = game_map.kinds[s]
        style = "#8a8f98"
        if kind == "crossroads":
            style = "bold #ffd43b" if s in game_map.lighted else "#c8ccd2"
        if s in lit_ways:
            style = LIGHT_STYLES.get(lights.get(s, "green"), style)
        left = "─" if key[3] else " "
        glyph = (left + _BOX.get(key, "·"), style)
        if kind == "market":
            glyph = (left + "◆", "bold #f5c400")
        number = game_map.destination_number.get(s)
        if number is not None:
            active = view.get("active") == number
            glyph = (f"{number:>2}", "bold black on #ffd43b" if active else "bold #7fd4ff")
        cells[row][col] = (glyph[0][0], glyph[1])
        cells[row][col + 1] = (glyph[0][1], glyph[1])
        if key[1] and col + 2 < width:
            cells[row][col + 2] = ("─", "#8a8f98")
    for sid, option in (marks or {}).items():
        x, y = game_map.coords[game_map.index[sid]]
        text = f"{option:>2}"
        cells[y - y0][(x - x0) * 3] = (text[0], "bold white on #b0309a")
        cells[y - y0][(x - x0) * 3 + 1] = (text[1], "bold white on #b0309a")
    for seat, car in enumerate(view.get("cars") or []):
        s = game_map.index[car["pos"]]
        x, y = game_map.coords[s]
        prev = None if car.get("prev") is None else game_map.index[car["prev"]]
        arrow = "●" if game_map.kinds[s] == "market" else heading(game_map, prev, s)
        col, style = (x - x0) * 3, SEAT_STYLES[seat % len(SEAT_STYLES)]
        if s == game_map.market:
            parked = [c for c in view["cars"] if c["pos"] == car["pos"]]
            if len(parked) > 1:  # several cars share the market: show how many
                arrow, style = "◆", "bold black on #f5c400"
                seat = len(parked)
        cells[y - y0][col] = (arrow, style)
        cells[y - y0][col + 1] = (str(seat), style)
    out = Text()
    for r, line in enumerate(cells):
        for ch, style in line:
            out.append(ch, style=style or None)
        if r < height - 1:
            out.append("\n")
    return out


class StopGoApp(App[None]):
    """You (seat ``human``) against bots; seat order and seed fix the game."""

    CSS = """
    Screen { layout: vertical; }
    #top { height: 1fr; }
    #map { width: auto; padding: 0 1; border: round #5d6168; }
    #side { width: 1fr; min-width: 44; }
    #status { height: auto; padding: 0 1; border: round #5d6168; }
    #moves { height: 1fr; padding: 0 1; border: round #b0309a; }
    #log { height: 8; border: round #5d6168; }
    #message { height: auto; padding: 0 1; }
    """
    BINDINGS: ClassVar = [Binding("ctrl+s", "save", "Save record"), Binding("f1", "help", "Help"),
                          Binding("ctrl+q", "quit", "Quit")]  # fmt: skip
    TITLE = "Stop & Go"

    def __init__(self, bots: Sequence[str] = ("heuristic",), seed: int = 0,
                 game_map: StopGoMap | None = None, options: dict[str, Any] | None = None,
                 bot_delay: float = 0.4, record_path: Path | None = None,
                 map_source: JSON = None) -> None:  # fmt: skip
        super().__init__()
        from stoptable.bots.stopandgo import use_map
        from stoptable.sim.stopandgo import bot_seed

        self.human = 0
        self.state: StopGoState = new_game(seats=len(bots) + 1, seed=seed, options=options,
                                           game_map=game_map)  # fmt: skip
        use_map(self.state.game_map)
        self.names = ["you", *bots]
        self.bots = {seat: make_bot("stopandgo", name, seat, bot_seed(seed, seat))
                     for seat, name in enumerate(self.names) if seat != self.human}  # fmt: skip
        self.bot_delay = bot_delay
        self.options_list: list[tuple[str, ...]] = []
        self.message = "Type ? for help."
        self.record_path = record_path or Path(f"stopandgo-{seed}.jsonl")
        self.writer = new_writer(self.state, seed, self.names, map_source)
        self.quit_step = 0
        """0, 1 after a first ``quit`` (asked to confirm), 2 after saving on the way out failed."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static(id="map")
            with Vertical(id="side"):
                yield Static(id="status")
                with VerticalScroll(id="moves"):
                    yield Static(id="movelist")
                yield RichLog(id="log", markup=True, wrap=True, min_width=20)
        yield Static(id="message")
        yield Input(placeholder="move number, 0 to stand still, or a path: move a b c", id="entry")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#entry", Input).focus()
        self.advance()

    def on_resize(self) -> None:
        small = self.size.height < 36
        self.query_one("#log", RichLog).styles.height = 4 if small else 8
        self.query_one("#status", Static).styles.max_height = 7 if small else None
        self.refresh_all()

    # -- the game loop -----------------------------------------------------------------

    def advance(self) -> None:
        """Play bot turns until it is your turn (one per timer tick when ``bot_delay`` > 0)."""
        while not self.state.over and self.state.turn != self.human:
            self.bot_turn()
            if self.bot_delay > 0 and not self.state.over and self.state.turn != self.human:
                self.refresh_all()
                self.set_timer(self.bot_delay, self.advance)
                return
        if not self.state.over and self.state.needs_roll:
            self.roll()
            self.log_line(f"you throw [b]{self.state.rolled}[/b]")
        self.options_list = self.ranked_moves()
        if self.state.over:
            self.game_over()
        self.refresh_all()

    def ranked_moves(self) -> list[tuple[str, ...]]:
        """Your moves (one per end state), the most promising first, standing still left out.

        The order uses the heuristic bot's cost-to-go; it is a hint, every move is allowed.
        """
        from stoptable.bots.stopandgo import plan_for

        paths = [p for p in self.state.legal_paths(self.human, distinct_ends=True) if len(p) > 1]
        target = self.state.active_space()
        if target is None:
            return paths
        plan, ix, dial = plan_for(self.state.game_map), self.state.game_map.index, self.state.dial

        def cost(path: tuple[str, ...]) -> tuple[float, int, str]:
            end = ix[path[-1]]
            value = -1.0 if end == target else plan.value((ix[path[-2]], end), target, dial)
            return (value, -len(path), path[-1])

        return sorted(paths, key=cost)

    def roll(self) -> None:
        """Take the chance step the state asks for (the die of the seat to move) and
        record it as its chance line."""
        step = self.state.next_step()
        while step is not None:
            write_lines(self.writer, self.state.run_step(step))
            step = self.state.next_step()

    def bot_turn(self) -> None:
        seat = self.state.turn
        self.roll()
        legal = [Move(seat, p) for p in self.state.legal_paths(seat, distinct_ends=True)]
        move = self.bots[seat].act(self.state.view(seat), legal)
        roll = self.state.rolled
        self.apply(move, f"P{seat} ({self.names[seat]}) throws {roll}: ")

    def apply(self, move: Move, prefix: str) -> None:
        """Apply a move (the engine refuses illegal ones) and log what happened."""
        before = self.state.active
        events = self.state.apply(move)
        self.writer.add(move.to_json())
        self.log_line(prefix + describe(self.state.game_map, move.path))
        for event in events:
            seat = event.seat
            if event.kind == "collect":
                self.log_line(f"[b]P{seat} collects {event.public['number']}[/b]")
            elif event.kind == "ticket":
                why = explain(event.public.get("reasons", []))
                self.log_line(
                    f"[red]P{seat} breaks a traffic rule ({why}): back to the last stopping"
                    f" place, ticket {event.public.get('tickets')}[/red]"
                )
            elif event.kind == "suspended":
                self.log_line(
                    f"[red]P{seat} misses the next {event.public['missed_turns']} turns[/]"
                )
            elif event.kind == "missed_turn":
                self.log_line(f"P{seat} misses a turn")
        if self.state.active is not None and self.state.active != before:
            name = self.state.game_map.destination_name[self.state.active]
            self.log_line(f"new destination: [b]{self.state.active} {name}[/b]")

    def game_over(self) -> None:
        outcome = self.state.result()
        winners = ", ".join(f"P{w} ({self.names[w]})" for w in outcome.winners) if outcome else ""
        saved = save(self.writer, self.record_path)
        why = ""
        if outcome is not None and outcome.termination == "stalled":
            turns = self.state.ruleset.stall_turns
            why = f" No car moved for {turns} turns: the game stalled (G-22)."
        self.message = f"[b]Game over.[/b]{why} Winner: {winners}. {saved} quit (or Ctrl+Q) leaves."

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        self.submit(text)

    def submit(self, text: str) -> None:
        """Read your choice: an option number, ``0``/``s`` to stand still, or a path;
        or a command: ``?``/``help``, ``save [path]``, ``quit``."""
        word, _, rest = text.partition(" ")
        quit_step, self.quit_step = self.quit_step, 0
        if word.lower() in ("?", "h", "help"):
            self.action_help()
            return
        if word.lower() == "save":
            self.message = save(
                self.writer, Path(rest.strip()) if rest.strip() else self.record_path
            )
            self.refresh_all()
            return
        if word.lower() in ("q", "quit", "exit"):
            self.leave(quit_step)
            return
        if self.state.over:
            self.message = "The game is over. quit (or Ctrl+Q) leaves."
            self.refresh_all()
            return
        if self.state.turn != self.human or self.state.rolled is None:
            self.refuse("wait: the bots are still playing their turns")
            return
        here = self.state.game_map.ids[self.state.cars[self.human].pos]
        if text.lower() in ("0", "s", "stay", "stand"):
            path: tuple[str, ...] = (here,)
        elif text.isdigit():
            number = int(text)
            if not 1 <= number <= len(self.options_list):
                choices = f"1-{len(self.options_list)} or 0" if self.options_list else "0"
                self.refuse(f"there is no move {number}: choose {choices}")
                return
            path = self.options_list[number - 1]
        else:
            try:
                path = Move.parse(text, self.human).path
            except InvalidNotation as exc:
                self.refuse(str(exc))
                return
            if path[0] != here:
                path = (here, *path)
        try:
            self.apply(Move(self.human, path), f"P{self.human} (you) throws {self.state.rolled}: ")
        except MoveRejected as exc:
            self.refuse(f"{' '.join(path)} is not allowed: {explain(exc.reasons)}")
            return
        except (IllegalAction, InvalidNotation) as exc:
            self.refuse(str(exc))
            return
        self.message = ""
        self.advance()

    def action_save(self) -> None:
        self.message = save(self.writer, self.record_path)
        self.refresh_all()

    async def action_quit(self) -> None:
        """Ctrl+Q: like ``quit``, twice to leave a game in progress."""
        quit_step, self.quit_step = self.quit_step, 0
        self.leave(quit_step)

    def leave(self, quit_step: int) -> None:
        """Leave as every game does (:mod:`stoptable.tui.leaving`)."""
        step = leave("Stop & Go", quit_step, self.state.over, self.writer, self.record_path)
        self.quit_step = step.next_step
        if step.exit_message is not None:
            self.exit(message=step.exit_message)
        elif step.failed:
            self.refuse(step.message)
        else:
            self.message = step.message
            self.refresh_all()

    def action_help(self) -> None:
        self.log_line(HELP)

    def refuse(self, why: str) -> None:
        self.message = f"[red]Refused:[/red] {why}"
        self.refresh_all()

    # -- drawing -----------------------------------------------------------------------

    def log_line(self, text: str) -> None:
        self.query_one("#log", RichLog).write(Text.from_markup(text))

    def refresh_all(self) -> None:
        view = self.state.view(self.human)
        game_map = self.state.game_map
        human_turn = not self.state.over and self.state.turn == self.human
        marks: dict[str, int] = {}
        if human_turn:
            for number, path in enumerate(self.options_list, start=1):
                if len(path) > 1:
                    marks.setdefault(path[-1], number)
        drawing = draw_map(game_map, view, marks)
        rows = drawing.plain.count("\n") + 1
        room_w, room_h = max(24, self.size.width - 50), max(8, self.size.height - 8)
        if rows > room_h or drawing.plain.index("\n") > room_w:
            car = game_map.coords[self.state.cars[self.human].pos]
            drawing = around(drawing, car, game_map, room_w, room_h)
        elif rows + 5 <= room_h:
            drawing.append_text(LEGEND)
        self.query_one("#map", Static).update(drawing)
        self.query_one("#status", Static).update(status_text(self.state.game_map, self.names, view))
        moves = Text()
        if human_turn:
            moves.append(f"You threw {self.state.rolled}. Your moves:\n", style="bold")
            for number, path in enumerate(self.options_list, start=1):
                collects = len(path) > 1 and path[-1] == view.get("active_space")
                moves.append(f"{number:>3}. ", style="bold #e070d0")
                moves.append(describe(game_map, path), style="bold #ffd43b" if collects else None)
                moves.append("  ★ collects\n" if collects else "\n", style="bold #ffd43b")
            moves.append("  0. stand still\n", style="dim")
        self.query_one("#movelist", Static).update(moves)
        self.query_one("#message", Static).update(Text.from_markup(self.message))


BOT_DELAYS: Final = {"slow": 1.0, "normal": 0.4, "fast": 0.1}
"""Seconds between bot moves for ``--speed``, so that a person can follow them."""


def make_app(config: PlayConfig) -> StopGoApp:
    """The app for ``stoptable play stopandgo`` (``stoptable.tui.make_app``)."""
    return StopGoApp(
        config.bots,
        config.seed,
        config.setup.get("map"),
        config.options,
        BOT_DELAYS[config.speed],
        record_path=config.record,
        map_source=config.header_setup.get("map"),
    )
