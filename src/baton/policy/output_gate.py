"""The output gate: no number, personal datum or claim reaches the reader without evidence.

Before an answer is shown, :func:`check_output` reads its narrative and checks three things:

1. **Numbers.** Every number must equal a result cell or a derived value (a row count, a
   top-N, …) under the stated rounding rule (:data:`ROUNDING_RULE`): the displayed digits are
   the evidence rounded to as many decimals as are displayed, after scaling — ``%`` is the
   ratio × 100 (or the cell itself when it already is a percentage), ``万``/``亿`` and
   ``K``/``M``/``B``/``T`` divide by 10⁴/10⁸ and 10³/10⁶/10⁹/10¹² (the forms
   :func:`baton.charts.format_number` writes). Ties may round half up or half to even. A written
   sign (``+``/``-``) must agree with the evidence; an unsigned number is matched on magnitude
   (direction words are the narrative's business, not arithmetic).
2. **PII.** Known personal values (``pii_values``) and anything shaped like a mainland mobile
   number, an e-mail address or a resident ID number are blocked unless the user's grants
   allow personal data (``pii_allowed``).
3. **Claims.** "significant / 显著" needs a test that says so (and "not significant" needs a
   test at all); causal wording ("because", "caused", "导致", "因为", …) needs a finding marked
   causal — a correlation is never told as a cause.

Dates and period text are not numbers to check. Before numbers are read, these spans are
blanked out: ISO dates and date-times (``2026-06-01``, ``2026-06``, ``2026/6/1``, ``14:30``),
Chinese calendar expressions (``2026年6月1日``, ``6月``, ``18日``, ``第2季度``, ``第23周``),
English month names with a day or year (``Jun 2025``, ``June 18``), quarter and half labels
(``Q2``, ``2025Q2``, ``H1``), years after ``in/since/during/FY``, relative windows (``近7天``,
``last 30 days``), every ``labels`` text the caller passes (catalog labels, the question's own
period words) and every text cell of the evidence (a member called "iPhone 15" is a name).
A digit glued to a Latin letter (``W23``, ``v5``) is an identifier, not a quantity.
Markdown emphasis (``**1,234**``, ``__5__``, ``~~7~~``) is blanked before reading, and only real
masked PII (``138****5678``, ``z***@qq.com``, ``***``) is blanked as a non-quantity.
Scientific notation (``9.99e8``) is read with the exponent as its scale, and Chinese numerals
with a unit (``三亿``, ``一千二百万``, ``百分之三十``) are read like ``3亿``/``1200万``/``30%``; a
Chinese numeral that cannot be read exactly (``三四十``, ``三点五亿``) blocks as unverifiable.
PII patterns are matched on the NFKC-normalised text with separators between digits removed,
with separators allowed between the usual digit groups, so ``138 1234 5678``, ``138-1234-5678``
and full-width ``zhang.san＠qq.com`` are caught.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from baton import patterns
from baton.contracts.common import Language
from baton.contracts.gate import GateAction, GateDecision, Violation
from baton.errors import OutputBlocked
from baton.messages import text as message
from baton.nlu.cn_numerals import DIGITS, SMALL_UNITS
from baton.numbers import decimal_of

ROUNDING_RULE: dict[Language, str] = {language: message("policy.rounding_rule", language) for language in ("zh", "en")}
"""The rule the gate applies, stated in each language (shown with every checked answer)."""


@dataclass(frozen=True)
class ClaimSupport:
    """What the analysis established, so the narrative may say so: tests run, tests that found
    a significant effect, and findings marked causal (e.g. from a randomised experiment)."""

    tests_run: int = 0
    significant_tests: int = 0
    causal_findings: int = 0

    @classmethod
    def from_tests(cls, tests: Iterable[Any], *, alpha: float = 0.05, causal_findings: int = 0) -> ClaimSupport:
        """From :class:`baton.contracts.agent_outputs.StatTest`-like objects: significant when
        ``p_value < alpha``, or (no p-value) when the interval excludes zero."""
        run = significant = 0
        for test in tests:
            run += 1
            p = getattr(test, "p_value", None)
            if p is not None:
                significant += float(p) < alpha
            else:
                low, high = getattr(test, "ci_low", None), getattr(test, "ci_high", None)
                significant += low is not None and high is not None and (low > 0 or high < 0)
        return cls(tests_run=run, significant_tests=significant, causal_findings=causal_findings)


# ---------------------------------------------------------------------------------------------
# Spans that are not quantities: dates, periods, identifiers.

_MONTHS_EN = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
_PERIOD_UNIT_ZH = r"(?:个)?(?:自然)?(?:天|日|周|星期|个月|月|季度|年)"
_PERIOD_UNIT_EN = r"(?:days?|weeks?|months?|quarters?|years?)"
_ZH_DIGIT = r"[零〇一二两三四五六七八九十]"
_NOT_AFTER_ZH_NUMERAL = r"(?<![零〇一二两三四五六七八九十百千万亿])"
"""So a date pattern never masks the tail of a larger numeral ("三百十二月" is no month)."""
_NOT_QUANTITIES = [
    patterns.compile(p, re.IGNORECASE)
    for p in (
        r"\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?",
        r"\d{4}/\d{1,2}/\d{1,2}",
        r"\d{4}-W\d{1,2}",
        r"(?<!\d)\d{4}-\d{1,2}(?![\d.])",
        r"\d{1,2}:\d{2}(?::\d{2})?",
        r"\d{4}\s*年(?:\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?)?",
        r"\d{1,2}\s*月(?:份)?(?:\s*\d{1,2}\s*[日号])?",
        r"\d{1,2}\s*[日号](?![元])",
        r"第\s*\d+\s*" + _PERIOD_UNIT_ZH,
        # the same written in Chinese numerals, as a question may name them ("十一月", "二〇二五年")
        _ZH_DIGIT + r"{4}\s*年",
        _NOT_AFTER_ZH_NUMERAL + _ZH_DIGIT + r"{1,3}\s*月(?:份)?(?:\s*" + _ZH_DIGIT + r"{1,3}\s*[日号])?",
        _NOT_AFTER_ZH_NUMERAL + _ZH_DIGIT + r"{1,3}\s*[日号](?![元])",
        r"第\s*" + _ZH_DIGIT + r"+\s*" + _PERIOD_UNIT_ZH,
        r"(?:近|最近|过去|前|后|未来|这|上|下)\s*" + _ZH_DIGIT + r"+\s*" + _PERIOD_UNIT_ZH,
        r"双\s*(?:"
        + _ZH_DIGIT
        + r"{2,3}|\d{2})(?![零〇一二两三四五六七八九十百千万亿\d])",  # 双十二, 双12: a day named by its date
        r"(?:近|最近|过去|前|后|未来|这|上|下)\s*\d+\s*" + _PERIOD_UNIT_ZH,
        r"(?<!\d)\d{3}\*{4}\d{4}(?!\d)",  # masked phone (138****5678), as the firewall writes it
        r"[\w.+-]?\*{3}@[\w.-]+",  # masked e-mail (z***@qq.com)
        r"(?<![A-Za-z])[QH][1-4]\s*'\d{2}(?!\d)",  # Q2'26
        _MONTHS_EN + r"\.?\s*'\d{2}(?!\d)",  # Jun '25
        r"\d{4}\s*[QH][1-4]",
        r"(?<![A-Za-z])[QH][1-4]\s+\d{4}(?!\d)",
        r"(?<![A-Za-z])[QH][1-4](?![0-9])",
        _MONTHS_EN + r"\s+\d{4}(?!\d)",
        _MONTHS_EN + r"\s+\d{1,2}(?:st|nd|rd|th)?(?!\d)(?:,?\s+\d{4})?",
        r"\d{1,2}(?:st|nd|rd|th)?\s+" + _MONTHS_EN + r"(?:,?\s+\d{4})?",
        r"\b(?:in|since|during|until|through|year|FY)\s+(?:19|20)\d{2}\b",
        r"\bFY\s*\d{2,4}\b",
        r"\b(?:last|past|previous|prior|next|trailing|first)\s+\d+\s+" + _PERIOD_UNIT_EN,
        r"\b\d+\s*-?\s*(?:day|week|month|quarter|year)s?\s+(?:window|period|range)\b",
        r"\b\d+\s+" + _PERIOD_UNIT_EN + r"\s+ago\b",  # "from 3 months ago to now"
        r"\d+\s*" + _PERIOD_UNIT_ZH + r"\s*(?:之前|以前|前)",  # "3个月前至今"
    )
]

_EMPHASIS = patterns.compile(r"\*+|_+|~~+")  # markdown emphasis / strikethrough markers (after masks are blanked)
_NUMBER = patterns.compile(
    r"(?P<sign>[+\-−])?(?P<cur>[¥$€£])?\s?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:[eE](?P<exp>[+\-−]?\d{1,3})(?!\d|\.\d))?"
    r"(?P<suffix>\s?(?:%|‰|个百分点|percentage points?\b|pp\b|万亿|亿|千万|百万|十万|万|千|(?:[KMBT](?![A-Za-z]))))?"
)
_SCALE = {
    "万亿": Decimal("1e12"),
    "亿": Decimal("1e8"),
    "千万": Decimal("1e7"),
    "百万": Decimal("1e6"),
    "十万": Decimal("1e5"),
    "万": Decimal("1e4"),
    "千": Decimal("1e3"),
    "K": Decimal("1e3"),
    "M": Decimal("1e6"),
    "B": Decimal("1e9"),
    "T": Decimal("1e12"),
}
_PERCENT_SUFFIXES = ("%", "个百分点", "pp", "percentage point", "percentage points")


def mask_non_quantities(text: str, labels: Iterable[str] = ()) -> str:
    """``text`` with labels, dates and period expressions blanked (same length, same offsets)."""
    masked = text
    for pattern in _NOT_QUANTITIES:  # dates first: a label "2026-06" must not split "2026-06-01"
        masked = pattern.sub(lambda m: " " * len(m.group(0)), masked)
    masked = _EMPHASIS.sub(lambda m: " " * len(m.group(0)), masked)  # **999,999** is the number 999,999
    for label in sorted({lb for lb in labels if lb and any(map(str.isdigit, lb))}, key=len, reverse=True):
        # a label is a whole word of digits: "2025" never blanks part of "120,250.5", nor "2026-06"
        # part of "2026-06-01"; it is found in the text as written ("2025年6.18当天", whose year the
        # date patterns blanked already)
        bounded = re.compile(r"(?<![\d.,])" + re.escape(label) + r"(?![\d]|[.,/-]\d)")
        for found in bounded.finditer(text):
            masked = masked[: found.start()] + " " * (found.end() - found.start()) + masked[found.end() :]
    return masked


@dataclass(frozen=True)
class NumberToken:
    """A number as written in the narrative: its digits, decimals, scale and sign."""

    text: str
    magnitude: Decimal
    decimals: int
    scale: Decimal
    percent: Decimal | None  # 100 for %, 1000 for ‰, None otherwise
    sign: int  # +1 / -1 when a sign is written, 0 when not


def read_numbers(text: str, labels: Iterable[str] = ()) -> list[NumberToken]:
    """Every quantity in ``text`` (dates, periods, labels and identifiers skipped).

    A Chinese numeral that cannot be read exactly comes back with ``magnitude`` NaN, which no
    evidence supports: the gate blocks what it cannot verify.
    """
    masked = mask_non_quantities(text, labels)
    tokens: list[NumberToken] = []
    for m in _NUMBER.finditer(masked):
        # The character before the token itself (its sign, currency or first digit), not before
        # the optional space the pattern may have swallowed: "1000 999999" is two numbers.
        sign_char = m.group("sign")
        if sign_char is not None and masked[m.start("sign") + 1].isspace():
            sign_char = None  # a sign touches its number: "- 70" is a list bullet, not minus seventy
        start = next(
            m.start(g) for g in ("sign", "cur", "num") if m.group(g) is not None and (g != "sign" or sign_char)
        )
        before = masked[start - 1] if start > 0 else " "
        after = masked[m.end()] if m.end() < len(masked) else " "
        first_digit = m.start("num")
        glued_before = masked[first_digit - 1] if first_digit > 0 else " "
        if (glued_before.isascii() and glued_before.isalpha()) or (after.isascii() and after.isalpha()):
            continue  # W23, v5, 3D: identifiers
        if before.isdigit() or after.isdigit():
            continue
        digits = m.group("num").replace(",", "")
        suffix = (m.group("suffix") or "").strip()
        exponent = Decimal(1).scaleb(int(m.group("exp").replace("−", "-"))) if m.group("exp") else Decimal(1)
        tokens.append(
            NumberToken(
                text=text[start : m.end()].strip(),
                magnitude=Decimal(digits),
                decimals=len(digits.split(".")[1]) if "." in digits else 0,
                scale=_SCALE.get(suffix, Decimal(1)) * exponent,
                percent=Decimal(100) if suffix in _PERCENT_SUFFIXES else Decimal(1000) if suffix == "‰" else None,
                sign=0 if sign_char is None else (1 if sign_char == "+" else -1),
            )
        )
    tokens.extend(_chinese_numbers(text, masked))
    return tokens


_ZH_DIGITS = DIGITS
_ZH_SMALL_UNITS = SMALL_UNITS
_ZH_BIG_UNITS = {"万": 10**4, "亿": 10**8}
_ZH_NUMERAL_SCALES = (("万亿", Decimal("1e12")), ("亿", Decimal("1e8")), ("万", Decimal("1e4")))
# A numeral is a run of numeral characters holding at least one digit and one unit
# ("三亿", "一千二百万", "十二"): a lone "一" ("一些", "统一") or "十分" is ordinary prose.
_ZH_NUMERAL = patterns.compile(
    r"(?P<pct>百分之)?(?P<num>[零〇一二两三四五六七八九十百千万亿点]*"
    r"(?:[一二两三四五六七八九][零〇一二两三四五六七八九]*[十百千万亿]|[十百千万亿][零〇一二两三四五六七八九])"
    r"[零〇一二两三四五六七八九十百千万亿点]*)"
)


def parse_chinese_numeral(numeral: str) -> int | None:
    """``"一千二百万"`` -> 12000000; None when the numeral is not an exact, well-formed number
    (``"三四十"`` is "thirty or forty", ``"三点五亿"`` has a decimal point Baton does not read)."""
    total = section = 0
    number: int | None = None
    for ch in numeral:
        if ch in _ZH_DIGITS:
            if number not in (None, 0) and _ZH_DIGITS[ch] != 0:
                return None  # two digits in a row without a unit: an approximation
            number = _ZH_DIGITS[ch]
        elif ch in _ZH_SMALL_UNITS:
            section += (1 if number is None else number) * _ZH_SMALL_UNITS[ch]
            number = None
        elif ch in _ZH_BIG_UNITS:
            if _ZH_BIG_UNITS[ch] == 10**8:  # 亿 closes a section: it multiplies everything before it
                total = (total + section + (number or 0)) * _ZH_BIG_UNITS[ch]
                section = 0
            else:
                section = (section + (number or 0)) * _ZH_BIG_UNITS[ch]
            number = None
        else:
            return None
    return total + section + (number or 0)


def _chinese_numbers(text: str, masked: str) -> list[NumberToken]:
    tokens: list[NumberToken] = []
    for m in _ZH_NUMERAL.finditer(masked):
        numeral = m.group("num")
        value = parse_chinese_numeral(numeral)
        scale = Decimal(1)
        for unit, factor in _ZH_NUMERAL_SCALES:
            if numeral.endswith(unit):
                scale = factor
                break
        magnitude = Decimal("NaN") if value is None else Decimal(value) / scale
        tokens.append(
            NumberToken(
                text=text[m.start() : m.end()],
                magnitude=magnitude,
                decimals=0 if magnitude.is_nan() else max(0, -magnitude.normalize().as_tuple().exponent),  # type: ignore[operator]
                scale=scale,
                percent=Decimal(100) if m.group("pct") else None,
                sign=0,
            )
        )
    return tokens


def _rounds_to(candidate: Decimal, token: NumberToken) -> bool:
    """Does ``candidate`` (already scaled) display as the token's digits?"""
    if token.magnitude.is_nan():
        return False  # a numeral the gate could not read is never supported
    quantum = Decimal(1).scaleb(-token.decimals)
    magnitude = abs(candidate)
    for rounding in (ROUND_HALF_UP, ROUND_HALF_EVEN):
        try:
            if magnitude.quantize(quantum, rounding=rounding) == token.magnitude:
                return True
        except InvalidOperation:  # far out of the token's range: cannot display as it
            return False
    # What Python's float formatting prints (the narrator formats floats with f-strings).
    return f"{float(magnitude):.{token.decimals}f}" == f"{token.magnitude:.{token.decimals}f}"


def _matches(token: NumberToken, value: Decimal) -> bool:
    if token.sign and value != 0 and (value > 0) != (token.sign > 0):
        return False
    if token.percent is not None:
        return _rounds_to(value * token.percent, token) or _rounds_to(value, token)
    return _rounds_to(value / token.scale, token)


@dataclass(frozen=True)
class Evidence:
    """The numbers a narrative may quote and the texts that are names, not quantities."""

    values: tuple[Decimal, ...]
    names: tuple[str, ...]

    @classmethod
    def collect(cls, cells: Iterable[Iterable[Any]], derived: Iterable[Any]) -> Evidence:
        values: set[Decimal] = set()
        names: set[str] = set()
        for row in cells:
            for cell in row:
                d = decimal_of(cell)
                if d is not None:
                    values.add(d)
                elif isinstance(cell, str) and any(map(str.isdigit, cell)):
                    names.add(cell)
        for value in derived:
            d = decimal_of(value)
            if d is not None:
                values.add(d)
        return cls(tuple(values), tuple(names))

    def supports(self, token: NumberToken) -> bool:
        return any(_matches(token, v) for v in self.values)


# ---------------------------------------------------------------------------------------------
# PII and claims.

_PII_PATTERNS = (
    # 3-4-4 and 6-8-4 groups may be written with a space, hyphen or dot between them
    ("phone", patterns.compile(r"(?<![\d.])(?:\+?86[\s-]?)?1[3-9]\d[\s.-]?\d{4}[\s.-]?\d{4}(?![\d.]\d|\d)")),
    ("email", patterns.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")),
    ("id_card", patterns.compile(r"(?<!\d)\d{6}[\s-]?\d{8}[\s-]?\d{3}[\dXx](?![\dA-Za-z])")),
)
_NEGATED_SIGNIFICANCE = patterns.compile(
    r"(?:不显著|无显著|没有显著|并不显著|未达到显著|未见显著|显著性|"  # 显著性检验 names a test, claims nothing
    # a negation earlier in the same clause: "没有哪个渠道成员的变化与其余部分显著不同"
    r"(?:没有(?!人|想到)|并无|未(?![来必]))[^。；;，,！!？?\n]{0,24}?显著|"  # never 未来 (future), 没有人想到
    r"not\s+(?:statistically\s+)?significant|"
    # the same in English: "no member changed significantly …", "none of the channels moved significantly";
    # never "no doubt the change is significant"
    r"\b(?:(?:no|neither)\s+(?!doubt\b|question\b|wonder\b|surprise\b|less\b)[a-z]+"
    r"|none\s+of\s+(?:them|(?:the|its|their)\s+[a-z]+))\s+"
    r"(?:changed|moved|rose|fell|grew|dropped|declined|differed|differs|was|were|is|are)\s+"
    r"(?:statistically\s+)?significant(?:ly)?\b|"
    r"no\s+(?:statistically\s+)?significant|insignificant)",
    re.IGNORECASE,
)
_SIGNIFICANCE = patterns.compile(r"(?:显著|统计学意义|statistically\s+significant|significant(?:ly)?)", re.IGNORECASE)
_CAUSAL = patterns.compile(
    r"(?:导致|因为|由于|造成|引起|致使|归因于|源于|because|caused|causes|causing|due\s+to|led\s+to|leads\s+to|"
    r"resulted\s+in|result\s+of|owing\s+to|driven\s+by|drove)",
    re.IGNORECASE,
)


_AT_SPACING = patterns.compile(r"\s*@\s*")


def pii_view(text: str) -> str:
    """The text as PII patterns see it: NFKC (full-width ＠, letters and digits become ASCII)
    with spaces around ``@`` removed. Separators inside phone and ID numbers are allowed by
    the patterns themselves (only between the usual digit groups, so dates stay dates)."""
    return _AT_SPACING.sub("@", unicodedata.normalize("NFKC", text))


def _pii_violations(text: str, pii_values: set[str] | None, language: Language) -> list[Violation]:
    found: list[Violation] = []
    text = pii_view(text)
    lowered = text.lower()
    for value in sorted(pii_values or ()):
        if len(value) >= 2 and (value.lower() in lowered or pii_view(value).lower() in lowered):
            found.append(
                Violation(
                    kind="pii",
                    text=value,
                    reason=message("policy.pii_value", language),
                )
            )
    for kind, pattern in _PII_PATTERNS:
        for m in pattern.finditer(text):
            found.append(
                Violation(
                    kind="pii",
                    text=m.group(0),
                    reason=message("policy.pii_pattern", language, kind=kind),
                )
            )
    return found


def _claim_violations(text: str, claims: ClaimSupport, language: Language) -> list[Violation]:
    found: list[Violation] = []
    negated_spans = [m.span() for m in _NEGATED_SIGNIFICANCE.finditer(text)]
    for start, end in negated_spans:
        if claims.tests_run == 0:
            found.append(
                Violation(
                    kind="claim",
                    text=text[start:end],
                    reason=message("policy.no_test_run", language),
                )
            )
    for m in _SIGNIFICANCE.finditer(text):
        if any(s <= m.start() < e for s, e in negated_spans):
            continue
        if claims.significant_tests == 0:
            found.append(
                Violation(
                    kind="claim",
                    text=m.group(0),
                    reason=message("policy.not_significant", language),
                )
            )
    if claims.causal_findings == 0:
        for m in _CAUSAL.finditer(text):
            found.append(
                Violation(
                    kind="claim",
                    text=m.group(0),
                    reason=message("policy.causal_without_evidence", language),
                )
            )
    return found


def check_output(
    text: str,
    *,
    evidence: Iterable[Iterable[Any]],
    derived: Iterable[Any] = (),
    language: Language = "zh",
    claims: ClaimSupport | None = None,
    pii_values: set[str] | None = None,
    pii_allowed: bool = False,
    labels: Iterable[str] = (),
) -> GateDecision:
    """Check a narrative against its evidence; see the module docstring for the rules."""
    support = Evidence.collect(evidence, derived)
    tokens = read_numbers(text, [*labels, *support.names])
    violations: list[Violation] = [
        Violation(
            kind="number",
            text=token.text,
            reason=message("policy.number_unsupported", language),
        )
        for token in tokens
        if not support.supports(token)
    ]
    if not pii_allowed:
        violations.extend(_pii_violations(text, pii_values, language))
    violations.extend(_claim_violations(text, claims or ClaimSupport(), language))
    return GateDecision(
        ok=not violations,
        violations=violations,
        rounding_rule=ROUNDING_RULE[language],
        numbers_checked=len(tokens),
    )


def gate_narrative(
    text: str,
    check: Callable[[str], GateDecision],
    regenerate: Callable[[], str],
) -> tuple[str, GateDecision]:
    """Check ``text``; on failure regenerate it (from structured findings) and check again.

    Returns the text to show and the decision: ``pass`` (the first text passed),
    ``regenerated`` (the second did; ``replaced`` lists what the first one got wrong) or
    ``refused`` (neither passed; the caller refuses the answer with :class:`OutputBlocked`).
    """
    first = check(text)
    if first.ok:
        return text, first
    second_text = regenerate()
    second = check(second_text)
    action: GateAction = "regenerated" if second.ok else "refused"
    return second_text, second.model_copy(update={"action": action, "replaced": first.violations})


def refusal(decision: GateDecision, language: Language) -> OutputBlocked:
    """The error that refuses an answer whose narrative the gate blocked, naming the reasons."""
    reasons: Sequence[Violation] = decision.violations or decision.replaced

    def listed(lang: Language) -> str:
        return message("policy.violation_sep", lang).join(
            message("policy.violation", lang, kind=v.kind, text=v.text, reason=v.reason) for v in reasons[:5]
        )

    return OutputBlocked(
        message("policy.blocked", "en", violations=listed("en")),
        message("policy.blocked", "zh", violations=listed("zh")),
        detail={"violations": [v.model_dump() for v in reasons]},
    )
