"""The analysis relay: plan → sql → quality → stats → trend → insight → report.

Each agent gets a :class:`TaskPacket` sliced from the ledger (only the keys it declares, rows
only for the agent that needs them, must_keep whole, earlier steps compressed by distance),
answers an :class:`AgentReport`, and the pipeline merges ``data`` verbatim into the ledger and
passes the baton (task frozen, must_keep append-only, lineage checked). Every packet's size in
tokens is traced as a ``handoff`` event and the packet text is stored with the run.

The run driver checkpoints each agent's typed report, so resume continues without re-running
finished agents and replay rebuilds the Answer from the checkpoints alone. The drivers, tests,
findings and quality flags reach the Answer as the typed values the agents made.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from functools import partial
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from baton.agents import insight as insight_agent
from baton.agents import quality as quality_agent
from baton.agents import report as report_agent
from baton.agents import sql_agent, stats_agent
from baton.agents import trend as trend_agent
from baton.agents.tools import PLAN_KEY
from baton.catalog.model import Catalog
from baton.context import (
    AgentSpec,
    Grants,
    Ledger,
    PacketRequest,
    StepRecord,
    build_packet,
    merge_report,
    pass_baton,
    start_relay,
)
from baton.contracts.agent_outputs import (
    AgentOutputBase,
    InsightOutput,
    QualityOutput,
    ReportOutput,
    SqlOutput,
    StatsOutput,
    TrendOutput,
)
from baton.contracts.answer import Answer
from baton.contracts.common import Bilingual, CalendarEvent
from baton.contracts.handoff import AgentReport, Baton, MustKeep, Task
from baton.contracts.semantic import Comparison, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion, BudgetExceeded, InsufficientEvidence
from baton.messages import both, text
from baton.nlu.timeexpr import comparison_range
from baton.orchestrator.analysis_answer import analysis_answer, analysis_gate_input
from baton.orchestrator.data_span import check_periods, read_data_start
from baton.orchestrator.driver import GateInput, Pipeline, RunScope, StepSpec, failure_answer, stopped_text
from baton.orchestrator.planning import PlanOutput, plan, recheck_plan
from baton.policy import Principal

PROJECT_CONTEXT = (
    "Baton analyses a governed warehouse through its metric catalog, read-only and as the asking user. "
    "Every number must come from a query result and be quoted exactly."
)
TOKEN_BUDGET = {"trend": 40_000, "report": 16_000}
"""Token budgets per packet; the trend agent reads the daily series itself (≈60 tokens a day)."""
DEFAULT_BUDGET = 8_000

OutT = TypeVar("OutT", bound=AgentOutputBase)


class AgentStep(BaseModel, Generic[OutT]):
    """An agent step's checkpoint: where it sat in the relay, its packet size and its report."""

    model_config = ConfigDict(extra="forbid")
    step: int
    context_id: str
    parent_context_id: str | None = None
    tokens: int
    report: AgentReport[OutT]

    @property
    def output(self) -> OutT:
        assert self.report.result is not None  # a failed report never becomes a checkpoint
        return self.report.result.data


@dataclass(frozen=True)
class RelayAgent:
    """One agent of the relay: its spec, the state it enters, and how to call it."""

    spec: AgentSpec
    state: Any
    call: Callable[[Any, RunScope], AgentReport[Any]]


def _agent(
    name: str,
    instruction: str,
    model: type[AgentOutputBase],
    keys: tuple[str, ...],
    state: Any,
    call: Callable[[Any, RunScope], AgentReport[Any]],
    *,
    rows: bool = False,
) -> RelayAgent:
    return RelayAgent(AgentSpec(name, instruction, model, (PLAN_KEY, *keys), needs_rows=rows), state, call)  # type: ignore[arg-type]


RELAY: tuple[RelayAgent, ...] = (
    _agent(
        "sql",
        "Compile the headline comparison and the daily series of the metric tree through the catalog; run them as the user.",
        SqlOutput,
        (),
        "plan_sql",
        lambda p, s: sql_agent.run(p, sql_agent.SqlDeps(s.governed, s.session.catalog)),
    ),
    _agent(
        "quality",
        "Check freshness, daily completeness, nulls, duplicate keys and late-arriving data for the analysed periods.",
        QualityOutput,
        (),
        "execute",
        lambda p, s: quality_agent.run(
            p, quality_agent.QualityDeps(s.governed, s.session.catalog, dict(s.session.schema))
        ),
    ),
    _agent(
        "stats",
        "Test whether the change is real: Welch on daily values from SQL sufficient statistics; rates by two-proportion tests.",
        StatsOutput,
        ("quality.output",),
        "analyse",
        lambda p, s: stats_agent.run(p, stats_agent.StatsDeps(s.governed, s.session.catalog)),
    ),
    _agent(
        "trend",
        "Describe the daily series: slope with CI, Mann–Kendall, change points, anomalies against the same weekday.",
        TrendOutput,
        ("sql.output", "quality.output"),
        None,
        lambda p, s: trend_agent.run(p, trend_agent.TrendDeps(s.session.catalog)),
        rows=True,
    ),
    _agent(
        "insight",
        "Find where the change came from: metric-tree factors per member and pair of dimensions, tested, BH-adjusted.",
        InsightOutput,
        ("quality.output", "stats.output"),
        None,
        lambda p, s: insight_agent.run(p, insight_agent.InsightDeps(s.governed, s.session.catalog)),
    ),
    _agent(
        "report",
        "Write the answer first, then drivers with intervals, quality caveats, assumptions and excluded paths.",
        ReportOutput,
        ("sql.output", "quality.output", "stats.output", "trend.output", "insight.output"),
        "explain",
        lambda p, s: report_agent.run(p, report_agent.ReportDeps(s.session.catalog)),
    ),
)
AGENT_NAMES: tuple[str, ...] = tuple(a.spec.name for a in RELAY)


def checkpoint_key(agent: str) -> str:
    return f"agent:{agent}"


USUAL_LEVEL_WEEKS = 4
"""A single day is compared with the same weekday of this many earlier weeks (≤ 8 weeks back)."""


def usual_level(day: date, calendar: Sequence[CalendarEvent] = ()) -> Comparison:
    """The same weekday of the 4 weeks before ``day``, skipping days inside calendar events
    (they are not the usual level) and reaching back at most 8 weeks, as completeness does."""
    from baton.stats import peak_window_for

    earlier = (day - timedelta(weeks=k) for k in range(1, 2 * USUAL_LEVEL_WEEKS + 1))
    days = sorted([d for d in earlier if peak_window_for(d, calendar) is None][:USUAL_LEVEL_WEEKS])
    if len(days) < 2:
        days = sorted(day - timedelta(weeks=k) for k in range(1, USUAL_LEVEL_WEEKS + 1))
    return Comparison(kind="same_weekday", range=TimeRange(start=days[0], end=days[-1]), days=tuple(days))


def with_comparison(query: SemanticQuery, calendar: Sequence[CalendarEvent] = ()) -> SemanticQuery:
    """A why-question compares its period with the one before it (a calendar period's: the whole
    one before, as 环比 reads it) unless it names another; a single day is compared with its
    usual level (:func:`usual_level`), since one day against the day before says little and
    cannot be tested."""
    days = query.time_range.days
    implied = query.comparison is None or query.comparison.kind == "previous_period"
    if query.comparison is not None and not (days == 1 and implied):
        return query.model_copy(update={"intent": "why"})
    if days == 1:
        usual = usual_level(query.time_range.start, calendar)
        return query.model_copy(update={"comparison": usual, "grain": None, "intent": "why"})
    said = query.time_range  # a whole month's is the month before, as 环比 reads; "近30天" the 30 days before
    start, end = comparison_range("previous_period", said.start, said.end, grain=said.period_kind)
    prev = TimeRange(start=start, end=end)
    return query.model_copy(
        update={"comparison": Comparison(kind="previous_period", range=prev), "grain": None, "intent": "why"}
    )


def check_one_scope(query: SemanticQuery, catalog: Catalog, *, breakdown_said: bool = True) -> None:
    """An analysis explains one metric's move over one scope: a second metric ("为什么GMV和访客数
    都下降了"), a group picked by a ranking ("GMV最高的区域" then "为什么") or a breakdown ("为什么各
    渠道的GMV下降") would be dropped from it, so each is asked back by name — never the first
    metric, or every region, analysed alone. One day against one other day gives a single
    observation on each side, which no test can weigh: asked back. A breakdown a follow-up
    inherits (``/why`` after "各渠道的GMV") was not said as a premise: its total is analysed, the
    groups among the drivers."""

    def asked(key: str, field: str, labels: Sequence[Bilingual], detail: dict[str, Any]) -> AmbiguousQuestion:
        said = {
            lang: text("answer.list_sep", lang).join(label.for_lang(lang) for label in labels) for lang in ("en", "zh")
        }
        return AmbiguousQuestion(
            text(key, "en", **{field: said["en"]}), text(key, "zh", **{field: said["zh"]}), detail=detail
        )

    if len(query.metrics) > 1:
        labels = [catalog.metrics[m].label for m in query.metrics]
        raise asked(
            "nlu.why_one_metric", "metrics", labels, {"metrics": list(query.metrics), "reason": "why_one_metric"}
        )
    if query.top_n is not None or query.rank_place is not None:
        labels = [catalog.dimensions[d].label for d in query.dimensions]
        detail = {"dimensions": list(query.dimensions), "reason": "why_of_a_ranked_group"}
        raise asked("nlu.why_of_a_ranked_group", "dims", labels, detail)
    compared = query.comparison
    if (
        query.time_range.days == 1
        and compared is not None
        and compared.kind != "same_weekday"
        and compared.range.days == 1
    ):
        day, other = query.time_range.start.isoformat(), compared.range.start.isoformat()
        raise AmbiguousQuestion(
            *both("nlu.why_day_against_a_day", day=day, other=other),
            detail={"reason": "why_day_against_a_day", "days": [day, other]},
        )
    if query.dimensions and breakdown_said:  # "为什么各渠道的GMV下降": no premise checked per channel
        labels = [catalog.dimensions[d].label for d in query.dimensions]
        detail = {"dimensions": list(query.dimensions), "reason": "why_of_each_group"}
        raise asked("nlu.why_of_each_group", "dims", labels, detail)


def grants_for(principal: Principal) -> Grants:
    """The asking user's grants as the context engine sees them: PII columns never reach an
    agent unless the user may see them and the agent needs them."""
    pii = frozenset(column for (_table, column), rule in principal.pii.items() if rule in {"deny", "mask"})
    return Grants(user_id=principal.user, pii_columns=pii, pii_allowed=not pii)


class AnalyzePipeline(Pipeline):
    kind = "analyze"

    def __init__(self, scope: RunScope) -> None:
        super().__init__(scope)
        lang = scope.language
        self.task = Task(question=scope.state.question, language=lang, goal=text("analysis.goal_why", lang))
        self.constraints = (
            text("analysis.constraint_read_only", lang),
            text("analysis.constraint_exact_numbers", lang),
        )
        self.ledger = Ledger()
        self.baton: Baton | None = None
        self.records: list[StepRecord] = []

    def steps(self) -> Sequence[StepSpec[Any]]:
        planned = StepSpec(
            "plan",
            PlanOutput,
            self._plan,
            "clarify_metric",
            absorb=self._absorb_plan,
            recheck=lambda done: recheck_plan(self.scope, done),
        )
        agents = [
            StepSpec(
                checkpoint_key(a.spec.name),
                AgentStep[a.spec.output_model],  # type: ignore[name-defined]
                self._runner(number, a),
                a.state,
                absorb=self._absorber(a),
            )
            for number, a in enumerate(RELAY, 1)
        ]
        return (planned, *agents)

    # -- the relay -----------------------------------------------------------------------------
    def _plan(self) -> PlanOutput:
        """The question with its comparison; periods the data cannot compare are asked back
        before any agent runs (:mod:`baton.orchestrator.data_span`)."""
        done = plan(self.scope, partial(with_comparison, calendar=self.scope.session.catalog.calendar))
        turn = done.follow_up
        said = turn is None or turn.standalone or turn.parent_run_id is None or "breakdown" in turn.changed
        check_one_scope(done.query, self.scope.session.catalog, breakdown_said=said)
        check_periods(done.query, read_data_start(self.scope, done.query))
        return done

    def _absorb_plan(self, done: PlanOutput) -> None:
        self.scope.state.semantic_query, self.scope.state.interpretation = done.query, done.interpretation
        self.ledger.add("data", source_agent="planner", step=0, key=PLAN_KEY, data=done.query.model_dump(mode="json"))

    def _runner(self, step: int, agent: RelayAgent) -> Callable[[], AgentStep[Any]]:
        def run() -> AgentStep[Any]:
            scope, ctx = self.scope, self.scope.running
            name = agent.spec.name
            packet, prompt = build_packet(
                PacketRequest(
                    spec=agent.spec,
                    task=self.task,
                    constraints=self.constraints,
                    must_keep=self.baton.must_keep if self.baton is not None else MustKeep(),
                    snapshot=self.ledger.snapshot(),
                    history=tuple(self.records),
                    step=step,
                    project_context=PROJECT_CONTEXT,
                    grants=grants_for(scope.session.principal(scope.state.user)),
                    task_id=f"{scope.state.run_id}:{name}",
                    parent_context_id=self.baton.lineage.context_id if self.baton is not None else None,
                    token_budget=TOKEN_BUDGET.get(name, DEFAULT_BUDGET),
                )
            )
            tokens = packet.token_count or 0
            ctx.trace.emit(
                "handoff",
                step=step,
                agent=name,
                context_id=packet.context_id,
                packet_ref=packet.context_id,
                report_ref=f"{packet.context_id}:report",
                tokens=tokens,
                parent_context_id=packet.parent_context_id,
                over_budget=packet.over_budget,
                dropped=list(packet.dropped),
            )
            ctx.store.put_packet(scope.state.run_id, packet.context_id, prompt)
            ctx.charge_tokens(tokens)
            report = agent.call(packet, scope)
            if report.status == "failed" or report.result is None:
                issues = list(report.issues)
                raise InsufficientEvidence(
                    *both("analysis.agent_failed", agent=name, issues="; ".join(issues) or "no result"),
                    detail={"agent": name, "issues": issues},
                )
            ctx.store.put_packet(scope.state.run_id, f"{packet.context_id}:report", report.model_dump_json())
            model = AgentStep[agent.spec.output_model]  # type: ignore[name-defined]
            return model(
                step=step,
                context_id=packet.context_id,
                parent_context_id=packet.parent_context_id,
                tokens=tokens,
                report=report,
            )

        return run

    def _absorber(self, agent: RelayAgent) -> Callable[[AgentStep[Any]], None]:
        def absorb(done: AgentStep[Any]) -> None:
            name, payload = agent.spec.name, done.output
            merge_report(self.ledger, done.report, agent=name, step=done.step, context_id=done.context_id)
            model = agent.spec.output_model
            if self.baton is None:
                self.baton = start_relay(
                    self.task,
                    payload,
                    run_id=self.scope.state.run_id,
                    constraints=self.constraints,
                    expected_output=model,
                    context_id=done.context_id,
                )
            else:
                self.baton = pass_baton(self.baton, payload, expected_output=model, context_id=done.context_id)
            self.records.append(StepRecord(done.step, name, payload))

        return absorb

    # -- the answer ------------------------------------------------------------------------------
    def agent_steps(self) -> dict[str, AgentStep[Any]]:
        out: dict[str, AgentStep[Any]] = {}
        for name in AGENT_NAMES:
            done = self.scope.outputs.get(checkpoint_key(name))
            if isinstance(done, AgentStep):
                out[name] = done
        return out

    def compose(self) -> Answer:
        return analysis_answer(self.scope, self.scope.need("plan", PlanOutput), self.agent_steps())

    def gate_input(self, answer: Answer) -> GateInput:
        return analysis_gate_input(self.scope, answer, self.agent_steps())

    def partial(self, exc: BudgetExceeded) -> Answer:
        """Stopped by a budget: what the finished agents found is kept and marked partial."""
        state = self.scope.state
        base = failure_answer(state, exc, state.semantic_query)
        stopped = stopped_text(state, exc)
        planned = self.scope.get("plan", PlanOutput)
        if planned is None:
            return base.model_copy(update={"answer": stopped, "partial": True})
        found = analysis_answer(self.scope, planned, self.agent_steps())
        return found.model_copy(update={"status": "failed", "answer": stopped, "error": base.error, "partial": True})


ANALYZE = AnalyzePipeline
