"""stoptable: the Stop family of tabletop games as exact, deterministic rules engines."""

__version__ = "0.1.0"
