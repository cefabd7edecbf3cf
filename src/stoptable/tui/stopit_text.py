"""Words of the live Stop it! game: the key line, the help and the status line.

Kept apart from the Textual app so that they can be read and tested on their own.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

HELP = (
    "[b]1-9[/] grab [b]←→[/] [b]Enter[/] place [b]s[/]+n Stop! [b]p[/]+n play stop "
    "[b]m[/] move [b]g[/] Go [b]w[/] save [b]?[/] help [b]q q[/] quit"
)
LONG_HELP = (
    "How to play (you are P0): grab the top card of stack n with key n; it is held until",
    "you place it: move the cursor with ←/→ and press Enter. Keep each colour together.",
    "A stop card on top: s (then its stack's number if several) calls Stop! A stop card in",
    "your hand: p (then its number) plays it. m moves a hand card (←/→, Enter; Esc cancels).",
    "After an evaluation the player named in the status line presses g for Go.",
    "w saves the record; q twice leaves (the record is saved). Fewest minus points win.",
)


def status_line(
    view: dict[str, Any], now: int, names: list[str], ends_at: int | None = None
) -> Text:
    """The top line: clock, phase, whose Go, the grace, the supply; ``ends_at`` is the
    end-game deadline once the stacks are empty (I-21)."""
    phase = view["phase"]
    text = Text(f" Stop it!  {now / 1000:6.1f}s  ", style="bold")
    label = {
        "running": ("GRAB!", "bold black on green"),
        "interrupted": ("STOP!", "bold white on red"),
        "waiting_go": ("waiting for Go", "bold black on yellow"),
        "game_over": ("game over", "bold white on blue"),
    }[phase]
    text.append(f" {label[0]} ", style=label[1])
    if phase == "game_over" and view["winners"] is not None:
        text.append("  winner: " + ", ".join(names[w] for w in view["winners"]), style="bold")
    if phase == "interrupted" and view["interrupt"]:
        left = max(view["interrupt"]["deadline"] - now, 0)
        text.append(f"  sort grace {left / 1000:.1f}s")
        if view["held"] is not None:
            text.append("  insert your card now!", style="bold red")
    if phase == "waiting_go" and view["go_seat"] is not None:
        who = "you: press g" if view["go_seat"] == 0 else names[view["go_seat"]]
        if view["go_deadline"] is None:  # the first Go has no timeout (I-4)
            text.append(f"  Go: {who}")
        else:
            auto = max(view["go_deadline"] - now, 0)
            text.append(f"  Go: {who} (auto in {auto / 1000:.0f}s)")
    if phase == "running" and ends_at is not None:
        left = max(ends_at - now, 0)
        text.append(f"  stacks empty: play a stop card (ends in {left / 1000:.0f}s)")
    text.append(f"   supply {view['supply']} minus cards")
    return text
