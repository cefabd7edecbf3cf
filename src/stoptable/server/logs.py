"""The server's log lines, plain or as JSON (``--log-format json``), with the table id.

Code that logs about a table passes ``extra={"table": id}`` (and ``seat`` where there is
one); both formats show it, so a log search for one table finds every line of it. A
traceback is logged only for the server's own errors: input from strangers is refused
with one counted line (:class:`~stoptable.server.guard.LogLimiter`), never a traceback.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Final, Literal

LogFormat = Literal["text", "json"]
FIELDS: Final = ("table", "seat")
"""Extra fields a log call may carry (``extra={...}``), shown by both formats."""
LOGGER: Final = "stoptable"
OTHERS: Final = ("uvicorn", "uvicorn.error", "asyncio")
"""Loggers of the libraries under the server that ``json`` takes over too, so that every
line on stderr is one JSON object (uvicorn logs at ``warning`` and above only)."""


def _fields(record: logging.LogRecord) -> dict[str, object]:
    return {k: getattr(record, k) for k in FIELDS if getattr(record, k, None) is not None}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``t`` (UTC, ISO 8601 with ms), ``level``, ``logger``,
    ``message``, the extra fields, and ``error`` (the traceback) for an exception."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        data: dict[str, object] = {
            "t": f"{stamp}.{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            **_fields(record),
        }
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """``time level logger [table=… seat=…] message`` for people reading a terminal."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(tags)s %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        fields = _fields(record)
        tags = " ".join(f"{k}={v}" for k, v in fields.items())
        record.tags = f" [{tags}]" if tags else ""
        return super().formatMessage(record)


def formatter(kind: LogFormat) -> logging.Formatter:
    return JsonFormatter() if kind == "json" else TextFormatter()


def configure(kind: LogFormat, level: int = logging.INFO) -> logging.Handler:
    """Send the ``stoptable`` loggers to stderr in ``kind``, and with ``json`` uvicorn's and
    asyncio's too (``stoptable serve`` calls it once, after uvicorn has set up its own
    logging); the handler."""
    handler = logging.StreamHandler()
    handler.setFormatter(formatter(kind))
    names = [LOGGER, *(OTHERS if kind == "json" else ())]
    for name in names:
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.propagate = False
    logging.getLogger(LOGGER).setLevel(level)
    return handler
