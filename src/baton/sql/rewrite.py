"""AST rewrites that make the grants true at execution time.

Each physical table read becomes ``(SELECT <readable columns, PII masked> FROM t WHERE
<row filter>) AS <same alias>``. Because the rewrite happens at the source, every use of a
column — SELECT, WHERE, JOIN, GROUP BY, a UNION branch, a CAST or a concatenation — sees the
filtered rows and the masked value, and a denied column simply does not exist.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import sqlglot
from sqlglot import exp

from baton.errors import FirewallError
from baton.messages import localized
from baton.policy import Principal
from baton.sql.access import physical_scans, scope_aggregates

LIMIT_ALIAS = "_baton_q"
SUPPRESSED_ALIAS = "_baton_s"

_MASK_TEMPLATES = {
    "full": "CASE WHEN {c} IS NULL THEN NULL ELSE '***' END",
    "phone": "CASE WHEN {c} IS NULL THEN NULL WHEN LENGTH({c}) < 8 THEN '***' "
    "ELSE LEFT({c}, 3) || '****' || RIGHT({c}, 4) END",
    "email": "CASE WHEN {c} IS NULL THEN NULL WHEN STRPOS({c}, '@') = 0 THEN '***' "
    "ELSE LEFT({c}, 1) || '***@' || SPLIT_PART({c}, '@', 2) END",
}


@dataclass
class RewriteReport:
    """What the rewrite did, for ApprovedSql."""

    masked_columns: list[str] = field(default_factory=list)
    row_filters_applied: list[str] = field(default_factory=list)


_MASKED = "_baton_masked"


def mask_expression(column: str, style: str) -> exp.Expr:
    """The SQL expression that replaces a masked PII column. The templates are standard SQL,
    read as such with a placeholder column that is then swapped for the quoted column node: in
    Spark a double-quoted name would be read as a string literal (masking the word, not the
    value), so no quoting is spelled out in text. The tree is dialect-neutral: the firewall
    writes it in the query's dialect."""
    template = _MASK_TEMPLATES.get(style, _MASK_TEMPLATES["full"])
    tree = sqlglot.parse_one(template.format(c=_MASKED), read="postgres")
    return tree.transform(
        lambda n: exp.column(column, quoted=True) if isinstance(n, exp.Column) and n.name == _MASKED else n
    )


def filter_expression(table: str, filters: Mapping[str, tuple[str, ...]]) -> exp.Expr | None:
    """``col IN ('v1', …) AND …`` for a table's row filter."""
    condition: exp.Expr | None = None
    for column, values in sorted(filters.items()):
        predicate = exp.column(column, table=table, quoted=True).isin(*[exp.Literal.string(v) for v in values])
        condition = predicate if condition is None else exp.and_(condition, predicate)
    return condition


def secure_sources(
    statement: exp.Expr,
    principal: Principal,
    schema: Mapping[str, Mapping[str, str]],
    dialect: str,
) -> RewriteReport:
    """Replace every physical table read in place by its filtered, masked projection."""
    report = RewriteReport()
    for scan in physical_scans(statement):
        columns = principal.readable_columns(scan.table, list(schema[scan.table]))
        if not columns:
            raise FirewallError("table_not_permitted", user=principal.user, table=scan.table)
        unrestricted = (
            len(columns) == len(schema[scan.table])
            and not principal.row_filters.get(scan.table)
            and not any(principal.pii.get((scan.table, c)) for c in columns)
        )
        if unrestricted:
            continue  # nothing to hide or filter: keep the statement as the reader wrote it
        projections: list[exp.Expr] = []
        for column in columns:
            rule = principal.pii.get((scan.table, column))
            if rule == "mask":
                style = principal.mask_styles.get((scan.table, column), "full")
                projections.append(exp.alias_(mask_expression(column, style), column, quoted=True))
                label = f"{scan.table}.{column}"
                if label not in report.masked_columns:
                    report.masked_columns.append(label)
            else:
                projections.append(exp.column(column, quoted=True))
        inner = exp.select(*projections).from_(exp.table_(scan.table, quoted=True))
        condition = filter_expression(scan.table, principal.row_filters.get(scan.table, {}))
        if condition is not None:
            inner = inner.where(condition)
            applied = condition.sql(dialect=dialect)
            if applied not in report.row_filters_applied:
                report.row_filters_applied.append(applied)
        scan.node.replace(
            exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier(scan.alias, quoted=True)))
        )
    return report


def _detail_refusal(principal: Principal, table: str, reason: str) -> FirewallError:
    """The refusal of detail rows from ``table``; ``reason`` is the message key saying why."""
    return FirewallError("detail_not_permitted", user=principal.user, table=table, **localized("reason", reason))


@dataclass(frozen=True)
class CountedLevel:
    """The statement's own level that got ``HAVING COUNT(*) >= k``: its node in the statement
    (rewritten in place by :func:`secure_sources`) and k."""

    select: exp.Select
    k: int


@dataclass
class GroupFloors:
    """What :func:`enforce_min_group_size` did: ``{table: k}`` and the level whose groups are counted."""

    tables: dict[str, int] = field(default_factory=dict)
    counted: CountedLevel | None = None


def enforce_min_group_size(statement: exp.Expr, principal: Principal) -> GroupFloors:
    """``HAVING COUNT(*) >= k`` on every query level that aggregates an aggregate-only table with
    ``min_group_size`` k > 1; a HAVING the user wrote is evaluated only on groups past it
    (:func:`_guarded`).

    This is k-anonymity-style suppression, not refusal: groups of fewer than k rows are
    silently left out. Run after :func:`baton.sql.access.check_aggregate_only`, so every such
    level already aggregates. ``COUNT(*)`` counts rows of the level, so the table must be its
    only FROM item — a join could repeat one row k times and pass the floor; such queries are
    refused and must aggregate the table in its own subquery first.

    When that level's groups are the result's rows — it is the statement's own (outermost) level,
    or the only source of levels that merely filter, order and name them (a bound over grouped
    rows: ``SELECT … FROM (<grouped>) WHERE value > x``) — the ones left out can be counted
    (:func:`suppression_query`: every hidden group, an upper bound of those the filter would have
    kept). A floor on another nested level (a CTE or subquery feeding others: a comparison's pivot,
    a join of two aggregates) is not counted: a suppressed inner group may show as a missing row, a
    NULL cell or nothing at all.
    """
    floors = GroupFloors()
    for scan in physical_scans(statement):
        rule = principal.aggregate_only.get(scan.table)
        if rule is None or rule.min_group_size <= 1:
            continue
        select = scan.scope.expression
        if not isinstance(select, exp.Select) or len(scan.scope.selected_sources) != 1:
            raise _detail_refusal(
                principal,
                scan.table,
                "sql.aggregate_before_join",
            )
        if not select.args.get("group") and not scope_aggregates(select, count_distinct=False):
            _distinct_to_group_by(select, principal, scan.table)
        floor = exp.GTE(this=exp.Count(this=exp.Star()), expression=exp.Literal.number(rule.min_group_size))
        having = select.args.get("having")
        own = None if having is None else exp.paren(having.this, copy=False)
        select.set("having", exp.Having(this=floor if own is None else _guarded(own, floor)))
        floors.tables[scan.table] = max(floors.tables.get(scan.table, 0), rule.min_group_size)
        if _rows_reach_the_result(statement, select) and not select.args.get("qualify"):
            floors.counted = CountedLevel(select, rule.min_group_size)
    return floors


_REGROUPING = ("joins", "laterals", "group", "having", "distinct", "qualify", "with_")


def _rows_reach_the_result(statement: exp.Expr, select: exp.Select) -> bool:
    """Whether ``select``'s groups are the result's rows, one for one: it is the statement, or the
    sole FROM of levels that only filter, order, limit and name columns (no join, grouping,
    aggregate or window), down from the statement."""
    node = statement
    while node is not select:
        if not isinstance(node, exp.Select) or any(node.args.get(key) for key in _REGROUPING):
            return False
        if any(p.find(exp.AggFunc, exp.Window) for p in node.expressions):
            return False
        from_ = node.args.get("from_")
        source = from_.this if isinstance(from_, exp.From) else None
        if not isinstance(source, exp.Subquery):
            return False
        node = source.this
    return True


def _guarded(own: exp.Expr, floor: exp.Expr) -> exp.Expr:
    """``CASE WHEN COUNT(*) >= k THEN (<user's HAVING>) ELSE FALSE END``: the user's condition is
    evaluated on groups that passed the floor only. With ``own AND floor`` an engine may evaluate
    ``own`` on a hidden group first, and an error it raises there (a failing CAST chosen by a
    condition on the group's SUM) would tell whether the hidden group meets the condition."""
    return exp.Case(ifs=[exp.If(this=floor, true=own.copy())], default=exp.false())


def suppression_query(floors: GroupFloors) -> exp.Select | None:
    """``SELECT COUNT(*) FROM (SELECT 1 FROM … GROUP BY … HAVING COUNT(*) < k)``: how many groups
    the floor left out of the result. Build it after :func:`secure_sources`, so it reads exactly the
    rows (filtered, masked) the statement reads. Nothing the user wrote is evaluated on a hidden
    group: the select list becomes ``1`` and the user's HAVING is left out (a count of hidden groups
    meeting a condition on their SUM would reveal the SUM), so the count is of every hidden group
    (an upper bound of what the user's HAVING would have shown). ORDER BY and LIMIT are dropped
    too: every suppressed group counts, not only those a top-N would have shown. GROUP BY holds
    expressions here (name resolution expanded aliases and positions), so the select list may go."""
    level = floors.counted
    if level is None:
        return None
    inner = level.select.copy()
    fewer = exp.LT(this=exp.Count(this=exp.Star()), expression=exp.Literal.number(level.k))
    inner.set("expressions", [exp.Literal.number(1)])
    inner.set("having", exp.Having(this=fewer))
    inner.set("distinct", None)
    for modifier in ("order", "limit", "offset", "fetch"):
        inner.set(modifier, None)
    ctes = inner.args.get("with_")
    inner.set("with_", None)
    count = exp.select(exp.alias_(exp.Count(this=exp.Star()), "suppressed_groups", quoted=True))
    outer = count.from_(inner.subquery(SUPPRESSED_ALIAS, copy=False), copy=False)
    if ctes is not None:
        outer.set("with_", ctes)
    return outer


def _distinct_to_group_by(select: exp.Select, principal: Principal, table: str) -> None:
    """``SELECT DISTINCT a, b`` (no aggregates) is grouping by ``a, b``: say so, so HAVING applies."""
    distinct = select.args.get("distinct")
    projections = [p.unalias() for p in select.expressions]
    if (
        not isinstance(distinct, exp.Distinct)
        or distinct.args.get("on")
        or any(p.find(exp.Window, exp.Subquery, exp.Query) for p in projections)
    ):
        raise _detail_refusal(
            principal,
            table,
            "sql.use_group_by",
        )
    select.set("group", exp.Group(expressions=[p.copy() for p in projections]))


def wrap_limit(statement: exp.Query, limit: int) -> exp.Select:
    """``SELECT * FROM (<query>) AS _baton_q LIMIT n``: the user's own LIMIT stays inside.

    Callers pass one more than the row cap they enforce, so that the runner can see that a
    result was truncated (a cap+1-th row exists) without ever fetching more than cap+1 rows.
    """
    return exp.select("*").from_(statement.subquery(LIMIT_ALIAS, copy=False), copy=False).limit(limit, copy=False)
