"""Read an explicit preference statement ("以后默认按渠道拆分", "answer in English").

A statement is read only when the *whole* text is one: its words are the fixed wording of a
preference (a cue that it is meant from now on, a verb, connectors, politeness) and catalog
terms of the one kind the preference takes — a dimension for a default breakdown, metrics for
favourite metrics — or a language or chart word. Anything else in the text (a period, a
member, a number, a word the catalog does not know, a question) means it is not clearly a
statement and nothing is read: a normal question is never taken for a preference, and what is
stored is only a catalog name or a fixed code, never the user's free text.

Catalog terms are found with the planner's lexicon (:class:`baton.nlu.lexicon.Lexicon`), so a
catalog's labels and synonyms teach this reader its words too. The fixed wording of each
language is one :class:`_Wording` (``_ZH``, ``_EN``): regular-expression pieces, the statement
patterns built from them (``{D}`` stands for a dimension, ``{LIST}`` for metrics joined by the
language's connectors), and the words naming a language or a chart.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime

from baton.catalog.model import Catalog
from baton.contracts.memory import CHART_CODES, LANGUAGE_CODES, ChartCode, Preference, PreferenceKey
from baton.nlu.lexicon import Hit, Lexicon, normalise

__all__ = ["chart_code", "language_code", "read_statement"]

MAX_CHARS = 200
"""A longer text is not a preference statement."""

DIM = "\ue000"
METRIC = "\ue001"
OTHER = "\ue002"
"""Placeholders (private-use characters) standing for catalog terms in a text's skeleton."""

_PRIVATE_OR_CONTROL = re.compile(r"[\ue000-\uf8ff\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True)
class _Wording:
    """How one language states preferences."""

    pieces: dict[str, str]
    """Regular-expression pieces the patterns name (``{head}``, ``{persist}`` …)."""
    breakdown: tuple[str, ...]
    favourites: tuple[str, ...]
    language: tuple[str, ...]
    """Patterns naming a language in the group ``lang``; a group ``verb`` that is optional
    must match (or a cue be said) for the text to ask for the language."""
    chart: tuple[str, ...]
    """Patterns naming a chart in the group ``chart``; a group ``noun`` that is optional must
    match (or a cue be said)."""
    languages: dict[str, str]
    """language word -> zh | en"""
    charts: dict[str, ChartCode]
    """chart word -> chart code"""
    cue: str
    """Words saying a preference is meant from now on, not for one question."""
    question: str = r"(?!)"
    """Words that make the text a question."""
    spaced: bool = True
    """Whether the patterns match the text with its spaces (English) or without (Chinese)."""
    stops: str = ".!~"
    """Sentence-final punctuation dropped from a statement."""
    compiled: dict[str, tuple[re.Pattern[str], ...]] = field(default_factory=dict, compare=False, repr=False)

    def patterns(self, kind: str) -> tuple[re.Pattern[str], ...]:
        if kind not in self.compiled:
            words = "|".join(sorted(map(re.escape, self.charts), key=len, reverse=True))
            fields = {
                **self.pieces,
                "D": DIM,
                "M": METRIC,
                "LIST": "{M}(?:{and}{M})*".format(M=METRIC, **self.pieces),
                "chart": f"(?P<chart>{words})",
                "lang": "(?P<lang>" + "|".join(sorted(map(re.escape, self.languages), key=len, reverse=True)) + ")",
            }
            templates: tuple[str, ...] = getattr(self, kind)
            self.compiled[kind] = tuple(re.compile(t.format(**fields)) for t in templates)
        return self.compiled[kind]

    def text(self, skeleton: str) -> str:
        return skeleton if self.spaced else "".join(skeleton.split())


_ZH = _Wording(
    pieces={
        "head": r"(?:请你|请|麻烦你|麻烦|帮我|你)",
        "persist": r"(?:从今往后|从今以后|从现在起|从现在开始|以后的问题|以后|今后|往后|之后|后面|接下来|下次起|下次开始)",
        "next_step": r"^(?:那|好的?|好吧|ok,?)?\s*(?:接下来|之后|后面|然后|下面|再)",
        "standing": r"从今|从现在|以后|今后|往后|下次|默认|一律|总是|每次|始终|一直|统一|都",
        "always": r"(?:默认|一律|总是|全都|都|也|每次都|每次|始终|一直|统一|尽量|优先)",
        "habit": r"(?:我(?:比较|更|一般|通常|平时|都)*(?:习惯|喜欢|偏好|偏爱|倾向于|倾向|希望|想要|想)你?)",
        "tail": r"(?:吧|哦|啊|呀|哈|啦|就行|就好|就可以|即可|谢谢)*",
        "by": r"(?:按照|按|分|以|根据)",
        "split": r"(?:拆分|拆开|拆解|细分|切分|分组|查看|来看|展示|显示|呈现|统计|汇总|分析|列出|拆|分|看)",
        "things": r"(?:数据|结果|数字|指标)",
        "as_dim": r"(?:作为|当作|当成|为|做|当)(?:默认)?的?(?:拆分)?维度",
        "set_to": r"(?:是|为|设为|设成|设置为|设置成|改为|改成|换成|用|:)",
        "default_dim": r"(?:我的)?默认的?(?:拆分维度|分组维度|拆分|分组|维度)",
        "and": r"(?:以及|还有|加上|和|与|跟|及|、|,|/|&|或)",
        "fav_adv": r"(?:最常|最|比较|主要|平时|平常|一般|通常|经常|特别|更|很|非常|一直)",
        "care": r"(?:关心|关注|在意|看重|重视|在乎|盯着|盯|常看|爱看|喜欢看|最爱看)",
        "are": r"(?:就是|主要是|包括|是|有)",
        "these": r"(?:(?:这|那)?(?:一|两|三|四|五|六|几|些)?个?指标|等指标|等)",
        "fav_kind": r"(?:最关心|最常看|常看|常用|关注|关心|喜欢看|爱看|核心|关键|重点|主要|最爱|收藏|日常)",
        "make_fav": r"(?:设为|设成|设置为|加入|加到|加为|作为|当作|当成)",
        "lang_verb": r"(?:切换到|切换成|切到|改用|换成|换用|改成|使用|采用|用|说|讲|以)",
        "answer": r"(?:回答我|给我回答|来回答|和我说|跟我说|和我交流|跟我交流|回答|回复|答复|作答|交流|沟通|输出|说|写)",
        "when_answering": r"(?:回答的?时候|回答时|回复时|回答|回复)",
        "language_is": r"(?:默认|回答|回复)?的?语言(?:是|为|设为|设成|设置为|改为|改成|换成|用|切换到|切换成|:)",
        "chart_noun": r"(?:图表|图形|可视化|画图|作图|出图|配图|图)",
        "chart_verb": r"(?:画成|做成|显示成|显示为|展示成|展示为|改成|换成|改用|换用|采用|使用|选用|用|画|做|选|出)",
        "chart_is": r"(?:默认)?的?(?:图表|图形)(?:类型)?(?:是|为|设为|设成|设置为|改为|改成|用|:)",
        "see": r"(?:看|用)",
        "shown": r"(?:来?(?:展示|显示|呈现))",
        "a": r"(?:一个|个)",
        "dim_word": r"(?:维度)",
        "via": r"(?:来|进行)",
        "take": r"(?:以|用|把)",
        "put": r"(?:把)",
        "me": r"(?:我)",
        "my": r"(?:我的)",
        "of": r"(?:的)",
        "done": r"(?:了)",
        "to_be": r"(?:为)",
        "also": r"(?:请|都|一律|也)",
        "into": r"(?:成)",
        "lai": r"(?:来)",
        "metric_word": r"(?:指标)",
    },
    breakdown=(
        r"{head}*(?:{persist},?)?{habit}?{always}*{head}*{by}{D}{dim_word}?{via}?{split}?{things}?{tail}",
        r"{head}*(?:{persist},?)?{always}*{take}{D}{as_dim}{via}?{split}?{things}?{tail}",
        r"{head}*(?:{persist},?)?{put}?{default_dim}{set_to}{by}?{D}{tail}",
    ),
    favourites=(
        r"{me}{fav_adv}*{care}{of}?{metric_word}?{are}?:?{LIST}{these}?{done}?{tail}",
        r"{me}{of}?{fav_adv}*{fav_kind}{of}?{metric_word}(?:{are}|:):?{LIST}{these}?{tail}",
        r"{head}*{put}?{LIST}{make_fav}{my}?{fav_kind}?{metric_word}{tail}",
        r"{fav_kind}{metric_word}(?:{are}|{to_be})?:?{LIST}{tail}",
    ),
    language=(
        r"{head}*(?:{persist},?)?{habit}?{always}*{head}*{always}*(?P<verb>{lang_verb})?{lang}{lai}?(?P<ans>{answer})?{tail}",
        r"(?:{persist},?)?{when_answering}{also}*{lang_verb}{lang}{tail}",
        r"{head}*(?:{persist},?)?{put}?{language_is}{lang}{tail}",
    ),
    chart=(
        r"{head}*(?:{persist},?)?(?P<noun>{chart_noun})?{also}*{always}*{head}*{chart_verb}{into}?{a}?{chart}{shown}?{tail}",
        r"{habit}{see}?{chart}{tail}",
        r"(?:{persist},?)?{chart_is}{chart}{tail}",
    ),
    languages={"简体中文": "zh", "中文": "zh", "汉语": "zh", "普通话": "zh", "英文": "en", "英语": "en"},
    charts={
        "横向柱状图": "horizontal_bar",
        "横向条形图": "horizontal_bar",
        "条形图": "horizontal_bar",
        "柱状图": "bar",
        "柱形图": "bar",
        "柱图": "bar",
        "折线图": "line",
        "曲线图": "line",
        "走势图": "line",
        "趋势图": "line",
        "线图": "line",
        "饼状图": "donut",
        "饼图": "donut",
        "环形图": "donut",
        "圆环图": "donut",
        "散点图": "scatter",
        "表格": "table",
    },
    cue=r"从今|从现在|以后|今后|往后|之后|后面|接下来|下次|默认|一律|总是|每次|始终|一直|统一|习惯|喜欢|偏好|偏爱|倾向|希望",
    question=r"吗|什么|怎么|多少|哪",
    spaced=False,
    stops="。",
)

_THINGS = (
    r"(?:it|things|everything|results|numbers|metrics|data|answers|them|all|stuff|the numbers|the results|the data|"
    r"the metrics|my numbers|my metrics|the answers|figures)"
)
_EN = _Wording(
    pieces={
        "head": r"(?:please|pls|kindly)",
        "persist": r"(?:from now on|from here on(?: out)?|going forward|by default|in (?:the )?future|"
        r"for (?:all )?future questions|every time|each time|as a rule)",
        "tail": r"(?:[,\s]+(?:please|thanks|thank you|from now on|going forward|by default|in (?:the )?future|always|"
        r"for (?:all )?future questions|every time|each time))*",
        "things": _THINGS,
        "split": rf"(?:break(?: {_THINGS})? down(?: {_THINGS})?|split(?: {_THINGS})?|group(?: {_THINGS})?|show(?: me)?(?: {_THINGS})?|slice(?: {_THINGS})?|"
        rf"segment(?: {_THINGS})?|see(?: {_THINGS})?|view(?: {_THINGS})?|look at(?: {_THINGS})?|give me(?: {_THINGS})?|report(?: {_THINGS})?|"
        rf"display(?: {_THINGS})?|present(?: {_THINGS})?|cut(?: {_THINGS})?)",
        "habit": r"(?:usually|always|mostly|generally|normally|typically|prefer to|like to|tend to)",
        "and": r"(?:\s*(?:,|&|/|\+)\s*(?:and\s+)?|\s+(?:and|plus|as well as)\s+)",
        "fav_adj": r"(?:favou?rite|key|main|core|top|usual|go-to|preferred|most important|important|primary|headline)",
        "fav_noun": r"(?:metrics?|kpis?|numbers|measures)",
        "care": r"(?:care\s+(?:the\s+)?(?:most\s+)?about|focus\s+(?:mostly\s+|most\s+)?on|watch|track|follow|monitor|"
        r"look\s+at|check|keep\s+an\s+eye\s+on)",
        "care_adv": r"(?:mostly|mainly|really|usually|always|primarily|generally|most|regularly|normally)",
        "answer": r"(?:answer(?: me)?|reply(?: to me)?|respond(?: to me)?|write(?: to me)?|talk(?: to me)?|"
        r"speak(?: to me)?|communicate(?: with me)?|use|switch to|change to|give (?:me )?(?:the )?answers|answers)",
        "chart_noun": r"(?:charts?|graphs?|plots?)",
        "show": r"(?:use|show(?: me)?|draw|make|give me|plot|display|prefer)",
    },
    breakdown=(
        r"(?:{head}\s+)?(?:{persist},?\s+)*(?:{head}\s+)?(?:always\s+)?{split}\s+(?:by|per|across|for each)\s+"
        r"(?:the\s+|each\s+|every\s+)?{D}{tail}",
        r"i(?:\s+would|'d)?\s+{habit}(?:\s+{habit})?\s+{split}\s+(?:by|per|across)\s+(?:the\s+)?{D}{tail}",
        r"i(?:\s+would|'d)?\s+(?:prefer|like)\s+(?:breakdowns?|splits?|seeing things|to see things|{things})\s+"
        r"(?:broken down by|split by|grouped by|by|per|across)\s+(?:the\s+)?{D}{tail}",
        r"(?:{head}\s+)?(?:(?:set|make|change|switch)\s+)?(?:my\s+|the\s+)?default\s+"
        r"(?:breakdown|dimension|grouping|split)(?:\s*(?:to|is|should be|=|:)\s*|\s+)(?:by\s+)?(?:the\s+)?{D}{tail}",
        r"(?:{head}\s+)?(?:use|make|set)\s+(?:the\s+)?{D}\s+(?:as\s+|to\s+be\s+)?(?:my\s+|the\s+)?default"
        r"(?:\s+(?:breakdown|dimension|grouping|split))?{tail}",
        r"(?:{head}\s+)?(?:{persist},?\s+)*default\s+to\s+(?:breaking\s+down|splitting|grouping)(?:\s+{things})?\s+"
        r"(?:by|per|across)\s+(?:the\s+)?{D}{tail}",
    ),
    favourites=(
        r"(?:my\s+)?{fav_adj}\s+{fav_noun}\s*(?:are|is|:|=|include|would be)\s*{LIST}{tail}",
        r"i\s+(?:{care_adv}\s+)*{care}\s+{LIST}(?:\s+(?:the\s+)?(?:most(?: of all)?|above all|mostly|closely))?{tail}",
        r"(?:{head}\s+)?(?:set|make|mark|add)\s+{LIST}\s+(?:(?:as|to)\s+)?(?:my|the)\s+{fav_adj}\s+{fav_noun}{tail}",
        r"what i (?:care about|watch|track)(?:\s+most)?\s+(?:is|are)\s+{LIST}{tail}",
    ),
    language=(
        r"(?:{head}\s+)?(?:{persist},?\s+)*(?:{head}\s+)?(?:always\s+)?{answer}\s+(?:only\s+)?(?:in\s+)?(?:only\s+)?"
        r"{lang}(?:\s+only)?{tail}",
        r"(?:in\s+)?{lang}(?:\s+only)?,?\s+please{tail}",
        r"i(?:\s+would|'d)?\s+(?:prefer|like|want)\s+(?:answers\s+|replies\s+|responses\s+|to be answered\s+)?"
        r"(?:in\s+)?{lang}(?:\s+answers)?{tail}",
        r"(?:(?:set|change)\s+)?(?:my\s+|the\s+)?(?:preferred\s+|default\s+|answer\s+)?language\s*"
        r"(?:is|to|:|=|should be)?\s*{lang}{tail}",
    ),
    chart=(
        r"(?:{head}\s+)?(?:{persist},?\s+)*(?:{head}\s+)?(?:always\s+)?{show}\s+(?:a\s+|an\s+)?{chart}\s*{chart_noun}"
        r"(?:\s+for everything)?{tail}",
        r"i\s+(?:(?:really|much|usually|always|generally)\s+)?(?:prefer|like|love|want)\s+(?:to\s+see\s+)?"
        r"(?:a\s+|an\s+)?{chart}\s*{chart_noun}(?:\s+(?:best|most|more))?{tail}",
        r"(?:set\s+)?(?:my\s+|the\s+)?(?:preferred|favou?rite|default)\s+(?:chart|graph|plot)(?:\s+type)?\s*"
        r"(?:is|to|:|=|should be)?\s*(?:a\s+|an\s+)?{chart}(?:\s*{chart_noun})?{tail}",
        r"(?:charts?|graphs?)\s*(?::|=|as)\s*{chart}(?:\s*{chart_noun})?{tail}",
    ),
    languages={"simplified chinese": "zh", "chinese": "zh", "mandarin": "zh", "english": "en"},
    charts={
        "horizontal bar": "horizontal_bar",
        "vertical bar": "bar",
        "bar": "bar",
        "column": "bar",
        "line": "line",
        "pie": "donut",
        "donut": "donut",
        "doughnut": "donut",
        "scatter": "scatter",
    },
    cue=r"\b(?:from now on|from here on|going forward|by default|default|future|always|every time|each time|"
    r"as a rule|usually|mostly|generally|normally|typically|prefer|like to|tend to)\b",
)

_WORDINGS = (_ZH, _EN)
_STOPS = " " + "".join(w.stops for w in _WORDINGS)
_EN_TABLES = re.compile(
    r"(?:(?:please\s+)?(?:from now on,?\s+|by default,?\s+)*(?:always\s+)?(?:use|prefer)|"
    r"i\s+(?:really\s+)?(?:prefer|like|want))\s+tables(?:\s+(?:please|from now on|by default))*"
)
"""A table rather than a chart ("always use tables"): the one chart preference without a chart noun."""


_LEXICONS: dict[int, tuple[Catalog, Lexicon]] = {}


def _lexicon(catalog: Catalog) -> Lexicon:
    """The catalog's lexicon, built once per catalog object (the last few are kept)."""
    kept = _LEXICONS.get(id(catalog))
    if kept is not None and kept[0] is catalog:
        return kept[1]
    if len(_LEXICONS) >= 8:
        _LEXICONS.pop(next(iter(_LEXICONS)))
    lexicon = Lexicon(catalog)
    _LEXICONS[id(catalog)] = (catalog, lexicon)
    return lexicon


def language_code(word: str) -> str | None:
    """The language code a word names ("中文", "English", "zh"), or ``None``."""
    said = normalise(word.strip())
    if said in LANGUAGE_CODES:
        return said
    return next((w.languages[said] for w in _WORDINGS if said in w.languages), None)


def chart_code(word: str) -> ChartCode | None:
    """The chart code a word names ("折线图", "pie", "line"), or ``None``."""
    said = normalise(word.strip()).removesuffix(" chart")
    code = next((c for c in CHART_CODES if c == said), None)
    return code or next((w.charts[said] for w in _WORDINGS if said in w.charts), None)


def read_statement(text: str, catalog: Catalog) -> Preference | None:
    """The preference ``text`` states, or ``None`` when it is not clearly a preference
    statement. The preference holds only catalog names or fixed codes; its evidence is the
    statement's words (all of them accounted for, so they hold no data)."""
    said = _clean(text)
    if said is None or _only_next(said):
        return None
    reading = _Reading(said, _lexicon(catalog).find(said))
    found = _language(reading) or _chart(reading) or _breakdown(reading) or _favourites(reading)
    if found is None:
        return None
    key, value = found
    return Preference(key=key, value=value, source="stated", evidence=said, learned_at=datetime.now(UTC))


def _only_next(said: str) -> bool:
    """ "接下来按品类看", "之后按渠道拆": in a conversation these words ask for the next step, not a
    standing preference — unless the text also says it holds from now on ("接下来都…", "默认")."""
    next_step = re.match(_ZH.pieces["next_step"], said)
    return next_step is not None and re.search(_ZH.pieces["standing"], said) is None


def _clean(text: str) -> str | None:
    """The text in one normalised line (NFKC, spaces collapsed, a final full stop dropped), or
    ``None`` when it is too long, holds control or private-use characters or asks a question."""
    if len(text) > MAX_CHARS or _PRIVATE_OR_CONTROL.search(text):
        return None
    said = " ".join(unicodedata.normalize("NFKC", text).split()).rstrip(_STOPS)
    if not said or "?" in said or len(normalise(said)) != len(said):
        return None
    return said


class _Reading:
    """A text and its catalog hits, with skeletons: the lower-cased text with each hit replaced
    by a placeholder — :data:`DIM` (:data:`METRIC`) when it names exactly one dimension
    (metric), :data:`OTHER` when it names anything else."""

    def __init__(self, said: str, hits: list[Hit]) -> None:
        self.plain = normalise(said)
        self.hits = hits
        self.dims, self.dim_text = self._skeleton("dimension", DIM)
        self.metrics, self.metric_text = self._skeleton("metric", METRIC)
        self.cued = any(re.search(w.cue, self.plain) for w in _WORDINGS)
        self.asks = any(re.search(w.question, w.text(self.dim_text)) for w in _WORDINGS)

    def _skeleton(self, kind: str, mark: str) -> tuple[list[str], str]:
        targets: list[str] = []
        parts: list[str] = []
        at = 0
        for hit in self.hits:
            named = {t.target for t in hit.terms if t.kind == kind}
            refused = any(t.kind == "refused" for t in hit.terms)
            parts.append(self.plain[at : hit.start])
            if len(named) == 1 and not refused:
                targets.append(named.pop())
                parts.append(mark)
            else:
                parts.append(OTHER)
            at = hit.end
        parts.append(self.plain[at:])
        return targets, "".join(parts)

    def own_words_only(self) -> bool:
        """Whether every catalog term found is one of a language or chart statement's own words
        (a catalog whose member is called "line" or "English"); any other term is more than a
        language or chart statement says."""
        return all(
            any(h.text.lower() in w.languages or h.text.lower() in w.charts for w in _WORDINGS) for h in self.hits
        )


def _match(kind: str, skeleton: str) -> re.Match[str] | None:
    for wording in _WORDINGS:
        said = wording.text(skeleton)
        for pattern in wording.patterns(kind):
            found = pattern.fullmatch(said)
            if found is not None:
                return found
    return None


def _language(reading: _Reading) -> tuple[PreferenceKey, str] | None:
    if reading.asks or not reading.own_words_only():
        return None
    found = _match("language", reading.plain)
    if found is None:
        return None
    groups = found.groupdict()
    if "verb" in groups and not (groups["verb"] or groups["ans"] or reading.cued):
        return None  # "中文" alone names a language; it does not ask for one
    word = groups["lang"]
    return "language", _ZH.languages.get(word) or _EN.languages[word]


def _chart(reading: _Reading) -> tuple[PreferenceKey, str] | None:
    if reading.asks or not reading.own_words_only():
        return None
    if _EN_TABLES.fullmatch(reading.plain):
        return "chart", "table"
    found = _match("chart", reading.plain)
    if found is None:
        return None
    groups = found.groupdict()
    if "noun" in groups and not (groups["noun"] or reading.cued):
        return None  # "用折线图" alone is about one answer
    word = groups["chart"]
    return "chart", _ZH.charts.get(word) or _EN.charts[word]


def _breakdown(reading: _Reading) -> tuple[PreferenceKey, str] | None:
    if len(reading.dims) != 1 or OTHER in reading.dim_text or reading.asks or not reading.cued:
        return None
    if _match("breakdown", reading.dim_text) is None:
        return None
    return "default_breakdown", reading.dims[0]


def _favourites(reading: _Reading) -> tuple[PreferenceKey, list[str]] | None:
    if not reading.metrics or OTHER in reading.metric_text or reading.asks:
        return None
    if _match("favourites", reading.metric_text) is None:
        return None
    return "favourite_metrics", list(dict.fromkeys(reading.metrics))
