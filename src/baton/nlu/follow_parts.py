"""What a follow-up changed and kept of the previous question, part by part: the lead of its
answer names them ("接上一问：沿用指标、时间范围；改为筛选"), so the reader is never told a part was
kept that was not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from pydantic import ValidationError

from baton.contracts.conversation import PartName
from baton.contracts.semantic import SemanticQuery
from baton.errors import AmbiguousQuestion
from baton.messages import both

Part = PartName
PARTS: tuple[Part, ...] = get_args(PartName)
"""The parts of a question a follow-up keeps or changes, in the order the lead names them."""


@dataclass(frozen=True)
class FollowUp:
    """A follow-up's query, and what it changed and kept of the previous question."""

    query: SemanticQuery
    changed: tuple[Part, ...]
    inherited: tuple[Part, ...]
    standalone: bool = False

    def __post_init__(self) -> None:
        """The query a follow-up changed part by part (copies skip validation) is one a question could
        state: otherwise the follow-up is asked back, never run or stored half-valid (p75: "in
        percent?" after a ranking by a change crashed the run)."""
        try:
            SemanticQuery.model_validate(self.query.model_dump())
        except ValidationError as invalid:
            reasons = [str(e.get("msg", "")) for e in invalid.errors()]
            detail = {"follow_up": True, "invalid": reasons}
            raise AmbiguousQuestion(*both("conversation.unclear_follow_up"), detail=detail) from None


def inherited_parts(parent: SemanticQuery, changed: list[Part]) -> tuple[Part, ...]:
    """The parts of ``parent`` a follow-up that changed ``changed`` keeps."""
    kept: list[Part] = []
    if "metric" not in changed:
        kept.append("metric")
    if "period" not in changed:
        kept.append("period")
    if parent.filters and "filter" not in changed and "exclusion" not in changed:
        kept.append("filter")
    if parent.dimensions and "breakdown" not in changed:
        kept.append("breakdown")
    if parent.grain is not None and "grain" not in changed:
        kept.append("grain")
    if parent.comparison is not None and "comparison" not in changed and "grain" not in changed:
        kept.append("comparison")
    if (parent.top_n is not None or parent.rank_place is not None) and "ranking" not in changed:
        kept.append("ranking")
    if parent.share and "share" not in changed:
        kept.append("share")
    if parent.threshold is not None and "threshold" not in changed:
        kept.append("threshold")
    if parent.intent == "why" and "why" not in changed:  # "为什么app下降了" then "换成订单量看看": still why
        kept.append("why")
    return tuple(kept)


def compare_parts(parent: SemanticQuery, child: SemanticQuery) -> tuple[tuple[Part, ...], tuple[Part, ...]]:
    """What ``child`` changed and kept of ``parent``, read from the two queries (for a
    follow-up a model read, which says no words of its own about it)."""
    changed: list[Part] = []
    pairs: tuple[tuple[Part, object, object], ...] = (
        ("metric", parent.metrics, child.metrics),
        ("period", (parent.time_range.start, parent.time_range.end), (child.time_range.start, child.time_range.end)),
        ("grain", parent.grain, child.grain),
        ("comparison", _kind_of(parent), _kind_of(child)),  # moved with the period: kept
        ("breakdown", parent.dimensions, child.dimensions),
        ("ranking", (parent.top_n, parent.rank_place, parent.order), (child.top_n, child.rank_place, child.order)),
        ("share", parent.share, child.share),
        ("threshold", parent.threshold, child.threshold),
        ("why", parent.intent == "why", child.intent == "why"),
    )
    changed += [part for part, before, after in pairs if before != after]
    before_f, after_f = set(parent.filters), set(child.filters)
    if {f for f in before_f ^ after_f if not f.exclude}:
        changed.append("filter")
    if {f for f in before_f ^ after_f if f.exclude}:
        changed.append("exclusion")
    return tuple(p for p in PARTS if p in changed), inherited_parts(parent, changed)


def dropped_parts(parent: SemanticQuery, child: SemanticQuery) -> tuple[Part, ...]:
    """The parts ``parent`` has and ``child`` no longer has ("去掉同比", "不分月", "全国呢"): taken
    away, not changed into something else."""

    def has_filter(query: SemanticQuery, exclude: bool) -> bool:
        return any(f.exclude == exclude for f in query.filters)

    had: tuple[tuple[Part, bool, bool], ...] = (
        ("filter", has_filter(parent, False), has_filter(child, False)),
        ("exclusion", has_filter(parent, True), has_filter(child, True)),
        ("grain", parent.grain is not None, child.grain is not None),
        ("comparison", parent.comparison is not None, child.comparison is not None),
        ("breakdown", bool(parent.dimensions), bool(child.dimensions)),
        ("ranking", parent.ranked, child.ranked),
        ("share", parent.share, child.share),
        ("threshold", parent.threshold is not None, child.threshold is not None),
        ("why", parent.intent == "why", child.intent == "why"),
    )
    return tuple(part for part, before, after in had if before and not after)


def _kind_of(query: SemanticQuery) -> str | None:
    return query.comparison.kind if query.comparison is not None else None


__all__ = ["PARTS", "FollowUp", "Part", "compare_parts", "dropped_parts", "inherited_parts"]
