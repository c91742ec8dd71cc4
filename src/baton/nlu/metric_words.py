"""Words about metrics that name none whole: part of several metrics' names ("total MRR"),
the name of the table a metric is read from ("工单的平均解决时长"), and "the number of" after a
count metric's name ("新增注册用户数"). Each is read, or asked back naming the metrics — a
metric is never picked for a word that could be several. "Total" said around one metric's name
("总GMV", "GMV总额", "订单总量") is read when it fits the metric's unit.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

from baton import patterns
from baton.catalog.model import Catalog, Metric
from baton.contracts.common import LANGUAGES, Language
from baton.contracts.semantic import Correction
from baton.errors import AmbiguousQuestion
from baton.messages import text as message
from baton.nlu import vocabulary as vocab
from baton.nlu.lexicon import Hit, Lexicon, Term, normalise
from baton.nlu.scan import Scan

_COUNT_SUFFIX = patterns.compile(r"(?:数量|人数|个数|总数|数)(?![据值字额])")
"""Words for "the number of" after a count metric's name; one starting on its last character
("订单数" + "量") overlaps the name and claims only the rest."""
_TOTAL_SUFFIX = {"currency": patterns.compile(r"总(?:金)?额"), "count": patterns.compile(r"总(?:量|计)")}
""""Total" after an additive metric's name, by the metric's unit: an amount's ("GMV总额") is not a
count's — "订单总额" is an amount of orders, another metric, and stays unread."""
_TOTAL_BEFORE = patterns.compile(r"总的?$")
""""总GMV", "总的订单量": the whole period's value, as "total GMV" is."""


def metrics_naming(lexicon: Lexicon, word: str, k: int = 5) -> list[str]:
    """Metrics one of whose names holds ``word`` whole (an English word, or two or more
    Chinese characters), at most ``k``."""
    needle = normalise(word)
    if len(needle) < 2 or needle in vocab.EN_FILLERS:
        return []
    ascii_word = re.compile(r"(?<![a-z0-9])" + re.escape(needle) + r"(?![a-z0-9])")
    out = [
        name
        for name, surfaces in lexicon.surfaces("metric").items()
        if any(ascii_word.search(s) if needle.isascii() else needle in s for s in surfaces)
    ]
    return out[:k]


def metrics_near(lexicon: Lexicon, words: Sequence[str]) -> list[str]:
    """Metrics one of whose names holds a word no reader placed, or shares its stem with it
    ("refunded" → refund rate, "cancelled" → cancel rate): a question asked back offers them first.
    A stem is a word's first six letters; a name's word shares it when the two begin alike for five
    and the name's word is the stem's start ("cancel", "cancellation" of "cancelled") — English
    words of five letters or more only, so "order" never matches "ordinal"."""
    out: list[str] = []
    for word in words:
        out += metrics_naming(lexicon, word)
        stem = normalise(word)[:6]
        if not (stem.isascii() and stem.isalpha() and len(stem) >= 5):
            continue
        for name, surfaces in lexicon.surfaces("metric").items():
            if any(w.startswith(stem[:5]) and stem.startswith(w[:6]) for s in surfaces for w in s.split()):
                out.append(name)
    return list(dict.fromkeys(out))


def no_part_of_a_metric(catalog: Catalog, lexicon: Lexicon, unknown: Sequence[str]) -> None:
    """ "total MRR", "上个月的转化怎么样": a word of metrics' names, none of them whole and no
    metric name of its own ("利润率" is refused as undefined elsewhere) — asked back naming the
    metrics."""
    for word in unknown:
        named = metrics_naming(lexicon, word)
        if not named:
            continue

        def listed(lang: Language, named: list[str] = named) -> str:
            return message("answer.list_sep", lang).join(
                message("nlu.metric_item", lang, label=catalog.metrics[m].label.for_lang(lang), name=m) for m in named
            )

        raise AmbiguousQuestion(
            *(message("nlu.which_metric_named", lang, word=word, metrics=listed(lang)) for lang in LANGUAGES),
            detail={"missing": "metric", "unknown": [word], "suggestions": named},
        )


def claim_own_tables(catalog: Catalog, scan: Scan, metrics: Sequence[str]) -> None:
    """The name of the table every metric asked for is read from says which rows it counts, and
    nothing more: read. Another table's name is left to be asked about."""
    if not metrics:
        return
    own = set.intersection(*(set(catalog.tables_of(m)) for m in metrics))
    for table in own:
        label = catalog.tables[table].label
        for name in sorted({label.zh, label.en, table}, key=len, reverse=True):
            needle = normalise(name)
            if len(needle) < 2:
                continue
            bounded = re.escape(needle) if not needle.isascii() else rf"(?<![a-z0-9]){re.escape(needle)}(?![a-z0-9])"
            for found in re.finditer(bounded, scan.norm):
                if scan.free(found.start(), found.end()):
                    scan.claim(found.start(), found.end())


def claim_metric_affixes(catalog: Catalog, scan: Scan, metric_hits: Iterable[Hit]) -> None:
    """ "新增注册用户数", "订单数量", "买家人数": a count metric's name and "the number of" it;
    "GMV总额", "订单总量": an additive metric's name and "total" in its unit; "总GMV": "total"
    before any metric's name."""
    for hit in metric_hits:
        metrics = [catalog.metrics[t.target] for t in hit.terms if t.kind == "metric"]
        units = {m.unit for m in metrics}
        suffix = _COUNT_SUFFIX.match(scan.norm, hit.end) or _COUNT_SUFFIX.match(scan.norm, hit.end - 1)
        if units == {"count"} and suffix and suffix.end() > hit.end and scan.free(hit.end, suffix.end()):
            scan.claim(hit.end, suffix.end())
        additive = all(m.additive for m in metrics) and len(units) == 1
        total = (
            _TOTAL_SUFFIX[next(iter(units))].match(scan.norm, hit.end)
            if additive and units <= {*_TOTAL_SUFFIX}
            else None
        )
        if total and scan.free(hit.end, total.end()):
            scan.claim(hit.end, total.end())
        before = _TOTAL_BEFORE.search(scan.norm, 0, hit.start)
        if metrics and before and scan.free(before.start(), hit.start):
            scan.claim(before.start(), hit.start)


_CONDITION_BEFORE_ZH = patterns.compile(r"(?:有|没有|没|无|带有|带|含有|含|用了|使用了?|享受了?)\s*$")
_ATTRIBUTIVE_ZH = patterns.compile(r"\s*的")
_CONDITION_BEFORE_EN = patterns.compile(
    r"\b(?:with|without|having|that (?:have|has|had|used)|which (?:have|has|had|used))\s+(?:a |an |any |some )?$",
    re.I,
)
"""Words that make the metric after them a condition on rows: "有优惠的订单" (有 + the metric + 的,
so "有多少人下单" is a question, not a condition), "orders with a discount"."""
_OF_ZH = patterns.compile(r"\s*的\s*|[^，,。？?!！;；]{0,4}?(?:当中|之中|里面|里|中)\s*(?:有|的)?\s*")
_OF_EN = patterns.compile(r"\s*(?:'s?|\s(?:of|for|among|from)\s+(?:the\s+|all\s+|our\s+)?)\s*", re.I)
"""What makes one metric said of another rather than beside it: "A的B", "A里有多少B" ("新注册的用户里有
多少人下了单": buyers among the signups), "A's B", "B of A"."""
_OF_EN_PAST_READ = patterns.compile(
    r"\s+(?:(?:(?:in|during|over|on|for|from)\s+)?§[§\s]*\s)?(?:for|of|among|from)\s+(?:the\s+|all\s+|our\s+)?"
    r"(?:§[§\s]*\s)?",
    re.I,
)
"""The same with words already read between the two ("views in January 2020 for lux listings": the
views of lux listings in that month; "bookings for US listings": of the listings in the US),
written ``§``."""
_DID_BETWEEN = patterns.compile(r"\s+(?:did|do|does|have|has|had|will)\s+(?:the\s+|our\s+|all\s+|those\s+)?", re.I)
_GOT_AFTER = patterns.compile(
    r"\s+(?:get|got|have|had|receive|received|see|saw|make|made|generate|generated|earn|earned|bring\s+in|record)\b",
    re.I,
)
"""A metric said as what another's rows got ("how many bookings did lux listings get"): the first of
the rows the second names, as "bookings of lux listings" — never both side by side."""
_PER_UNIT = patterns.compile(r"每|平均|均|\bper\b|\baverage\b|\bavg\b", re.I)
_ADJACENT = patterns.compile(r"^\s*的?\s*$")


_WHOLE = patterns.compile(r"\ball\b|所有|全部|整体")
_ROW_COUNTS = frozenset({"COUNT(*)", "COUNT(1)", "SUM(1)"})


def counts_rows_of(catalog: Catalog, count: str, other: str) -> bool:
    """Whether metric ``count`` only counts the rows ``other`` is measured over: a plain row count
    of the same table, its filters among each of the other's measures' ("flights" of "average
    departure delay for flights") — the noun of those rows, no second metric."""
    metric = catalog.metrics[count]
    if metric.is_ratio or metric.is_derived or count == other:
        return False
    (own,) = catalog.measures_of(count)
    if re.sub(r"\s+", "", own.expression).upper() not in _ROW_COUNTS:
        return False
    return all(m.table == own.table and set(own.filters) <= set(m.filters) for m in catalog.measures_of(other))


def metric_as_a_word_of_another(
    catalog: Catalog,
    scan: Scan,
    metric_hits: Sequence[Hit],
    bounded: tuple[int, int] | None = None,
    placed: Sequence[tuple[int, int]] = (),
) -> list[Hit]:
    """A metric's name used as a condition on rows ("上个月有优惠的订单数", "GMV of orders with
    a discount": the orders that had one, not the discount amount beside them), or a per-unit
    phrase of one metric said right before another ("平均每单优惠": the discount per order, not
    AOV and the discount), or a metric said of another ("新注册用户的GMV": the GMV of those users,
    not the signups beside all GMV): a metric Baton would add beside the asked one. Asked back naming it.
    A metric a bound is said of (``bounded``: "categories with GMV above 5m") is a condition on
    groups the threshold reads, not on rows. ``placed``: the spans of the periods and members, which
    may stand between the two ("views in January 2020 for lux listings"). A metric said of the very
    rows another counts ("average delay for flights", "订单的GMV") is that metric alone: the hits
    naming only those rows are returned."""
    ordered = sorted(metric_hits, key=lambda h: h.start)
    nouns: list[Hit] = []
    for i, hit in enumerate(ordered):
        nxt = ordered[i + 1] if i + 1 < len(ordered) else None
        before = scan.norm[: hit.start]
        condition = (hit.start, hit.end) != bounded and (
            _CONDITION_BEFORE_EN.search(before) is not None
            or (
                _CONDITION_BEFORE_ZH.search(before) is not None
                and _ATTRIBUTIVE_ZH.match(scan.norm, hit.end) is not None
            )
        )
        per_unit = (
            nxt is not None
            and _PER_UNIT.search(hit.text) is not None
            and _ADJACENT.match(scan.norm[hit.end : nxt.start])
        )
        said_of = (  # "新注册用户的GMV", "new signups' GMV", "GMV of new signups": a metric of a metric
            nxt is not None
            and nxt.terms != hit.terms
            and (
                _OF_ZH.fullmatch(scan.norm[hit.end : nxt.start])
                or _OF_EN.fullmatch(scan.norm[hit.end : nxt.start])
                or _OF_EN_PAST_READ.fullmatch(_marked(scan.norm, placed, hit.end, nxt.start))
                or (_DID_BETWEEN.fullmatch(scan.norm[hit.end : nxt.start]) and _GOT_AFTER.match(scan.norm, nxt.end))
            )
        )
        if said_of and nxt is not None and not condition and not per_unit:
            between = scan.norm[hit.end : nxt.start]
            # "GMV for orders": the second names the rows; "订单的GMV", "orders' GMV": the first does
            of_the_second = not _OF_ZH.fullmatch(between) and not re.match(r"\s*'", between)
            dependent, head = (nxt, hit) if of_the_second else (hit, nxt)
            # "cancelled flights of all flights": a share of the whole, asked; "每单的GMV": per order
            whole = _WHOLE.search(between) is not None
            noun = None if whole else _rows_noun(catalog, dependent, head)
            if noun is not None and _PER_UNIT.search(scan.norm, max(0, noun.start - 4), noun.start) is None:
                if noun not in nouns:
                    nouns.append(noun)
                continue
        if condition or per_unit or said_of:
            said = scan.text[hit.start : (nxt.end if (per_unit or said_of) and nxt is not None else hit.end)]
            raise AmbiguousQuestion(
                *(message("nlu.metric_as_a_word", lang, words=said) for lang in LANGUAGES),
                detail={"unknown": [said], "reason": "metric_as_a_word"},
            )
    return nouns


def _rows_noun(catalog: Catalog, dependent: Hit, head: Hit) -> Hit | None:
    """``dependent`` — the word a metric is said of ("orders" of "GMV for orders") — when it only
    names the rows ``head`` is measured over; never the metric asked ("买家的订单量": orders of
    buyers is no count of buyers)."""

    def metric(hit: Hit) -> str | None:
        named = {t.target for t in hit.terms if t.kind == "metric"}
        return next(iter(named)) if len(named) == 1 else None

    noun, asked = metric(dependent), metric(head)
    if noun is None or asked is None or not counts_rows_of(catalog, noun, asked):
        return None
    return dependent


def _marked(norm: str, placed: Sequence[tuple[int, int]], start: int, end: int) -> str:
    """``norm[start:end]`` with the periods and members said (``placed``: "January 2020", "cote
    d'ivoire") written ``§``, their spaces kept."""
    return "".join(
        "§" if not ch.isspace() and any(s <= i < e for s, e in placed) else ch
        for i, ch in enumerate(norm[start:end], start)
    )


def claim_measure_words(catalog: Catalog, scan: Scan, metrics: Sequence[str]) -> None:
    """ "GMV amount", "上个月GMV金额": a word asking for money, read when every metric is money.
    With a count it is asked back: "void invoices amount" is the invoices' money, not how many
    there are (it was a filler, and the answer a count)."""
    found = scan.find_all(vocab.MONEY_WORDS)
    if not metrics or not found:
        return
    if {catalog.metrics[m].unit for m in metrics} <= {"currency"}:
        scan.take(vocab.MONEY_WORDS)
        return
    word = found[0].group(0)
    labels = metric_labels(catalog, metrics)
    raise AmbiguousQuestion(
        *(message("nlu.measure_word", lang, word=word, metrics=labels[lang]) for lang in LANGUAGES),
        detail={"unknown": [word], "metrics": list(metrics), "reason": "measure_word"},
    )


def count_of_an_amount(catalog: Catalog, scan: Scan, metric_hits: Sequence[Hit]) -> None:
    """ "number of sales", "how many sales", "sales count", "# of sales": counting words said of a
    metric that is an amount of money (a synonym like "sales" names GMV) ask for a count the
    amount is not — asked back, never answered with the amount. Likewise of an average or a rate
    ("how many delays" where "delays" names the average delay in minutes)."""
    for hit in metric_hits:
        metrics = {t.target for t in hit.terms if t.kind == "metric"}
        kinds = {_not_a_count(catalog.metrics[m]) for m in metrics}
        if not metrics or None in kinds or (kinds == {"an_average"} and vocab.AVERAGE_NAMED.search(hit.text)):
            continue
        before = _COUNTING_BEFORE.search(scan.norm[: hit.start])
        after = _COUNTING_AFTER.match(scan.norm, hit.end)
        if before or after:
            start = before.start() if before else hit.start
            words = scan.text[start : after.end() if after else hit.end].strip()
            metric = catalog.metrics[sorted(metrics)[0]].label
            kind = sorted(k for k in kinds if k is not None)[0]
            raise AmbiguousQuestion(
                *(
                    message(f"nlu.count_of_{kind}", lang, words=words, metric=metric.for_lang(lang))
                    for lang in LANGUAGES
                ),
                detail={"reason": f"count_of_{kind}", "words": words},
            )


def _not_a_count(metric: Metric) -> str | None:
    """What a metric counting words cannot be said of is: an amount of money, or an average or a
    rate (a ratio, or an average of a column); ``None`` for what can be counted."""
    if metric.unit == "currency":
        return "an_amount"
    averaged = metric.expression is not None and _AVERAGE.match(metric.expression) is not None
    if metric.unit == "ratio" or averaged or (metric.numerator is not None and metric.unit != "count"):
        return "an_average"
    return None


_AVERAGE = patterns.compile(r"\s*(?:avg|mean|median)\s*\(", re.I)
_COUNTING_BEFORE = patterns.compile(
    r"(?:\bhow many|\b(?:the |total )?number of|#\s*of|#|\bno\. of|\bcount of|多少笔|几笔|多少单|几单)\s*$", re.I
)
_COUNTING_AFTER = patterns.compile(r"\s*(?:\bcounts?\b|笔数|单数)", re.I)
"""Counting words after an amount's name ("sales count"); "sales numbers" are its figures."""


def metric_over_metric(scan: Scan, metric_hits: Sequence[Hit]) -> None:
    """ "优惠金额占GMV的比例", "discount as a share of GMV": one metric over another is a ratio the
    catalog does not define, never each one's share of its own total — asked back."""
    ordered = sorted(metric_hits, key=lambda h: h.start)
    for first, second in itertools.pairwise(ordered):
        if first.terms != second.terms and _OVER_METRIC.fullmatch(scan.norm[first.end : second.start]):
            raise _ratio_of_two(scan.text[first.start : second.end])


def metric_over_the_previous(scan: Scan, metric_hits: Sequence[Hit], previous: Sequence[str]) -> None:
    """ "上个月各区域优惠金额" then "占GMV的比例呢": the previous question's metric over another one —
    the same ratio as :func:`metric_over_metric`, its first metric left unsaid; asked back, never
    the named metric's share of its own total."""
    for hit in metric_hits:
        named = {t.target for t in hit.terms if t.kind == "metric"}
        over = _OVER_BEFORE.search(scan.norm, 0, hit.start) or (
            _WHAT_SHARE_OF.search(scan.norm, 0, hit.start) and _IS_THAT.match(scan.norm, hit.end)
        )
        if named and not named & set(previous) and over:
            raise _ratio_of_two(scan.text[: hit.end].strip())


def ratios_said_in_parts(
    catalog: Catalog, scan: Scan, hits: Sequence[Hit], language: Language
) -> tuple[list[Hit], list[Correction]]:
    """ "signups over visits", "收入除以订单数": two metrics said one over the other are the
    catalog's ratio of them when it defines exactly one (numerator ÷ denominator) — one hit, read
    as that metric and said so. A pair the catalog does not define stays two, and
    :func:`metric_over_metric` asks it back."""
    out = sorted(hits, key=lambda h: h.start)
    read: list[Correction] = []
    for first, second in itertools.pairwise(list(out)):
        over = _OVER_METRIC.fullmatch(scan.norm[first.end : second.start])
        if over is None or first not in out or ("/" in over.group(0) and _EACH_SAID.search(scan.norm)):
            continue  # "GMV/订单量分别是多少": a list of two, each asked
        tops = {t.target for t in first.terms if t.kind == "metric"}
        bottoms = {t.target for t in second.terms if t.kind == "metric"}
        if len(tops) != 1 or len(bottoms) != 1:  # "收入除以订单量": which 收入? asked, never picked by the ratio
            continue
        found = [
            name
            for name, m in catalog.metrics.items()
            if isinstance(m.numerator, str) and isinstance(m.denominator, str)
            and m.numerator in tops and m.denominator in bottoms
        ]  # fmt: skip
        end = second.end
        if "占" in over.group(0):  # "订单量占访客数的比例": the ratio word closes it
            closing = _RATIO_CLOSING.match(scan.norm, end)
            end = closing.end() if closing is not None else -1
        if len(found) != 1 or end < 0:
            continue
        written = scan.text[first.start : end]
        out[out.index(first)] = Hit(first.start, end, written, (Term("metric", found[0], written),))
        out.remove(second)
        label = catalog.metrics[found[0]].label.for_lang(language)
        read.append(Correction(written=written, read_as=label, kind="ratio"))
    return out, read


def rates_said_as_shares(
    catalog: Catalog, scan: Scan, hits: Sequence[Hit], language: Language
) -> tuple[list[Hit], list[Correction]]:
    """ "what % of orders were refunded", "取消的订单占比", "退款订单的比例":
    the share of a count that an event of a rate metric befell is that rate — read as the catalog's
    rate whose name the event word begins (退款 of 退款率, "refunded" of "refund rate"), when the count
    is the rate's own denominator (the same count of the same table: never "% of buyers refunded" for
    a rate of orders), and said so. Never a share of the events among groups ("app's share of orders
    refunded", "… refunded came from the app"). The words are the catalog's: no rate is named in
    code; with no such rate the event word stays unread and is asked back."""
    out = sorted(hits, key=lambda h: h.start)
    read: list[Correction] = []
    rates = _rate_stems(catalog)
    for noun in list(out):
        counts = [t.target for t in noun.terms if t.kind == "metric" and catalog.metrics[t.target].unit == "count"]
        if len(counts) != 1 or len(noun.terms) != 1:
            continue
        for rate, stems in rates.items():
            noun_measure, denominator = catalog.measures_of(counts[0])[0], catalog.measures_of(rate)[1]
            if (noun_measure.table, noun_measure.expression) != (denominator.table, denominator.expression):
                continue  # "% of buyers refunded": the rate counts orders, not buyers
            span = _share_of_a_count(scan, noun, stems)
            if span is None:
                continue
            written = scan.text[span[0] : span[1]]
            out[out.index(noun)] = Hit(span[0], span[1], written, (Term("metric", rate, written),))
            read.append(
                Correction(written=written, read_as=catalog.metrics[rate].label.for_lang(language), kind="ratio")
            )
            break
    return out, read


def _rate_stems(catalog: Catalog) -> dict[str, list[str]]:
    """Each rate metric's event words, from its names that end in 率 / "rate": 退款 of 退款率, and in
    English the first word cut to its root ("cancellation" → "cancell", so "cancelled" is one)."""
    stems: dict[str, list[str]] = {}
    for name, metric in catalog.metrics.items():
        if not metric.is_ratio:
            continue
        for said in (metric.label.zh, metric.label.en, *metric.synonyms):
            word = normalise(said.strip())
            if word.endswith("率") and len(word) >= 3 and not word.isascii():
                stems.setdefault(name, []).append(re.escape(word[:-1]))
            elif word.endswith(" rate") and " " not in word[:-5] and len(word) > 8:
                root = _NOUN_ENDING.sub("", word[:-5])
                stems.setdefault(name, []).append(re.escape(root) + r"[a-z]{0,2}ed")  # "refunded", "cancelled"
    return stems


_NOUN_ENDING = re.compile(r"(?:ation|sion|ion|ment|al)$")


def _share_of_a_count(scan: Scan, noun: Hit, stems: list[str]) -> tuple[int, int] | None:
    """The span of a share of ``noun`` said with one of ``stems`` as its event: "取消的订单占比",
    "订单中退款的比例", "what % of orders were refunded"."""
    stem = "|".join(sorted(stems, key=len, reverse=True))
    before = re.compile(rf"(?:{stem})了?的?\s*$").search(scan.norm, 0, noun.start)
    after = _ZH_SHARE_AFTER.match(scan.norm, noun.end)
    if before is not None and after is not None:
        return before.start(), after.end()
    inside = re.compile(rf"(?:中|里|当中)?(?:被)?(?:{stem})了?的?{_ZH_SHARE_AFTER.pattern}").match(scan.norm, noun.end)
    if inside is not None:
        return noun.start, inside.end()
    share = _EN_SHARE_OF.search(scan.norm, 0, noun.start)
    event = re.compile(rf"\s+(?:that\s+|which\s+)?(?:were\s+|was\s+|got\s+|get\s+|are\s+|is\s+)?(?:{stem})\b").match(
        scan.norm, noun.end
    )
    if share is None or event is None or any(s < event.end() and event.start() < e for s, e in scan.terms):
        return None  # "% of orders were returning users": a member's word, no event
    clause_end = next((b.start() for b in vocab.CLAUSE_BREAK.finditer(scan.norm, event.end())), len(scan.norm))
    if _POSSESSED.search(scan.norm, 0, share.start()) or _CAME_FROM.search(scan.norm, event.end(), clause_end):
        return None  # "app's share of orders refunded", "… refunded came from the app": a share of the events
    return share.start(), event.end()


_POSSESSED = patterns.compile(r"(?:'s|’s)\s+$|\beach\b[^?.!,]*$", re.I)
_CAME_FROM = patterns.compile(r"\b(?:c(?:a|o)mes?|were|was|are|is)?\s*from\b|\bby\b|\bin each\b", re.I)
_ZH_SHARE_AFTER = patterns.compile(r"\s*的?\s*(?:占比|比例|比重|百分比|占了?多少|占几成)")
_EN_SHARE_OF = patterns.compile(
    r"(?:\b(?:share|percentage|percent|proportion|fraction|pct)|%)\s+of\s+(?:the\s+|all\s+)?(?:total\s+)?$", re.I
)


_EACH_SAID = patterns.compile(r"分别|各自|\brespectively\b|\bseparately\b|\beach\b", re.I)
_RATIO_CLOSING = patterns.compile(r"\s*的?\s*(?:比例|比率|比重|百分比|占比)")


def _ratio_of_two(said: str) -> AmbiguousQuestion:
    """One metric over another, asked back naming the words that said it."""
    return AmbiguousQuestion(
        *(message("nlu.ratio_of_two", lang) for lang in LANGUAGES), detail={"reason": "ratio_of_two", "words": said}
    )


_ASKING_EN = r"(?:and\s+|what about\s+|how about\s+|(?:so\s+)?(?:what'?s|what\s+(?:is|was|are|were)|show(?:\s+me)?|give\s+me)\s+)"
_OVER_BEFORE = patterns.compile(
    r"^\s*(?:那|那么|and\s+|what about\s+|how about\s+)?(?:它|其|这个|那个|这些|那些|this|that|it)?\s*"
    r"(?:占了?|占到|相对于|除以|/|÷)\s*(?:总的?)?\s*$"
    rf"|^\s*{_ASKING_EN}?(?:(?:it|that|this|those|these|them)\s+)?"
    r"(?:as\s+an?\s+(?:share|percentage|percent|proportion|fraction)\s+of|divided by|relative to|over)\s+(?:the\s+)?(?:total\s+)?$",
    re.I,
)
"""Words that open a follow-up by setting what was asked over a metric ("占GMV…", "as a share of GMV",
"what's that as a percentage of GMV"; "what percentage of GMV is that" with :data:`_IS_THAT`)."""
_WHAT_SHARE_OF = patterns.compile(
    rf"^\s*{_ASKING_EN}?what\s+(?:share|percentage|percent|proportion|fraction)\s+of\s+(?:the\s+)?(?:total\s+)?$", re.I
)
_IS_THAT = patterns.compile(r"\s*(?:is|are|was|were)\s+(?:that|it|this|those|these|them)\b", re.I)
"""After "what percentage of GMV": what was asked before ("…is that?"), never a new part ("…came from East China")."""
_OVER_METRIC = patterns.compile(
    r"\s*(?:占了?|占到|相对于|除以|/|÷)\s*"
    r"|\s+(?:(?:as|in)\s+(?:an?\s+)?(?:share|percentage|percent|pct|%|proportion|fraction|ratio)\s+of|divided by|"
    r"relative to|over)\s+(?:the\s+)?|\s*%\s*of\s+(?:the\s+)?",
    re.I,
)


def metric_labels(catalog: Catalog, metrics: Sequence[str], sep: str = "answer.and_sep") -> dict[Language, str]:
    """The metrics' labels joined in each language, for a question asked back in both."""
    return {
        lang: message(sep, lang).join(catalog.metrics[m].label.for_lang(lang) for m in metrics) for lang in LANGUAGES
    }


def metric_said_whole(scan: Scan, hits: Sequence[Hit], word: str) -> str:
    """ "乘客取消率", "discount rate": a metric word (率, 量; "rate", "margin") right after a catalog term
    is named with that term — the metric asked for is "乘客取消率", "discount rate", never "率", "rate"."""
    if len(word) != 1 and not word.isascii():
        return word
    residual = scan.residual()
    at = _whole_word(residual, word) if word.isascii() else residual.find(word)
    gap = 1 if word.isascii() else 0  # English words stand a space apart
    before = next((h for h in hits if at >= 0 and h.end == at - gap and scan.norm[h.end : at].strip() == ""), None)
    return scan.text[before.start : at + len(word)] if before is not None else word


def _whole_word(text: str, word: str) -> int:
    found = re.search(rf"(?<![a-z0-9]){re.escape(word.lower())}(?![a-z0-9])", text.lower())
    return found.start() if found is not None else -1


__all__ = [
    "claim_measure_words",
    "claim_metric_affixes",
    "claim_own_tables",
    "count_of_an_amount",
    "counts_rows_of",
    "metric_as_a_word_of_another",
    "metric_labels",
    "metric_over_metric",
    "metric_said_whole",
    "metrics_naming",
    "no_part_of_a_metric",
    "rates_said_as_shares",
    "ratios_said_in_parts",
]
