"""A tiny game for the server's own tests: the core seam with no game's rules.

"Dice race": seats take turns; before each turn a chance step rolls a die (a record line
``{"chance": "roll", "value": v}``); the seat to move sends ``advance`` (moves by the roll)
or ``stay``. After an ``advance`` of a 6 a WINDOW step lets the *other* seats ``bump`` the
mover back by one; the timing policy holds ``advance``/``stay`` during a 50 ms grace after
every action. First to ``goal`` wins. Hands are private: each seat holds a secret number
that only its own view shows, so the hidden-information checks have something to catch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from stoptable.core.errors import IllegalAction, InvalidNotation, RecordError
from stoptable.core.game import GameSpec
from stoptable.core.protocol import JSON, Event, Outcome, Step, StepKind
from stoptable.core.records import Header
from stoptable.core.rng import Rng
from stoptable.core.ruleset import Option, RulesetBase

TYPES = ("advance", "stay", "bump")


@dataclass(frozen=True, slots=True)
class Ruleset(RulesetBase):
    GAME: ClassVar[str] = "Dice race"
    SEAT_RULE: ClassVar[str] = "R-0"
    OPTIONS: ClassVar[tuple[Option, ...]] = (Option("goal", "int", minimum=1, maximum=100),)
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {"race": {}}
    MIN_SEATS: ClassVar[int] = 2
    MAX_SEATS: ClassVar[int] = 4
    name: str = "race"
    goal: int = 12


@dataclass(frozen=True, slots=True)
class Act:
    seat: int
    type: str

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "type": self.type}

    def notation(self) -> str:
        return self.type


@dataclass
class Race:
    rules: Ruleset
    seats: int
    seed: int
    pos: list[int] = field(default_factory=list)
    secret: list[int] = field(default_factory=list)
    turn: int = 0
    roll: int | None = None
    window: int | None = None
    rng: Rng = field(init=False)

    def __post_init__(self) -> None:
        self.rng = Rng(self.seed)
        self.pos = [0] * self.seats
        self.secret = [self.rng.below(1000) for _ in range(self.seats)]

    def result(self) -> Outcome | None:
        if max(self.pos) < self.rules.goal:
            return None
        return Outcome.ranked("goal", self.pos, False)

    def next_step(self) -> Step | None:
        if self.result() is not None:
            return None
        if self.window is not None:
            return Step(StepKind.WINDOW, "bump_window", seat=self.window)
        if self.roll is None:
            return Step(StepKind.CHANCE, "roll", seat=self.turn)
        return None

    def run_step(self, step: Step, outcome: JSON = None) -> list[Event]:
        if step.kind is StepKind.WINDOW:
            self.window = None
            return [Event("window_closed")]
        value = int(outcome) if outcome is not None else 1 + self.rng.below(6)
        self.roll = value
        return [Event("roll", self.turn, {"value": value}, line={"chance": "roll", "value": value})]

    def to_move(self) -> int | None:
        if self.result() is not None or self.roll is None or self.window is not None:
            return None
        return self.turn

    def actors(self) -> list[int]:
        if self.window is not None:
            return [s for s in range(self.seats) if s != self.window]
        mover = self.to_move()
        return [] if mover is None else [mover]

    def legal_actions(self, seat: int) -> list[Any]:
        if self.window is not None:
            return [Act(seat, "bump")] if seat != self.window else []
        if seat != self.to_move():
            return []
        return [Act(seat, "advance"), Act(seat, "stay")]

    def apply(self, action: Any) -> list[Event]:
        if self.result() is not None:
            raise IllegalAction("game_over", "R-9", "the race is over")
        seat, kind = action.seat, action.type
        if kind == "bump":
            if self.window is None or seat == self.window:
                raise IllegalAction("nothing_pending", "R-3", "no bump window")
            victim = self.window
            self.pos[victim] = max(0, self.pos[victim] - 1)
            self.window = None
            return [Event("bump", seat, {"victim": victim})]
        if self.window is not None:
            self.window = None
        if seat != self.to_move():
            raise IllegalAction("not_your_turn", "R-1", f"seat {self.turn} is to move")
        roll = self.roll
        assert roll is not None
        if kind == "advance":
            self.pos[seat] += roll
        self.roll = None
        self.turn = (self.turn + 1) % self.seats
        if kind == "advance" and roll == 6 and self.result() is None:
            self.window = seat
        self.secret[seat] += 1
        return [Event(kind, seat, {"roll": roll}, private={"secret": self.secret[seat]})]

    def view(self, seat: int | None) -> dict[str, JSON]:
        return {
            "game": "toy",
            "ruleset": self.rules.name,
            "seats": self.seats,
            "phase": "over" if self.result() else "playing",
            "seat": seat,
            "pos": list(self.pos),
            "turn": self.turn,
            "roll": self.roll,
            "window": self.window,
            "secret": None if seat is None else self.secret[seat],
        }

    def to_json(self) -> dict[str, JSON]:
        return {**self.view(None), "secret": list(self.secret)}


def _act(data: Any, seat: int, t: int | None) -> Act:
    if set(data) - {"type"} or data.get("type") not in TYPES:
        raise InvalidNotation("a toy action is {type: advance|stay|bump}")
    return Act(seat, data["type"])


class Replayer:
    def setup(self, header: Header) -> Race:
        rules = Ruleset.from_options(header.ruleset, header.options)
        return Race(rules, header.seats, header.seed)

    def apply_event(self, state: Race, event: dict[str, JSON]) -> None:
        if "chance" in event:
            state.window = None
            step = state.next_step()
            if step is None or step.kind is not StepKind.CHANCE:
                raise RecordError("no roll due")
            state.run_step(step, event["value"])
            return
        if event.get("type") != "bump" and state.window is not None:
            state.window = None
        state.apply(_act({"type": event["type"]}, int(event["seat"]), None))

    def finish(self, state: Race) -> None:
        state.window = None

    def output(self, state: Race) -> dict[str, JSON]:
        return state.to_json()


class Timing:
    def grace_ms(self, state: Any, action: Any, events: list[Event]) -> int:
        return 50

    def held(self, state: Any, action: Any) -> bool:
        return bool(action.type != "bump")

    def step_delay_ms(self, state: Any, step: Step, round_pause_ms: int) -> int:
        return 100 if step.kind is StepKind.WINDOW else 0


SPEC = GameSpec(
    name="toy",
    title="Dice race",
    rules="none",
    ruleset_type=Ruleset,
    default_ruleset="race",
    terminations=("goal",),
    realtime=False,
    new_state=lambda rules, seats, seed, **_: Race(rules, seats, seed),
    position_state=lambda *a: (_ for _ in ()).throw(RecordError("no positions")),
    json_action=_act,
    text_action=lambda text, seat, t: _act({"type": text}, seat, t),
    replayer=Replayer(),
    bot_module="toy",
    timing=Timing(),
)
