"""Filters in MetricFlow's syntax: what is read, what is refused, and how names become SQL."""

from __future__ import annotations

import pytest
import sqlglot
from sqlglot import exp

from baton.catalog.where import check_where, untemplate, where_condition

KNOWN = {"listing__country", "booking__is_instant", "metric_time", "metric_time__month", "listing"}


@pytest.mark.parametrize(
    ("text", "checked"),
    [
        ("{{ Dimension('listing__country') }} = 'us'", "listing__country = 'us'"),
        ("{{ Dimension('booking__is_instant') }}", "booking__is_instant"),
        ("{{ TimeDimension('metric_time', 'day') }} >= '2020-01-03'", "metric_time >= '2020-01-03'"),
        ("{{ TimeDimension('metric_time', 'month') }} = '2020-01-01'", "metric_time__month = '2020-01-01'"),
        ("{{ Dimension('metric_time').grain('month') }} = '2020-01-01'", "metric_time__month = '2020-01-01'"),
        ("{{ Entity('listing') }} IS NOT NULL", "NOT listing IS NULL"),
        (
            "listing__country IN ('us', 'ca') AND NOT booking__is_instant",
            "listing__country IN ('us', 'ca') AND NOT booking__is_instant",
        ),
        ("metric_time BETWEEN '2020-01-01' AND '2020-02-01'", "metric_time BETWEEN '2020-01-01' AND '2020-02-01'"),
    ],
)
def test_accepted_filters(text: str, checked: str) -> None:
    assert check_where(text, KNOWN) == checked


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("lower(listing__country) = 'us'", "not allowed"),
        ("listing__country = (SELECT 'us')", "not allowed"),
        ("guest_id = 'x'", "not a dimension"),
        ("fct_bookings.is_instant", "not a dimension"),
        ("{{ Metric('bookings', ['listing']) }} > 2", "another metric"),
        ("{% for x in y %}1{% endfor %}", "templated"),
        ("{{ TimeDimension('metric_time', 'fortnight') }} > '2020-01-01'", "granularity"),
        ("listing__country = 'us'; DROP TABLE x", "."),
    ],
)
def test_refused_filters(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        check_where(text, KNOWN)


def test_untemplate_renames_each_reference() -> None:
    out = untemplate("{{ Dimension('a__b') }} = 1 AND {{ Entity('c') }} > 2", lambda name: f"<{name}>")
    assert out == "<a__b> = 1 AND <c> > 2"


def test_where_condition_replaces_names_with_the_tables_sql() -> None:
    columns = {
        "listing__country": exp.column("country", table="listing"),
        "booking__is_instant": exp.column("is_instant"),
    }
    cond = where_condition(["listing__country = 'us'", "booking__is_instant"], lambda name: columns[name].copy())
    assert cond.sql(dialect="duckdb") == "(listing.country = 'us') AND (is_instant)"


def test_a_dimension_that_is_an_expression_keeps_its_precedence() -> None:
    exprs = {"d": "a + b", "e": "a = 1 OR b = 2"}
    cond = where_condition(["d * 2 > 5", "NOT e"], lambda name: sqlglot.parse_one(exprs[name]))
    assert cond.sql(dialect="duckdb") == "((a + b) * 2 > 5) AND (NOT (a = 1 OR b = 2))"
