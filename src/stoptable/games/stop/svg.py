"""Stop's card art and a seat's table as SVG text: the browser's cards, for pictures.

:func:`card_svg` writes, byte for byte, what ``stopCardSvg`` of ``web/js/cards.js`` writes
for a card code (colour, corner shape and code, big rank or symbol, the 6/9 underline),
with the aria label in English; ``tests/games/stop/test_svg.py`` runs the browser module
under node and compares all 53 codes. :func:`table_svg` lays a seat's view out with those
cards (the research envs' ``rgb_array`` frames): the pile's back and size, the top card,
every seat's hand size and total, the pending effect, and the seat's own hand. A pure
function of the view: no I/O, nothing the view hides.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from stoptable.core.protocol import JSON

COLOURS: Final = {
    "R": ("red", "#c92a2a", "#fff", "circle"),
    "B": ("blue", "#1c64c8", "#fff", "square"),
    "G": ("green", "#2b8a3e", "#fff", "triangle"),
    "Y": ("yellow", "#f5c211", "#222", "diamond"),
}
"""Colour letter -> (name, fill, ink, corner shape), as cards.js's STOP_COLOURS."""
SYMBOLS: Final = {
    "Skip": ("⊘", "SKIP", "Skip"),
    "Exch": ("⇄", "EXCH", "Card Exchange"),
    "DrawX": ("+X", "DRAW X", "Draw X"),
}
"""Symbol -> (glyph, word, name), as cards.js's SYMBOLS."""
ORDER: Final = {"R": 0, "B": 1, "G": 2, "Y": 3}
RANK_ORDER: Final = {"Skip": 10, "Exch": 11, "DrawX": 12}


def _n(x: float) -> str:
    """A number as JavaScript's template literals print it (``45``, ``54.9``)."""
    return str(int(x)) if float(x).is_integer() else repr(round(x, 10))


def _shape(kind: str, x: float, y: float, r: float, fill: str, stroke: str) -> str:
    s = f'fill="{fill}" stroke="{stroke}" stroke-width="1.2"'
    if kind == "circle":
        return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" {s}/>'
    if kind == "square":
        return (
            f'<rect x="{_n(x - r)}" y="{_n(y - r)}" width="{_n(2 * r)}" height="{_n(2 * r)}" {s}/>'
        )
    if kind == "triangle":
        return (
            f'<polygon points="{_n(x)},{_n(y - r * 1.1)} {_n(x + r * 1.1)},{_n(y + r * 0.9)} '
            f'{_n(x - r * 1.1)},{_n(y + r * 0.9)}" {s}/>'
        )
    return (
        f'<polygon points="{_n(x)},{_n(y - r * 1.25)} {_n(x + r)},{_n(y)} '
        f'{_n(x)},{_n(y + r * 1.25)} {_n(x - r)},{_n(y)}" {s}/>'
    )


def card_name(code: str) -> str:
    """A card in English words, as the browser's ``stopCardName`` ("red 4", "blue Skip").

    >>> card_name("R4"), card_name("BSkip"), card_name("FC")
    ('red 4', 'blue Skip', 'Free Choice')
    """
    if code == "FC":
        return "Free Choice"
    colour, rest = COLOURS[code[0]][0], code[1:]
    return f"{colour} {SYMBOLS[rest][2] if rest in SYMBOLS else rest}"


def sort_key(code: str) -> int:
    """records.md §4.1's canonical order (R, B, G, Y, then FC; 0..9, Skip, Exch, DrawX)."""
    if code == "FC":
        return 99
    rest = code[1:]
    return ORDER[code[0]] * 20 + (RANK_ORDER[rest] if rest in RANK_ORDER else int(rest))


def card_svg(code: str) -> str:
    """The SVG of a Stop card (viewBox 60x90), as ``stopCardSvg`` of web/js/cards.js."""
    label = card_name(code)
    if code == "FC":
        r, b, g, y = (COLOURS[c][1] for c in "RBGY")
        return f"""<svg viewBox="0 0 60 90" class="card-svg" role="img" aria-label="{label}">
<rect x="1" y="1" width="58" height="88" rx="7" fill="#222" stroke="#000"/>
<path d="M30 45 L30 20 A25 25 0 0 1 55 45 Z" fill="{r}"/>
<path d="M30 45 L55 45 A25 25 0 0 1 30 70 Z" fill="{b}"/>
<path d="M30 45 L30 70 A25 25 0 0 1 5 45 Z" fill="{g}"/>
<path d="M30 45 L5 45 A25 25 0 0 1 30 20 Z" fill="{y}"/>
<circle cx="30" cy="45" r="12" fill="#222"/>
<text x="30" y="49.5" text-anchor="middle" font-size="11" font-weight="700" fill="#fff">FC</text>
<text x="6" y="13" font-size="9" font-weight="700" fill="#fff">FREE</text>
<text x="54" y="84" font-size="9" font-weight="700" fill="#fff" text-anchor="end">CHOICE</text>
</svg>"""
    letter, rest = code[0], code[1:]
    _, fill, ink, shape = COLOURS[letter]
    symbol = SYMBOLS.get(rest)
    big = symbol[0] if symbol else rest
    corner = letter if symbol else code
    under = (
        f'<rect x="22" y="60" width="16" height="2.5" fill="{ink}"/>' if rest in ("6", "9") else ""
    )
    big_size = (22 if rest == "DrawX" else 28) if symbol else 34
    word = (
        f'<text x="30" y="72" text-anchor="middle" font-size="8.5" font-weight="700" '
        f'fill="{ink}">{symbol[1]}</text>'
        if symbol
        else ""
    )
    big_y = _n((43 if symbol else 45) + big_size * 0.35)
    return f"""<svg viewBox="0 0 60 90" class="card-svg" role="img" aria-label="{label}">
<rect x="1" y="1" width="58" height="88" rx="7" fill="{fill}" stroke="#0006"/>
<ellipse cx="30" cy="44" rx="21" ry="27" fill="#fff3" />
{_shape(shape, 10, 12, 4.5, ink, fill)}
<text x="17" y="15.5" font-size="10" font-weight="700" fill="{ink}">{corner}</text>
<text x="30" y="{big_y}" text-anchor="middle" font-size="{big_size}" font-weight="800" \
fill="{ink}">{big}</text>
{under}{word}
{_shape(shape, 50, 80, 4.5, ink, fill)}
<text x="43" y="83.5" text-anchor="end" font-size="10" font-weight="700" \
fill="{ink}">{corner}</text>
</svg>"""


def back_svg(label: str = "draw pile") -> str:
    """The back of a card (the draw pile), as ``cardBackSvg`` of web/js/cards.js."""
    return f"""<svg viewBox="0 0 60 90" class="card-svg" role="img" aria-label="{label}">
<rect x="1" y="1" width="58" height="88" rx="7" fill="#34495e" stroke="#000"/>
<rect x="6" y="6" width="48" height="78" rx="5" fill="none" stroke="#fff8" stroke-width="2"/>
<text x="30" y="50" text-anchor="middle" font-size="13" font-weight="800" fill="#fff">STOP</text>
</svg>"""


def _place(svg: str, x: float, y: float, width: float = 60, height: float = 90) -> str:
    """A card's own ``<svg>`` nested at ``(x, y)`` in the picture."""
    return svg.replace(
        "<svg ", f'<svg x="{_n(x)}" y="{_n(y)}" width="{_n(width)}" height="{_n(height)}" ', 1
    )


def _text(x: float, y: float, text: str, size: int = 14, bold: bool = False) -> str:
    weight = ' font-weight="700"' if bold else ""
    body = text.replace("&", "&amp;").replace("<", "&lt;")
    return f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}"{weight} fill="#222">{body}</text>'


def table_svg(view: Mapping[str, JSON], per_row: int = 12) -> str:
    """A seat's view of the table (``state.view(seat)``) as one SVG picture.

    >>> svg = table_svg({"seat": 0, "seats": 2, "hand": ["R4", "FC"], "top": "B4",
    ...     "draw_size": 90, "hand_sizes": [2, 7], "totals": [0, 12], "turn": 0,
    ...     "pending": None, "round": 1, "phase": "playing"})
    >>> svg.startswith("<svg") and svg.count('viewBox="0 0 60 90"') == 4
    True
    """
    me = view.get("seat")
    seats = int(view["seats"])
    hand = sorted((str(c) for c in view.get("hand") or []), key=sort_key)
    rows = max(1, -(-len(hand) // per_row))
    width = 40 + per_row * 66
    height = 200 + rows * 100 + 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#e8efe6"/>',
        _place(back_svg(), 20, 20),
        _text(90, 70, str(view.get("draw_size", "")), 16, True),
    ]
    top = view.get("top")
    if top is not None:
        parts.append(_place(card_svg(str(top)), 140, 20))
    sizes, totals = view.get("hand_sizes") or [], view.get("totals") or []
    turn = view.get("turn")
    for s in range(seats):
        who = "you" if s == me else f"seat {s}"
        mark = " (to play)" if s == turn else ""
        size = sizes[s] if s < len(sizes) else "?"
        total = totals[s] if s < len(totals) else 0
        line = f"{who}: {size} cards, {total} points{mark}"
        parts.append(_text(230, 36 + 20 * s, line, 14, s == me))
    pending = view.get("pending")
    status = f"round {view.get('round', '')}, {view.get('phase', '')}"
    if isinstance(pending, Mapping):
        status += f"; pending {pending.get('kind')}"
    parts.append(_text(230, 36 + 20 * seats + 6, status))
    y0 = 140
    parts.append(_text(20, y0 - 6, "your hand" if me is not None else "", 14, True))
    for i, code in enumerate(hand):
        parts.append(_place(card_svg(code), 20 + (i % per_row) * 66, y0 + (i // per_row) * 100))
    parts.append("</svg>")
    return "\n".join(parts)
