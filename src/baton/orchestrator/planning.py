"""The first step of every run: plan the question, check the user's grants on it, and the
pieces of an answer every kind of run states the same way (metric definitions, assumptions
about periods, data freshness)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from baton.catalog.model import Catalog
from baton.contracts.answer import MetricInfo
from baton.contracts.common import Language
from baton.contracts.conversation import FollowUpInfo, PlannedBy
from baton.contracts.query import TableLoad
from baton.contracts.semantic import SemanticQuery, TimeRange
from baton.messages import text
from baton.nlu import vocabulary as vocab
from baton.nlu.interpret import interpret, period_text
from baton.orchestrator.data_span import all_time_from_the_data
from baton.orchestrator.driver import RunScope
from baton.orchestrator.reading import Read, follow_up_text, read_question
from baton.policy.query_grants import check_grants

if TYPE_CHECKING:  # timeexpr is imported where a period is read, not when planning is
    from baton.nlu.timeexpr import TimeMatch


class PlanOutput(BaseModel):
    """The plan step's checkpoint: the question in catalog terms, its 口径 and grant notes,
    who read it, and — for a turn of a conversation — what it inherited."""

    model_config = ConfigDict(extra="forbid")
    query: SemanticQuery
    interpretation: str
    metrics: list[MetricInfo]
    grant_notes: list[str] = []
    notes: list[str] = Field(
        default=[], description="the planner's assumptions (a model's reading, a remembered default)"
    )
    planned_by: PlannedBy = Field(default_factory=PlannedBy)
    follow_up: FollowUpInfo | None = None


def metric_info(catalog: Catalog, name: str, language: Language) -> MetricInfo:
    """A metric's definition (口径) as the reader sees it."""
    metric = catalog.metrics[name]
    if metric.is_ratio:
        parts = catalog.measures_of(name)
        num = metric.numerator if isinstance(metric.numerator, str) else parts[0].expression
        den = metric.denominator if isinstance(metric.denominator, str) else parts[1].expression
        expression = f"{num} / {den}"
        filters = [f"{'numerator' if i == 0 else 'denominator'}: {f}" for i, p in enumerate(parts) for f in p.filters]
    else:
        expression = metric.expression or ""
        filters = list(metric.filters)
    return MetricInfo(
        name=name,
        label=metric.label.for_lang(language),
        definition=metric.description.for_lang(language),
        expression=expression,
        filters=filters,
        owner=metric.owner,
        time_column=_dated_by(catalog, name),
    )


def _dated_by(catalog: Catalog, name: str) -> str | None:
    """The date column(s) a metric is counted by (a churn counted by its end date, not its
    start): part of its definition, so the reader sees which date the numbers follow."""
    try:
        columns = dict.fromkeys(catalog.time_column_of(m) for m in catalog.measures_of(name))
    except ValueError:  # a table without a time column: nothing to say
        return None
    return ", ".join(columns) or None


def plan(
    scope: RunScope,
    shape: Callable[[SemanticQuery], SemanticQuery] = lambda q: q,
    source: Callable[[RunScope], SemanticQuery] | None = None,
) -> PlanOutput:
    """Question -> SemanticQuery (shaped for the kind of run), then the grants check on it.
    ``source`` replaces the question reader (a semantic-layer query names catalog terms)."""
    session, state, ctx = scope.session, scope.state, scope.running
    read = Read(query=source(scope)) if source is not None else read_question(scope)
    query, aligned = weeks_against_their_own(shape(read.query), state.language)
    if source is None:  # "GMV all time": from the data's first day, read now (a query's open start stays open)
        query = all_time_from_the_data(scope, query)
    ctx.trace.emit(
        "plan_created",
        semantic_query=query.model_dump(mode="json"),
        entry=state.kind,
        planner=read.planned_by.planner,
        follow_up=read.follow_up.model_dump(mode="json") if read.follow_up is not None else None,
    )
    state.semantic_query, state.follow_up = query, read.follow_up
    state.interpretation = interpretation_of(query, session.catalog, state.language, read.follow_up)
    notes = check_grants(session.catalog, query, session.principal(state.user), state.language)
    ctx.policy_decision("allow", gate="grants", user=state.user, notes=notes)
    return PlanOutput(
        query=query,
        interpretation=state.interpretation,
        metrics=[metric_info(session.catalog, m, state.language) for m in query.metrics],
        grant_notes=notes,
        notes=[*read.notes, *aligned],
        planned_by=read.planned_by,
        follow_up=read.follow_up,
    )


def weeks_against_their_own(query: SemanticQuery, language: Language) -> tuple[SemanticQuery, list[str]]:
    """A weekly series against last year, whatever planner read it: each week meets the same ISO
    week a year earlier (Monday with Monday), as a week said alone does ("上周同比"), never the same
    dates, which fall on other weekdays — so a week's 同比 is one figure however the period was said.
    Any other grain of a period not made of whole weeks takes the same dates back ("每周同比" then
    "按月看呢": each month against its own month, as asked alone)."""
    from baton.nlu import timeexpr

    compared = query.comparison
    if compared is None or compared.kind != "same_period_last_year":
        return query, []
    current = query.time_range
    aligned = timeexpr.same_week_last_year(current.start, current.end)
    calendar = timeexpr.same_period_last_year(current.start, current.end)
    whole_weeks = current.start.weekday() == 0 and current.end.weekday() == _SUNDAY
    have = (compared.range.start, compared.range.end)
    if query.grain == "week":
        want = aligned
    elif query.grain not in (None, "day") or not whole_weeks:
        want = calendar
    else:  # whole weeks, alone or by day ("上周", "6月第一周", "上周每天"): as the planner read the words
        want = have
    if have == want or have not in (aligned, calendar):  # already so, or a period said of its own
        return query, []
    moved = compared.model_copy(update={"range": TimeRange(start=want[0], end=want[1], text=compared.range.text)})
    notes = (
        []
        if want == calendar
        else [text("answer.weeks_against_weeks", language, start=want[0].isoformat(), end=want[1].isoformat())]
    )
    return query.model_copy(update={"comparison": moved}), notes


_SUNDAY = 6


def interpretation_of(
    query: SemanticQuery, catalog: Catalog, language: Language, follow_up: FollowUpInfo | None
) -> str:
    """The interpretation line; a turn of a conversation first says what it kept and changed."""
    said = interpret(query, catalog, language)
    if follow_up is None or follow_up.parent_run_id is None:
        return said
    return f"{follow_up_text(follow_up, language)} {said}"


def recheck_plan(scope: RunScope, done: PlanOutput) -> PlanOutput:
    """On resume: the user's grants may have changed since the question was planned."""
    state, ctx = scope.state, scope.running
    state.semantic_query, state.interpretation = done.query, done.interpretation
    notes = check_grants(scope.session.catalog, done.query, scope.session.principal(state.user), state.language)
    ctx.policy_decision("allow", gate="grants", user=state.user, notes=notes, recheck=True)
    return done.model_copy(update={"grant_notes": notes})


_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def _whole_periods_not_rolling(period: TimeRange, as_of: date, language: Language) -> str | None:
    """ "过去一周" on a Wednesday is last Monday to Sunday, not the 7 days up to yesterday: said
    whenever the two differ, with the words that ask for the rolling days."""
    if (
        not period.text
        or not vocab.LATEST_PERIODS.fullmatch(period.text.strip())
        or period.end >= as_of - timedelta(days=1)
    ):
        return None
    return text("answer.whole_periods_not_rolling", language, words=period.text, end=period.end, days=period.days)


def _read_alone(period: TimeRange, as_of: date) -> TimeMatch | None:
    """The one period ``period``'s words name, read alone against ``as_of``; ``None`` when they name
    none or several."""
    from baton.nlu import timeexpr

    readings = [p.match for p in timeexpr.read_periods(period.text or "", as_of) if p.match is not None]
    return readings[0] if len(readings) == 1 else None


def _cut_at_as_of(period: TimeRange, as_of: date, reading: TimeMatch | None) -> bool:
    """Whether ``period`` is the one its words name (``reading``) and not over on ``as_of`` (its
    days so far are used). Words read as other dates ("2026年618大促" is the catalog's event, not the
    year 2026 so far) say nothing about it."""
    from baton.nlu import timeexpr

    if reading is None:
        return False
    grain = reading.grain
    if (
        grain in ("week", "month", "quarter", "half", "year")
        and timeexpr.period_bounds(reading.start, grain)[1] < as_of
    ):
        return False  # "Q2 so far" on July 1: Q2 is over, all of it counted
    return reading.clamped and (reading.start, reading.end) == (period.start, period.end)


def assumptions(query: SemanticQuery, language: Language) -> list[str]:
    """How the question's periods were read (relative words against the as-of date), and the
    words read as something else."""
    tr = query.time_range
    out = []
    if tr.text:
        said_year = _YEAR.search(tr.text) is not None  # "May 2026" names its dates; "last month" counts from as-of
        # "the day before" of a follow-up counts from the question before, never from as-of (p70, p71):
        # its words read alone give other dates
        reading = _read_alone(tr, query.as_of)
        from_as_of = not said_year and reading is not None and (reading.start, reading.end) == (tr.start, tr.end)
        key = "answer.period_read_as" if from_as_of else "answer.period_read_dates"
        if _cut_at_as_of(tr, query.as_of, reading):  # "第一季度" on 2026-01-05: four days of it, said so
            key = "answer.period_so_far"
        out.append(
            text(
                key,
                language,
                words=tr.text,
                as_of=query.as_of.isoformat(),
                period=period_text(tr.start, tr.end, None, language),
                days=tr.days,
            )
        )
    rolling = _whole_periods_not_rolling(tr, query.as_of, language)
    out += [rolling] if rolling else []
    out += [
        text(f"answer.corrected_{c.kind}", language, written=c.written, read_as=c.read_as) for c in query.corrections
    ]
    if query.comparison is not None:
        c = query.comparison.range
        kind = query.comparison.kind
        if query.each_period_before:  # "今年每个月GMV环比": each month against its own month before
            grain = text(f"answer.grain_{query.grain}", language)
            out.append(
                text(
                    "answer.compared_each_before",
                    language,
                    grain=grain,
                    period=period_text(c.start, c.end, None, language),
                )
            )
            return out
        key = f"answer.compared_{kind}"
        calendar = calendar_unit(tr.start, tr.end) if kind == "previous_period" else None
        if calendar is not None and calendar_unit(c.start, c.end) == calendar:
            key = f"answer.compared_previous_{calendar}"
        lengths = (
            text("answer.compared_lengths", language, previous=c.days, current=tr.days) if c.days != tr.days else ""
        )
        out.append(
            text(key, language, period=period_text(c.start, c.end, None, language), days=c.days, lengths=lengths)
        )
    return out


def calendar_unit(start: date, end: date) -> str | None:
    """``month`` / ``quarter`` / ``year`` / ``week`` / ``weekend`` when ``start..end`` is exactly one
    calendar unit (weeks Monday to Sunday, a weekend Saturday and Sunday), else ``None``: the previous
    period of a calendar unit is the previous unit (May before June, 31 days before 30), of any other
    range the same number of days."""
    after = end + timedelta(days=1)
    if start.day == 1 and after.day == 1:
        months = (after.year - start.year) * 12 + after.month - start.month
        if months == 1:
            return "month"
        if months == 3 and start.month % 3 == 1:
            return "quarter"
        if months == 12 and start.month == 1:
            return "year"
    if start.weekday() == 0 and (end - start).days == 6:
        return "week"
    if start.weekday() == 5 and (end - start).days == 1:  # Saturday and Sunday: the weekend before
        return "weekend"
    return None


def freshness_text(
    loads: list[TableLoad], query: SemanticQuery | None, language: Language
) -> tuple[str | None, list[str]]:
    """ "Data up to …" for the answer, and a note when the query's range runs past the data."""
    dated = [t for t in loads if t.max_data_date is not None]
    if not dated:
        return None, []
    newest = min(t.max_data_date for t in dated if t.max_data_date is not None)
    parts = ", ".join(
        f"{t.table_name} {t.loaded_at.strftime('%Y-%m-%d %H:%M')}" for t in dated if t.loaded_at is not None
    )
    key = "answer.fresh_loaded" if parts else "answer.fresh"
    notes = []
    if query is not None and query.time_range.end > newest:
        notes.append(text("answer.range_past_data", language, end=query.time_range.end.isoformat(), newest=newest))
    return text(key, language, newest=newest.isoformat(), loads=parts), notes
