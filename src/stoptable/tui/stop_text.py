"""Words for the Stop terminal game: cards as coloured chips, events in sentences, and the
input line (card numbers and short words, or the engine's compact notation).

Kept apart from the Textual app so that both can be read and tested on their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from rich.markup import escape

from stoptable.core.driver import Decline
from stoptable.core.errors import InvalidNotation
from stoptable.core.protocol import JSON
from stoptable.games.stop.actions import (
    Accept,
    CallAchtung,
    CallStop,
    Cancel,
    Draw,
    Interject,
    Pass,
    Play,
    StopAction,
    parse_action,
)
from stoptable.games.stop.cards import EXCH, Card, parse_card

CHIP_STYLE: Final = {
    "R": "bold white on #c0392b",
    "B": "bold white on #2062b8",
    "G": "bold white on #1e8449",
    "Y": "bold black on #f1c40f",
}
FC_STYLE: Final = "bold white on #6c3483"
SYMBOL_NAMES: Final = {"Skip": "Skip", "Exch": "Exchange", "DrawX": "+X"}
CALL_WORDS: Final = {"a": "achtung", "achtung": "achtung", "s": "stop", "stop": "stop"}
MODE_WORDS: Final = {"l": "left", "left": "left", "r": "right", "right": "right", "swap": "swap"}

HELP: Final = """[b]How to play[/b] (you are seat 0, "You")
  [b]3[/b]            play card number 3 of your hand
  [b]3 a[/b] / [b]3 s[/b]    ... calling Achtung! / Stop! with it (a = achtung, s = stop)
  [b]1 4[/b]          a Free Choice pair: card 1 must be FC, card 4 names the colour
  [b]5 left[/b]       a Card Exchange and its direction (left/right, ja: swap 2)
  [b]d[/b]            draw a card        [b]p[/b]  pass (only when nothing can be drawn)
  [b]a[/b]            accept what is pending against you  ([b]a 3[/b]: ja Draw X, play card 3)
  [b]y[/b] / [b]n[/b]        take or decline an offer to interject or cancel ([b]y a[/b]: + Achtung)
  [b]c[/b]            a standalone call (ja): c achtung / c stop
  [b]save[/b] \\[path]   save the record (also Ctrl+S)
  [b]quit[/b]         twice to leave (also Ctrl+Q); the record is saved
  or the notation itself: [i]play R4 achtung[/i], [i]interject B6[/i], [i]draw[/i]
Calls are yours to make: play your second-to-last card with Achtung! and your last with
Stop!, or the rules make you draw (S-26, S-27)."""
TABLE_KEYS: Final = [
    "",
    "[b]3[/] play card 3      [b]d[/] draw   [b]a[/] accept",
    "[b]3 a[/] … with Achtung!  [b]3 s[/] … with Stop!",
    "[b]1 4[/] FC + card 4    [b]5 left[/] exchange",
    "[b]y[/]/[b]n[/] take/decline an offer   [b]?[/] help",
]
"""The keys under the table in a tall terminal."""


@dataclass(frozen=True, slots=True)
class Command:
    """A front-end command typed on the input line: help, save, quit, next."""

    name: str
    argument: str | None = None


def card_name(code: str) -> str:
    """A card in words: ``R4`` -> ``red 4``, ``GExch`` -> ``green Exchange``."""
    if code == "FC":
        return "Free Choice"
    colour = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}[code[0]]
    rest = code[1:]
    return f"{colour} {SYMBOL_NAMES.get(rest, rest)}"


def chip_style(code: str) -> str:
    """The Rich style of a card's colour."""
    return FC_STYLE if code == "FC" else CHIP_STYLE[code[0]]


def chip_label(code: str) -> str:
    """The face of a card with its colour letter, as in the notation: ``R4``, ``BSkip``,
    ``GExch``, ``FC``; only Draw X is shortened to ``Y+X``. The letter is there so that a
    card reads without colours (a monochrome terminal, NO_COLOR, colour blindness)."""
    if code == "FC":
        return "FC"
    return code[0] + ("+X" if code[1:] == "DrawX" else code[1:])


def chip(code: str, mark: bool = False) -> str:
    """Rich markup of a card as a coloured chip; ``mark`` underlines a playable card."""
    style = chip_style(code)
    if mark:
        style += " underline"
    return f"[{style}] {escape(chip_label(code))} [/]"


def hand_rows(hand: Sequence[str], playable: set[str], width: int) -> str:
    """The hand as rows of chips, each with its number under it (bold when playable),
    wrapped at ``width`` columns so that a large hand is never cut off."""
    if not hand:
        return "[dim](no cards)[/]"
    rows: list[str] = []
    chips: list[str] = []
    numbers: list[str] = []
    used = 0
    for i, code in enumerate(hand, start=1):
        cell = max(len(chip_label(code)) + 2, len(str(i)))
        if chips and used + 1 + cell > width:
            rows += [" ".join(chips), " ".join(numbers)]
            chips, numbers, used = [], [], 0
        used += cell + (1 if chips else 0)
        chips.append(chip(code, mark=code in playable))
        number = f"{i:^{cell}}"
        numbers.append(f"[b #facc15]{number}[/]" if code in playable else f"[dim]{number}[/]")
    rows += [" ".join(chips), " ".join(numbers)]
    return "\n".join(rows)


def playable_codes(decision: Any) -> set[str]:
    """The codes of seat 0's cards that some legal action of ``decision`` plays (a
    ``core.driver.Decision`` or None), to mark them in the hand."""
    codes: set[str] = set()
    if decision is None or decision.seat != 0:
        return codes
    for action in decision.legal:
        if isinstance(action, Play):
            codes.update(c.code for c in action.cards)
        elif isinstance(action, Interject | Cancel):
            codes.add(action.card.code)
        elif isinstance(action, Accept) and action.reveal_play is not None:
            codes.add(action.reveal_play.code)
    return codes


def seat_name(seat: Any, names: Sequence[str]) -> str:
    """``You`` for seat 0, else ``P<n>``."""
    if not isinstance(seat, int):
        return "?"
    return "You" if seat == 0 else f"P{seat}"


def _cards(raw: Any) -> str:
    if not isinstance(raw, list):
        return ""
    return " ".join(chip(str(code)) for code in raw)


def _calls(event: dict[str, JSON]) -> str:
    calls = event.get("calls")
    if not isinstance(calls, list) or not calls:
        return ""
    return " calling " + " and ".join(f"[b]{c.capitalize()}![/b]" for c in calls)


def describe(event: dict[str, JSON], names: Sequence[str]) -> str:
    """One event (as seat 0 may see it, ``Event.for_seat(0)``) as a sentence in markup."""
    kind = event.get("kind")
    who = seat_name(event.get("seat"), names)
    cards = _cards(event.get("cards"))
    count = event.get("count")
    if kind == "play":
        return f"{who} played {cards}{_calls(event)}"
    if kind == "interject":
        return f"[b]{who} interjected[/b] {cards}{_calls(event)}"
    if kind == "cancel":
        return f"[b]{who} cancelled the exchange[/b] with {cards}{_calls(event)}"
    if kind == "reveal_play":
        return f"{who} played {cards} from the revealed hand{_calls(event)}"
    if kind == "reveal":
        return f"{who} revealed {_cards(event.get('hand')) or 'an empty hand'}"
    if kind in ("draw", "accept", "reveal_draw"):
        what = {"draw": "drew", "accept": "took", "reveal_draw": "drew"}[str(kind)]
        got = f": {cards}" if cards else ""
        return f"{who} {what} {count} card{'s' if count != 1 else ''}{got}"
    if kind == "flip":
        turned = event.get("turned")
        shown = chip(str(turned)) if isinstance(turned, str) else "nothing"
        got = f": {cards}" if cards else ""
        return f"{who} turned {shown} for the +X and took {count}{got}"
    if kind == "penalty":
        missed = str(event.get("missed", "")).capitalize()
        return (
            f"[b red]{who} forgot {missed}![/] and drew {count} "
            f"({event.get('rule')}){': ' + cards if cards else ''}"
        )
    if kind == "skipped":
        return f"{who} {'were' if who == 'You' else 'was'} skipped ({count})"
    if kind == "pass":
        return f"{who} passed"
    if kind == "call":
        call = str(event.get("call", "")).capitalize()
        back = event.get("taken_back")
        extra = f", {back} card(s) go back" if back else ""
        return f"[b]{who} called {call}![/b]{extra}"
    if kind == "exchange":
        mode = event.get("mode")
        if mode == "swap":
            other = seat_name(event.get("target"), names)
            return f"[b]Card Exchange[/b]: {who} swapped hands with {other}"
        whose = "your" if who == "You" else f"{who}'s"
        return f"[b]Card Exchange[/b] ({whose}): every hand moved to the {mode}"
    if kind == "deal":
        dealer = seat_name(event.get("dealer"), names)
        deals = "deal" if dealer == "You" else "deals"
        return f"[b]Round {event.get('round')}[/b]: {dealer} {deals}; the dealer starts"
    if kind == "round_end":
        scores = event.get("scores")
        if isinstance(scores, list):
            parts = ", ".join(f"{seat_name(i, names)} {s}" for i, s in enumerate(scores))
            return f"[b]Round over[/b]: {parts}"
    return escape(str(event))


def pending_text(pending: Any, names: Sequence[str]) -> str:
    """What is pending against whom (records.md §4.5 ``pending``), in words."""
    if not isinstance(pending, dict):
        return "nothing pending"
    kind = pending.get("kind")
    victim = seat_name(pending.get("victim"), names)
    if kind == "draw2":
        return f"[b]Draw Two ×{pending.get('count')}[/b] against {victim}"
    if kind == "skip":
        return f"[b]Skip ×{pending.get('count')}[/b] against {victim}"
    if kind == "drawx":
        return f"[b]+X[/b] against {victim}"
    exchanger = seat_name(pending.get("exchanger"), names)
    mode = pending.get("mode")
    if mode == "swap":
        mode = f"swap with {seat_name(pending.get('target'), names)}"
    return f"[b]Card Exchange[/b] by {exchanger} ({mode}): a matching 0 may cancel it"


# ------------------------------------------------------------------ the input line


def _card_at(word: str, hand: Sequence[str]) -> Card:
    if not word.isdigit() or not 1 <= int(word) <= len(hand):
        raise InvalidNotation(f"{word!r} is not a card number (1-{len(hand)})")
    return parse_card(hand[int(word) - 1])


def _tail_calls(words: list[str]) -> frozenset[str]:
    calls: set[str] = set()
    while words and words[-1] in CALL_WORDS:
        calls.add(CALL_WORDS[words.pop()])
    return frozenset(calls)


def parse_input(
    text: str, hand: Sequence[str], legal: Sequence[Any], kind: str | None
) -> StopAction | Decline | Command:
    """Read the input line for seat 0. ``hand`` is the displayed (sorted) hand; ``legal``
    and ``kind`` describe the decision now asked for (to read ``y``/``n`` and numbers).

    The calls are exactly those typed: a forgotten call is the player's own (S-26, S-27).
    """
    words = text.strip().split()
    if not words:
        raise InvalidNotation("type a card number, d to draw, or ? for help")
    head = words[0].lower()
    rest = [w.lower() for w in words[1:]]
    if head in ("?", "h", "help"):
        return Command("help")
    if head in ("save", "w"):
        return Command("save", words[1] if len(words) > 1 else None)
    if head in ("quit", "q", "exit"):
        return Command("quit")
    if head in ("next", "deal"):
        return Command("next")
    if head in ("y", "yes", "n", "no"):
        if kind == "call":
            if head.startswith("n"):
                return Decline(0)
            return next(a for a in legal if isinstance(a, CallAchtung | CallStop))
        offer = [a for a in legal if isinstance(a, Interject | Cancel)]
        if kind != "offer" or not offer:
            raise InvalidNotation("there is no offer to take or decline now")
        if head.startswith("n"):
            return Decline(0)
        return replace(offer[0], calls=_tail_calls(rest))
    if head in ("d", "draw"):
        return Draw(0, _tail_calls(rest))
    if head in ("p", "pass"):
        return Pass(0)
    if head in ("c", "call"):
        if rest in (["a"], ["achtung"]):
            return CallAchtung(0)
        if rest in (["s"], ["stop"]):
            return CallStop(0)
        standalone = [a for a in legal if isinstance(a, CallAchtung | CallStop)]
        if not rest and standalone:
            return standalone[0]
        raise InvalidNotation("say 'c achtung' or 'c stop'")
    if head in ("a", "accept"):
        calls = _tail_calls(rest)
        if rest and rest[0] == "reveal":
            rest = rest[1:]
        if not rest:
            return Accept(0, calls)
        if len(rest) == 1:
            return Accept(0, calls, _card_at(rest[0], hand))
        raise InvalidNotation("accept takes at most one card number")
    if head in ("i", "interject"):
        calls = _tail_calls(rest)
        if len(rest) == 1 and rest[0].isdigit():
            return Interject(0, _card_at(rest[0], hand), calls)
    if head.isdigit() or head == "fc":
        return _numbers(head, rest, hand, legal, kind)
    return parse_action(0, " ".join(words))


def _numbers(
    head: str, rest: list[str], hand: Sequence[str], legal: Sequence[Any], kind: str | None
) -> StopAction:
    calls = _tail_calls(rest)
    if head == "fc":
        first = parse_card("FC")
        if first.code not in hand:
            raise InvalidNotation("you hold no Free Choice")
    else:
        first = _card_at(head, hand)
    cards = [first]
    if rest and rest[0].isdigit():
        cards.append(_card_at(rest.pop(0), hand))
        if not cards[0].is_free:
            raise InvalidNotation("two cards are only a Free Choice pair: FC first")
    if cards[0].is_free and len(cards) == 1:
        raise InvalidNotation("a Free Choice needs a coloured card after it (S-45): e.g. 1 4")
    mode: str | None = None
    target: int | None = None
    if rest and rest[0] in MODE_WORDS:
        mode = MODE_WORDS[rest.pop(0)]
        if mode == "swap":
            if not rest or not rest[0].isdigit():
                raise InvalidNotation("swap needs a seat number: e.g. 5 swap 2")
            target = int(rest.pop(0))
    if rest:
        raise InvalidNotation(f"did not understand {' '.join(rest)!r}")
    card = cards[-1]
    if card.rank == EXCH and mode is None:
        raise InvalidNotation("a Card Exchange needs a direction: e.g. 5 left / 5 right")
    if kind == "offer" and len(cards) == 1:
        for action in legal:
            if isinstance(action, Interject | Cancel) and action.card is card:
                return replace(action, calls=calls)
    return Play(0, tuple(cards), calls, mode, target)
