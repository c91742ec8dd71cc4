"""The fixed, realistic relay the handoff benchmark runs: SQL → quality → stats → trend → insight,
repeated over drill-down segments, always ending with the report.

Every step emits what a real agent emits: a typed output (with its planted must-keep items:
filters, assumptions, excluded paths, exact numbers), a free-text summary that re-tells
numbers ("约128万"), reasoning with a unique canary string, and tool output (query plans,
logs, row previews with a PII column). Two steps state conflicting values of the same fact.
Everything is generated from fixed seeds, so every run of the benchmark is identical.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from baton.contracts.agent_outputs import (
    AgentName,
    AnyAgentOutput,
    ChangePoint,
    ColumnInfo,
    ColumnSummary,
    DataSummary,
    Driver,
    Finding,
    InsightOutput,
    QualityFlag,
    QualityOutput,
    ReportOutput,
    ReportSection,
    SqlOutput,
    StatsOutput,
    StatTest,
    TrendOutput,
)
from baton.contracts.handoff import AgentReport, ReportResult, Task
from baton.contracts.values import (
    AppliedFilter,
    Assumption,
    DimensionMember,
    ExcludedPath,
    FactScope,
    KeyNumber,
    Period,
)

TASK = Task(
    question="为什么 2026 年 6 月 GMV 环比下降？请按渠道、地区和品类拆解原因。",
    language="zh",
    goal="找出 GMV 下降的主要驱动因素，给出带置信区间的结论和已排除的解释。",
)
INITIAL_CONSTRAINTS: tuple[str, ...] = (
    "只读查询，不修改任何数据",
    "口径：GMV = 已支付订单金额之和（不含退款），单位 CNY",
    "所有数字原样引用，不得四舍五入或改写",
)
PROJECT_CONTEXT = (
    "Baton 为电商经营团队做只读数据分析，数据来自 DuckDB 演示仓库。本次任务解释 2026 年 6 月 GMV 的环比下降。"
)
PII_COLUMN = "top_buyer_phone"
JUNE = Period(start=dt.date(2026, 6, 1), end=dt.date(2026, 7, 1))
SEGMENTS: tuple[tuple[str, str], ...] = (
    ("channel", "app"),
    ("channel", "mini_program"),
    ("region", "华东"),
    ("region", "华南"),
    ("category", "家电"),
    ("channel", "web"),
    ("region", "华北"),
    ("category", "服饰"),
    ("region", "西南"),
    ("category", "美妆"),
    ("channel", "offline"),
)
ANALYSIS_CYCLE: tuple[AgentName, ...] = ("sql", "quality", "stats", "trend", "insight")

INSTRUCTIONS: dict[str, str] = {
    "sql": "为当前拆解维度写一条只读 SQL，运行并报告结果、过滤条件与聚合逻辑。",
    "quality": "检查上一步查询所用数据的完整性与异常分区，说明对分析期的影响。",
    "stats": "对 6 月与 5 月的日 GMV 做统计检验，给出估计值、置信区间、效应量和 p 值。",
    "trend": "分析 6 月日 GMV 的趋势与变点，校正周季节性。",
    "insight": "综合统计与趋势结果，找出驱动因素并说明已排除的解释。",
    "report": "写最终报告：先给答案，再列关键数字（含区间）、过滤条件、假设、排除路径与矛盾。",
}


_THOUGHTS: tuple[str, ...] = (
    "我先回顾上游给出的上下文，确认口径与时间范围，再决定本步要做的检验。",
    "直接比较月总额会受天数和大促影响，因此改用日粒度，并把周末与工作日分开看一眼。",
    "需要留意晚到分区、测试订单和退款入账时间对结果的干扰，这几类问题以前都出现过。",
    "也许应该先看订单数再看客单价，因为 GMV 的变化可以拆成量和价两部分，量价拆解更容易解释。",
    "如果样本量太小，t 检验的结论不稳，可以考虑用 bootstrap 重新估计区间，再和解析解对照。",
    "上一步给的数字我不完全确定是否已经剔除了测试订单，先按已剔除处理，之后在报告里注明。",
    "有一种可能是支付渠道切换造成的统计口径差异，但目前没有证据，先记下来不展开。",
    "用户问的是环比，所以基期是 5 月；如果问的是同比，基期就要换成去年 6 月，这一点要写清楚。",
    "考虑过按小时粒度分析，但小时数据噪声太大，而且分区不全的那天会被放大，放弃。",
    "这里的分布明显右偏，均值会被少数大单拉高，中位数可能更稳健，不过口径要求用总额。",
    "如果新用户占比下降而老用户客单价不变，那么主要驱动应该在拉新环节，而不是价格。",
    "我把可能的解释列成清单：季节性、竞品、价格、渠道、数据质量，逐个检查是否有数据支持。",
    "多重比较的问题要注意，拆解的维度越多，偶然显著的概率越高，必要时做 BH 校正。",
    "再检查一遍 SQL 的 WHERE 条件与 GROUP BY 是否一致，避免把不同渠道的数据混在一起。",
)


@dataclass(frozen=True)
class PlantedNumber:
    number: KeyNumber
    retellings: tuple[str, ...]


@dataclass(frozen=True)
class ChainStep:
    """One step of the benchmark relay, with everything its agent emitted."""

    step: int
    agent: AgentName
    round: int
    report: AgentReport[Any]
    tool_output: str
    canary: str
    new_constraints: tuple[str, ...] = ()
    notes: str | None = None
    planted_numbers: tuple[PlantedNumber, ...] = ()

    @property
    def output(self) -> AnyAgentOutput:
        assert self.report.result is not None
        data: AnyAgentOutput = self.report.result.data
        return data

    @property
    def filters(self) -> tuple[AppliedFilter, ...]:
        return self.output.filters()

    @property
    def assumptions(self) -> tuple[Assumption, ...]:
        return self.output.assumptions_made

    @property
    def excluded_paths(self) -> tuple[ExcludedPath, ...]:
        return self.output.paths_excluded


@dataclass
class _RoundValues:
    """The numbers of one drill-down round; round 0 carries the issue's exact values."""

    revenue: Decimal
    revenue_may: Decimal
    orders: int
    completeness: Decimal
    rel_change: Decimal
    p_value: Decimal
    cohen_d: Decimal
    slope: Decimal
    contribution: Decimal
    conflicting_gmv: Decimal | None = None
    used: set[str] = field(default_factory=set)


def _values(round_no: int, used: set[str]) -> _RoundValues:
    rng = random.Random(20260629 + round_no)
    while True:
        if round_no == 0:
            vals = _RoundValues(
                revenue=Decimal(1284317),
                revenue_may=Decimal(1402863),
                orders=18342,
                completeness=Decimal("0.992"),
                rel_change=Decimal("-0.0845"),
                p_value=Decimal("0.0312"),
                cohen_d=Decimal("-0.61"),
                slope=Decimal("-1523.7"),
                contribution=Decimal(-61234),
                conflicting_gmv=Decimal(1291850),
            )
        else:
            revenue = Decimal(rng.randint(300_000, 2_500_000))
            vals = _RoundValues(
                revenue=revenue,
                revenue_may=revenue + rng.randint(20_000, 150_000),
                orders=rng.randint(4_000, 30_000),
                completeness=Decimal(f"0.9{rng.randint(50, 99)}"),
                rel_change=Decimal(f"-0.0{rng.randint(100, 999)}"),
                p_value=Decimal(f"0.0{rng.randint(100, 499)}"),
                cohen_d=Decimal(f"-0.{rng.randint(21, 89)}"),
                slope=Decimal(f"-{rng.randint(500, 3000)}.{rng.randint(1, 9)}"),
                contribution=Decimal(-rng.randint(20_000, 90_000)),
            )
        strings = {
            str(v)
            for v in (vals.revenue, vals.completeness, vals.rel_change, vals.p_value, vals.slope, vals.contribution)
        }
        if round_no == 0 or not (strings & used):
            used |= strings
            return vals


def _canary(step: int) -> str:
    return f"CANARY-{step:03d}-{hashlib.sha256(f'baton-canary-{step}'.encode()).hexdigest()[:10]}"


def _wan(value: Decimal) -> str:
    return f"约{abs(value) / 10000:.0f}万"


class _ChainBuilder:
    def __init__(self) -> None:
        self.used: set[str] = set()
        self.rounds: dict[int, _RoundValues] = {}
        self.task_ids: list[str] = []

    def vals(self, round_no: int) -> _RoundValues:
        if round_no not in self.rounds:
            self.rounds[round_no] = _values(round_no, self.used)
        return self.rounds[round_no]

    def build(self, n_steps: int) -> list[ChainStep]:
        if n_steps < 2:
            raise ValueError("a chain has at least one analysis step and the report")
        steps: list[ChainStep] = []
        for i in range(1, n_steps):
            agent = ANALYSIS_CYCLE[(i - 1) % len(ANALYSIS_CYCLE)]
            round_no = (i - 1) // len(ANALYSIS_CYCLE)
            steps.append(getattr(self, f"_{agent}")(i, round_no))
        steps.append(self._report(n_steps, steps))
        return steps

    # -- helpers ---------------------------------------------------------------------------
    def _task_id(self, agent: str, step: int) -> str:
        tid = f"{agent}-{step:03d}"
        self.task_ids.append(tid)
        return tid

    def _prev_tid(self) -> str | None:
        return self.task_ids[-2] if len(self.task_ids) >= 2 else None

    def _revenue_number(self, round_no: int, value: Decimal, evidence: str, key: str) -> KeyNumber:
        dim, member = SEGMENTS[round_no % len(SEGMENTS)]
        return KeyNumber(
            key=key,
            label=f"6月 {member} GMV",
            value=value,
            unit="CNY",
            evidence_id=evidence,
            metric="revenue",
            scope=FactScope(filters=("status = 'paid'",), members=(DimensionMember(dimension=dim, member=member),)),
            period=JUNE,
        )

    @staticmethod
    def _reasoning(step: int, canary: str, body: str) -> str:
        """Scratch work as models write it: restating, weighing options, second-guessing."""
        rng = random.Random(step * 101)
        picked = rng.sample(_THOUGHTS, k=9)
        return (
            f"思考（{canary}）：{body} " + "".join(picked) + f" 复核一遍后输出结构化结果。内部标记 {canary} 不应外传。"
        )

    # -- agents ----------------------------------------------------------------------------
    def _sql(self, step: int, round_no: int) -> ChainStep:
        v = self.vals(round_no)
        dim, member = SEGMENTS[round_no % len(SEGMENTS)]
        tid = self._task_id("sql", step)
        evidence = f"ev-q{step:03d}"
        filters = [
            AppliedFilter(predicate="status = 'paid'", evidence_id=evidence, description="只统计已支付订单"),
            AppliedFilter(
                predicate="dt >= DATE '2026-06-01' AND dt < DATE '2026-07-01'",
                evidence_id=evidence,
                description="分析期 2026-06",
            ),
            AppliedFilter(predicate=f"{dim} = '{member}'", evidence_id=evidence, description=f"拆解 {dim}"),
        ]
        if round_no == 0:
            filters.append(AppliedFilter(predicate="is_test_order = FALSE", evidence_id=evidence))
        sql = (
            f"SELECT o.{dim}, o.dt, SUM(o.pay_amount) AS revenue, COUNT(DISTINCT o.order_id) AS orders, "
            f"arg_max(o.buyer_phone, o.pay_amount) AS {PII_COLUMN} FROM orders AS o "
            f"WHERE o.status='paid' AND o.dt >= DATE '2026-06-01' AND o.dt < DATE '2026-07-01' "
            f"AND o.{dim} = '{member}'" + (" AND NOT o.is_test_order" if round_no == 0 else "") + f" "
            f"GROUP BY o.{dim}, o.dt ORDER BY o.dt"
        )
        rng = random.Random(step)
        daily = v.revenue / 30
        rows = tuple(
            {
                dim: member,
                "dt": (JUNE.start + dt.timedelta(days=d)).isoformat(),
                "revenue": str((daily * Decimal(rng.uniform(0.8, 1.2))).quantize(Decimal("0.01"))),
                "orders": rng.randint(v.orders // 40, v.orders // 20),
                PII_COLUMN: f"1{rng.randint(3, 9)}{rng.randint(100000000, 999999999)}",
            }
            for d in range(30)
        )
        revenue = self._revenue_number(round_no, v.revenue, evidence, f"revenue_{step}")
        orders = KeyNumber(
            key=f"orders_{step}", label=f"6月 {member} 订单数", value=v.orders, unit="orders", evidence_id=evidence
        )
        output = SqlOutput(
            task_id=tid,
            input_task_id=self._prev_tid(),
            sql=sql,
            evidence_id=evidence,
            result_shape=(30, 5),
            columns=(
                ColumnInfo(name=dim, type="VARCHAR", meaning=f"拆解维度 {dim}"),
                ColumnInfo(name="dt", type="DATE", meaning="支付日期"),
                ColumnInfo(name="revenue", type="DECIMAL(18,2)", meaning="当日已支付金额，CNY"),
                ColumnInfo(name="orders", type="BIGINT", meaning="当日已支付订单数"),
                ColumnInfo(name=PII_COLUMN, type="VARCHAR", meaning="当日最大订单买家手机号", pii=True),
            ),
            filters_applied=tuple(filters),
            aggregation_logic=("SUM(pay_amount) 按日汇总", "COUNT(DISTINCT order_id) 按日去重"),
            execution_time_s=round(0.042 + step / 1000, 3),
            data_summary=DataSummary(
                row_count=30,
                columns=(
                    ColumnSummary(name="dt", non_null=30, distinct=30, min="2026-06-01", max="2026-06-30"),
                    ColumnSummary(
                        name="revenue", non_null=30, total=v.revenue, mean=(v.revenue / 30).quantize(Decimal("0.01"))
                    ),
                    ColumnSummary(name="orders", non_null=30, total=Decimal(v.orders)),
                ),
            ),
            rows=rows,
            anomalies_found=("2026-06-18 订单数仅为日均的 42%",) if round_no == 0 else (),
            findings=(
                Finding(
                    finding_id=f"f-{step}",
                    summary=f"6月 {member} GMV 为 {{num:revenue_{step}}}"
                    + (f"，订单 {{num:orders_{step}}}" if round_no == 0 else ""),
                    confidence=0.95,
                    evidence_ids=(evidence,),
                    numbers=(revenue, orders) if round_no == 0 else (revenue,),
                ),
            ),
            confidence=0.95,
        )
        canary = _canary(step)
        wan = _wan(v.revenue)
        plan = "\n".join(
            f"│ {op:<22} │ est_rows={rng.randint(1000, 90000):>7} │ cost={rng.uniform(0.1, 9):.2f} │"
            for op in (
                "SEQ_SCAN orders",
                "FILTER status/dt",
                f"FILTER {dim}",
                "HASH_GROUP_BY",
                "ORDER_BY dt",
                "PROJECTION",
                "RESULT_COLLECTOR",
            )
        )
        tool = f"EXPLAIN 输出：\n{plan}\n执行日志：扫描分区 2026-06-01..2026-06-30，返回 30 行，耗时 {output.execution_time_s:.3f}s"
        report = AgentReport[SqlOutput](
            task_id=tid,
            status="success",
            result=ReportResult[SqlOutput](summary=f"查询完成：6月 {member} GMV {wan}元，共 30 天数据。", data=output),
            issues=("2026-06-18 分区订单偏少，需质检确认",) if round_no == 0 else (),
            reasoning=self._reasoning(step, canary, f"用户关心 {member} 的 GMV，结果大概{wan}，先按日聚合。"),
        )
        return ChainStep(
            step,
            "sql",
            round_no,
            report,
            tool,
            canary,
            notes=f"本轮拆解 {dim}={member}",
            planted_numbers=(PlantedNumber(revenue, (wan,)),),
        )

    def _quality(self, step: int, round_no: int) -> ChainStep:
        v = self.vals(round_no)
        _, member = SEGMENTS[round_no % len(SEGMENTS)]
        tid = self._task_id("quality", step)
        evidence = f"ev-dq{step:03d}"
        completeness = KeyNumber(
            key=f"completeness_{step}",
            label=f"6月 {member} 数据完整度",
            value=v.completeness,
            unit="ratio",
            evidence_id=evidence,
        )
        assumption = (
            f"{member} 的退款在 7 天内全部入账（第{round_no}轮）" if round_no % 2 == 1 else "数据延迟不超过24小时"
        )
        output = QualityOutput(
            task_id=tid,
            input_task_id=self._prev_tid(),
            checks_run=("分区完整性", "重复订单", "测试订单占比", "金额为负"),
            flags=(
                QualityFlag(
                    table="orders",
                    date=dt.date(2026, 6, 18),
                    issue="incomplete",
                    message="分区晚到，当日订单数偏低",
                    affects_period=True,
                    assumption="晚到数据将在 24 小时内补齐",
                ),
            ),
            completeness=(completeness,),
            findings=(
                Finding(
                    finding_id=f"f-{step}",
                    summary=f"6月 {member} 数据完整度 {{num:completeness_{step}}}",
                    confidence=0.9,
                    evidence_ids=(evidence,),
                    numbers=(completeness,),
                )
                if round_no == 0
                else Finding(
                    finding_id=f"f-{step}",
                    summary=f"6月 {member} 数据完整，无新增异常分区",
                    confidence=0.9,
                    evidence_ids=(evidence,),
                ),
            ),
            assumptions_made=(Assumption(text=assumption, source_agent="quality"),),
            confidence=0.9,
        )
        canary = _canary(step)
        retold = f"完整度约{v.completeness * 100:.0f}%"
        tool = "\n".join(
            f"check {c}: scanned {random.Random(step * 7 + k).randint(10000, 99999)} rows, status=ok"
            for k, c in enumerate(output.checks_run)
        )
        new_constraints: tuple[str, ...] = ()
        if round_no in (0, 2):
            new_constraints = (f"剔除 2026-06-18 的不完整分区后再做对比（第{round_no}轮质检）",)
        report = AgentReport[QualityOutput](
            task_id=tid,
            status="success",
            result=ReportResult[QualityOutput](summary=f"质检通过，{retold}。", data=output),
            issues=("2026-06-18 分区晚到",),
            reasoning=self._reasoning(step, canary, f"上游说 GMV {_wan(v.revenue)}，我核对分区，{retold}。"),
        )
        return ChainStep(
            step,
            "quality",
            round_no,
            report,
            tool,
            canary,
            new_constraints=new_constraints,
            notes="6/18 分区不完整，统计时请剔除",
            planted_numbers=(PlantedNumber(completeness, (retold,)),) if round_no == 0 else (),
        )

    def _stats(self, step: int, round_no: int) -> ChainStep:
        v = self.vals(round_no)
        _, member = SEGMENTS[round_no % len(SEGMENTS)]
        tid = self._task_id("stats", step)
        evidence = f"ev-q{step:03d}"
        rel = KeyNumber(
            key=f"rel_{step}",
            label=f"{member} 日均 GMV 环比变化",
            value=v.rel_change,
            unit="ratio",
            evidence_id=evidence,
        )
        p = KeyNumber(
            key=f"p_{step}", label=f"{member} Welch t 检验 p 值", value=v.p_value, unit="p-value", evidence_id=evidence
        )
        test = StatTest(
            name=f"{member} 日 GMV：6月 vs 5月",
            method="Welch t-test（充分统计量）",
            estimate=v.rel_change,
            ci_low=v.rel_change - Decimal("0.0411"),
            ci_high=v.rel_change + Decimal("0.0398"),
            effect_size=v.cohen_d,
            effect_size_kind="cohen_d",
            p_value=v.p_value,
            n=59,
            assumptions=("日 GMV 近似正态", "方差不齐"),
            evidence_ids=(evidence,),
        )
        assumption = (
            f"{member} 日 GMV 相互独立（第{round_no}轮）"
            if round_no % 3 == 1
            else "日GMV近似正态，方差不齐（采用 Welch 检验）"
        )
        excluded = (
            ExcludedPath(path="排除取消订单的影响", reason="取消订单占比 6 月与 5 月持平（1.9% vs 2.0%）")
            if round_no % 2 == 0
            else ExcludedPath(path=f"排除 {member} 大促错期的影响（第{round_no}轮）", reason="两月均无大促")
        )
        output = StatsOutput(
            task_id=tid,
            input_task_id=self._prev_tid(),
            analysis_type="test",
            tests=(test,),
            findings=(
                Finding(
                    finding_id=f"f-{step}",
                    summary=f"{member} 日均 GMV 环比 {{num:rel_{step}}}，Welch t 检验 p = {{num:p_{step}}}",
                    confidence=0.85,
                    evidence_ids=(evidence,),
                    numbers=(rel, p),
                ),
            ),
            assumptions_made=(Assumption(text=assumption, source_agent="stats"),),
            paths_excluded=(excluded,),
            confidence=0.85,
            next_steps_suggested=("看趋势与变点",),
        )
        canary = _canary(step)
        retold_rel = f"下降约{abs(v.rel_change) * 100:.0f}%"
        retold_p = f"p约{v.p_value:.2f}"
        tool = (
            f"scipy.stats.ttest_ind_from_stats(mean1=…, std1=…, nobs1=30, mean2=…, std2=…, nobs2=29, equal_var=False)\n"
            f"→ statistic={-2.2 - round_no / 10:.4f}, pvalue={v.p_value}, df=54.3\n"
            + "\n".join(f"bootstrap[{k}] = {random.Random(step + k).uniform(-0.2, 0.05):.5f}" for k in range(12))
        )
        report = AgentReport[StatsOutput](
            task_id=tid,
            status="success",
            result=ReportResult[StatsOutput](summary=f"{member} GMV {retold_rel}，{retold_p}，显著。", data=output),
            reasoning=self._reasoning(step, canary, f"GMV {_wan(v.revenue)}，{retold_rel}，{retold_p}。"),
        )
        return ChainStep(
            step,
            "stats",
            round_no,
            report,
            tool,
            canary,
            notes="效应中等，注意区间较宽",
            planted_numbers=(PlantedNumber(rel, (retold_rel,)), PlantedNumber(p, (retold_p,))),
        )

    def _trend(self, step: int, round_no: int) -> ChainStep:
        v = self.vals(round_no)
        _, member = SEGMENTS[round_no % len(SEGMENTS)]
        tid = self._task_id("trend", step)
        evidence = f"ev-q{step:03d}"
        slope = KeyNumber(
            key=f"slope_{step}", label=f"{member} 日 GMV 斜率", value=v.slope, unit="CNY/day", evidence_id=evidence
        )
        output = TrendOutput(
            task_id=tid,
            input_task_id=self._prev_tid(),
            metric="revenue",
            grain="day",
            direction="down",
            slope=slope,
            slope_ci=(v.slope - Decimal("410.2"), v.slope + Decimal("398.9")),
            mann_kendall_p=Decimal("0.0081"),
            change_points=(
                ChangePoint(
                    date=dt.date(2026, 6, 12),
                    before=(v.revenue / 28).quantize(Decimal("0.01")),
                    after=(v.revenue / 32).quantize(Decimal("0.01")),
                ),
            ),
            seasonality="周季节性已校正",
            findings=(
                Finding(
                    finding_id=f"f-{step}",
                    summary=f"{member} 日 GMV 斜率 {{num:slope_{step}}}，6月12日起下台阶",
                    confidence=0.8,
                    evidence_ids=(evidence,),
                    numbers=(slope,),
                )
                if round_no == 0
                else Finding(
                    finding_id=f"f-{step}",
                    summary=f"{member} 日 GMV 6月12日起下台阶",
                    confidence=0.8,
                    evidence_ids=(evidence,),
                ),
            ),
            paths_excluded=(
                ExcludedPath(
                    path=f"排除 {member} 节假日效应（第{round_no}轮）"
                    if round_no % 3 == 2
                    else "排除季节性因素（已校正周季节性）"
                ),
            ),
            confidence=0.8,
        )
        canary = _canary(step)
        retold = f"每天约降{abs(v.slope):.0f}元"
        tool = "statsmodels STL(period=7) 残差：\n" + "\n".join(
            f"2026-06-{d:02d} resid={random.Random(step * 31 + d).uniform(-900, 900):.2f}" for d in range(1, 31)
        )
        report = AgentReport[TrendOutput](
            task_id=tid,
            status="success",
            result=ReportResult[TrendOutput](summary=f"{member} 持续下降，{retold}。", data=output),
            reasoning=self._reasoning(step, canary, f"上游 {_wan(v.revenue)}，{retold}。"),
        )
        return ChainStep(
            step,
            "trend",
            round_no,
            report,
            tool,
            canary,
            planted_numbers=(PlantedNumber(slope, (retold,)),) if round_no == 0 else (),
        )

    def _insight(self, step: int, round_no: int) -> ChainStep:
        v = self.vals(round_no)
        _, member = SEGMENTS[round_no % len(SEGMENTS)]
        tid = self._task_id("insight", step)
        evidence = f"ev-q{step:03d}"
        contribution = KeyNumber(
            key=f"contrib_{step}",
            label=f"{member} 新用户对 GMV 变化的贡献",
            value=v.contribution,
            unit="CNY",
            evidence_id=evidence,
        )
        facts: tuple[KeyNumber, ...] = ()
        planted = [PlantedNumber(contribution, (f"新用户贡献{_wan(v.contribution)}",))]
        if v.conflicting_gmv is not None:
            conflict = self._revenue_number(round_no, v.conflicting_gmv, f"ev-events{step:03d}", f"gmv_events_{step}")
            facts = (conflict,)
            planted.append(PlantedNumber(conflict, (_wan(v.conflicting_gmv) + "（埋点）",)))
        output = InsightOutput(
            task_id=tid,
            input_task_id=self._prev_tid(),
            drivers=(
                Driver(
                    members={"user_type": "new"},
                    factor="conversion",
                    change=float(contribution.value),
                    share_of_change=0.52,
                    evidence_ids=(evidence,),
                    contribution=contribution,
                ),
            ),
            hypotheses=("新用户转化率下降是主要原因",),
            facts=facts,
            findings=(
                Finding(
                    finding_id=f"f-{step}",
                    summary=f"{member} 新用户贡献 {{num:contrib_{step}}}，是主要驱动",
                    confidence=0.75,
                    evidence_ids=(evidence,),
                    numbers=(contribution,),
                ),
            ),
            assumptions_made=(
                Assumption(
                    text=f"{member} 新老用户划分口径不变（第{round_no}轮）"
                    if round_no % 3 == 0 and round_no
                    else "假设转化率是主要原因",
                    source_agent="insight",
                ),
            ),
            paths_excluded=(
                ExcludedPath(
                    path=f"排除 {member} 价格调整的影响（第{round_no}轮）"
                    if round_no % 3 == 1
                    else "排除竞品影响（无数据支持）"
                ),
            ),
            confidence=0.75,
        )
        canary = _canary(step)
        tool = "贡献分解（加性）：\n" + "\n".join(
            f"user_type={t:<8} Δ={random.Random(step * 13 + k).uniform(-80000, 5000):.2f}"
            for k, t in enumerate(("new", "returning", "vip", "dormant"))
        )
        summary = f"{member} 主要由新用户驱动（新用户贡献{_wan(v.contribution)}）。"
        if v.conflicting_gmv is not None:
            summary += f"埋点口径 GMV {_wan(v.conflicting_gmv)}，与订单表略有出入。"
        report = AgentReport[InsightOutput](
            task_id=tid,
            status="success",
            result=ReportResult[InsightOutput](summary=summary, data=output),
            reasoning=self._reasoning(
                step, canary, f"综合来看 GMV {_wan(v.revenue)}，新用户贡献{_wan(v.contribution)}。"
            ),
        )
        return ChainStep(step, "insight", round_no, report, tool, canary, planted_numbers=tuple(planted))

    def _report(self, step: int, earlier: list[ChainStep]) -> ChainStep:
        tid = self._task_id("report", step)
        v = self.vals(0)
        revenue = self._revenue_number(0, v.revenue, "ev-q001", "revenue_report")
        output = ReportOutput(
            task_id=tid,
            input_task_id=self._prev_tid(),
            title="2026 年 6 月 GMV 环比下降分析",
            answer="6 月 GMV 环比下降，主要由新用户转化下降驱动；订单表与埋点的 GMV 存在矛盾，两值并列报告。",
            sections=(ReportSection(kind="method", heading="结论", items=("见关键数字与矛盾说明。",)),),
            key_metrics=(revenue,),
            limitations=("2026-06-18 分区不完整",),
            findings=(Finding(finding_id=f"f-{step}", summary="6月 GMV 为 {num:revenue_report}", numbers=(revenue,)),),
            confidence=0.8,
        )
        canary = _canary(step)
        report = AgentReport[ReportOutput](
            task_id=tid,
            status="success",
            result=ReportResult[ReportOutput](summary=f"报告完成，GMV {_wan(v.revenue)}。", data=output),
            reasoning=self._reasoning(step, canary, "汇总全部步骤。"),
        )
        return ChainStep(step, "report", -1, report, "render: report.md (2.1 KB)", canary)


def build_chain(n_steps: int) -> list[ChainStep]:
    """The benchmark relay of ``n_steps`` steps (analysis rounds, then the report)."""
    return _ChainBuilder().build(n_steps)
