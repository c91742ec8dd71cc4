"""The Answer: the contract every entry point (CLI, API, server) returns.

Its shape is public: `baton ask --json` prints exactly `Answer.model_dump_json()`.

An Answer also shows itself (a notebook's HTML and Markdown, a report, the chart as PNG) and
converts its result to pandas, Arrow or polars. None of that is data, and a contract imports
nothing of ours, so those methods delegate to an :class:`AnswerPresenter` that a higher layer
registers with :meth:`Answer.use_presenter` (``baton.notebook``, when ``baton`` is imported).

The slot is always filled in practice: importing this module runs ``baton/__init__.py`` first
(Python imports a package before its modules), and its last statement registers the presenter.
It stays empty only if that import failed part-way; then :class:`PresenterMissing` says so in the
answer's language. That one text lives here, not in ``baton.messages``, because a contract
imports nothing of ours.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from baton.contracts.agent_outputs import Driver, QualityFlag, ReportedFinding, ReportSection, StatTest
from baton.contracts.conversation import FollowUpInfo
from baton.contracts.gate import GateDecision
from baton.contracts.semantic import Language, SemanticQuery

if TYPE_CHECKING:
    import pandas  # type: ignore[import-untyped]
    import polars
    import pyarrow  # type: ignore[import-untyped]

Status = Literal["answered", "clarification_needed", "refused", "failed"]

NO_PRESENTER: dict[str, str] = {
    "en": "This answer cannot show itself: the baton package did not finish importing (run `import baton`).",
    "zh": "该回答无法显示：baton 包未能完成导入（请先运行 `import baton`）。",
}
"""What :class:`PresenterMissing` says, by the answer's language (see the module docstring)."""


class PresenterMissing(RuntimeError):
    """No presenter is registered: ``import baton`` did not complete (a contract cannot import
    ``baton.errors``, so this is the contract's own error, with the code ``no_presenter``)."""

    error_code = "no_presenter"

    def __init__(self, language: str) -> None:
        super().__init__(NO_PRESENTER.get(language, NO_PRESENTER["en"]))


class Column(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    type: str


class ResultTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    columns: list[Column]
    rows: list[list[Any]]
    row_count: int
    truncated: bool = False
    detail_rows: bool = Field(
        default=False,
        description="the rows are detail rows, not aggregates: a report or export of them needs export_detail",
    )


class MetricInfo(BaseModel):
    """A metric's definition (口径) as shown to the reader."""

    model_config = ConfigDict(extra="forbid")
    name: str
    label: str
    definition: str
    expression: str
    filters: list[str]
    owner: str
    time_column: str | None = Field(
        default=None, description="the date column(s) the metric is counted by: its time dimension, else its table's"
    )


class ErrorInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str
    message: str
    detail: dict[str, Any] = Field(default_factory=dict)


class AnswerTimeRange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start: date
    end: date


class HandoffInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    step: int
    agent: str
    context_id: str
    tokens: int


class AnswerPresenter(Protocol):
    """Shows an Answer and converts its result; ``catalog`` (a loaded catalog, or ``None``)
    supplies column and member labels and units that the Answer alone does not carry."""

    def html(self, answer: Answer, catalog: object | None = None) -> str: ...
    def markdown(self, answer: Answer, catalog: object | None = None) -> str: ...
    def report(self, answer: Answer, format: str, catalog: object | None = None) -> str: ...
    def chart_png(self, answer: Answer, scale: float) -> bytes: ...
    def to_pandas(self, answer: Answer) -> pandas.DataFrame: ...
    def to_arrow(self, answer: Answer) -> pyarrow.Table: ...
    def to_polars(self, answer: Answer) -> polars.DataFrame: ...


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    _presenter_loader: ClassVar[Callable[[], AnswerPresenter] | None] = None
    run_id: str
    status: Status
    question: str
    language: Language
    answer: str
    interpretation: str | None = Field(
        default=None, description="how the question was read, from the query that ran: every answer leads with it"
    )
    semantic_query: SemanticQuery | None = None
    sql: str | None = None
    result: ResultTable | None = None
    metrics: list[MetricInfo] = Field(default_factory=list)
    time_range: AnswerTimeRange | None = None
    data_freshness: str | None = None
    assumptions: list[str] = Field(default_factory=list)
    error: ErrorInfo | None = None
    suggestions: list[str] = Field(default_factory=list)
    user: str | None = None
    as_of: date | None = None
    conversation_id: str | None = Field(default=None, description="the conversation this answer is a turn of")
    follow_up: FollowUpInfo | None = Field(default=None, description="what a follow-up kept and changed")
    chart: dict[str, Any] | None = Field(default=None, description="validated Vega-Lite v5 spec, data inline")
    gate: GateDecision | None = Field(default=None, description="the output gate's decision on the answer text")
    partial: bool = Field(default=False, description="stopped early (e.g. a budget); what finished is kept")
    # analysis (``baton analyze``): empty for a simple ``ask``
    sections: list[ReportSection] = Field(
        default_factory=list, description="the analysis report after its summary (``answer``): drivers, tests, …"
    )
    drivers: list[Driver] = Field(default_factory=list)
    findings: list[ReportedFinding] = Field(default_factory=list)
    tests: list[StatTest] = Field(default_factory=list)
    quality_flags: list[QualityFlag] = Field(default_factory=list)
    excluded_paths: list[str] = Field(default_factory=list)
    handoffs: list[HandoffInfo] = Field(default_factory=list)

    def narrative(self) -> str:
        """Everything the answer says in words: the summary, then every section's items (what
        the output gate checks)."""
        return "\n".join([self.answer, *(item for s in self.sections for item in (s.heading, *s.items))])

    # -- presentation (delegated: see the module docstring) -------------------------------------
    @classmethod
    def use_presenter(cls, loader: Callable[[], AnswerPresenter]) -> None:
        """Register what shows answers; ``loader`` is called on first use (imports stay lazy)."""
        cls._presenter_loader = loader

    def _presenter(self) -> AnswerPresenter:
        loader = type(self)._presenter_loader
        if loader is None:  # only if `import baton` failed part-way (see the module docstring)
            raise PresenterMissing(self.language)
        return loader()

    def __repr__(self) -> str:
        """One line (the full model is ``model_dump_json()``): status, run, question, rows."""
        question = self.question if len(self.question) <= 60 else self.question[:59] + "…"
        rows = f" {self.result.row_count} rows" if self.result is not None else ""
        return f"<Answer {self.status} run={self.run_id} {question!r}{rows}>"

    def _repr_html_(self) -> str:
        return self._presenter().html(self)

    def _repr_markdown_(self) -> str:
        return self._presenter().markdown(self)

    def report(self, format: str = "html", *, catalog: object | None = None) -> str:
        """The report as text: ``"html"`` (one self-contained page) or ``"md"``; ``catalog``
        (e.g. ``session.catalog``) labels columns and members."""
        return self._presenter().report(self, format, catalog)

    def chart_png(self, scale: float = 2.0) -> bytes:
        """The chart as PNG bytes (rendered offline, Chinese labels included)."""
        return self._presenter().chart_png(self, scale)

    def to_pandas(self) -> pandas.DataFrame:
        """The result table as a pandas DataFrame (the ``dataframes`` extra)."""
        return self._presenter().to_pandas(self)

    def to_arrow(self) -> pyarrow.Table:
        """The result table as a pyarrow Table (the ``dataframes`` extra)."""
        return self._presenter().to_arrow(self)

    def to_polars(self) -> polars.DataFrame:
        """The result table as a polars DataFrame (``pip install polars``)."""
        return self._presenter().to_polars(self)
