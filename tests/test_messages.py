"""Messages live in one place (:mod:`baton.messages`), checked.

Every key has an English and a Chinese template taking the same fields; no other product code
holds Chinese text except the language *data* it matches or formats with (listed below); every
key the code names exists; and ``{num:…}`` placeholders survive rendering.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from baton.messages import AREAS, MESSAGES, both, localized, text

SRC = Path(__file__).resolve().parents[1] / "src" / "baton"
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")

OWN_TEXTS = ("messages/", "demo/", "nlu/", "bench/chain.py")
"""Where Chinese text may live: the message tables, the demo (its own scenario texts), the
question reader (its vocabularies and patterns) and the benchmark's synthetic relay."""

LANGUAGE_DATA: dict[tuple[str, str], str] = {
    # what the code formats with
    ("charts/common.py", "ZH_LOCALE"): "d3's zh-CN locale: month and weekday names of time axes",
    ("numbers.py", "_ZH_SCALES"): "the 万/亿 scale suffixes of number formatting",
    (
        "memory/statements.py",
        "_ZH",
    ): "the Chinese wording of preference statements (cue words, verbs, language and chart words)",
    ("numbers.py", "_CURRENCY_WORDS"): "currency unit words by ISO code, beside the currency signs",
    # what the code reads back or matches
    ("policy/output_gate.py", "_ZH_DIGIT"): "gate regex: a digit written as a Chinese numeral",
    ("policy/output_gate.py", "_NOT_AFTER_ZH_NUMERAL"): "gate regex: not the tail of a Chinese numeral",
    ("policy/output_gate.py", "_PERIOD_UNIT_ZH"): "gate regex: period units that make a span a date",
    ("policy/output_gate.py", "_NOT_QUANTITIES"): "gate regexes: dates and periods that are not numbers",
    ("policy/output_gate.py", "_NUMBER"): "gate regex: a number with its scale suffix",
    ("policy/output_gate.py", "_SCALE"): "gate table: scale suffix -> multiplier",
    ("policy/output_gate.py", "_PERCENT_SUFFIXES"): "gate table: suffixes read as percent",
    ("policy/output_gate.py", "_ZH_BIG_UNITS"): "gate table: 万/亿 in Chinese numerals",
    ("policy/output_gate.py", "_ZH_NUMERAL_SCALES"): "gate table: the scale a Chinese numeral ends with",
    ("policy/output_gate.py", "_ZH_NUMERAL"): "gate regex: a Chinese numeral",
    ("policy/output_gate.py", "_NEGATED_SIGNIFICANCE"): "gate regex: 'not significant' wording",
    ("policy/output_gate.py", "_SIGNIFICANCE"): "gate regex: 'significant' wording",
    ("policy/output_gate.py", "_CAUSAL"): "gate regex: causal wording",
    ("report/html.py", "_NUMERIC_TEXT"): "regex: a table cell that is a number (right-aligned)",
    ("charts/data.py", "_NOT_FLAGGED"): "flag-cell texts read as 'not flagged'",
    ("context/text.py", "STOPWORDS"): "stopwords of the handoff text similarity",
    ("context/sqlnorm.py", "_LABEL"): "regex: a 'label:' prefix (either colon) before a filter",
    ("contracts/handoff.py", "_SENTENCE_END"): "regex: sentence ends (。！？) when counting sentences",
    ("contracts/values.py", "KeyNumber"): "a schema field description's example units (万辆)",
    (
        "contracts/answer.py",
        "NO_PRESENTER",
    ): "the one text of a contract's own error (contracts import no messages): import baton did not finish",
    ("catalog/pii_guess.py", "_PII_WORDS"): "words in a column name that mark personal data (手机, 姓名)",
}
"""(file, top-level name) -> why its Chinese strings are language data, not messages."""

ONE_LANGUAGE_FIELDS: dict[str, set[str]] = {
    # the English sentence refers back with "its"; the Chinese one names the factor again
    "analysis.insight_factor_echo": {"label"},
    # the Chinese message does not show the internal error's class name
    "answer.internal_error": {"error"},
    # the English sentence leaves the filters out ("No GMV values for June 2026.")
    "answer.no_values": {"filters"},
    # the Chinese message does not count the validation errors
    "context.payload_invalid": {"count"},
}
"""Keys whose wording uses a field in one language only (the fields that differ)."""

_FORMATTER = string.Formatter()


def _fields(template: str, *, chinese: bool) -> tuple[set[str], set[str]]:
    """(format fields, ``num`` references) of a template; a Chinese ``x_zh`` field counts as ``x``."""
    names: set[str] = set()
    numbers: set[str] = set()
    for _literal, field, spec, _conversion in _FORMATTER.parse(template):
        if field is None:
            continue
        base = re.split(r"[.\[]", field, maxsplit=1)[0]
        if base == "num":
            numbers.add(spec or "")
        else:
            names.add(base.removesuffix("_zh") if chinese else base)
        if spec:
            inner, _ = _fields(spec, chinese=chinese)
            names |= inner
    return names, numbers


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_message_has_both_languages_with_the_same_fields(key: str) -> None:
    english, chinese = MESSAGES[key]
    if key.endswith("_sep"):  # a separator: Chinese sentences follow each other with none
        assert english or chinese, key
    else:
        assert english.strip() and chinese.strip(), key
    en_fields, en_numbers = _fields(english, chinese=False)
    en_fields -= {"was", "it"}  # English words agreeing with the label, derived from it
    zh_fields, zh_numbers = _fields(chinese, chinese=True)
    assert en_numbers == zh_numbers, f"{key}: num placeholders differ"
    assert en_fields ^ zh_fields == ONE_LANGUAGE_FIELDS.get(key, set()), f"{key}: fields differ"


def test_every_area_is_registered_and_keys_are_namespaced() -> None:
    modules = {p.stem for p in (SRC / "messages").glob("*.py") if p.stem != "__init__"}
    assert modules == set(AREAS)
    for key in MESSAGES:
        area, _, name = key.partition(".")
        assert area in AREAS and re.fullmatch(r"[a-z][a-z0-9_]*", name), key


def _documentation(tree: ast.Module) -> set[int]:
    """ids of string statements: module, class and function docstrings and attribute docstrings."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for stmt in body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    found.add(id(stmt.value))
    return found


def _name(stmt: ast.stmt) -> str:
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return stmt.name
    if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return stmt.target.id
    return f"<{type(stmt).__name__} at line {stmt.lineno}>"


def _chinese_constants() -> Iterator[tuple[str, str, int, str]]:
    """(file, top-level name, line, text) of every non-doc string constant holding Chinese."""
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(OWN_TEXTS):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _documentation(tree)
        for stmt in tree.body:
            for node in ast.walk(stmt):
                if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in docs:
                    continue
                if CJK.search(node.value):
                    yield rel, _name(stmt), node.lineno, node.value


def test_no_chinese_text_outside_the_message_tables() -> None:
    stray = [
        f"{rel}:{line} ({name}): {value[:40]!r}"
        for rel, name, line, value in _chinese_constants()
        if (rel, name) not in LANGUAGE_DATA
    ]
    assert not stray, "move these texts to baton.messages:\n" + "\n".join(stray)


def test_language_data_allow_list_has_no_stale_entry() -> None:
    holding = {(rel, name) for rel, name, _line, _value in _chinese_constants()}
    assert set(LANGUAGE_DATA) <= holding, set(LANGUAGE_DATA) - holding


KEY_ARGUMENT = {
    "text": 0,
    "both": 0,
    "bilingual": 0,
    "localized": 1,
    "message": 0,  # ``text`` imported as ``message`` where ``text`` names a parameter
    "_invalid": 1,  # nlu.timeexpr: the reason a time expression is invalid
    "_detail_refusal": 2,  # sql.rewrite: the reason detail rows are refused
}
"""Functions taking a message key, and the position of that argument."""

KEY_ARGUMENT_OF_METHOD = {"say": 0, "note_incomplete": 1, "note_interval": 0}
"""Methods taking a message key (the charts' ``Ctx``), and the position of that argument."""


def _named_keys() -> Iterator[tuple[str, int, ast.expr]]:
    """Every message key the code passes to a function or method taking one."""
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(("messages/", "demo/")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Name):
                position = KEY_ARGUMENT.get(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                position = KEY_ARGUMENT_OF_METHOD.get(node.func.attr)
            else:
                position = None
            if position is not None and len(node.args) > position:
                yield rel, node.lineno, node.args[position]


def test_every_key_the_code_names_exists() -> None:
    missing = []
    for rel, line, arg in _named_keys():
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            if arg.value not in MESSAGES:
                missing.append(f"{rel}:{line}: {arg.value}")
        elif isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
            prefix = str(arg.values[0].value)
            if not any(key.startswith(prefix) for key in MESSAGES):
                missing.append(f"{rel}:{line}: {prefix}…")
        elif isinstance(arg, ast.IfExp):
            for branch in (arg.body, arg.orelse):
                if isinstance(branch, ast.Constant) and branch.value not in MESSAGES:
                    missing.append(f"{rel}:{line}: {branch.value!r}")
    assert not missing, missing


def test_number_placeholders_survive_rendering() -> None:
    english, chinese = MESSAGES["analysis.headline"]
    assert "{num:headline.current}" in english
    assert text("analysis.headline", "en") == english
    assert text("analysis.headline", "zh") == chinese
    rendered = text("analysis.quality_incomplete_finding", "en", table="fact", day="2026-06-30", key="q.share")
    assert rendered == "fact on 2026-06-30 holds only about {num:q.share} of its usual rows."


def test_a_language_dependent_field_is_passed_twice() -> None:
    assert localized("reason", "sql.not_granted") == {"reason": "not granted", "reason_zh": "未授权"}
    english, chinese = both(
        "firewall.column_not_permitted", user="u", column="t.c", **localized("reason", "sql.not_granted")
    )
    assert english.endswith("(not granted).") and chinese.endswith("（未授权）。")
