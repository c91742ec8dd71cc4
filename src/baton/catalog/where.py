"""Filters written in MetricFlow's syntax, checked and compiled.

``{{ Dimension('listing__country_latest') }} = 'us'`` reaches Baton in two places: as the
``--where`` of a semantic-layer query, and in the ``filter`` of a dbt metric. Either way the
Jinja references are read by a small pattern (the only templating MetricFlow filters use;
Jinja itself would execute arbitrary template code), and the SQL around them is parsed and
held to a short list of node types — comparisons, boolean logic, IN, BETWEEN, IS, LIKE,
literals, casts and arithmetic. Function calls, subqueries and any name that is not a
dimension are refused, so a filter can only ever narrow rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable

from sqlglot import exp

from baton.catalog import sqlexpr

METRIC_TIME = "metric_time"
GRAINS = ("day", "week", "month", "quarter", "year")
_CALL = re.compile(
    r"\{\{\s*(?P<kind>Dimension|TimeDimension|Entity|Metric)\s*\((?P<args>[^)]*)\)\s*(?P<tail>(?:\.\w+\([^)]*\)\s*)*)\}\}"
)
_ARG = re.compile(r"""\s*(?:'([^']*)'|"([^"]*)"|(\w+)\s*=\s*(?:'([^']*)'|"([^"]*)"))\s*""")
_ALLOWED: tuple[type[exp.Expr], ...] = (
    exp.Column, exp.Identifier, exp.Literal, exp.Boolean, exp.Null, exp.Paren, exp.Tuple,
    exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.And, exp.Or, exp.Not,
    exp.In, exp.Between, exp.Is, exp.Like, exp.ILike, exp.Cast, exp.DataType, exp.DataTypeParam,
    exp.Neg, exp.Add, exp.Sub, exp.Mul, exp.Div,
)  # fmt: skip


def _args(raw: str) -> tuple[list[str], dict[str, str]]:
    positional: list[str] = []
    named: dict[str, str] = {}
    for part in [p for p in raw.split(",") if p.strip()]:
        match = _ARG.fullmatch(part)
        if match is None:
            raise ValueError(f"cannot read the argument {part.strip()!r}")
        if match.group(3):
            named[match.group(3)] = match.group(4) or match.group(5) or ""
        else:
            positional.append(match.group(1) if match.group(1) is not None else match.group(2))
    return positional, named


def reference_name(kind: str, raw_args: str, tail: str = "") -> str:
    """A Jinja reference as the name Baton knows it by: ``Dimension('a__b')`` → ``a__b``,
    ``TimeDimension('metric_time', 'month')`` → ``metric_time__month`` (day: ``metric_time``)."""
    if kind == "Metric":
        raise ValueError(f"{{{{ Metric({raw_args.strip()}) }}}} (a filter on another metric's value)")
    positional, named = _args(raw_args)
    if not positional:
        raise ValueError(f"{kind}({raw_args}) is not supported in a filter")
    name = positional[0]
    grain = (
        named.get("time_granularity_name")
        or named.get("time_granularity")
        or (positional[1] if len(positional) > 1 else None)
    )
    grain_call = re.search(r"\.grain\(\s*['\"](\w+)['\"]\s*\)", tail)
    if grain_call:
        grain = grain_call.group(1)
    elif tail.strip():
        raise ValueError(f"{kind}('{name}'){tail.strip()} is not supported in a filter")
    if kind == "TimeDimension" or grain is not None:
        if grain is not None and grain.lower() not in GRAINS:
            raise ValueError(f"time granularity {grain!r} is not one of {', '.join(GRAINS)}")
        grain = (grain or "day").lower()
        return name if grain == "day" else f"{name}__{grain}"
    return name


def untemplate(text: str, rename: Callable[[str], str] = lambda name: name) -> str:
    """``text`` with each ``{{ Dimension(…) }}``-style reference replaced by ``rename(name)``."""

    def swap(match: re.Match[str]) -> str:
        return rename(reference_name(match.group("kind"), match.group("args"), match.group("tail") or ""))

    out = _CALL.sub(swap, text)
    if "{{" in out or "{%" in out:
        raise ValueError("only {{ Dimension(...) }}, {{ TimeDimension(...) }} and {{ Entity(...) }} may be templated")
    return out


def check_where(text: str, known: Collection[str]) -> str:
    """A filter as checked SQL over ``known`` names (raises ValueError naming what is wrong)."""
    sql = untemplate(text)
    node = sqlexpr.parse(sql)
    for item in node.walk():
        if not isinstance(item, _ALLOWED):
            raise ValueError(f"{item.sql(dialect='duckdb')!r} is not allowed in a filter")
    for column in sqlexpr.columns(node):
        if column.table or column.name not in known:
            raise ValueError(f"{column.sql(dialect='duckdb')!r} is not a dimension of this query")
    return node.sql(dialect="duckdb")


def where_condition(texts: Iterable[str], resolve: Callable[[str], exp.Expr]) -> exp.Expr:
    """Checked filters AND-ed, each name replaced by its SQL for one table."""
    parts: list[exp.Expr] = []
    for text in texts:
        node = sqlexpr.parse(text)
        if isinstance(node, exp.Column):  # a bare boolean dimension is the whole condition
            node = resolve(node.name)
        else:
            for column in sqlexpr.columns(node):
                value = resolve(column.name)
                # "d * 2" with d = a + b is (a + b) * 2; a plain column stays bare for the firewall
                column.replace(value if isinstance(value, exp.Column) else exp.paren(value))
        parts.append(exp.paren(node))
    return exp.and_(*parts) if len(parts) > 1 else parts[0]
