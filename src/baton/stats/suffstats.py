"""Sufficient statistics of one sample: what the warehouse sends instead of raw rows.

The warehouse computes ``n``, ``Σ(x − shift)`` and ``Σ(x − shift)²`` in SQL. The optional
``shift`` (any value near the data, e.g. a rounded mean from an earlier query) is the classic
"assumed mean" guard against catastrophic cancellation: with values like 107.8681568 and a
variance of 1e-10 (NIST AtmWtAg) the raw sum of squares loses every significant digit, while
the shifted sums keep them. When the warehouse already returns a numerically stable mean and
sample variance (DuckDB's ``avg``/``var_samp`` use Welford updates), use :meth:`SuffStats.from_moments`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from baton.errors import InsufficientData, StatsInputError
from baton.messages import both


@dataclass(frozen=True)
class SuffStats:
    """``n``, ``total = Σ(x − shift)`` and ``sum_sq = Σ(x − shift)²`` of one sample."""

    n: int
    total: float
    sum_sq: float
    shift: float = 0.0

    def __post_init__(self) -> None:
        if isinstance(self.n, bool) or int(self.n) != self.n or self.n < 0:
            raise StatsInputError(
                *both("stats.n_integer", n=self.n),
            )
        for name in ("total", "sum_sq", "shift"):
            value = float(getattr(self, name))
            if not math.isfinite(value):
                raise StatsInputError(*both("stats.not_finite", name=name, value=value))
        if self.sum_sq < 0:
            raise StatsInputError(
                *both("stats.sum_sq_negative", value=self.sum_sq),
            )

    @classmethod
    def from_values(cls, values: Iterable[float], shift: float | None = None) -> SuffStats:
        """Build from raw values (tests and short series only); shifts by the first value by default."""
        data = [float(v) for v in values]
        k = (data[0] if data else 0.0) if shift is None else float(shift)
        dev = [v - k for v in data]
        return cls(n=len(data), total=math.fsum(dev), sum_sq=math.fsum(d * d for d in dev), shift=k)

    @classmethod
    def from_moments(cls, n: int, mean: float, var: float) -> SuffStats:
        """Build from a count, a mean and an unbiased sample variance (e.g. SQL avg / var_samp)."""
        if var < 0 or not math.isfinite(var):
            raise StatsInputError(*both("stats.variance_negative", value=var))
        sum_sq = var * (n - 1) if n > 1 else 0.0
        return cls(n=n, total=0.0, sum_sq=sum_sq, shift=float(mean))

    def with_zeros(self, count: int) -> SuffStats:
        """The same sample with ``count`` more values of 0: the days a count or an amount had no
        rows, which a GROUP BY over the rows that exist never returns (a low-volume table's
        quiet days are zeros, not missing)."""
        if count <= 0:
            return self
        k = self.shift
        return SuffStats(n=self.n + count, total=self.total - count * k, sum_sq=self.sum_sq + count * k * k, shift=k)

    @property
    def mean(self) -> float:
        """The sample mean (NaN when empty is not allowed: raises)."""
        if self.n == 0:
            raise InsufficientData(*both("stats.empty_sample"))
        return self.shift + self.total / self.n

    @property
    def centered_mean(self) -> float:
        """``mean − shift``: the small, exactly computed part of the mean."""
        if self.n == 0:
            raise InsufficientData(*both("stats.empty_sample"))
        return self.total / self.n

    @property
    def ss(self) -> float:
        """Sum of squared deviations from the mean, Σ(x − x̄)² (never negative)."""
        if self.n == 0:
            return 0.0
        return max(0.0, self.sum_sq - self.total * self.total / self.n)

    @property
    def var(self) -> float:
        """Unbiased sample variance, Σ(x − x̄)² / (n − 1)."""
        if self.n < 2:
            raise InsufficientData(
                *both("stats.variance_min", n=self.n),
            )
        return self.ss / (self.n - 1)

    @property
    def sd(self) -> float:
        return math.sqrt(self.var)

    def rebase(self, shift: float) -> SuffStats:
        """The same sample expressed around another shift (exact algebra, no loss when shifts are close)."""
        d = self.shift - float(shift)
        total = self.total + self.n * d
        sum_sq = self.sum_sq + 2.0 * d * self.total + self.n * d * d
        return SuffStats(n=self.n, total=total, sum_sq=max(0.0, sum_sq), shift=float(shift))

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "total": self.total, "sum_sq": self.sum_sq, "shift": self.shift}
