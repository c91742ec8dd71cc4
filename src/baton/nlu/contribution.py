"""A part's contribution to one move ("哪个渠道对上个月GMV下降贡献最大", "上个月GMV下降主要是哪个品类
导致的", "which channel contributed most to the decline in GMV", "the top 3 categories driving the
drop"): the groups of one breakdown ranked by their own change, an amount.

The verb is read as such only where the words place it: a move said with it (before it in its
sentence in Chinese — "对GMV下降贡献", "GMV环比下降了，哪个渠道贡献最大" —, a few words after it in its
clause in English — "contributed most to the decline") and a superlative said of it ("贡献最大", "主要是", "the biggest contributor", "contributed the most").
Without a move it is no contribution to one ("各渠道对GMV的贡献" is a share); with a move but no
superlative it keeps the groups that moved ("which channels contributed to the decline"), asked
back; beside another superlative ("GMV最高的用户类型对下降贡献最大吗") or as a yes/no, it is
asked back too, never ranked by the wrong words.
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
_CHARS_TO_THE_MOVE = 8
_THE_MOST = patterns.compile(r"\b(?:the )?most\b(?! recent\b)", re.I)
_MOST_RECENT = patterns.compile(r"most recent\b", re.I)
"""At most this many characters between a Chinese verb and the move after it ("拉动GMV增长")."""
"""At most this many words between an English contribution and its move ("to last month's GMV decline")."""


def read_contribution(scan: Scan, cues: Cues, directions: list[str]) -> str | None:
    """The words of a question that asks which part contributed most to one move (None: it does
    not); claims them."""
    said = scan.find_all(vocab.CONTRIBUTION_TO_A_MOVE)
    if cues.why or not said:
        return None
    moves = _moves(scan, cues, said)
    if len({*directions, *(d for _, _, d in moves)}) != 1:
        return None
    placed = [m for m in said if m.group("drag") or _move_beside(scan, m, moves)]
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
    if not ranked and not yes_no:  # "which channels contributed to the decline": those that fell, asked back
        detail = {"reason": "kept_by_change", "phrase": phrase}
        raise AmbiguousQuestion(*both("nlu.kept_by_change", phrase=phrase), detail=detail)
    if yes_no or _another_superlative(scan, ranked):
        raise AmbiguousQuestion(
            *both("nlu.contribution_unplaced", said=phrase), detail={"reason": "contribution_unplaced"}
        )
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
    cues.spans.setdefault("down", []).extend(m.span("drag") for m in placed if m.group("drag"))
    cues.best = cues.best or bool(main) or any(_part_said(m) for m in placed)
    cues.several = cues.several or any(m.group("plural") for m in placed)  # "the top contributors"
    cues.change = True
    return phrase


def _moves(scan: Scan, cues: Cues, said: list[re.Match[str]]) -> list[tuple[int, int, str]]:
    """The move words (span, direction): a rise or fall the readers claimed, "growth", and "拖累"."""
    out = [(s, e, part) for part in ("up", "down") for s, e in cues.spans.get(part, [])]
    out += [(s, e, "up") for s, e in cues.spans.get("change", []) if vocab.GROWTH_NOUN.search(scan.text[s:e])]
    out += [(*m.span("drag"), "down") for m in said if m.group("drag")]
    return out


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
    """The superlative inside the words ("the bulk of", "most responsible", "accounted for most of")."""
    return bool(m.group("part") or m.group("most_of") or "most" in m.group(0).lower())


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
    if not (m.group("en") or m.group("noun")):
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


__all__ = ["read_contribution"]
