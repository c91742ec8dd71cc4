"""The analysis agents' own rules (table-driven) and the query tool on the real demo warehouse."""

from __future__ import annotations

import math
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from baton.agents.attribution import Candidate, Drill, Member, too_few_events
from baton.agents.driver_selection import select_drivers
from baton.agents.insight import Drilled, carries_most
from baton.agents.report import fill
from baton.agents.tools import number, rows_as_dicts
from baton.catalog import quality_queries as qq
from baton.catalog.analysis_queries import CURRENT, PREVIOUS, Factor, daily_series, metric_tree, period_suffstats
from baton.catalog.model import Catalog
from baton.contracts.values import KeyNumber
from baton.errors import PolicyRefusal
from baton.numbers import display
from baton.orchestrator.governed import GovernedQuery
from baton.orchestrator.run import RunContext, open_store
from baton.orchestrator.session import Session
from baton.stats import SuffStats, completeness, welch_t_test
from baton.trace.writer import read_trace

AS_OF = date(2026, 7, 1)
WEEKDAY = [0.95, 0.94, 0.96, 0.97, 1.00, 1.12, 1.10]


def _series(start: date, days: int, level: float = 1000.0) -> dict[date, int]:
    return {
        start + timedelta(days=i): round(level * WEEKDAY[(start + timedelta(days=i)).weekday()]) for i in range(days)
    }


# ------------------------------------------------------------------------- quality: completeness
def _partial(counts: dict[date, int]) -> dict[date, int]:
    day = date(2026, 4, 15)
    return {**counts, day: counts[day] // 2}


def _holiday(counts: dict[date, int]) -> dict[date, int]:
    return {d: round(c * 0.75) if date(2026, 4, 10) <= d <= date(2026, 4, 18) else c for d, c in counts.items()}


def _missing(counts: dict[date, int]) -> dict[date, int]:
    return {d: c for d, c in counts.items() if d != date(2026, 4, 20)}


def _last_day_weekday(counts: dict[date, int]) -> dict[date, int]:
    return {d: c for d, c in counts.items() if d <= date(2026, 4, 28)}


@pytest.mark.parametrize(
    ("name", "shape", "expected"),
    [
        ("steady", lambda c: c, set()),
        ("half-loaded day", _partial, {date(2026, 4, 15)}),
        ("holiday plateau (-25 % for 9 days)", _holiday, set()),
        ("day with no rows", _missing, {date(2026, 4, 20)}),
        ("last day is a Tuesday after a weekend", _last_day_weekday, set()),
    ],
)
def test_completeness_flags_partial_loads_not_plateaus(name: str, shape: object, expected: set[date]) -> None:
    counts = shape(_series(date(2026, 2, 1), 89))  # type: ignore[operator]
    days = [d for d in (date(2026, 4, 1) + timedelta(days=i) for i in range(30)) if d <= max(counts)]
    flagged = {c.day for c in completeness(counts, days) if c.incomplete}
    assert flagged == expected, name


# --------------------------------------------------------------------- insight: driver selection
def _cand(members: dict[str, str], factor: str, change: float, p: float) -> Candidate:
    """A candidate whose own change and change against the rest both point the way of its
    contribution, each test with p-value ``p``."""
    own = -0.45 if change < 0 else 0.45
    return Candidate(
        members, factor, "factor", change, None, None, own, (own - 0.05, own + 0.05), p, own, p, "ev_x", ratio=True
    )


def test_pair_replaces_single_echoes_are_dropped_and_offsets_kept() -> None:
    cands = [
        _cand({"channel": "app"}, "conversion_rate", -95.0, 1e-20),
        _cand({"user_type": "new"}, "conversion_rate", -97.0, 1e-20),
        _cand({"channel": "app", "user_type": "new"}, "conversion_rate", -100.0, 1e-30),
        _cand({"channel": "app", "region": "华东"}, "conversion_rate", -40.0, 1e-8),  # echo of app × new
        _cand({"region": "西北"}, "visitors", -30.0, 1e-6),  # a second, independent driver
        _cand({"channel": "web"}, "conversion_rate", 20.0, 1e-6),  # offset: against the change
        _cand({"region": "华北"}, "aov", -2.0, 1e-6),  # immaterial (< 10 % of the top)
        *[_cand({"category": f"c{i}"}, "aov", -50.0, 0.5) for i in range(20)],  # not significant
    ]
    drivers = select_drivers(cands, [], total_change=-120.0, headline_significant=True)
    assert [(d.members, d.stance) for d in drivers] == [
        ({"channel": "app", "user_type": "new"}, "driver"),
        ({"region": "西北"}, "driver"),
        ({"channel": "web"}, "offset"),
    ]
    assert cands[0].subsumed_by == cands[2].key and cands[1].subsumed_by == cands[2].key
    assert cands[3].subsumed_by == cands[2].key


_TREE = frozenset({"visitors", "conversion_rate", "aov"})


def _sum_cand(
    members: dict[str, str],
    factor: str,
    change: float,
    p: float,
    before: float | None = None,
    after: float | None = None,
) -> Candidate:
    """A candidate of a summed factor (visitors, orders), its daily values ``before`` → ``after``."""
    c = _cand(members, factor, change, p)
    c.ratio, c.before, c.after = False, before, after
    return c


def test_a_pair_lost_as_an_echo_gives_back_the_single_it_stood_for() -> None:
    """Cell (a, n) stands in for channel a, then is the echo of the larger user type n: channel a
    comes back, and its other cells (echoes of it) never stand for it."""
    cands = [
        _sum_cand({"user_type": "n"}, "visitors", 0.95, 1e-6),
        _sum_cand({"channel": "a"}, "visitors", 0.54, 1e-20),
        _sum_cand({"channel": "a", "user_type": "n"}, "visitors", 0.50, 1e-21),
        _sum_cand({"channel": "a", "region": "x"}, "visitors", 0.16, 1e-19),
        _sum_cand({"channel": "a", "category": "y"}, "order_count", 0.19, 1e-6),  # a coarser tree's factor
        _sum_cand({"category": "y"}, "order_count", 0.3, 0.02),  # its parent: the pair is tested
    ]
    drivers = select_drivers(cands, [], total_change=1.0, headline_significant=True, tree_factors=_TREE)
    assert [d.members for d in drivers] == [{"user_type": "n"}, {"channel": "a"}]
    assert cands[3].subsumed_by == cands[1].key and cands[4].subsumed_by == cands[1].key


def test_a_pair_holding_most_of_a_summed_factor_replaces_both_singles() -> None:
    """The single's visitor effect also carries the shift toward a cell of lower order value (its
    contribution 0.95, the cells' 0.50): the cell holds 82 % of the visitors gained."""
    cands = [
        _sum_cand({"user_type": "n"}, "visitors", 0.95, 1e-6, 38181.0, 42545.0),
        _sum_cand({"channel": "a"}, "visitors", 0.54, 1e-20, 8721.0, 12368.0),
        _sum_cand({"channel": "a", "user_type": "n"}, "visitors", 0.50, 1e-21, 5641.0, 9238.0),
        _sum_cand({"channel": "a", "region": "x"}, "visitors", 0.16, 1e-19, 2235.0, 3167.0),
    ]
    drivers = select_drivers(cands, [], total_change=1.0, headline_significant=True, tree_factors=_TREE)
    assert [d.members for d in drivers] == [{"channel": "a", "user_type": "n"}]
    assert cands[0].subsumed_by == cands[1].subsumed_by == cands[3].subsumed_by == cands[2].key


def test_a_single_rising_in_every_cell_is_kept() -> None:
    cands = [
        _sum_cand({"user_type": "n"}, "visitors", 1.0, 1e-9, 1000.0, 1200.0),
        _sum_cand({"channel": "a", "user_type": "n"}, "visitors", 0.5, 1e-9, 500.0, 600.0),
        _sum_cand({"channel": "b", "user_type": "n"}, "visitors", 0.3, 1e-9, 300.0, 360.0),
    ]
    drivers = select_drivers(cands, [], total_change=1.0, headline_significant=True, tree_factors=_TREE)
    assert [d.members for d in drivers] == [{"user_type": "n"}]


def test_a_member_that_moved_less_than_the_rest_is_no_driver() -> None:
    """Own change up, but down against the rest: everything rose more (an echo of elsewhere)."""
    echo = _cand({"channel": "app"}, "conversion_rate", 50.0, 1e-9)
    echo.excess = -0.1
    assert select_drivers([echo], [], total_change=100.0, headline_significant=True) == []
    assert echo.q_value <= 0.01 and not echo.significant


def test_no_driver_when_nothing_survives_bh() -> None:
    cands = [_cand({"region": f"r{i}"}, "visitors", -10.0 - i, 0.002 + 0.024 * i) for i in range(40)]
    assert select_drivers(cands, [], total_change=-50.0, headline_significant=False) == []


def test_contributions_when_the_change_is_not_significant() -> None:
    cands = [_cand({"region": "西南"}, "visitors", 30.0, 1e-9), _cand({"region": "华东"}, "visitors", -10.0, 0.5)]
    drivers = select_drivers(cands, [], total_change=-1.0, headline_significant=False)
    assert [(d.members, d.stance) for d in drivers] == [({"region": "西南"}, "contribution")]


def test_a_sure_change_worth_a_sliver_of_the_whole_is_no_driver() -> None:
    """A mix shift carrying 0.2 % of a rate that rose in every member: significant, immaterial."""
    sliver = _cand({"user_type": "returning"}, "order_count", 0.011, 1e-9)
    assert select_drivers([sliver], [], total_change=4.474, headline_significant=True) == []
    assert sliver.significant and sliver.immaterial
    share = _cand({"user_type": "returning"}, "order_count", 0.3, 1e-9)  # 6.7 %: a driver
    assert [d.members for d in select_drivers([share], [], total_change=4.474, headline_significant=True)] == [
        {"user_type": "returning"}
    ]


_REFUND_RATE = Factor("refund_rate", "refunds", "orders", "rate")


@pytest.mark.parametrize(
    ("member", "rest", "sparse"),
    [
        ((76.0, 250.0), (54.0, 174.0), True),  # the rest's 0.6 refunds a day: a daily ratio mostly undefined
        ((5.0, 32.0), (900.0, 2700.0), True),  # a cell's 5 refunds in a quarter: its noise, never a driver
        ((185.0, 77.0), (885.0, 851.0), False),  # phones' refunds halved, about one a day: tested
    ],
)
def test_a_rate_too_sparse_is_never_tested_against_the_rest(
    member: tuple[float, float], rest: tuple[float, float], sparse: bool
) -> None:
    """A rate is tested against the rest only with the rest's numerator at one a day or more and the
    member's at 20 or more in each period (90 days here); a sum is always tested."""
    (own_before, own_after), (rest_before, rest_after) = member, rest
    row = Member(("x",), {}, {"refunds": own_before, "orders": 1.0}, {"refunds": own_after, "orders": 1.0})
    totals = {PREVIOUS: {"refunds": own_before + rest_before}, CURRENT: {"refunds": own_after + rest_after}}
    drill = Drill(("region",), [row], totals, {}, {PREVIOUS: 90, CURRENT: 90})
    assert too_few_events(drill, row, _REFUND_RATE) is sparse
    assert not too_few_events(drill, row, Factor("refunds", "refunds"))


@pytest.mark.parametrize(
    ("excess", "sign", "named"),
    [
        (0.01, 1.0, False),  # the biggest category, up 9 % when everything rose 8 %: big, not apart
        (-0.3, 1.0, False),  # it rose less than the rest: most of the change only by its size
        (0.6, 1.0, True),  # 2 → 13 cancellations, the rest flat: most of the change, and apart
        (0.1, 1.0, True),  # exactly MOVED_APART more than the rest
        (None, 1.0, True),  # too sparse to test against the rest: its share is all there is to say
        (-0.6, -1.0, True),  # a fall carried by one member that fell apart from the rest
        (0.6, -1.0, False),  # a fall, the member up against the rest: not the fall's carrier
    ],
)
def test_a_member_carrying_most_of_an_untested_change_is_named_only_when_it_moved_apart(
    excess: float | None, sign: float, named: bool
) -> None:
    big = _cand({"category": "phones"}, "order_count", 70.0 * sign, 0.4)
    big.excess = excess
    rest = _cand({"category": "food"}, "order_count", 30.0 * sign, 0.4)
    drilled = Drilled(dims=["category"], cands=[big, rest])
    drilled.total_change = 100.0 * sign
    assert (carries_most(drilled) is big) is named


# ---------------------------------------------------------------------------- report rendering
def test_report_numbers_are_rendered_from_key_numbers_exactly() -> None:
    numbers = {
        "a": number("a", "GMV", 1234567.891, "元", 2, "ev_1"),
        "b": number("b", "change", -16.1234, "%", 2, "ev_1"),
        "p": number("p", "p", 0.000123, "p", 6, "ev_1"),
    }
    assert numbers["a"].value == Decimal("1234567.89")
    assert fill("{num:a}，{num:b}，p = {num:p}", numbers) == "1,234,567.89 元，-16.12%，p = 0.000123"
    for n in numbers.values():
        assert display(n).split(" ")[0].rstrip("%").replace(",", "") == KeyNumber.rendered(n).split(" ")[0]


# ------------------------------------------------------------------------------- the query tool
def _tool(session: Session, user: str) -> tuple[GovernedQuery, RunContext]:
    ctx = RunContext.start(
        kind="analyze",
        question="t",
        user=user,
        language="en",
        as_of=AS_OF,
        store=open_store(session.runs_dir),
        runs_dir=session.runs_dir,
    )
    return session.governed(user, "en", ctx), ctx


def test_sufficient_statistics_from_sql_match_the_daily_values(demo_session: Session) -> None:
    tool, _ = _tool(demo_session, "analyst")
    query = demo_session.planner.plan("为什么2026年6月的GMV下降了？", as_of=AS_OF)
    assert query.comparison is not None
    tree = metric_tree(demo_session.catalog, "gmv")
    skip = [date(2026, 6, 12)]
    sums = {
        r["which"]: r
        for r in rows_as_dicts(
            tool.run("ss", period_suffstats(demo_session.catalog, query, tree, excluded_days=skip).expression)
        )
    }
    daily = rows_as_dicts(
        tool.run(
            "daily",
            daily_series(
                demo_session.catalog, query, tree, start=query.comparison.range.start, end=query.time_range.end
            ).expression,
        )
    )
    values = {
        which: [
            float(str(r["gmv"]))
            for r in daily
            if rng.start.isoformat() <= str(r["period"]) <= rng.end.isoformat()
            and date.fromisoformat(str(r["period"])) not in skip
        ]
        for which, rng in ((CURRENT, query.time_range), (PREVIOUS, query.comparison.range))
    }
    a_sql, b_sql = (
        SuffStats(int(str(sums[w]["n"])), float(str(sums[w]["s"])), float(str(sums[w]["ss"])), float(str(sums[w]["k"])))
        for w in (PREVIOUS, CURRENT)
    )
    from_sql = welch_t_test(a_sql, b_sql)
    from_rows = welch_t_test(SuffStats.from_values(values[PREVIOUS]), SuffStats.from_values(values[CURRENT]))
    assert from_sql.n_b == len(values[CURRENT]) == 29
    assert math.isclose(from_sql.estimate, from_rows.estimate, rel_tol=1e-9)
    assert math.isclose(from_sql.p_value or 0, from_rows.p_value or 0, rel_tol=1e-6)
    # the incomplete day is out of the totals too: every comparison reads the same days
    assert math.isclose(float(str(sums[CURRENT]["gmv"])), math.fsum(values[CURRENT]), rel_tol=1e-12)
    assert int(str(sums[CURRENT]["days"])) == 29


def test_a_refused_query_is_traced_as_denied_and_never_runs(demo_session: Session) -> None:
    tool, ctx = _tool(demo_session, "marketing")
    with pytest.raises(PolicyRefusal):
        tool.run(
            "quality:daily_rows:dim_user",
            qq.daily_row_counts(demo_session.catalog, "dim_user", date(2026, 6, 1), date(2026, 6, 30)),
        )
    events = read_trace(demo_session.runs_dir / ctx.state.run_id / "trace.jsonl")
    assert [e.payload["decision"] for e in events if e.type == "policy_decision"] == ["deny"]
    assert not [e for e in events if e.type == "tool_call"]


def test_a_why_over_a_breakdown_is_asked_back(demo_session: Session) -> None:
    """ "为什么上个月各区域的订单量下降了": the analysis explains one total, and checking the premise
    on it would call "each region fell" checked while some rose — asked back, naming the regions."""
    answer = demo_session.analyze("为什么上个月各区域的订单量下降了", as_of=AS_OF)
    assert answer.status == "clarification_needed"
    assert answer.error is not None and answer.error.detail["reason"] == "why_of_each_group"
    assert "区域" in answer.error.message


def test_a_why_of_every_group_is_asked_back(demo_session: Session) -> None:
    """ "为什么6月所有渠道的GMV都下滑了" (only app fell): every channel's fall is not checked one by one —
    asked back, never the total's why with the premise called checked."""
    answer = demo_session.analyze("为什么6月所有渠道的GMV都下滑了", as_of=AS_OF)
    assert answer.status == "clarification_needed", answer.answer
    assert answer.error is not None and answer.error.detail["reason"] == "why_of_each_group"


def test_the_headline_states_the_values_as_loaded(demo_session: Session) -> None:
    """Beside the comparable-days change, the values as loaded are stated, not only their change:
    the period's own total is in the answer."""
    import duckdb

    answer = demo_session.analyze("为什么上个月订单量下降了", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        row = con.execute(
            """SELECT COUNT(*) FILTER (WHERE order_date >= '2026-06-01'),
                      COUNT(*) FILTER (WHERE order_date < '2026-06-01')
               FROM fact_order WHERE status IN ('paid', 'refunded')
               AND order_date BETWEEN '2026-05-01' AND '2026-06-30'"""
        ).fetchone()
    finally:
        con.close()
    assert row is not None
    change = (row[0] / row[1] - 1) * 100
    assert f"按已加载数据，变化 {change:.2f}%（{row[0]:,} 个，对比期 {row[1]:,} 个）" in answer.answer


def test_an_excluded_member_is_stated_as_excluded_in_the_definitions(demo_session: Session) -> None:
    """ "why did GMV excluding live stream drop": the report's filters say NOT IN, as the SQL does."""
    answer = demo_session.analyze("why did GMV excluding live stream drop last month", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    stated = [item for section in answer.sections for item in section.items if "live_stream" in item]
    assert any("NOT IN ('live_stream')" in item for item in stated), stated
    assert not any(" IN ('live_stream')" in item and "NOT IN" not in item for item in stated), stated


def test_a_comparable_basis_of_a_distinct_count_says_it_counts_per_day(demo_session: Session) -> None:
    """ "客单价" divides by distinct buyers: the comparable basis, built from daily values, says it
    adds per-day distinct counts (buyer-days) instead of passing them off as the definition's."""
    answer = demo_session.analyze("为什么上个月客单价下降了", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    comparable = [item for section in answer.sections for item in section.items if item.startswith("可比口径")]
    assert comparable and "按日去重后相加" in comparable[0], comparable
    plain = demo_session.analyze("为什么上个月GMV下降了", as_of=AS_OF)
    assert not [i for s in plain.sections for i in s.items if "按日去重后相加" in i]


def test_every_count_a_trend_finding_states_reaches_the_output_gate(demo_session: Session) -> None:
    """ "(3 change point(s))": the count a change-point finding states is one of its numbers, so
    the output gate can trace it (it once blocked a whole analysis of Q2 against Q1)."""
    answer = demo_session.analyze("why did net revenue fall in Q2 compared with Q1", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    found = [f for f in answer.findings if f.kind == "change_point"]
    assert found  # the daily series of two quarters shifts its mean
    for finding in found:
        (count,) = [n for n in finding.numbers if n.key == "trend.change_points"]
        assert f"({count.value} change point(s)" in finding.text


@pytest.mark.parametrize(
    "question", ["what drove the change in refund rate in Q2 vs Q1", "为什么二季度退款率比一季度上升了"]
)
def test_a_member_whose_change_is_a_larger_drivers_mix_is_no_driver(demo_session: Session, question: str) -> None:
    """Appliance refunds rose everywhere (planted); web sells more appliances, so web's refund rate
    rose more than the rest — through its mix, not of its own: 家用电器 is the one driver, web (or web ×
    new users) never a second."""
    answer = demo_session.analyze(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert [d.members for d in answer.drivers] == [{"category": "家用电器"}]
    web_without = _scalar(
        demo_session,
        "SELECT CAST(COUNT(*) FILTER (WHERE status = 'refunded' AND order_date >= '2026-04-01') AS DOUBLE) "
        "/ COUNT(*) FILTER (WHERE order_date >= '2026-04-01') - CAST(COUNT(*) FILTER (WHERE status = 'refunded' "
        "AND order_date < '2026-04-01') AS DOUBLE) / COUNT(*) FILTER (WHERE order_date < '2026-04-01') "
        "FROM fact_order WHERE channel = 'web' AND category <> '家用电器' AND status IN ('paid', 'refunded') "
        "AND order_date BETWEEN '2026-01-01' AND '2026-06-30'",
    )
    assert abs(web_without) < 0.01  # outside appliances web moved under a point: nothing of its own


@pytest.mark.parametrize(
    ("question", "unit"),
    [("why did refund rate rise in Q2 compared with Q1", "pp/day"), ("为什么上个月GMV下降了", "元/天")],
)
def test_a_trend_slope_is_stated_in_the_unit_it_moves_in(demo_session: Session, question: str, unit: str) -> None:
    """A rate's daily series is in per cent, so its slope moves in percentage points a day — never
    "%/day", which would read as a relative change; an amount's slope is its currency a day."""
    answer = demo_session.analyze(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    (slope,) = [f for f in answer.findings if f.kind == "slope"]
    assert {n.unit for n in slope.numbers if n.key.startswith("trend.slope")} == {unit}


def _scalar(demo_session: Session, sql: str) -> float:
    import duckdb

    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        row = con.execute(sql).fetchone()
    finally:
        con.close()
    assert row is not None
    return float(row[0])


PAID = "status IN ('paid', 'refunded')"


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        # fewer in total, more per day: the premise is true as asked, so never called wrong
        ("为什么4月订单量比3月低", "问题说订单量下降：按总量确实如此，但按可比口径它上升"),
        # more per day, fewer in total: never a plain "it did" over a total that went the other way
        ("为什么4月订单量比3月高", "问题说订单量上升：按可比口径确实如此，但按总量它下降"),
    ],
)
def test_a_premise_true_on_one_basis_only_is_said_both_ways(demo_session: Session, question: str, lead: str) -> None:
    """April against March (30 days against 31): fewer orders in total, more per day — whichever
    way the question takes it, both bases are said."""
    april, march = (
        _scalar(demo_session, f"SELECT COUNT(*) FROM fact_order WHERE {PAID} AND order_date BETWEEN '{a}' AND '{b}'")
        for a, b in (("2026-04-01", "2026-04-30"), ("2026-03-01", "2026-03-31"))
    )
    assert april < march and april / 30 > march / 31  # the shape this test is about
    answer = demo_session.analyze(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.answer.startswith(lead)
    assert f"按已加载数据，变化 {(april / march - 1) * 100:.2f}%" in answer.answer


def test_gmv_per_buyer_leads_with_the_periods_own_distinct_count(demo_session: Session) -> None:
    """ "客单价" of two periods of different lengths: the headline is GMV over each period's
    distinct buyers (the 口径), never over buyer-days added up per day."""

    def per_buyer(start: str, end: str) -> float:
        return _scalar(
            demo_session,
            f"SELECT SUM(gmv_amount) / COUNT(DISTINCT user_id) FROM fact_order WHERE {PAID} "
            f"AND order_date BETWEEN '{start}' AND '{end}'",
        )

    q1, q4 = per_buyer("2026-01-01", "2026-03-31"), per_buyer("2025-10-01", "2025-12-31")
    answer = demo_session.analyze("第一季度客单价为什么比去年四季度低", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert f"{q1:,.2f} 元，对比期 {q4:,.2f} 元" in answer.answer


def test_a_drivers_share_over_buyer_days_states_its_total(demo_session: Session) -> None:
    """A buyers driver's "% of the change" is of the change with distinct counts added per day,
    which is not the headline's: that total is stated beside the share."""
    answer = demo_session.analyze("为什么上个月食品生鲜买家数下降了", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    drivers = [f.text for f in answer.findings if f.kind == "driver"]
    assert drivers and all("总变化按日去重后相加为" in d for d in drivers), drivers


def test_every_query_of_an_analysis_runs_as_the_asking_user(demo_session: Session) -> None:
    answer = demo_session.analyze("为什么2026年6月的GMV下降了？", as_of=AS_OF, user="east_manager")
    assert answer.status == "answered", answer.error
    events = read_trace(demo_session.runs_dir / answer.run_id / "trace.jsonl")
    allowed = [e.payload for e in events if e.type == "policy_decision" and e.payload.get("gate") == "firewall"]
    assert allowed and all(p["user"] == "east_manager" for p in allowed)
    data_queries = [p for p in allowed if p["query"] != "quality:freshness"]  # the load log has no row filter
    assert all(p["row_filters"] for p in data_queries)
    assert answer.drivers and all("region" not in d.members for d in answer.drivers)  # a row filter fixes it


@pytest.mark.parametrize(
    ("q", "text"),
    [
        (1e-46, "< 0.000001"),
        (9.99e-7, "< 0.000001"),
        (1e-6, "= 0.000001"),
        (4.47e-6, "= 0.000004"),
        (0.0961, "= 0.0961"),
    ],
)
def test_tiny_q_values_are_stated_as_a_bound_never_as_zero(q: float, text: str) -> None:
    from baton.agents.insight_text import q_text

    assert q_text(q) == text


def test_a_single_day_is_compared_with_its_usual_level() -> None:
    """One day: the same weekday of the 4 weeks before, also when the planner implied 'the day before'."""
    from baton.contracts.common import CalendarEvent
    from baton.contracts.semantic import Comparison, SemanticQuery, TimeRange
    from baton.orchestrator.analyze import with_comparison

    day = TimeRange(start=date(2026, 6, 18), end=date(2026, 6, 18))
    before = Comparison(kind="previous_period", range=TimeRange(start=date(2026, 6, 17), end=date(2026, 6, 17)))
    for comparison in (None, before):
        query = with_comparison(SemanticQuery(metrics=("m",), time_range=day, comparison=comparison, as_of=AS_OF))
        assert query.comparison is not None and query.comparison.kind == "same_weekday"
        assert query.comparison.dates() == tuple(date(2026, 6, 18) - timedelta(weeks=k) for k in (4, 3, 2, 1))
        assert not query.comparison.contains(date(2026, 6, 10))
    # a promotion is not the usual level: its days are skipped, reaching further back
    promo = CalendarEvent.model_validate({"name": {"zh": "618", "en": "618"}, "start": "06-01", "end": "06-18"})
    query = with_comparison(SemanticQuery(metrics=("m",), time_range=day, as_of=AS_OF), [promo])
    assert query.comparison is not None
    assert query.comparison.dates() == tuple(date(2026, 6, 18) - timedelta(weeks=k) for k in (6, 5, 4, 3))


def test_days_after_a_stale_tables_last_load_are_left_out_of_every_comparison() -> None:
    from baton.agents.quality import incomplete_days
    from baton.contracts.agent_outputs import QualityFlag, QualityOutput
    from baton.contracts.semantic import Comparison, SemanticQuery, TimeRange

    june, may = (
        TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30)),
        TimeRange(start=date(2026, 5, 1), end=date(2026, 5, 31)),
    )
    query = SemanticQuery(
        metrics=("m",), time_range=june, comparison=Comparison(kind="previous_period", range=may), as_of=AS_OF
    )
    flags = (
        QualityFlag(table="t", date=date(2026, 6, 27), issue="stale", message="m", affects_period=True),
        QualityFlag(table="t", date=date(2026, 5, 9), issue="incomplete", message="m", affects_period=True),
    )
    output = QualityOutput(task_id="q", flags=flags)
    assert incomplete_days(output, query) == [date(2026, 5, 9), date(2026, 6, 28), date(2026, 6, 29), date(2026, 6, 30)]
    assert incomplete_days(output) == [date(2026, 5, 9)]


def test_a_change_across_unlike_periods_is_never_called_noise(demo_session: Session) -> None:
    """November 2025 holds 双11, October none: not significant as a daily average, but the lead says the
    periods are not like for like rather than "maybe noise"."""
    answer = demo_session.analyze("为什么2025年11月GMV大涨", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert "可能只是正常波动" not in answer.answer and "两期不是同类日子相比" in answer.answer.split("。")[0]


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("why did GMV fall last week?", "The comparison period (2026-06-15 to 2026-06-21) holds days of 618"),
        (
            "为什么上周GMV环比下降了",
            "对比期（2026-06-15 至 2026-06-21）含618 大促的日子（2026-06-15 至 2026-06-18，高峰日 2026-06-18）",
        ),
    ],
)
def test_an_event_in_one_period_only_is_said_in_the_summary(demo_session: Session, question: str, said: str) -> None:
    """Last week against a week holding 618's peak: the summary names the event and its days in the
    comparison period — the two periods are not like for like — never puts it in the current one."""
    answer = demo_session.analyze(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert said in answer.answer
    june = demo_session.analyze("为什么上个月GMV下降了", as_of=AS_OF)  # 618 in June only, none in May
    assert (
        "本期（2026-06-01 至 2026-06-30）含618 大促的日子（2026-06-01 至 2026-06-18，高峰日 2026-06-18）" in june.answer
    )


def test_quality_checks_read_a_timestamp_tables_rows_by_day(tmp_path: Path) -> None:
    """A table dated by a timestamp: its rows are counted per day (grouped raw, every second was a
    day of its own and the completeness check saw one row a day) and its last day is whole (a
    timestamp BETWEEN two dates stopped at that day's midnight: 95 empty channels where 97 were)."""

    con = duckdb.connect(str(tmp_path / "shop.duckdb"))
    con.execute(
        "CREATE TABLE orders AS SELECT TIMESTAMP '2026-06-01 00:00:00' + i * INTERVAL 37 MINUTE AS ordered_at, "
        "CASE WHEN i % 10 = 0 THEN NULL ELSE 'web' END AS channel FROM range(1000) t(i)"
    )
    catalog = Catalog.model_validate(
        {
            "version": 1,
            "name": "shop",
            "tables": {
                "orders": {
                    "label": {"en": "orders", "zh": "订单"},
                    "time_column": "ordered_at",
                    "time_type": "timestamp",
                }
            },
            "dimensions": {"channel": {"label": {"en": "channel", "zh": "渠道"}, "columns": {"orders": "channel"}}},
            "metrics": {},
        }
    )
    start, end = date(2026, 6, 1), date(2026, 6, 10)
    days = con.execute(qq.daily_row_counts(catalog, "orders", start, end).sql(dialect="duckdb")).fetchall()
    gold = con.execute(
        "SELECT CAST(ordered_at AS DATE), COUNT(*) FROM orders WHERE CAST(ordered_at AS DATE) "
        "BETWEEN DATE '2026-06-01' AND DATE '2026-06-10' GROUP BY 1 ORDER BY 1"
    ).fetchall()
    assert [(str(d)[:10], n) for d, n in days] == [(str(d), n) for d, n in gold] and len(days) == 10
    nulls, _ = qq.null_counts(catalog, "orders", start, end)
    rows, empty = con.execute(nulls.sql(dialect="duckdb")).fetchone() or (0, 0)
    (want,) = con.execute(
        "SELECT COUNT(*) FROM orders WHERE channel IS NULL AND ordered_at < TIMESTAMP '2026-06-11'"
    ).fetchone() or (None,)
    assert (rows, empty) == (sum(n for _, n in gold), want)
    con.close()


@pytest.mark.parametrize(("comparable", "loaded", "both"), [("0.15", "-0.20", True), ("0.15", "0.30", False)])
def test_a_headline_on_comparable_days_says_the_totals_too_when_they_moved_the_other_way(
    demo_session: Session, comparable: str, loaded: str, both: bool
) -> None:
    """A day left out leads with the comparable change; when the totals as loaded moved the other
    way (the premise sentence names them), they follow in the headline, however small the gap."""
    from baton.agents import report
    from baton.contracts.agent_outputs import QualityFlag, QualityOutput
    from baton.contracts.semantic import Comparison, SemanticQuery, TimeRange

    june = TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30), text="last month")
    may = TimeRange(start=date(2026, 5, 1), end=date(2026, 5, 31))
    query = SemanticQuery(
        metrics=("refund_rate",),
        time_range=june,
        comparison=Comparison(kind="previous_period", range=may),
        intent="why",
        as_of=AS_OF,
    )
    flag = QualityFlag(
        table="fact_order", date=date(2026, 6, 12), issue="incomplete", message="half loaded", affects_period=True
    )
    inputs = report._Inputs(
        catalog=demo_session.catalog,
        query=query,
        sql=None,
        quality=QualityOutput(task_id="q", flags=(flag,)),
        stats=None,
        trend=None,
        insight=None,
    )
    values = {"comparable.change_pct": comparable, "comparable.current": "0.0470", "comparable.previous": "0.0469"}
    values |= {"headline.change_pct": loaded, "headline.current": "0.0468", "headline.previous": "0.0469"}
    numbers = {k: KeyNumber(key=k, label=k, value=Decimal(v), unit="%", evidence_id="e") for k, v in values.items()}
    said = report._answer(inputs, numbers, "refund rate", "last month", "down", "en")
    assert "on comparable days (incomplete 2026-06-12 left out)" in said
    assert ("as loaded" in said) is both


@pytest.mark.parametrize(
    ("members", "exclude", "pairs", "predicate"),
    [
        (("app",), False, {("channel", "app")}, None),
        (("live_stream",), True, set(), "NOT channel IN ('live_stream')"),
        (("web", "app"), False, set(), "channel IN ('app', 'web')"),
    ],
)
def test_a_headline_facts_scope_keeps_an_exclusion_and_several_members(
    demo_session: Session, members: tuple[str, ...], exclude: bool, pairs: set[tuple[str, str]], predicate: str | None
) -> None:
    """ "excluding live stream" is never a fact scoped *to* live stream, and "app and web" never an
    unfiltered one: the ledger would hand either to a later question as its number."""
    from baton.agents.sql_agent import _fact_scope
    from baton.contracts.semantic import MemberFilter, SemanticQuery, TimeRange

    june = TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30))
    said = MemberFilter(dimension="channel", members=members, exclude=exclude)
    query = SemanticQuery(metrics=("gmv",), time_range=june, filters=(said,), as_of=AS_OF)
    scope = _fact_scope(demo_session.catalog, query, "gmv")
    assert {(m.dimension, m.member) for m in scope.members} == pairs
    assert (predicate in scope.filters) if predicate else len(scope.filters) == 1, scope.filters
