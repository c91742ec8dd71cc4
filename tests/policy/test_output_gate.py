"""The output gate: numbers trace to evidence, PII stays out, claims need findings."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baton.contracts.agent_outputs import StatTest
from baton.contracts.common import Language, Unit
from baton.contracts.gate import GateDecision
from baton.messages import text as message
from baton.numbers import bucket_label, format_exact, format_number
from baton.orchestrator.session import Session
from baton.policy.output_gate import (
    ClaimSupport,
    check_output,
    gate_narrative,
    mask_non_quantities,
    read_numbers,
    refusal,
)
from baton.trace.writer import read_trace

AS_OF = date(2026, 7, 1)
UNITS: list[Unit] = ["currency", "count", "number"]
LANGUAGES: list[Language] = ["zh", "en"]
ROWS = [
    ["app", 25413813.4, 35331686.7, -9917873.3, -0.2807076091275314],
    ["web", 7894938.6, 7493777.1, 401161.5, 0.0535],
]


def kinds(decision: GateDecision) -> list[str]:
    return [v.kind for v in decision.violations]


def test_altered_number_and_unsupported_significant_are_both_blocked() -> None:
    honest = "上个月APP的成交总额为 ¥25,413,813.40，环比 -28.07%。"
    assert check_output(honest, evidence=ROWS, language="zh").ok
    tampered = "上个月APP的成交总额为 ¥25,413,913.40，环比显著下降 -28.07%。"
    decision = check_output(tampered, evidence=ROWS, language="zh")
    assert not decision.ok
    assert sorted(kinds(decision)) == ["claim", "number"]
    by_kind = {v.kind: v.text for v in decision.violations}
    assert by_kind["number"] == "¥25,413,913.40"
    assert by_kind["claim"] == "显著"
    assert decision.numbers_checked == 2


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("GMV was ¥25,413,813.40.", True),  # exact cell
        ("GMV was ¥25,413,813.41.", False),  # off by one cent
        ("GMV was 2,541.38万.", True),  # 万 scale, half-up at 2 decimals
        ("GMV was 2541.4万.", True),  # fewer decimals still rounds to the cell
        ("GMV was 2,541.39万.", False),
        ("GMV was ¥0.25亿.", True),
        ("GMV was 25.41M.", True),
        ("GMV was 25.4M.", True),
        ("GMV was 25.5M.", False),
        ("GMV was 25,414K.", True),
        ("change -28.07%", True),  # ratio x 100
        ("change -28.1%", True),
        ("change +28.07%", False),  # a written sign must agree with the evidence
        ("a fall of 28.07%", True),  # unsigned: matched on magnitude
        ("change -28.08%", False),
        ("change 5.35%", True),
        ("change was -9,917,873.30", True),
        ("2 groups", True),  # derived: row count
        ("3 groups", False),
        ("From 2026-06-01 to 2026-06-30", True),  # ISO dates are not quantities
        ("2026年6月1日至6月30日", True),  # Chinese calendar text
        ("近7天、过去30天与第2季度", True),  # relative windows and period labels
        ("十一月、去年十二月十二日与二〇二五年", True),  # the same in Chinese numerals
        ("近三十天、第二季度、双十一当天", True),
        ("峰值十一万", False),  # a Chinese numeral that is a quantity still has to match
        ("双十二万元", False),  # not 双十二 followed by 万元
        ("共三百十二月", False),  # not a month: the tail of a larger numeral
        ("last 30 days and Q2 2026, in 2025", True),
        ("Jun 2026 and June 18, 2026", True),
        ("at 14:30", True),
        ("W23 and v5", True),  # identifiers
        ("峰值 618 万", False),  # a number that is nowhere in the evidence
    ],
)
def test_numbers_match_under_the_rounding_rule(text: str, ok: bool) -> None:
    decision = check_output(text, evidence=ROWS, derived=[len(ROWS)], language="en")
    assert decision.ok is ok, decision.violations


def test_labels_and_text_cells_are_names_not_quantities() -> None:
    rows = [["iPhone 15", 1200.0]]
    assert check_output("iPhone 15 sold ¥1,200.00", evidence=rows, language="en").ok
    assert not check_output("Model 3 sold ¥1,200.00", evidence=rows, language="en").ok
    assert check_output("Model 3 sold ¥1,200.00", evidence=rows, language="en", labels=["Model 3"]).ok


def test_read_numbers_reports_scale_sign_and_decimals() -> None:
    (token,) = read_numbers("环比 -16.61%")
    assert (token.magnitude, token.decimals, token.percent, token.sign) == (Decimal("16.61"), 2, Decimal(100), -1)
    (scaled,) = read_numbers("约 ¥3.20亿")
    assert (scaled.magnitude, scaled.scale) == (Decimal("3.20"), Decimal("1e8"))
    assert read_numbers("2026-06-01 至 2026-06-30（近30天）") == []


@pytest.mark.parametrize(
    "said", ["-1.12 percentage points", "0.50 percentage point", "+0.24 个百分点", "0.24pp", "-16.61%"]
)
def test_points_and_percents_are_read_as_hundredths(said: str) -> None:
    """ "above 0.50 percentage points" was blocked (no cell is 0.50): points are a rate × 100."""
    (token,) = read_numbers(f"change {said}")
    assert token.percent == Decimal(100)


@settings(max_examples=150, deadline=None)
@given(
    value=st.decimals(min_value=-(10**10), max_value=10**10, places=2, allow_nan=False, allow_infinity=False),
    unit=st.sampled_from(UNITS),
    lang=st.sampled_from(LANGUAGES),
)
def test_formatted_evidence_always_passes_and_a_nudged_value_fails(value: Decimal, unit: Unit, lang: Language) -> None:
    evidence = [[float(value)]]
    for shown in (format_number(value, unit, lang, "CNY"), format_exact(float(value), unit, lang, "CNY")):
        decision = check_output(f"值为 {shown}。", evidence=evidence, language=lang)
        assert decision.ok, (shown, decision.violations)
    nudged = value + Decimal("0.5")
    if abs(value) >= 1:
        decision = check_output(
            f"值为 {format_exact(float(nudged), 'currency', lang, 'CNY')}。", evidence=evidence, language=lang
        )
        assert not decision.ok


@pytest.mark.parametrize(
    ("text", "claims", "ok"),
    [
        ("GMV rose significantly.", ClaimSupport(), False),
        ("GMV rose significantly.", ClaimSupport(tests_run=1, significant_tests=1), True),
        ("The change is not significant.", ClaimSupport(), False),  # needs a test, too
        ("The change is not significant.", ClaimSupport(tests_run=1), True),
        ("差异显著。", ClaimSupport(tests_run=2), False),
        ("差异不显著。", ClaimSupport(tests_run=2), True),
        ("GMV fell because of the app.", ClaimSupport(), False),
        ("GMV fell, caused by the app.", ClaimSupport(tests_run=1, significant_tests=1), False),
        ("GMV fell because of the app.", ClaimSupport(causal_findings=1), True),
        ("转化率下降导致GMV下降。", ClaimSupport(), False),
        ("因为直播流量减少，GMV下降。", ClaimSupport(), False),
        ("GMV下降，APP降幅最大。", ClaimSupport(), True),
    ],
)
def test_claims_need_findings(text: str, claims: ClaimSupport, ok: bool) -> None:
    decision = check_output(text, evidence=[], language="en", claims=claims)
    assert decision.ok is ok, decision.violations
    assert all(v.kind == "claim" for v in decision.violations)


def test_claim_support_from_real_stat_tests() -> None:
    significant = StatTest(
        name="GMV Jun vs May",
        method="Welch t-test",
        estimate=Decimal("-0.16"),
        ci_low=Decimal("-0.2"),
        ci_high=Decimal("-0.1"),
        p_value=Decimal("0.001"),
    )
    null = StatTest(
        name="AOV Jun vs May",
        method="Welch t-test",
        estimate=Decimal("0.01"),
        ci_low=Decimal("-0.02"),
        ci_high=Decimal("0.04"),
    )
    support = ClaimSupport.from_tests([significant, null])
    assert (support.tests_run, support.significant_tests) == (2, 1)
    assert ClaimSupport.from_tests([null]).significant_tests == 0


@pytest.mark.parametrize(
    ("text", "pii_values", "allowed", "ok"),
    [
        ("Top buyer: 13812345678.", None, False, False),
        ("Top buyer: alice@example.com.", None, False, False),
        ("Top buyer: 110101199003071234.", None, False, False),
        ("Top buyer: 138****5678.", None, False, True),  # masked form is fine
        ("Top buyer: Zhang Wei.", {"Zhang Wei"}, False, False),
        ("Top buyer: Zhang Wei.", {"Zhang Wei"}, True, True),  # grants allow PII
    ],
)
def test_pii_never_appears_unless_granted(text: str, pii_values: set[str] | None, allowed: bool, ok: bool) -> None:
    # the cells hold the raw values: the number rule alone would let them through
    evidence = [["13812345678", "110101199003071234"]]
    decision = check_output(text, evidence=evidence, language="en", pii_values=pii_values, pii_allowed=allowed)
    assert decision.ok is ok, decision.violations
    assert all(v.kind == "pii" for v in decision.violations)


def test_gate_regenerates_then_refuses() -> None:
    def check(text: str) -> GateDecision:
        return check_output(text, evidence=ROWS, language="en")

    good = "APP GMV was ¥25,413,813.40."
    text, decision = gate_narrative("APP GMV was ¥25,000,000.00.", check, lambda: good)
    assert (text, decision.ok, decision.action) == (good, True, "regenerated")
    assert [v.text for v in decision.replaced] == ["¥25,000,000.00"]
    text, decision = gate_narrative("APP GMV was ¥1.00.", check, lambda: "APP GMV was ¥2.00.")
    assert not decision.ok and decision.action == "refused"
    error = refusal(decision, "zh")
    assert error.error_code == "output_blocked" and error.kind == "policy"
    assert "¥2.00" in error.message("en") and "拦截" in error.message("zh")


QUESTIONS = [
    "上个月各渠道的GMV是多少？",
    "上个月每天的GMV",
    "GMV by region last month",
    "上个月GMV环比",
    "上个月各渠道GMV环比",
    "上个月每天各渠道的GMV",
    "上个月转化率",
    "top 3 categories by GMV last month",
    "上个月GMV同比",
    "每月GMV 今年",
    "上个月各大区各渠道GMV",
    "近7天的订单数",
    "last 30 days order count by channel",
    "本周每天的访客数",
    "今年每周的GMV",
    "上季度各品类的退款率",
    "客单价 上个月 按用户类型",
    "2026年5月的GMV",
    "2026年第一季度每月净收入",
    "weekly buyers this year",
    "上个月华东的GMV",
    "refund rate by channel last quarter vs previous",
    "What was AOV by channel last month?",
]


def test_the_real_narrator_passes_the_gate(demo_session: Session) -> None:
    answered = 0
    for question in QUESTIONS:
        answer = demo_session.ask(question, as_of=AS_OF)
        assert answer.status == "answered", (question, answer.error)
        assert answer.gate is not None
        assert answer.gate.ok and answer.gate.action == "pass", (question, answer.answer, answer.gate.violations)
        assert answer.gate.numbers_checked >= 1
        answered += 1
    assert answered >= 20


def test_gate_decision_is_traced(demo_session: Session) -> None:
    answer = demo_session.ask("上个月各渠道的GMV是多少？", as_of=AS_OF)
    events = read_trace(demo_session.runs_dir / answer.run_id / "trace.jsonl")
    gates = [e for e in events if e.type == "policy_decision" and e.payload.get("gate") == "output"]
    assert len(gates) == 1
    assert gates[0].payload["decision"] == "allow"
    assert gates[0].payload["numbers_checked"] == answer.gate.numbers_checked if answer.gate else False


@pytest.mark.parametrize(
    ("text", "labels", "ok"),
    [
        ("2026-06（2026-06-01 至 2026-06-30）的取消率为 2.00%", ["2026-06"], True),
        ("quarterly visitors in 2025 (2025-01-01 to 2025-12-31): 4 points", ["2025"], True),
        ("GMV 120250.5 in 2025", ["2025"], False),  # a label never hides digits inside a number
        ("2025年6.18当天（2025-06-18）的成交总额为 0.02", ["2025年6.18当天"], True),  # its year a date too
        ("2026-06-01 为 4", ["2026-06"], True),  # "2026-06" is no part of a day (its "-01" never a number)
    ],
)
def test_period_labels_are_whole_words(text: str, labels: list[str], ok: bool) -> None:
    decision = check_output(text, evidence=[[0.02, 4]], language="en", labels=labels)
    assert decision.ok is ok, decision.violations


REVIEW_EVIDENCE = [["华东", 268357061.70], ["华北", 1000.0]]


@pytest.mark.parametrize(
    ("text", "ok", "blocked"),
    [
        # (a) markdown emphasis no longer hides a number; only real masks are blanked
        ("GMV in 华东 was **268,357,061.70**.", True, []),
        ("GMV in 华东 was **999,999**.", False, ["999,999"]),
        ("GMV in 华东 was __999999__ (up ~~42%~~).", False, ["999999", "42%"]),
        ("GMV in 华东 was *999,999* and phone 138****5678, mail z***@qq.com, name ***.", False, ["999,999"]),
        ("Masked phone 138****5678 and mail z***@qq.com are not numbers.", True, []),
        # (b) a number right after another number and a space is read
        ("华北 GMV: 1000 999999 total", False, ["999999"]),
        ("Ranked 2 123456789 orders", False, ["123456789"]),
        ("华北 1000 2 regions", True, []),
        # (c) scientific notation and Chinese numerals are read and checked
        ("GMV was 9.99e8.", False, ["9.99e8"]),
        ("GMV was 2.68e8.", True, []),
        ("GMV was 2.6835706170E+8", True, []),
        ("华东GMV约三亿", True, []),  # 2.68亿 shown at 0 decimals, like "3亿"
        ("华东GMV约五亿", False, ["五亿"]),
        ("GMV是一千二百万", False, ["一千二百万"]),
        ("华北GMV为一千", True, []),
        ("共两个地区，GMV为一千零一", False, ["一千零一"]),
        ("GMV为三四十亿", False, ["三四十亿"]),  # not an exact number: blocks as unverifiable
        ("统一口径下，进一步看，十分稳定", True, []),  # prose, not numerals
        ("GMV was 3千万", False, ["3千万"]),  # 3×10^7, not 3,000
    ],
)
def test_numbers_the_review_found_unchecked_are_checked(text: str, ok: bool, blocked: list[str]) -> None:
    decision = check_output(text, evidence=REVIEW_EVIDENCE, derived=[2], language="en")
    assert decision.ok is ok, decision.violations
    assert [v.text for v in decision.violations if v.kind == "number"] == blocked


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("三亿", 300_000_000),
        ("一千二百万", 12_000_000),
        ("十二", 12),
        ("两千零五", 2005),
        ("三亿五千万", 350_000_000),
        ("一万亿", 10**12),
        ("一百零八", 108),
        ("三四十", None),
        ("三点五亿", None),
    ],
)
def test_chinese_numerals_parse_exactly_or_not_at_all(numeral: str, value: int | None) -> None:
    from baton.policy.output_gate import parse_chinese_numeral

    assert parse_chinese_numeral(numeral) == value


@pytest.mark.parametrize(
    "text",
    [
        "Call 138 1234 5678 now",
        "Call 138-1234-5678 now",
        "Call +86 138 1234 5678",
        "Call １３８１２３４５６７８",
        "Mail zhang.san＠qq.com",
        "Mail zhang.san @ qq.com",
        "ID 110105 19491231 002X",
        "ID １１０１０５１９４９１２３１００２Ｘ",
    ],
)
def test_pii_variants_are_blocked(text: str) -> None:
    decision = check_output(text, evidence=[], language="en")
    assert "pii" in kinds(decision)
    assert check_output(text, evidence=[], language="en", pii_allowed=True).violations == [
        v for v in decision.violations if v.kind != "pii"
    ]


@pytest.mark.parametrize("text", ["From 187 to 2026-06-29", "GMV 1,387,654.32 on 2026-06-29", "2026年6月29日 138 单"])
def test_dates_next_to_numbers_are_not_phone_numbers(text: str) -> None:
    assert "pii" not in kinds(check_output(text, evidence=[], language="en"))


@pytest.mark.parametrize(
    "text",
    [
        "## 显著性检验",  # names the test, claims nothing
        "维度：渠道 — 没有哪个渠道成员的变化与其余部分显著不同。",
        "任何成员的转化率都没有与其余部分显著不同的变化。",
        "- 70 个与总变化方向相反的差异",  # a list bullet, not minus seventy
        "Tested every combination: no member changed significantly both on its own and against the rest.",
        "None of the channels moved significantly against the rest.",
        "Neither channel changed significantly.",
    ],
)
def test_negations_headings_and_bullets_are_not_claims(text: str) -> None:
    decision = check_output(
        text, evidence=[], derived=[70], language="zh", claims=ClaimSupport(tests_run=3, significant_tests=0)
    )
    assert decision.ok, decision.violations


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_no_driver_sentence_claims_no_significance(language: Language) -> None:
    """The analysis's own "no member changed significantly …" (rendered from its message) is a
    negation: an analysis without a driver is never withheld for it."""
    said = message("analysis.insight_no_driver", language, tests=3)
    decision = check_output(
        said, evidence=[], derived=[3], language=language, claims=ClaimSupport(tests_run=3, significant_tests=0)
    )
    assert decision.ok, decision.violations


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("没有哪个成员显著不同，但总体变化显著。", "zh"),
        ("未来三个月的增长将显著放缓。", "zh"),
        ("没有人想到GMV会显著下降。", "zh"),
        ("No member stood out, but the overall change is significant.", "en"),
        ("None of the members moved alone; the channel shift was significant.", "en"),
        ("No doubt the change is significant.", "en"),
        ("Never has GMV fallen so significantly.", "en"),
        ("No surprise: GMV fell significantly.", "en"),
        ("There were no refunds in Q1 and the drop is significant.", "en"),
        ("Nothing else moved as significantly as app.", "en"),
    ],
)
def test_unsupported_significance_next_to_a_negated_one_is_still_blocked(text: str, language: Language) -> None:
    decision = check_output(text, evidence=[], language=language, claims=ClaimSupport(tests_run=1, significant_tests=0))
    assert not decision.ok


@pytest.mark.parametrize(
    ("value", "grain", "language", "shown"),
    [
        (date(2026, 1, 1), "month", "en", "2026-01"),
        ("2026-04-01 00:00:00", "quarter", "en", "2026 Q2"),
        (date(2026, 10, 1), "quarter", "zh", "2026年第4季度"),
        (date(2025, 1, 1), "year", "en", "year 2025"),
        (date(2025, 1, 1), "year", "zh", "2025年"),
        (date(2026, 6, 22), "week", "en", "2026-06-22"),  # a week is named by its Monday
        (date(2026, 6, 3), None, "zh", "2026-06-03"),
    ],
)
def test_a_time_bucket_is_named_as_a_reader_names_it_and_is_no_quantity(
    value: object, grain: str | None, language: Language, shown: str
) -> None:
    assert bucket_label(value, grain, language) == shown
    assert check_output(f"{shown}: ¥1,200.00", evidence=[[1200.0]], language=language).ok


@pytest.mark.parametrize(
    "text",
    [
        "Orders for 3 months ago to now (2026-04-01 to 2026-06-30)",
        "3个月前至今（2026-04-01 至 2026-06-30）",
        "2 weeks ago",
    ],
)
def test_a_period_counted_back_from_today_is_no_quantity(text: str) -> None:
    """ "from 3 months ago to now": the 3 names the period, like "last 3 months"."""
    assert not any(ch.isdigit() for ch in mask_non_quantities(text))
