"""What every analysis agent shares: the query tool it is handed, structured numbers, labels.

An agent hands the tool a sqlglot AST built from the catalog (never SQL text from a model or a
user). The tool is the run's one governed query path (``baton.orchestrator.governed``): it
renders the AST in the warehouse dialect, passes it through the firewall *as the asking user*
(grants, row filters, PII, LIMIT, partition filter, cost), traces the policy decision before
the tool call, runs the approved id and records the result as run evidence. A refusal is
raised; it is never retried around.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel
from sqlglot import exp

from baton.catalog.model import Catalog
from baton.contracts.common import Dialect, Language
from baton.contracts.handoff import AgentReport, TaskPacket
from baton.contracts.query import QueryResult
from baton.contracts.semantic import SemanticQuery
from baton.contracts.values import KeyNumber
from baton.errors import BatonError, BudgetExceeded, InsufficientEvidence, PolicyRefusal, QuestionRefused
from baton.messages import both, text
from baton.numbers import currency_word

M = TypeVar("M", bound=BaseModel)
PLAN_KEY = "plan"


class QueryTool(Protocol):
    """The governed query an agent may run: catalog-built AST in, evidence-backed result out."""

    @property
    def dialect(self) -> Dialect: ...

    @property
    def user(self) -> str: ...

    def run(self, name: str, expression: exp.Expr) -> QueryResult: ...

    def run_all(self, items: Sequence[tuple[str, exp.Expr]]) -> list[QueryResult]:
        """Independent statements: the same results and records as ``run`` one after another
        (the engine may work on several at once)."""
        ...


def rows_as_dicts(result: QueryResult) -> list[dict[str, Any]]:
    names = [c.name for c in result.columns]
    return [dict(zip(names, row, strict=True)) for row in result.rows]


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


P_FLOOR = 1e-6
"""Below this a p- or q-value is stated as a bound ("< 0.000001"), never rounded to zero."""


def p_number(key: str, label: str, p: float, evidence_id: str, unit: str = "p") -> tuple[KeyNumber, str]:
    """A p- or q-value as the report states it, with the relation to write before it (``<`` for
    the bound below 1e-6, else ``=``)."""
    if p < P_FLOOR:
        return number(key, label, P_FLOOR, unit, 6, evidence_id), "<"
    return number(key, label, p, unit, 4 if p >= 1e-4 else 6, evidence_id), "="


def plan_of(packet: TaskPacket) -> SemanticQuery:
    """The semantic query the planner wrote (every analysis agent declares the ``plan`` key)."""
    raw = packet.input_data.get(PLAN_KEY)
    if raw is None:
        raise InsufficientEvidence(*both("analysis.no_plan"), detail={"agent": packet.agent})
    return SemanticQuery.model_validate(raw)


def output_of(packet: TaskPacket, agent: str, model: type[M]) -> M | None:
    raw = packet.input_data.get(f"{agent}.output")
    return None if raw is None else model.model_validate(raw)


def member_label(catalog: Catalog, dimension: str, member: str, language: Language) -> str:
    return catalog.member_label(dimension, member, language)


def dimension_label(catalog: Catalog, dimension: str, language: Language) -> str:
    dim = catalog.dimensions.get(dimension)
    return dim.label.for_lang(language) if dim is not None else dimension


def metric_label(catalog: Catalog, metric: str, language: Language) -> str:
    """A metric's label; a ratio's part the catalog does not name ("cancel_rate__den") by its
    ratio's label ("取消率的分母"), never by its alias."""
    m = catalog.metrics.get(metric)
    if m is not None:
        return m.label.for_lang(language)
    ratio, _, role = metric.rpartition("__")
    if ratio in catalog.metrics and role in ("num", "den"):
        return text(f"analysis.ratio_part_{role}", language, label=catalog.metrics[ratio].label.for_lang(language))
    return metric


def unit_of(catalog: Catalog, metric: str, language: Language) -> tuple[str, int]:
    """Display unit and decimal places of a metric's values (a currency metric in its currency)."""
    unit = catalog.metrics[metric].unit if metric in catalog.metrics else "number"
    if unit == "currency":
        return currency_word(catalog.currency_of(metric), language), 2
    if unit == "ratio":
        return "%", 3
    return text(f"analysis.unit_{unit}", language), 0 if unit == "count" else 4


def change_unit(unit: str, language: Language) -> str:
    """The unit of a difference: percentage points for a rate, else the value's unit."""
    return text("analysis.unit_pp", language) if unit == "%" else unit


def scaled(catalog: Catalog, metric: str, value: float) -> float:
    """Ratios are stated in per cent; everything else as is."""
    return value * 100.0 if metric in catalog.metrics and catalog.metrics[metric].unit == "ratio" else value


def failed(packet: TaskPacket, exc: BatonError) -> AgentReport[Any]:
    """An agent's own failure becomes a failed report; a run-level stop does not: an exhausted
    budget or a policy refusal propagates, so the run ends as budget_exceeded (partial results
    kept) or refused (said out loud), never as a vague missing-evidence failure; so does a
    question refused as asked (a period with no complete day to explain)."""
    if isinstance(exc, BudgetExceeded | PolicyRefusal | QuestionRefused):
        raise exc
    said = exc.message(packet.task.language)  # shown in the run's answer: the question's language
    return AgentReport(task_id=packet.task_id, status="failed", issues=(f"{exc.error_code}: {said}",))
