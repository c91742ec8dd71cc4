"""Run eval datasets (JSONL) through the real pipeline and score them.

Each case names a question, the as-of date and user, the expected status and, for answered
cases, a hand-written gold SQL executed on the same warehouse (DuckDB's dialect, transpiled by
sqlglot to the session's engine); for refusals the expected error code. Every case records its
``split`` (``dev``, or ``heldout`` — written before the planner it measures and never tuned
against) and its ``phrasing`` class (exclusion, members, comparison, share, ranking, …).

A case ends in one of three outcomes:

* **right** — the expected status (and code), and for an answer the gold rows;
* **asked back or refused** — the run asked a question back, refused or failed: not what was
  expected, but nothing wrong was said;
* **silently wrong** — the run *answered*, but the rows differ from the gold (or it answered
  where it should have asked back or refused). This is the number that must be zero.

Rows are compared by column name: the gold SQL aliases its columns with Baton's names (a
dimension key, ``period``, a metric key, ``<metric>_previous``, ``<metric>_share``,
``<metric>_per_day`` or ``_per_month`` …) and the
answer must have every one of them with the same rows (as a multiset, or in order for a
ranking); extra answer columns are not graded.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import date
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import sqlglot
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlglot import exp

from baton.config import Settings
from baton.errors import BatonError, ConfigError
from baton.messages import both, text
from baton.orchestrator.session import Session
from baton.warehouse.compare import results_match

if TYPE_CHECKING:
    from rich.console import Console

    from baton.contracts.answer import Answer

Case = TypeVar("Case", bound=BaseModel)
Outcome = Literal["right", "asked_back", "silently_wrong"]
Split = Literal["dev", "heldout"]
SPLITS: tuple[Split, ...] = ("dev", "heldout")


class EvalCase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    split: Split = "dev"
    phrasing: str = "plain"
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
    split: Split = "dev"
    phrasing: str = "plain"
    run_id: str = ""
    lang: str
    outcome: Outcome
    status: str
    reason: str
    seconds: float
    tags: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return self.outcome == "right"


class SplitScore(BaseModel):
    """The three numbers of one group of cases."""

    cases: int
    right: int
    asked_back: int
    silently_wrong: int

    @property
    def right_rate(self) -> float:
        return self.right / self.cases if self.cases else 0.0


class EvalReport(BaseModel):
    datasets: list[str]
    cases: list[CaseResult] = Field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(c.passed for c in self.cases)

    @property
    def pass_rate(self) -> float:
        return self.passed / len(self.cases) if self.cases else 0.0

    def score(self, split: str | None = None, phrasing: str | None = None) -> SplitScore:
        chosen = [
            c
            for c in self.cases
            if (split is None or c.split == split) and (phrasing is None or c.phrasing == phrasing)
        ]
        return SplitScore(
            cases=len(chosen),
            right=sum(c.outcome == "right" for c in chosen),
            asked_back=sum(c.outcome == "asked_back" for c in chosen),
            silently_wrong=sum(c.outcome == "silently_wrong" for c in chosen),
        )

    def phrasings(self) -> list[str]:
        return sorted({c.phrasing for c in self.cases})


def default_datasets() -> list[Path]:
    """The demo's eval set: the dev split and the held-out split."""
    folder = resources.files("baton.demo").joinpath("data/eval")
    return [Path(str(folder.joinpath(f"{split}.jsonl"))) for split in SPLITS]


def load_cases(path: Path) -> list[EvalCase]:
    return load_jsonl(path, EvalCase)


def load_jsonl(path: Path, model: type[Case]) -> list[Case]:
    """One ``model`` per line of a JSONL dataset (blank lines and ``//`` comments skipped); a
    line that does not validate is a typed error naming its file and line."""
    cases = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(*both("evals.cannot_read", path=path)) from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        try:
            cases.append(model.model_validate_json(line))
        except ValidationError as exc:
            raise ConfigError(*both("evals.bad_case", path=path, line=number, error=exc.errors()[0]["msg"])) from exc
    return cases


def unique_cte_names(tree: exp.Expr) -> exp.Expr:
    """``tree`` with every CTE named once. sqlglot's Spark generator lifts nested ``WITH``s to
    the top level, where two inner CTEs of the same name would collide (and the later one's
    readers would read the earlier): a repeated name is renamed inside the query that owns it."""
    seen: set[str] = set()
    for cte in list(tree.find_all(exp.CTE)):
        old = cte.alias
        if old not in seen:
            seen.add(old)
            continue
        new = next(f"{old}_{n}" for n in range(2, 10_000) if f"{old}_{n}" not in seen)
        seen.add(new)
        owner = cte.parent.parent if cte.parent is not None else None
        for node in owner.find_all(exp.Table, exp.Column) if owner is not None else ():
            if isinstance(node, exp.Table) and node.name == old and not node.db:
                node.set("this", exp.to_identifier(new))
            elif isinstance(node, exp.Column) and node.table == old:
                node.set("table", exp.to_identifier(new))
        cte.set("alias", exp.TableAlias(this=exp.to_identifier(new)))
    return tree


def gold_rows(session: Session, case: EvalCase) -> tuple[list[str], list[list[Any]]]:
    assert case.gold_sql is not None
    gold_sql = case.gold_sql
    dialect = session.engine.dialect
    if dialect != "duckdb":  # gold is written in DuckDB's dialect; sqlglot transpiles it
        gold_sql = unique_cte_names(sqlglot.parse_one(gold_sql, read="duckdb")).sql(dialect=dialect)
    try:
        gold = session.backend.execute(gold_sql, timeout_s=60, row_cap=100_000)
    except BatonError as exc:  # the dataset's own SQL is wrong: say which case, not only the engine's word
        raise ConfigError(*both("evals.gold_failed", case=case.id, error=exc.message("en"))) from exc
    return [name for name, _ in gold.columns], [list(r) for r in gold.rows]


def compare_answer(answer: Answer, columns: Sequence[str], rows: list[list[Any]], *, ordered: bool) -> tuple[bool, str]:
    """The answer's rows on the gold's columns (by name) against the gold rows."""
    if answer.result is None:
        return False, "answered without a result table"
    names = [c.name for c in answer.result.columns]
    missing = [c for c in columns if c not in names]
    if missing:
        return False, f"missing column(s) {missing}; the answer has {names}"
    index = [names.index(c) for c in columns]
    picked = [[row[i] for i in index] for row in answer.result.rows]
    return results_match(picked, rows, ordered=ordered)


def _expected(answer: Answer, case: EvalCase) -> tuple[bool, str]:
    if answer.status != case.expect_status:
        detail = f" ({answer.error.code}: {answer.error.message})" if answer.error else ""
        return False, f"status {answer.status} != {case.expect_status}{detail}"
    if case.expect_code is not None and (answer.error is None or answer.error.code != case.expect_code):
        return False, f"code {answer.error.code if answer.error else None} != {case.expect_code}"
    return True, "ok"


def grade(session: Session, case: EvalCase) -> CaseResult:
    started = time.perf_counter()
    answer = session.ask(case.question, as_of=case.as_of, user=case.user)
    ok, reason = _expected(answer, case)
    if ok and case.expect_status == "answered":
        if case.gold_sql is None:
            ok, reason = False, "answered case without gold SQL"
        else:
            ok, reason = compare_answer(answer, *gold_rows(session, case), ordered=case.ordered)
    outcome: Outcome = "right" if ok else "silently_wrong" if answer.status == "answered" else "asked_back"
    return CaseResult(
        id=case.id,
        split=case.split,
        phrasing=case.phrasing,
        run_id=answer.run_id,
        lang=case.lang,
        outcome=outcome,
        status=answer.status,
        reason=reason,
        seconds=round(time.perf_counter() - started, 3),
        tags=case.tags,
    )


def run_eval(settings: Settings, datasets: Sequence[Path] | None = None, *, split: str | None = None) -> EvalReport:
    paths = list(datasets or default_datasets())
    cases = [c for path in paths for c in load_cases(path) if split is None or c.split == split]
    session = Session(settings, remember=False)
    try:
        return EvalReport(datasets=[str(p) for p in paths], cases=[grade(session, case) for case in cases])
    finally:
        session.close()


def score_table(report: EvalReport) -> str:
    """The score by phrasing class and split, as a Markdown table (README and closing notes)."""
    splits = [s for s in SPLITS if report.score(s).cases]
    head = "| phrasing | " + " | ".join(f"{s}: right / asked back / silently wrong" for s in splits) + " |"
    rule = "| --- |" + " ---: |" * len(splits)

    def cell(score: SplitScore) -> str:
        if not score.cases:
            return "—"
        return f"{score.right}/{score.cases} · {score.asked_back} · **{score.silently_wrong}**"

    rows = [f"| {p} | " + " | ".join(cell(report.score(s, p)) for s in splits) + " |" for p in report.phrasings()]
    total = (
        "| **total** | "
        + " | ".join(
            f"**{report.score(s).right}/{report.score(s).cases} ({report.score(s).right_rate:.1%})** · "
            f"{report.score(s).asked_back} · **{report.score(s).silently_wrong}**"
            for s in splits
        )
        + " |"
    )
    return "\n".join([head, rule, *rows, total])


def render_report(report: EvalReport, console: Console) -> None:
    from rich.table import Table

    failures = [c for c in report.cases if not c.passed and c.split != "heldout"]
    blind = sum(1 for c in report.cases if not c.passed and c.split == "heldout")
    if blind:  # the held-out split is counted, never listed, so no one tunes the planner to it
        console.print(text("evals.heldout_not_listed", "en", count=blind))
    if failures:
        detail = Table(title="Not right")
        for col in ("id", "split", "phrasing", "outcome", "reason"):
            detail.add_column(col)
        for c in failures:
            detail.add_row(c.id, c.split, c.phrasing, c.outcome, c.reason)
        console.print(detail)
    table = Table(title="Eval")
    for col in ("split", "phrasing", "cases", "right", "asked back / refused", "silently wrong"):
        table.add_column(col, justify="left" if col in {"split", "phrasing"} else "right")
    for split in SPLITS:
        if not report.score(split).cases:
            continue
        for phrasing in report.phrasings():
            score = report.score(split, phrasing)
            if score.cases:
                table.add_row(
                    split,
                    phrasing,
                    str(score.cases),
                    str(score.right),
                    str(score.asked_back),
                    str(score.silently_wrong),
                )
        total = report.score(split)
        table.add_row(
            split,
            "total",
            str(total.cases),
            f"{total.right} ({total.right_rate:.1%})",
            str(total.asked_back),
            str(total.silently_wrong),
            style="bold",
        )
    console.print(table)
