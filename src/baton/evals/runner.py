"""Run an eval dataset (JSONL) through the real pipeline and score it.

Each case names a question, the as-of date and user, the expected status, and for answered
cases a hand-written gold SQL that is executed on the same warehouse; for refusals and
clarifications the expected error code. The demo ships its dataset (``baton/demo/data/
eval.jsonl``): every demo metric, grouping, filters, each time form, comparisons, top N,
refusals and clarifications. Gold SQL is written in DuckDB's dialect and transpiled by sqlglot
to the session's engine.
"""

from __future__ import annotations

import time
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Literal

import sqlglot
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from rich.console import Console
from rich.table import Table

from baton.config import Settings
from baton.errors import ConfigError
from baton.messages import both
from baton.orchestrator.session import Session
from baton.warehouse.compare import results_match


class EvalCase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    question: str
    lang: Literal["zh", "en"]
    as_of: date = date(2026, 7, 1)
    user: str | None = None
    expect_status: Literal["answered", "clarification_needed", "refused", "failed"]
    expect_code: str | None = None
    gold_sql: str | None = None
    ordered: bool = False
    tags: tuple[str, ...] = ()


class CaseResult(BaseModel):
    id: str
    run_id: str = ""
    lang: str
    passed: bool
    status: str
    reason: str
    seconds: float
    tags: tuple[str, ...] = ()


class EvalReport(BaseModel):
    dataset: str
    cases: list[CaseResult] = Field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(c.passed for c in self.cases)

    @property
    def pass_rate(self) -> float:
        return self.passed / len(self.cases) if self.cases else 0.0


def default_dataset() -> Path:
    return Path(str(resources.files("baton.demo").joinpath("data/eval.jsonl")))


def load_cases(path: Path) -> list[EvalCase]:
    cases = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(*both("evals.cannot_read", path=path)) from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        try:
            cases.append(EvalCase.model_validate_json(line))
        except ValidationError as exc:
            raise ConfigError(*both("evals.bad_case", path=path, line=number, error=exc.errors()[0]["msg"])) from exc
    return cases


def grade(session: Session, case: EvalCase) -> CaseResult:
    started = time.perf_counter()
    answer = session.ask(case.question, as_of=case.as_of, user=case.user)
    ok, reason = True, "ok"
    if answer.status != case.expect_status:
        ok, reason = (
            False,
            f"status {answer.status} != {case.expect_status}"
            + (f" ({answer.error.code}: {answer.error.message})" if answer.error else ""),
        )
    elif case.expect_code is not None and (answer.error is None or answer.error.code != case.expect_code):
        ok, reason = False, f"code {answer.error.code if answer.error else None} != {case.expect_code}"
    elif case.expect_status == "answered":
        if case.gold_sql is None or answer.result is None:
            ok, reason = False, "answered case without gold SQL or result"
        else:
            gold_sql = case.gold_sql
            dialect = session.engine.dialect
            if dialect != "duckdb":  # gold is written in DuckDB's dialect; sqlglot transpiles it
                gold_sql = sqlglot.transpile(gold_sql, read="duckdb", write=dialect)[0]
            gold = session.backend.execute(gold_sql, timeout_s=60, row_cap=100_000)
            ok, reason = results_match(answer.result.rows, [list(r) for r in gold.rows], ordered=case.ordered)
    return CaseResult(
        run_id=answer.run_id,
        id=case.id,
        lang=case.lang,
        passed=ok,
        status=answer.status,
        reason=reason,
        seconds=round(time.perf_counter() - started, 3),
        tags=case.tags,
    )


def run_eval(settings: Settings, dataset: Path | None = None) -> EvalReport:
    path = dataset or default_dataset()
    cases = load_cases(path)
    session = Session(settings)
    try:
        return EvalReport(dataset=str(path), cases=[grade(session, case) for case in cases])
    finally:
        session.close()


def render_report(report: EvalReport, console: Console) -> None:
    failures = [c for c in report.cases if not c.passed]
    if failures:
        detail = Table(title="Failures")
        for col in ("id", "status", "reason"):
            detail.add_column(col)
        for c in failures:
            detail.add_row(c.id, c.status, c.reason)
        console.print(detail)
    table = Table(title=f"Eval · {Path(report.dataset).name}")
    for col in ("group", "cases", "passed", "score"):
        table.add_column(col, justify="right" if col != "group" else "left")
    groups: dict[str, list[CaseResult]] = {}
    for c in report.cases:
        groups.setdefault(f"lang:{c.lang}", []).append(c)
        groups.setdefault(f"status:{c.status if c.passed else 'fail'}", []).append(c)
    for name, items in sorted(groups.items()):
        passed = sum(i.passed for i in items)
        table.add_row(name, str(len(items)), str(passed), f"{passed / len(items):.0%}")
    table.add_row("total", str(len(report.cases)), str(report.passed), f"{report.pass_rate:.1%}", style="bold")
    console.print(table)
