"""What the question asks, independent of SQL: the planner's output, the compiler's input."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from baton.contracts.common import Language

__all__ = [
    "GRAINS",
    "Comparison",
    "Correction",
    "Grain",
    "Language",
    "MemberFilter",
    "QueryRequest",
    "SemanticQuery",
    "Threshold",
    "TimeRange",
    "periods_before",
]

Grain = Literal["day", "week", "month", "quarter", "year"]
GRAINS: tuple[Grain, ...] = get_args(Grain)


_MONTHS: dict[Grain, int] = {"month": 1, "quarter": 3, "year": 12}


def _starts(day: date, grain: Grain) -> bool:
    """Whether ``day`` opens a period of ``grain`` (weeks Monday to Sunday, quarters from Jan, Apr …)."""
    if grain == "day":
        return True
    if grain == "week":
        return day.weekday() == 0
    return day.day == 1 and (day.month - 1) % _MONTHS[grain] == 0


def _months_back(day: date, months: int) -> date:
    """The first of the month ``months`` before ``day``'s (``day`` is a first of a month)."""
    index = day.year * 12 + day.month - 1 - months
    return date(index // 12, index % 12 + 1, 1)


def periods_before(start: date, end: date, grain: Grain) -> tuple[date, date] | None:
    """The days a series by ``grain`` over ``start..end`` is compared with when each of its periods
    is compared with the one before it ("今年每个月GMV环比": each month against the month before):
    the whole range one period earlier — ``None`` when the range is not made of whole periods, whose
    one-before would be no period of the grain."""
    if not (_starts(start, grain) and _starts(end + timedelta(days=1), grain)):
        return None
    if grain in ("day", "week"):
        step = timedelta(days=1 if grain == "day" else 7)
        return start - step, end - step
    months = _MONTHS[grain]
    return _months_back(start, months), _months_back(end + timedelta(days=1), months) - timedelta(days=1)


class MemberFilter(BaseModel):
    """Rows whose ``dimension`` is one of ``members`` — or, with ``exclude``, is none of them."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    dimension: str
    members: tuple[str, ...] = Field(min_length=1)
    exclude: bool = False


OPEN_START = date(1900, 1, 1)
"""Where a range without a start time begins ("all dates up to …"): before any warehouse's first
row, so all dates are computed and the statement still carries the time filter the firewall
requires; shown by its words, never as a date."""


class TimeRange(BaseModel):
    """An inclusive date range, with the words it came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    start: date
    end: date
    text: str | None = None
    period_kind: Literal["day", "week", "month", "quarter", "half", "year", "weekend", "custom"] | None = None
    """What kind of period the words said ("6月截至20号": a month, so far; "近30天": days), so that
    its previous period is the one they meant in a later turn too; None when only dates are known."""

    @field_validator("text")
    @classmethod
    def _said(cls, text: str | None) -> str | None:
        """The words as said, without the blanks of words read before them ("   二季度")."""
        return text.strip() or None if text is not None else None

    @model_validator(mode="after")
    def _ordered(self) -> TimeRange:
        if self.start > self.end:
            raise ValueError("time range start is after its end")
        return self

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def dates(self) -> tuple[date, ...]:
        """Every day of the range, in order."""
        return tuple(self.start + timedelta(days=i) for i in range(self.days))


class Comparison(BaseModel):
    """The period the question's period is compared with: the one before it, the same period a
    year earlier, one the question names ("Q2 compared with Q1"), or — for a single day — its
    usual level: the same weekday of earlier weeks (``days``, calendar events skipped; without
    them every 7th day back from the end of ``range``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["previous_period", "same_period_last_year", "custom", "same_weekday"]
    range: TimeRange
    days: tuple[date, ...] = Field(
        default=(), description="same_weekday: the days compared with (event days skipped); empty otherwise"
    )

    def contains(self, day: date) -> bool:
        """Whether ``day`` is one of the comparison's days."""
        if self.days:
            return day in self.days
        if not self.range.start <= day <= self.range.end:
            return False
        return self.kind != "same_weekday" or (self.range.end - day).days % 7 == 0

    def dates(self) -> tuple[date, ...]:
        """Every day of the comparison, in order."""
        return tuple(d for d in self.range.dates() if self.contains(d))


class Correction(BaseModel):
    """A word of the question the planner read as something else, always stated to the reader."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    written: str
    read_as: str
    kind: Literal["typo", "shorthand", "traditional", "context", "ratio", "pointer", "partial"] = "typo"
    """``shorthand``: an abbreviation written out ("avg", "ex", "y/y"); ``context``: a clause that
    only sets the scene ("我在准备周会"), left out of the query; ``ratio``: two metrics said one over the other ("signups over visits"), read as the catalog's
    ratio metric defined so; ``pointer``: words of a follow-up pointing at the rows the previous
    answer listed ("这两个区域"), read as those rows; ``partial``: a name said in part ("Delta"),
    read as the one member whose name it begins."""


class Threshold(BaseModel):
    """Only the groups whose value of one metric passes a bound ("退款率超过5%的品类", "channels
    with more than 10,000 orders"): the groups are kept or dropped after they are aggregated.
    As a check it is a yes/no ("did GMV pass 150M?", "每个渠道都超过100万吗"): every row is
    kept and the answer says whether all pass."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    metric: str
    op: Literal[">", ">=", "<", "<="]
    value: float = Field(allow_inf_nan=False, description="in the metric's own unit: a rate as a fraction (5% is 0.05)")
    upper: float | None = Field(
        default=None,
        allow_inf_nan=False,
        description='the upper end of a range ("GMV between 1M and 5M": value >= 1,000,000 and <= 5,000,000), with '
        'op ">="; none: one bound',
    )
    of: Literal["value", "change", "change_pct", "share"] = Field(
        default="value",
        description="what is bounded: the metric's value; its change against the comparison period, in the "
        'metric\'s unit ("fell by more than 1M"); or its relative change, a fraction that is negative for a fall '
        '("grew more than 10%": change_pct > 0.10; "fell more than 10%": change_pct < -0.10); or, of a share '
        'query, each part\'s share of the whole, a fraction ("channels with over half of GMV": share > 0.5)',
    )
    check: Literal["keep", "all"] = Field(
        default="keep",
        description='"keep": only the groups that pass are kept; "all": a yes/no — every row is kept and the answer '
        "says whether all pass (one total: whether it passes)",
    )

    @model_validator(mode="after")
    def _a_range_runs_upward(self) -> Threshold:
        if self.upper is not None and (self.op != ">=" or self.upper <= self.value):
            raise ValueError('a range bound is op ">=" its lower end, and its upper end is above it')
        return self

    @property
    def op_name(self) -> str:
        """The operator as a word for message keys ("gt", "ge", "lt", "le", "between")."""
        if self.upper is not None:
            return "between"
        return {">": "gt", ">=": "ge", "<": "lt", "<=": "le"}[self.op]


class SemanticQuery(BaseModel):
    """A question in catalog terms. The compiler turns exactly this into SQL."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    metrics: tuple[str, ...] = Field(min_length=1)
    dimensions: tuple[str, ...] = ()
    filters: tuple[MemberFilter, ...] = ()
    time_range: TimeRange
    grain: Grain | None = None
    comparison: Comparison | None = None
    top_n: int | None = Field(default=None, ge=1, le=1000)
    rank_place: int | None = Field(
        default=None,
        ge=2,
        le=1000,
        description="only the row at this place of the ranking by the first metric (2: the second highest, or "
        "second lowest with order asc; ties broken by the breakdown's keys); never with top_n",
    )
    order: Literal["desc", "asc"] = "desc"
    listed: Literal["desc", "asc"] | None = Field(
        default=None,
        description="the order a ranking's rows are listed in when the question says one apart from which end it "
        'takes ("the top 3 regions, lowest first": the highest three, listed lowest first); none: in the order of '
        "the ranking",
    )
    rank_within: tuple[str, ...] = Field(
        default=(),
        description='dimensions of the breakdown inside each of whose groups a top N is taken ("the top 2 categories '
        'in each channel": channel; "each channel\'s best month", with a grain: every dimension, the periods '
        "ranked); empty: the ranking is over all rows",
    )
    rank_each_period: bool = Field(
        default=False,
        description='a top N of the breakdown taken inside each period of the series ("the top channel by GMV each '
        'month", "the top 2 categories each week"); false: a series is ranked over all its rows',
    )
    rank_by: Literal["value", "change", "change_pct"] = Field(
        default="value",
        description="what a ranking with a comparison orders by: the first metric's value, its change (\"fell the "
        'most", "grew the most") or its change in percent ("biggest % drop", "fastest growth")',
    )
    contribution: bool = Field(
        default=False,
        description="a ranking by a change asked as the groups' contribution to the whole's move (\"which channel "
        'contributed most to the decline"): the rows also carry the change of every group together '
        "(``<metric>_change_whole``) and each group's part of it (``<metric>_change_share``)",
    )
    intent: Literal["value", "breakdown", "share", "trend", "ranking", "comparison", "why"] = "value"
    share: bool = Field(default=False, description="add each metric's share of the whole (``<metric>_share``)")
    average_per: Grain | None = Field(
        default=None,
        description="each metric as its average per day (week, month …) of the period (``<metric>_per_<grain>``): "
        "its values per day (week …) summed and divided by how many the period holds — whole ones only, so one "
        "without rows counts as zero",
    )
    share_filters: tuple[MemberFilter, ...] = Field(
        default=(), description="filters of the part whose share is asked: they apply to the share's numerator only"
    )
    share_within: tuple[str, ...] = Field(
        default=(),
        description="dimensions of the breakdown each of whose groups is its own whole (\"APP's share of each "
        "region's orders\"); empty: the whole is the total over the breakdown",
    )
    difference: bool = Field(
        default=False,
        description='the gap between the two members of the breakdown is asked ("how much higher was app than '
        'web"); said beside their values',
    )
    ratio: bool = Field(
        default=False,
        description='with difference: the ratio of the first member to the second is asked ("how many times '
        'South China\'s GMV was East China\'s", "ratio of app to web") and said instead of the gap',
    )
    threshold: Threshold | None = Field(
        default=None, description="only the groups (or periods) whose value passes it; never with a ranking"
    )
    premise: Literal["up", "down"] | None = Field(
        default=None,
        description="the direction the question takes for granted, a why's (\"why did GMV fall\") or a comparison's "
        '("did web orders go down", "how much higher"): checked, never assumed; said when the data moved otherwise',
    )
    premise_asked: Literal["every", "any", "which"] | None = Field(
        default=None,
        description='the premise is asked, not taken for granted ("was June GMV higher than May?"): answered yes '
        'or no, of the one total, of every group ("did every channel fall?") or of any ("did any channel grow?"); '
        '"which": the groups that moved that way are named ("which channels fell?")',
    )
    asked_member: str | None = Field(
        default=None,
        description='a member of the one ranked dimension whose place is asked as a yes/no ("was East China the top '
        'region?"): every member ranked, and whether this one is first said',
    )
    place_asked: bool = Field(
        default=False,
        description='with asked_member: its place is asked ("where does South China rank?"), not whether it is '
        "first; every member ranked and its place said",
    )
    corrections: tuple[Correction, ...] = ()
    where: tuple[str, ...] = Field(
        default=(),
        description="conditions over dimension names and metric_time (checked SQL, AND-ed); "
        "the semantic-layer query's --where",
    )
    order_by: tuple[str, ...] = Field(
        default=(), description="output columns to order by, '-' first for descending (overrides the default order)"
    )
    limit: int | None = Field(default=None, ge=1, le=1_000_000, description="at most this many rows")
    as_of: date

    @property
    def stated_numbers(self) -> list[float]:
        """The numbers the question itself states, which an answer may repeat: a top N, a place
        ("排名第2"), a bound ("超过5%": 0.05)."""
        bound = self.threshold
        said = [self.top_n, self.rank_place, *((bound.value, bound.upper) if bound is not None else ())]
        return [n for n in said if n is not None]

    @property
    def gap_of_the_ends(self) -> bool:
        """The gap (or ratio) asked is the highest against the lowest of a whole ranking ("GMV最高和
        最低的区域差多少") or of its top two ("最高的两个渠道差多少"), not of two named members."""
        return self.difference and self.intent == "ranking" and self.top_n in (None, 2) and self.rank_place is None

    @property
    def ranked(self) -> bool:
        """Groups (or periods) ranked: a top N, a place, a ranking of every group, a top within
        groups — what a follow-up taking the groups away must take away with them."""
        return (
            self.top_n is not None or self.rank_place is not None or self.intent == "ranking" or bool(self.rank_within)
        )

    @property
    def each_period_before(self) -> bool:
        """A series whose every period is compared with the one before it ("今年每个月GMV环比":
        January with December, February with January), over ``comparison.range``: the whole
        range one period earlier (:func:`periods_before`). An average per day compiles its days as
        a series of its own (``grain`` set beside ``average_per``): no series, each total once."""
        series = self.grain is not None and self.average_per is None
        return series and self.comparison is not None and self.comparison.kind == "previous_period"

    @model_validator(mode="before")
    @classmethod
    def _per_day_of_old_runs(cls, data: object) -> object:
        """Runs stored before averages per week and month said ``per_day: true``."""
        if isinstance(data, dict) and "per_day" in data:
            data = dict(data)
            if data.pop("per_day") and data.get("average_per") is None:
                data["average_per"] = "day"
        return data

    @model_validator(mode="after")
    def _one_shape(self) -> SemanticQuery:
        if self.place_asked and self.asked_member is None:
            raise ValueError("place_asked is the place of asked_member: name the member")
        if self.average_per is not None and (self.grain is not None or self.share):
            raise ValueError("an average per day (week …) is one value per period: no grain, no share")
        if self.share_within and not (self.share and set(self.share_within) <= set(self.dimensions)):
            raise ValueError("a share within groups is a share, and its groups are the breakdown's")
        if self.rank_place is not None and self.top_n is not None:
            raise ValueError("a place in a ranking is one row: no top N beside it")
        if self.threshold is not None:
            self._one_threshold(self.threshold)
        if self.rank_within and not self._ranks_within():
            raise ValueError("a top N within groups takes the top of one other dimension inside each group")
        if self.rank_each_period and not self._ranks_each_period():
            raise ValueError("a top N in each period ranks a breakdown of a plain series, inside each period")
        if self.each_period_before:
            assert self.grain is not None and self.comparison is not None
            before = periods_before(self.time_range.start, self.time_range.end, self.grain)
            if before != (self.comparison.range.start, self.comparison.range.end):
                raise ValueError(
                    "a series compared with the previous period compares each whole period with the one before it"
                )
        if self.contribution and not (self.rank_by == "change" and self.dimensions and self.grain is None):
            raise ValueError("a contribution to the whole's change ranks the groups of a breakdown by their change")
        if self.rank_by != "value" and not (self.comparison is not None and (self.dimensions or self.grain)):
            raise ValueError(
                "a ranking by a change ranks the groups of a breakdown (or the periods of a series) compared with "
                "another period"
            )
        return self

    def _ranks_within(self) -> bool:
        """A top N within groups: of another dimension inside the breakdown, or of the periods of a
        series inside each group ("each channel's best month"); of a value, with no share, bound or gap."""
        periods = self.grain is not None and set(self.rank_within) == set(self.dimensions)
        inside = set(self.rank_within) < set(self.dimensions) and self.grain is None
        unique = len(set(self.rank_within)) == len(self.rank_within)
        plain = not self.share and self.threshold is None and not self.difference
        return (inside or periods) and unique and plain and self.top_n is not None and self.comparison is None

    def _ranks_each_period(self) -> bool:
        """A top N in each period: of a breakdown's groups, in a series of a value, with no share,
        bound, gap, comparison or other groups to rank within."""
        plain = not self.share and self.threshold is None and not self.difference and self.average_per is None
        series = self.grain is not None and bool(self.dimensions) and not self.rank_within
        return plain and series and self.top_n is not None and self.comparison is None

    def _one_threshold(self, threshold: Threshold) -> None:
        """A threshold keeps groups of one plain breakdown (or series) by one of its metrics; over
        no groups it is a check of the one total ("上个月GMV超过1.5亿吗"), which keeps its row."""
        if threshold.metric not in self.metrics:
            raise ValueError("a threshold is on one of the query's metrics")
        if not self.dimensions and self.grain is None and threshold.check != "all":
            raise ValueError("a bound on one total is a yes/no of it (check 'all'): no groups to keep")
        ranked = self.ranked
        if threshold.of == "share":  # "GMV占比超过一半的渠道", "华东的GMV占比超过30%了吗"
            if not self.share or ranked or self.comparison is not None or self.difference:
                raise ValueError("a bound on a share is of a share query, with no ranking, comparison or gap")
            return
        if threshold.of != "value":  # "订单量环比增长超过5%的品类": the groups whose change passes
            if self.comparison is None or (threshold.check == "keep" and not (self.dimensions or self.grain)):
                raise ValueError(
                    "a bound on a change keeps (or checks) the groups of a breakdown compared with another period"
                )
            if ranked or self.share or self.difference or self.rank_by != "value":
                raise ValueError("a bound on a change is not built beside a ranking, a share or a gap")
            return
        # "top 3 by refund rate among those with at least 5000 orders": a floor on another metric
        floor = ranked and threshold.check == "keep" and threshold.metric != self.metrics[0] and self.rank_by == "value"
        if (ranked and not floor) or self.share or self.comparison is not None or self.difference:
            raise ValueError(
                "a threshold is not built beside a ranking (but of another metric), a share, a comparison or a gap"
            )


class QueryRequest(BaseModel):
    """A semantic-layer query as a caller writes it (MetricFlow's ``mf query`` flags): catalog
    names only, no natural language. The query pipeline's plan step checks every name against
    the catalog and turns it into a SemanticQuery."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    metrics: tuple[str, ...] = Field(min_length=1)
    group_by: tuple[str, ...] = Field(
        default=(), description="dimension names, or metric_time / metric_time__<grain> (at most one time)"
    )
    where: tuple[str, ...] = Field(default=(), description="filters in MetricFlow syntax or plain SQL, AND-ed")
    start_time: date | None = Field(default=None, description="first date included (open when absent)")
    end_time: date | None = Field(default=None, description="last date included (the as-of date when absent)")
    order: tuple[str, ...] = Field(default=(), description="output columns, '-' first for descending")
    limit: int | None = Field(default=None, ge=1, le=1_000_000)
