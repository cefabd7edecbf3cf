"""The one seeded random generator a game state owns.

Every chance outcome of a game comes from here, so the same seed and the same actions give
the same game byte for byte. It wraps :class:`random.Random` (never the module-level global
generator) and adds the few draws the games need.
"""

from __future__ import annotations

import math
import random
from _random import Random as _CRandom
from collections.abc import Callable, MutableSequence
from operator import mul
from typing import TypeVar

T = TypeVar("T")


def seeded(seed: int) -> random.Random:
    """``random.Random(seed)``, seeded straight through C: the same generator state.

    ``random.Random(seed)`` runs two Python frames (``Random.__init__`` and
    ``Random.seed``, whose type checks end in the C ``_random.Random.seed`` for an int)
    before it sets ``gauss_next``; here the object is made unseeded (the C ``__new__``,
    which neither seeds nor reads ``os.urandom``), seeded by the C method and given its
    ``gauss_next``. Every simulated Stop it! game makes five generators (the game and
    four bots). An int seed only (``Random.seed`` hashes a str or bytes first).

    >>> seeded(7).getstate() == random.Random(7).getstate()
    True
    """
    generator = random.Random.__new__(random.Random)
    _CRandom.seed(generator, seed)
    generator.gauss_next = None  # type: ignore[attr-defined]  # Random.__init__'s spare normal
    return generator


class Rng:
    """A small, copyable, seeded generator.

    >>> a, b = Rng(7), Rng(7)
    >>> xs, ys = list(range(10)), list(range(10))
    >>> a.shuffle(xs); b.shuffle(ys)
    >>> xs == ys
    True
    """

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._random = seeded(seed)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates): for i from the last index down to 1,
        swap item i with item ``int(random() * (i + 1))``.

        The indices are drawn in C - ``(i + 1) * random()`` mapped over the sizes, the
        sizes first so that no draw is taken past the last one - and only the swaps run
        in Python (every simulated game deals a 135-card deck)."""
        n = len(items)
        draws = map(int, map(mul, range(n, 1, -1), iter(self._random.random, -1.0)))
        for i, j in zip(range(n - 1, 0, -1), draws, strict=True):
            items[i], items[j] = items[j], items[i]

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``."""
        return low + int(self._random.random() * (high - low + 1))

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        return int(self._random.random() * n)

    def random(self) -> float:
        """A uniform float in ``[0, 1)``."""
        return self._random.random()

    def lognormal(self, mu: float, sigma: float) -> float:
        """A log-normal sample, ``exp(N(mu, sigma))``."""
        return math.exp(self._random.gauss(mu, sigma))

    def gauss_function(self) -> Callable[[float, float], float]:
        """The bound normal sampler that :meth:`lognormal` draws from: ``exp`` of its
        sample is exactly ``lognormal(mu, sigma)``, with the same draws, one call less (for
        the simulators' reaction-time samples, drawn thousands of times a game)."""
        return self._random.gauss

    def random_function(self) -> Callable[[], float]:
        """The bound uniform draw behind :meth:`random` and :meth:`below`:
        ``int(f() * n)`` is exactly ``below(n)``, with the same draws, one call less (for a
        random bot, which draws once per decision)."""
        return self._random.random

    def copy(self) -> Rng:
        """An independent generator in the same internal state."""
        other = Rng.__new__(Rng)
        other.seed = self.seed
        other._random = random.Random(0)  # a seed: without one it reads os.urandom (slow)
        other._random.setstate(self._random.getstate())
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rng):
            return NotImplemented
        return self._random.getstate() == other._random.getstate()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Rng(seed={self.seed})"
