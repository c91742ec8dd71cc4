"""The LLM planner: a language model reads the question, Baton checks every part of its reading.

The model is given the question, the as-of date, the reading of the question it follows (in a
conversation) and a retrieved slice of the catalog — names, labels, synonyms, members, never a
data row — and must answer a :class:`~baton.contracts.model_plan.ModelPlan` through a JSON
schema (:func:`plan_schema`). Nothing of the answer is trusted (:func:`validate_plan`):

* **Schema.** The reply must be a ModelPlan (no missing, extra or mistyped field): otherwise
  ``ModelFailure`` with reason ``schema_violation``. A reply whose free text (a question back, an
  unplaced word, the period words) asks to bypass Baton's rules — the input gate's own words for
  a write or an override, or row filters, permissions, SQL, the system prompt — is
  ``ModelFailure`` with reason ``injection``.
* **Catalog.** As strict as the rule planner: a metric the catalog lacks is ``UnknownMetric``
  with the closest catalog metrics (never invented); a refused one is ``UnsupportedMetric``; a
  dimension or a member the catalog lacks is asked back naming it (a member may be given by its
  key or by one of its labels or synonyms: it becomes the key); a dimension the metric cannot be
  broken down or filtered by is ``QuestionRefused`` (``unsupported_dimension``); a share of a rate
  and a time series with a comparison are asked back, with the rule planner's own messages.
* **Status.** ``ask_back`` becomes ``AmbiguousQuestion`` carrying the model's question as plain
  text (control characters and markup removed, at most :data:`MAX_QUESTION_BACK` characters);
  ``out_of_scope`` becomes ``OutOfScope``; non-empty ``unplaced`` is asked back naming those words
  — a word is never dropped, whoever read the question.
* **Period.** The dates are Baton's, not the model's. ``period.words`` must occur in the
  question (compared after NFKC, lower case, simplified characters and collapsed spaces);
  words that do not are ``ModelFailure`` ``schema_violation`` (detail ``field: period.words``):
  the model broke the contract, so its plan is not used and the caller falls back to the rule
  planner's clarification. The words are read by Baton's own readers (the catalog's calendar
  events, then :func:`baton.nlu.timeexpr.read_periods`) and resolved exactly as the rule
  planner resolves a question's periods (:func:`baton.nlu.periods.resolve_periods`: a range, two
  periods compared, a comparison kind applied). The model's ``start``/``end`` are used only when
  Baton cannot read the words as dates (a holiday the catalog does not know), and then stated as
  the model's; when Baton can read them, its own dates win and a different model reading is
  stated. Dates *without* words are never used: they could be a period the question does not
  name. No period: the parent's (a follow-up), else asked back (``which_period``). Every period
  Baton reads in the question must be accounted for — inside the quoted words, or the dates of
  the period or the comparison used — otherwise the reading left a period out, and it is asked
  back (``period_left_out``) rather than answered for a different period.
* **Row filters** are not the planner's business: a plan without the user's own row filter is
  fine; the firewall adds it to the SQL.

:class:`LlmPlanner` calls the model and returns a :class:`ModelReading`: the query and the
assumptions to state ("read by the language model …"). :func:`compare_readings` says where a
model reading differs from the rule reading that was used (planner mode ``always``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Literal

from pydantic import ValidationError

from baton import patterns
from baton.catalog.model import Catalog
from baton.contracts.common import LANGUAGES, Language
from baton.contracts.model_plan import ModelFilter, ModelPlan
from baton.contracts.semantic import Comparison, Grain, MemberFilter, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion, ModelFailure, OutOfScope, TimeExpressionError, UnknownMetric
from baton.llm.protocol import ChatMessage, Provider
from baton.messages import bilingual, both, localized, text
from baton.nlu import timeexpr
from baton.nlu.catalog_checks import check_share_compared
from baton.nlu.coverage import check_coverage
from baton.nlu.cues import read_cues
from baton.nlu.events import event_periods
from baton.nlu.gate import _WRITE_OR_OVERRIDE, check_question
from baton.nlu.interpret import filters_text, period_text
from baton.nlu.lexicon import normalise
from baton.nlu.parser import Planner
from baton.nlu.periods import PeriodCues, each_against_the_one_before, resolve_periods
from baton.nlu.residual import to_simplified
from baton.nlu.scan import Scan
from baton.nlu.vocabulary import COMBINATION

__all__ = [
    "MAX_QUESTION_BACK",
    "LlmPlanner",
    "ModelReading",
    "compare_readings",
    "parent_plan",
    "plan_schema",
    "planner_messages",
    "validate_plan",
]

MAX_QUESTION_BACK = 300
"""The longest question back of a model that is shown (characters)."""
MAX_WORD = 40
"""The longest unplaced word, name or period words a message repeats (characters)."""
MAX_WORDS = 5
"""At most this many unplaced words are named."""
SCHEMA_NAME = "semantic_plan"

_BYPASS = patterns.compile(
    r"row[- ]?(?:level )?(?:filter|securit|permission)|行级|行过滤|权限|grants?\b|permission|"
    r"system prompt|系统提示|\bsql\b|\bselect\b[\s\S]*\bfrom\b",
    re.IGNORECASE,
)
"""Words in a model's free text that ask to bypass Baton's rules, beside the input gate's own
words for a write or an override (``baton.nlu.gate``)."""
_TAGS = patterns.compile(r"<[^>]{0,200}>")
_EMPHASIS = patterns.compile(r"```|[*`#>|]+")


@dataclass(frozen=True)
class ModelReading:
    """A question as the language model read it, checked: the query and what to state with it."""

    query: SemanticQuery
    assumptions: list[str] = field(default_factory=list)
    """Sentences in the run's language: who read it, and any period the model dated or inherited."""
    model: str = ""


# -- the schema and the prompt ------------------------------------------------------------------


def plan_schema() -> dict[str, Any]:
    """ModelPlan's JSON schema as strict structured-output servers take it: no ``$ref`` (the
    definitions inlined), no ``title`` or ``default``, every property required and no other
    allowed (optional fields are nullable or have an empty value), descriptions kept."""
    raw = ModelPlan.model_json_schema()
    defs = raw.pop("$defs", {})
    strict = _strict(raw, defs)
    assert isinstance(strict, dict)
    return strict


def _strict(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_strict(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = _strict(defs[str(node["$ref"]).rsplit("/", 1)[-1]], defs)
        extra = {k: _strict(v, defs) for k, v in node.items() if k not in ("$ref", "title", "default")}
        return {**target, **extra}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("title", "default"):
            continue
        if key == "properties":
            out[key] = {name: _strict(prop, defs) for name, prop in value.items()}
        else:
            out[key] = _strict(value, defs)
    if out.get("type") == "object" and "properties" in out:
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


def parent_plan(parent: SemanticQuery) -> dict[str, Any]:
    """The reading a follow-up inherits, in the shape the model answers (catalog names only)."""
    plan: dict[str, Any] = {
        "metrics": list(parent.metrics),
        "dimensions": list(parent.dimensions),
        "filters": [
            {"dimension": f.dimension, "members": list(f.members), "exclude": f.exclude}
            for f in (*parent.filters, *parent.share_filters)
        ],
        "period": {
            "words": parent.time_range.text,
            "start": parent.time_range.start.isoformat(),
            "end": parent.time_range.end.isoformat(),
        },
        "grain": parent.grain,
        "comparison": parent.comparison.kind
        if parent.comparison is not None and parent.comparison.kind in ("previous_period", "same_period_last_year")
        else None,
        "top_n": parent.top_n,
        "order": parent.order,
        "share": parent.share,
        "why": parent.intent == "why",
    }
    return {k: v for k, v in plan.items() if v not in (None, [], False)} | {"order": parent.order}


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def planner_messages(
    question: str,
    *,
    as_of: date,
    catalog_slice_json: str,
    parent: SemanticQuery | None,
    language: Language,
) -> list[ChatMessage]:
    """The system message (the rules) and the user message (as-of date, the parent reading,
    the catalog slice, the question as a JSON string). Never a data row. ``language`` is the
    run's; the rules are written in both languages, so the model reads them whatever it is."""
    del language  # the prompt lines are bilingual; the model answers in catalog names
    rules = [
        "plan_role",
        "plan_rules",
        "plan_rule_names",
        "plan_rule_no_sql",
        "plan_rule_unplaced",
        "plan_rule_spans",
        "plan_rule_period",
        "plan_rule_no_period",
        "plan_rule_follow_up",
        "plan_rule_ask",
        "plan_rule_data",
        "plan_rule_rows",
    ]
    system = "\n".join(bilingual(f"model.{key}") for key in rules)
    parts = [bilingual("model.plan_as_of", as_of=as_of.isoformat(), last=(as_of - timedelta(days=1)).isoformat())]
    if parent is not None:
        parts.append(bilingual("model.plan_parent", parent=_compact(parent_plan(parent))))
    parts.append(bilingual("model.plan_slice", slice=catalog_slice_json))
    parts.append(bilingual("model.plan_question", question=json.dumps(question, ensure_ascii=False)))
    return [ChatMessage(role="system", content=system), ChatMessage(role="user", content="\n".join(parts))]


# -- validation ---------------------------------------------------------------------------------

_Note = tuple[str, dict[str, Any]]
"""An assumption to state: a message key of ``model.`` and its fields (rendered per language)."""


def _plain(value: str, limit: int = MAX_WORD) -> str:
    """Model text as a message may repeat it: no control characters or markup, one line, bounded."""
    cleaned = "".join(" " if unicodedata.category(ch).startswith("C") else ch for ch in value)
    cleaned = " ".join(_EMPHASIS.sub("", _TAGS.sub(" ", cleaned)).split())
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1].rstrip() + "…"


def _squash(value: str) -> str:
    """The form in which quoted words are compared with the question."""
    return " ".join(normalise(to_simplified(value)).split())


def _model_failure(key: str, reason: str, model: str, **fields: Any) -> ModelFailure:
    shown = {k: v for k, v in fields.items() if k != "detail"}
    extra = fields.get("detail") or {}
    return ModelFailure(*both(f"model.{key}", model=model, **shown), detail={"reason": reason, "model": model, **extra})


def _asked(key: str, detail: dict[str, Any], **fields: Any) -> AmbiguousQuestion:
    return AmbiguousQuestion(*both(key, **fields), detail=detail)


class _PlanReader:
    """One model plan checked against one catalog, question and as-of date."""

    def __init__(self, rules: Planner, *, question: str, as_of: date, parent: SemanticQuery | None, model: str) -> None:
        self.rules = rules
        self.catalog = rules.catalog
        self.question = " ".join(question.split())
        self.as_of = as_of
        self.parent = parent
        self.model = model
        self.notes: list[_Note] = []

    # -- the whole plan ---------------------------------------------------------------------------
    def read(self, data: Any) -> SemanticQuery:
        plan = self._parse(data)
        self._no_bypass(plan)
        if plan.status == "out_of_scope":
            raise OutOfScope(*self.rules.with_examples("nlu.not_about_data"), detail={"reason": "model_out_of_scope"})
        if plan.status == "ask_back":
            raise self._asked_back(plan.question_back)
        metrics = [self._metric(name) for name in plan.metrics]
        metrics = list(dict.fromkeys(metrics))
        if plan.unplaced:
            words = [_plain(w) for w in plan.unplaced[:MAX_WORDS] if _plain(w)]
            raise AmbiguousQuestion(
                *Planner.not_understood(words or ["?"]),
                detail={"unknown": words, "reason": "model_unplaced", "suggestions": self.rules.examples("en")},
            )
        if not metrics:
            metrics = self._inherited_metrics()
        dims = list(dict.fromkeys(self._dimension(name) for name in plan.dimensions))
        filters = self._filters(plan.filters)
        time_range, comparison = self._period(plan)
        self.rules.check_dimensions(metrics, dims, [f.dimension for f in filters])
        self.rules.check_metric_filters(metrics, dims, filters)
        if comparison is not None and plan.grain is not None:
            comparison = self._series_comparison(plan, plan.grain, time_range, comparison)
        if plan.top_n is not None and not dims and plan.grain is None:
            raise AmbiguousQuestion(*self.rules.with_examples("nlu.ranking_of_what"), detail={"missing": "breakdown"})
        if plan.top_n is not None and any(
            f.dimension in dims and len(f.members) == 1 and not f.exclude for f in filters
        ):
            raise _asked("nlu.ranking_of_one", {"dimensions": dims})
        if plan.top_n is not None:  # "各区域GMV最高的品类": the top of each region, which a plan cannot say
            self.rules.check_ranked_keys(dims, plan.grain, combination=bool(COMBINATION.search(self.question)))
        share_filters: list[MemberFilter] = []
        if plan.share:
            filters, share_filters = self._share_parts(filters, dims)
            self.rules.check_share(metrics, dims, share_filters, comparison, plan.grain)
        query = self._query(plan, metrics, dims, filters, share_filters, time_range, comparison)
        check_share_compared(query)
        self._covered(plan, query)
        return query

    def _query(
        self,
        plan: ModelPlan,
        metrics: list[str],
        dims: list[str],
        filters: list[MemberFilter],
        share_filters: list[MemberFilter],
        time_range: TimeRange,
        comparison: Comparison | None,
    ) -> SemanticQuery:
        intent: Literal["value", "breakdown", "share", "trend", "ranking", "comparison", "why"] = (
            "why"
            if plan.why
            else "comparison"
            if comparison
            else "share"
            if plan.share
            else "ranking"
            if plan.top_n
            else "trend"
            if plan.grain
            else "breakdown"
            if dims
            else "value"
        )
        return SemanticQuery(
            metrics=tuple(metrics),
            dimensions=tuple(dims),
            filters=tuple(filters),
            time_range=time_range,
            grain=plan.grain,
            comparison=comparison,
            top_n=plan.top_n,
            order=plan.order,
            intent=intent,
            share=plan.share,
            share_filters=tuple(share_filters),
            premise=None,
            as_of=self.as_of,
        )

    def _covered(self, plan: ModelPlan, query: SemanticQuery) -> None:
        """Every content word of the question is placed in the query (:mod:`baton.nlu.coverage`):
        a word the reading left out is asked back, never dropped; a paraphrase is stated."""
        question = _squash(self.question)
        for span in plan.spans:
            if _squash(span.text) not in question:
                raise _model_failure(
                    "words_not_in_question", "schema_violation", self.model, detail={"field": "spans.text"}
                )
        coverage = check_coverage(
            self.rules, self.question, query, plan, as_of=self.as_of, follows=self.parent is not None
        )
        for conflict in coverage.conflicts:
            asked = self.rules.several_metrics(_plain(conflict.words), [conflict.catalog_metric, conflict.model_metric])
            asked.detail["reason"] = "model_catalog_conflict"
            raise asked
        if coverage.uncovered:
            words = [_plain(w) for w in coverage.uncovered[:MAX_WORDS] if _plain(w)] or ["?"]
            raise AmbiguousQuestion(
                *Planner.not_understood(words),
                detail={"unknown": words, "reason": "model_left_out", "suggestions": self.rules.examples("en")},
            )
        for said in coverage.read_as:
            self.notes.append(
                ("model.span_read_as", {"words": _plain(said.words), "kind": said.kind, "name": said.name})
            )

    def _parse(self, data: Any) -> ModelPlan:
        if not isinstance(data, dict):
            raise _model_failure("schema_violation", "schema_violation", self.model, problems="not a JSON object")
        try:
            return ModelPlan.model_validate(data)
        except ValidationError as exc:
            errors = [
                {"field": ".".join(str(p) for p in err["loc"]) or "(plan)", "problem": err["type"]}
                for err in exc.errors()[:10]
            ]
            problems = ", ".join(f"{e['field']}: {e['problem']}" for e in errors)
            raise _model_failure(
                "schema_violation", "schema_violation", self.model, problems=problems, detail={"errors": errors}
            ) from exc

    def _no_bypass(self, plan: ModelPlan) -> None:
        """The model's own free text must not ask to bypass Baton's rules. Words it quotes from
        the question are the question's (which passed the input gate); its question back, and
        any word it did not take from the question, are its own."""
        question = _squash(self.question)
        quoted = [*plan.unplaced, (plan.period.words or "") if plan.period is not None else ""]
        quoted += [span.text for span in plan.spans]
        own = [
            plan.question_back or "",
            *(span.reason or "" for span in plan.spans),
            *(w for w in quoted if _squash(w) not in question),
        ]
        for value in own:
            if _WRITE_OR_OVERRIDE.search(value) or _BYPASS.search(value):
                raise _model_failure("injection", "injection", self.model)

    def _asked_back(self, question_back: str | None) -> AmbiguousQuestion:
        asked = _plain(question_back or "", MAX_QUESTION_BACK)
        detail = {"reason": "model_ask_back", "question_back": asked}
        if not asked:
            return AmbiguousQuestion(*both("model.asks_back_generic"), detail=detail)
        return AmbiguousQuestion(*both("model.asks_back", question=asked), detail=detail)

    def _unknown_metric(self, term: str) -> UnknownMetric:
        """Never invented: refused with the closest catalog metrics (the rule planner's message)."""
        refused = self.rules.unknown_metric(term)
        refused.detail["reason"] = "unknown_metric"
        return refused

    # -- names --------------------------------------------------------------------------------------
    def _metric(self, name: str) -> str:
        catalog = self.catalog
        if name in catalog.metrics:
            return name
        key = normalise(name.strip())
        by_name = [m for m in catalog.metrics if normalise(m) == key]
        if by_name:
            return by_name[0]
        refused = [r for r, info in catalog.refused.items() if key in {normalise(s) for s in _surfaces(r, info)}]
        if refused:
            raise self.rules.refused_metric(refused[0])
        named = [m for m, info in catalog.metrics.items() if key in {normalise(s) for s in _surfaces(m, info)}]
        if len(named) == 1:
            return named[0]
        if len(named) > 1:
            raise self.rules.several_metrics(_plain(name), named)
        raise self._unknown_metric(_plain(name))

    def _inherited_metrics(self) -> list[str]:
        if self.parent is None:
            raise AmbiguousQuestion(
                *(
                    text(
                        "nlu.which_metric",
                        lang,
                        examples=text("answer.list_sep", lang).join(self.rules.examples(lang)),
                    )
                    for lang in LANGUAGES
                ),
                detail={"missing": "metric", "suggestions": list(self.catalog.metrics)},
            )
        self.notes.append(("model.metrics_inherited", {"metrics": list(self.parent.metrics)}))
        return list(self.parent.metrics)

    def _not_placed(self, word: str, reason: str, suggestions: Sequence[str]) -> AmbiguousQuestion:
        shown = _plain(word) or "?"
        return AmbiguousQuestion(
            *Planner.not_understood([shown]),
            detail={"unknown": [shown], "reason": reason, "suggestions": list(suggestions)[:10]},
        )

    def _dimension(self, name: str) -> str:
        dims = self.catalog.dimensions
        if name in dims:
            return name
        key = normalise(name.strip())
        found = [d for d, info in dims.items() if key in {normalise(s) for s in _surfaces(d, info)}]
        if len(found) == 1:
            return found[0]
        raise self._not_placed(name, "unknown_dimension", found or list(dims))

    def _member(self, dimension: str, name: str) -> str:
        members = self.catalog.dimensions[dimension].members
        if name in members:
            return name
        key = normalise(name.strip())
        found = [m for m, info in members.items() if key in {normalise(s) for s in _surfaces(m, info)}]
        if len(found) == 1:
            return found[0]
        raise self._not_placed(name, "unknown_member", found or list(members))

    def _filters(self, given: Sequence[ModelFilter]) -> list[MemberFilter]:
        merged: dict[tuple[str, bool], list[str]] = {}
        for f in given:
            dim = self._dimension(f.dimension)
            bucket = merged.setdefault((dim, f.exclude), [])
            for member in f.members:
                key = self._member(dim, member)
                if key not in bucket:
                    bucket.append(key)
        return [MemberFilter(dimension=d, members=tuple(ms), exclude=ex) for (d, ex), ms in merged.items()]

    def _share_parts(
        self, filters: list[MemberFilter], dims: list[str]
    ) -> tuple[list[MemberFilter], list[MemberFilter]]:
        """As the rule planner: with no breakdown, the members of one dimension are the part
        whose share of the (otherwise filtered) whole is asked. A member beside a breakdown is
        asked back: a plan cannot say whether it filters the whole ("华东各品类占比") or is the
        part inside each group ("每个区域的订单中APP占多少"), and the model reads only what the
        rules could not."""
        named = [f.dimension for f in filters if not f.exclude and f.dimension not in dims]
        if dims and named:
            raise _asked("nlu.share_within_or_across", {"dimensions": [*dims, *named]})
        if not filters or dims:
            return filters, []
        share_dims = {f.dimension for f in filters}
        if len(share_dims) != 1:
            raise _asked("nlu.share_of_what", {"dimensions": sorted(share_dims)})
        return [], filters

    # -- the period ---------------------------------------------------------------------------------
    def _read(self, words: str) -> tuple[Scan, list[timeexpr.PeriodReading]]:
        """Baton's own reading of ``words`` as the rule planner reads a question's periods:
        operator words claimed first ("环比", "the 7 days before"), then the catalog's calendar
        events, then time expressions."""
        simplified = to_simplified(words)
        scan = Scan(text=simplified, norm=normalise(simplified))
        read_cues(scan)
        periods = event_periods(self.catalog.calendar, scan, self.as_of)
        for period in periods:
            scan.claim(*period.span)
        periods += timeexpr.read_periods(scan.residual(), self.as_of)
        periods.sort(key=lambda p: p.span)
        return scan, periods

    @staticmethod
    def _series_comparison(plan: ModelPlan, grain: Grain, time_range: TimeRange, comparison: Comparison) -> Comparison:
        """A series' comparison, as the rules draw it: each period beside its last year, or
        against the one before it ("monthly GMV, mom") — said, never inferred from a "why"."""
        said = plan.comparison == comparison.kind and not plan.why
        if said and comparison.kind == "same_period_last_year":
            return comparison
        if said and comparison.kind == "previous_period":
            return each_against_the_one_before(time_range, grain)
        raise AmbiguousQuestion(
            *(text("nlu.grain_with_comparison", lang, grain=text(f"answer.grain_{grain}", lang)) for lang in LANGUAGES),
            detail={"grain": grain},
        )

    def _period(self, plan: ModelPlan) -> tuple[TimeRange, Comparison | None]:
        period = plan.period
        words = " ".join(period.words.split()) if period is not None and period.words else ""
        cues = PeriodCues(comparison_kind=plan.comparison, why=plan.why, as_of=self.as_of)
        spans: list[tuple[int, int]] = []
        if period is not None and words:
            spans = self._where_quoted(words)
            time_range, comparison = self._from_words(words, period.start, period.end, cues)
        else:
            time_range, comparison = self._without_words(plan)
        self._all_periods_used(spans, [time_range, *([comparison.range] if comparison is not None else [])])
        return time_range, comparison

    def _where_quoted(self, words: str) -> list[tuple[int, int]]:
        """Where the quoted words stand in the question; words it does not hold break the contract."""
        haystack, needle = _squash(self.question), _squash(words)
        spans = [(m.start(), m.start() + len(needle)) for m in re.finditer(re.escape(needle), haystack)]
        if not spans:
            raise _model_failure(
                "words_not_in_question", "schema_violation", self.model, detail={"field": "period.words"}
            )
        return spans

    def _from_words(
        self, words: str, start: date | None, end: date | None, cues: PeriodCues
    ) -> tuple[TimeRange, Comparison | None]:
        scan, periods = self._read(words)
        if periods:
            time_range, comparison = resolve_periods(scan, cues, periods)
            time_range = time_range.model_copy(update={"text": time_range.text or words})
            if start is not None and end is not None and (start, end) != (time_range.start, time_range.end):
                self.notes.append(
                    (
                        "model.period_model_differs",
                        {
                            "words": _plain(words),
                            "model_start": start,
                            "model_end": end,
                            "start": time_range.start,
                            "end": time_range.end,
                        },
                    )
                )
            return time_range, comparison
        if start is None or end is None:
            raise _asked("model.period_unread", {"missing": "time_range", "words": _plain(words)}, words=_plain(words))
        time_range = self._model_dates(words, start, end)
        self.notes.append(
            ("model.period_by_model", {"words": _plain(words), "start": time_range.start, "end": time_range.end})
        )
        return time_range, self._comparison(time_range, cues)

    def _model_dates(self, words: str, start: date, end: date) -> TimeRange:
        """The model's dates for words Baton cannot read: ordered, and cut at the last complete day."""
        last = self.as_of - timedelta(days=1)
        if start > end:
            raise _model_failure(
                "schema_violation",
                "schema_violation",
                self.model,
                problems="period: start after end",
                detail={"field": "period"},
            )
        if start > last:
            raise TimeExpressionError(
                *both("nlu.no_data_yet", text=_plain(words), start=start, last=last),
                detail={"text": _plain(words), "start": start.isoformat(), "latest_complete_day": last.isoformat()},
            )
        return TimeRange(start=start, end=min(end, last), text=words)

    def _without_words(self, plan: ModelPlan) -> tuple[TimeRange, Comparison | None]:
        """No period quoted: the parent's (its comparison kept when the same kind is asked), else
        asked back. Dates given without words are not used."""
        if self.parent is None:
            self._all_periods_used([], [])  # the question names a period the plan left out
            raise _asked("nlu.which_period", {"missing": "time_range"})
        inherited = self.parent.time_range
        self.notes.append(("model.period_inherited", {"range": (inherited.start, inherited.end, inherited.text)}))
        kind = plan.comparison or ("previous_period" if plan.why else None)
        if kind is None:
            return inherited, None
        previous = self.parent.comparison
        if previous is not None and previous.kind == kind:
            return inherited, previous
        return inherited, self._comparison(inherited, PeriodCues(comparison_kind=kind))

    def _comparison(self, time_range: TimeRange, cues: PeriodCues) -> Comparison | None:
        kind = cues.comparison_kind or ("previous_period" if cues.why else None)
        if kind is None:
            return None
        start, end = timeexpr.comparison_range(kind, time_range.start, time_range.end, as_of=self.as_of)
        return Comparison(kind=kind, range=TimeRange(start=start, end=end))

    def _all_periods_used(self, quoted: list[tuple[int, int]], ranges: Sequence[TimeRange]) -> None:
        """Every period Baton reads in the question lies in the quoted words, or is the period or
        the comparison used: a reading never silently leaves a period of the question out."""
        question = _squash(self.question)
        _, periods = self._read(question)
        used = {(r.start, r.end) for r in ranges}
        for period in periods:
            inside = any(a <= period.span[0] and period.span[1] <= b for a, b in quoted)
            dates = (period.match.start, period.match.end) if period.match is not None else None
            if inside or (dates is not None and dates in used):
                continue
            source = self.question if len(self.question) == len(question) else question
            said = _plain(source[period.span[0] : period.span[1]]) or "?"
            raise _asked("model.period_left_out", {"missing": "time_range", "period": said}, words=said)


def _surfaces(name: str, info: Any) -> list[str]:
    """A catalog entry's name, labels and synonyms."""
    label = getattr(info, "label", None)
    labels = [label.zh, label.en] if label is not None else []
    return [name, *labels, *getattr(info, "synonyms", ())]


def _render(notes: Sequence[_Note], catalog: Catalog, language: Language) -> list[str]:
    out = []
    for key, fields in notes:
        if key == "model.metrics_inherited":
            labels = text("answer.and_sep", language).join(
                catalog.metrics[m].label.for_lang(language) for m in fields["metrics"]
            )
            out.append(text(key, language, metrics=labels))
        elif key == "model.span_read_as":
            out.append(text(key, language, words=fields["words"], label=_label(catalog, fields, language)))
        elif key == "model.period_inherited":
            start, end, words = fields["range"]
            out.append(text(key, language, period=period_text(start, end, words, language)))
        else:
            out.append(text(key, language, **fields))
    return out


def _label(catalog: Catalog, fields: dict[str, Any], language: Language) -> str:
    """The catalog's name of a span's target, in ``language``."""
    kind, name = fields["kind"], fields["name"]
    if kind == "metric":
        return catalog.metrics[name].label.for_lang(language)
    if kind == "dimension":
        return catalog.dimensions[name].label.for_lang(language)
    dim, key = name.split(":", 1)
    dimension = catalog.dimensions[dim]
    member = dimension.members.get(key)
    said = member.label.for_lang(language) if member is not None else key
    return f"{dimension.label.for_lang(language)} {said}"


def validate_plan(
    data: dict[str, Any],
    *,
    question: str,
    catalog: Catalog,
    as_of: date,
    parent: SemanticQuery | None = None,
    model: str = "?",
    rules: Planner | None = None,
) -> SemanticQuery:
    """A model's plan as a SemanticQuery checked against the catalog (see the module docstring),
    or a typed error: ``ModelFailure`` (``schema_violation``, ``injection``), ``UnknownMetric``,
    ``QuestionRefused``, ``AmbiguousQuestion``, ``OutOfScope``, ``TimeExpressionError``. ``rules``:
    the rule planner of ``catalog`` when the caller has one (it is built otherwise)."""
    reader = _PlanReader(rules or Planner(catalog), question=question, as_of=as_of, parent=parent, model=model)
    return reader.read(data)


class LlmPlanner:
    """Plans a question with a language model, under the rule planner's checks."""

    def __init__(self, catalog: Catalog, provider: Provider, *, rules: Planner | None = None) -> None:
        self.catalog = catalog
        self.provider = provider
        self.rules = rules or Planner(catalog)

    def plan(
        self,
        question: str,
        *,
        as_of: date,
        language: Language,
        parent: SemanticQuery | None = None,
        catalog_slice_json: str,
    ) -> ModelReading:
        """The question through the input gate, then the model, then :func:`validate_plan`.
        A ``ModelFailure`` of the provider propagates (the caller asks back with its reason)."""
        cleaned = check_question(question)
        messages = planner_messages(
            cleaned, as_of=as_of, catalog_slice_json=catalog_slice_json, parent=parent, language=language
        )
        completion = self.provider.complete(messages, schema=plan_schema(), schema_name=SCHEMA_NAME)
        if completion.data is None:
            raise _model_failure("schema_violation", "invalid_json", completion.model, problems="no JSON object")
        return self.read(
            completion.data, question=cleaned, as_of=as_of, language=language, parent=parent, model=completion.model
        )

    def read(
        self,
        data: dict[str, Any],
        *,
        question: str,
        as_of: date,
        language: Language,
        parent: SemanticQuery | None = None,
        model: str | None = None,
    ) -> ModelReading:
        """A plan the model returned, checked, with the assumptions to state in ``language``."""
        name = model or self.provider.model
        reader = _PlanReader(self.rules, question=question, as_of=as_of, parent=parent, model=name)
        query = reader.read(data)
        notes: list[_Note] = [("model.read_by", {"model": name}), *reader.notes]
        return ModelReading(query=query, assumptions=_render(notes, self.catalog, language), model=name)


# -- two readings -------------------------------------------------------------------------------


def compare_readings(rule: SemanticQuery, model: SemanticQuery, catalog: Catalog, language: Language) -> list[str]:
    """Where the model's reading differs from the rule reading (which was used), one sentence
    per part: metrics, breakdown, filters, period, comparison, grain, ranking, share, kind."""
    lang = language

    def nothing() -> str:
        return text("model.nothing", lang)

    def metrics(q: SemanticQuery) -> str:
        return text("answer.and_sep", lang).join(catalog.metrics[m].label.for_lang(lang) for m in q.metrics)

    def dims(q: SemanticQuery) -> str:
        labels = [catalog.dimensions[d].label.for_lang(lang) for d in q.dimensions]
        return text("answer.and_sep", lang).join(labels) or nothing()

    def filters(q: SemanticQuery) -> str:
        said = filters_text((*q.filters, *q.share_filters), catalog, lang).strip()
        return said.strip("()（） ") or nothing()

    def period(q: SemanticQuery) -> str:
        return period_text(q.time_range.start, q.time_range.end, None, lang)

    def comparison(q: SemanticQuery) -> str:
        c = q.comparison
        return period_text(c.range.start, c.range.end, None, lang) if c is not None else nothing()

    def grain(q: SemanticQuery) -> str:
        return text(f"answer.grain_{q.grain}", lang) if q.grain else nothing()

    def ranking(q: SemanticQuery) -> str:
        if q.top_n is None:
            return nothing()
        return text("model.top" if q.order == "desc" else "model.bottom", lang, n=q.top_n)

    def share(q: SemanticQuery) -> str:
        return text("model.yes" if q.share else "model.no", lang)

    def intent(q: SemanticQuery) -> str:
        return text(f"model.intent_{q.intent}", lang)

    parts: dict[str, tuple[Callable[[SemanticQuery], str], Callable[[SemanticQuery], object]]] = {
        "metrics": (metrics, lambda q: q.metrics),
        "dimensions": (dims, lambda q: q.dimensions),
        "filters": (filters, lambda q: (set(q.filters), set(q.share_filters))),
        "period": (period, lambda q: (q.time_range.start, q.time_range.end)),
        "comparison": (comparison, lambda q: q.comparison.range if q.comparison else None),
        "grain": (grain, lambda q: q.grain),
        "ranking": (ranking, lambda q: (q.top_n, q.order) if q.top_n else None),
        "share": (share, lambda q: q.share),
        "intent": (intent, lambda q: q.intent),
    }
    out = []
    for part, (said, key) in parts.items():
        if key(rule) != key(model):
            out.append(
                text(
                    "model.disagree",
                    lang,
                    **localized("part", f"model.part_{part}"),
                    rule=said(rule),
                    model=said(model),
                )
            )
    return out
