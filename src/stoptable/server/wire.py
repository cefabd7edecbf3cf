"""The JSON that Socket.IO and Engine.IO write on the wire: orjson.

Encoding the ``state`` and ``events`` messages was the largest single cost of a change in
the server's profile (the standard library's encoder, a tenth of the server's CPU at
saturation); orjson writes the same compact JSON several times faster. Decoding stays with
Engine.IO's own ``loads`` (the standard library with a cap on integer length): incoming
messages are small, and that cap is a defence the server keeps. Stored record lines do not
come through here (``store.dumps``): their text is the record format's.
"""

from __future__ import annotations

from typing import Any

import orjson
from engineio.json import loads

__all__ = ["dumps", "loads"]

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(obj: Any, **_kwargs: Any) -> str:
    """Compact JSON text (the keyword arguments ``json.dumps`` takes are ignored: orjson's
    output is already the compact form Socket.IO asks for)."""
    return orjson.dumps(obj, option=_OPTIONS).decode()
