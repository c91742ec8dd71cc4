"""The operators of a question (a why and its premise, comparisons, change words, grain, share,
total, average, exclusion words, rankings and their direction, actions Baton does not take),
read before periods and catalog terms, each claiming its span."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from baton import patterns
from baton.contracts.common import LANGUAGES, Language
from baton.contracts.semantic import Grain
from baton.errors import AmbiguousQuestion
from baton.messages import both, text
from baton.nlu import vocabulary as vocab
from baton.nlu.bounds import Bound, read_bound
from baton.nlu.contribution import read_contribution, read_share_of_a_move
from baton.nlu.periods import PeriodCues
from baton.nlu.scan import Scan

ChangeMeasure = Literal["change", "change_pct"]
"""A change as an amount (for a rate: in points) or in percent."""


@dataclass
class Cues(PeriodCues):
    """The operators a question states."""

    premise: Literal["up", "down"] | None = None
    not_as: bool = False
    """"X不如Y", "X没有Y高": X is set below Y — compared, X the one asked about."""
    which_time: bool = False
    period_order: Literal["asc", "desc"] | None = None
    """The direction a ranking of periods says itself ("最少的一天", "bottom 5 days")."""
    trend: bool = False
    share: bool = False
    total: bool = False
    unit_currency: str | None = None
    """The currency a unit asked names ("多少万美元", "in rmb"): checked against the metrics'."""
    top_n: int | None = None
    rank_place: int | None = None
    place_asked: bool = False
    """The place of one named member is asked ("华南排第几", "where does web rank"): every member is
    ranked and the answer says where that one stands."""
    place_said: tuple[str, ...] = ()
    """The words that asked a place ("排第几", "排名", "where does … rank")."""
    place_bare: bool = False
    """A place said with no direction ("第二呢"): a follow-up keeps the previous ranking's."""
    order: Literal["desc", "asc"] = "desc"
    listed: Literal["desc", "asc"] | None = None
    """The order the question says the rows are listed in ("从低到高", "ascending", "highest first"),
    apart from which end a top N takes ("GMV前三的地区，从低到高排": the highest three, lowest first)."""
    best: bool = False
    contribution: str | None = None
    """The words of a part's contribution to one move ("哪个渠道对GMV下降贡献最大", "which channel
    contributed most to the decline"): the parts ranked by their change, an amount."""
    share_of_a_move: str | None = None
    """The words of each part's share of one move ("各渠道对GMV下降的贡献占比"): a contribution of every
    group, whose whole is no named member's own (checked once the query's groups are known)."""
    share_contributed: str | None = None
    """Share words that say 贡献 / contributed ("哪个渠道贡献最大"): beside a comparison and no change
    asked, of the value or of its change? (asked back by the planner, which knows the comparison)."""
    moved_before: Literal["up", "down"] | None = None
    """The way the previous question said its change went ("上个月GMV环比下降了多少"): the move a
    follow-up's contribution that says none is of ("哪个渠道贡献最大")."""
    both_ends: bool = False
    """The highest and the lowest are asked at once ("最高和最低的区域", "best and worst")."""
    several: bool = False
    """The highest (or lowest) groups are asked without saying how many ("哪些品类GMV最高",
    "最高的几个品类"): the whole ranking in that direction, never the first group alone."""
    rank: bool = False
    average: bool = False
    breakdown: bool = False
    distribution: bool = False
    quality: Literal["good", "bad"] | None = None
    separately: bool = False
    difference: bool = False
    """Two members are compared and the gap between them is asked ("华东比华南高多少")."""
    ratio: bool = False
    """The ratio of the first member to the second is asked ("华东是华南的几倍")."""
    members_apart: str | None = None
    """A follow-up sets members of one dimension against each other, both named ("华东是东北的几倍")
    or one against the previous answer's ("手机的订单量" then "比食品多吗", "is that higher than
    appliances?"): that dimension."""
    against_previous: bool = False
    """The follow-up named one side only; the other is the previous answer's member."""
    narrowed: frozenset[str] = frozenset()
    """Dimensions whose members an "only" word introduces ("只看app和小程序", "only East and North
    China"): beside another breakdown they filter it, one subset, never a second breakdown."""
    combination: bool = False
    """A ranking of combinations as a whole was asked for ("区域和品类组合")."""
    rank_within: str | None = None
    """The dimension inside whose groups a top N is taken ("每个渠道GMV最高的2个品类": channel)."""
    rank_each_period: bool = False
    """The top N is taken inside each period of the series ("每个月GMV最高的渠道")."""
    yes_no: bool = False
    """A yes/no question ("…超过1.5亿吗"): a bound on one total checks it."""
    any_group: bool = False
    """A yes/no said of any group ("有渠道…下降吗", "did any channel grow"): one is enough."""
    every: bool = False
    """Said of each group ("都", "每个", "every"): a yes/no checks each one."""
    all_of_them: Literal["sum", "each", "unsaid"] | None = None
    """ "所有渠道" in a yes/no: their sum ("加起来"), each one ("都"), or not said which."""
    value_ranked: bool = False
    """A superlative of the value picks the groups, and their change is asked after it ("GMV最高的区域，
    环比增长了多少"): ranked by the value, never by the change."""
    ranked_change: tuple[ChangeMeasure, Literal["asc", "desc"]] | None = None
    """A ranking by a change: what it orders by and which way ("下降最多": the change, lowest first)."""
    bound: Bound | None = None
    """Only the groups whose value passes it are asked for ("退款率超过5%的品类")."""
    action: bool = False
    advice: bool = False
    forecast: bool = False
    will_be: bool = False
    """ "能有多少", "会涨到": of a period still running, a forecast (decided once periods are read)."""
    exclusions: list[re.Match[str]] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    spans: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """The spans each operator claimed, by part ("why", "comparison", "grain:week", "top_n", …):
    a model's reading is checked word by word against what these words ask for."""

    def take(self, scan: Scan, part: str, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        """``scan.take`` that records the claimed spans under ``part``."""
        return self.claim(scan, part, scan.find_all(pattern))

    def comparison_spans(self) -> list[tuple[int, int]]:
        """The spans of the words that said a comparison of periods ("同比", "环比", "wow", "去年同期")."""
        parts = ("same_period_last_year", "previous_period", "two_years_earlier")
        return [span for part in parts for span in self.spans.get(part, [])]

    def claim(self, scan: Scan, part: str, found: Sequence[re.Match[str]], group: int = 0) -> list[re.Match[str]]:
        """Claim matches a reader chose (of those :meth:`Scan.find_all` gave) — their ``group`` —
        and record their spans under ``part``."""
        for m in found:
            scan.claim(m.start(group), m.end(group))
            self.spans.setdefault(part, []).append((m.start(group), m.end(group)))
        return list(found)


_IS_PART_OF = patterns.compile(r"是[^，。？?占]{1,12}?的\s*(百分之几|百分之多少|几成|多少成|多少(?=\s*[？?。]?\s*$))")
""" "华东GMV是华南的百分之多少", "是华南的几成", "是华南的多少": one member over the other, said in
percent — never each member's share of the total."""


def _right_after(said: re.Match[str], spans: list[tuple[int, int]], scan: Scan) -> bool:
    """Whether ``said`` follows one of ``spans`` with only spaces or "的" between ("wow %", "环比%")."""
    return any(e <= said.start() and not scan.norm[e : said.start()].strip(" 的") for _, e in spans)


def _ratio_said_as_part(scan: Scan, cues: Cues) -> bool:
    found = [m for m in _IS_PART_OF.finditer(scan.norm) if scan.free(m.start(1), m.end(1))]
    return bool(cues.claim(scan, "ratio", found, group=1))


def _average_per(scan: Scan, cues: Cues) -> Grain | None:
    """The period an average is per ("日均", "月均", "average monthly"), or said apart ("average
    orders per week"): its spans claimed. Two different ones are asked back."""
    said: dict[Grain, list[str]] = {}
    for grain, pattern in vocab.AVERAGE_PER.items():
        for m in scan.find_all(pattern):
            if scan.cuts_term(m.start(), m.end()):  # "monthly average order value": a series of AOV
                continue
            cues.claim(scan, f"average_per:{grain}", [m])
            said.setdefault(grain, []).append(scan.text[m.start() : m.end()])
    for m in scan.find_all(vocab.AVERAGE_APART):
        if any(start == m.end("avg") + 1 and scan.norm[m.end("avg")] == " " for start, _end in scan.averages):
            scan.claim(m.start("avg"), m.end("avg"))  # "average dep delay per month": the metric's own "average"
            continue
        if scan.free(m.start("per"), m.end("per")):
            grain = _UNIT_GRAIN[m.group("unit").lower()]
            for start, end in ((m.start(), m.end()), (m.start("per"), m.end("per"))):
                scan.claim(start, end)
                cues.spans.setdefault(f"average_per:{grain}", []).append((start, end))
            said.setdefault(grain, []).append(scan.text[m.start() : m.end()])
            break
    if len(said) > 1:  # "日均和月均GMV": one average at a time
        words = [w for found in said.values() for w in found]
        raise AmbiguousQuestion(*both("nlu.two_averages", words=", ".join(words)), detail={"words": words})
    return next(iter(said), None)


_UNIT_GRAIN: dict[str, Grain] = {"day": "day", "week": "week", "month": "month", "quarter": "quarter", "year": "year"}


def _broken_apart(scan: Scan, cues: Cues) -> bool:
    """ "break that day down by channel": the verb and its "down" claimed, the words between left
    to the readers of periods, pointers and catalog terms."""
    for verb in scan.find_all(vocab.BREAK_APART):
        down = next((d for d in scan.find_all(vocab.DOWN_BY) if d.start() > verb.end()), None)
        if down is not None:
            cues.claim(scan, "breakdown", [verb, down])
            return True
    return False


def claim_comparison_added(scan: Scan, cues: Cues, *, compared_already: bool) -> None:
    """ "带同比", "加上环比": the comparison said as an addition to a question that has none; added
    to one that has a comparison (a YoY, then "加上环比呢") it is two at once — asked back."""
    for start, end in cues.comparison_spans():
        added = vocab.WITH_BEFORE.search(scan.norm, 0, start)
        if added is None or not scan.free(added.start(), added.end()):
            continue
        if compared_already:
            words = [scan.text[added.start() : end]]
            raise AmbiguousQuestion(*both("nlu.two_comparisons", words=words[0]), detail={"words": words})
        cues.claim(scan, "comparison_added", [added])


def read_cues(scan: Scan, *, follows: bool = False, moved_before: Literal["up", "down"] | None = None) -> Cues:
    """The operators a question states, their spans claimed (``moved_before``: of a follow-up, the
    way the previous question said its change went)."""
    cues = Cues(moved_before=moved_before if follows else None)
    cues.action = bool(cues.take(scan, "action", vocab.ACTIONS))
    cues.advice = bool(cues.take(scan, "advice", vocab.ADVICE))
    cues.forecast = bool(cues.take(scan, "forecast", vocab.FORECAST))
    cues.will_be = bool(cues.take(scan, "will_be", vocab.WILL_BE))  # "今年GMV能有多少": a forecast if the year runs on
    for sold in scan.find_all(vocab.MOVED_GOODS):  # "how many orders did the app move": sold, never a change
        said_sold = any(s < sold.end("sold") and sold.start("sold") < e for s, e in scan.metrics)
        by_a_metric = any(sold.start("seller") <= s < sold.end("seller") for s, _ in scan.metrics)
        if said_sold and not by_a_metric:
            scan.claim(sold.start("verb"), sold.end("verb"))
    cues.why = bool(cues.take(scan, "why", vocab.WHY))
    added_up = scan.find_all(vocab.ADD_THEM_UP)  # "add them up": the verb and its "up", said as one
    for said in added_up:
        scan.claim(said.start(), said.end())
    if added_up:
        cues.spans.setdefault("total", []).append((added_up[0].start(), added_up[-1].end()))
    if cues.why:
        cues.take(scan, "why", vocab.WHY_LEVEL)
    cues.unsupported = [
        scan.text[m.start() : m.end()] for m in cues.take(scan, "unsupported", vocab.UNSUPPORTED_OPERATORS)
    ]
    cues.average_per = _average_per(scan, cues)
    # "比上月同期": the same days of the month before, read before "比上月" is taken for 环比
    if cues.take(scan, "week_earlier", vocab.SAME_DAY_LAST_WEEK):
        cues.earlier = "week"
    elif cues.take(scan, "month_earlier", vocab.SAME_DAYS_LAST_MONTH):
        cues.earlier = "month"
    elif two_years := cues.take(scan, "two_years_earlier", vocab.SAME_PERIOD_TWO_YEARS_BACK):
        before = two_years[0].group("before") or two_years[0].group("before2")
        cues.earlier = "two_years_before" if before else "two_years"
    for pattern, kind in ((vocab.YOY, "same_period_last_year"), (vocab.MOM, "previous_period")):
        taken = cues.take(scan, kind, pattern)
        # "同比和环比", "同比和前年同期比": one comparison at a time
        if taken and (cues.comparison_kind is not None or cues.earlier in ("two_years", "two_years_before")):
            words = [scan.text[s:e] for s, e in cues.comparison_spans()]
            raise AmbiguousQuestion(*both("nlu.two_comparisons", words=", ".join(words)), detail={"words": words})
        if taken:
            cues.comparison_kind = kind  # type: ignore[assignment]
            phrase = taken[0].group(0)
            cues.window = _window(phrase) if kind == "previous_period" else _window_said_the_same(phrase)
            cues.each_over = kind == "previous_period" and _OVER.search(taken[0].group(0)) is not None
    cues.bound = read_bound(scan, cues.spans, follows=follows)
    if cues.bound is not None:  # "GMV超过200万的日子", "which months": the periods it keeps; "哪些", "how many"
        read_kept_periods(scan, cues, "threshold")
        counted = {m.start() for m in scan.find_all(vocab.WHICH_N)}  # "which two …": a ranking's count
        cues.claim(scan, "threshold", [m for m in scan.find_all(vocab.THRESHOLD_GROUPS) if m.start() not in counted])
    cues.ratio = bool(cues.take(scan, "ratio", vocab.RATIO)) | _ratio_said_as_part(scan, cues)
    # "drop live stream", "drop the channel split": a verb with an object, not a fall
    starts = {start for start, _ in scan.terms}
    taking = [m for m in scan.find_all(vocab.EXCLUDE_VERB) if m.end() in starts]
    for m in taking:
        scan.claim(m.start(), m.end())
    cues.change = bool(cues.take(scan, "change", vocab.CHANGE_WORDS)) | _comparative_closing(scan, cues)
    not_as = _not_as_much(scan, cues)
    not_up = _not_up(scan, cues) if cues.why else []  # "哪些品类没有增长" keeps groups: not read here
    cues.change |= bool(not_up)
    directions = [
        d for pattern, d in ((vocab.UP, "up"), (vocab.DOWN, "down")) if _take_direction(scan, cues, pattern, d)
    ]
    directions += ["down"] if not_as and "down" not in directions else []
    if not_up and directions:  # "为什么GMV跌了，订单量没涨": which way for which metric is not placed
        cues.unsupported += not_up
    asked = cues.why or _YES_NO.match(scan.norm) is not None  # "was June GMV higher than May?"
    if asked and not directions and (compared := _comparative_direction(scan, cues)):
        directions = [compared]  # "4月GMV为什么比3月低": the premise is the comparative's
    cues.moved = bool(directions) or cues.change
    if len(directions) == 1:
        cues.premise = directions[0]  # type: ignore[assignment]
    elif directions:  # "先涨后跌", "up or down": a change, no premise
        cues.change = True
    if cues.premise is not None and not cues.why:
        cues.change, cues.premise = True, None  # "GMV 下降了" without a why asks for the change
    for pattern, grain in vocab.WHICH_TIME:
        if cues.take(scan, "which_time", pattern):
            cues.grain, cues.which_time = grain, True
    _read_top_periods(scan, cues)
    _read_period_noun(scan, cues)
    named = [grain for pattern, grain in vocab.GRAIN_CUES if cues.take(scan, f"grain:{grain}", pattern)]
    if cues.which_time and any(grain != cues.grain for grain in named):  # "每个月哪天GMV最高"
        assert cues.grain is not None
        raise rank_within_or_across(grain_labels(named[0], cues.grain), {"grain": [*named, cues.grain]})
    cues.grain = cues.grain or (named[0] if named else None)
    cues.trend = bool(cues.take(scan, "trend", vocab.TREND))
    cues.contribution = read_share_of_a_move(scan, cues, directions) or read_contribution(scan, cues, directions)
    shares = cues.take(scan, "share", vocab.SHARE)
    if any(m.group(0).startswith("贡献") for m in shares):  # "哪个渠道对GMV贡献最大": 对 is the contribution's
        cues.take(scan, "share", vocab.BY_A_PART)
    contributed = [m for m in shares if vocab.CONTRIBUTION_WORD.search(m.group(0))]
    cues.share_contributed = scan.text[contributed[0].start() : contributed[0].end()] if contributed else None
    # "what percent did GMV grow": a percentage of a change is the change, not a share
    wise = any(_PERCENT_WISE.search(m.group(0)) for m in shares)  # "percent-wise", beside any comparison
    percent_of_change = all(_PERCENT.fullmatch(m.group(0).strip()) for m in shares) and (
        cues.change
        or directions
        or all(_right_after(m, cues.comparison_spans(), scan) for m in shares)
        or (wise and (bool(cues.comparison_spans()) or _COMPARED.search(scan.norm) is not None))
    )
    cues.share = bool(shares) and not percent_of_change
    cues.total = bool(added_up) | bool(cues.take(scan, "total", vocab.TOTAL))
    for said in cues.take(scan, "cumulative", vocab.CUMULATIVE):  # "1-5月累计GMV": the period's total
        if cues.grain is not None or cues.trend:
            cues.unsupported.append(scan.text[said.start() : said.end()])  # a running total of a series
        else:
            cues.total = True
            if scan.norm.endswith("历史", 0, said.start()):  # "历史累计": all time, read with the periods
                scan.release(said.start(), said.end())
    cues.average = bool(cues.take(scan, "average", vocab.AVERAGE))
    cues.breakdown = bool(cues.take(scan, "breakdown", vocab.BREAKDOWN)) | _broken_apart(scan, cues)
    cues.distribution = bool(cues.take(scan, "distribution", vocab.DISTRIBUTION))
    cues.breakdown |= cues.distribution
    cues.combination = bool(cues.take(scan, "combination", vocab.COMBINATION))
    cues.separately = bool(cues.take(scan, "separately", vocab.SEPARATELY))
    for placed in vocab.PLACED_AS_A_VERB.finditer(scan.norm):
        if scan.free(placed.start("verb"), placed.end("verb")):
            scan.claim(placed.start("verb"), placed.end("verb"))
    members = {start for start, _ in scan.members}
    for m in taking:
        scan.release(m.start(), m.end())
    cues.exclusions = scan.find_all(vocab.EXCLUDE_BEFORE) + [m for m in taking if m.end() in members]
    if follows:  # "the one with the lowest share": its "one" points at a row the previous answer listed
        for m in scan.find_all(vocab.THE_ONE_WITH):
            scan.claim(m.start("one"), m.end("one"))
    return cues


def contribution_of_value_or_change(said: str) -> AmbiguousQuestion:
    """ "上个月延误航班数环比，哪个机场贡献最大" (p74): the largest part of the value, or of its change?"""
    return AmbiguousQuestion(
        *both("nlu.contribution_value_or_change", said=said), detail={"reason": "contribution_value_or_change"}
    )


def read_kept_periods(scan: Scan, cues: Cues, part: str) -> None:
    """The periods a bound keeps ("GMV超过200万的日子"), or those named for how they moved ("今年哪几个月
    GMV环比下降了", "which months did GMV fall"), named as such: the series' grain, claimed as
    ``part``. Periods of two grains ("每周GMV超过500万的月份") are left unread, and so asked back as
    words not understood."""
    said = [m for m in scan.find_all(vocab.BOUND_PERIODS) if not _PERIOD_BEFORE.search(scan.norm[: m.start()])]
    said += scan.find_all(vocab.PERIOD_AFTER_WHICH)
    grains = {_period_grain((m.group("zh") or m.group("en")).lower()) for m in said}
    grains |= {grain for pattern, grain in vocab.GRAIN_CUES if scan.find_all(pattern)}
    if not said or len(grains) != 1:
        return
    cues.claim(scan, part, said)
    cues.grain = grains.pop()


_PERIOD_BEFORE = patterns.compile(
    r"(?:\d|[一二两三四五六七八九十几上下本这今去前近]|\b(?:last|past|next|previous|first|these|those|the)\s*)\s*$",
    re.I,
)
"""Words that make a period word part of a period ("last 3 months", "6月份", "上个月"), not what a bound keeps."""


def _period_grain(word: str) -> Grain:
    """The grain of a period word ("哪几天", "几个月", "weeks", "dates")."""
    english: dict[str, Grain] = {"day": "day", "date": "day", "week": "week", "month": "month", "quarter": "quarter"}
    grains = [g for key, g in (*english.items(), *vocab.BOUND_PERIOD_GRAINS.items()) if key in word]
    return grains[0]


def rank_within_or_across(labels: Callable[[Language], list[str]], detail: dict[str, object]) -> AmbiguousQuestion:
    """A ranking over two keys ("各区域GMV最高的品类", "每个月哪天GMV最高"): the top of each group,
    or of the combinations as a whole? Baton ranks combinations only, so it asks, naming the keys
    (``labels``: their names in a language)."""
    return AmbiguousQuestion(
        *(text("nlu.rank_within_or_across", lang, keys=" × ".join(labels(lang))) for lang in LANGUAGES),
        detail={**detail, "reason": "rank_per_group"},
    )


def grain_labels(*grains: str) -> Callable[[Language], list[str]]:
    return lambda language: [text(f"answer.grain_{g}", language) for g in grains]


def _read_period_noun(scan: Scan, cues: Cues) -> None:
    """ "GMV最高的月份", "排名第二的一天", "the lowest week": a period noun right after a ranking
    word is what is ranked (the ranking words themselves are read with the others) — each one
    ("最高的月份和最低的月份"), all of one grain."""
    for ranking in [*scan.find_all(vocab.SUPERLATIVE), *scan.find_all(vocab.RANK_PLACE)]:
        noun = vocab.PERIOD_NOUN.match(scan.norm, ranking.end())
        term_end = next((end for start, end in scan.terms if scan.norm[ranking.end() : start].strip() == ""), None)
        if noun is None and term_end is not None:  # "the lowest GMV day": the metric between
            noun = vocab.PERIOD_NOUN.match(scan.norm, term_end)
            noun = noun if noun is not None and noun.group("en") else None
        if noun is None or not scan.free(noun.start(), noun.end()):
            continue
        grain: Grain = vocab.PERIOD_NOUNS[(noun.group("zh") or noun.group("en")).lower()]  # type: ignore[assignment]
        if cues.grain not in (None, grain):
            raise rank_within_or_across(grain_labels(cues.grain, grain), {"grain": [cues.grain, grain]})
        cues.claim(scan, "which_time", [noun])
        cues.grain, cues.which_time = grain, True


def _read_top_periods(scan: Scan, cues: Cues) -> None:
    """ "GMV最高的3个月", "订单最少的一天", "top 5 days": a ranking of the series' periods, its
    unit the grain (read before periods, so "3个月" is never read as a length of time). "Which 3
    months" ranks only with a superlative after it; without one its words are left unplaced."""
    found = scan.find_all(vocab.TOP_N_PERIODS)
    superlative = scan.find_all(vocab.SUPERLATIVE)
    found = [m for m in found if not m.group("which") or any(s.start() >= m.end() for s in superlative)]
    if not found:
        return
    if len(found) > 1:
        raise AmbiguousQuestion(*both("nlu.two_rankings"), detail={"rankings": [m.group(0) for m in found]})
    m = found[0]
    unit = (m.group("u_zh") or m.group("u_en") or m.group("u_which")).lower().lstrip("个").rstrip("s")
    grain: Grain = vocab.PERIOD_UNITS[unit]  # type: ignore[assignment]
    if cues.grain not in (None, grain):  # "每月…最高的3天"
        raise AmbiguousQuestion(*both("nlu.two_rankings"), detail={"rankings": [m.group(0)]})
    cues.claim(scan, "which_time", [m])
    cues.grain, cues.which_time = grain, True
    cues.top_n = _number(m.group("n") or m.group("en") or m.group("which"))
    word = (m.group("best_zh") or m.group("dir") or "").lower()
    if word in {"best", "worst"}:  # which end is best follows the metric ("best 3 weeks" of refunds: the lowest)
        cues.quality = "good" if word == "best" else "bad"
    elif word:
        low = {"最低", "最小", "最少", "bottom", "lowest", "smallest", "fewest", "least"}
        cues.period_order = "asc" if word in low else "desc"


def read_ranking(scan: Scan, cues: Cues) -> None:
    """Top/bottom N, "rank …", best/worst; two rankings in one question are asked back."""
    high_to_low, low_to_high = (
        cues.take(scan, "ranking", vocab.HIGH_TO_LOW),
        cues.take(scan, "ranking", vocab.LOW_TO_HIGH),
    )
    lowest = bool(scan.find_all(vocab.ASCENDING))  # an end word ("最低", "bottom"), not a listing order
    ascending = bool(low_to_high) or (not high_to_low and lowest)
    cues.order = cues.period_order or ("asc" if ascending else "desc")
    quality = scan.find_all(vocab.QUALITY)
    if quality:
        cues.quality = "good" if vocab.GOOD.search(quality[0].group(0)) else "bad"
    placed = cues.take(scan, "ranking", vocab.PLACE_OF_MEMBER)
    cues.place_asked, cues.place_said = bool(placed), tuple(m.group(0) for m in placed)
    if any(m.group(0).startswith("倒数") for m in placed):  # "东北订单量倒数第几": counted from the lowest
        cues.period_order = "asc"
    _read_place(scan, cues)
    widest = vocab.WIDEST_GAP.search(scan.norm)  # whoever read its gap word
    if widest is not None and not (
        vocab.YOY.search(scan.norm) or vocab.MOM.search(scan.norm) or _COMPARED.search(scan.norm)
    ):  # "差距最大的是哪两个区域": the pair furthest apart, never the top two
        gap = scan.text[widest.start() : widest.end()]
        raise AmbiguousQuestion(*both("nlu.widest_gap", said=gap), detail={"reason": "widest_gap", "said": gap})
    rankings = cues.take(scan, "ranking", vocab.TOP_N)
    # "最高的3个月" (read with the cues), or a place at the other end ("前两名和最后一名", "榜首和后两名");
    # at the same end it is the ranking's own first ("前5的品类中排第一的")
    place_end = None if cues.top_n is None or cues.which_time else cues.order
    ends = {_end_of(m, lowest=lowest) for m in rankings}
    ranked_already = cues.top_n is not None and (cues.which_time or place_end not in ends)
    if len(rankings) > 1 or (rankings and (cues.rank_place is not None or ranked_already)):
        raise AmbiguousQuestion(*both("nlu.two_rankings"), detail={"rankings": [m.group(0) for m in rankings]})
    ends_apart = [
        b
        for b in scan.find_all(vocab.BEST)
        for r in rankings
        if _listed_apart(scan, b, r) and _word_end(b.group(0)) not in (None, _end_of(r, lowest=False))
    ]
    # "最低的品类和前三名", "the top category and the bottom 3": an end, and a top N beside it (其中 and a
    # gap between them are asked back by name below)
    set_against = vocab.AMONG_THEM.search(scan.norm) or vocab.GAP.search(scan.norm)
    if ends_apart and not set_against:
        raise AmbiguousQuestion(
            *both("nlu.two_rankings"), detail={"rankings": [ends_apart[0].group(0), rankings[0].group(0)]}
        )
    for m in rankings:
        groups = {k: v for k, v in m.groupdict().items() if v}
        raw = next(groups[k] for k in ("n", "n2", "n3", "en", "bottom", "en2", "en3") if k in groups)
        cues.top_n = _number(raw)
        word = (groups.get("best_zh") or groups.get("best") or groups.get("best2") or "").lower()
        if word or "n3" in groups or "bottom" in groups:
            ascending = word in {"最低", "最小", "最少", "最差", "lowest", "smallest", "least", "worst", "fewest"}
            cues.order = "asc" if ascending or "n3" in groups or "bottom" in groups else "desc"
        elif (high_to_low or low_to_high) and cues.period_order is None:
            # "前三…从低到高排": 前N / top N take the highest unless an end word says otherwise; the
            # listing words only order the rows shown
            cues.order = "asc" if lowest else "desc"
    if high_to_low or low_to_high:  # the listing said; the parser sets it apart from the end taken
        cues.listed = "asc" if low_to_high else "desc"
    if not rankings:
        read_which_n(scan, cues)
    cues.rank = bool(cues.take(scan, "ranking", vocab.RANK) or high_to_low or low_to_high or cues.place_asked)
    best = cues.claim(scan, "ranking", [m for m in scan.find_all(vocab.BEST) if not _said_against_something(scan, m)])
    which = scan.find_all(vocab.WHICH)
    closing = scan.find_all(vocab.WHICH_MORE)
    candidates = _OR_CANDIDATES.search(scan.norm) is not None and vocab.COMPARE.search(scan.norm) is None
    english = which and which[0].group(0).lower().startswith("which") and candidates  # "…, app or web?"
    closing = [m for m in closing if m.group("word") or english]
    if which and closing and cues.top_n is None and not best and closing[0].start() >= which[0].end():
        cues.claim(scan, "ranking", closing[:1])
        word = closing[0].group("word") or closing[0].group("en").lower()
        cues.best, cues.order = True, "asc" if word in ("低", "少", "小", "fewer", "less") else "desc"
    if best and cues.rank_place is not None:  # "哪个区域退款率最低，第二低的是谁": the lowest and the second
        raise AmbiguousQuestion(*both("nlu.two_rankings"), detail={"rankings": [m.group(0) for m in best]})
    if cues.top_n is None and best:
        cues.best = True
        several = cues.take(scan, "ranking", vocab.SEVERAL)
        cues.several = cues.several or bool(several) or any(m.group(0) in vocab.SEVERAL_WHICH for m in which)
        said = {m.group(0).lower() for m in best}
        if said & _HIGH_END and said & _LOW_END:  # both ends: the whole ranking, highest first
            cues.both_ends, cues.rank, cues.order, cues.quality = True, True, "desc", None
        elif (high_to_low or low_to_high) and cues.period_order is None:  # "GMV最高的几个品类，升序"
            cues.order = "asc" if said & _LOW_END else "desc"
    if cues.top_n is not None or cues.rank_place is not None or cues.best or cues.rank:
        cues.take(scan, "ranking", vocab.WHICH)
    if cues.which_time and cues.top_n is None and cues.rank_place is None and not cues.both_ends:
        cues.top_n = 1


_COMPARED = patterns.compile(r"同比|环比|\b(?:vs\.?|versus|compared|than)\b", re.I)
"""Another period said: a gap "最大" may be a change ranked ("哪个渠道环比差距最大"), not a pair apart."""
_CLOSING_COMPARATIVE = patterns.compile(
    r"(?<![多几比较最])(?<!变化|变动|波动|差距|差异|差别|幅度)(?:更|较)?[高低多少大小好差](?:一些|一点|了)?(?:这么多|那么多)?(?:吗|么|没有?)?\s*[?？。]?\s*$"
)


def _comparative_closing(scan: Scan, cues: Cues) -> bool:
    """ "6月GMV比5月高吗", "华东的GMV比华南更高吗": a comparative closing a clause that set one thing
    against another with 比 asks for the comparison (of the periods, or of the members: both shown)."""
    m = scan.find_all(_CLOSING_COMPARATIVE)
    if not m or not vocab.AGAINST_BY_BI.search(_clause_before(scan, m[-1].start())):
        return False
    cues.claim(scan, "change", m[-1:])
    return True


_THAN_A_NUMBER = patterns.compile(r"[^.?!]{0,40}?\bthan\s+[¥￥$]?\s*\d", re.I)
_EN_COMPARATIVE = patterns.compile(
    r"\b(?:(?P<up>higher|more|bigger|larger|greater)|(?P<down>lower|less|fewer|smaller))\b(?=[^.?!]{0,40}\bthan\b)",
    re.I,
)


def _not_up(scan: Scan, cues: Cues) -> list[str]:
    """Claim "没涨" / "didn't … grow" (see :data:`vocabulary.NOT_UP`); the words said."""
    said = []
    for m in vocab.NOT_UP.finditer(scan.norm):
        groups = [g for g in ("zh", "neg", "verb") if m.group(g)]
        if all(scan.free(m.start(g), m.end(g)) for g in groups):
            for g in groups:
                cues.claim(scan, "change", [m], group=m.re.groupindex[g])
            said.append(" … ".join(scan.text[m.start(g) : m.end(g)] for g in groups))
    return said


def _comparative_direction(scan: Scan, cues: Cues) -> Literal["up", "down"] | None:
    """The direction a comparative says in a why ("为什么比3月低", "why was June GMV higher than May"):
    the first thing named against the second — the premise the analysis checks against the data."""
    closing = _closing_said(scan, cues)
    if closing is not None:
        return closing
    found = _en_comparative(scan, unclaimed=True)
    if found is None:
        return None
    cues.claim(scan, "change", [found])
    cues.change = True  # "why is AOV lower in June than May": June set against May
    return "up" if found.group("up") else "down"


_OR_CANDIDATES = patterns.compile(r"\S\s+or\s+\S", re.I)
"""Candidates named with "or" ("which had more orders, app or web?"): "more" / "fewer" ranks them."""


def closing_direction(scan: Scan, cues: Cues) -> Literal["up", "down"] | None:
    """The direction a yes/no comparison asks ("6月GMV比5月高吗": higher; "was June lower than
    May?": lower), read from the comparative it closes with; None when it says none or several."""
    closing = _closing_said(scan, cues)
    if closing is not None:
        return closing
    found = _en_comparative(scan, unclaimed=False)
    return None if found is None else "up" if found.group("up") else "down"


def claim_comparative(scan: Scan, cues: Cues) -> None:
    """ "which months had a higher refund rate than the month before": the comparative names the way
    the kept groups moved (the premise read), claimed as such."""
    found = _en_comparative(scan, unclaimed=True)
    if found is not None:
        cues.claim(scan, "change", [found])


def _en_comparative(scan: Scan, *, unclaimed: bool) -> re.Match[str] | None:
    """The one English comparative before a "than" ("higher … than May"), or None: none, several, or
    one before a number ("is GMV higher than 40m": a bound, read as one). ``unclaimed``: only words
    no reader has claimed yet."""
    found = [m for m in _EN_COMPARATIVE.finditer(scan.norm) if not unclaimed or scan.free(m.start(), m.end())]
    if len(found) != 1 or _THAN_A_NUMBER.match(scan.norm, found[0].end()):
        return None
    return found[0]


def _closing_said(scan: Scan, cues: Cues) -> Literal["up", "down"] | None:
    """The direction of a closing comparative already claimed ("比3月低", "更高吗")."""
    said = cues.spans.get("change", [])
    closing = next((scan.norm[s:e] for s, e in said if _CLOSING_COMPARATIVE.fullmatch(scan.norm, s, e)), None)
    if closing is None:
        return None
    adjective = re.sub(r"[这那]么多", "", closing)  # "低这么多": lower, by so much
    return "up" if re.search(r"[高多大好]", adjective) else "down"  # 好 / 差: by the metric's better (change_words)


_NOT_AS = patterns.compile(
    r"(?P<no>不如(?!\s*(?:看看|看|查查|查|先|直接|就|来|说说|试试))|不及|比不上|赶不上)"
    r"|(?<!有)(?P<not>没有|没)(?=[^，,。？?]{1,12}?(?:那么|这么)?[高好多大]\s*(?:吗|么|呢|吧)?\s*[?？。]?\s*$)"
)
_NOT_AS_ADJ = patterns.compile(r"(?:那么|这么)?[高好多大](?=\s*(?:吗|么|呢|吧)?\s*[?？。]?\s*$)")


def _not_as_much(scan: Scan, cues: Cues) -> bool:
    """ "今年618期间GMV不如去年", "5月GMV没有4月高": the first set below the second — its fall
    against it (a "没有…好" of a metric that is better lower turns round: see change_words)."""
    found = scan.find_all(_NOT_AS)
    if len(found) != 1:
        return False
    words = found[:1]
    if found[0].group("not"):
        adjective = [a for a in scan.find_all(_NOT_AS_ADJ) if a.start() > found[0].end()]
        if not adjective:
            return False
        words.append(adjective[-1])
    cues.claim(scan, "down", words)
    cues.not_as = cues.first_is_asked = True
    return True


def _take_direction(scan: Scan, cues: Cues, pattern: re.Pattern[str], part: str) -> bool:
    """Claim the words of one direction; a bare "up"/"down" counts only right after what moved (a
    catalog term: "app sales up last month?") or in a yes/no question ("is GMV up this year"), never
    in "can you look it up for june"."""
    return bool(cues.claim(scan, part, [m for m in scan.find_all(pattern) if not _loose_up_or_down(scan, m)]))


_YES_NO = patterns.compile(r"^\s*(?:is|are|was|were|has|have|had|did|does|do)\b", re.I)


def _loose_up_or_down(scan: Scan, m: re.Match[str]) -> bool:
    if m.group(0).lower() not in ("up", "down") or _YES_NO.match(scan.norm):
        return False
    before = len(scan.norm[: m.start()].rstrip())
    return not any(end == before for _, end in scan.terms)


def _said_against_something(scan: Scan, m: re.Match[str]) -> bool:
    """A comparative set against something in its clause ("比上个月更高的品类", "regions with a higher
    refund rate than last month"): a comparison, never a ranking word; left unread, so asked back
    unless a comparison reader places it."""
    word = m.group(0).lower()
    if not (word.startswith(("更", "较")) or word.endswith("er")):
        return False
    if re.search(r"\bhow (?:much|many)\s*$", scan.norm[: m.start()]):  # "how much higher …": a gap, read so
        return False
    after = vocab.CLAUSE_BREAK.split(scan.norm[m.end() :])[0]
    return (
        vocab.AGAINST_BY_BI.search(_clause_before(scan, m.start())) is not None
        or re.search(r"\bthan\b", after) is not None
    )


def _clause_before(scan: Scan, start: int) -> str:
    """The words of the clause up to ``start``."""
    return vocab.CLAUSE_BREAK.split(scan.norm[:start])[-1]


_HIGH_END = {
    "最高",
    "最大",
    "最多",
    "最狠",
    "最猛",
    "最凶",
    "最厉害",
    "最好",
    "highest",
    "largest",
    "biggest",
    "most",
    "best",
    "top",
}
_LOW_END = {"最低", "最小", "最少", "最差", "lowest", "smallest", "least", "fewest", "worst", "bottom"}


_LISTED_APART = patterns.compile(r"和|与|及|以及|、|[，,;；]|\band\b|\bplus\b", re.I)


def _listed_apart(scan: Scan, end: re.Match[str], ranking: re.Match[str]) -> bool:
    """Whether an end word and a top N are two things listed ("最低的品类和前三名"), never one
    ranking said in two words ("最低的前三个品类", "the 3 lowest")."""
    first, second = sorted((end, ranking), key=lambda m: m.start())
    return first.end() <= second.start() and _LISTED_APART.search(scan.norm, first.end(), second.start()) is not None


def _word_end(word: str) -> Literal["asc", "desc"] | None:
    """The end a superlative names ("最高": the highest first; "lowest"), None for a comparative."""
    said = word.lower().strip()
    return "desc" if said in _HIGH_END else "asc" if said in _LOW_END else None


def _end_of(ranking: re.Match[str], *, lowest: bool) -> Literal["asc", "desc"]:
    """The end a top N is counted from: its own end word ("最低的3个", "bottom 3", "倒数3名"), else
    the lowest when an end word elsewhere says so ("最低的前三"), else the highest."""
    groups = {k: v for k, v in ranking.groupdict().items() if v}
    word = (groups.get("best_zh") or groups.get("best") or groups.get("best2") or "").lower()
    if "n3" in groups or "bottom" in groups or word in _LOW_END:
        return "asc"
    return "desc" if word else ("asc" if lowest else "desc")


def _read_place(scan: Scan, cues: Cues) -> None:
    """ "排名第二的渠道", "倒数第二", "the second highest": one place of a ranking (the first place
    is a top 1); two places in one question are asked back."""
    places = cues.take(scan, "ranking", vocab.RANK_PLACE)
    if len(places) > 1:
        raise AmbiguousQuestion(*both("nlu.two_rankings"), detail={"rankings": [m.group(0) for m in places]})
    if not places:
        return
    groups = {k: v for k, v in places[0].groupdict().items() if v}
    if "first" in groups:  # "榜首的渠道": the highest
        cues.order, cues.top_n = "desc", 1
        return
    if "last" in groups:  # "最后一名的区域": the lowest
        cues.order, cues.top_n = "asc", 1
        return
    raw = next(
        groups[k]
        for k in ("zh", "zh2", "zh3", "zh4", "zh5", "zh6", "en", "en2", "en3", "en4", "en5", "en6", "en8")
        if k in groups
    ).lower()
    ordinal = raw[-2:] in {"st", "nd", "rd", "th"} and raw[:-2].isdigit()  # "10th", never "第100"'s "1"
    place = vocab.EN_PLACES.get(raw) or (int(raw[:-2]) if ordinal else _number(raw))
    word = (groups.get("dir_zh") or groups.get("dir_en") or groups.get("dir_en2") or "").lower()
    low = "bottom" in groups or word in {"低", "小", "少", "lowest", "smallest", "least", "fewest"}
    cues.order = "asc" if low else "desc"
    # "第三个呢", "第二个的退款率", "the third one('s)": a row the previous ranking listed, in its way
    cues.place_bare = bool({"zh5", "zh6", "en3", "en5", "en8"} & set(groups))
    if place == 1:
        cues.top_n = 1
    else:
        cues.rank_place = place


def read_which_n(scan: Scan, cues: Cues, superlative: Sequence[re.Match[str]] | None = None) -> None:
    """ "Which 2 regions had the lowest …", "the 3 categories with the highest …": the count is a
    top N when a superlative follows it (its direction is read with the other ranking words;
    ``superlative``: one read elsewhere, "grew fastest"); without one it is left unplaced."""
    which_n = scan.find_all(vocab.WHICH_N) or scan.find_all(vocab.THE_N_WITH)
    superlative = scan.find_all(vocab.SUPERLATIVE) if superlative is None else superlative
    if len(which_n) != 1 or not superlative:
        return
    # "which 2 … lowest" (English: the superlative after); Chinese says it either way ("最高的是哪两个渠道")
    if superlative[0].start() < which_n[0].end() and not which_n[0].groupdict().get("zh"):
        return
    (m,) = cues.claim(scan, "ranking", which_n)
    cues.top_n = _number(m.group("en") or m.group("zh"))


_PERCENT_WISE = patterns.compile(r"wise|terms", re.I)
_PERCENT = patterns.compile(r"%|％|percent(?:age)?(?:[- ]?wise|\s+terms)?|百分之多少|百分之几|百分比", re.I)
_WINDOW = patterns.compile(
    r"(?P<n>\d+|[一二两三四五六七八九十]+|two|three|four|five|six|seven|eight|nine|ten|fourteen|thirty)\s*个?\s*"
    r"(?P<u>天|日|周末|周|星期|月|季度|年|days?|weekends?|weeks?|months?|quarters?|years?)"
    r"|\b(?:the|a)\s+(?:previous\s+|prior\s+|preceding\s+)?(?P<one>day|weekend|week|month|quarter|year)\b",
    re.I,
)
_UNITS = {
    "天": "day",
    "日": "day",
    "周末": "weekend",
    "周": "week",
    "星期": "week",
    "月": "month",
    "季度": "quarter",
    "年": "year",
}


_OVER = patterns.compile(
    r"(?P<u>日|周|月|季)度?环比|\b(?:(?P<en>week|month|quarter)[- ]over[- ](?:week|month|quarter)|(?P<ab>wow|mom|qoq))\b",
    re.I,
)
"""The "X over X" words vocabulary.MOM reads that name the period's length."""
_OVER_UNITS = {
    "日": "day",
    "周": "week",
    "月": "month",
    "季": "quarter",
    "wow": "week",
    "mom": "month",
    "qoq": "quarter",
}


def _window(said: str) -> tuple[int, str] | None:
    """The length a previous-period phrase names ("前7天" → 7 days, "周环比" → one week, "the
    weekend before" → one weekend), if it names one."""
    over = _OVER.search(said)
    if over is not None:
        unit = (over.group("u") or over.group("en") or over.group("ab")).lower()
        return 1, _OVER_UNITS.get(unit, unit)
    found = _WINDOW.search(said)
    if found is None:
        return None
    if found.group("one"):  # "the week before", "the previous weekend": one of them
        return 1, found.group("one").lower()
    unit = found.group("u").lower()
    raw = found.group("n").lower()
    n = {"fourteen": 14, "thirty": 30}.get(raw) or _number(raw)
    return n, _UNITS.get(unit, unit.rstrip("s"))


def _window_said_the_same(said: str) -> tuple[int, str] | None:
    """The length "the same 3 months last year" names (checked against the period asked: "the
    last 7 days vs the same 14 days last year" is no same period), if it names one."""
    same = _SAME_LENGTH.search(said)
    return _window(same.group(1)) if same is not None else None


_SAME_LENGTH = patterns.compile(r"\bsame\s+(\w+\s+(?:days?|weeks?|months|quarters))\b", re.I)


def _number(raw: str) -> int:
    if raw.isdigit():
        return int(raw)
    if raw in vocab.CN_DIGITS:
        return vocab.CN_DIGITS[raw]
    if raw.lower() in vocab.EN_NUMBERS:
        return vocab.EN_NUMBERS[raw.lower()]
    from baton.nlu.cn_numerals import parse_cn_int

    return parse_cn_int(raw)


__all__ = ["ChangeMeasure", "Cues", "read_cues", "read_ranking", "read_which_n"]
