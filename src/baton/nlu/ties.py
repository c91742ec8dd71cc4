"""The words that tie a follow-up to the question before it, and the reading both share.

A follow-up ("那华南呢？", "换成按周看", "只看新用户", "What about orders?") says only what
changes; the words that frame it say *how* it changes: ``restrict`` ("只看", "only") narrows
the previous question, ``replace`` ("换成", "instead") swaps a part of it, ``add`` ("再",
"also") adds to it, and a plain frame ("那…呢", "what about") asks the same question of
something else. They are read (claimed) before any other reader, and only for a question that
follows another: alone, "只" is a word Baton does not understand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from baton import patterns
from baton.contracts.common import Language
from baton.contracts.semantic import Correction
from baton.nlu.cues import Cues
from baton.nlu.follow_pointers import PERIOD_POINTER, ROWS_POINTER, pointer_count
from baton.nlu.reading import Terms
from baton.nlu.scan import Scan
from baton.nlu.timeexpr import PeriodReading
from baton.nlu.vocabulary import THE_PLACED_ONE

_I = re.IGNORECASE
REPLACE = patterns.compile(
    r"换成|改成|换为|改为|换到|切换到|切到|改看|\binstead(?: of)?\b|\b(?:switch|swap)(?:ped|ed)? (?:it )?to\b"
    r"|\bchange (?:it |that |this )?to\b|\bmake (?:it|that) (?:a |an )?\b",
    _I,
)
CORRECTION = patterns.compile(
    r"^\s*(?:(?:不对|不是|错了|搞错了|说错了|抱歉|不好意思)[，,。.！!\s]*)?"
    r"(?:我(?:是说|说的是|指的是|的意思是|问的是|想问的是|要问的是|要的是)|应该是)"
    r"|^\s*(?:不对(?!比)|错了|搞错了|说错了)[，,。.！!\s]*(?:是|要)?(?=\S)"
    r"|^\s*(?:(?:no|nope|sorry|oops|wait|actually)[,.!]?\s+)*i\s+meant?\b|^\s*(?:no|nope)\s*[,，!]\s*",
    _I,
)
"""A follow-up that corrects the question before it ("不对，我是说华南", "不对，是5月", "no, I meant orders", "no, net
revenue"): what it names replaces the part of that question it stands for, as "换成" does. A polite
"sorry," or "actually," alone ties nothing: "Sorry, how many orders in May?" is a question of its own."""
RESTRICT = patterns.compile(
    r"只看一?下?|只要|只算|只查|只统计|仅看|仅算|仅限|仅|只|\bonly\b|\bjust\b|\blimit(?:ed)? to\b|\brestrict(?:ed)? to\b"
    r"|\bfilter(?:ed)? (?:it |that )?(?:to|on)\b",
    _I,
)
_SPLIT_NAMED = r"(?:\s+(?!just\b|only\b|keep\b|want\b|need\b)[a-z]+){1,2}"
"""The split's one or two words ("without the channel split"), never "no just … breakdown"."""
UNSPLIT = patterns.compile(
    r"不(?:用|要|必|需要)?再?(?:拆分?|拆开|细分|分开)了?"
    r"|不(?:用|要|必|需要)?再?(?:分|按)(?=\s*\S)|去掉(?=\s*\S)(?:拆分|细分)?"
    r"|(?<=\S)(?:拆分|拆开|细分|拆|分)了?(?=\s*[呢吧?？。!！]?\s*$)"
    r"|\bno (?:breakdown|split)\b|\bwithout (?:the |a )?(?:breakdown|split(?:ting)?)\b|\bnot (?:broken down|split)\b"
    rf"|\b(?:without|no)(?: the| a)?(?={_SPLIT_NAMED}\s+(?:breakdown|split)\b)"
    r"|\bdon'?t (?:break (?:it |them )?down|split)(?: (?:it|them))?(?: by)?\b|\bnot by\b|\bremove the\b|\bdrop the\b"
    r"|(?<=\w) (?:breakdown|split)\b",
    _I,
)
"""A follow-up that takes the breakdown away ("不用拆了", "不分渠道呢", "no breakdown", "not by channel"):
the dimensions it names, or all of them. Read only when the question opens so (:data:`UNSPLIT_OPENS`),
so "按渠道拆分" stays a breakdown."""
UNSPLIT_OPENS = patterns.compile(
    r"^\s*(?:(?:那|那就)|(?:整体|总体|合计|汇总|总计)呢?\s*[,，])?\s*不(?:用|要|必|需要)?再?(?:拆|细分|分|按)|^\s*(?:那|那就)?\s*去掉[^，,。；;？?！!\s按]{0,8}(?:拆分|细分|拆开)"
    r"|^\s*(?:ok(?:ay)?,?\s+)?(?:no (?:breakdown|split)|without (?:the |a )?(?:breakdown|split)"
    r"|not (?:broken down|split|by)|don'?t (?:break|split))\b"
    r"|^\s*(?:ok(?:ay)?,?\s+)?(?:remove|drop) the\b.{0,24}\b(?:breakdown|split)\b"
    rf"|^\s*(?:and\s+|ok(?:ay)?,?\s+)?(?:without|no)(?: the| a)?{_SPLIT_NAMED}"
    r"\s+(?:breakdown|split)\b",
    _I,
)
"""How a follow-up that takes a breakdown away opens: "去掉" and "drop the" only with a word of
splitting ("去掉渠道拆分"), never "去掉直播" (an exclusion), nor "去掉华南，按区域拆开看" (an exclusion,
then a breakdown)."""
POINTER = patterns.compile(f"{PERIOD_POINTER.pattern}|{ROWS_POINTER.pattern}", _I)
"""Words pointing at the previous answer's rows ("它的GMV呢", "这两个区域", "their orders?", "那天")."""
WHICH_OF_THOSE = patterns.compile(
    r"哪个(?:更|比较)?[大高多低少小好差]|哪个(?:的)?\S{0,6}?(?:更|比较)[大高多低少小好差]"
    r"|\bwhich (?:one |of (?:them|the two|those|these) )?(?:is|was|has|had|did|does) (?:the )?"
    r"(?:bigger|higher|larger|more|greater|lower|smaller|less|fewer|better|worse)\b"
    r"|\bwhich (?:of (?:them|the two|those|these)|one)\b",
    _I,
)
"""A follow-up asking which of the things already said is higher ("which one is bigger?", "哪个更高"):
of those, never of a breakdown it does not name (a remembered default breakdown is not applied)."""
ADD = patterns.compile(
    r"再加上|再加个|加上|加个|再|另外|一起|\balso\b|\bfurther\b|\badditionally\b|\bas well\b|\btoo\b|\bplus\b"
    r"|\btogether with\b|\balong with\b",
    _I,
)
"""Words that add to a part of the previous question ("再看华南", "跟华南一起呢", "together with South China"):
members join the filter on their dimension, one figure of them all."""
ADD_TOGETHER = patterns.compile(
    r"^\s*(?:那么?)?\s*(?P<with>和|跟|与|连同)(?=[^，,。？?]{1,20}?(?:加起来|合起来|加在一起|一共|总共|合计|加总|之和|总和))"
)
"""A follow-up opening with "和…" and summing ("和家用电器加起来多少", "跟华南合计呢"): the member
joins the previous one, one figure of both — never the member named in its place."""
_ADD_OPENS = r"^\s*(?:(?:ok(?:ay)?|now|and|then|please|can\s+you|could\s+you)[\s,]+)*(?:add|include)\s+(?:the\s+)?"
ADD_OPENS = patterns.compile(_ADD_OPENS, _I)
"""A follow-up opening by adding ("add orders", "please include the refund rate"): read only right
before a metric — a member added ("add South China") may be summed or set beside, never guessed."""
ADD_METRIC = patterns.compile(
    r"加上|加个|\balso\b|\bas well\b|\btoo\b|\badditionally\b|\bplus\b|还要|也要|也看|一起|" + _ADD_OPENS, _I
)
"""Words that add a metric to the previous question's ("refund rate too", "再加上订单量", and a follow-up
opening "add …"/"include …", anchored at its start), where "再" alone ("再看订单量") moves on to it."""
FRAME = patterns.compile(
    r"^\s*(?:那么|那如果|如果是|要是|接下来|然后|下面|那)|呢|拆开|拆一下|拆分一下|拆分|拆下|拆(?=\s*(?:看看?)?\s*[呢吧?？。!！]?\s*$)|分开看|分开"
    r"|^\s*(?:and\s+)?(?:what|how)\s+about\b|^\s*and\s+(?:for|in|by|with)?\b|^\s*what if\b"
    r"|^\s*(?:ok(?:ay)?,?\s+)?now\b"
    r"|\bsame (?:for|but|thing(?:,)? (?:for|but)|again(?:,)? but)\b|\bthe same\b(?!\s+(?:period|month|week|quarter|day|date|time)\b)|(?<=\s)(?<!first )(?<!second )(?<!third )(?<!fourth )(?<!fifth )(?<!sixth )(?<!2nd )(?<!3rd )ones?\b(?=\s*(?:had|has|have|was|were|is|are|did|does|[?？.!]|$))"
    r"|\bthem\b|\bthose\b",
    _I,
)
"""Words that only frame a follow-up ("which one", "them": the previous answer's rows; "接下来",
"然后": the next step); "拆开" asks to break the previous figure down."""


@dataclass(frozen=True)
class Ties:
    """How a follow-up relates to the question before it (its words claimed)."""

    restrict: bool = False
    replace: bool = False
    corrected: bool = False
    """The replacement said as a correction ("我是说", "I meant"), of what was misread."""
    add: bool = False
    framed: bool = False
    breakdown: bool = False
    pointer: str | None = None
    """The pronoun that points at the previous answer's rows, as said ("它", "their")."""
    unsplit: bool = False
    """The breakdown is taken away ("不用拆了", "不分渠道呢", "no breakdown")."""
    together: bool = False
    """A member summed with the one before ("和家用电器加起来多少")."""
    placed_away: bool = False
    """The row a place names is taken away from the rows listed ("去掉最高的那个", "without the top one")."""

    @property
    def any(self) -> bool:
        return self.restrict or self.replace or self.add or self.framed or self.unsplit or self.pointer is not None


_TAKEN_AWAY_BEFORE = patterns.compile(
    r"(?:去掉|去除|除去|除掉|不算|不看|不要|不含|排除掉?|剔除掉?|拿掉|扣掉|刨除掉?)\s*$"
    r"|\b(?:excluding|exclude|except(?:\s+for)?|without|drop|remove|not\s+counting|leave\s+out|leaving\s+out)\s+$",
    re.I,
)
"""A word taking away what follows it, right before a place said as a noun ("去掉|最高的那个")."""
_MEMBERS_JOINED = patterns.compile(r"[\s、，,和与及跟]*(?:\band\b|&)?[\s、，,]*")
"""What may stand between members named one after another ("小程序和直播", "app, web and")."""


def _placed_taken_away(scan: Scan) -> bool:
    """ "去掉最高的那个", "without the top one": a word of taking away right before a place said as a
    noun, claimed — the row placed is left out of the rows listed."""
    taken = False
    for placed in scan.find_all(THE_PLACED_ONE):
        away = _TAKEN_AWAY_BEFORE.search(scan.norm, 0, placed.start())
        if away is not None and scan.free(away.start(), away.end()):
            scan.claim(away.start(), away.end())
            taken = True
    return taken


def read_ties(scan: Scan) -> Ties:
    """The follow-up's tying words, claimed so no other reader sees them."""
    placed_away = _placed_taken_away(scan)
    unsplit = bool(UNSPLIT_OPENS.search(scan.norm)) and bool(scan.take(UNSPLIT))
    pointed = [m for m in scan.find_all(POINTER) if m.group(0) in _PRONOUNS or _stands_alone(scan, m.end())]
    for m in pointed:
        scan.claim(m.start(), m.end())
    pointed = [m for m in pointed if not _after_its_members(scan, m)]  # "小程序和直播这两个": they are named
    corrected = bool(scan.take(CORRECTION))
    replace = corrected | bool(scan.take(REPLACE))  # `|`: both are claimed, always
    restrict = bool(scan.take(RESTRICT))
    adding = [m for m in scan.find_all(ADD) if not _between_members(scan, m)]  # "app plus web": a sum
    opens = ADD_OPENS.match(scan.norm)
    if opens is not None and not scan.members and any(start == opens.end() for start, _ in scan.metrics):
        adding.append(opens)  # "add orders"; "add orders from web" (beside GMV, or web's alone?) is asked
    for m in adding:
        scan.claim(m.start(), m.end())
    together = scan.find_all(ADD_TOGETHER)
    for m in together:
        scan.claim(m.start("with"), m.end("with"))
    add = bool(adding) or bool(together)
    frames = scan.take(FRAME)
    breakdown = any(m.group(0).startswith(("拆", "分")) for m in frames)
    pointer = pointed[0].group(0) if pointed else None
    return Ties(
        restrict=restrict,
        replace=replace,
        corrected=corrected,
        add=add,
        framed=bool(frames),
        breakdown=breakdown and not unsplit,
        pointer=pointer,
        unsplit=unsplit,
        together=bool(together),
        placed_away=placed_away,
    )


_PRONOUNS = frozenset(("它", "它们"))
"""Pointers that are no part of another word, whatever follows ("它们上个月的呢")."""
_FILLER_THEN_PAUSE = patterns.compile(r"\s*[，,、…~]")
_WORD_GOES_ON = patterns.compile(r"\s*[\u4e00-\u9fff]")
_FUNCTION_CHARS = "的各每按分里中呢有是都整全总一些个吗和与跟比"


def _stands_alone(scan: Scan, end: int) -> bool:
    """Whether a pointer ending at ``end`` is a word of its own: what follows is no Chinese
    character, a function character, or a catalog term ("那天各渠道", "那天GMV"), never the rest
    of another word ("那天猫呢": Tmall)."""
    if _FILLER_THEN_PAUSE.match(scan.norm, end) and scan.norm[max(0, end - 2) : end] in ("那个", "这个"):
        return False  # "那个，订单量呢": a spoken filler, no pointer
    goes_on = _WORD_GOES_ON.match(scan.norm, end)
    if goes_on is None:
        return True
    at = goes_on.end() - 1
    return scan.norm[at] in _FUNCTION_CHARS or any(start == at for start, _ in scan.terms)


def _after_its_members(scan: Scan, found: re.Match[str]) -> bool:
    """Whether a pointer of several ("这两个", "these two") stands right after as many members, named
    one after another ("小程序和直播这两个", "app and web, these two"): it restates them, pointing at
    no row of the previous answer."""
    count = pointer_count(found.group(0))
    named, at = 0, found.start()
    for start, end in sorted(scan.members, reverse=True):
        if start >= found.end():
            continue  # a member after the pointer ("…这两个，对比网页") is no part of the ones it restates
        if end > at or not _MEMBERS_JOINED.fullmatch(scan.norm, end, at):
            break
        named, at = named + 1, start
    return count is not None and count >= 2 and named == count


def _between_members(scan: Scan, found: re.Match[str]) -> bool:
    """Whether ``found`` ("plus") joins two members ("app plus web"), which sums them."""
    before = any(e <= found.start() and not scan.norm[e : found.start()].strip() for _, e in scan.members)
    after = any(s >= found.end() and not scan.norm[found.end() : s].strip() for s, _ in scan.members)
    return found.group(0).strip().lower() == "plus" and before and after


def has_ties(text: str) -> bool:
    """Whether a question carries a word that ties it to an earlier one."""
    return any(p.search(text) for p in (CORRECTION, REPLACE, RESTRICT, ADD, FRAME, UNSPLIT_OPENS, POINTER))


@dataclass
class Reading:
    """A question read in full, before a query is built from it (the parser's and the
    follow-up reader's shared middle)."""

    scan: Scan
    cues: Cues
    terms: Terms
    periods: list[PeriodReading]
    corrections: tuple[Correction, ...]
    language: Language
    ties: Ties | None = None


__all__ = ["Reading", "Ties", "has_ties", "read_ties"]
