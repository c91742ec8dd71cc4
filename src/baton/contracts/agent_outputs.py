"""The typed output of every agent of the analysis relay (sql, quality, stats, trend, insight, report).

Shaped after source document 01: each agent emits a fixed structure, so the next agent
always finds what it needs (the SQL's filters and aggregation logic, the test's interval and
effect size, the assumptions and excluded paths) and nobody has to re-read prose. Numbers
inside findings are :class:`KeyNumber` values; a finding's summary refers to them by
``{num:key}`` placeholders that are rendered from the structured value.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, model_validator

from baton.contracts.values import AppliedFilter, Assumption, ExcludedPath, KeyNumber

_FROZEN = ConfigDict(frozen=True, extra="forbid")

AgentName = Literal["sql", "quality", "stats", "trend", "insight", "report"]
Confidence = Annotated[float, Field(ge=0.0, le=1.0)]

FindingKind = Literal[
    "headline",
    "test",
    "rate_test",
    "freshness",
    "complete",
    "incomplete",
    "slope",
    "change_point",
    "anomalies",
    "driver",
    "no_driver",
    "metric_tree",
    "comparable",
    "event",
    "other",
]
"""What a finding is about, so the report picks findings by kind, never by id or wording."""

QualityIssue = Literal["stale", "incomplete", "nulls", "duplicates", "late_arriving"]
"""The kinds of data-quality problem the quality agent checks for."""


class Interval(NamedTuple):
    """A confidence interval ``[low, high]`` (JSON: a two-element list)."""

    low: float
    high: float


class ColumnInfo(BaseModel):
    """A result column: name, type and what it means (so nobody misreads it)."""

    model_config = _FROZEN

    name: str = Field(min_length=1)
    type: str
    meaning: str = ""
    pii: bool = False


class ColumnSummary(BaseModel):
    """Per-column summary statistics; what later agents get instead of raw rows."""

    model_config = _FROZEN

    name: str
    non_null: int = Field(ge=0)
    distinct: int | None = Field(default=None, ge=0)
    min: str | None = None
    max: str | None = None
    mean: Decimal | None = None
    total: Decimal | None = None


class DataSummary(BaseModel):
    model_config = _FROZEN

    row_count: int = Field(ge=0)
    columns: tuple[ColumnSummary, ...] = ()
    note: str | None = None


class Finding(BaseModel):
    """One conclusion. ``summary`` is one sentence; its numbers live in ``numbers``."""

    model_config = _FROZEN

    finding_id: str = Field(min_length=1)
    kind: FindingKind = "other"
    summary: str = Field(min_length=1, description="one sentence; numbers as {num:key} placeholders")
    detail: str = ""
    confidence: Confidence = 0.5
    evidence_ids: tuple[str, ...] = ()
    numbers: tuple[KeyNumber, ...] = ()

    @model_validator(mode="after")
    def _placeholders_resolve(self) -> Finding:
        keys = {n.key for n in self.numbers}
        for ref in _placeholders(self.summary):
            if ref not in keys:
                raise ValueError(f"summary refers to {{num:{ref}}} but no such number is attached")
        return self


def _placeholders(text: str) -> list[str]:
    import re

    return re.findall(r"\{num:([^{}]+)\}", text)


class StatTest(BaseModel):
    """A statistical test with everything a report needs: estimate, interval, effect size."""

    model_config = _FROZEN

    name: str = Field(min_length=1, description="what was compared, e.g. GMV June vs May")
    method: str = Field(min_length=1, description="e.g. Welch t-test (sufficient statistics)")
    estimate: Decimal
    ci_low: Decimal
    ci_high: Decimal
    ci_level: Decimal = Decimal("0.95")
    effect_size: Decimal | None = None
    effect_size_kind: str | None = Field(default=None, description="cohen_d, cohen_h, relative_change …")
    p_value: Decimal | None = Field(default=None, ge=0, le=1)
    q_value: Decimal | None = Field(default=None, ge=0, le=1, description="after Benjamini–Hochberg, when many")
    n: int | None = Field(default=None, ge=0)
    assumptions: tuple[str, ...] = ()
    evidence_ids: tuple[str, ...] = ()
    agent: AgentName | None = Field(default=None, description="the agent that ran the test")

    @property
    def interval(self) -> Interval:
        return Interval(float(self.ci_low), float(self.ci_high))

    @model_validator(mode="after")
    def _interval_contains_estimate(self) -> StatTest:
        if not self.ci_low <= self.estimate <= self.ci_high:
            raise ValueError("the confidence interval must contain the estimate")
        return self


class AgentOutputBase(BaseModel):
    model_config = _FROZEN

    task_id: str = Field(min_length=1)
    input_task_id: str | None = Field(default=None, description="the previous step's task id (the chain)")
    findings: tuple[Finding, ...] = ()
    assumptions_made: tuple[Assumption, ...] = ()
    paths_excluded: tuple[ExcludedPath, ...] = ()
    confidence: Confidence = 0.5
    supporting: tuple[KeyNumber, ...] = Field(
        default=(),
        description="numbers quoted in assumptions and excluded paths (test counts, smallest q), kept "
        "structured so every number in the report traces to a value, as the output gate requires",
    )

    def key_numbers(self) -> tuple[KeyNumber, ...]:
        """Every structured number this output states (findings first, then supporting numbers)."""
        return self.must_keep_numbers() + self._extra_numbers()

    def must_keep_numbers(self) -> tuple[KeyNumber, ...]:
        """The numbers that join must_keep: those its findings state and facts it asserts.

        Supporting numbers (a slope's detail, completeness, driver contributions not cited
        by a finding) stay in the typed output and the ledger, verbatim, but do not grow
        the never-compressed header.
        """
        seen: dict[str, KeyNumber] = {}
        for n in (*(n for f in self.findings for n in f.numbers), *self._stated_facts()):
            seen.setdefault(n.key, n)
        return tuple(seen.values())

    def _extra_numbers(self) -> tuple[KeyNumber, ...]:
        return ()

    def _stated_facts(self) -> tuple[KeyNumber, ...]:
        return ()

    def filters(self) -> tuple[AppliedFilter, ...]:
        return ()


class SqlOutput(AgentOutputBase):
    """What the SQL agent ran and what came back: the query's scope travels with its data."""

    agent: Literal["sql"] = "sql"
    sql: str = Field(min_length=1)
    dialect: str = "duckdb"
    evidence_id: str = Field(min_length=1)
    daily_evidence_id: str | None = Field(default=None, description="evidence of the daily series in rows")
    result_shape: tuple[int, int]
    columns: tuple[ColumnInfo, ...]
    filters_applied: tuple[AppliedFilter, ...] = ()
    aggregation_logic: tuple[str, ...] = ()
    execution_time_s: float = Field(ge=0)
    data_summary: DataSummary
    rows: tuple[dict[str, Any], ...] = Field(default=(), description="raw row preview; never forwarded whole")
    anomalies_found: tuple[str, ...] = ()

    def filters(self) -> tuple[AppliedFilter, ...]:
        return self.filters_applied


class QualityFlag(BaseModel):
    """A data-quality problem: where, when, what, and whether it touches the analysed period."""

    model_config = _FROZEN

    table: str
    date: dt.date | None = None
    issue: QualityIssue
    message: str = Field(min_length=1, description="what is wrong, in the question's language")
    affects_period: bool
    assumption: str | None = Field(default=None, description="what we assume because of it")


class QualityOutput(AgentOutputBase):
    agent: Literal["quality"] = "quality"
    checks_run: tuple[str, ...] = ()
    flags: tuple[QualityFlag, ...] = ()
    completeness: tuple[KeyNumber, ...] = ()

    def _extra_numbers(self) -> tuple[KeyNumber, ...]:
        return self.completeness


class StatsOutput(AgentOutputBase):
    agent: Literal["stats"] = "stats"
    analysis_type: Literal["comparison", "distribution", "correlation", "decomposition", "test"] = "comparison"
    tests: tuple[StatTest, ...] = ()
    next_steps_suggested: tuple[str, ...] = ()


class ChangePoint(BaseModel):
    model_config = _FROZEN

    date: dt.date
    before: Decimal
    after: Decimal
    method: str = "binary segmentation"


class TrendOutput(AgentOutputBase):
    agent: Literal["trend"] = "trend"
    metric: str
    grain: Literal["day", "week", "month", "quarter", "year"] = "day"
    direction: Literal["up", "down", "flat"]
    slope: KeyNumber | None = None
    slope_ci: tuple[Decimal, Decimal] | None = None
    mann_kendall_p: Decimal | None = Field(default=None, ge=0, le=1)
    change_points: tuple[ChangePoint, ...] = ()
    seasonality: str | None = None

    def _extra_numbers(self) -> tuple[KeyNumber, ...]:
        return (self.slope,) if self.slope is not None else ()


class Driver(BaseModel):
    """A member (or pair of members) whose change in one factor of the metric tree makes part
    of the metric's change; made by the insight agent, shown by the Answer as is.

    ``change`` is the member's contribution (LMDI for sums, shift-share for ratios): the
    contributions of a dimension's members add up to the total change. ``stance`` says how the
    report may speak of it: a ``driver`` moved the metric the way it changed, an ``offset``
    against it (both when the change is significant), a ``contribution`` when the change
    itself is not significant (a part of the movement, not a reason)."""

    model_config = _FROZEN

    members: dict[str, str] = Field(min_length=1, description="dimension -> member")
    factor: str = Field(min_length=1, description="the metric-tree factor that moved")
    role: Literal["factor", "rate", "mix"] = Field(
        default="factor", description="rate: within-member rate; mix: the member's weight in the denominator"
    )
    stance: Literal["driver", "offset", "contribution"] = "driver"
    change: float = Field(description="contribution to the metric's change, in the metric's unit")
    share_of_change: float = Field(description="change / total change (above 1 or negative: offsets exist)")
    before: float | None = Field(default=None, description="the factor (a mix: the member's weight) before")
    after: float | None = Field(default=None, description="the factor (a mix: the member's weight) after")
    factor_change: float | None = Field(default=None, description="the member's own relative change of the factor")
    excess_relative_change: float | None = Field(
        default=None, description="relative change against the rest (None for a mix: a weight is relative already)"
    )
    p_value: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="max of the own-change and against-the-rest tests (both must hold); a mix: its weight's test",
    )
    ci: Interval | None = Field(default=None, description="95% interval of the member's own relative change")
    q_value: float | None = Field(default=None, ge=0, le=1)
    significant: bool = False
    evidence_ids: tuple[str, ...] = ()
    contribution: KeyNumber | None = Field(default=None, description="the change as the report states it")

    @property
    def direction(self) -> Literal["up", "down"]:
        return "up" if self.change > 0 else "down"


class InsightOutput(AgentOutputBase):
    agent: Literal["insight"] = "insight"
    drivers: tuple[Driver, ...] = ()
    hypotheses: tuple[str, ...] = ()
    facts: tuple[KeyNumber, ...] = Field(default=(), description="facts stated by this step (may conflict)")

    def _extra_numbers(self) -> tuple[KeyNumber, ...]:
        return tuple(d.contribution for d in self.drivers if d.contribution is not None)

    def _stated_facts(self) -> tuple[KeyNumber, ...]:
        return self.facts


SectionKind = Literal[
    "drivers", "offsets", "tree", "tests", "trend", "quality", "excluded", "assumptions", "definition", "method"
]
"""What a report section holds, so every renderer (terminal, Markdown, HTML) can lay it out."""


class ReportSection(BaseModel):
    """One section of an analysis report: a heading and its items (one sentence or line each)."""

    model_config = _FROZEN

    kind: SectionKind
    heading: str
    items: tuple[str, ...] = Field(min_length=1)

    @property
    def body(self) -> str:
        return "\n".join(self.items)


class ReportOutput(AgentOutputBase):
    agent: Literal["report"] = "report"
    title: str
    language: Literal["zh", "en"] = "zh"
    answer: str = Field(min_length=1, description="the answer first, in the question's language")
    sections: tuple[ReportSection, ...] = ()
    key_metrics: tuple[KeyNumber, ...] = ()
    contradictions_shown: tuple[str, ...] = ()
    limitations: tuple[str, ...] = ()
    visualizations_needed: tuple[str, ...] = ()

    def _stated_facts(self) -> tuple[KeyNumber, ...]:
        return self.key_metrics


AgentOutput = Annotated[
    SqlOutput | QualityOutput | StatsOutput | TrendOutput | InsightOutput | ReportOutput,
    Field(discriminator="agent"),
]

OUTPUT_MODELS: dict[str, type[AgentOutputBase]] = {
    "sql": SqlOutput,
    "quality": QualityOutput,
    "stats": StatsOutput,
    "trend": TrendOutput,
    "insight": InsightOutput,
    "report": ReportOutput,
}

AnyAgentOutput = SqlOutput | QualityOutput | StatsOutput | TrendOutput | InsightOutput | ReportOutput


class ReportedFinding(BaseModel):
    """A finding as the Answer shows it: which agent made it and its text in reader form."""

    model_config = _FROZEN

    agent: AgentName
    finding_id: str
    kind: FindingKind = "other"
    text: str
    confidence: Confidence = 0.5
    evidence_ids: tuple[str, ...] = ()
    numbers: tuple[KeyNumber, ...] = ()
