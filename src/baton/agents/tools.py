"""The query tool every analysis agent receives in its deps.

An agent hands it a sqlglot AST built from the catalog (never SQL text from a model or a
user); the tool renders it in the warehouse dialect, passes it through the firewall *as the
asking user* (grants, row filters, PII, LIMIT, partition filter, cost), traces the policy
decision before the tool call, runs the approved id through the runner and records the result
as run evidence. A refusal is traced as a denial and raised; it is never retried around.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel
from sqlglot import exp

from baton.catalog.model import Catalog
from baton.contracts.handoff import AgentReport, TaskPacket
from baton.contracts.query import QueryResult
from baton.contracts.run import Evidence
from baton.contracts.semantic import SemanticQuery
from baton.contracts.values import KeyNumber
from baton.errors import BatonError, BudgetExceeded, InsufficientEvidence, PolicyRefusal
from baton.policy import Principal
from baton.sql import ApprovalRegistry, approve
from baton.warehouse.runner import Backend, Runner

Dialect = Literal["duckdb", "postgres"]
T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
PLAN_KEY = "plan"


class ToolContext(Protocol):
    """What the tool needs from the run (``baton.orchestrator.run.RunContext`` provides it)."""

    def policy_decision(self, decision: str, **payload: Any) -> None: ...

    def tool_call(self, tool: str, args: dict[str, Any], fn: Callable[[], T]) -> T: ...

    def add_query_evidence(self, result: QueryResult, *, name: str, user: str) -> Evidence: ...


@dataclass
class QueryTool:
    """Compile-free execution of catalog-built ASTs through the firewall, as ``principal``."""

    ctx: ToolContext
    principal: Principal
    catalog: Catalog
    schema: Mapping[str, Mapping[str, str]]
    registry: ApprovalRegistry
    runner: Runner
    backend: Backend
    dialect: Dialect
    language: Literal["zh", "en"]
    row_cap: int

    @property
    def user(self) -> str:
        return self.principal.user

    def run(self, name: str, expression: exp.Expr) -> QueryResult:
        """Approve and run one query; returns the result (also recorded as evidence)."""
        sql = expression.sql(dialect=self.dialect)
        large = {t: self.catalog.time_column(t) for t, info in self.catalog.tables.items() if info.large}
        try:
            approved = approve(
                sql,
                principal=self.principal,
                schema=self.schema,
                dialect=self.dialect,
                language=self.language,
                row_limit=self.row_cap,
                large_tables=large,
                estimate_cost=self.backend.explain_cost if self.principal.max_cost is not None else None,
            )
        except BatonError as exc:
            self.ctx.policy_decision("deny", gate="firewall", query=name, user=self.user, error=exc.to_dict("en"))
            raise
        self.registry.register(approved)
        self.ctx.policy_decision(
            "allow",
            gate="firewall",
            query=name,
            user=self.user,
            approved_sql_id=approved.approved_sql_id,
            checks=list(approved.checks_passed),
            row_filters=list(approved.row_filters_applied),
        )
        result = self.ctx.tool_call(
            "warehouse.query",
            {"approved_sql_id": approved.approved_sql_id, "query": name},
            lambda: self.runner.run(approved.approved_sql_id, user=self.user),
        )
        self.ctx.add_query_evidence(result, name=name, user=self.user)
        return result


def rows_as_dicts(result: QueryResult) -> list[dict[str, Any]]:
    names = [c.name for c in result.columns]
    return [dict(zip(names, row, strict=True)) for row in result.rows]


# ------------------------------------------------------------------ shared by the agents
Language = Literal["zh", "en"]


def number(
    key: str, label: str, value: float | int, unit: str, precision: int, evidence_id: str, **fact: Any
) -> KeyNumber:
    """A :class:`KeyNumber` rounded once, here, to ``precision`` places (then carried verbatim)."""
    if isinstance(value, int) and precision == 0:
        dec = Decimal(value)
    else:
        dec = Decimal(repr(round(float(value), precision))).quantize(Decimal(1).scaleb(-precision))
    if dec == 0:
        dec = abs(dec)
    return KeyNumber(key=key, label=label, value=dec, unit=unit, precision=precision, evidence_id=evidence_id, **fact)


def bi(language: Language, zh: str, en: str) -> str:
    return zh if language == "zh" else en


def plan_of(packet: TaskPacket) -> SemanticQuery:
    """The semantic query the planner wrote (every analysis agent declares the ``plan`` key)."""
    raw = packet.input_data.get(PLAN_KEY)
    if raw is None:
        raise InsufficientEvidence(
            "The packet carries no plan.", "任务包中没有查询计划。", detail={"agent": packet.agent}
        )
    return SemanticQuery.model_validate(raw)


def output_of(packet: TaskPacket, agent: str, model: type[M]) -> M | None:
    raw = packet.input_data.get(f"{agent}.output")
    return None if raw is None else model.model_validate(raw)


def member_label(catalog: Catalog, dimension: str, member: str, language: Language) -> str:
    dim = catalog.dimensions.get(dimension)
    if dim is None or member not in dim.members:
        return member
    return dim.members[member].label.for_lang(language)


def dimension_label(catalog: Catalog, dimension: str, language: Language) -> str:
    dim = catalog.dimensions.get(dimension)
    return dim.label.for_lang(language) if dim is not None else dimension


def metric_label(catalog: Catalog, metric: str, language: Language) -> str:
    m = catalog.metrics.get(metric)
    return m.label.for_lang(language) if m is not None else metric


def unit_of(catalog: Catalog, metric: str, language: Language) -> tuple[str, int]:
    """Display unit and decimal places of a metric's values."""
    unit = catalog.metrics[metric].unit if metric in catalog.metrics else "number"
    if unit == "currency":
        return bi(language, "元", "CNY"), 2
    if unit == "count":
        return bi(language, "个", "count"), 0
    if unit == "ratio":
        return "%", 3
    return bi(language, "单位", "units"), 4


def scaled(catalog: Catalog, metric: str, value: float) -> float:
    """Ratios are stated in per cent; everything else as is."""
    return value * 100.0 if metric in catalog.metrics and catalog.metrics[metric].unit == "ratio" else value


def failed(packet: TaskPacket, exc: BatonError) -> AgentReport[Any]:
    """An agent's own failure becomes a failed report; a run-level stop does not: an exhausted
    budget or a policy refusal propagates, so the run ends as budget_exceeded (partial results
    kept) or refused (said out loud), never as a vague missing-evidence failure."""
    if isinstance(exc, BudgetExceeded | PolicyRefusal):
        raise exc
    return AgentReport(task_id=packet.task_id, status="failed", issues=(f"{exc.error_code}: {exc.message('en')}",))
