"""The rule-based planner: a question in Chinese or English -> SemanticQuery.

It works with no LLM. Order of work: time expressions first (they contain digits and words
that look like other things), then grain, comparison and top-N cues, then catalog terms,
then whatever is left. A question without a metric or without a time range is asked back
(clarification), never guessed; a metric-like word the catalog does not know is refused with
the closest catalog metrics named; nothing is run in either case.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from difflib import SequenceMatcher

from baton.catalog.model import Catalog
from baton.contracts.common import Language
from baton.contracts.semantic import Comparison, Grain, MemberFilter, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion, InvalidInput, UnknownMetric
from baton.messages import both
from baton.messages import text as message
from baton.nlu import timeexpr
from baton.nlu.gate import check_question, detect_language
from baton.nlu.lexicon import Hit, Lexicon, normalise

_LANGUAGES: tuple[Language, ...] = ("en", "zh")
"""The order of a :class:`~baton.errors.BatonError`'s two messages."""

_GRAIN_CUES: tuple[tuple[str, Grain], ...] = (
    (r"按天|按日|每天|每日|逐日|日度|分天|\bdaily\b|\bby day\b|\bper day\b|\beach day\b|\bday by day\b", "day"),
    (r"按周|每周|逐周|周度|分周|\bweekly\b|\bby week\b|\bper week\b|\beach week\b|\bweek by week\b", "week"),
    (r"按月|每月|逐月|月度|分月|\bmonthly\b|\bby month\b|\bper month\b|\beach month\b|\bmonth by month\b", "month"),
    (
        r"按季度|按季|每季度|每个季度|逐季|季度别|\bquarterly\b|\bby quarter\b|\bper quarter\b|\beach quarter\b",
        "quarter",
    ),
    (r"按年|每年|逐年|年度别|\byearly\b|\bannually\b|\bby year\b|\bper year\b|\beach year\b", "year"),
)
_TREND = re.compile(r"趋势|走势|变化情况|曲线|\btrends?\b|\bover time\b", re.IGNORECASE)
_YOY = re.compile(
    r"同比|去年同期|上年同期|\byoy\b|year[- ]over[- ]year|same period last year|vs\.? last year|compared (?:with|to) last year",
    re.IGNORECASE,
)
_MOM = re.compile(
    r"环比|上月同期|上期|\bmom\b|\bwow\b|\bqoq\b|month[- ]over[- ]month|week[- ]over[- ]week|quarter[- ]over[- ]quarter|"
    r"period[- ]over[- ]period|(?:vs\.?|versus|compared (?:with|to)) (?:the )?(?:previous|prior) (?:period|month|week|quarter)|"
    r"比上(?:个)?(?:月|周|季度|期)|较上(?:个)?(?:月|周|季度|期)|与上(?:个)?(?:月|周|季度|期)(?:相比|对比)",
    re.IGNORECASE,
)
_SHARE = re.compile(r"占比|份额|构成|比重|\bshare\b|\bproportion\b|\bbreakdown of\b|\bmix\b", re.IGNORECASE)
_WHY = re.compile(r"为什么|为何|原因|\bwhy\b|\bwhat caused\b|\bwhat drove\b", re.IGNORECASE)
_CN_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_TOP = re.compile(
    r"(?:排名)?前\s*(?P<zh>\d+|[一二两三四五六七八九十])\s*(?:名|个|位)?|"
    r"\btop[- ]?(?P<en>\d+)\b|\b(?:the )?(?P<best>highest|largest|biggest|most|best|lowest|smallest|least|worst)\s+(?P<en2>\d+)\b",
    re.IGNORECASE,
)
_SINGLE_BEST = re.compile(
    r"最高|最大|最多|最好|最低|最小|最少|最差|\bhighest\b|\blargest\b|\bbiggest\b|\blowest\b|\bsmallest\b|\bbest\b|\bworst\b|\btop\b",
    re.IGNORECASE,
)
_ASC = re.compile(
    r"最低|最小|最少|最差|后\s*\d+|倒数|\blowest\b|\bsmallest\b|\bleast\b|\bworst\b|\bbottom\b", re.IGNORECASE
)
_WHICH = re.compile(r"哪个|哪些|哪一个|哪家|\bwhich\b", re.IGNORECASE)
_GROUP_MARKER = re.compile(
    r"(各|分|按|每个|每一个|不同|各个|哪个|哪些|哪一个|\bby\b|\bper\b|\beach\b|\bfor each\b|\bacross\b|\bwhich\b|\bsplit by\b|\bbroken down by\b)\s*$",
    re.IGNORECASE,
)

_ZH_STOP = {
    "的",
    "了",
    "是",
    "吗",
    "呢",
    "吧",
    "啊",
    "呀",
    "和",
    "与",
    "及",
    "以及",
    "还有",
    "在",
    "中",
    "里",
    "内",
    "期间",
    "时候",
    "多少",
    "什么",
    "请问",
    "请",
    "帮我",
    "帮",
    "我",
    "我们",
    "给我",
    "查",
    "查询",
    "查一下",
    "看",
    "看看",
    "一下",
    "统计",
    "情况",
    "数据",
    "表现",
    "如何",
    "怎么样",
    "怎样",
    "怎么",
    "分别",
    "各自",
    "总共",
    "一共",
    "合计",
    "总计",
    "总",
    "为",
    "列出",
    "展示",
    "显示",
    "排名",
    "排行",
    "最高",
    "最低",
    "最多",
    "最少",
    "最大",
    "最小",
    "最好",
    "最差",
    "趋势",
    "变化",
    "走势",
    "对比",
    "比较",
    "相比",
    "哪个",
    "哪些",
    "哪一个",
    "前",
    "名",
    "个",
    "位",
    "为什么",
    "为何",
    "原因",
    "下降",
    "上升",
    "增长",
    "下跌",
    "提升",
    "降低",
    "减少",
    "增加",
    "多",
    "大",
    "几",
    "有",
    "按",
    "每",
    "各",
    "分",
    "不同",
    "各个",
    "每个",
    "整体",
    "总体",
    "全部",
    "所有",
    "对应",
    "分布",
    "占比",
    "值",
    "水平",
    "top",
    "？",
    "?",
    "，",
    ",",
    "。",
    ".",
    "！",
    "!",
    "、",
    "：",
    ":",
    ";",
    "；",
    "（",
    "）",
    "(",
    ")",
    "“",
    "”",
    '"',
    "'",
    "环比",
    "同比",
    "累计",
    "共",
    "一共有",
    "分别是",
    "是多少",
    "有多少",
    "多少钱",
    "了吗",
    "相关",
    "方面",
    "问题",
    "报告",
    "分析",
    "解释",
    "说明",
    "一",
    "下",
}
_EN_STOP = {
    "what",
    "was",
    "were",
    "is",
    "are",
    "be",
    "been",
    "the",
    "a",
    "an",
    "of",
    "in",
    "on",
    "at",
    "for",
    "by",
    "per",
    "each",
    "and",
    "or",
    "with",
    "from",
    "to",
    "how",
    "many",
    "much",
    "did",
    "does",
    "do",
    "show",
    "me",
    "give",
    "list",
    "which",
    "top",
    "highest",
    "lowest",
    "largest",
    "smallest",
    "biggest",
    "most",
    "least",
    "best",
    "worst",
    "trend",
    "trends",
    "over",
    "time",
    "total",
    "overall",
    "our",
    "my",
    "we",
    "us",
    "please",
    "tell",
    "compare",
    "compared",
    "vs",
    "versus",
    "change",
    "changes",
    "changed",
    "why",
    "drop",
    "dropped",
    "fall",
    "fell",
    "rise",
    "rose",
    "increase",
    "increased",
    "decrease",
    "decreased",
    "go",
    "went",
    "up",
    "down",
    "across",
    "split",
    "broken",
    "breakdown",
    "get",
    "let",
    "see",
    "value",
    "values",
    "number",
    "numbers",
    "data",
    "report",
    "can",
    "you",
    "could",
    "would",
    "i",
    "what's",
    "whats",
    "it",
    "its",
    "during",
    "between",
    "than",
    "that",
    "this",
    "those",
    "these",
    "there",
    "their",
    "they",
    "all",
    "any",
    "some",
    "so",
    "as",
    "into",
    "out",
    "about",
    "have",
    "has",
    "had",
    "where",
    "when",
    "who",
    "whom",
    "level",
    "levels",
    "performance",
    "perform",
    "performed",
    "look",
    "like",
    "rank",
    "ranking",
    "ranked",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "quarter",
    "quarters",
    "year",
    "years",
    "daily",
    "weekly",
    "monthly",
    "quarterly",
    "yearly",
    "'s",
    "?",
    ",",
    ".",
    "!",
    ":",
    ";",
    "(",
    ")",
    "mom",
    "yoy",
    "wow",
    "qoq",
    "previous",
    "prior",
    "period",
    "same",
    "last",
}
_METRICISH_ZH = (
    "率",
    "额",
    "润",
    "量",
    "数",
    "价",
    "值",
    "成本",
    "费用",
    "占比",
    "利润",
    "收入",
    "营收",
    "毛利",
    "留存",
    "复购",
    "日活",
    "月活",
)
_METRICISH_EN = {
    "rate",
    "ratio",
    "margin",
    "profit",
    "profits",
    "cost",
    "costs",
    "revenue",
    "retention",
    "churn",
    "ltv",
    "roi",
    "dau",
    "mau",
    "arpu",
    "arppu",
    "inventory",
    "stock",
    "nps",
    "ctr",
    "cac",
    "payback",
    "sessions",
    "clicks",
    "impressions",
    "returns",
    "refunds",
    "spend",
    "budget",
    "salary",
    "headcount",
    "tax",
    "price",
    "prices",
    "score",
}


@dataclass
class _Scan:
    text: str
    norm: str
    claimed: list[tuple[int, int]] = field(default_factory=list)

    def claim(self, start: int, end: int) -> None:
        self.claimed.append((start, end))

    def find_all(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        out = []
        for match in pattern.finditer(self.norm):
            if match.end() > match.start() and not any(match.start() < e and s < match.end() for s, e in self.claimed):
                out.append(match)
        return out

    def residual(self) -> str:
        chars = list(self.text)
        for start, end in self.claimed:
            for i in range(start, end):
                chars[i] = " "
        return "".join(chars)


class Planner:
    """Turns questions into SemanticQuery objects over one catalog."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.lexicon = Lexicon(catalog)

    # -- public ---------------------------------------------------------------------------
    def plan(self, question: str, *, as_of: date) -> SemanticQuery:
        text = check_question(question)
        language = detect_language(text)
        scan = _Scan(text=text, norm=normalise(text))

        # comparison cues first: "去年同期" is a comparison, not the period "去年"
        comparison_kind = self._comparison(scan)
        time_text = scan.residual()
        time_match = timeexpr.parse_time_range(time_text, as_of)
        for match in timeexpr.find_time_expressions(time_text, as_of):
            scan.claim(*match.span)

        grain = self._grain(scan)
        why = bool(scan.find_all(_WHY))
        for m in scan.find_all(_WHY):
            scan.claim(m.start(), m.end())
        trend = bool(scan.find_all(_TREND))
        share = bool(scan.find_all(_SHARE))
        for m in scan.find_all(_SHARE):
            scan.claim(m.start(), m.end())
        top_n, order = self._top(scan)

        hits = self.lexicon.find(text, blocked=list(scan.claimed))
        metrics, dims, filters = self._entities(hits, scan, language)
        for hit in hits:
            scan.claim(hit.start, hit.end)

        unknown = self._unknown_terms(scan.residual(), language)
        metricish = [t for t in unknown if self._metricish(t)]
        if metricish or (unknown and not metrics):
            raise self._unknown_metric((metricish or unknown)[0], language)
        if not metrics:
            raise AmbiguousQuestion(
                *(
                    message(
                        "nlu.which_metric", lang, examples=message("answer.list_sep", lang).join(self._examples(lang))
                    )
                    for lang in _LANGUAGES
                ),
                detail={"missing": "metric", "suggestions": list(self.catalog.metrics)},
            )
        if time_match is None:
            raise AmbiguousQuestion(
                *both("nlu.which_period"),
                detail={"missing": "time_range"},
            )
        self._check_dimensions(metrics, dims, filters, language)

        time_range = TimeRange(start=time_match.start, end=time_match.end, text=time_match.text)
        if trend and grain is None:
            grain = self._default_grain(time_range)
        if why and comparison_kind is None:
            comparison_kind = "previous_period"
        comparison = None
        if comparison_kind is not None:
            if comparison_kind == "same_period_last_year":
                start, end = timeexpr.same_period_last_year(time_match.start, time_match.end)
            else:
                start, end = timeexpr.previous_period(time_match.start, time_match.end, time_match.grain)
            comparison = Comparison(kind=comparison_kind, range=TimeRange(start=start, end=end))
            grain = None
        if top_n is not None and not dims:
            top_n = None
        intent = (
            "why"
            if why
            else "comparison"
            if comparison
            else "trend"
            if grain
            else "ranking"
            if top_n
            else "share"
            if dims and share
            else "breakdown"
            if dims
            else "value"
        )
        return SemanticQuery(
            metrics=tuple(metrics),
            dimensions=tuple(dims),
            filters=tuple(MemberFilter(dimension=d, members=tuple(m)) for d, m in filters.items()),
            time_range=time_range,
            grain=grain,
            comparison=comparison,
            top_n=top_n,
            order=order,
            intent=intent,
            as_of=as_of,
        )

    # -- cues -----------------------------------------------------------------------------
    def _grain(self, scan: _Scan) -> Grain | None:
        for pattern, grain in _GRAIN_CUES:
            matches = scan.find_all(re.compile(pattern, re.IGNORECASE))
            if matches:
                for m in matches:
                    scan.claim(m.start(), m.end())
                return grain
        return None

    def _comparison(self, scan: _Scan) -> str | None:
        for pattern, kind in ((_YOY, "same_period_last_year"), (_MOM, "previous_period")):
            matches = scan.find_all(pattern)
            if matches:
                for m in matches:
                    scan.claim(m.start(), m.end())
                return kind
        return None

    def _top(self, scan: _Scan) -> tuple[int | None, str]:
        order = "asc" if scan.find_all(_ASC) else "desc"
        for m in scan.find_all(_TOP):
            raw = m.group("zh") or m.group("en") or m.group("en2")
            value = int(raw) if raw.isdigit() else _CN_DIGITS[raw]
            scan.claim(m.start(), m.end())
            if m.group("best"):
                order = "asc" if m.group("best").lower() in {"lowest", "smallest", "least", "worst"} else "desc"
            return value, order
        if scan.find_all(_WHICH) and scan.find_all(_SINGLE_BEST):
            return 1, order
        return None, order

    # -- catalog terms --------------------------------------------------------------------
    def _entities(
        self, hits: list[Hit], scan: _Scan, language: str
    ) -> tuple[list[str], list[str], dict[str, list[str]]]:
        metric_hits = [h for h in hits if h.kinds == {"metric"}]
        metrics: list[str] = []
        dims: list[str] = []
        filters: dict[str, list[str]] = {}
        member_dims_at: dict[int, str] = {}
        for hit in hits:
            kinds = hit.kinds
            if "metric" in kinds and "member" in kinds:
                # "new users" is the metric new_users, unless another metric is asked about
                others = [h for h in metric_hits if h is not hit]
                chosen = "member" if others else "metric"
                terms = [t for t in hit.terms if t.kind == chosen]
            else:
                terms = list(hit.terms)
            metric_targets = sorted({t.target for t in terms if t.kind == "metric"})
            if len(metric_targets) > 1:
                labels = [self.catalog.metrics[m].label.for_lang(language) for m in metric_targets]
                raise AmbiguousQuestion(
                    *(
                        message(
                            "nlu.several_metrics",
                            lang,
                            term=hit.text,
                            labels=message("answer.list_sep", lang).join(labels),
                        )
                        for lang in _LANGUAGES
                    ),
                    detail={"term": hit.text, "suggestions": metric_targets},
                )
            for term in terms:
                if term.kind == "metric" and term.target not in metrics:
                    metrics.append(term.target)
                elif term.kind == "member":
                    dim, member = term.target.split(":", 1)
                    bucket = filters.setdefault(dim, [])
                    if member not in bucket:
                        bucket.append(member)
                    member_dims_at[hit.end] = dim
        for hit in hits:
            if hit.kinds != {"dimension"}:
                continue
            dim = hit.terms[0].target
            before = scan.norm[: hit.start]
            attached = any(d == dim and scan.norm[end : hit.start].strip() == "" for end, d in member_dims_at.items())
            if attached and not _GROUP_MARKER.search(before):
                continue  # "app 渠道" names a member, not a breakdown
            if dim not in dims:
                dims.append(dim)
        return metrics, dims, filters

    def _check_dimensions(
        self, metrics: list[str], dims: list[str], filters: dict[str, list[str]], language: str
    ) -> None:
        for metric in metrics:
            allowed = self.catalog.metrics[metric].dimensions
            for dim in [*dims, *filters]:
                if dim not in allowed:
                    raise InvalidInput(
                        *(self._unsupported_dimension(metric, dim, allowed, lang) for lang in _LANGUAGES),
                        detail={"metric": metric, "dimension": dim, "reason": "unsupported_dimension"},
                    )

    def _unsupported_dimension(self, metric: str, dim: str, allowed: Sequence[str], lang: Language) -> str:
        listed = message("answer.list_sep", lang).join(self.catalog.dimensions[d].label.for_lang(lang) for d in allowed)
        return message(
            "nlu.unsupported_dimension",
            lang,
            metric=self.catalog.metrics[metric].label.for_lang(lang),
            dimension=self.catalog.dimensions[dim].label.for_lang(lang),
            allowed=listed or message("nlu.no_dimensions", lang),
        )

    # -- what is left ---------------------------------------------------------------------
    def _unknown_terms(self, residual: str, language: str) -> list[str]:
        words: list[str] = []
        phrase: list[str] = []
        for chunk in re.findall(r"[A-Za-z][A-Za-z'_-]*|[\u4e00-\u9fff]+|[^\sA-Za-z\u4e00-\u9fff]+", residual):
            word = chunk.lower().strip("'-_")
            if chunk.isascii() and word and word not in _EN_STOP and len(word) > 1 and word.isalpha():
                phrase.append(word)  # adjacent English content words form one term ("profit margin")
                continue
            if phrase:
                words.append(" ".join(phrase))
                phrase = []
            if not chunk.isascii() and _content_left(chunk):
                words.extend(w for w in _segment(chunk) if w not in _ZH_STOP and len(w) >= 2)
        if phrase:
            words.append(" ".join(phrase))
        return words

    @staticmethod
    def _metricish(term: str) -> bool:
        if term.isascii():
            return any(word in _METRICISH_EN for word in term.lower().split())
        return any(term.endswith(s) or s in term for s in _METRICISH_ZH)

    def _unknown_metric(self, term: str, language: str) -> UnknownMetric:
        closest = self.closest_metrics(term)

        def listed(lang: Language) -> str:
            return message("answer.list_sep", lang).join(
                message("nlu.metric_item", lang, label=self.catalog.metrics[m].label.for_lang(lang), name=m)
                for m in closest
            )

        return UnknownMetric(
            *(message("nlu.unknown_metric", lang, term=term, closest=listed(lang)) for lang in _LANGUAGES),
            detail={"term": term, "suggestions": closest},
        )

    def closest_metrics(self, term: str, k: int = 3) -> list[str]:
        """Catalog metrics ranked by similarity of their names, labels and synonyms to a term."""
        needle = normalise(term)
        scores: list[tuple[float, str]] = []
        for name, surfaces in self.lexicon.surfaces("metric").items():
            best = 0.0
            for surface in surfaces:
                ratio = SequenceMatcher(None, needle, surface).ratio()
                shared_tail = 0.15 if needle[-1:] == surface[-1:] and not needle.isascii() else 0.0
                overlap = len(set(needle) & set(surface)) / max(len(set(needle)), 1)
                best = max(best, ratio + shared_tail + 0.3 * overlap)
            scores.append((best, name))
        scores.sort(key=lambda s: (-s[0], list(self.catalog.metrics).index(s[1])))
        return [name for _, name in scores[:k]]

    def _examples(self, language: str) -> list[str]:
        return [m.label.for_lang(language) for m in list(self.catalog.metrics.values())[:5]]

    @staticmethod
    def _default_grain(time_range: TimeRange) -> Grain:
        if time_range.days <= 62:
            return "day"
        if time_range.days <= 190:
            return "week"
        return "month"


_ZH_STOP_BY_LENGTH = sorted(_ZH_STOP, key=len, reverse=True)


def _content_left(chunk: str) -> bool:
    """Whether a Chinese chunk holds anything but stop words (no segmentation needed if not):
    a plain question ("…是多少？") never loads the segmenter's dictionary."""
    for word in _ZH_STOP_BY_LENGTH:
        chunk = chunk.replace(word, " ")
    return any(len(part) >= 2 for part in chunk.split())


def _segment(text: str) -> list[str]:
    """Chinese word segmentation (jieba, loaded once and quietly)."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    return [w.strip() for w in jieba.lcut(text) if w.strip()]
