"""Rows with an empty key in a ranking (or a bound) by a dimension: "which country had the fewest
new accounts" asks about countries, and rows whose country is empty (NULL) are no country. The
compiler keeps them out of every ranking and bound (``baton.catalog.compiler``); this step finds
whether there were any, so the answer says what was left out rather than leave it unseen.

A ranking by the change in percent ("which channel grew most in percent") cannot place a group
whose earlier value is zero or below (a percent of nothing is no number): the same statement, with
the comparison, finds those groups, so the answer names them instead of leaving them silently out.

One more governed statement, only for a ranking or a bound by a dimension: the first metric by
the same dimensions, filters and period, unranked (groups, never rows, come back to Python).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from baton.agents.change_ranking import change_text
from baton.agents.narration import no_key_labels
from baton.catalog.model import Catalog
from baton.contracts.common import Language
from baton.contracts.query import QueryResult
from baton.contracts.semantic import SemanticQuery
from baton.messages import text
from baton.numbers import format_exact


class UnnamedGroups(BaseModel):
    """The groups of a ranking's data whose key is empty, and the first metric's value over them
    (when there is one such group, or the metric adds up)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    groups: int = 0
    value: float | None = None
    no_percent: list[str] = []
    """The groups (their keys, as stored) a ranking by the change in percent cannot place."""
    change: float | None = None
    """Their change, for a contribution: not ranked, yet inside the whole's change (review s29)."""


def unnamed_query(query: SemanticQuery) -> SemanticQuery | None:
    """The statement that counts the empty-key groups of a ranking or bound by a dimension, or
    None when the query ranks or bounds no dimension."""
    from baton.catalog.compiler import members_only

    # the statement leaves them out (a ranking, a bound, a place asked), or the sentences do (which moved)
    if not (members_only(query) or (query.dimensions and query.premise_asked is not None)):
        return None
    return SemanticQuery(
        metrics=query.metrics[:1],
        dimensions=query.dimensions,
        filters=query.filters,
        time_range=query.time_range,
        where=query.where,
        as_of=query.as_of,
        comparison=query.comparison if query.rank_by == "change_pct" or query.contribution else None,
    )


def unnamed_groups(query: SemanticQuery, result: QueryResult, catalog: Catalog) -> UnnamedGroups:
    """The empty-key groups ``result`` (of :func:`unnamed_query`) holds."""
    names = [c.name for c in result.columns]
    keys = [names.index(d) for d in query.dimensions if d in names]
    metric = query.metrics[0]
    at = names.index(metric) if metric in names else None
    empty = [row for row in result.rows if any(row[k] is None for k in keys)]
    no_percent = _no_percent(result, keys, metric)
    values = [float(row[at]) for row in empty if at is not None and row[at] is not None]
    adds_up = catalog.metrics[metric].additive
    change = _change(result, empty, metric) if adds_up and query.comparison is not None else None
    if empty and len(values) == len(empty) and not any(values) and not change:  # nothing there: nothing left out
        return UnnamedGroups(no_percent=no_percent)
    value = sum(values) if values and (len(empty) == 1 or adds_up) and len(values) == len(empty) else None
    return UnnamedGroups(groups=len(empty), value=value, no_percent=no_percent, change=change)


def _change(result: QueryResult, empty: list[list[object]], metric: str) -> float | None:
    """The empty groups' change of a metric that adds up: a period without their rows is a zero of
    theirs (the plain statement leaves it empty, never 0 — review s30: "+¥0.00" said for +¥2,228,513.30)."""
    names = [c.name for c in result.columns]
    if metric not in names or f"{metric}_previous" not in names:
        return None
    now, before = names.index(metric), names.index(f"{metric}_previous")
    return sum(_amount(row[now]) - _amount(row[before]) for row in empty)


def _amount(value: object) -> float:
    """A sum's or a count's value; no rows is none of it."""
    return 0.0 if value is None else float(str(value))


def _no_percent(result: QueryResult, keys: list[int], metric: str) -> list[str]:
    """The named groups whose earlier value is not above zero: none, or zero and below (the plain
    statement leaves a period without rows empty where the answer's fills it with zero)."""
    names = [c.name for c in result.columns]
    if f"{metric}_change_pct" not in names:
        return []
    previous = names.index(f"{metric}_previous")
    return [
        " / ".join(str(row[k]) for k in keys)
        for row in result.rows
        if (row[previous] is None or float(row[previous]) <= 0) and all(row[k] is not None for k in keys)
    ]


def unnamed_notes(query: SemanticQuery, found: UnnamedGroups, catalog: Catalog, language: Language) -> list[str]:
    """The assumption that says a ranking left out the rows with an empty key ("country is empty
    for part of the data (new accounts: 10); it belongs to no country and is left out")."""
    notes = _no_percent_notes(found, language)
    if not found.groups:
        return notes
    dims = no_key_labels(catalog, query.dimensions, language)
    metric = query.metrics[0]
    if query.contribution and found.change is not None and query.average_per is not None:
        # a per-day whole holds the empty group's per-day change: said so, with no number of ours
        return [text("answer.unnamed_in_the_whole_unvalued", language, dimensions=dims), *notes]
    if query.contribution and found.change is not None:
        # "which country contributed most to the growth": the empty group's part is in the whole
        unit, currency = catalog.metrics[metric].unit, catalog.currency_of(metric)
        change = change_text(
            catalog, metric, found.change, language, lambda v: format_exact(v, unit, language, currency)
        )
        return [text("answer.unnamed_in_the_whole", language, dimensions=dims, change=change), *notes]
    # the value said is the period's own: not a per-day average's, nor a change a ranking by it ranks
    if found.value is None or query.average_per is not None or query.rank_by != "value":
        return [text("answer.unnamed_not_ranked", language, dimensions=dims), *notes]
    info = catalog.metrics[metric]
    value = format_exact(found.value, info.unit, language, catalog.currency_of(metric))
    label = info.label.for_lang(language)
    return [text("answer.unnamed_not_ranked_valued", language, dimensions=dims, metric=label, value=value), *notes]


def _no_percent_notes(found: UnnamedGroups, language: Language) -> list[str]:
    """The assumption that names the groups a ranking by percent change could not place."""
    if not found.no_percent:
        return []
    shown = text("answer.list_sep", language).join(found.no_percent[:_NAMED])
    more = (
        text("answer.no_percent_more", language, n=len(found.no_percent) - _NAMED)
        if len(found.no_percent) > _NAMED
        else ""
    )
    return [text("answer.no_percent_not_ranked", language, groups=shown + more)]


_NAMED = 10


__all__ = ["UnnamedGroups", "unnamed_groups", "unnamed_notes", "unnamed_query"]
