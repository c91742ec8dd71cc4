"""`baton query`: the semantic layer without natural language, governed like ``ask``.

A :class:`QueryRequest` names catalog metrics, group-bys, filters, a date range, an order and
a limit with the flags of MetricFlow's ``mf query``. Only the plan step differs from ``ask``:
the request becomes a SemanticQuery by catalog look-ups, never by reading words. Compiling,
the firewall, execution, the chart, the report, the answer and the output gate are the ask
pipeline's own steps, so a query is governed exactly as a question is.

The run's question is the request as one canonical command line (``query --metrics a,b …``):
what ``runs list`` shows and the trace records. The plan step reads the request back from it,
so resume needs nothing the run did not store. A request that names what the catalog does not
define, or that cannot be read, is refused as such a question is (exit 3): nothing runs.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence
from datetime import date
from difflib import SequenceMatcher
from typing import Any, cast

from pydantic import ValidationError
from sqlglot.errors import SqlglotError

from baton.catalog import sqlexpr
from baton.catalog.compiler import PERIOD
from baton.catalog.model import Catalog
from baton.catalog.where import GRAINS, METRIC_TIME, check_where
from baton.contracts.common import Language
from baton.contracts.semantic import OPEN_START, Grain, MemberFilter, QueryRequest, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion, QuestionRefused, UnknownMetric, UnsupportedMetric
from baton.messages import both, text
from baton.orchestrator.ask import AskPipeline
from baton.orchestrator.driver import RunScope, StepSpec
from baton.orchestrator.planning import PlanOutput, plan

COMMAND = "query"

TIME_NAMES: dict[str, Grain] = {METRIC_TIME: "day", **{f"{METRIC_TIME}__{g}": cast(Grain, g) for g in GRAINS}}
"""Group-by (and order, filter) names of the metric's own time, by the grain they mean."""

_LISTS = ("--metrics", "--group-by", "--order")
_SINGLE = ("--start-time", "--end-time", "--limit")
_OPTIONS = ("--metrics", "--group-by", "--where", "--start-time", "--end-time", "--order", "--limit")
_SAFE = re.compile(r"[\w@%+=:,./-]+")
_DOUBLE_QUOTABLE = re.compile(r'[^"\\$`!]*')
_MAX_LIMIT_AS_TOP_N = 1000


# -- the request as a command line -----------------------------------------------------------------
def _names(value: str | Sequence[str]) -> list[str]:
    items = [value] if isinstance(value, str) else list(value)
    return [name.strip() for item in items for name in str(item).split(",") if name.strip()]


def _quote(token: str) -> str:
    """A shell word, in the most readable quoting that reads back the same."""
    if _SAFE.fullmatch(token):
        return token
    if "'" not in token:
        return f"'{token}'"
    if _DOUBLE_QUOTABLE.fullmatch(token):
        return f'"{token}"'
    return shlex.quote(token)


def command_text(
    metrics: str | Sequence[str],
    *,
    group_by: str | Sequence[str] = (),
    where: str | Sequence[str] = (),
    start_time: date | None = None,
    end_time: date | None = None,
    order: str | Sequence[str] = (),
    limit: int | None = None,
) -> str:
    """The request as one canonical command line (the run's question); nothing is checked
    here, so a bad request still becomes a run that fails with the reason."""
    words = [COMMAND]
    for option, value in (("--metrics", metrics), ("--group-by", group_by)):
        if _names(value):
            words += [option, ",".join(_names(value))]
    for condition in [where] if isinstance(where, str) else list(where):
        if str(condition).strip():
            words += ["--where", str(condition).strip()]
    for option, single in (("--start-time", start_time), ("--end-time", end_time)):
        if single is not None:
            words += [option, str(single)]
    if _names(order):
        words += ["--order", ",".join(_names(order))]
    if limit is not None:
        words += ["--limit", str(limit)]
    return " ".join(_quote(w) for w in words)


def parse_command(line: str) -> QueryRequest:
    """The request a command line states (the inverse of :func:`command_text`)."""
    try:
        tokens = shlex.split(line)
    except ValueError as exc:
        raise QuestionRefused(*both("query.bad_quoting", reason=str(exc))) from None
    if not tokens or tokens[0] != COMMAND:
        raise QuestionRefused(*both("query.not_a_query", text=line[:200]))
    values = _options(tokens[1:])
    listed = {option: _names(values.get(option, [])) for option in _LISTS}
    if not listed["--metrics"]:
        raise QuestionRefused(*both("query.no_metrics"))
    single = {option: values[option][0] if option in values else None for option in _SINGLE}
    try:
        return QueryRequest(
            metrics=tuple(listed["--metrics"]),
            group_by=tuple(listed["--group-by"]),
            where=tuple(w.strip() for w in values.get("--where", []) if w.strip()),
            start_time=read_date("--start-time", single["--start-time"]),
            end_time=read_date("--end-time", single["--end-time"]),
            order=tuple(listed["--order"]),
            limit=read_limit(single["--limit"]),
        )
    except ValidationError as exc:  # every field is checked above; this is the last line of defence
        raise QuestionRefused(*both("query.not_a_query", text=str(exc.errors()[0]["msg"]))) from None


def _options(tokens: list[str]) -> dict[str, list[str]]:
    values: dict[str, list[str]] = {}
    i = 0
    while i < len(tokens):
        option, equals, inline = tokens[i].partition("=")
        if option not in _OPTIONS:
            raise QuestionRefused(*both("query.unknown_option", option=tokens[i], options=", ".join(_OPTIONS)))
        if equals:
            value, i = inline, i + 1
        elif i + 1 < len(tokens):
            value, i = tokens[i + 1], i + 2
        else:
            raise QuestionRefused(*both("query.needs_value", option=option))
        if option in _SINGLE and option in values:
            raise QuestionRefused(*both("query.repeated_option", option=option))
        values.setdefault(option, []).append(value)
    return values


def read_date(option: str, raw: str | None) -> date | None:
    """``--start-time``/``--end-time`` as a date (a typed error naming the option otherwise)."""
    if raw is None:
        return None
    try:
        return date.fromisoformat(raw.strip())
    except ValueError:
        raise QuestionRefused(*both("query.bad_date", option=option, raw=raw)) from None


def read_limit(raw: str | None) -> int | None:
    """``--limit`` as a whole number from 1 to 1,000,000 (a typed error otherwise)."""
    if raw is None:
        return None
    if not raw.strip().isdigit() or not 1 <= int(raw) <= 1_000_000:
        raise QuestionRefused(*both("query.bad_limit", raw=raw))
    return int(raw)


# -- the request in catalog terms ----------------------------------------------------------------------
def semantic_query(
    request: QueryRequest,
    catalog: Catalog,
    *,
    as_of: date,
    language: Language,
) -> SemanticQuery:
    """The SemanticQuery a request names, every name checked against the catalog (typed errors
    naming what is wrong and what is allowed)."""
    metrics = tuple(dict.fromkeys(request.metrics))
    for name in metrics:
        check_metric(name, catalog)
    allowed = [
        d for d in catalog.metrics[metrics[0]].dimensions if all(d in catalog.metrics[m].dimensions for m in metrics)
    ]
    dims, grain = _group_by(request.group_by, metrics, allowed, catalog)
    where = tuple(_where(condition, allowed) for condition in request.where)
    _check_definitions(metrics, where, catalog)
    order_by = _order(request.order, metrics, dims, grain)
    shape: dict[str, Any] = {"intent": "trend" if grain else "breakdown" if dims else "value"}
    limit = request.limit
    ranked = len(order_by) == 1 and order_by[0].lstrip("-") == metrics[0]
    if limit is not None and limit <= _MAX_LIMIT_AS_TOP_N and dims and not grain and len(metrics) == 1 and ranked:
        # "the 5 members with the highest m" is a top N: the answer says so and lists them
        shape = {"intent": "ranking", "top_n": limit, "order": "desc" if order_by[0].startswith("-") else "asc"}
    return SemanticQuery(
        metrics=metrics,
        dimensions=tuple(dims),
        time_range=_time_range(request, as_of, language),
        grain=grain,
        where=where,
        order_by=order_by,
        limit=limit,
        as_of=as_of,
        **shape,
    )


def _listed(names: Iterable[str], language: Language) -> str:
    return text("answer.list_sep", language).join(names)


def check_metric(name: str, catalog: Catalog) -> None:
    """The one check of a metric name a caller sends: a catalog metric passes; a refused one is
    ``UnsupportedMetric`` with its reason, anything else ``UnknownMetric`` with the closest names."""
    if name in catalog.metrics:
        return
    refused = catalog.refused.get(name)
    if refused is not None:
        raise UnsupportedMetric(
            *both("query.refused_metric", name=name, reason=refused.reason.en, reason_zh=refused.reason.zh),
            detail={"metric": name, "reason": refused.reason.en},
        )
    closest = closest_metrics(name, catalog)
    en, zh = (_listed(closest, lang) or text("query.no_close_names", lang) for lang in ("en", "zh"))
    raise UnknownMetric(
        text("query.unknown_metric", "en", name=name, closest=en),
        text("query.unknown_metric", "zh", name=name, closest=zh),
        detail={"term": name, "suggestions": closest},
    )


def closest_metrics(name: str, catalog: Catalog, k: int = 3) -> list[str]:
    """The catalog metrics whose name, labels or synonyms are most like ``name``."""
    needle = name.strip().lower()

    def score(metric: str) -> float:
        info = catalog.metrics[metric]
        surfaces = (metric, info.label.en, info.label.zh, *info.synonyms)
        return max(SequenceMatcher(None, needle, s.lower()).ratio() for s in surfaces)

    return sorted(catalog.metrics, key=lambda m: (-score(m), m))[:k]


def _group_by(
    names: tuple[str, ...], metrics: tuple[str, ...], allowed: list[str], catalog: Catalog
) -> tuple[list[str], Grain | None]:
    dims: list[str] = []
    time: str | None = None
    for name in names:
        if name in TIME_NAMES:
            if time is not None and time != name:
                raise QuestionRefused(*both("query.two_time_group_bys", first=time, second=name))
            time = name
        elif name in allowed:
            dims += [] if name in dims else [name]
        else:
            key = "query.group_by_not_allowed" if name in catalog.dimensions else "query.unknown_group_by"
            raise QuestionRefused(
                text(key, "en", name=name, metrics=", ".join(metrics), allowed=_allowed("en", allowed)),
                text(key, "zh", name=name, metrics=", ".join(metrics), allowed=_allowed("zh", allowed)),
                detail={"group_by": name, "allowed": [*allowed, *TIME_NAMES]},
            )
    return dims, TIME_NAMES[time] if time is not None else None


def _allowed(language: Language, allowed: list[str]) -> str:
    return _listed([*allowed, text("query.time_names", language)], language)


def _where(condition: str, allowed: list[str]) -> str:
    try:
        return check_where(condition, {*allowed, *TIME_NAMES})
    except (ValueError, SqlglotError) as exc:
        reason = str(exc).splitlines()[0].rstrip(".") if str(exc) else type(exc).__name__
        raise QuestionRefused(
            text("query.bad_where", "en", where=condition, reason=reason, allowed=_allowed("en", allowed)),
            text("query.bad_where", "zh", where=condition, reason=reason, allowed=_allowed("zh", allowed)),
            detail={"where": condition, "reason": reason},
        ) from None


def _check_definitions(metrics: tuple[str, ...], where: tuple[str, ...], catalog: Catalog) -> None:
    """A filter keeping members a metric's own definition leaves out ("status = 'refunded'" of a
    metric of completed orders) is refused, as a question is asked back: the answer would be
    empty by definition, never a silent n/a."""
    filters = [
        MemberFilter(dimension=column.name, members=tuple(sorted(values)))
        for condition in where
        for column, values in sqlexpr.kept_terms(sqlexpr.parse(condition))
        if column.name in catalog.dimensions
    ]
    if not filters:
        return
    from baton.nlu.catalog_checks import CatalogChecks  # the reader's checks load only when needed

    try:
        CatalogChecks(catalog).check_metric_filters(metrics, (), filters)
    except AmbiguousQuestion as exc:
        raise QuestionRefused(exc.message_en, exc.message_zh, detail=exc.detail) from None


def _order(keys: tuple[str, ...], metrics: tuple[str, ...], dims: list[str], grain: Grain | None) -> tuple[str, ...]:
    """Order keys as output columns: the metric's time (any grain's name) is the period column."""
    columns = [*([PERIOD] if grain else []), *dims, *metrics]
    out: list[str] = []
    for key in keys:
        name = key.removeprefix("-").removeprefix("+").strip()
        column = PERIOD if name in TIME_NAMES and grain else name if name in columns else None
        if column is None:
            raise QuestionRefused(*both("query.bad_order", key=key, columns=", ".join(columns)))
        out.append(("-" if key.startswith("-") else "") + column)
    return tuple(out)


def _time_range(request: QueryRequest, as_of: date, language: Language) -> TimeRange:
    """Inclusive dates; an open end is the as-of date, an open start :data:`OPEN_START` — and the
    range's words say so ("all dates up to …"), never implying a period the reader did not ask for."""
    end = request.end_time or as_of
    start = request.start_time or min(OPEN_START, end)
    if start > end:
        key = "query.start_after_end" if request.end_time is not None else "query.start_after_as_of"
        raise QuestionRefused(*both(key, start=start.isoformat(), end=end.isoformat()))
    if request.start_time is None and request.end_time is None:
        words: str | None = text("query.open_range", language, end=end.isoformat())
    elif request.start_time is None:
        words = text("query.open_start", language, end=end.isoformat())
    elif request.end_time is None:
        words = text("query.open_end", language, start=start.isoformat(), end=end.isoformat())
    else:
        words = None
    return TimeRange(start=start, end=end, text=words)


# -- the pipeline ---------------------------------------------------------------------------------------
class QueryPipeline(AskPipeline):
    """The ask pipeline with a plan step that reads a request instead of a question."""

    kind = "query"

    def steps(self) -> Sequence[StepSpec[Any]]:
        first, *rest = super().steps()
        assert first.key == "plan"
        read = StepSpec(
            "plan", PlanOutput, lambda: plan(self.scope, source=_read), "clarify_metric", recheck=first.recheck
        )
        return (read, *rest)


def _read(scope: RunScope) -> SemanticQuery:
    state, session = scope.state, scope.session
    return semantic_query(
        parse_command(scope.question),
        session.catalog,
        as_of=state.as_of,
        language=state.language,
    )


QUERY = QueryPipeline
