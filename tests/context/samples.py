"""Small, valid agent outputs for context tests (realistic ones come from ``baton.bench.chain``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from baton.contracts.agent_outputs import (
    AnyAgentOutput,
    ColumnInfo,
    ColumnSummary,
    DataSummary,
    Finding,
    InsightOutput,
    QualityOutput,
    SqlOutput,
    StatsOutput,
    TrendOutput,
)
from baton.contracts.handoff import Task
from baton.contracts.values import AppliedFilter, Assumption, ExcludedPath, FactScope, KeyNumber, Period

TASK = Task(question="为什么 6 月 GMV 下降？", language="zh")
JUNE = Period(start=dt.date(2026, 6, 1), end=dt.date(2026, 7, 1))


def number(key: str, value: Decimal | int | str, unit: str = "CNY", *, fact: bool = False) -> KeyNumber:
    extra: dict[str, object] = {}
    if fact:
        extra = {
            "metric": "gmv",
            "scope": FactScope(filters=("status = 'paid'",), members=({"dimension": "channel", "member": "app"},)),
            "period": JUNE,
        }
    return KeyNumber(
        key=key, label=f"label {key}", value=Decimal(str(value)), unit=unit, evidence_id=f"ev-{key}", **extra
    )


def sql_output(
    task_id: str = "sql-1",
    filters: Sequence[str] = ("status = 'paid'",),
    rows: int = 3,
    numbers: Sequence[KeyNumber] = (),
) -> SqlOutput:
    return SqlOutput(
        task_id=task_id,
        sql="SELECT channel, SUM(pay_amount) AS gmv FROM orders WHERE status = 'paid' GROUP BY 1",
        evidence_id=f"ev-{task_id}",
        result_shape=(rows, 3),
        columns=(
            ColumnInfo(name="channel", type="VARCHAR", meaning="渠道"),
            ColumnInfo(name="gmv", type="DECIMAL", meaning="GMV"),
            ColumnInfo(name="buyer_phone", type="VARCHAR", meaning="手机号", pii=True),
        ),
        filters_applied=tuple(AppliedFilter(predicate=f) for f in filters),
        execution_time_s=0.01,
        data_summary=DataSummary(
            row_count=rows,
            columns=(
                ColumnSummary(name="gmv", non_null=rows, total=Decimal("100.50")),
                ColumnSummary(name="buyer_phone", non_null=rows, min="13800000000", max="13900000000"),
            ),
        ),
        rows=tuple({"channel": f"c{i}", "gmv": f"{i}.50", "buyer_phone": f"1380000000{i}"} for i in range(rows)),
        findings=tuple(Finding(finding_id=f"f-{n.key}", summary=f"值 {{num:{n.key}}}", numbers=(n,)) for n in numbers),
    )


def analysis_output(
    agent: str,
    task_id: str,
    *,
    assumptions: Sequence[str] = (),
    excluded: Sequence[str] = (),
    numbers: Sequence[KeyNumber] = (),
    summary: str = "发现",
) -> AnyAgentOutput:
    findings = (
        Finding(
            finding_id=f"f-{task_id}",
            summary=summary + "".join(f" {{num:{n.key}}}" for n in numbers),
            numbers=tuple(numbers),
            confidence=0.8,
        ),
    )
    common = {
        "task_id": task_id,
        "findings": findings,
        "assumptions_made": tuple(Assumption(text=a) for a in assumptions),
        "paths_excluded": tuple(ExcludedPath(path=x) for x in excluded),
    }
    if agent == "quality":
        return QualityOutput(**common)
    if agent == "stats":
        return StatsOutput(**common)
    if agent == "trend":
        return TrendOutput(metric="gmv", direction="down", **common)
    if agent == "insight":
        return InsightOutput(**common)
    raise ValueError(agent)
