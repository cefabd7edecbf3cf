"""The drawing primitives of the Stop & Go SVG: colours, sizes and element writers.

Shared by :mod:`svg_signs` (sign pictures and their places) and :mod:`svg` (the board).
"""

from __future__ import annotations

from typing import Any, Final
from xml.sax.saxutils import escape

JSON = Any
Box = tuple[float, float, float, float]
Point = tuple[float, float]

ROAD: Final = "#5d6168"
ROAD_EDGE: Final = "#3b3e44"
RED: Final = "#d7191f"
BLUE: Final = "#1f5fbf"
INK: Final = "#16324f"
ROAD_HALF: Final = 8.0
SIGN_R: Final = 7.5
SIGN_OFFSET: Final = ROAD_HALF + 5.0 + SIGN_R
PANEL_W: Final = 270.0
FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"


def num(v: float) -> str:
    """A coordinate with at most one decimal and no trailing zeros."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def element(tag: str, body: str = "", **attrs: object) -> str:
    """One SVG element; ``stroke_width`` becomes ``stroke-width``, floats are rounded."""
    text = "".join(
        f' {k.rstrip("_").replace("_", "-")}="{num(v) if isinstance(v, float) else v}"'
        for k, v in attrs.items()
    )
    return f"<{tag}{text}>{body}</{tag}>" if body else f"<{tag}{text}/>"


def text_svg(x: float, y: float, text: str, size: float, fill: str = "#222", bold: bool = False,
          anchor: str = "middle", halo: bool = False, key: str | None = None) -> str:  # fmt: skip
    """A text element; ``key`` names its words in the web client's catalogues
    (``data-text``), so the browser board shows them in the page's language."""
    extra = ' stroke="#fff" stroke-width="3" paint-order="stroke"' if halo else ""
    if key is not None:
        extra += f' data-text="{escape(key)}"'
    weight = "bold" if bold else "normal"
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" font-weight="{weight}" '
            f'fill="{fill}" text-anchor="{anchor}"{extra}>{escape(text)}</text>')  # fmt: skip


def arrow(x: float, y: float, d: Point, length: float, colour: str, width: float) -> str:
    """A straight arrow centred on (x, y) pointing along the unit vector ``d``."""
    dx, dy = d
    hx, hy = dx * length / 2, dy * length / 2
    x0, y0, x1, y1 = x - hx, y - hy, x + hx, y + hy
    head = max(2.5, length * 0.38)
    hx, hy, nx, ny = x1 - dx * head, y1 - dy * head, -dy * head * 0.6, dx * head * 0.6
    stem = f"M{num(x0)},{num(y0)} L{num(hx)},{num(hy)}"
    tip = f"M{num(x1)},{num(y1)} L{num(hx + nx)},{num(hy + ny)} L{num(hx - nx)},{num(hy - ny)}Z"
    return element("path", d=stem, stroke=colour, stroke_width=width) + element(
        "path", d=tip, fill=colour
    )
