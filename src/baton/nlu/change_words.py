"""What a question's change words say: the direction it takes for granted ("did web orders go down",
"6月GMV比5月高了多少"), and a ranking by a change, not by a value ("哪个渠道上个月GMV环比下降最多",
"which region's orders grew the most vs May", "降幅最大的3个品类").

A direction said beside a comparison is kept with the query, so that an answer whose data moved the
other way says so in words, not only by a sign. A ranking by a change says which way the change goes
(a fall or a rise) and whether it is measured as an amount (for a rate, in points) or in percent;
what it leaves unsaid is read the way the words usually mean it — "下降最多" / "dropped the most" by
the amount, "降幅最大" / "fastest growth" / "biggest percentage drop" in percent — and the
interpretation names the reading, so an answer never ranks by one measure while the reader thinks of
the other. A change without a direction ("变化最大"), or a smallest change ("涨得最少"), is not read
here and stays asked back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from baton import patterns
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.nlu import vocabulary as vocab
from baton.nlu.cn_numerals import parse_cn_int
from baton.nlu.cues import ChangeMeasure, Cues, read_which_n
from baton.nlu.lexicon import Hit, normalise
from baton.nlu.scan import Scan

_RISE = patterns.compile(
    r"^涨$|增幅|增速|增量|[高多]了?(?:多少|几)|[高多]出|\bgrowth\b|\bgains?\b|\b(?:more|higher|bigger|larger|greater)\b",
    re.I,
)
_FALL = patterns.compile(
    r"^[跌降掉]$|拖累|拖了?后腿|\bdrag(?:s|ged|ging)?\b|减量|^(?:不如|不及|比不上|赶不上|没有?)$|降幅|[低少]了?(?:多少|几)|[低少]出|\bdrops?\b|\bfalls?\b|\bdeclines?\b|\bdecreases?\b"
    r"|\b(?:less|fewer|lower|smaller)\b",
    re.I,
)
"""Change words that say their direction beside :data:`vocab.UP` / :data:`vocab.DOWN`."""
_PERCENT = patterns.compile(
    r"幅|率|速|百分|%|％|\bpercent(?:age)?\b|\bpct\b|\brates?\b|\brelative(?:ly)?\b|\bfastest\b|最快", re.I
)
"""Words that measure a change in percent ("降幅", "增长率", "growth rate", "fastest")."""
_FASTEST = patterns.compile(r"最快|\bfastest\b", re.I)
_N_AFTER = patterns.compile(r"\s*的?\s*(?P<n>\d{1,3}|[一二两三四五六七八九十])\s*[个家名位]")
"""The count after "最快" ("增长最快的两个地区": the top two)."""
_N_PERIODS_AFTER = patterns.compile(
    r"\s*的?\s*(?P<n>\d{1,3}|[一二两三四五六七八九十])\s*个?\s*(?P<u>天|日|周|星期|月|季度)(?:份)?"
)
"""The periods counted after "最快" ("环比增长最快的3个月": the three months of the series)."""
_AMPLITUDE = patterns.compile(r"(?<=[降跌涨升增长少加])的?幅度")
""""下降幅度最大": the word that measures a change in percent."""
_RATE_AT_AN_END = patterns.compile(
    r"(?:环比|同比)(?:增长率|增速|增幅|变化率)?的?\s*最(?:(?P<high>高|大|多)|(?P<low>低|小|少))|"
    r"\b(?:(?P<high_en>highest|top|best)|(?P<low_en>lowest|bottom|worst))\s+(?:mom|yoy|wow|qoq)\b",
    re.I,
)
""""GMV环比最高的品类", "同比最低的3个月", "highest yoy": the 环比 (同比) itself ranked — the
change in percent, never the value beside it."""


_MEASURE = patterns.compile(
    r"增长率|增速|增幅|涨幅|降幅|跌幅|\bgrowth(?: rate)?\b|\brates? of (?:growth|change)\b", re.I
)
"""Words naming a change as a measure ("上个月GMV增速", "growth rate"): they take no direction for granted."""


def _said(scan: Scan, cues: Cues, parts: tuple[str, ...] = ("up", "down", "change", "share")) -> list[str]:
    """The words the question's change readers claimed, as written."""
    return [scan.text[s:e] for part in parts for s, e in cues.spans.get(part, [])]


def said_direction(scan: Scan, cues: Cues, *, measures: bool = True) -> Literal["up", "down"] | None:
    """The one direction the question's change words say ("go down", "高了多少", "how much
    lower"; with ``measures``, "降幅最大" and "growth" too — a ranking's direction, never a
    premise); None when they say none or both ("涨了还是跌了", "higher or lower")."""
    said = _said(scan, cues)
    if not said and cues.contribution and cues.moved_before is not None:  # a follow-up's, of the move said before
        return cues.moved_before
    said = said if measures else [_MEASURE.sub(" ", w) for w in said]
    if any(_EITHER_WAY.search(w) for w in said):  # "is GMV up or down": the change, no direction asked
        return None
    rises = any(vocab.UP.search(w) or _RISE.search(w) for w in said)
    falls = any(vocab.DOWN.search(w) or _FALL.search(w) for w in said)
    return None if rises == falls else "up" if rises else "down"


_EITHER_WAY = patterns.compile(r"\b(?:up or down|down or up|higher or lower|lower or higher)\b", re.I)


def read_yes_no(scan: Scan, cues: Cues) -> None:
    """Whether the question asks yes or no ("…吗", "是不是", "did …"), and of every group ("都",
    "每个", "every") or of any ("有渠道…吗", "did any channel …")."""
    cues.yes_no = vocab.YES_NO.search(scan.norm) is not None
    cues.every = vocab.EVERY_ONE.search(scan.norm) is not None
    cues.any_group = vocab.ANY_GROUP.search(scan.norm) is not None and "都" not in scan.norm  # 都: every one


def premise_asked(cues: Cues, *, compared: bool, groups: bool, metrics: int) -> Literal["every", "any"] | None:
    """Whether a direction is asked as a yes/no ("6月GMV比5月高吗"), and of which groups: every one
    ("各渠道都…吗", "did every channel…") or any ("有渠道…吗", "did any channel…"); groups with neither
    said get no verdict, and nor does one direction said beside several metrics (of which?)."""
    if not (compared and cues.premise is not None and not cues.why and cues.yes_no) or metrics > 1:
        return None
    if not groups:
        return "every"
    if cues.any_group:
        return "any"
    return "every" if cues.every else None


_GOOD_MOVE = patterns.compile(r"\bimprov\w*|改善|好转|变好|^(?:更|较)?好", re.I)
"""A move said as good ("improved the most", "退款率改善"): up or down by the metric's ``better``."""
_BAD_MOVE = patterns.compile(
    r"变差|恶化|不如|不及|比不上|赶不上|差|^(?:那么|这么)?好$|\bworse\b|\bworsen\w*|\bdeteriorat\w*", re.I
)
"""A move said as bad ("退款率变差了", "不如去年", "worse than May"): read as a fall, which a metric
that is better lower turns round."""


def read_good_as_direction(scan: Scan, cues: Cues, better: str | None) -> None:
    """ "which region's refund rate improved the most": an improvement of a metric that is better
    lower is a fall — the premise and a ranking by the change turn round; of a metric that declares
    no ``better`` it is no direction at all (asked back, never guessed)."""
    said = _said(scan, cues, ("up", "down", "change"))
    if better == "higher" or not any(_GOOD_MOVE.search(w) or _BAD_MOVE.search(w) for w in said):
        return
    if better is None:
        cues.premise, cues.ranked_change = None, None
        return
    flipped = {"up": "down", "down": "up", None: None}
    cues.premise = flipped[cues.premise]  # type: ignore[assignment]
    if cues.ranked_change is not None:
        measure, order = cues.ranked_change
        cues.ranked_change = (measure, "asc" if order == "desc" else "desc")


def read_change_ranking(scan: Scan, cues: Cues) -> tuple[ChangeMeasure, Literal["asc", "desc"]] | None:
    """What a ranking by a change orders by and which way: ``("change", "asc")`` for "下降最多"
    (the most negative change first), ``("change_pct", "desc")`` for "增幅最大"; None when the
    question states no single direction, asks for the smallest change, or ranks by good and bad.
    Claims "最快" (a superlative of a rise) and "幅度" after a change word."""
    said = _said(scan, cues)
    direction = said_direction(scan, cues)
    if value_ranked_then_changed(scan, cues):
        return None  # "上个月GMV最高的区域，环比增长了多少": the top region by GMV, then its change
    fastest = scan.find_all(_FASTEST) if direction is not None else []
    if fastest:  # "增长最快的渠道", "fastest declining region": the largest rise (or fall), in percent
        cues.claim(scan, "ranking", fastest)
        cues.best = True
        periods = _N_PERIODS_AFTER.match(scan.norm, fastest[0].end()) if cues.top_n is None else None
        grain = vocab.PERIOD_UNITS[periods.group("u")] if periods is not None else None
        if periods is not None and scan.free(periods.start("n"), periods.end()) and cues.grain in (None, grain):
            cues.claim(scan, "which_time", [periods])  # "环比增长最快的3个月": the months ranked
            cues.grain, cues.which_time = grain, True  # type: ignore[assignment]
            cues.top_n = parse_cn_int(periods.group("n"))
        counted = _N_AFTER.match(scan.norm, fastest[0].end()) if cues.top_n is None else None
        if counted is not None and scan.free(counted.start("n"), counted.end()):  # "增长最快的两个地区"
            cues.claim(scan, "ranking", [counted])
            cues.top_n = parse_cn_int(counted.group("n"))
        if cues.top_n is None:
            read_which_n(scan, cues, fastest)
        cues.take(scan, "ranking", vocab.WHICH)
    if not (cues.best or cues.top_n is not None or cues.rank):
        return None
    at_an_end = _RATE_AT_AN_END.search(scan.norm)
    if at_an_end is not None and cues.rank_place is None and cues.quality is None:  # "环比最高的品类"
        cues.change = True  # the change is what is ranked
        return "change_pct", ("asc" if at_an_end.group("low") or at_an_end.group("low_en") else "desc")
    if direction is None:
        return None
    amplitude = cues.claim(scan, "change", scan.find_all(_AMPLITUDE))
    if cues.order != "desc" or cues.quality is not None or cues.rank_place is not None:
        return None  # "涨得最少", "表现最差", "降幅第二大": not read
    ranked = [scan.text[s:e] for s, e in cues.spans.get("ranking", [])]
    percent = bool(fastest or amplitude) or any(_PERCENT.search(w) for w in [*said, *ranked])
    return ("change_pct" if percent else "change"), ("asc" if direction == "down" else "desc")


_CLAUSE = patterns.compile(r"[，,;；]|\band\b|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])", re.I)
"""A clause break: a comma, "and", or a space between Chinese words ("最高的地区 同比变化多少")."""


def value_ranked_then_changed(scan: Scan, cues: Cues) -> bool:
    """ "上个月GMV最高的区域，环比增长了多少", "the region with the highest GMV last month, and how much did it
    grow": the superlative ranks the metric's value and the change is asked of the one it picks, in a
    clause of its own after it — never a ranking by the change."""
    ranking = sorted(cues.spans.get("ranking", []))
    moves = sorted(span for part in ("up", "down", "change") for span in cues.spans.get(part, []))
    if not ranking or not moves or moves[0][0] < ranking[-1][1]:
        return False
    start, end = ranking[0]
    of_value = any(e <= start and not scan.norm[e:start].strip(" 的") for _, e in scan.terms) or any(
        s >= end and re.fullmatch(r"\s*(?:the\s+)?", scan.norm[end:s]) for s, _ in scan.terms
    )
    return of_value and _CLAUSE.search(scan.norm, ranking[-1][1], moves[0][0]) is not None


_MOVE_ZH = r"(?:增长|上涨|上升|下降|下跌|减少|增加|涨|跌|降|升)"
_MOVE_EN = (
    r"(?:(?:grew|grow|grown|rose|risen|fell|fallen|dropped|declined|increased|decreased|went (?:up|down)|gone (?:up|down)"
    r"|gained|lost|improved|worsened|shrank|shrunk|slipped)(?!\s+short\s+of\s*[¥$]?\s*\d))"
)
_MOVE_BARE_EN = r"(?:grow|rise|fall|drop|decline|increase|decrease|go (?:up|down)|gain|shrink|improve|worsen|slip)"
"""A move after "did" ("which months did GMV fall")."""
_MOVE_NOUN_EN = r"(?:declines?|drops?|rises?|increases?|decreases?|growth|falls?|gains?|improvements?)"
_PERIOD_EN = (
    r"(?:(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr"
    r"|jun|jul|aug|sept?|oct|nov|dec|q[1-4]|h[12]|(?:19|20)\d\d)\b|last\s+(?:week|month|quarter|year)\b)"
)
"""A period said after "than" ("more orders in June than in May"): the groups kept by how they moved."""
_NOT_RANKED_EN = r"(?![^?.!]*\b(?:most|least|fastest|biggest|largest|smallest|highest|lowest|top|bottom)\b)"
_KEPT_BY_CHANGE = patterns.compile(
    rf"(?:{vocab.ONLY_THOSE_ZH}|[，,])\s*(?:环比|同比)?{_MOVE_ZH}了?的(?![幅速量比率原])"
    rf"|{_MOVE_ZH}了?的[^，,。？?]{{0,6}}有哪(?:些|几[个周天月]?)|{_MOVE_ZH}了?的\s*(?:月份|日子|那几天|那些天|那几周|那些月)\s*[?？。]?\s*$|(?:哪些|哪个|哪几个?[月周天]?)[^，,。？?]{{0,12}}?{_MOVE_ZH}了?(?:的\s*[?？]?\s*$|了|\s*[?？。]?\s*$)(?!多少|几|最)"
    rf"|(?:哪些|哪几个?[月周天]?)[^，,。？?]{{0,12}}?比[^，,。？?]{{0,6}}?(?:月|周|年|季度?|期|天|日)[^，,。？?]{{0,4}}?(?:[高低多]|(?<!多)少)(?:了(?!多少|几)|(?=\s*[?？。]?\s*$))"
    rf"|\bwhich (?:ones|[a-z]+s)\b[^?.!,]{{0,40}}?\b(?:higher|lower|more|fewer|less|bigger|smaller)\b[^?.!,]{{0,30}}?"
    r"\bthan (?:in )?(?:(?:the|a) (?:(?:previous|prior|preceding) (?:day|week|month|quarter|period)|(?:day|week|month|quarter) before)\b"
    rf"|{_PERIOD_EN}[^?.!,]{{0,20}}?(?:[?.!]|$))"
    rf"|\bonly (?:the )?(?:ones|those|groups|[a-z]+s) (?:that|which) {_MOVE_EN}\b"
    rf"|^\s*which(?: ones| of them)? {_MOVE_EN}\b{_NOT_RANKED_EN}"
    rf"|\bwhich (?:ones|[a-z]+s)\b[^?.!,]{{0,30}}?\b{_MOVE_EN}\b{_NOT_RANKED_EN}"
    rf"|\bwhich (?:ones|[a-z]+s)\b[^?.!,]{{0,30}}?\bdid\b[^?.!,]{{0,30}}?\b{_MOVE_BARE_EN}\b{_NOT_RANKED_EN}"
    rf"|\bwhich (?:ones|[a-z]+s)\b[^?.!,]{{0,30}}?\b(?:saw|had|see|have|showed|show)\b[^?.!,]{{0,30}}?\b{_MOVE_NOUN_EN}\b"
    rf"{_NOT_RANKED_EN}"
    rf"|\b(?:[a-z]+s|ones|those)\s+(?:where|when|whose|in which|that|which)\b[^?.!,]{{0,30}}?\b{_MOVE_EN}\b"
    rf"{_NOT_RANKED_EN}"
    rf"|\b(?:[a-z]+s|ones|those)\s+(?:where|whose|in which|that|which)\b[^?.!,]{{0,30}}?\b(?:saw|had|showed)\b"
    rf"[^?.!,]{{0,30}}?\b{_MOVE_NOUN_EN}\b{_NOT_RANKED_EN}",
    re.I,
)
"""Groups kept by the way they moved ("只看增长的", "哪些渠道环比下降了", "which channels grew"):
a filter on the change itself, which Baton does not apply — it is asked back, never dropped."""


_MOVED_BEFORE_A_GROUP = patterns.compile(
    # "the rising channels" (never "the fastest growing categories": a ranking, nor "growing orders": a metric)
    r"(?<!fastest )(?<!slowest )(?<!fastest-)(?<!quickest )(?<!most )(?<!least )"
    r"\b(?:rising|growing|increasing|declining|falling|dropping|shrinking|decreasing)\s+$|"
    rf"(?:{_MOVE_ZH}|降|升|下滑|走低|走高|变少|变多|增多|回落|回升|为负|为正)了?的\s*"
    r"(?:(?:\d+|[一二两三四五六七八九十]+)\s*个|哪些|哪几个|那些)?\s*$"
)


def kept_by_change_of_groups(scan: Scan, hits: Sequence[Hit]) -> AmbiguousQuestion | None:
    """ "上个月GMV环比下降的品类", "订单量同比上涨的区域": a move said right before a dimension word
    keeps the groups that moved that way — as :func:`kept_by_change` finds, which cannot know the
    catalog's dimension words."""
    for hit in hits:
        if "dimension" not in hit.kinds:
            continue
        found = _MOVED_BEFORE_A_GROUP.search(scan.norm, max(0, hit.start - 12), hit.start)
        if found is not None:
            phrase = scan.text[found.start() : hit.end]
            detail = {"reason": "kept_by_change", "phrase": phrase}
            return AmbiguousQuestion(*both("nlu.kept_by_change", phrase=phrase), detail=detail)
    return None


def kept_by_change(question: str) -> AmbiguousQuestion | None:
    """A question that keeps only the groups that rose or fell ("哪些渠道下降了"): answering every
    group, or only the largest rise and fall, would answer a different question — so the answer
    names those that moved, or the question is asked back (returned, raised by the planner). Read
    before the question's words are, so that a word left over ("哪些") never hides it."""
    found = _KEPT_BY_CHANGE.search(normalise(question))
    if found is None:
        return None
    phrase = question[found.start() : found.end()].strip("，, ")
    detail = {"reason": "kept_by_change", "phrase": phrase}
    return AmbiguousQuestion(*both("nlu.kept_by_change", phrase=phrase), detail=detail)


__all__ = [
    "kept_by_change",
    "kept_by_change_of_groups",
    "read_change_ranking",
    "read_good_as_direction",
    "said_direction",
]
