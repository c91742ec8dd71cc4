"""A reply to a question Baton asked back, read together with the question it answers.

"上个月华南各渠道的收入" is asked back ("收入: GMV or net revenue?"); the reply "GMV" alone has no
period and would be asked back again, and the period's answer next has no metric — a loop that
loses the first question's filters and breakdown. A short reply that is no question of its own
completes the question asked back (or refused for a metric the catalog lacks: "利润" then
"那GMV呢") instead: it replaces the word the question back named
("收入" → "GMV"), picks the event's day or its whole span ("当天", "整个活动期间"), or adds what was
missing ("上个月"). The completed question is read as any question is, so its interpretation
shows what was computed; a reply that completes nothing is read on its own, as before.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date

from baton import patterns
from baton.nlu import timeexpr
from baton.nlu.ties import REPLACE, has_ties

_DAY = patterns.compile(r"当天|当日|那天|那一天|单日|\b(?:the|that|just the|only the)\s+day\b|\bon the day\b", re.I)
_SPAN = patterns.compile(r"整个|全程|全部|整段|活动期间|期间|\bwhole\b|\bentire\b|\bfull\b|\bperiod\b|\bevent\b", re.I)
_FILLER = patterns.compile(
    r"^[\s,，。.!！?？]+|[\s,，。.!！?？]+$|^(?:那就|那|那么|是|就|要|用|看|换成|改成|please|i mean|then|ok|okay|the)\s*"
    r"|\s*(?:呢|吧|啊|呀|then|please|instead)$",
    re.I,
)
_MONTHS = {
    m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)
}
_YEAR_SAID = rf"(?:(?P<month>(?:{'|'.join(_MONTHS)})[a-z]* )?(?:of |in )?(?:last year|that year))"
_SAME_PERIOD = patterns.compile(
    r"(?:去年|当年|那年)?的?同期(?:的)?(?:吧|呢|就行|就好|即可)?"
    rf"|(?:i mean |i meant )?(?:the )?same (?:period|months?|weeks?|days|dates|time)(?:[, ]+{_YEAR_SAID})?",
    re.I,
)
_WHOLE_YEAR = patterns.compile(
    r"(?:去年|当年|那年)?的?(?:全年|整年|一整年)(?:的)?(?:吧|呢|就行|就好|即可)?"
    rf"|(?:i mean |i meant )?(?:the )?(?:whole|full|entire)(?: year)?(?:[, ]+{_YEAR_SAID})?",
    re.I,
)
"""The whole reply choosing one of the two periods offered: said alone, nothing else added ("同期，只看华东"
is a question of its own, "不是同期" no choice)."""
_TAKEN = patterns.compile(
    r"(?:好的?|行|可以|嗯|对|是的?|没问题)?[，,\s]*(?:就)?(?:按|用|看)?(?:完整的?周|整周|这些周|这几周)(?:吧|呢|就行|就好)?"
    r"|好的?|行|可以|没问题|嗯|对|是的?"
    r"|(?:ok(?:ay)?|yes|yep|sure|fine)?[,\s]*(?:(?:use|take|go with) (?:those|them|these|that|the whole weeks|whole weeks)"
    r"|(?:the )?(?:whole|full|complete) weeks(?: (?:then|please))?|(?:that|those) (?:works?|is fine))"
    r"|ok(?:ay)?|yes|yep|sure|fine",
    re.I,
)
"""The whole reply taking the whole weeks offered, and nothing else."""
_ISO_DAY = patterns.compile(r"\d{4}-\d{2}-\d{2}")
MAX_REPLY = 24
"""Longer text is a question of its own, not a reply to one."""


def only_a_period(reply: str, as_of: date) -> bool:
    """Whether ``reply`` says a period and nothing else ("最近8周", "那就看最近8周吧", "last 8 weeks
    then"): the answer to "which period?", never a new question that only moves the period."""
    said = reply.strip()
    for _ in range(3):
        said = _FILLER.sub("", said)
    if not said or len(said) > MAX_REPLY:
        return False
    periods = timeexpr.read_periods(said, as_of)
    if len(periods) != 1 or periods[0].match is None:
        return False
    start, end = periods[0].span
    rest = said[:start] + said[end:]
    for _ in range(3):
        rest = _FILLER.sub("", rest)
    return not rest.strip()


def completions(asked: str, reply: str, detail: Mapping[str, object], language: str) -> list[str]:
    """The question asked back, completed by ``reply`` — the likeliest reading first."""
    said = reply.strip()
    for _ in range(3):  # "那GMV呢？": a few layers of filler around the word
        said = _FILLER.sub("", said)
    # a choice offered, taken by a whole reply that says only it (however long its words)
    out = _year_or_same(asked, said, detail, language) + _whole_weeks_taken(asked, said, detail, language)
    if not said or len(said) > MAX_REPLY:
        return out
    period = detail.get("period")
    if detail.get("missing") == "time_range" and isinstance(period, str) and period and period in asked:
        out.append(_replaced(asked, period, said))  # "last Monday" → "2026-06-22", the rest of the question kept
    # a period with no data yet ("this quarter"), replaced by the one given ("ok, last quarter then")
    no_data_yet = detail.get("text") if "latest_complete_day" in detail else None
    if isinstance(no_data_yet, str) and no_data_yet and no_data_yet in asked:
        out.append(_replaced(asked, no_data_yet, said))
    term = detail.get("term")
    if isinstance(term, str) and term in asked:
        if detail.get("missing") == "time_range":  # an event: its day, or its whole span
            dates = _ISO_DAY.findall(said)
            offered = detail.get("suggestions")
            suggested = [str(s).split("~") for s in offered] if isinstance(offered, list) else []
            if _DAY.search(said) or (suggested and dates == suggested[0]):  # the day, or its date as offered
                out.append(asked.replace(term, term + ("当天" if language == "zh" else " day"), 1))
            elif _SPAN.search(said) or (len(suggested) > 1 and dates == suggested[1]):
                out.append(asked.replace(term, term + "期间", 1))
        else:  # the word it named ("收入") replaced by the one chosen ("GMV"), the rest added
            first, rest = _first_and_rest(said)
            out.append(_replaced(asked, term, said))
            if rest:  # "华东收入前三的品类" → "GMV，上个月"
                out.append(_joined(_replaced(asked, term, first), rest, language))
    member = detail.get("member")
    if isinstance(member, str) and member in asked and isinstance(detail.get("suggestions"), list):
        # "LGA: origin or destination?" then "出发机场LGA" / "origin": the member said with its dimension
        named = said if member.lower() in said.lower() else f"{said}{'' if language == 'zh' else ' '}{member}"
        out.append(_replaced(asked, member, named))
    unknown = detail.get("unknown")
    word = unknown[0] if isinstance(unknown, list) and len(unknown) == 1 and isinstance(unknown[0], str) else None
    # "drop GMV" (not understood) then "and for new customers?": a follow-up of its own, never a
    # rewording of "drop" — a reply with a tie word replaces no word
    if word is not None and word in asked and not has_ties(reply):
        out.append(_replaced(asked, word, said))
    # "每个月GMV最高的渠道" (which period?) then "换成订单量": a change of the question, not its missing part
    changes = REPLACE.search(reply) is not None
    if detail.get("missing") in ("time_range", "metric") and term is None and not changes:  # what was missing, added
        out.append(_joined(asked, said, language))
    return [" ".join(q.split()) for q in out]


def _year_or_same(asked: str, said: str, detail: Mapping[str, object], language: str) -> list[str]:
    """ "去年呢" asked back (the whole year, or the same period that year?) then "同期" / "same
    period, June last year": the dates of the same period; "全年" / "the whole year": the year,
    said so. A reply naming both, or neither, completes nothing."""
    year_said, start, end = detail.get("said"), detail.get("same_from"), detail.get("same_to")
    if not (isinstance(year_said, str) and year_said in asked and isinstance(start, str) and isinstance(end, str)):
        return []
    same, whole = _SAME_PERIOD.fullmatch(said), _WHOLE_YEAR.fullmatch(said)
    chosen = same or whole
    if chosen is None or (same and whole):
        return []
    month = (chosen.group("month") or "").strip()[:3].lower()
    named = f"{_MONTHS.get(month, 0):02d}"
    if month and (whole or start[5:7] != named or end[5:7] != named):  # "April" of a quarter offered: no choice
        return []  # "same period, May last year" after June: no choice of the two offered
    if same:
        return [_replaced(asked, year_said, _dates(start, end, language))]
    return [_replaced(asked, year_said, f"{year_said}全年" if language == "zh" else f"the whole of {year_said}")]


def _whole_weeks_taken(asked: str, said: str, detail: Mapping[str, object], language: str) -> list[str]:
    """ "上个月每周GMV环比" asked back (only whole weeks: 2026-06-01 to 06-28?) then "就按完整的周吧" /
    "ok, use the whole weeks": the period replaced by the whole weeks offered."""
    period, inside = detail.get("period"), detail.get("whole_inside")
    if not (isinstance(period, str) and period in asked and isinstance(inside, list) and len(inside) == 2):
        return []
    if _TAKEN.fullmatch(said) is None:
        return []
    start, end = inside
    return [_replaced(asked, period, _dates(str(start), str(end), language))]


def _dates(start: str, end: str, language: str) -> str:
    """A period offered, said back as its dates ("2025-06-01至2025-06-30")."""
    return f"{start}至{end}" if language == "zh" else f"{start} to {end}"


_PARTS = patterns.compile(r"\s*[，,、;；]\s*")


def _first_and_rest(said: str) -> tuple[str, str]:
    """ "GMV，上个月" → ("GMV", "上个月")."""
    parts = [p for p in _PARTS.split(said) if p]
    return (parts[0], "，".join(parts[1:])) if len(parts) > 1 else (said, "")


def _replaced(asked: str, word: str, by: str) -> str:
    """``asked`` with its first ``word`` replaced by ``by``, a space kept only between Latin
    letters or digits ("总收入" → "总GMV", "last month revenue" → "last month GMV")."""
    at = asked.index(word)
    before, after = asked[:at], asked[at + len(word) :]
    left = " " if before and before[-1].isascii() and before[-1].isalnum() and by[:1].isascii() else ""
    right = " " if after and after[0].isascii() and after[0].isalnum() and by[-1:].isascii() else ""
    return f"{before}{left}{by}{right}{after}"


def _joined(asked: str, said: str, language: str) -> str:
    return f"{asked}{'，' if language == 'zh' else ', '}{said}"
