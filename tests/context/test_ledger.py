"""Ledger: exact contradiction detection, immutable snapshots, relevance, deterministic parallel merge."""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import Decimal

import pytest

from baton.context import (
    ChildResult,
    Ledger,
    RelevanceQuery,
    make_scope,
    merge_parallel,
    relevant_entries,
    terms,
)
from baton.contracts.agent_outputs import StatsOutput
from baton.contracts.handoff import AgentReport, ReportResult
from baton.contracts.ledger import Tolerance
from baton.contracts.values import FactScope, KeyNumber, Period
from tests.context.samples import JUNE, analysis_output

MAY = Period(start=dt.date(2026, 5, 1), end=dt.date(2026, 6, 1))


def fact(
    value: str,
    *,
    unit: str = "CNY",
    scope: FactScope | None = None,
    period: Period = JUNE,
    metric: str = "gmv",
    key: str = "gmv",
) -> KeyNumber:
    return KeyNumber(
        key=key,
        label="6月 app GMV",
        value=Decimal(value),
        unit=unit,
        evidence_id=f"ev-{value}",
        metric=metric,
        scope=scope or make_scope(["status = 'paid'"], {"channel": "app"}),
        period=period,
    )


@pytest.mark.parametrize(
    ("first", "second", "tolerance", "reason"),
    [
        (fact("1284317"), fact("1291850"), Tolerance(), "value"),
        (fact("1284317"), fact("1284317"), Tolerance(), None),
        (fact("1284317"), fact("1284317.00"), Tolerance(), None),  # same value, different spelling
        (fact("1284317"), fact("1291850"), Tolerance(relative=Decimal("0.01")), None),  # 0.59 % apart
        (fact("1284317"), fact("1291850"), Tolerance(relative=Decimal("0.005")), "value"),
        (fact("1284317"), fact("1284318"), Tolerance(absolute=Decimal(1)), None),
        (fact("1284317"), fact("128.4317", unit="万元"), Tolerance(), "unit"),
        # not the same fact: other period, other scope, other metric
        (fact("1284317"), fact("1402863", period=MAY), Tolerance(), None),
        (
            fact("1284317"),
            fact("1291850", scope=make_scope(["status = 'paid'"], {"channel": "web"})),
            Tolerance(),
            None,
        ),
        (fact("1284317"), fact("1291850", metric="gmv_net"), Tolerance(), None),
        # the same scope spelled differently is the same fact
        (
            fact("1284317"),
            fact("1291850", scope=make_scope(["o.STATUS='paid'"], [("Channel", "app")])),
            Tolerance(),
            "value",
        ),
    ],
)
def test_contradiction_detection_is_exact(
    first: KeyNumber, second: KeyNumber, tolerance: Tolerance, reason: str | None
) -> None:
    ledger = Ledger(tolerance)
    a = ledger.add_fact(first, source_agent="sql", step=1)
    b = ledger.add_fact(second, source_agent="insight", step=5)
    snap = ledger.snapshot()
    assert [e.fact.value for e in snap.entries if e.fact] == [first.value, second.value]  # both kept
    if reason is None:
        assert snap.contradictions == ()
    else:
        (c,) = snap.contradictions
        assert c.reason == reason
        assert c.entry_ids == (a.entry_id, b.entry_id)
        assert (c.values[0].value, c.values[1].value) == (first.value, second.value)
        assert c.tolerance == tolerance
        assert str(first.value) in c.rendered() and str(second.value) in c.rendered()


def test_snapshots_are_immutable_and_prefixes() -> None:
    ledger = Ledger()
    ledger.add("observation", source_agent="quality", step=1, text="6/18 分区晚到")
    before = ledger.snapshot()
    ledger.add_fact(fact("1"), source_agent="sql", step=2)
    ledger.add_fact(fact("2"), source_agent="sql", step=3)
    after = ledger.snapshot()
    assert len(before.entries) == 1 and before.contradictions == ()
    assert after.entries[:1] == before.entries and len(after.contradictions) == 1
    with pytest.raises(Exception, match="frozen"):
        before.entries[0].text = "changed"
    assert isinstance(before.entries, tuple)


def test_relevance_uses_structure_and_segmented_chinese() -> None:
    ledger = Ledger()
    ledger.add_fact(fact("1284317"), source_agent="sql", step=1)
    ledger.add_fact(fact("1402863", period=MAY), source_agent="sql", step=1)
    ledger.add("hypothesis", source_agent="insight", step=2, text="新用户转化率下降是GMV下降的主要原因")
    ledger.add("observation", source_agent="quality", step=3, text="仓库的服务器在夜间重启")
    snap = ledger.snapshot()
    # Chinese without spaces: str.split would give one token and match nothing
    hits = relevant_entries(snap, RelevanceQuery(text="分析转化率的变化"))
    assert [h.entry.text for h in hits] == ["新用户转化率下降是GMV下降的主要原因"]
    # structure: metric + dimension + overlapping period beats a disjoint period
    structural = relevant_entries(
        snap,
        RelevanceQuery(metrics=frozenset({"GMV"}), dimensions=frozenset({"channel"}), period=JUNE),
        kinds=("fact",),
    )
    assert [h.entry.fact.value for h in structural if h.entry.fact] == [Decimal(1284317)]
    assert terms("上个月各渠道的GMV是多少") >= {"上个月", "渠道", "gmv"}


def _report(task_id: str, value: str) -> ChildResult:
    out = analysis_output("stats", task_id, numbers=[fact(value, key=f"k{task_id}")])
    report = AgentReport[StatsOutput](
        task_id=task_id,
        status="success",
        result=ReportResult[StatsOutput](summary=f"{task_id} done", data=out),
        reasoning="scratch",
    )
    return ChildResult(agent="stats", step=3, report=report)


def test_parallel_children_merge_in_a_fixed_order() -> None:
    children = [_report("b-2", "20"), _report("a-1", "10"), _report("c-3", "30")]
    results = set()
    for order in itertools.permutations(children):
        ledger = Ledger()
        merge_parallel(ledger, order)
        snap = ledger.snapshot()
        results.add(snap.model_dump_json())
        assert [e.text for e in snap.entries if e.kind == "summary"] == ["a-1 done", "b-2 done", "c-3 done"]
        assert len(snap.contradictions) == 3  # 10 vs 20, 10 vs 30, 20 vs 30: all pairs kept
    assert len(results) == 1
