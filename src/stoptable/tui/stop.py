"""The Stop terminal game (Textual): you are seat 0 against 1-9 bots, whole matches to 500.

The app drives the engine only through :class:`~stoptable.games.stop.driver.StopDriver`,
the same S-61 driver the simulations use, so you are offered an interjection whenever you
hold the identical card, before the next seat acts, and a Card Exchange cancel when you hold
the matching 0. Everything shown comes from seat 0's view (S-63); the app reads no state
field. Every accepted action (and every shuffle) is written to a record that ``stoptable
replay`` reads; save it at any time (``save`` or Ctrl+S).
As in Stop it!, leaving takes ``quit`` (or Ctrl+Q) twice and saves the record on the way out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, Final

from rich.markup import escape
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, RichLog, Static

from stoptable.bots.base import make_bot
from stoptable.core.driver import Decision, Decline
from stoptable.core.errors import IllegalAction, InvalidNotation, RecordError
from stoptable.core.protocol import JSON
from stoptable.core.records import RecordWriter
from stoptable.games.stop.actions import CallAchtung, CallStop, Cancel, Interject
from stoptable.games.stop.driver import StopDriver
from stoptable.games.stop.records import record_header
from stoptable.games.stop.state import StopState, new_game
from stoptable.tui import PlayConfig
from stoptable.tui.leaving import leave
from stoptable.tui.stop_text import (
    HELP,
    TABLE_KEYS,
    Command,
    card_name,
    chip,
    chip_label,
    chip_style,
    describe,
    hand_rows,
    parse_input,
    pending_text,
    playable_codes,
    seat_name,
)

CSS = """
Screen { layout: vertical; background: #0f2a1d; }
#title { height: 1; padding: 0 1; background: #14532d; color: #f0fdf4; text-style: bold; }
#main { height: 1fr; }
#side { width: 44; }
#seats { height: auto; padding: 0 1; border: round #3f8f5f; border-title-color: #bbf7d0; }
#table { height: 1fr; padding: 0 1; border: round #3f8f5f; border-title-color: #bbf7d0; }
#log { width: 1fr; padding: 0 1; border: round #3f8f5f; border-title-color: #bbf7d0; }
#handbox { height: auto; min-height: 4; max-height: 8; padding: 0 1; border: round #facc15;
           border-title-color: #fde68a; scrollbar-size-vertical: 1; }
#hand { height: auto; }
#prompt { height: auto; padding: 0 1; color: #f0fdf4; }
#message { height: auto; padding: 0 1; color: #fca5a5; display: none; }
#command { border: tall #facc15; }
"""


TABLE_ROWS = 5
"""The table panel's height at 80x24: its three lines (top card and piles, what is
pending, who acts) and its border."""

FIXED_ROWS = 10
"""Rows outside #main with a one-row hand: title, hand box, prompt, command line, footer."""


class StopApp(App[None]):
    """One match of Stop in the terminal.

    ``position`` (records.md §4.2) starts from an explicit state instead of a seeded deal;
    ``bot_delay`` (seconds) paces the bots so that a person can follow them.
    """

    CSS = CSS
    TITLE = "Stop"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save record"),
        Binding("f1", "help", "Help"),
        Binding("ctrl+q", "quit", "Quit"),
    ]

    def __init__(
        self,
        ruleset: str = "abacus-en",
        bots: list[str] | None = None,
        seed: int = 0,
        record_path: Path | None = None,
        options: dict[str, JSON] | None = None,
        bot_delay: float = 0.0,
        position: dict[str, JSON] | None = None,
    ) -> None:
        super().__init__()
        names = bots or ["heuristic"] * 3
        self.names = ["you", *names]
        self.seed = seed
        self.record_path = record_path or Path(f"stop-{ruleset}-{seed}.jsonl")
        self.bot_delay = bot_delay
        if position is None:
            state = new_game(ruleset, len(self.names), seed, dict(options or {}))
        else:
            state = StopState.from_position(
                ruleset, len(self.names), position, seed, dict(options or {})
            )
        self.state = state
        self.writer = RecordWriter(record_header(state, seed, options, position))
        players: list[Any] = [None]
        players += [
            make_bot("stop", name, seat, seed * 31 + seat)
            for seat, name in enumerate(names, start=1)
        ]
        self.driver = StopDriver(state, players, self.writer, keep_events=True, deal_rounds=False)
        self.current: Decision | None = None
        self.hand: list[str] = []
        self.saved_at: Path | None = None
        self.quit_step = 0
        """0, 1 after a first ``quit`` (asked to confirm), 2 after saving on the way out failed."""
        self.announced = 0
        """The last round whose end has been announced in the log."""

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with Vertical(id="side"):
                yield Static(id="seats")
                yield Static(id="table")
            yield RichLog(id="log", markup=True, wrap=True, min_width=20)
        with VerticalScroll(id="handbox"):
            yield Static(id="hand")
        yield Static(id="prompt")
        yield Static(id="message")
        yield Input(placeholder="card number, d, a, y/n, ? for help", id="command")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#seats", Static).border_title = "Players"
        self.query_one("#table", Static).border_title = "Table"
        self.query_one("#log", RichLog).border_title = "What happened"
        self.query_one("#handbox").border_title = "Your hand"
        view = self.view()
        self.say(
            describe({"kind": "deal", "round": view["round"], "dealer": view["dealer"]}, self.names)
        )
        self.say("Type [b]?[/b] for help. Hold the identical card and you are offered it.")
        self.query_one("#command", Input).focus()
        self.advance()

    # ------------------------------------------------------------------ flow

    def view(self) -> dict[str, JSON]:
        """Seat 0's view: all the app knows of the game."""
        return self.state.view(0)

    def kind(self) -> str | None:
        """What the current decision asks: ``offer`` (interject or cancel), ``call`` (a ja
        standalone call) or ``turn``; None when seat 0 has nothing to decide."""
        return decision_kind(self.current)

    def say(self, markup: str) -> None:
        self.query_one("#log", RichLog).write(markup)

    def drain(self) -> None:
        for event in self.driver.events:
            if event.kind == "round_end":
                self.announced = int(self.view()["round"])
            self.say(describe(event.for_seat(0), self.names))
        self.driver.events.clear()

    def advance(self) -> None:
        """Let the bots act until seat 0 must decide or the round ends."""
        while True:
            self.drain()
            decision = self.driver.decision()
            if decision is None or decision.seat == 0:
                self.current = decision
                if decision is None:
                    self.round_over()
                break
            self.current = None
            bot = self.driver.bots[decision.seat]
            choice = bot.act(self.state.view(decision.seat), decision.legal)
            self.driver.submit(choice)
            if self.bot_delay > 0:
                self.drain()
                self.refresh_panels()
                self.set_timer(self.bot_delay, self.advance)
                return
        self.refresh_panels()

    def round_over(self) -> None:
        """Announce the scores once (the engine keeps its round_end event in its log, not in
        what ``apply`` returns), and at the end of the match the winners."""
        view = self.view()
        round_scores, totals = view["round_scores"], view["totals"]
        if self.announced != view["round"] and isinstance(round_scores, list):
            self.announced = int(view["round"])
            scores = ", ".join(
                f"{seat_name(i, self.names)} {s}" for i, s in enumerate(round_scores)
            )
            sums = ", ".join(f"{seat_name(i, self.names)} {t}" for i, t in enumerate(totals))
            self.say(f"[b]Round over[/b]: {scores}")
            self.say(f"[b]Totals[/b]: {sums}")
        if view["phase"] == "game_over":
            winners = view["winners"] or []
            self.say(
                "[b]Game over[/b]: "
                + ", ".join(seat_name(w, self.names) for w in winners)
                + " won."
            )
            self.save(self.record_path)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        text = message.value
        message.input.value = ""
        self.handle(text)

    def handle(self, text: str) -> None:
        """One line of input: a command or seat 0's action (checked by the engine)."""
        quit_step, self.quit_step = self.quit_step, 0
        phase = self.view()["phase"]
        if phase == "round_over" and not text.strip():
            text = "next"
        legal = self.current.legal if self.current is not None else []
        kind = self.kind()
        try:
            choice = parse_input(text, self.hand, legal, kind)
        except InvalidNotation as exc:
            self.error(f"{exc} — try again (? for help)")
            return
        if isinstance(choice, Command) and choice.name == "quit":
            self.leave(quit_step)
            return
        if isinstance(choice, Command):
            self.command(choice)
            return
        if self.current is None:
            self.error("nothing to decide now: " + self.prompt_text())
            return
        if isinstance(choice, Decline) and kind == "turn":
            self.error("there is no offer to decline now")
            return
        if kind != "turn" and not isinstance(
            choice, Decline | Interject | Cancel | CallAchtung | CallStop
        ):
            self.error("first answer the offer: y (take it) or n (decline); nothing changed")
            return
        try:
            self.driver.submit(choice)
        except IllegalAction as exc:
            self.error(f"✗ {exc.message} — {exc.reason} ({exc.rule}). Nothing changed; try again.")
            self.refresh_panels()
            return
        except RecordError as exc:  # names a seat that does not exist (records.md §3)
            self.error(f"✗ {exc}. Nothing changed; try again.")
            return
        self.error("")
        self.advance()

    def command(self, cmd: Command) -> None:
        if cmd.name == "help":
            self.say(HELP)
        elif cmd.name == "save":
            self.save(Path(cmd.argument) if cmd.argument else self.record_path)
        elif cmd.name == "next":
            if self.view()["phase"] != "round_over":
                self.error("the round is not over yet")
                return
            self.driver.next_round()
            self.advance()

    def error(self, text: str) -> None:
        message = self.query_one("#message", Static)
        message.update(Text(text))
        message.display = bool(text)  # no empty line when there is nothing to say

    def save(self, path: Path) -> None:
        try:
            self.writer.write(path)
        except OSError as exc:
            self.error(f"could not save the record: {exc}")
            return
        self.saved_at = path
        self.say(f"Record saved to [b]{escape(str(path))}[/b] ({len(self.writer.events)} lines).")

    async def action_quit(self) -> None:
        """Ctrl+Q: like ``quit``, twice to leave a game in progress."""
        quit_step, self.quit_step = self.quit_step, 0
        self.leave(quit_step)

    def leave(self, quit_step: int) -> None:
        """Leave as every game does (:mod:`stoptable.tui.leaving`)."""
        step = leave(
            "Stop", quit_step, self.view()["phase"] == "game_over", self.writer, self.record_path
        )
        self.quit_step = step.next_step
        if step.exit_message is not None:
            self.exit(message=step.exit_message)
        else:
            self.error(step.message)

    def action_save(self) -> None:
        self.save(self.record_path)

    def action_help(self) -> None:
        self.say(HELP)

    # --------------------------------------------------------------- drawing

    def on_resize(self) -> None:
        """The table panel is shorter in a small terminal: redraw it at the new size."""
        self.refresh_panels()

    def refresh_panels(self) -> None:
        view = self.view()
        self.hand = [str(c) for c in view["hand"] or []]
        rnd, dealer = view["round"], seat_name(view["dealer"], self.names)
        self.show(
            "#title",
            f"Stop · {view['ruleset']} · round {rnd} · dealer {dealer} · "
            f"match to {view['target_score']}, lowest total wins",
        )
        self.show("#seats", self.seats_text(view))
        self.show("#table", self.table_text(view))
        width = max(20, self.size.width - 5)  # the border, padding and a scroll bar
        self.show("#hand", hand_rows(self.hand, playable_codes(self.current), width))
        self.show("#prompt", self.prompt_text())

    def show(self, widget: str, markup: str) -> None:
        """Rich markup into a Static (Textual's own markup treats spaces differently)."""
        self.query_one(widget, Static).update(Text.from_markup(markup))

    def seats_text(self, view: dict[str, JSON]) -> str:
        """One line per player, or two players a line when one each would squeeze the
        table panel below its three lines (80x24 with 6 bots or more)."""
        sizes, totals = view["hand_sizes"], view["totals"]
        scores = view["round_scores"]
        assert isinstance(sizes, list) and isinstance(totals, list)
        pending = view["pending"]
        victim = pending.get("victim") if isinstance(pending, dict) else None
        # before the first layout #main has no size yet: the screen less the fixed rows
        main = self.query_one("#main").size.height or self.size.height - FIXED_ROWS
        if len(self.names) + 3 > main - TABLE_ROWS:
            return self.seats_columns(view, sizes, totals, victim)
        lines = ["[dim]   player          cards  total[/]"]
        for seat, name in enumerate(self.names):
            mark = "[b yellow]▶[/]" if seat == view["turn"] else " "
            label = "You" if seat == 0 else f"P{seat} {name}"
            extra = " [red]⚠[/]" if seat == victim else ""
            if isinstance(scores, list):
                extra += f" [dim]+{scores[seat]}[/]"
            lines.append(f"{mark} {escape(label):<15} {sizes[seat]:>5}  {totals[seat]:>5}{extra}")
        return "\n".join(lines)

    def seats_columns(
        self, view: dict[str, JSON], sizes: list[int], totals: list[int], victim: object
    ) -> str:
        """The players in two columns of 19 characters (the panel is 40 wide inside): the
        mark is ⚠ for the victim, ▶ for the seat to act; names are cut to 7 characters.
        A round's scores are in the log, so they are left out here."""
        half = (len(self.names) + 1) // 2
        head = "[dim] player  hand total[/]"  # the cells' 1 + 7 + 5 + 6 characters
        lines = [head + "  " + head if len(self.names) > 1 else head]
        for row in range(half):
            cells = []
            for seat in (row, row + half):
                if seat >= len(self.names):
                    continue
                if seat == victim:
                    mark = "[b red]⚠[/]"
                elif seat == view["turn"]:
                    mark = "[b yellow]▶[/]"
                else:
                    mark = " "
                label = "You" if seat == 0 else f"P{seat} {self.names[seat]}"
                cells.append(f"{mark}{escape(f'{label:<7.7}')}{sizes[seat]:>5}{totals[seat]:>6}")
            lines.append("  ".join(cells))
        return "\n".join(lines)

    def table_text(self, view: dict[str, JSON]) -> str:
        top = view["top"]
        lines = []
        small = self.size.height < 30  # 80x24: the pending line and the turn must show
        piles = f"draw [b]{view['draw_size']}[/b] · discard [b]{view['discard_size']}[/b]"
        if isinstance(top, str) and small:  # one line: a large hand leaves the table 3 rows
            lines.append(f"top card: {chip(top)} {piles}")
        elif isinstance(top, str):
            style = chip_style(top)
            label = chip_label(top)
            lines += [
                f"  [{style}]{' ' * 11}[/]",
                f"  [{style}]{label:^11}[/]   top card:",
                f"  [{style}]{' ' * 11}[/]   {card_name(top)}",
                "",
            ]
        if not isinstance(top, str) or not small:
            lines.append(piles.replace("draw", "draw pile").replace("discard", "discard pile"))
        lines.append(pending_text(view["pending"], self.names))
        turn = view["turn"]
        if turn is not None:
            lines.append(f"to act: [b]{seat_name(turn, self.names)}[/b]")
        if small:
            return "\n".join(lines)
        lines += TABLE_KEYS
        return "\n".join(lines)

    def prompt_text(self) -> str:
        view = self.view()
        if view["phase"] == "game_over":
            return "[b]Game over.[/b] save \\[path] writes the record; quit leaves."
        if view["phase"] == "round_over":
            return "[b]Round over.[/b] Press Enter (or type next) to deal the next round."
        d = self.current
        if d is None:
            return "waiting for the other players…"
        calls = "  [dim](add a = Achtung!, s = Stop!)[/]"
        kind = self.kind()
        if kind == "offer":
            action = d.legal[0]
            card = chip(action.card.code)
            if isinstance(action, Cancel):
                return f"Cancel the Card Exchange with your {card}?  [b]y[/b] / [b]n[/b]{calls}"
            return f"You hold the identical {card}: interject it?  [b]y[/b] / [b]n[/b]{calls}"
        if kind == "call":
            return "Your call window is open: [b]y[/b] (call now) or [b]n[/b] (not now)"
        pending = view["pending"]
        if isinstance(pending, dict) and pending.get("victim") == 0:
            return (
                f"{pending_text(pending, self.names)}: answer with a marked card, "
                f"or [b]a[/b] to accept.{calls}"
            )
        return f"Your turn: a card number to play, [b]d[/b] to draw.{calls}"


def decision_kind(decision: Decision | None) -> str | None:
    """``offer``, ``call`` or ``turn`` for a decision of the S-61 driver (None: none).

    An optional decision is an offer when it lists an interjection or a cancel, else a ja
    standalone call; a decision that cannot be declined is the seat's turn or response.
    """
    if decision is None:
        return None
    if not decision.optional:
        return "turn"
    if any(isinstance(a, Interject | Cancel) for a in decision.legal):
        return "offer"
    return "call"


BOT_DELAYS: Final = {"slow": 0.8, "normal": 0.3, "fast": 0.05}
"""Seconds between bot moves for ``--speed``, so that a person can follow them."""


def make_app(config: PlayConfig) -> StopApp:
    """The app for ``stoptable play stop`` (``stoptable.tui.make_app``)."""
    return StopApp(
        ruleset=config.ruleset,
        bots=config.bots,
        seed=config.seed,
        record_path=config.record,
        options=config.options,
        bot_delay=BOT_DELAYS[config.speed],
    )
