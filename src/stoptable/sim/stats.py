"""Small statistics for simulation reports: means with confidence intervals, win shares.

Normal-approximation intervals are what the reports need at the sample sizes we run
(hundreds to thousands of games); they are computed here once instead of in every game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

Z95: Final = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with its 95% confidence half-width."""

    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:.2f} ± {self.half_width:.2f}"


def mean_ci(values: Sequence[float]) -> Estimate:
    """Mean and 95% normal-approximation interval of ``values``.

    >>> str(mean_ci([1.0, 2.0, 3.0]))
    '2.00 ± 1.13'
    """
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, math.inf, 1)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Estimate(mean, Z95 * math.sqrt(var / n), n)


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """Mean of ``a[i] - b[i]`` with its 95% interval (same games, two seats)."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    return mean_ci([x - y for x, y in zip(a, b, strict=True)])


def win_shares(winners: Sequence[Sequence[int]], seats: int) -> list[float]:
    """Each seat's share of wins; a shared win counts 1/k to each of the k winners.

    >>> win_shares([[0], [0, 1], [2]], 3)
    [0.5, 0.16666666666666666, 0.3333333333333333]
    """
    shares = [0.0] * seats
    for group in winners:
        for seat in group:
            shares[seat] += 1.0 / len(group)
    total = len(winners) or 1
    return [s / total for s in shares]
