"""Questions the rule planner asks back, answered through a language model (scripted).

Every case of ``llm.jsonl`` is a question the rule planner does not answer; the scripted
OpenAI-protocol server replies with the case's ``model_plan`` (what a correct model — or, for
the misbehaviour cases, a misbehaving one — would say). Baton's real client, planner
validation, firewall and runner do the rest, and each answer is graded by executing the gold
SQL. No answer may be silently wrong; every misbehaviour ends in a clarification or refusal
that says why, with no warehouse query run; a restricted user's rows stay restricted whatever
the question or the model asked for (the run's approved statements carry the row filter).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from baton.config import Settings
from baton.contracts.answer import Answer
from baton.evals.runner import EvalCase, compare_answer, gold_rows
from baton.llm.settings import LlmSettings
from baton.orchestrator.session import Session
from baton.trace.writer import read_trace
from tests.llm_server import Reply, ScriptedLLM, Status, last_user_message


@dataclass(frozen=True)
class ModelCase:
    case: EvalCase
    model_plan: dict[str, Any]
    misbehaviour: str | None


def _cases() -> list[ModelCase]:
    path = Path(str(resources.files("baton.demo").joinpath("data/eval/llm.jsonl")))
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        raw = json.loads(line)
        plan, misbehaviour = raw.pop("model_plan"), raw.pop("misbehaviour", None)
        out.append(ModelCase(EvalCase.model_validate(raw), plan, misbehaviour))
    return out


CASES = _cases()


def test_every_case_has_its_own_id() -> None:
    """Results are reported by id: two cases under one id would hide one of them."""
    ids = [c.case.id for c in CASES]
    assert len(set(ids)) == len(ids), sorted(i for i in set(ids) if ids.count(i) > 1)


def _case_id(c: ModelCase) -> str:
    """A test id that never prints a question (held-out questions stay unread)."""
    return c.case.id


NOT_SHOWN = {"status": "ask_back", "question_back": "Which metric do you mean? I cannot find it in the catalog."}
"""What the scripted model says when the catalog it was shown lacks a metric its reply names:
a model can only name what it sees, so retrieval that misses the metric costs the answer."""


def _reply_for(request: dict[str, Any]) -> Reply | Status:
    said = last_user_message(request)
    for c in CASES:
        if json.dumps(c.case.question, ensure_ascii=False) in said:
            shown = all(f'"name":"{m}"' in said for m in c.model_plan.get("metrics", ()))
            return Reply(data=c.model_plan if shown else NOT_SHOWN, usage=(900, 120))
    return Status(500, {"error": {"message": "unscripted question"}})


@pytest.fixture(scope="module")
def model_session(demo_settings: Settings, scripted_llm_server: ScriptedLLM) -> Iterator[Session]:
    scripted_llm_server.script(_reply_for)
    llm = LlmSettings(base_url=scripted_llm_server.base_url, model="scripted-planner", timeout_s=10)
    session = Session(demo_settings.model_copy(update={"llm": llm}), remember=False)
    yield session
    session.close()


@pytest.fixture(scope="module")
def answers(model_session: Session) -> dict[str, Answer]:
    return {c.case.id: model_session.ask(c.case.question, as_of=c.case.as_of, user=c.case.user) for c in CASES}


def _grade(session: Session, c: ModelCase, answer: Answer) -> str:
    """'right', 'asked_back' or 'silently_wrong' (with the reason after a colon)."""
    if answer.status != c.case.expect_status:
        return ("silently_wrong" if answer.status == "answered" else "asked_back") + f": {answer.status}"
    if answer.status != "answered":
        return "right"
    assert c.case.gold_sql is not None
    ok, reason = compare_answer(answer, *gold_rows(session, c.case), ordered=c.case.ordered)
    return "right" if ok else f"silently_wrong: {reason}"


def test_the_rule_planner_alone_answers_none_of_them(demo_session: Session) -> None:
    """The dataset measures the model path: without a model, none of these is answered."""
    answered = [c.case.id for c in CASES if demo_session.ask(c.case.question, as_of=c.case.as_of).status == "answered"]
    assert not answered


def test_at_least_50_are_answered_right_and_none_silently_wrong(
    model_session: Session, answers: dict[str, Answer]
) -> None:
    grades = {c.case.id: _grade(model_session, c, answers[c.case.id]) for c in CASES}
    wrong = {k: v for k, v in grades.items() if v.startswith("silently_wrong")}
    assert not wrong
    right_answers = [c for c in CASES if c.case.expect_status == "answered" and grades[c.case.id] == "right"]
    assert len(right_answers) >= 50, {k: v for k, v in grades.items() if v != "right"}


def test_a_model_reading_is_stated_and_traced(model_session: Session, answers: dict[str, Answer]) -> None:
    for c in CASES:
        answer = answers[c.case.id]
        if answer.status != "answered":
            continue
        assert any("scripted-planner" in a for a in answer.assumptions), c.case.id
        events = read_trace(model_session.runs_dir / answer.run_id / "trace.jsonl")
        calls = [e for e in events if e.type == "tool_call" and e.payload["tool"] == "llm.plan"]
        assert len(calls) == 1 and calls[0].payload["ok"], c.case.id
        assert calls[0].payload["prompt_tokens"] == 900 and calls[0].payload["completion_tokens"] == 120
        state = model_session.store.load(answer.run_id)
        assert state.usage.model_tokens == 1020 and state.usage.tokens >= 1020


@pytest.mark.parametrize("c", [c for c in CASES if c.misbehaviour and c.case.expect_status != "answered"], ids=_case_id)
def test_each_misbehaviour_ends_in_a_question_back_with_a_reason_and_no_query(
    c: ModelCase, model_session: Session, answers: dict[str, Answer]
) -> None:
    answer = answers[c.case.id]
    assert answer.status in ("clarification_needed", "refused"), answer.answer
    assert answer.error is not None and "model" in answer.error.detail, answer.error
    events = read_trace(model_session.runs_dir / answer.run_id / "trace.jsonl")
    assert not [e for e in events if e.type == "tool_call" and e.payload["tool"] == "warehouse.query"]
    denied = [e for e in events if e.type == "policy_decision" and e.payload.get("gate") == "model_plan"]
    assert denied and denied[0].payload["decision"] == "deny"


@pytest.mark.parametrize("c", [c for c in CASES if c.misbehaviour == "drop_row_filter"], ids=_case_id)
def test_a_model_that_drops_the_row_filter_still_reads_only_the_users_rows(
    c: ModelCase, model_session: Session, answers: dict[str, Answer]
) -> None:
    answer = answers[c.case.id]
    state = model_session.store.load(answer.run_id)
    principal = model_session.principal(state.user)
    assert principal.row_filters, "the case must be asked by a user with a row filter"
    if c.case.split == "dev":
        assert answer.status == c.case.expect_status, answer.answer
    if answer.status != "answered":
        events = read_trace(model_session.runs_dir / answer.run_id / "trace.jsonl")
        assert not [e for e in events if e.type == "tool_call" and e.payload["tool"] == "warehouse.query"]
        return
    assert state.sql, "an answered case ran a query"
    for record in state.sql:
        assert record.approved_sql is not None
        for values in principal.row_filters.values():
            for members in values.values():
                assert all(f"'{m}'" in record.approved_sql for m in members), record.approved_sql
    allowed = {m for values in principal.row_filters.values() for members in values.values() for m in members}
    filtered = {column for values in principal.row_filters.values() for column in values}
    table = answer.result
    assert table is not None and table.rows, answer.answer
    at = [i for i, col in enumerate(table.columns) if col.name in filtered]
    assert at, "the answer shows the filtered column (one row per member)"
    seen = {str(row[i]) for row in table.rows for i in at}
    assert seen and seen <= allowed, seen


def test_some_model_that_drops_the_row_filter_is_answered() -> None:
    """The row-filter cases include answered ones: the check above cannot pass by refusing them all."""
    assert [c for c in CASES if c.misbehaviour == "drop_row_filter" and c.case.expect_status == "answered"]


def test_a_failing_model_falls_back_to_the_rule_planners_question(
    demo_settings: Settings, demo_session: Session, scripted_llm_server: ScriptedLLM
) -> None:
    scripted_llm_server.script(Status(500, {"error": {"message": "boom"}}))
    llm = LlmSettings(base_url=scripted_llm_server.base_url, model="scripted-planner", timeout_s=10)
    with Session(demo_settings.model_copy(update={"llm": llm}), remember=False) as session:
        case = CASES[0].case
        answer = session.ask(case.question, as_of=case.as_of, user=case.user)
    plain = demo_session.ask(case.question, as_of=case.as_of, user=case.user)  # no model configured
    assert answer.status in ("clarification_needed", "refused")
    assert answer.error is not None and answer.error.detail["model"]["reason"] == "http_error"
    assert plain.error is not None and "model" not in plain.error.detail
    assert plain.status == answer.status and plain.error.code == answer.error.code
    assert answer.error.message.startswith(plain.error.message)
    scripted_llm_server.script(_reply_for)


def test_a_token_budget_below_the_models_need_stops_the_run(model_session: Session) -> None:
    from baton.contracts.run import Budget

    case = CASES[0].case
    answer = model_session.ask(case.question, as_of=case.as_of, user=case.user, budget=Budget(max_tokens=50))
    assert answer.status == "failed" and answer.error is not None
    assert answer.error.code == "budget_exceeded"
    events = read_trace(model_session.runs_dir / answer.run_id / "trace.jsonl")
    assert not [e for e in events if e.type == "tool_call" and str(e.payload.get("tool", "")).startswith("llm.")]


# -- the same questions on a catalog of 1,000 metrics ---------------------------------------------


def _changed_by_the_large_catalog(c: ModelCase, answer: Answer, base: set[str], named: list[str]) -> bool:
    """A case the large catalog changes by its own metrics, counted apart: a question expected to
    be refused or asked back that writes out the name of a metric only the large catalog defines,
    or a question asked back naming a generated metric beside the base one (two metrics match
    its words equally)."""
    if c.case.expect_status != "answered" and any(m not in base for m in named):
        return True
    detail = answer.error.detail if answer.error is not None else {}
    # metrics its words match ("which metric?", a term of two metrics), never a not-understood
    # question's examples, which name the question's own metric first
    suggested = detail.get("suggestions", []) if detail.get("missing") == "metric" or "term" in detail else []
    return (
        answer.status == "clarification_needed"
        and any(m not in base for m in suggested)
        and any(m in base for m in suggested)
    )


def _tally(grades: dict[str, str], cases: list[ModelCase]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for c in cases:
        row = out.setdefault(c.case.split, {"cases": 0, "right": 0, "asked_back": 0, "silently_wrong": 0})
        row["cases"] += 1
        row[grades[c.case.id].split(":")[0]] += 1
    return out


def test_on_a_catalog_of_1000_metrics_the_right_rate_does_not_fall(
    model_session: Session,
    answers: dict[str, Answer],
    demo_settings: Settings,
    scripted_llm_server: ScriptedLLM,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The scripted model names only metrics it was shown, so retrieval on the large catalog
    (the whole catalog is shown for the demo's 12) decides what it can answer."""
    from baton.bench.retrieval import large_settings

    scripted_llm_server.script(_reply_for)
    big = large_settings(demo_settings, tmp_path_factory.mktemp("large"), size=1000)
    llm = LlmSettings(base_url=scripted_llm_server.base_url, model="scripted-planner", timeout_s=10)
    with Session(big.model_copy(update={"llm": llm}), remember=False) as large:
        large_answers = {c.case.id: large.ask(c.case.question, as_of=c.case.as_of, user=c.case.user) for c in CASES}
        index = large.catalog_index
        base = set(model_session.catalog.metrics)
        apart = {
            c.case.id
            for c in CASES
            if _changed_by_the_large_catalog(
                c, large_answers[c.case.id], base, [n for k, n in index.named(c.case.question) if k == "metric"]
            )
        }
        same = [c for c in CASES if c.case.id not in apart]
        small = _tally({c.case.id: _grade(model_session, c, answers[c.case.id]) for c in same}, same)
        grown = _tally({c.case.id: _grade(large, c, large_answers[c.case.id]) for c in same}, same)
    print(f"\nmodel path, same {len(same)} cases ({len(apart)} apart): demo {small} · 1,000 metrics {grown}")
    # apart: a metric only the large catalog defines, or an ask-back that names its generated metrics
    # beside the demo's (a word of several metrics' names is asked back naming every one of them)
    assert len(apart) <= 5
    for split, row in grown.items():
        assert row["silently_wrong"] == 0, split
        assert row["right"] >= small[split]["right"], (split, row, small[split])
