"""The function allow-list: only known-safe scalar, aggregate, window, date, string and math
functions may appear in a query.

An allow-list, not a deny-list: every function sqlglot does not know (``exp.Anonymous``)
and every table function is refused unless named here, so a new file reader, network call
or SQL-in-a-string function in a future engine release is refused by default.
"""

from __future__ import annotations

from sqlglot import exp

_ALLOWED_CLASS_NAMES = (
    # aggregates
    "Count",
    "Sum",
    "Avg",
    "Min",
    "Max",
    "Stddev",
    "StddevSamp",
    "StddevPop",
    "Variance",
    "VariancePop",
    "Corr",
    "CovarSamp",
    "CovarPop",
    "Median",
    "PercentileCont",
    "PercentileDisc",
    "ApproxDistinct",
    "CountIf",
    "LogicalAnd",
    "LogicalOr",
    "AnyValue",
    "Skewness",
    "Kurtosis",
    "RegrSlope",
    "RegrIntercept",
    # window
    "RowNumber",
    "Rank",
    "DenseRank",
    "Lag",
    "Lead",
    "FirstValue",
    "LastValue",
    "Ntile",
    "PercentRank",
    "CumeDist",
    "NthValue",
    # boolean connectives (sqlglot models these as functions)
    "And",
    "Or",
    "Xor",
    # conditional and conversion
    "Case",
    "If",
    "Coalesce",
    "Nullif",
    "Greatest",
    "Least",
    "Cast",
    "TryCast",
    "Exists",
    # date and time
    "TimestampTrunc",
    "DateTrunc",
    "Extract",
    "Year",
    "Month",
    "Day",
    "Quarter",
    "Week",
    "WeekOfYear",
    "DayOfWeek",
    "DayOfWeekIso",
    "DayOfYear",
    "Dayname",
    "Monthname",
    "TimeToStr",
    "ToChar",
    "StrToDate",
    "StrToTime",
    "CurrentDate",
    "CurrentTimestamp",
    "DateAdd",
    "DateSub",
    "DateDiff",
    "DateFromParts",
    "TimestampFromParts",
    "LastDay",
    "Date",
    "TsOrDsToDate",
    # string
    "Lower",
    "Upper",
    "Length",
    "Concat",
    "ConcatWs",
    "Substring",
    "Left",
    "Right",
    "Trim",
    "Replace",
    "StrPosition",
    "SplitPart",
    "StartsWith",
    "Initcap",
    # math
    "Abs",
    "Round",
    "Floor",
    "Ceil",
    "Sqrt",
    "Ln",
    "Log",
    "Exp",
    "Pow",
    "Sign",
    "Trunc",
)

ALLOWED_FUNCTIONS: frozenset[type[exp.Expr]] = frozenset(
    cls
    for cls in (getattr(exp, name, None) for name in _ALLOWED_CLASS_NAMES)
    if isinstance(cls, type) and issubclass(cls, exp.Expr)
)

# Functions sqlglot parses as exp.Anonymous in some dialect but that are plain scalars.
ALLOWED_ANONYMOUS: frozenset[str] = frozenset({"date_part", "now", "btrim", "make_date"})

# CAST targets: plain scalar types only (no regclass/regproc/oid catalog probes, no JSON/XML).
ALLOWED_CAST_TYPES: frozenset[object] = frozenset(
    {
        exp.DataType.Type.TINYINT,
        exp.DataType.Type.SMALLINT,
        exp.DataType.Type.INT,
        exp.DataType.Type.BIGINT,
        exp.DataType.Type.DECIMAL,
        exp.DataType.Type.DOUBLE,
        exp.DataType.Type.FLOAT,
        exp.DataType.Type.VARCHAR,
        exp.DataType.Type.TEXT,
        exp.DataType.Type.CHAR,
        exp.DataType.Type.NCHAR,
        exp.DataType.Type.NVARCHAR,
        exp.DataType.Type.DATE,
        exp.DataType.Type.TIMESTAMP,
        exp.DataType.Type.TIMESTAMPTZ,
        exp.DataType.Type.BOOLEAN,
        exp.DataType.Type.INTERVAL,
    }
)


def function_label(node: exp.Expr) -> str:
    """A readable name for a function node, for messages."""
    if isinstance(node, exp.Anonymous):
        return str(node.name).lower()
    if isinstance(node, exp.Func):
        return node.sql_name().lower()
    return type(node).__name__


def disallowed_function(node: exp.Expr) -> str | None:
    """The label of ``node`` if it is a function that is not allowed, else None."""
    if isinstance(node, exp.Anonymous):
        name = str(node.name).lower()
        return None if name in ALLOWED_ANONYMOUS else name
    if isinstance(node, exp.Cast | exp.TryCast):
        target = node.args.get("to")
        if not isinstance(target, exp.DataType) or target.this not in ALLOWED_CAST_TYPES:
            return f"cast to {target.sql() if isinstance(target, exp.Expr) else '?'}"
        return None
    if isinstance(node, exp.Func) and type(node) not in ALLOWED_FUNCTIONS:
        return function_label(node)
    return None
