"""A part's contribution to one move ("哪个渠道对上个月GMV下降贡献最大", "上个月GMV下降主要是哪个品类
导致的", "which channel contributed most to the decline in GMV", "the top 3 categories driving the
drop"): the groups of one breakdown ranked by their own change, an amount.

The verb is read as such only where the words place it: a move said with it (before it in its
sentence in Chinese — "对GMV下降贡献", "GMV环比下降了，哪个渠道贡献最大" —, a few words after it in
its clause in English — "contributed most to the decline") and a superlative said of it ("贡献最大",
"主要是", "the biggest contributor", "contributed the most"). Without a move it is no contribution
to one ("各渠道对GMV的贡献" is a share). With a move but no superlative ("which channels contributed
to the decline", "哪个渠道导致了GMV下降") every group is ranked by its part, those that moved the
other way named: the one "most" is never guessed. Beside another superlative ("GMV最高的用户类型对
下降贡献最大吗") or as a yes/no it is asked back, never ranked by the wrong words.

Each group's share of one move ("各渠道对GMV下降的贡献占比", "each region's share of the GMV decline") is the
same ranking of every group (:func:`read_share_of_a_move`), never the groups' shares of the value.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from baton import patterns
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.nlu import vocabulary as vocab
from baton.nlu.scan import Scan

if TYPE_CHECKING:
    from baton.nlu.cues import Cues

_ASKED_YES_OR_NO = patterns.compile(r"^\s*(?:is|are|was|were|did|does|do|has|have)\b", re.I)
_WORDS_TO_THE_MOVE = 6
"""At most this many words between an English contribution and its move ("to last month's GMV decline")."""
_CHARS_TO_THE_MOVE = 8
"""At most this many characters between a Chinese verb and the move after it ("拉动GMV增长")."""
_THE_MOST = patterns.compile(r"\b(?:the )?most\b(?! recent\b)", re.I)
_MOST_RECENT = patterns.compile(r"most recent\b", re.I)
_MOVE_NOUN = patterns.compile(
    r"(?P<down>下降|下滑|下跌|减少|减量|降幅|跌幅|\b(?:declines?|drops?|falls?|decreases?|loss(?:es)?|dips?)\b)"
    r"|(?P<up>增长|上涨|上升|增加|增量|增幅|涨幅|\b(?:growth|increases?|rises?|gains?)\b)",
    re.I,
)
"""The move a share of a move is of, and its way ("变化", "change": none)."""
_DOWN_AFTER = patterns.compile(r"(?: [\w'’]+){0,3}? (?P<down>down)\b")
""""dragged GMV down": the particle of an English drag."""
_SHARE_RIGHT_AFTER = patterns.compile(r"(?:的)?(?:占比|比例|比重|百分比|率|占了?多少|了?多少|份额)")
"""A share word right after a share of a move ("对GMV下降的贡献占比"), read with it."""
_SHARE_OF_A_MOVE_WORDS = patterns.compile(
    r"\b(?:what|share|shares|proportion|fraction|portion|part|percent(?:age)?|of|in|to|the|total|whole|overall"
    r"|how much|did|does|do|has|have|contribut\w*|account(?:s|ed)? for|c(?:a|o)mes? from|that|it|this)\b|%"
    r"|里|中|之中|当中|贡献|占|百分之|几成|比例|比重|份额|对|的|了|各自?|分别|多少|几|拉动|带动|比|率|金额|额|量|部分|[，,]",
    re.I,
)
"""The words of a share of a move itself, inside its match (never a period or a group said there)."""
_SHARE_VERB_LATER = patterns.compile(
    r"\b(?:came|come|comes|coming) from\b|\baccount(?:s|ed)? for\b|\bcontribut\w*\b", re.I
)
"""The verb of an English share of a move later in its clause ("what percent of the decline did
each region account for")."""
_CAUSE = patterns.compile(r"导致|造成|引起|\bdr(?:ove|ives?|iving|iven)\b|\bcaus", re.I)
"""A verb that is only ever of a move ("导致", "drove"), never a part of a value as 贡献 may be."""
_EACH_CONTRIBUTED = patterns.compile(
    r"(?:各自?|分别|每一?个[^，,。；;？?]{0,6}?)贡献了?(?:多少|几成|百分之(?:几|多少))"
    r"|\b(?:how much|what share|what part)\b[^?.!]{0,20}?\beach\b[^?.!]{0,30}?\b(?:contribut\w*|account(?:ed)? for)\b",
    re.I,
)
"""A follow-up's share of the move the previous question said ("各渠道分别贡献了多少", "how much did each
channel contribute"): read only when a move was said there and no metric is named here."""
_A_CHANGE = patterns.compile(r"变化|变动|\bchanges?\b", re.I)
""""变化中各渠道占比": a change with no way, asked back (never a share of the value)."""
_SUPERLATIVE_AFTER = patterns.compile(r"\s*(?:是)?最(?:大|多|高)")
_SHARE_LEFT_AT = patterns.compile(r"比(?:例|重)?|多少|几成|百分之(?:几|多少)")
""""增量里各渠道占比": the rest of a share word the match ended inside."""


def read_contribution(scan: Scan, cues: Cues, directions: list[str]) -> str | None:
    """The words of a question that asks which part contributed most to one move (None: it does
    not); claims them. Without a superlative ("which channels drove the drop", "哪个渠道导致了下降")
    every group is ranked by its part, those that moved the other way named as such: "most" is
    never guessed."""
    said = scan.find_all(vocab.CONTRIBUTION_TO_A_MOVE)
    if cues.why or not said:
        return None
    moves = _moves(scan, cues, said)
    # "上个月GMV环比下降了多少" then "哪个渠道贡献最大" (naming no metric of its own): the move said before
    before = not moves and not directions and cues.moved_before is not None and not scan.metrics
    if before:
        moves = [(len(scan.norm), len(scan.norm), str(cues.moved_before))]
    if not moves and not directions and any(_CAUSE.search(m.group(0)) for m in said):
        phrase = scan.text[said[0].start() : said[0].end()].strip()  # "主要是哪个渠道导致的": of which move?
        raise AmbiguousQuestion(
            *both("nlu.contribution_unplaced", said=phrase), detail={"reason": "contribution_unplaced"}
        )
    if len({*directions, *(d for _, _, d in moves)}) != 1:
        return None
    placed = said if before else [m for m in said if _drag(m) or _move_beside(scan, m, moves)]
    if not placed and moves:  # "哪个渠道的贡献最大，上个月GMV增长": of the move, or of the value?
        phrase = scan.text[said[0].start() : said[0].end()].strip()
        raise AmbiguousQuestion(
            *both("nlu.contribution_unplaced", said=phrase), detail={"reason": "contribution_unplaced"}
        )
    if not placed:
        return None  # "各渠道对GMV的贡献", "which channel contributed most to GMV": no move it is of
    phrase = scan.text[placed[0].start() : placed[0].end()].strip()
    ranked = [m for m in placed if _ranked_here(scan, m)]
    yes_no = vocab.YES_NO.search(scan.norm) or _ASKED_YES_OR_NO.match(scan.norm)
    if yes_no or _another_superlative(scan, ranked):
        raise AmbiguousQuestion(
            *both("nlu.contribution_unplaced", said=phrase), detail={"reason": "contribution_unplaced"}
        )
    for m in placed:  # "dragged GMV down": the particle, past the words between
        down = _DOWN_AFTER.match(scan.norm, m.end()) if m.group("drag_en") else None
        if down is not None and scan.free(*down.span("down")):
            scan.claim(*down.span("down"))
    for m in placed:  # a bare "most" is left to the ranking words ("which 2 regions contributed the most")
        most = m.span("most") if m.group("most") else (m.end(), m.end())
        for start, end in ((m.start(), most[0]), (most[1], m.end())):
            if end > start:
                scan.claim(start, end)
                cues.spans.setdefault("ranking", []).append((start, end))
    main = [
        m for m in scan.find_all(vocab.MAIN_PART) if any(_in_clause_before(scan, m.end(), p.start()) for p in placed)
    ]
    cues.claim(scan, "ranking", [*main, *scan.find_all(vocab.BY_A_PART)])
    cues.spans.setdefault("down", []).extend(span for m in placed if (span := _drag(m)) is not None)
    cues.best = cues.best or bool(main) or any(_part_said(m) for m in placed)
    cues.several = cues.several or any(m.group("plural") for m in placed)  # "the top contributors"
    if not ranked:  # "哪些渠道拖累了GMV": every group's part, in the move's order
        cues.best = cues.several = True
    cues.change = True
    return phrase


def read_share_of_a_move(scan: Scan, cues: Cues, directions: list[str]) -> str | None:
    """ "各渠道对GMV下降的贡献占比", "上个月gmv下降，各渠道贡献了多少", "each region's share of the GMV
    decline", "GMV fell last month. How much of that did each channel account for?": each part's
    share of one move, not of the value — every group ranked by its part (its own words claimed,
    a period or a group inside left to its reader); a superlative said of the share ("哪个渠道占比最大",
    "the largest share of the decline") ranks the top ones. Of a follow-up it may be of the move the
    previous question said ("各渠道分别贡献了多少"). Of named members the whole would be theirs alone
    (asked back once the query's groups are known: :meth:`CatalogChecks.check_share_of_a_move`); a
    change said with no way, or a superlative of something else, is asked back here."""
    found = None if cues.why else vocab.SHARE_OF_A_MOVE.search(scan.norm)
    if found is None and cues.moved_before is not None and not scan.metrics and not cues.why:
        found = _EACH_CONTRIBUTED.search(scan.norm)  # of the move the previous question said
    if found is None:
        return None
    phrase = scan.text[found.start() : found.end()].strip()
    move = _MOVE_NOUN.search(scan.norm, found.start(), found.end())
    way = ("down" if move.group("down") else "up") if move is not None else _one_way(directions, cues)
    if move is None and way is None and not directions and not _A_CHANGE.search(found.group(0)):
        return None  # "GMV last month: how much of it came from each region?": a share of the value
    if way is None or any(d != way for d in directions):
        raise AmbiguousQuestion(*both("nlu.share_of_a_change", said=phrase), detail={"reason": "share_of_a_change"})
    end = _share_end(scan, found)
    near = _superlative_beside(scan, found.start(), end)
    if near is None and vocab.BEST.search(scan.norm):  # "GMV最高的用户类型对GMV下降的贡献": of one group
        raise AmbiguousQuestion(
            *both("nlu.contribution_unplaced", said=phrase), detail={"reason": "contribution_unplaced"}
        )
    if move is not None and not any(s <= move.start() < e for s, e in cues.spans.get(way, [])):
        cues.claim(scan, way, [move])  # "增量", "the decline"
    clause_end = next((b.start() for b in vocab.CLAUSE_BREAK.finditer(scan.norm, end)), len(scan.norm))
    own = [*_SHARE_OF_A_MOVE_WORDS.finditer(scan.norm, found.start(), end)]
    own += _SHARE_VERB_LATER.finditer(scan.norm, end, clause_end)
    terms = scan.terms
    cues.claim(scan, "share_of_a_move", [m for m in own if scan.free(*m.span()) and not _inside(m, terms)])
    cues.take(scan, "ranking", vocab.BY_A_PART)
    cues.share_of_a_move = phrase
    cues.change = True
    cues.best = True
    cues.several = cues.several or near is None  # every group, unless the largest share is asked
    return phrase


def _inside(m: re.Match[str], spans: list[tuple[int, int]]) -> bool:
    """Whether ``m`` overlaps a catalog term ("量" of "订单量" is the metric's)."""
    return any(m.start() < e and s < m.end() for s, e in spans)


def _one_way(directions: list[str], cues: Cues) -> str | None:
    """The way of the move a share of a move said apart from its words ("GMV fell. How much of that
    …"), or the one the previous question said."""
    if len(set(directions)) == 1:
        return directions[0]
    return None if directions else cues.moved_before


def _share_end(scan: Scan, found: re.Match[str]) -> int:
    """Where a share of a move ends, with a share word right after it ("贡献占比", "占比")."""
    after = _SHARE_RIGHT_AFTER.match(scan.norm, found.end())
    after = after or (_SHARE_LEFT_AT.match(scan.norm, found.end()) if found.group(0).endswith("占") else None)
    return found.end() if after is None else after.end()


def _superlative_beside(scan: Scan, start: int, end: int) -> re.Match[str] | None:
    """A superlative said of the share itself: right after it in Chinese ("占比最大"), before it in
    its clause in English ("the largest share of the decline", "top 3 regions by share of")."""
    after = _SUPERLATIVE_AFTER.match(scan.norm, end)
    chinese = not scan.norm[start:end].isascii()  # said after it only: "GMV最高的用户类型…" is another's
    if after is not None or chinese:
        return after
    clause = max((b.end() for b in vocab.CLAUSE_BREAK.finditer(scan.norm, 0, start)), default=0)
    return vocab.BEST.search(scan.norm, clause, start) or vocab.TOP_N.search(scan.norm, clause, start)


def _moves(scan: Scan, cues: Cues, said: list[re.Match[str]]) -> list[tuple[int, int, str]]:
    """The move words (span, direction): a rise or fall the readers claimed, "growth", and "拖累"."""
    out = [(s, e, part) for part in ("up", "down") for s, e in cues.spans.get(part, [])]
    out += [(s, e, "up") for s, e in cues.spans.get("change", []) if vocab.GROWTH_NOUN.search(scan.text[s:e])]
    out += [(*span, "down") for m in said if (span := _drag(m)) is not None]
    return out


def _drag(m: re.Match[str]) -> tuple[int, int] | None:
    """ "拖累", "拖后腿", "dragged it down": the contribution is itself a fall (its span)."""
    group = "drag" if m.group("drag") else "drag_en" if m.group("drag_en") else None
    return None if group is None else m.span(group)


def _move_beside(scan: Scan, m: re.Match[str], moves: list[tuple[int, int, str]]) -> bool:
    """A move said with the contribution: before a Chinese verb (in its sentence), a few words after
    an English one (in its clause)."""
    if m.group("zh") or m.group("zh_from"):  # "上个月GMV环比下降了，哪个渠道贡献最大": a clause before
        before = any(e <= m.start() and not vocab.SENTENCE_BREAK.search(scan.norm, s, m.start()) for s, e, _ in moves)
        # "哪个渠道拉动GMV增长最多": the move right after the verb, in its clause
        after = any(0 <= s - m.end() <= _CHARS_TO_THE_MOVE and _in_clause_before(scan, m.end(), s) for s, _, _ in moves)
        return before or after
    return any(
        s >= m.end()
        and not vocab.CLAUSE_BREAK.search(scan.norm, m.end(), s)
        and len(scan.norm[m.end() : s].split()) <= _WORDS_TO_THE_MOVE
        for s, _, _ in moves
    )


def _in_clause_before(scan: Scan, start: int, end: int) -> bool:
    return start <= end and not vocab.CLAUSE_BREAK.search(scan.norm, start, end)


def _part_said(m: re.Match[str]) -> bool:
    """The superlative inside the words ("the bulk of", "most responsible", "mainly responsible",
    "accounted for most of")."""
    said = m.group(0)
    return bool(m.group("part") or m.group("most_of") or "most" in said.lower() or vocab.MAIN_PART.search(said))


def _ranked_here(scan: Scan, m: re.Match[str]) -> bool:
    """A superlative said of the contribution itself: inside it, right after a Chinese verb ("贡献
    最大"), right before it ("主要是…导致的", "the biggest contributor"), or a top N of the groups a
    participle follows ("the top 3 categories driving the decline")."""
    if _part_said(m) or vocab.RANKED_RIGHT_AFTER.match(scan.norm, m.end()) or _most_later(scan, m) is not None:
        return True
    clause_start = max((b.end() for b in vocab.CLAUSE_BREAK.finditer(scan.norm, 0, m.start())), default=0)
    before = scan.norm[clause_start : m.start()]
    if vocab.RANKED_RIGHT_BEFORE.search(before) or (m.group("zh") and vocab.MAIN_PART.search(before)):
        return True
    return bool(vocab.PARTICIPLE.match(m.group(0)) and vocab.TOP_N.search(before))


def _said_to(scan: Scan, m: re.Match[str]) -> int:
    """Where the contribution's own superlative ends ("贡献最大", "拉动GMV增长最多")."""
    after = vocab.RANKED_RIGHT_AFTER.match(scan.norm, m.end())
    return max(m.end() + 4, after.end() if after is not None else 0)


def _most_later(scan: Scan, m: re.Match[str]) -> re.Match[str] | None:
    """ "what channel drove the GMV decline last month the most": "most" later in the English clause."""
    if not (m.group("en") or m.group("noun") or m.group("drag_en")):
        return None
    end = next((b.start() for b in vocab.CLAUSE_BREAK.finditer(scan.norm, m.end())), len(scan.norm))
    return _THE_MOST.search(scan.norm, m.end(), end)


def _another_superlative(scan: Scan, ranked: list[re.Match[str]]) -> bool:
    """A superlative said of something else ("GMV最高的用户类型对下降贡献最大吗"): which is ranked?
    "the most recent month" is a period, no superlative."""
    # an English superlative may stand before its noun ("the biggest contributor"); a Chinese one after
    near = [
        (max(0, m.start() - 20) if not (m.group("zh") or m.group("zh_from")) else m.start(), _said_to(scan, m))
        for m in ranked
    ]
    near += [later.span() for m in ranked if (later := _most_later(scan, m)) is not None]
    return any(
        not any(start <= b.start() < end for start, end in near) and not _MOST_RECENT.match(scan.norm, b.start())
        for b in vocab.BEST.finditer(scan.norm)
    )


__all__ = ["read_contribution", "read_share_of_a_move"]
