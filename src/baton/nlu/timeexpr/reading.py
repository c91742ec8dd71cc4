"""Scanning a question for time expressions: candidates, overlaps, ranges joined across words, shared years and the periods a question reads as."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, timedelta

from baton.contracts.semantic import OPEN_START
from baton.errors import AmbiguousQuestion, TimeExpressionError
from baton.messages import both
from baton.nlu.cn_numerals import parse_cn_int
from baton.nlu.timeexpr.arithmetic import _PERIOD_GRAINS, Grain, TimeMatch, _period_start, _PeriodGrain, shift_years
from baton.nlu.timeexpr.handlers import weekday_index
from baton.nlu.timeexpr.raw import _Ctx, _invalid, _no_data, _p, _Raw, _reanchor, _Rule
from baton.nlu.timeexpr.rules import (
    _AND_JOIN,
    _BETWEEN_BEFORE,
    _FROM_BEFORE,
    _NOW_BEFORE,
    _RANGE_JOIN,
    _RANGE_PREFIX,
    _RULES,
    _SINCE_BEFORE,
    _SPAN_RULES,
    _UNTIL_NOW,
)


def _normalise(text: str) -> str:
    """NFKC per character (full-width digits/spaces -> ASCII), keeping every offset unchanged."""
    chars = []
    for ch in text:
        folded = unicodedata.normalize("NFKC", ch)
        chars.append(folded if len(folded) == 1 else ch)
    normalised = "".join(chars)
    assert len(normalised) == len(text)
    return normalised


@dataclass(frozen=True)
class _Found:
    span: tuple[int, int]
    raw: _Raw
    year_first: bool = False
    """The expression's own year is said before it ("2025年5月", "2025 Q1"), not after ("Q1 2025")."""
    error: TimeExpressionError | AmbiguousQuestion | None = None


def _candidates(norm: str) -> list[tuple[int, int, int, _Rule, re.Match[str]]]:
    found = []
    for index, rule in enumerate(_RULES):
        for m in rule.pattern.finditer(norm):
            if rule.guard is not None and not rule.guard(m):
                continue
            start, end = m.span("t") if "t" in rule.pattern.groupindex else m.span()
            if end > start:
                found.append((start, end, index, rule, m))
    found.sort(key=lambda c: (c[0] - c[1], c[0], c[2]))  # longest first, then leftmost
    chosen: list[tuple[int, int, int, _Rule, re.Match[str]]] = []
    for cand in found:
        if all(cand[1] <= other[0] or cand[0] >= other[1] for other in chosen):
            chosen.append(cand)
    chosen.sort(key=lambda c: c[0])
    return chosen


def _to_now(raw: _Raw, ctx: _Ctx) -> _Raw:
    grain: Grain = "custom"
    if raw.grain in _PERIOD_GRAINS:
        pg: _PeriodGrain = raw.grain
        if _period_start(ctx.last, pg) == raw.start:
            grain = pg
    return _Raw(raw.start, max(ctx.as_of, raw.end), grain)


def _scan(text: str, as_of: date) -> tuple[str, list[_Found]]:
    norm = _normalise(text)
    ctx = _Ctx(as_of)
    result: list[_Found] = []
    cursor = 0
    for cand_start, cand_end, _, rule, m in _candidates(norm):
        start, end = cand_start, cand_end
        if start < cursor:
            continue  # swallowed by an earlier "…以来 / …至今" extension
        cursor = end
        if rule.handler is None:
            continue
        raw = rule.handler(m, ctx, text[start:end])
        suffix = _UNTIL_NOW.match(norm, end)
        taken = result[-1].span[1] if result else 0  # words of the expression before are never this one's
        since = _SINCE_BEFORE.search(norm, taken, start)
        if since is None and raw.end >= ctx.as_of - timedelta(days=1):  # "截至目前今年", "截至目前近30天": to date
            since = _NOW_BEFORE.search(norm, taken, start)
        if rule.name in _SPAN_RULES:
            prefix = _RANGE_PREFIX.search(norm, taken, start)
            if prefix:
                start = prefix.start()
        if suffix or since:
            raw = _to_now(raw, ctx)
            if suffix:
                end = suffix.end()
                prefix = _FROM_BEFORE.search(norm, taken, start)
                if prefix:
                    start = prefix.start()
            if since:
                start = since.start()
            cursor = end
        result.append(_Found((start, end), raw, _year_first(m, cand_start)))
    return norm, _weekday_ending_a_weekday(norm, result)


_YEAR_GROUPS = ("y", "ycn", "ys", "yrel", "y2", "yy", "yen", "y3")


def _year_first(m: re.Match[str], start: int) -> bool:
    said = [m.start(g) for g in _YEAR_GROUPS if g in m.re.groupindex and m.group(g)]
    return bool(said) and said[0] == start


def _finish(raw: _Raw, span: tuple[int, int], text: str, as_of: date) -> TimeMatch:
    last = as_of - timedelta(days=1)
    matched = text[span[0] : span[1]]
    if raw.start > last:
        raise _no_data(matched, raw.start, last)
    return TimeMatch(raw.start, min(raw.end, last), span, raw.label or matched, raw.grain, raw.end > last)


def find_time_expressions(text: str, as_of: date) -> list[TimeMatch]:
    """Every time expression in ``text``: non-overlapping, left to right, longest match wins."""
    _, found = _scan(text, as_of)
    return [_finish(f.raw, f.span, text, as_of) for f in found]


def _join(first: _Found, second: _Found, text: str, ctx: _Ctx) -> tuple[_Raw, _Raw, _Raw]:
    """start(X)..end(Y), and X and Y themselves; a year-less side takes the other side's year."""
    x, y = first.raw, second.raw
    x_text = text[first.span[0] : first.span[1]]
    y_text = text[second.span[0] : second.span[1]]
    xa, ya = x.anchor, y.anchor
    if xa and ya:
        if xa.year_explicit and not ya.year_explicit:
            y = _reanchor(y, xa.year, y_text, ctx)
            if y.end < x.start:
                y = _reanchor(y, xa.year + 1, y_text, ctx)
        elif not xa.year_explicit:
            x = _reanchor(x, ya.year, x_text, ctx)
            if x.start > y.end or (not ya.year_explicit and x.start > y.start):
                x = _reanchor(x, ya.year - 1, x_text, ctx)
    latest = _latest_up_to(_normalise(x_text), y, text[first.span[0] : second.span[1]], ctx)
    if latest is not None:  # "last 3 months through May": March to May, never April to May (no two ends)
        return latest, _Raw(latest.start, latest.end, "custom"), y
    if x.start > y.end:
        joined = text[first.span[0] : second.span[1]]
        raise _invalid(joined, "nlu.ends_before_start_time")
    grain: Grain = x.grain if x.grain == y.grain and x.grain in _PERIOD_GRAINS else "custom"
    return _Raw(x.start, y.end, grain), x, y  # "this year through May" ends with May


_LATEST_NAMES = ("last_n_cn", "last_n_en", "past_one_en", "past_year_en", "last_half_year")
_LATEST_RULES = tuple(rule for rule in _RULES if rule.name in _LATEST_NAMES and rule.handler is not None)
"""The rules of the latest N days, weeks or months, counted back from the day before an end."""


def _latest_up_to(said: str, end: _Raw, joined: str, ctx: _Ctx) -> _Raw | None:
    """ "last 3 months through May", "过去3个月截至5月": the latest N counted back from the end said,
    as they are from today; an end inside a week or month ("last 2 weeks through June 20") is
    asked back — whole weeks before it, or the 14 days up to it? An end under way ("through this
    month" on the 20th) counts back from its whole period, cut at today; one with no day of data
    yet is said so, never a period short."""
    for rule in _LATEST_RULES:
        m = rule.pattern.fullmatch(said)
        if m is not None and rule.handler is not None:
            if end.start > ctx.last:
                raise _no_data(joined, end.start, ctx.last)
            raw = rule.handler(m, _Ctx(end.end + timedelta(days=1)), said)
            if raw.end != end.end:
                raise _invalid(joined, "nlu.latest_inside_a_period")
            return _Raw(raw.start, raw.end, raw.grain)
    return None


@dataclass(frozen=True)
class PeriodReading:
    """One period a question names (a range ``X到Y`` joined into one), or why it cannot be one."""

    span: tuple[int, int]
    match: TimeMatch | None
    error: TimeExpressionError | AmbiguousQuestion | None = None
    ends: tuple[TimeMatch, TimeMatch] | None = None
    """A range's two ends when they are periods of one kind ("5月到6月": May and June)."""
    year_said: tuple[int, int] | None = None
    """Where the year this period takes is said apart from it ("Q1 and Q2 GMV this year")."""

    @property
    def spans(self) -> tuple[tuple[int, int], ...]:
        """The words this reading accounts for."""
        return (self.span,) if self.year_said is None else (self.span, self.year_said)


def _ends(
    x: _Raw, x_span: tuple[int, int], y: _Raw, y_span: tuple[int, int], text: str, as_of: date
) -> tuple[TimeMatch, TimeMatch] | None:
    if x.grain != y.grain or x.grain not in _PERIOD_GRAINS:
        return None
    try:
        return _finish(x, x_span, text, as_of), _finish(y, y_span, text, as_of)
    except TimeExpressionError:
        return None


def _is_range(norm: str, first: _Found, second: _Found) -> bool:
    """``first`` to ``second`` as one range; all time reaches an end only as :func:`_all_time_until`
    reads it ("ever until this year" may end before this year: asked)."""
    if first.raw.start == OPEN_START:
        return False
    between = norm[first.span[1] : second.span[0]]
    return bool(
        _RANGE_JOIN.fullmatch(between)
        or (_AND_JOIN.fullmatch(between) and _BETWEEN_BEFORE.search(norm, 0, first.span[0]))
    )


def read_periods(text: str, as_of: date, *, said: str | None = None) -> list[PeriodReading]:
    """Every period of ``text``, left to right, ranges joined; an invalid one (a future month, a
    31st of February) is returned with its error instead of raising, so a question that turns
    out not to be about the data is refused for that, not for its date. ``said``: the whole
    question, offset for offset, when ``text`` is what other readers left of it (a year said
    right after "beat" is set against, never the year of the others)."""
    norm, found = _scan(text, as_of)
    found = _all_time_as_history(norm, _normalise(said) if said else norm, found, as_of)
    found = _to_date_as_of(norm, found)
    found = _all_time_until(norm, found)
    found = _shared_years(norm, found, text, _Ctx(as_of))
    found, year_said = _year_apart(norm, found, text, _Ctx(as_of), said=_normalise(said) if said else norm)
    found = _week_beside_a_week_of_a_month(norm, found, text)
    out: list[PeriodReading] = []
    i = 0
    while i < len(found):
        first = found[i]
        step = 1
        try:
            if first.error is not None:
                raise first.error
            if i + 1 < len(found) and _is_range(norm, first, found[i + 1]):
                second = found[i + 1]
                raw, x, y = _join(first, second, text, _Ctx(as_of))
                prefix = _RANGE_PREFIX.search(norm, 0, first.span[0])
                span = (prefix.start() if prefix else first.span[0], second.span[1])
                step = 2
                ends = _ends(x, first.span, y, second.span, text, as_of)
            else:
                raw, span = first.raw, first.span
                if raw.loose_edge and not _UNTIL_BEFORE.search(norm, 0, span[0]):
                    # "5月底GMV": its last day, or its last days? asked, never guessed ("到3月底" is an end)
                    said = text[span[0] : span[1]]
                    raise AmbiguousQuestion(
                        *both("nlu.edge_of_month_alone", said=said, day=raw.start.isoformat()),
                        detail={"missing": "time_range", "words": said},
                    )
                parts = raw.parts
                ends = (
                    _ends(parts[0], (0, 0), parts[1], (0, 0), text, as_of) if parts and parts[0] != parts[1] else None
                )
            out.append(PeriodReading(span, _finish(raw, span, text, as_of), ends=ends, year_said=year_said))
        except (TimeExpressionError, AmbiguousQuestion) as exc:
            out.append(PeriodReading(first.span, None, exc, year_said=year_said))
        i += step
    return out


_UNTIL_BEFORE = _p(r"(?:到|至|截至|截止|<NB>(?:to|through|thru|by|until|till|up\s+to|as\s+of)<NA>)\s*(?:the\s+)?$")
_TO_DATE = _p(r"<NB>(?:[wmqy]td|(?:week|month|quarter|year)[- ]to[- ]date)<NA>")
_AS_OF_AFTER = _p(r"<NB>(?:as\s+of|through|thru|until|till|up\s+to)\s+(?:the\s+)?$")
_AS_OF_BEFORE = _p(r"<NB>(?:as\s+of|through|thru|until|till|up\s+to)\s+(?:the\s+)?$")


def _to_date_as_of(norm: str, found: list[_Found]) -> list[_Found]:
    """ "GMV MTD as of June 20", "as of June 20, YTD orders": a period to date, said as of a day, is
    that day's period up to it (June 1 to 20), not today's period cut at a day it may not hold."""
    return _pairs_joined(found, lambda i: _as_of_its_day(norm, found[i], found[i + 1]))


def _pairs_joined(found: list[_Found], join: Callable[[int], _Found | None]) -> list[_Found]:
    """``found`` with each neighbour pair ``join(i)`` makes one (of ``i`` and ``i + 1``) as that one."""
    out: list[_Found] = []
    i = 0
    while i < len(found):
        joined = join(i) if i + 1 < len(found) else None
        out.append(joined or found[i])
        i += 2 if joined else 1
    return out


def _as_of_its_day(norm: str, first: _Found, second: _Found) -> _Found | None:
    """``first`` and ``second`` as one period to date as of a day, in either order, or None."""
    if first.error is not None or second.error is not None:
        return None
    between = norm[first.span[1] : second.span[0]]
    until = _AS_OF_AFTER.search(between)
    if (
        _TO_DATE.fullmatch(norm, *first.span)
        and _one_day(second)
        and until
        and _nothing_between(between[: until.start()])
    ):
        raw = _day_to_date(first, second)
        return _Found((first.span[0], second.span[1]), raw) if raw is not None else None
    before = _AS_OF_BEFORE.search(norm, 0, first.span[0])
    if _TO_DATE.fullmatch(norm, *second.span) and _one_day(first) and before and _nothing_between(between):
        raw = _day_to_date(second, first)
        return _Found((before.start(), second.span[1]), raw) if raw is not None else None
    return None


_ALL_TIME_AS_HISTORY = _p(
    r"历史(?!\s*(?:同|环比|平均|均|客|用户|顾客|买家|会员|数据|记录|最近|上|以来|累计|总计))|(?<!历)史上"
)
"""历史 as all time ("历史GMV最高的月份", "历史总GMV") — never of the same period (历史同期), an
average (历史平均: over what?), people (历史客户) or records; 史上 alone is "in history"."""


def _all_time_as_history(norm: str, said: str, found: list[_Found], as_of: date) -> list[_Found]:
    """ "历史最高", "历史GMV", "史上最多": all time, read against the question as said (``said``: a
    reader may have taken the word after 历史 from ``norm`` — "平均", "最近" — that says it is no
    period there)."""
    out = list(found)
    for m in _ALL_TIME_AS_HISTORY.finditer(said):
        start, end = m.span()
        if norm[start:end] == said[start:end] and not any(f.span[0] < end and start < f.span[1] for f in out):
            out.append(_Found((start, end), _Raw(OPEN_START, _Ctx(as_of).last, "custom")))
    return sorted(out, key=lambda f: f.span)


def _all_time_until(norm: str, found: list[_Found]) -> list[_Found]:
    """ "截至去年底历史累计", "历史累计到3月底", "all time through 2025": every day up to the end said,
    one period from before the data's first row (an end said alone is asked: from when?)."""

    def join(i: int) -> _Found | None:
        # "从1月1日到3月31日历史…": the 到 closes a range, never an end of all time
        closes_a_range = i > 0 and _is_range(norm, found[i - 1], found[i])
        return None if closes_a_range else _all_time_to_an_end(norm, found[i], found[i + 1])

    return _pairs_joined(found, join)


def _all_time_to_an_end(norm: str, first: _Found, second: _Found) -> _Found | None:
    """``first`` and ``second`` as all time up to an end, in either order, or None."""
    if first.error is not None or second.error is not None:
        return None
    between = norm[first.span[1] : second.span[0]]
    if first.raw.start == OPEN_START and second.raw.start != OPEN_START:
        until = _UNTIL_AN_END.search(between)
        if until and _OF_AN_END.fullmatch(between[: until.start()]):
            edge = _EDGE.match(norm, second.span[1])  # "历史累计到去年底"
            end = edge.end() if edge else second.span[1]
            return _Found((first.span[0], end), _Raw(OPEN_START, second.raw.end, "custom"))
    if second.raw.start == OPEN_START and first.raw.start != OPEN_START and _OF_AN_END.fullmatch(between):
        until = _UNTIL_AN_END.search(norm, 0, first.span[0])
        if until:
            return _Found((until.start(), second.span[1]), _Raw(OPEN_START, first.raw.end, "custom"))
    return None


_OF_AN_END = _p(r"(?:底|末)?[\s,，的]*(?:为止)?[\s,，的]*")
"""What may stand between an end and the all-time words after it: its edge ("去年底"), 为止, 的."""
_EDGE = _p(r"底|末")
"""The edge of an end said after the all-time words ("历史累计到去年底"), taken with it."""
_UNTIL_AN_END = _p(r"(?:截至|截止到?|截止至|一直到|到|至|<NB>(?:up\s+to|through|thru|as\s+of)<NA>)\s*(?:the\s+)?$")
"""An end that holds its own period ("截至去年底", "through 2025"); "until this year" and "直到今年"
may end before it, so they are asked (from when?) as before."""


def _one_day(found: _Found) -> bool:
    """Whether ``found`` is one day ("June 20"), the day a period to date may be said as of."""
    return found.raw.grain == "day" and found.raw.start == found.raw.end


def _day_to_date(to_date: _Found, day: _Found) -> _Raw | None:
    """The period ``to_date`` names (its week, month, quarter or year) that holds ``day``, up to it."""
    for grain in _PERIOD_GRAINS:
        if grain == to_date.raw.grain:
            return _Raw(_period_start(day.raw.start, grain), day.raw.start, grain)
    return None


def _nothing_between(between: str) -> bool:
    """Nothing but a space or a comma between: a word between ("MTD GMV as of June 20", or one another
    reader took, blanked here) would be claimed with the period, so that is asked back instead."""
    return re.fullmatch(r",?\s?", between) is not None


_COMPARED = _p(r"对比|相比|比较?|较|<NB>(?:vs\.?|versus|against|compared?\s+(?:with|to))(?![A-Za-z])")
_COMPARED_AFTER = _p(r"[\s的]*(?:对比|相比|比较?)(?![例重])")
"""A comparison word right after the second of two periods ("12月和11月比"): the two are compared."""
_AND = _p(r"和|与|及|、|,|，|&|<NB>and<NA>")
_NOT_SHARED = _p(r"\d|到|至|-|~|–|—|<NB>(?:to|through|thru|until|till|from|between|since)<NA>")
_QUALIFIER_GAP = _p(
    r"[\s的]*(?:(?!(?:and|or|vs|versus|against|than|compared?|with|to|through|thru|until|till|from|since|over|on|"
    r"growth|grow|grew|change|changed|up|down|rise|rose|fall|fell|drop|dropped|increase|decrease|"
    r"beat|beats|beaten|outperform|outperformed|outdid|more|less|fewer|higher|lower|better|worse|short|miss|missed)"
    r"(?![A-Za-z]))"
    r"[A-Za-z][A-Za-z'&/-]*(?![A-Za-z'&/-])[\s的]*)*"  # whole words: a failed match backtracks linearly
)
"""What may stand between a year and the periods it qualifies: "的", spaces and Latin words
such as a metric's name ("Q1 and Q2 GMV this year") — no comparison, range or change word."""


_WEEK_OF_A_MONTH = _p(r"月份?的?\s*第\s*[一二三四1-4]\s*个?\s*(?:周|星期|礼拜)")
_BARE_WEEK = _p(r"第\s*(?P<w>\d{1,2}|[一二三四五六七八九十]{1,3})\s*(?:周|星期|礼拜)")


def _week_beside_a_week_of_a_month(norm: str, found: list[_Found], text: str) -> list[_Found]:
    """ "6月第3周的GMV比第2周低": a bare 第N周 beside a week of a month may be that month's week
    or the year's (ISO) week N — asked back rather than read as the year's."""
    month_week = _WEEK_OF_A_MONTH.search(norm)
    if month_week is None:
        return found
    out = []
    for f in found:
        bare = _BARE_WEEK.fullmatch(norm, *f.span)
        if bare is None or f.error is not None or f.span[0] <= month_week.start() < f.span[1]:
            out.append(f)
            continue
        said = text[f.span[0] : f.span[1]]
        other = text[_month_start(norm, month_week.start()) : month_week.end()]
        error = AmbiguousQuestion(
            *both("nlu.week_of_the_year_or_month", week=said, other=other, n=parse_cn_int(bare.group("w"))),
            detail={"missing": "time_range", "period": said},
        )
        out.append(replace(f, error=error))
    return out


_WEEKDAY_SAID = _p(r"(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])$")
_BARE_WEEKDAY_AFTER = _p(r"(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])(?![均])")


def _weekday_ending_a_weekday(norm: str, found: list[_Found]) -> list[_Found]:
    """ "上周一到周五", "上周周一到周日": a bare weekday ending a range that starts on a weekday
    of a named week is that week's day (alone, "周五" names no week and stays unread)."""
    out = list(found)
    for f in found:
        if f.error is not None or f.raw.grain != "day" or _WEEKDAY_SAID.search(norm, 0, f.span[1]) is None:
            continue
        join = _RANGE_JOIN.match(norm, f.span[1])
        bare = _BARE_WEEKDAY_AFTER.match(norm, join.end()) if join is not None else None
        if bare is None or any(other.span[0] == bare.start() for other in found):
            continue
        day = f.raw.start + timedelta(days=weekday_index(bare.group("wd")) - f.raw.start.weekday())
        out.append(_Found(bare.span(), _Raw(day, day, "day")))
    return sorted(out, key=lambda f: f.span)


def _month_start(norm: str, at: int) -> int:
    """Where the month before 月 at ``at`` is said ("6" of "6月", "十二" of "十二月")."""
    start = at
    while start > 0 and (norm[start - 1].isdigit() or norm[start - 1] in "一二三四五六七八九十"):
        start -= 1
    return start


def _reanchored(found: _Found, year: int, text: str, ctx: _Ctx) -> _Found:
    said = text[found.span[0] : found.span[1]]
    try:
        if found.raw.anchor is None and found.raw.grain == "custom":  # "June 1-18": its days moved
            return replace(found, raw=_days_in_year(found.raw, year, said, ctx))
        return replace(found, raw=_reanchor(found.raw, year, said, ctx))
    except TimeExpressionError as exc:
        return replace(found, error=exc)


_FOUR_DIGITS = re.compile(r"(?<!\d)[12]\d{3}(?!\d)")


def _year_less_kind(found: _Found, text: str) -> str | None:
    """The calendar kind a year said apart may qualify: a year-less month, quarter … or a run of
    days inside one year ("June 1-18" of "June 1-18 this year"); None for anything else."""
    raw = found.raw
    if raw.anchor is not None:
        return None if raw.anchor.year_explicit else raw.anchor.kind
    one_year = raw.grain == "custom" and raw.parts is None and raw.start.year == raw.end.year
    return "days" if one_year and not _FOUR_DIGITS.search(text[found.span[0] : found.span[1]]) else None


def _days_in_year(raw: _Raw, year: int, said: str, ctx: _Ctx) -> _Raw:
    start, end = shift_years(raw.start, year - raw.start.year), shift_years(raw.end, year - raw.end.year)
    if start > ctx.last:
        raise _no_data(said, start, ctx.last)
    return replace(raw, start=start, end=end)


def _shared_years(norm: str, found: list[_Found], text: str, ctx: _Ctx) -> list[_Found]:
    """A year said once for coordinated periods of one kind holds for all of them, as it does for
    a range. Said with the first, it reaches forward ("2025年4月、5月和6月", "去年Q1和Q2", "the
    second half of 2025 vs the first half"); said after the last, it reaches back over "and"
    ("Q1, Q2 and Q3 2025"). Said before the second only, it marks that one ("6月和去年5月": this
    June). A year written out after the second reaches back over a comparison word too, as
    English reads it ("H1 vs H2 2025", "March vs April 2025"). Asked back: a relative year
    there ("June vs May last year": last year's June too, or this June?), and a period it would put before the one it came
    with ("2025年12月和1月": January 2025 or 2026?)."""
    out = list(found)
    year_of: dict[int, int] = {}  # a period's year, said or shared
    for i, f in enumerate(out):
        if f.raw.anchor is not None and f.raw.anchor.year_explicit:
            year_of[i] = f.raw.anchor.year
    for i in range(len(out) - 1):  # forward
        if i in year_of and i + 1 not in year_of and (between := _coordinated(norm, out[i], out[i + 1])):
            # "2025年下半年和上半年比": set against each other, as "vs" sets them — never listed one after the other
            listed = not (_COMPARED.search(between) or _COMPARED_AFTER.match(norm, out[i + 1].span[1]))
            out[i + 1] = _shared(out[i + 1], out[i], year_of[i], text, ctx, listed=listed)
            year_of[i + 1] = year_of[i]
    for i in range(len(out) - 2, -1, -1):  # backward
        a, b = out[i], out[i + 1]
        if i in year_of or i + 1 not in year_of or b.year_first:
            continue
        between = _coordinated(norm, a, b)
        if not between:
            continue
        said_a = text[max(0, a.span[0] - 12) : a.span[1]]  # with the words right before it ("this June")
        written = _FOUR_DIGITS.search(text[b.span[0] : b.span[1]]) and not _RELATIVE_YEAR.search(said_a)
        # "H1 vs H2 2025", never "this June vs May 2025"
        if not _COMPARED.search(between) or written:
            out[i] = _shared(a, b, year_of[i + 1], text, ctx)
            year_of[i] = year_of[i + 1]
        elif a.raw.anchor is not None and a.raw.anchor.year != year_of[i + 1]:
            out[i] = replace(a, error=_which_year(text, a, b, a.raw.anchor.year, year_of[i + 1]))
    return out


_RELATIVE_YEAR = re.compile(r"\b(?:this|last|next|previous|prior|coming)\b|今年|去年|明年|本年|上一?年|前年", re.I)
"""Words that give a period a year of its own relative to today ("this June", "今年6月")."""


def _coordinated(norm: str, a: _Found, b: _Found) -> str:
    """The words between two periods of one kind joined by "and" or a comparison word ("" if not)."""
    xa, ya = a.raw.anchor, b.raw.anchor
    if xa is None or ya is None or xa.kind != ya.kind or xa.kind == "year" or a.raw.parts or b.raw.parts:
        return ""
    if (xa.a, xa.b) == (ya.a, ya.b):  # "June 18 vs June 18 last year": one date in two years
        return ""
    between = norm[a.span[1] : b.span[0]]
    if len(between) > 40 or _NOT_SHARED.search(between) or not (_COMPARED.search(between) or _AND.search(between)):
        return ""
    return between or " "


def _shared(target: _Found, source: _Found, year: int, text: str, ctx: _Ctx, *, listed: bool = False) -> _Found:
    """``target`` in ``year``. Listed after ``source`` and then before it, while the next year
    would make it the period right after ("2025年12月和1月"), it is asked back."""
    moved = _reanchored(target, year, text, ctx)
    if moved.error is not None or not listed or moved.raw.start >= source.raw.start:
        return moved
    following = _reanchored(target, year + 1, text, ctx)
    if following.error is None and following.raw.start == source.raw.end + timedelta(days=1):
        latest = target.raw.anchor.year if target.raw.anchor is not None else year
        return replace(target, error=_which_year(text, target, source, latest, year))
    return moved


def _which_year(text: str, period: _Found, other: _Found, latest: int, year: int) -> AmbiguousQuestion:
    said = text[period.span[0] : period.span[1]]
    return AmbiguousQuestion(
        *both("nlu.which_year_of", period=said, latest=latest, other=text[other.span[0] : other.span[1]], year=year),
        detail={"missing": "time_range", "period": said, "years": [year, latest]},
    )


def _whole_year(raw: _Raw) -> int | None:
    first = raw.start
    return first.year if raw.grain == "year" and (first.month, first.day) == (1, 1) else None


_SET_AGAINST_BEFORE = re.compile(
    r"(?:\b(?:beat|beats|outperform(?:s|ed)?|outdid|than|vs\.?|versus|against|compared\s+(?:with|to))|比|对比|相比)\s*$",
    re.I,
)
"""A year said right after a word that sets it against something ("beat last year", "vs last year"):
the period compared with, never the year of the others."""


def _year_apart(
    norm: str, found: list[_Found], text: str, ctx: _Ctx, *, said: str
) -> tuple[list[_Found], tuple[int, int] | None]:
    """ "Compare Q1 and Q2 GMV this year", "今年的6月": a year said apart from the year-less
    periods of one kind it qualifies, and joined to none of them by a word that would make it
    a period of its own ("今年和6月比", "from 2025 to June", "June compared with this year"), is
    their year: "Q4 GMV last year" is Q4 2025, "Q2 GMV this year vs last year" Q2 2026 against Q2
    2025."""
    years = [f for f in found if _whole_year(f.raw) is not None]
    rest = [f for f in found if f not in years]
    kinds = {_year_less_kind(f, text) for f in rest}
    if len(years) != 1 or not rest or len(kinds) != 1 or None in kinds or "year" in kinds:
        return found, None
    year = years[0]
    nearest = min(rest, key=lambda f: abs(f.span[0] - year.span[0]))
    lo, hi = sorted((nearest.span, year.span))
    between = norm[lo[1] : hi[0]]
    if not _QUALIFIER_GAP.fullmatch(between) or _SET_AGAINST_BEFORE.search(said, 0, year.span[0]):
        return found, None
    whole = _whole_year(year.raw)
    assert whole is not None
    return [_reanchored(f, whole, text, ctx) for f in rest], year.span


def parse_time_range(text: str, as_of: date) -> TimeMatch | None:
    """The question's one time range (ranges like 从X到Y joined), or None when there is none."""
    norm, found = _scan(text, as_of)
    found = _all_time_until(norm, _all_time_as_history(norm, norm, found, as_of))
    if not found:
        return None
    if len(found) >= 2:
        first, second = found[0], found[1]
        if _is_range(norm, first, second):
            raw, _, _ = _join(first, second, text, _Ctx(as_of))
            prefix = _RANGE_PREFIX.search(norm, 0, first.span[0])
            start = prefix.start() if prefix else first.span[0]
            return _finish(raw, (start, second.span[1]), text, as_of)
    return _finish(found[0].raw, found[0].span, text, as_of)
