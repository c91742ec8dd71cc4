"""Bounds on a metric's value: "退款率超过5%的品类", "channels with more than 10,000 orders".

A bound keeps the groups (or periods) of a breakdown whose value passes it; the compiler bounds
the aggregate, so a group is kept or dropped whole. It is read beside the catalog term it is
said of, and read in that metric's unit when the query is built: a rate's bound is a percentage
("5%" is 0.05), an amount's may carry a scale ("500万", "5m") and a money word, a count's is a
plain number. Anything else — a bound of no metric, a percentage of an amount, a bound beside a
ranking or with no groups to keep — is asked back by name, never read as a plain breakdown.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from baton import patterns
from baton.catalog.model import Catalog
from baton.contracts.common import LANGUAGES, Language
from baton.contracts.semantic import Threshold
from baton.errors import AmbiguousQuestion
from baton.messages import both, text
from baton.nlu import vocabulary as vocab
from baton.nlu.cn_numerals import DIGITS, approximate, parse_cn_int, parse_large, rough_number_asked
from baton.nlu.lexicon import Hit, normalise
from baton.nlu.scan import Scan


@dataclass(frozen=True)
class Bound:
    """A bound as said ("超过5%", "more than 10,000"), beside the catalog term it bounds: the
    number as written (its scale applied), read in the metric's unit when the query is built."""

    op: Literal[">", ">=", "<", "<="]
    number: Decimal
    percent: bool
    money: bool
    said: str
    term: tuple[int, int] | None
    """The catalog term it bounds; none in a follow-up that bounds the metric already asked."""
    term_said: str
    currency: str | None = None
    """The currency its money sign or word names ("CNY": ¥, 元; "USD": $, dollars), if it says one."""
    trailing: bool = False
    """Said in a clause of its own after the question ("各区域GMV，只要超过600万的"): it bounds the
    last metric before the clause, whatever catalog term stands last."""
    upper: Decimal | None = None
    """A range's upper end ("在100万到500万之间"): ``number`` is then its lower end, both kept."""
    change: Literal["up", "down", "signed"] | None = None
    """A bound on the change, said after the move ("环比增长超过5%" up, "降幅超过10%" down, "增长率低于0"
    signed): the groups whose change against the comparison period passes it."""
    points: bool = False
    """Said in percentage points ("1个百分点"): a rate's change in points, never a relative one."""
    share: bool = False
    """A bound on a part's share of the whole, said after the share word ("GMV占比超过一半",
    "share of GMV above 30%")."""
    floor: Floor | None = None
    """The bound said as the groups a ranking is among, or whose other metric is listed ("among those
    with at least 5000 orders", "订单量超过8000的品类中", "订单量超过8000的品类的退款率"): then the groups
    that pass it are ranked or listed."""


@dataclass(frozen=True)
class Floor:
    """Where a bound is said as the groups ranked (or listed) among: its words, the group word in
    them (the breakdown's, checked when the query is built: "among users with…" keeps no
    categories), the clause it stands in (a ranking must be said there, and not as "made the top
    3"), whether a member is said of the bounded metric ("APP GMV超过500万的区域": of that metric
    only, or of every one?) and whether a total is asked ("overall refund rate among …": one
    pooled figure, never each group's)."""

    span: tuple[int, int]
    group: tuple[int, int] | None
    clause: tuple[int, int]
    membership: bool
    member_of_its_metric: tuple[int, int] | None = None
    total_said: bool = False


_AMONG_BEFORE = patterns.compile(
    r"\b(?:among|out of)\s+(?:those|the ones|ones|(?:all\s+)?(?:the\s+)?(?P<group>[a-z]+))\s+"
    r"(?:with|that (?:had|have|has)|having|whose|where)\s+(?:(?:an?|the)\s+)?$",
    re.I,
)
_AMONG_AFTER = patterns.compile(
    r"\s*(?P<de>的)?\s*(?P<group>[^\s，,。？?！!；;的中里]{0,6}?)\s*"
    r"(?:当中|之中|里面|中|里|(?(de)(?<=[^的\s])的(?=\s*[^\s，,。？?！!；;])|(?!)))"
)
""""订单量超过8000的品类中…": the groups, right after the bound, that a ranking is among; "订单量超过8000的
品类的退款率": whose figures are listed."""
_CLAUSE_BREAK = patterns.compile(r"[。？?！!；;]|另外|以及|\balso\b|\band (?:what|which|how|list)\b", re.I)
_MEMBERSHIP = patterns.compile(
    r"\b(?:made|make|makes|making)\b|\b(?:in|into) the (?:top|bottom)\b|进入|进了|排进|跻身|是不是前|属于前", re.I
)
"""A ranking said as membership of the whole ranking ("which ones made the top 3"): no ranking among."""


def read_bound(scan: Scan, spans: dict[str, list[tuple[int, int]]], *, follows: bool = False) -> Bound | None:
    """ "退款率超过5%", "GMV 500万以上", "more than 10,000 orders": a bound said right beside a
    catalog term (after it, or — a number of things — before it), its span claimed. A number
    with no term beside it is left unread, unless a follow-up (``follows``) says it of the metric
    before it by a change or share word ("涨幅超过20%的有哪些", "any below 2%?"); two bounds are asked back."""
    found: list[Bound] = _ranges(scan, spans)
    taken = list(spans.get("threshold", []))
    for m in scan.find_all(vocab.THRESHOLD):
        if any(start <= m.start() < end for start, end in taken):
            continue  # a number of a range already read
        op = " ".join((m.group("op") or m.group("post") or "").lower().replace("’", "'").split())
        change = _change_before(scan, m.start()) if op else None
        share = _SHARE_SAID.search(scan.norm, max(0, m.start() - 30), m.start()) if op and change is None else None
        term, trailing = (
            (_metric_of_change(scan, change[1], m.end()), False)
            if change is not None
            else (_metric_of_change(scan, m.start(), m.end()), False)
            if share is not None
            else _bounded_term(scan, m.start(), m.end(), bool(m.group("op")), bool(m.group("op") or m.group("post")))
        )
        bare = (
            follows
            and term is None
            and (
                change is not None
                or share is not None
                or _BARE_FOLLOW_UP.match(scan.norm)
                or _BARE_AFTER.search(scan.norm)
            )
        )
        if not op or (term is None and not bare):
            continue
        scale = (m.group("scale") or ("%" if m.group("pct_cn") else "")).lower()  # "百分之五": 5%
        money_said = (m.group("cur") or m.group("money") or "").strip().lower()
        money = bool(money_said)
        year = not (scale or money) and op.isascii() and _YEAR.fullmatch(m.group("num")) is not None
        before_its_term = term is None or term[1] <= m.start()
        if year and before_its_term:  # "GMV by channel over 2025": a year ("over 2025 orders" counts)
            continue
        if approximate(m.group("num")):  # "超过两三千万": 20 or 30 million, never 3,000万 read for it
            raise rough_number_asked(scan.text[m.start() : m.end()].strip())
        # the digits as said, scaled exactly: "1.4%" is 0.014, never 0.013999999999999999
        number = _number(m.group("num"), large=m.group("large") is not None) * vocab.BOUND_SCALES.get(scale, 1)
        number = -number if m.group("sign") else number
        said = scan.text[m.start() : m.end()].strip()
        points = scale in _POINTS or scale.startswith("percentage")
        # "一半": 50%, "三成": 30%
        percent = (
            scale in {"%", "％", "percent", "per cent"}
            or points
            or m.group("num") in _HALF
            or m.group("num").endswith("成")
        )
        named = scan.text[term[0] : term[1]] if term is not None else ""
        currency = currency_of_word(money_said) if money else None
        bound = Bound(
            vocab.BOUND_OPS[op],  # type: ignore[arg-type]
            number,
            percent,
            money,
            said,
            term,
            named,
            currency,
            trailing,
            change=change[0] if change is not None else None,
            share=share is not None,
            points=points,
            floor=_floor(scan, m.start(), m.end(), term),
        )
        found.append(bound)
        spans.setdefault("threshold", []).append((m.start(), m.end()))
    if len(found) > 1:  # "GMV超过100万且订单超过1000的渠道": one bound at a time
        words = [b.said for b in found]
        raise AmbiguousQuestion(
            *both("nlu.two_thresholds", words=", ".join(words)), detail={"words": words, "reason": "two_thresholds"}
        )
    for start, end in spans.get("threshold", []):
        scan.claim(start, end)
    for asked in scan.find_all(vocab.YES_NO) if found else ():  # "…超过2000万没有", "是否": a yes/no of it
        if scan.free(asked.start(), asked.end()):
            scan.claim(asked.start(), asked.end())
    return found[0] if found else None


def _floor(scan: Scan, start: int, end: int, term: tuple[int, int] | None) -> Floor | None:
    """The bound (``start``–``end`` with its ``term``) said as the groups a ranking is among."""
    if term is not None:
        start, end = min(start, term[0]), max(end, term[1])
    among = _AMONG_BEFORE.search(scan.norm, 0, start)
    after = _AMONG_AFTER.match(scan.norm, end) if among is None else None
    found = among or after
    if found is None:
        return None
    group = found.span("group") if found.group("group") else None
    span = (found.start(), end) if among is not None else (start, found.end())
    breaks = [b.start() for b in _CLAUSE_BREAK.finditer(scan.norm)]
    clause = (
        max((b for b in breaks if b < span[0]), default=0),
        min((b for b in breaks if b >= span[1]), default=len(scan.norm)),
    )
    membership = _MEMBERSHIP.search(scan.norm, *clause) is not None
    at = term[0] if term is not None else -1  # no term: no member said of it
    member_of_its_metric = next(((s, e) for s, e in scan.members if e <= at and not scan.norm[e:at].strip(" 的")), None)
    total_said = any(
        not any(s <= m.start() and m.end() <= e for s, e in scan.terms)
        for pattern in (vocab.SUM_SAID, vocab.WHOLE_PLACE)
        for m in pattern.finditer(scan.norm)
    )
    return Floor(span, group, clause, membership, member_of_its_metric, total_said)


_CHANGE_SAID = patterns.compile(
    r"(?:(?P<signed>增长率|增速|变化率|\bgrowth rate(?: of)?|\brate of (?:growth|change)(?: of)?)"
    r"|(?P<up>增幅|涨幅|增长|上涨|上升|增加|提升|提高|涨|\bgrowth(?: of)?|\bgrows?|\bgrew|\bgrown|\brose|\brisen|\bincreased|\bjumped|\bclimbed"
    r"|\bwent up|\bgone up|\bgo(?:es)? up|\b(?:was|were|is|are) up|(?<!make )(?<!makes )(?<!made )\bup|\b(?:a |an )?(?:rise|increase|jump|gain)(?: of)?)"
    r"|(?P<down>降幅|跌幅|下降|下跌|减少|下滑|跌|降|\bfell|\bfallen|\bdropped|\bdeclined|\bdecreased|\bwent down"
    r"|\bgone down|\bgo(?:es)? down|\b(?:was|were|is|are) down|\bdown|\b(?:a |an )?(?:drop|fall|decline|decrease)(?: of)?))"
    r"了?的?(?:幅度)?(?:\s+(?:was|were|is|are)\b)?\s*(?:by\s+)?$",
    re.I,
)
_RATE_SAID = patterns.compile(
    r"(?:增长率|增速|变化率|\bgrowth rate(?: of)?|\brate of (?:growth|change)(?: of)?|\bgrowth|\bchange)"
    r"(?:\s+(?:was|were|is|are)\b)?\s*$",
    re.I,
)
"""A change said as a quantity right before a level ("growth rate below -5%", "增长率跌破-5%"): the
bound is on the rate, signed as said; a move to a level ("fell below 1,000") is on the value."""


_HALF = ("一半", "半数", "half")
_POINTS = frozenset({"个百分点", "百分点", "个点", "point", "points", "pt", "pts"})
"""Scales said in percentage points ("1个百分点", "0.05 points"): a percentage, and a rate's change in points."""
_LEVEL_CROSSED = patterns.compile(r"破|\b(?:above|below|under|past|beyond)\b", re.I)
"""An operator that crosses a level, not an amount moved by ("跌破", "rise above", "fall below")."""
_BARE_FOLLOW_UP = patterns.compile(
    r"^\s*(?:(?:are |were |is |was )?(?:there )?any(?: of them| ones?)?|(?:是不是)?都|有没有|有哪些|哪些|哪几个|which(?: ones?)?"
    r"|(?:那)?(?:只看|只要|只留|只显示|仅看)|(?:show )?only (?:the )?(?:ones|those)\b"
    r"|(?:are|were|did|do|have|had) (?:they|these|those|all|them all)\b)",
    re.I,
)
"""A follow-up that bounds the groups already shown with no metric named ("any below 2%?", "哪些低于2%",
"只看超过500万的")."""
_BARE_AFTER = patterns.compile(r"的\s*(?:有哪些|是哪些|有哪几个|是哪几个|有几个|呢)\s*[?？]?\s*$")
"""The same, the which-word said after the bound ("低于2%的有哪些", "超过100万的呢")."""
_SHARE_SAID = patterns.compile(
    r"(?:占比|份额|比重|占(?:总|全部|整体|全国|全平台)?的?比例|\bshares?\b(?:\s+of\s+[^,?.;]{1,30}?)?"
    r"|\b(?:make|makes|made|making) up|\baccount(?:s|ed)? for"
    r"|\bpercent(?:age)?\s+of\s+(?:the\s+)?total(?:\s+[^,?.;]{1,20}?)?)\s*(?:都|是|为|在|\bis\b|\bwas\b|\bat\b)?\s*$",
    re.I,
)
"""A share said right before a bound ("GMV占比超过一半", "share of GMV above 30%"): the bound is on the share."""


def _change_before(scan: Scan, start: int) -> tuple[Literal["up", "down", "signed"], int] | None:
    """The move said right before a bound ("环比降幅超过10%", "grew by more than 10%"), and where it
    starts: the bound is on the change, not on the value. A level crossed ("跌破500万", "rose above 5M",
    "fell below 1,000") bounds the value."""
    if _LEVEL_CROSSED.match(scan.norm, start):
        rate = _RATE_SAID.search(scan.norm, max(0, start - 24), start)
        return ("signed", rate.start()) if rate is not None else None
    found = _CHANGE_SAID.search(scan.norm, max(0, start - 24), start)
    said = [(s, e) for s, e in scan.metrics if e <= start and _BY.fullmatch(scan.norm[e:start])]
    if found is None and said:  # "grew orders by more than 5%": the metric between the move and the bound
        found = _CHANGE_SAID.search(scan.norm, max(0, said[-1][0] - 24), said[-1][0])
    if found is None:
        return None
    way = next(w for w in ("signed", "up", "down") if found.group(w))
    return way, found.start()  # type: ignore[return-value]


def _metric_of_change(scan: Scan, move: int, end: int) -> tuple[int, int] | None:
    """The metric whose change is bounded: the last named before the move ("GMV环比增长超过5%"), else
    the first after the bound in its clause ("grew more than 10% month on month in orders")."""
    between = [(s, e) for s, e in scan.metrics if s >= move and e <= end]  # "grew orders by more than 5%"
    before = [(s, e) for s, e in scan.metrics if e <= move]
    after = [(s, e) for s, e in scan.metrics if s >= end and not _CLAUSE_END.search(scan.norm, end, s)]
    return max(between or before) if between or before else after[0] if after else None


def _number(said: str, *, large: bool = False) -> Decimal:
    """The number as written: digits ("1,500.5"), a Chinese numeral ("五百", "三千五百"), sections
    of 亿 and 万 (``large``: "一亿五千万", "1万5") or nothing (a scale said alone: "过万" is one 万)."""
    if large:
        return parse_large(said.replace("个", ""))
    if said in _HALF:
        return Decimal(50)
    if said.endswith("成"):  # "三成": three tenths, said as a percent
        return Decimal(parse_cn_int(said[:-1]) * 10)
    if not said:
        return Decimal(1)
    if said[0].isascii() and said.isascii():
        return Decimal(said.replace(",", ""))
    whole, point, tenths = said.partition("点")  # "七点五": each digit after 点 as said
    return Decimal(f"{parse_cn_int(whole)}.{''.join(str(DIGITS[d]) for d in tenths)}" if point else parse_cn_int(said))


def _ranges(scan: Scan, spans: dict[str, list[tuple[int, int]]]) -> list[Bound]:
    """ "GMV在100万到500万之间", "orders between 5,000 and 10,000": a range beside the term it bounds,
    both ends scaled alike when only the second says its scale ("100到500万"); its span claimed."""
    found: list[Bound] = []
    for m in scan.find_all(vocab.THRESHOLD_RANGE):
        english = m.group("a2") is not None
        low, high = (m.group("a2"), m.group("b2")) if english else (m.group("a"), m.group("b"))
        scale_low, scale_high = (m.group("sa2"), m.group("sb2")) if english else (m.group("sa"), m.group("sb"))
        scale_high = (scale_high or "").lower()
        scale_low = (scale_low or "").lower()
        shared = vocab.BOUND_SCALES.get(scale_high, 1)
        if not scale_low and _number(low) * shared < _number(high) * shared:
            scale_low = scale_high  # "100到500万": 500万's scale for both; "500到1万": 500 stays 500
        if not (scale_low or scale_high) and all(_YEAR.fullmatch(n) for n in (low, high)):
            continue  # "between 2025 and 2026": years
        term, _ = _bounded_term(scan, m.start(), m.end(), True, False)
        if term is None:
            continue
        money_said = next((g for g in ("cur", "cur2", "cur3", "cur4", "money", "money2") if m.group(g)), None)
        percent = scale_low in {"%", "％"} or scale_high in {"%", "％"}
        lower = _number(low) * vocab.BOUND_SCALES.get(scale_low, 1)
        upper = _number(high) * vocab.BOUND_SCALES.get(scale_high, 1)
        if upper <= lower:
            continue
        said = scan.text[m.start() : m.end()].strip()
        named = scan.text[term[0] : term[1]]
        cur = (m.group(money_said) or "").strip().lower() if money_said else ""
        currency = currency_of_word(cur) if cur else None
        found.append(Bound(">=", lower, percent, bool(cur), said, term, named, currency, upper=upper))
        spans.setdefault("threshold", []).append((m.start(), m.end()))
    return found


def _bounded_term(
    scan: Scan, start: int, end: int, op_before: bool, op_said: bool
) -> tuple[tuple[int, int] | None, bool]:
    """The catalog term a bound is said of: the one just before it ("GMV is above"), or the one
    right after its number ("more than 1,000 orders", "more than 20 million in GMV")."""
    before = [(s, e) for s, e in scan.terms if e <= start and vocab.BOUND_LINK.fullmatch(scan.norm[e:start])]
    after = [(s, e) for s, e in scan.terms if s >= end and _NUMBER_OF.fullmatch(scan.norm[end:s])]
    of_metric_after = bool(after) and after[0] in scan.metrics
    if before and not (of_metric_after and max(before) not in scan.metrics):
        # "GMV is above 5m"; "regions above 1,000 orders" is of the orders
        return _metric_broken_down(scan, max(before)) or max(before), False
    if after and (op_before or op_said):  # "more than 1,000 orders", "10k+ orders", "8518 or more orders"
        return after[0], False
    clause = _CLAUSE_BEFORE.search(scan.norm, 0, start)
    if clause is None or not op_said:
        return None, False
    said = [(s, e) for s, e in scan.terms if e <= clause.start()]  # "各区域GMV，只要超过600万的": GMV
    return (max(said), True) if said else (None, False)


def _metric_broken_down(scan: Scan, term: tuple[int, int]) -> tuple[int, int] | None:
    """The metric right before "by" when ``term`` is the breakdown after it: "cancel rate by
    channel above 3%" keeps the channels whose cancel rate passes, a channel being no number."""
    if term in scan.metrics:
        return None
    metric = max(((s, e) for s, e in scan.metrics if e <= term[0]), default=None)
    return metric if metric is not None and _BY_LINK.fullmatch(scan.norm[metric[1] : term[0]]) else None


def currency_of_word(word: str) -> str | None:
    """The ISO currency a money sign or word names ("美元": USD, "rmb": CNY), if any."""
    said = word.strip().lower()
    return next((code for sign, code in _CURRENCIES if said.startswith(sign)), None)


_CURRENCIES = (
    ("美元", "USD"),
    ("美金", "USD"),
    ("欧元", "EUR"),
    ("英镑", "GBP"),
    ("日元", "JPY"),
    ("€", "EUR"),
    ("£", "GBP"),
    ("eur", "EUR"),
    ("gbp", "GBP"),
    ("pound", "GBP"),
    ("jpy", "JPY"),
    ("yen", "JPY"),
    ("人民币", "CNY"),
    ("cny", "CNY"),
    ("¥", "CNY"),
    ("￥", "CNY"),
    ("rmb", "CNY"),
    ("元", "CNY"),
    ("块", "CNY"),
    ("yuan", "CNY"),
    ("$", "USD"),
    ("usd", "USD"),
    ("dollar", "USD"),
)
"""The currency a bound's money sign or word names, checked against the metric's own."""
_YEAR = patterns.compile(r"(?:19|20)\d\d")
"""A bare number that reads as a year is never a bound ("over 2025", "above 2024's")."""
_CLAUSE_BEFORE = patterns.compile(
    r"[，,;；]\s*(?:只要|只看|只保留|只列出?|仅看|仅保留|其中|筛选出?|\bonly(?:\s+(?:those|the\s+ones))?|\bjust\s+those)?\s*"
    r"(?:有?哪些|哪几个?[月天周]?|哪几天|哪些[月天周]|\bwhich(?:\s+ones)?)?\s*(?:是|\bwith\b|\bthat\s+(?:are|were|had|have)\b)?\s*$",
    re.I,
)
"""A bound in a clause of its own after what it bounds ("上个月各区域GMV，只要超过600万的", "GMV by
category, only those above 8M"): it bounds the last catalog term before the clause."""
_BY = patterns.compile(r"\s*(?:by\s+)?", re.I)
_BY_LINK = patterns.compile(r"\s+(?:broken\s+down\s+)?by\s+(?:each\s+)?", re.I)
_CLAUSE_END = patterns.compile(r"[,，;；。.?？!！]")
_NUMBER_OF = patterns.compile(r"\s*(?:(?:in|of|worth of)\s+)?", re.I)
"""What may stand between a bound's number and the metric after it ("more than 20 million in GMV")."""


def threshold_of(
    bound: Bound,
    catalog: Catalog,
    metric_hits: Sequence[Hit],
    metrics: Sequence[str],
    *,
    groups: bool,
    beside: bool,
    yes_no: bool = False,
    compared: bool = False,
    shared: bool = False,
    ranked_by: str | None = None,
) -> Threshold:
    """``bound`` as a threshold on its metric, in the metric's unit; asked back when it cannot be
    one (``groups``: the question has a breakdown or a series to keep; ``beside``: it also asks a
    ranking, a share, a comparison or a gap; ``yes_no``: a yes/no question, whose bound on one
    total checks it; ``ranked_by``: the metric a ranking beside it ranks by — a bound on the other
    metric is the floor of the groups ranked)."""
    hit = next((h for h in metric_hits if (h.start, h.end) == bound.term), None)
    if hit is None and bound.trailing and bound.term is not None:  # "GMV by category, only those above 8M": GMV
        end = bound.term[1]
        hit = max((h for h in metric_hits if h.end <= end), key=lambda h: h.start, default=None)
    # a follow-up's bound is of its one metric; so is a share's said of its part ("did new users account for
    # more than half of orders?")
    if hit is None and not ((bound.term is None or bound.share) and len(metrics) == 1):
        raise _asked(bound, "nlu.threshold_of_what", lambda lang: {"term": bound.term_said})
    metric = (
        next((t.target for t in hit.terms if t.kind == "metric" and t.target in metrics), metrics[0])
        if hit
        else metrics[0]
    )
    info = catalog.metrics[metric]

    def label(lang: Language) -> dict[str, str]:
        return {"metric": info.label.for_lang(lang)}

    floor = ranked_by is not None and metric != ranked_by and bound.change is None and not bound.share
    if (len(metrics) > 1 or beside) and not floor:
        raise _asked(bound, "nlu.threshold_beside", label)
    if bound.share:  # "GMV占比超过一半的渠道": each part's share of the whole
        if not shared or not bound.percent or bound.upper is not None:
            raise _asked(bound, "nlu.threshold_share", label)
        if not groups and not yes_no:
            raise _asked(bound, "nlu.threshold_needs_groups", label)
        return Threshold(metric=metric, op=bound.op, value=float(bound.number / 100), of="share")
    if bound.change is not None:
        return _change_threshold(bound, metric, catalog, label, compared=compared, groups=groups, yes_no=yes_no)
    if not groups and not yes_no:
        raise _asked(bound, "nlu.threshold_needs_groups", label)
    if info.unit == "ratio" and not bound.percent:
        raise _asked(bound, "nlu.threshold_percent", label)
    if info.unit != "ratio" and bound.percent:
        raise _asked(bound, "nlu.threshold_not_percent", label)
    if info.unit != "currency" and bound.money:
        raise _asked(bound, "nlu.threshold_not_money", label)
    currency = catalog.currency_of(metric)
    if bound.currency is not None and currency is not None and bound.currency != currency.upper():
        raise _asked(bound, "nlu.threshold_currency", lambda lang: {**label(lang), "currency": currency})
    value = bound.number / 100 if bound.percent else bound.number
    upper = None if bound.upper is None else float(bound.upper / 100 if bound.percent else bound.upper)
    return Threshold(metric=metric, op=bound.op, value=float(value), upper=upper)


def _change_threshold(
    bound: Bound,
    metric: str,
    catalog: Catalog,
    label: Callable[[Language], dict[str, str]],
    *,
    compared: bool,
    groups: bool,
    yes_no: bool,
) -> Threshold:
    """A bound on the change ("环比增长超过5%的品类", "regions where orders fell by more than 12%"): on
    the relative change for a percentage (a fall's bound negative: "降幅超过10%" keeps change_pct
    < -0.10), on the change in the metric's unit otherwise, a rate's in points; of one total, a
    yes/no ("上半年GMV同比增长超过15%了吗", checked by the caller). Asked back: no period to compare
    with, no groups and no yes/no, a range, an upper bound on a move ("增长不到5%": do the ones that
    fell count?), a rate's change in percent (relative, or points?)."""
    if not compared or not (groups or yes_no) or bound.upper is not None:
        raise _asked(bound, "nlu.threshold_change_shape", label)
    if bound.change != "signed" and bound.op in ("<", "<="):
        raise _asked(bound, "nlu.threshold_change_under", label)
    if bound.change != "signed" and bound.number < 0:  # "增长超过-5%": which way did it move?
        raise _asked(bound, "nlu.threshold_signed_move", label)
    info = catalog.metrics[metric]
    if info.unit == "ratio" and bound.percent and not bound.points:
        raise _asked(bound, "nlu.threshold_change_of_rate", label)
    if info.unit != "currency" and bound.money:
        raise _asked(bound, "nlu.threshold_not_money", label)
    if bound.change == "signed" and not bound.percent and bound.number != 0:  # "增长率超过5": 5%, or 5 times?
        raise _asked(bound, "nlu.threshold_percent", label)
    relative = (bound.percent and info.unit != "ratio") or bound.change == "signed"  # a growth rate is relative
    value = bound.number / 100 if bound.percent else bound.number
    op = bound.op
    if bound.change == "down":  # "降幅超过10%": a change below -10%
        op, value = {">": "<", ">=": "<="}[op], -value  # type: ignore[assignment]
    return Threshold(metric=metric, op=op, value=float(value), of="change_pct" if relative else "change")


def _asked(bound: Bound, key: str, fields: Callable[[Language], dict[str, str]]) -> AmbiguousQuestion:
    """``key`` asked back in both languages, naming the bound as said (``fields``: the other
    fields in a language)."""
    en, zh = (text(key, lang, bound=bound.said, **fields(lang)) for lang in LANGUAGES)
    return AmbiguousQuestion(en, zh, detail={"bound": bound.said, "reason": key.removeprefix("nlu.")})


_AGAINST_THE_AVERAGE = patterns.compile(
    r"(?:比|较|高于|低于|超过|不到|不及|大于|小于)\s*(?:全部|所有|整体|全国|总体|各\w{0,3})?的?\s*平均(?:值|数|水平|线)?"
    r"|\b(?:than|vs\.?|versus|above|below|over|under)\s+(?:the\s+)?(?:overall\s+)?average\b|\babove-average\b"
    r"|\bbelow-average\b",
    re.I,
)
"""A value set against the average of the groups ("比平均高多少", "above average"): not built."""
_AGAINST_THE_WHOLE = patterns.compile(
    r"(?:比|较|高于|低于|超过|不到|不及|大于|小于)\s*(?:整体|全国|总体|大盘|全平台)"
    r"|\b(?:than|vs\.?|versus|against)\s+(?:the\s+)?(?:overall|whole|total)\b",
    re.I,
)
"""Groups set against the whole ("各渠道退款率比整体低吗", "than overall"): not built in one question."""


def check_against_the_average(question: str) -> None:
    """Ask back a question that sets a group's value against the groups' average ("二季度哪个品类退款率
    最高，比平均高多少", "categories with an above-average refund rate"): read otherwise, "高多少" would
    be a change over time and "平均" a word left over. Read before the question's words are."""
    found = _AGAINST_THE_AVERAGE.search(normalise(question))
    if found is not None:
        said = question[found.start() : found.end()]
        raise AmbiguousQuestion(*both("nlu.against_the_average", words=said), detail={"reason": "against_the_average"})
    whole = _AGAINST_THE_WHOLE.search(normalise(question))
    if whole is not None:  # "各渠道退款率比整体低吗": read otherwise, a change against last month
        said = question[whole.start() : whole.end()]
        raise AmbiguousQuestion(*both("nlu.against_the_whole", words=said), detail={"reason": "against_the_whole"})


__all__ = ["Bound", "check_against_the_average", "read_bound", "threshold_of"]
