"""``render_mode="rgb_array"``: an SVG picture rasterised to an ``(H, W, 3)`` uint8 array.

The pictures are the ones the browser shows: Stop & Go's map with the cars on it
(``games.stopandgo.svg.render_svg``, what the server's ``map.svg`` serves) and Stop's
cards (``games.stop.svg``, byte for byte the browser's card art). They are rasterised
by resvg (the ``resvg-py`` wheel of the [rl] extra: Rust, no system library) and read
back from its PNG by Pillow (a dependency of matplotlib, so of every install).
"""

from __future__ import annotations

import io
from typing import Final

import numpy as np

RENDER_FPS: Final = 2
"""``metadata["render_fps"]``: frames per second for a video of a turn-based game."""


def rasterise(svg: str, width: int | None = None) -> np.ndarray:
    """The picture of ``svg`` as an ``(H, W, 3)`` uint8 RGB array on white (``width``
    pixels wide, the height kept in proportion; None: the SVG's own size)."""
    try:
        import resvg_py
    except ImportError as exc:  # the [rl] extra brings it
        raise ImportError(
            "rgb_array rendering needs resvg-py: pip install 'stoptable[rl]'"
        ) from exc
    from PIL import Image

    png = resvg_py.svg_to_bytes(svg_string=svg, width=width, background="#ffffff")
    with Image.open(io.BytesIO(bytes(png))) as image:
        rgb: np.ndarray = np.asarray(image.convert("RGB"), dtype=np.uint8).copy()
    return rgb
