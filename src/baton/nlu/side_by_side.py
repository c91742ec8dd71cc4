"""The last two answers set side by side ("6月GMV", "5月呢", "两者对比一下"; "华东上个月GMV", "华南呢",
"差多少"; "compare the two"): the turn before changed one thing of the one before it — the period,
or the one member of a filter — and the follow-up asks for both at once.

Two periods become the later against the earlier (the comparison's change, as "6月和5月对比"
reads; a breakdown compares each group); two members become one row each ("华东和华南的GMV"),
with their difference when a gap is asked ("差多少", "what's the difference"). A gap asked after
an answer that showed two members ("它和华北比呢" then "差多少") is theirs. Anything else is not
read here.
"""

from __future__ import annotations

from pydantic import ValidationError

from baton.contracts.semantic import MemberFilter, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.nlu import vocabulary as vocab
from baton.nlu.follow_pointers import one_member_kept
from baton.nlu.periods import two_turns_compared


def side_by_side(
    question: str, parent: SemanticQuery, earlier: TimeRange | None, earlier_filter: MemberFilter | None
) -> SemanticQuery | None:
    """``parent`` and the turn before it in one question, or ``None`` when ``question`` does not
    ask for the two together or the two turns differ in more than one period or one member."""
    said = vocab.THE_TWO_COMPARED.fullmatch(question)
    if said is None or not _one_period(parent):
        return None
    gap = any(said.group(g) for g in ("gap_zh", "gap_zh2", "gap_en"))
    summed = bool(said.group("sum_zh") or said.group("sum_en"))
    if summed and parent.dimensions:
        return None  # "add them up" after a breakdown: its total, read as any follow-up
    if summed and earlier is not None:  # "5月GMV", "6月呢", "两个加起来多少": asked, never June alone
        raise AmbiguousQuestion(*both("conversation.sum_in_one_question"), detail={"follow_up": True})
    if summed and earlier_filter is None:
        return None
    if said.group("which") and parent.dimensions:  # "哪个更高" of two breakdowns: which period, or group?
        return None
    if gap and _two_members_shown(parent):  # "它和华北比呢" then "差多少": the gap of the two rows shown
        update: dict[str, object] = {"difference": True}
        if earlier is not None:  # the two members' gap, or the two periods'? not guessed
            return None
    elif earlier is not None and (earlier.start, earlier.end) != (parent.time_range.start, parent.time_range.end):
        # "上周各区域订单量", "上上周呢", "两者对比一下": each group's two weeks, as "上周和上上周对比" reads
        later, compared = two_turns_compared(parent.time_range, earlier)  # June against H1: asked back
        update = {"time_range": later, "comparison": compared, "intent": "comparison"}
    elif earlier_filter is not None and not parent.dimensions:
        dim = earlier_filter.dimension
        now = one_member_kept(parent, dim)
        if now is None:
            return None
        pair = MemberFilter(dimension=dim, members=(*earlier_filter.members, now))
        others = tuple(f for f in parent.filters if f.dimension != dim)
        update = {"filters": (*others, pair), "dimensions": (dim,), "intent": "breakdown", "difference": gap}
        if summed:  # "华东的GMV", "华南呢", "两个加起来多少": the two members' one total
            update = {"filters": (*others, pair), "dimensions": (), "intent": "value"}
    else:
        return None
    try:
        return SemanticQuery.model_validate(parent.model_dump() | update | {"corrections": ()})
    except ValidationError:
        return None


def _two_members_shown(query: SemanticQuery) -> bool:
    """The answer listed two members of the one dimension it was broken down by, and no other."""
    kept = [f for f in query.filters if query.dimensions == (f.dimension,)]
    return len(kept) == 1 and len(kept[0].members) == 2 and not kept[0].exclude


def _one_period(query: SemanticQuery) -> bool:
    """Figures of one period, each group's one figure: what two turns can be set side by side
    from (two members: of one figure only, as the breakdown becomes theirs)."""
    return not (
        query.grain
        or len(query.metrics) > 1
        or query.premise_asked is not None
        or query.asked_member is not None
        or query.order_by
        or query.limit is not None
        or query.comparison
        or query.intent in ("why", "ranking", "share")
        or query.threshold is not None
        or query.difference
        or query.ratio
        or query.average_per is not None
        or query.where
    )


def member_changed(before: SemanticQuery, after: SemanticQuery) -> MemberFilter | None:
    """``before``'s filter when ``after`` is ``before`` with only that filter's one member replaced
    by another of the same dimension ("华东上个月GMV" then "华南呢"); ``None`` otherwise."""
    gone, new = set(before.filters) - set(after.filters), set(after.filters) - set(before.filters)
    if len(gone) != 1 or len(new) != 1:
        return None
    (was,), (now,) = gone, new
    same_rest = before.model_copy(update={"filters": (), "corrections": ()}) == after.model_copy(
        update={"filters": (), "corrections": ()}
    )
    one_each = len(was.members) == len(now.members) == 1 and not (was.exclude or now.exclude)
    return was if same_rest and one_each and was.dimension == now.dimension else None


__all__ = ["member_changed", "side_by_side"]
