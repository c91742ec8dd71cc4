"""`baton query`: the semantic layer without natural language, with MetricFlow's flag names.

    baton query --metrics m1,m2 --group-by dim,metric_time__month --where "{{ Dimension('dim') }} = 'x'"
                --start-time 2026-01-01 --end-time 2026-06-30 --order -m1 --limit 10

The request runs as a governed run (grants, row filters, PII, firewall, trace, replay) and is
printed like `baton ask`'s answer, or as the Answer JSON with --json. Exit codes are ask's:
0 answered, 1 failed (a bad name, filter or flag included), 3 refused (an unknown metric).
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from baton.cli.common import AsOfOpt, ConfigOpt, JsonOpt, UserOpt, parse_as_of, settings_or_record
from baton.cli.errors import reported
from baton.contracts.common import Language
from baton.errors import InvalidInput
from baton.messages import both

MetricsOpt = Annotated[str | None, typer.Option("--metrics", help="Catalog metric names, comma-separated.")]
GroupByOpt = Annotated[
    str | None,
    typer.Option("--group-by", help="Dimensions and/or metric_time[__day|week|month|quarter|year], comma-separated."),
]
WhereOpt = Annotated[
    list[str] | None,
    typer.Option("--where", help="A filter, e.g. \"{{ Dimension('name') }} = 'x'\" (repeatable; all must hold)."),
]
StartOpt = Annotated[str | None, typer.Option("--start-time", help="First date included, YYYY-MM-DD (default: open).")]
EndOpt = Annotated[str | None, typer.Option("--end-time", help="Last date included, YYYY-MM-DD (default: as-of).")]
OrderOpt = Annotated[str | None, typer.Option("--order", help="Output columns, '-' first for descending: -m1,dim.")]
LimitOpt = Annotated[str | None, typer.Option("--limit", help="At most this many rows.")]
LangOpt = Annotated[str, typer.Option("--lang", help="Language of the answer: en | zh.")]


def _language(raw: str) -> Language:
    value = raw.strip().lower()
    if value == "zh":
        return "zh"
    if value == "en":
        return "en"
    raise InvalidInput(*both("query.bad_language", raw=raw))


def query_command(
    metrics: MetricsOpt = None,
    group_by: GroupByOpt = None,
    where: WhereOpt = None,
    start_time: StartOpt = None,
    end_time: EndOpt = None,
    order: OrderOpt = None,
    limit: LimitOpt = None,
    config: ConfigOpt = None,
    user: UserOpt = None,
    as_of: AsOfOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Query catalog metrics by name (MetricFlow's `mf query` flags), governed like `ask`."""
    from baton.cli.delivered import deliver_answer, run_answer, show_and_exit
    from baton.orchestrator.query import command_text, read_date, read_limit
    from baton.orchestrator.session import Session
    from baton.report.deliver import ReportFormat

    with reported(as_json=as_json):
        language = _language(lang)
    with reported(as_json=as_json, language=language):
        request: dict[str, Any] = {
            "group_by": group_by or (),
            "where": tuple(where or ()),
            "start_time": read_date("--start-time", start_time),
            "end_time": read_date("--end-time", end_time),
            "order": order or (),
            "limit": read_limit(limit),
        }
        settings = settings_or_record("query", command_text(metrics or (), **request), user, config)
        day = parse_as_of(as_of)
        session = Session(settings, user=user)
        answer = run_answer(session, lambda: session.query(metrics or (), **request, as_of=day, language=language))
        fmt: ReportFormat = "json" if as_json else "terminal"
        delivery = deliver_answer(answer, fmt, None, session, settings, user)
    show_and_exit(answer, delivery, fmt, session)
