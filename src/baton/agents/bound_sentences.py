"""Sentences of a bound: a yes/no of the total or of every group against it, and the groups (or
periods) that pass it — one rule (:func:`fails_bound`) for the sentence and the numbers the output
gate allows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from baton.agents.narration import NarratorBase, Sentence
from baton.contracts.semantic import SemanticQuery, Threshold
from baton.messages import text
from baton.nlu.interpret import (
    bound_text,
    bounded_label,
    compared_with,
)
from baton.numbers import plural_noun


class BoundSentences(NarratorBase):
    """The sentences of a threshold."""

    def _checked_total_sentence(self, say: Sentence) -> str:
        """A yes/no of the total: its value, the bound as asked and the verdict ("上个月的成交总额为
        ¥45,509,172.90，高于 ¥150,000,000.00：否。" — "不高于…：否" read as a double negative)."""
        query, metric, rows, period, filters, language, fmt = say
        bound = query.threshold
        assert bound is not None
        value = rows[0][metric]
        passes = not fails_bound(value, bound)
        return text(
            "answer.checked_total_yes" if passes else "answer.checked_total_no",
            language,
            label=bounded_label(query, self.catalog, language)[0],
            filters=filters,
            period=period,
            value=fmt(value),
            op=text(f"answer.bound_{bound.op_name}", language),
            bound=bound_text(bound, fmt, language),
        )

    def _checked_groups_sentence(self, say: Sentence) -> str:
        """A yes/no of every group (or period): whether all pass the bound, and those that do not
        ("上个月4 个渠道中有 1 个渠道的成交总额不高于 ¥5,000,000.00：否（直播（¥4,828,670.90））。")."""
        query, metric, rows, period, filters, language, fmt = say
        bound = query.threshold
        assert bound is not None
        failing = [r for r in rows if fails_bound(r[metric], bound)]
        fields = {
            "label": bounded_label(query, self.catalog, language)[0],
            "filters": filters,
            "period": period,
            "bound": bound_text(bound, fmt, language),
            "counted": self._counted_groups(query, len(rows), language),
        }
        if not failing:
            op = text(f"answer.bound_{bound.op_name}", language)
            return text("answer.checked_groups_yes", language, op=op, **fields)
        op = text(f"answer.bound_not_{bound.op_name}", language)
        items = self._listed(Sentence(query, metric, failing, period, filters, language, fmt), capped=True)
        failed = self._counted_groups(query, len(failing), language)
        return text("answer.checked_groups_no", language, op=op, failed=failed, items=items, **fields)

    def _threshold_sentence(self, say: Sentence) -> str:
        """The groups (or periods) whose value passes the bound, each with its value, and how
        many they are ("上个月退款率高于 5.00% 的品类有 2 个：…"); or that none did. A bound on a
        change lists each group's change ("成交总额环比变化率低于 -10.00% 的区域有 1 个：…")."""
        query, _, rows, period, filters, language, _ = say
        assert query.threshold is not None
        label, fmt = bounded_label(query, self.catalog, language)
        fmt = apart_from_bound(fmt, query.threshold.value)
        say = say._replace(metric=bounded_key(query), fmt=fmt)  # each group's share or change listed
        if query.threshold.of in ("change", "change_pct") and query.comparison is not None:
            _, previous = compared_with(query, language)
            filters += text("answer.threshold_compared", language, previous_period=previous)
        where = {
            "label": label,
            "op": text(f"answer.bound_{query.threshold.op_name}", language),
            "bound": bound_text(query.threshold, fmt, language),
            "filters": filters,
            "period": period,
        }
        items = self._listed(say, capped=True)
        if not query.dimensions:  # "成交总额高于 ¥1,500,000.00 的有 12 天", "no day had …"
            unit = text(f"answer.unit_{query.grain}", language)
            if not rows:
                return text("answer.threshold_periods_none", language, unit=unit, **where)
            units = plural_noun(unit) if language == "en" and len(rows) != 1 else unit
            return text("answer.threshold_periods", language, count=len(rows), unit=units, items=items, **where)
        group = self._group_word(query, language)
        if not rows:
            return text("answer.threshold_none", language, group=group, **where)
        groups = plural_noun(group) if language == "en" and len(rows) != 1 else group
        return text("answer.threshold", language, count=len(rows), groups=groups, items=items, **where)


def bounded_key(query: SemanticQuery) -> str:
    """The row key the query's threshold bounds, as the narrator's rows name it (an average's keyed
    by its metric): "revenue", "revenue_share", "revenue_change_pct"."""
    assert query.threshold is not None
    bound = query.threshold
    return bound.metric if bound.of == "value" else f"{bound.metric}_{bound.of}"


def fails_bound(value: Any, bound: Threshold) -> bool:
    """Whether a result cell does not pass ``bound`` as the SQL would keep it (a range: both ends
    included; no value passes no bound) — one rule for the sentence and the numbers the gate allows."""
    if value is None:
        return True
    number = float(value)
    if bound.upper is not None:
        return not bound.value <= number <= bound.upper
    passes = {
        ">": number > bound.value,
        ">=": number >= bound.value,
        "<": number < bound.value,
        "<=": number <= bound.value,
    }
    return not passes[bound.op]


def apart_from_bound(fmt: Callable[[Any], str], bound: float) -> Callable[[Any], str]:
    """``fmt``, with a percentage that would read as the bound itself given more decimals (up to
    six): "取消率高于 3.00% 的渠道：小程序（3.004%）", never "（3.00%）" beside "高于 3.00%"."""

    def apart(value: Any) -> str:
        said = fmt(value)
        if not said.endswith("%") or value is None or float(value) == bound or said != fmt(bound):
            return said
        signed = said[:1] in "+-" and fmt(bound)[:1] in "+-"
        for places in range(3, 7):
            mine, theirs = (f"{float(v) * 100:{'+' if signed else ''}.{places}f}%" for v in (value, bound))
            if mine != theirs:
                return mine
        return said

    return apart


__all__ = ["BoundSentences", "apart_from_bound", "bounded_key", "fails_bound"]
