"""What a language model must return when it plans a question: catalog names, never SQL.

The LLM planner sends this model's JSON schema as the structured output (or tool) schema; the
reply is validated against it and then against the catalog and the user's grants exactly as a
rule-planner reading is (:mod:`baton.nlu.llm_planner`). Nothing here is trusted: a metric, a
dimension or a member the catalog lacks is refused, a period is read by Baton's own time
parser from the question's words, and the model never writes SQL.
"""

from __future__ import annotations

from datetime import date
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from baton.contracts.semantic import Grain

__all__ = ["SPAN_KINDS", "ModelFilter", "ModelPeriod", "ModelPlan", "ModelSpan", "SpanKind"]


class ModelFilter(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    dimension: str = Field(description="a dimension name from the catalog slice")
    members: list[str] = Field(min_length=1, description="member keys of that dimension")
    exclude: bool = Field(default=False, description="true: every member except these")


class ModelPeriod(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    words: str | None = Field(default=None, description="the question's own words that name the period, verbatim")
    start: date | None = Field(default=None, description="first day, when the words alone cannot say it")
    end: date | None = Field(default=None, description="last day, inclusive")


SpanKind = Literal["metric", "dimension", "member", "time", "comparison", "ranking", "share", "grain", "why", "ignored"]
SPAN_KINDS: tuple[str, ...] = get_args(SpanKind)


class ModelSpan(BaseModel):
    """What one stretch of the question became in the plan: the model accounts for its words.

    Baton checks every content word of the question is covered — by its own reading of a
    catalog word, a period or an operator that the plan uses, or by a span of this list that
    maps to a part of the validated query. A word covered by neither is asked back, never
    dropped. ``ignored`` covers only filler words; its ``reason`` is kept for the record."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    text: str = Field(description="the question's own words, verbatim")
    became: SpanKind = Field(description="the part of the plan these words became")
    name: str | None = Field(
        default=None, description="metric or dimension name, or member key, for metric/dimension/member"
    )
    reason: str | None = Field(default=None, description="became ignored: why the words say nothing")


class ModelPlan(BaseModel):
    """One reading of a question in catalog terms, or a question back, or out of scope."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    status: Literal["plan", "ask_back", "out_of_scope"] = "plan"
    metrics: list[str] = Field(default_factory=list, description="metric names from the catalog slice")
    dimensions: list[str] = Field(default_factory=list, description="dimension names to break the metric down by")
    filters: list[ModelFilter] = Field(default_factory=list)
    period: ModelPeriod | None = Field(default=None, description="null: the conversation's period, if any")
    grain: Grain | None = Field(default=None, description="a time series at this grain")
    comparison: Literal["previous_period", "same_period_last_year"] | None = None
    top_n: int | None = Field(default=None, ge=1, le=1000)
    order: Literal["desc", "asc"] = "desc"
    share: bool = Field(default=False, description="each group's share of the whole")
    why: bool = Field(default=False, description="the question asks why the metric moved")
    unplaced: list[str] = Field(
        default_factory=list, description="words of the question that could not be placed in the catalog"
    )
    question_back: str | None = Field(default=None, description="status ask_back: what to ask the user")
    spans: list[ModelSpan] = Field(
        default_factory=list,
        description="every word of the question and what it became (words left out are asked back)",
    )
