"""The semantic-layer query (``Session.query``): names in, governed SQL out, results equal to
hand-written SQL run directly on the demo's DuckDB file; bad names and filters are typed
errors; the run is stored, traced, resumable and replayable like any other."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import baton
from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.contracts.common import Language
from baton.contracts.run import Budget
from baton.contracts.semantic import OPEN_START
from baton.orchestrator.query import command_text, parse_command
from baton.orchestrator.session import Session
from baton.trace.writer import read_trace
from tests.demo_gold import gold_rows

AS_OF = date(2026, 7, 1)
JUNE: dict[str, Any] = {"start_time": date(2026, 6, 1), "end_time": date(2026, 6, 30)}
SOLD = "status IN ('paid', 'refunded')"
IN_JUNE = "order_date BETWEEN '2026-06-01' AND '2026-06-30'"


def _num(value: object) -> float:
    return float(value) if isinstance(value, int | float | Decimal) else float(str(value))


def _answered(answer: Answer) -> list[list[object]]:
    assert answer.status == "answered", answer.error
    assert answer.result is not None and answer.gate is not None and answer.gate.ok
    return answer.result.rows


def _same(rows: list[list[object]], gold: list[tuple[object, ...]]) -> None:
    """Equal row by row: keys as text (dates as ISO), values to 12 significant digits."""
    assert len(rows) == len(gold), (rows, gold)
    for got, want in zip(rows, gold, strict=True):
        assert [str(v)[:10] for v in got[:-1]] == [str(v)[:10] for v in want[:-1]], (got, want)
        assert _num(got[-1]) == pytest.approx(_num(want[-1]), rel=1e-12), (got, want)


def test_single_metric_over_a_date_range(demo_session: Session) -> None:
    answer = demo_session.query("gmv", **JUNE, as_of=AS_OF)
    rows = _answered(answer)
    _same(rows, gold_rows(demo_session, f"SELECT SUM(gmv_amount) FROM fact_order WHERE {IN_JUNE} AND {SOLD}"))
    assert answer.question == "query --metrics gmv --start-time 2026-06-01 --end-time 2026-06-30"
    assert answer.language == "en"
    assert answer.interpretation == "Read as: GMV, 2026-06-01 to 2026-06-30."
    assert f"{_num(rows[0][0]):,.2f}" in answer.answer
    state = demo_session.store.load(answer.run_id)
    assert state.kind == "query" and state.status == "done"
    events = read_trace(demo_session.runs_dir / answer.run_id / "trace.jsonl")
    planned = next(e for e in events if e.type == "plan_created")
    assert planned.payload["entry"] == "query"


def test_metric_by_dimension(demo_session: Session) -> None:
    answer = demo_session.query(["order_count"], group_by=["channel"], **JUNE, as_of=AS_OF)
    rows = _answered(answer)
    gold = gold_rows(
        demo_session,
        f"SELECT channel, COUNT(*) FROM fact_order WHERE {IN_JUNE} AND {SOLD} GROUP BY channel ORDER BY channel",
    )
    _same(rows, gold)
    assert answer.result is not None and [c.name for c in answer.result.columns] == ["channel", "order_count"]
    assert answer.semantic_query is not None and answer.semantic_query.intent == "breakdown"


def test_metric_time_month_grain(demo_session: Session) -> None:
    answer = demo_session.query(
        "gmv", group_by="metric_time__month", start_time=date(2026, 1, 1), end_time=date(2026, 6, 30), as_of=AS_OF
    )
    gold = gold_rows(
        demo_session,
        "SELECT CAST(date_trunc('month', order_date) AS DATE) AS m, SUM(gmv_amount) FROM fact_order "
        f"WHERE order_date BETWEEN '2026-01-01' AND '2026-06-30' AND {SOLD} GROUP BY m ORDER BY m",
    )
    _same(_answered(answer), gold)
    assert len(gold) == 6
    assert answer.semantic_query is not None and answer.semantic_query.grain == "month"
    assert answer.interpretation == "Read as: GMV per month, 2026-01-01 to 2026-06-30."


def test_two_metrics_from_different_tables_and_a_ratio(demo_session: Session) -> None:
    answer = demo_session.query("conversion_rate,visitors", group_by="channel", **JUNE, as_of=AS_OF)
    rows = _answered(answer)
    gold = gold_rows(
        demo_session,
        f"WITH o AS (SELECT channel, COUNT(*) AS n FROM fact_order WHERE {IN_JUNE} AND {SOLD} GROUP BY channel), "
        "t AS (SELECT channel, SUM(visitors) AS v FROM fact_traffic "
        "WHERE visit_date BETWEEN '2026-06-01' AND '2026-06-30' GROUP BY channel) "
        "SELECT channel, n / v, v FROM o JOIN t USING (channel) ORDER BY channel",
    )
    assert [r[0] for r in rows] == [g[0] for g in gold]
    for got, want in zip(rows, gold, strict=True):
        assert _num(got[1]) == pytest.approx(_num(want[1]), rel=1e-12)
        assert _num(got[2]) == _num(want[2])
    assert answer.sql is not None and "fact_traffic" in answer.sql and "fact_order" in answer.sql


def test_where_in_metricflow_syntax(demo_session: Session) -> None:
    answer = demo_session.query(
        "gmv",
        group_by="category",
        where=["{{ Dimension('channel') }} = 'app'", "{{ TimeDimension('metric_time', 'day') }} >= '2026-06-15'"],
        **JUNE,
        as_of=AS_OF,
    )
    gold = gold_rows(
        demo_session,
        f"SELECT category, SUM(gmv_amount) FROM fact_order WHERE {IN_JUNE} AND {SOLD} "
        "AND channel = 'app' AND order_date >= DATE '2026-06-15' GROUP BY category ORDER BY category",
    )
    _same(_answered(answer), gold)
    assert answer.semantic_query is not None
    assert answer.semantic_query.where == ("channel = 'app'", "metric_time >= '2026-06-15'")
    assert answer.interpretation is not None
    assert "where channel = 'app' and metric_time >= '2026-06-15'" in answer.interpretation
    # the answer sentence says the result is filtered, not the whole metric
    assert "(where channel = 'app' and metric_time >= '2026-06-15')" in answer.answer


def test_order_desc_and_limit_is_a_top_n(demo_session: Session) -> None:
    answer = demo_session.query("gmv", group_by="region", order="-gmv", limit=3, **JUNE, as_of=AS_OF)
    gold = gold_rows(
        demo_session,
        f"SELECT region, SUM(gmv_amount) AS g FROM fact_order WHERE {IN_JUNE} AND {SOLD} "
        "GROUP BY region ORDER BY g DESC LIMIT 3",
    )
    _same(_answered(answer), gold)
    query = answer.semantic_query
    assert query is not None and query.top_n == 3 and query.order_by == ("-gmv",) and query.limit == 3
    assert answer.interpretation == "Read as: GMV by region, top 3 (highest first), 2026-06-01 to 2026-06-30."
    assert answer.answer.startswith("Top 3 regions by GMV")


def test_order_by_metric_across_periods_with_limit(demo_session: Session) -> None:
    answer = demo_session.query(
        "gmv", group_by="channel,metric_time__month", order="-gmv", limit=5, as_of=AS_OF, language="zh"
    )
    gold = gold_rows(
        demo_session,
        "SELECT CAST(date_trunc('month', order_date) AS DATE) AS m, channel, SUM(gmv_amount) AS g FROM fact_order "
        f"WHERE order_date <= '2026-07-01' AND {SOLD} GROUP BY m, channel ORDER BY g DESC LIMIT 5",
    )
    _same(_answered(answer), gold)
    assert answer.language == "zh"
    assert answer.interpretation is not None and answer.interpretation.startswith("问题理解为：")
    assert "按成交总额降序排序，取前 5 行" in answer.interpretation
    # ordered by the metric, it is narrated as a ranking: the rows in the query's order, not a series
    assert "成交总额最高的 5 行：" in answer.answer and "首个" not in answer.answer
    ranked = answer.answer.split("行：", 1)[1]
    assert re.findall(r"\d{4}-\d{2}", ranked) == [str(g[0])[:7] for g in gold]  # months named 2026-05


def test_order_by_metric_time_is_the_period_column(demo_session: Session) -> None:
    answer = demo_session.query(
        "gmv", group_by="metric_time__quarter", order="-metric_time", start_time=date(2025, 7, 1), as_of=AS_OF
    )
    gold = gold_rows(
        demo_session,
        "SELECT CAST(date_trunc('quarter', order_date) AS DATE) AS q, SUM(gmv_amount) FROM fact_order "
        f"WHERE order_date BETWEEN '2025-07-01' AND '2026-07-01' AND {SOLD} GROUP BY q ORDER BY q DESC",
    )
    _same(_answered(answer), gold)
    assert [str(g[0]) for g in gold[:2]] == ["2026-04-01", "2026-01-01"]  # newest first (data ends in June)
    assert answer.semantic_query is not None and answer.semantic_query.order_by == ("-period",)
    assert answer.interpretation is not None and "ordered by period descending" in answer.interpretation


def test_open_range_runs_to_the_as_of_date_and_says_so(demo_session: Session) -> None:
    answer = demo_session.query("gmv", as_of=AS_OF)
    rows = _answered(answer)
    _same(
        rows,
        gold_rows(demo_session, f"SELECT SUM(gmv_amount) FROM fact_order WHERE order_date <= '2026-07-01' AND {SOLD}"),
    )
    assert answer.time_range is not None
    assert (answer.time_range.start, answer.time_range.end) == (OPEN_START, AS_OF)
    assert answer.interpretation is not None and "all dates up to the as-of date 2026-07-01" in answer.interpretation
    assert str(OPEN_START.year) not in answer.interpretation + answer.answer  # the open start is words, not a date
    opened = demo_session.query("gmv", start_time=date(2026, 6, 1), as_of=AS_OF)
    assert opened.interpretation is not None
    assert "from 2026-06-01 up to the as-of date 2026-07-01" in opened.interpretation


def test_row_filtered_user_sees_only_its_region(demo_session: Session) -> None:
    answer = demo_session.query("gmv", group_by="channel", **JUNE, user="east_manager", as_of=AS_OF)
    gold = gold_rows(
        demo_session,
        f"SELECT channel, SUM(gmv_amount) FROM fact_order WHERE {IN_JUNE} AND {SOLD} AND region = '华东' "
        "GROUP BY channel ORDER BY channel",
    )
    _same(_answered(answer), gold)
    assert answer.user == "east_manager"
    assert any("east_manager" in a and "华东" in a for a in answer.assumptions)
    everyone = demo_session.query("gmv", group_by="channel", **JUNE, as_of=AS_OF)
    assert sum(_num(r[1]) for r in _answered(everyone)) > sum(_num(g[1]) for g in gold)


def test_row_filtered_user_filtering_another_region_is_refused(demo_session: Session) -> None:
    answer = demo_session.query(
        "gmv", where="{{ Dimension('region') }} = '华南'", **JUNE, user="east_manager", as_of=AS_OF
    )
    assert answer.status == "refused" and answer.result is None
    assert answer.error is not None and answer.error.code == "rows_not_permitted"


def test_unknown_metric_is_refused_with_close_names_and_nothing_runs(demo_session: Session) -> None:
    answer = demo_session.query("gmvv,order_count", as_of=AS_OF)
    assert answer.status == "refused"
    assert answer.error is not None and answer.error.code == "unknown_metric"
    assert answer.suggestions[0] == "gmv" and len(answer.suggestions) == 3
    assert answer.sql is None and answer.result is None
    events = read_trace(demo_session.runs_dir / answer.run_id / "trace.jsonl")
    assert not any(e.type == "tool_call" for e in events)


@pytest.fixture
def refusing_config(demo_dir: Path, tmp_path: Path) -> Path:
    """The demo with one metric the catalog names but refuses (its warehouse shared read-only)."""
    catalog = (demo_dir / "catalog.yaml").read_text(encoding="utf-8")
    catalog += (
        "\nrefused:\n  gmv_cumulative:\n    label: {zh: 累计成交总额, en: cumulative GMV}\n"
        "    reason: {zh: 累计指标暂不计算。, en: cumulative metrics are not computed yet.}\n"
    )
    (tmp_path / "catalog.yaml").write_text(catalog, encoding="utf-8")
    (tmp_path / "policies.yaml").write_text((demo_dir / "policies.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "baton.toml").write_text(
        f'[warehouse]\nurl = "duckdb:///{(demo_dir / "warehouse.duckdb").as_posix()}"\n'
        '[catalog]\npath = "catalog.yaml"\n[policy]\npath = "policies.yaml"\n[defaults]\nas_of = "2026-07-01"\n',
        encoding="utf-8",
    )
    return tmp_path / "baton.toml"


@pytest.mark.parametrize(
    ("language", "reason"), [("en", "cumulative metrics are not computed yet."), ("zh", "累计指标暂不计算。")]
)
def test_refused_metric_carries_the_catalogs_reason(refusing_config: Path, language: Language, reason: str) -> None:
    with Session(config=refusing_config) as session:
        answer = session.query("gmv,gmv_cumulative", as_of=AS_OF, language=language)
    assert answer.status == "refused" and answer.result is None
    assert answer.error is not None and answer.error.code == "unsupported_metric"
    assert answer.answer.endswith(reason) and "gmv_cumulative" in answer.answer


@pytest.mark.parametrize(
    ("where", "reason"),
    [
        ("lower(channel) = 'app'", "LOWER(channel)"),
        ("channel IN (SELECT channel FROM fact_order)", "SELECT"),
        ("{{ Dimension('no_such_dimension') }} = 'x'", "no_such_dimension"),
        ("channel = 'app", "tokenizing"),
        ("{{ Metric('gmv') }} > 1", "Metric"),
    ],
)
def test_bad_where_is_invalid_input_and_nothing_runs(demo_session: Session, where: str, reason: str) -> None:
    answer = demo_session.query("gmv", group_by="channel", where=where, as_of=AS_OF)
    assert answer.status == "refused" and answer.sql is None and answer.result is None
    assert answer.error is not None and answer.error.code == "invalid_input"
    assert reason in answer.error.message and where in answer.error.message
    assert "channel, region, category, user_type" in answer.error.message  # what a filter may name
    assert "Traceback" not in answer.answer
    events = read_trace(demo_session.runs_dir / answer.run_id / "trace.jsonl")
    assert not any(e.type == "tool_call" for e in events)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"metrics": "gmv,visitors", "group_by": "category"}, "cannot be grouped by 'category'"),
        ({"metrics": "gmv", "group_by": "colour"}, "'colour' is not a dimension"),
        ({"metrics": "gmv", "group_by": "metric_time__month,metric_time__week"}, "one time grain only"),
        ({"metrics": "gmv", "group_by": "channel", "order": "-visitors"}, "Cannot order by '-visitors'"),
        ({"metrics": "gmv", "order": "metric_time"}, "Cannot order by 'metric_time'"),
        ({"metrics": "gmv", "start_time": date(2026, 6, 2), "end_time": date(2026, 6, 1)}, "is after the end time"),
        ({"metrics": "gmv", "start_time": date(2026, 8, 1)}, "is after the as-of date"),
        ({"metrics": ()}, "at least one metric"),
        ({"metrics": "gmv", "limit": 0}, "--limit must be a whole number"),
    ],
)
def test_bad_request_names_what_is_wrong(demo_session: Session, options: dict[str, Any], named: str) -> None:
    answer = demo_session.query(**options, as_of=AS_OF)
    assert answer.status == "refused"
    assert answer.error is not None and answer.error.code == "invalid_input"
    assert named in answer.error.message
    assert demo_session.store.load(answer.run_id).status == "refused"


def test_group_by_error_lists_the_allowed_dimensions(demo_session: Session) -> None:
    answer = demo_session.query("visitors", group_by="category", as_of=AS_OF)
    assert answer.error is not None
    assert "channel, region, user_type, metric_time or metric_time__day" in answer.error.message


def test_resume_and_replay_a_query_run(demo_session: Session) -> None:
    options: dict[str, Any] = {"group_by": "channel", "where": "{{ Dimension('region') }} = '华东'", **JUNE}
    stopped = demo_session.query("gmv", **options, as_of=AS_OF, budget=Budget(max_steps=2))
    state = demo_session.store.load(stopped.run_id)
    assert state.kind == "query" and state.completed_steps == ["plan", "sql"]
    state.budget = Budget()
    demo_session.store.save(state)
    resumed = demo_session.resume(stopped.run_id)
    direct = demo_session.query("gmv", **options, as_of=AS_OF)
    assert _answered(resumed) == _answered(direct)
    assert resumed.answer == direct.answer
    replayed = demo_session.replay(resumed.run_id)
    assert replayed.model_dump_json() == resumed.model_dump_json()


def test_command_line_reads_back_to_the_same_request() -> None:
    line = command_text(
        ["gmv", "aov"],
        group_by="channel, metric_time__month",
        where=["{{ Dimension('channel') }} = 'app'", 'region = "x"', "a = 'it''s'"],
        start_time=date(2026, 1, 1),
        end_time=date(2026, 6, 30),
        order="-gmv,channel",
        limit=10,
    )
    assert line.startswith('query --metrics gmv,aov --group-by channel,metric_time__month --where "{{ Dimension(')
    request = parse_command(line)
    assert request.metrics == ("gmv", "aov")
    assert request.group_by == ("channel", "metric_time__month")
    assert request.where == ("{{ Dimension('channel') }} = 'app'", 'region = "x"', "a = 'it''s'")
    assert (request.start_time, request.end_time) == (date(2026, 1, 1), date(2026, 6, 30))
    assert request.order == ("-gmv", "channel") and request.limit == 10


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("query --metrics gmv --colour red", "Unknown option '--colour'"),
        ("query --metrics gmv --limit", "needs a value"),
        ("query --metrics gmv --limit 5 --limit 6", "only once"),
        ("query --metrics gmv --start-time June", "must be a date"),
        ("ask --metrics gmv", "Not a semantic-layer query"),
        ("query --metrics 'gmv", "quoting"),
    ],
)
def test_unreadable_command_lines_are_typed_errors(line: str, named: str) -> None:
    with pytest.raises(baton.InvalidInput) as caught:
        parse_command(line)
    assert named in caught.value.message("en") and caught.value.message("zh") != caught.value.message("en")


def test_facade_runs_a_query(demo_dir: Path) -> None:
    answer = baton.query("order_count", **JUNE, as_of=AS_OF, config=demo_dir / "baton.toml")
    session = Session(load_settings(demo_dir / "baton.toml"))
    try:
        gold = gold_rows(session, f"SELECT COUNT(*) FROM fact_order WHERE {IN_JUNE} AND {SOLD}")
    finally:
        session.close()
    _same(_answered(answer), gold)
