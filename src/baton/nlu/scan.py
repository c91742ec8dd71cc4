"""The question being read: its text, its normalised form, and the spans already accounted for.

Each reader (operators, periods, catalog terms) claims the spans it reads; what no reader
claimed is the residual, which must be filler words or the question is asked back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass
class Scan:
    """The question and the spans of it already read."""

    text: str
    norm: str
    claimed: list[tuple[int, int]] = field(default_factory=list)
    terms: list[tuple[int, int]] = field(default_factory=list)
    """Spans of catalog terms: an operator word inside a longer one is part of the term
    ("average" in "average order value", "平均" in "平均每单多少钱")."""
    members: list[tuple[int, int]] = field(default_factory=list)
    """Spans of the terms that name a member ("drop live stream": a member after the verb)."""
    metrics: list[tuple[int, int]] = field(default_factory=list)
    """Spans of the terms that name a metric ("regions above 1,000 orders": the bound is of orders)."""
    averages: list[tuple[int, int]] = field(default_factory=list)
    """Spans of the terms that name a metric whose label says it is an average ("dep delay" of
    "Average departure delay"): "average" said before one is its own word, no average per a period."""

    def claim(self, start: int, end: int) -> None:
        """Mark ``text[start:end]`` as read."""
        self.claimed.append((start, end))

    def release(self, start: int, end: int) -> None:
        """Unmark ``text[start:end]``: a reader held it only until the next one had read."""
        self.claimed.remove((start, end))

    def free(self, start: int, end: int) -> bool:
        """Whether no reader has claimed any of ``text[start:end]``."""
        return not any(start < e and s < end for s, e in self.claimed)

    def find_all(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        """Matches of ``pattern`` (on the normalised text) that are free and not inside a longer
        catalog term; nothing is claimed."""
        return [
            m
            for m in pattern.finditer(self.norm)
            if m.end() > m.start() and self.free(m.start(), m.end()) and not self._in_term(m.start(), m.end())
        ]

    def cuts_term(self, start: int, end: int) -> bool:
        """Whether ``text[start:end]`` takes part of a catalog term without all of it ("monthly
        average" of "monthly average order value")."""
        return any(start < e and s < end and not (start <= s and e <= end) for s, e in self.terms)

    def _in_term(self, start: int, end: int) -> bool:
        return any(s <= start and end <= e and e - s > end - start for s, e in self.terms)

    def take(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        """Every free match of ``pattern``, claimed."""
        found = self.find_all(pattern)
        for m in found:
            self.claim(m.start(), m.end())
        return found

    def residual_for_periods(self, after_term: re.Pattern[str]) -> str:
        """:meth:`residual` with the catalog terms that ``after_term`` follows blanked too, so that
        a period word right after a term is read as said ("产品线上个月")."""
        chars = list(self.residual())
        for start, end in self.terms:
            if after_term.match(self.text, end):
                chars[start:end] = " " * (end - start)
        return "".join(chars)

    def residual(self) -> str:
        """The text with every claimed span blanked: what is left to account for."""
        chars = list(self.text)
        for start, end in self.claimed:
            for i in range(start, end):
                chars[i] = " "
        return "".join(chars)


__all__ = ["Scan"]
