"""What every planner checks a query against in its catalog — the rule planner, a follow-up
and a language model's plan alike: breakdowns a metric allows, shares, averages per period,
rankings over two keys — and the refusals and questions back that name catalog terms."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher

from baton import patterns
from baton.catalog import spine, sqlexpr
from baton.catalog.compiler import share_comparison_built
from baton.catalog.model import Catalog, Measure
from baton.contracts.common import LANGUAGES, Language
from baton.contracts.semantic import Comparison, Correction, Grain, MemberFilter, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion, QuestionRefused, UnknownMetric, UnsupportedMetric
from baton.messages import average_fields, both, localized
from baton.messages import text as message
from baton.nlu import vocabulary as vocab
from baton.nlu.cues import Cues, rank_within_or_across
from baton.nlu.guards import ACROSS_GROUPS, ask_back
from baton.nlu.lexicon import Hit, Lexicon, normalise
from baton.nlu.metric_words import metric_labels, metrics_naming
from baton.nlu.reading import Terms
from baton.nlu.scan import Scan

_GROWTH_RATE = patterns.compile(
    r"增速|增长率|增幅|涨幅|降幅|跌幅|变化率|百分之几|\bgrowth rate\b|\bby what percent|\b(?:percent|percentage|%)\s+change\b"
    r"|\bgrew by how much\b|\bhow many percent\b",
    re.I,
)
"""A rate of change asked: of a share, its move in points, or the value's growth rate?"""


_CLAUSE_BETWEEN = patterns.compile(r"[,，;；?？。]|\band\b", re.I)
_OF_BEFORE = patterns.compile(r"\bof\s+(?:the\s+)?(?:total\s+)?$", re.I)


def share_move_said(query: SemanticQuery, scan: Scan, spans: Mapping[str, list[tuple[int, int]]]) -> SemanticQuery:
    """A share against another period with a rise or fall said: of the share only when said after
    the share word, in its clause, with no other metric between ("did app's share of GMV grow",
    "app的GMV占比跟5月比下降了吗"). Said of the value ("华南GMV下降了吗，占比呢", "GMV占比和GMV都涨了吗"):
    a yes/no is asked back, a premise dropped — the answer shows both moves, never one judged by the other."""
    if not (query.share and query.comparison is not None and query.premise is not None):
        return query
    share_end = max((e for _, e in spans.get("share", [])), default=None)
    move_at = min((s for kind in ("up", "down", "change") for s, _ in spans.get(kind, [])), default=None)
    if share_end is not None and move_at is not None and share_end <= move_at:
        others = [
            s for s, e in scan.metrics if share_end <= s and e <= move_at and not _OF_BEFORE.search(scan.norm, 0, s)
        ]
        if not others and not _CLAUSE_BETWEEN.search(scan.norm, share_end, move_at):
            return query
    if query.premise_asked is not None:
        raise ask_back("nlu.share_or_value_moved", {"reason": "share_or_value_moved"})
    return query.model_copy(update={"premise": None})


def check_share_compared(query: SemanticQuery, said: str = "") -> None:
    """A share against another period is built for one period's parts of one whole each ("各渠道
    GMV占比环比"), listed or ranked by the share now, its move in points; inside each group, over a
    series, ranked by a change (the share's, or the value's?), bounded, "which parts moved", or a
    growth rate (``said``: the question's words — the points, or the value's growth?) is asked back.
    A why of a share ("为什么app占比下降了") is asked back too: the analysis explains a metric's
    change, and a share moves with its part and with the rest of its whole."""
    if query.share and query.intent == "why":
        raise ask_back("nlu.why_of_a_share", {"reason": "why_of_a_share"})
    if not query.share or query.comparison is None:
        return
    if _GROWTH_RATE.search(said) or not share_comparison_built(query):
        raise ask_back("nlu.share_with_comparison", {"within": list(query.share_within), "rank_by": query.rank_by})


class CatalogChecks:
    """Catalog checks and catalog-worded refusals, shared by every planner of one catalog."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.lexicon = Lexicon(catalog)

    @staticmethod
    def check_share_of_a_move(said: str | None, dims: Sequence[str], filters: Sequence[MemberFilter]) -> None:
        """A share of a move is each group's part of a whole: with no groups ("what share of the decline
        came from app") or members of the groups kept ("APP和网页各贡献了多少") the whole would be those
        members' alone — asked back; a filter on another dimension is the whole's scope ("华东各渠道…")."""
        if said is not None and (not dims or any(f.dimension in dims for f in filters)):
            raise ask_back("nlu.share_of_a_change", {"reason": "share_of_a_change"}, said=said)

    def check_contribution(
        self, said: str, metrics: Sequence[str], dims: list[str], rank_by: str, grain: Grain | None
    ) -> None:
        """A contribution to a change is the group's own change only for the groups of a breakdown
        (not the periods of a series), ranked by the change, of an amount or a count that adds up
        over the groups, and only as an amount: otherwise asked, never ranked."""
        if not dims or grain is not None or rank_by == "value":  # "哪个月对今年GMV增长贡献最大"
            raise ask_back("nlu.contribution_unplaced", {"reason": "contribution_unplaced"}, said=said)
        dim = self.catalog.dimensions[dims[0]].label
        ratio = next((self.catalog.metrics[m] for m in metrics if not self.catalog.metrics[m].additive), None)
        if ratio is not None:
            key = "contribution_of_a_distinct_count" if ratio.distinct_count else "contribution_of_a_ratio"
            fields = {"metric": ratio.label.en, "metric_zh": ratio.label.zh, "dimension": dim.en}
            raise ask_back(f"nlu.{key}", {"reason": key}, **fields, dimension_zh=dim.zh)
        if rank_by != "change":
            raise ask_back(
                "nlu.contribution_in_percent",
                {"reason": "contribution_in_percent"},
                dimension=dim.en,
                dimension_zh=dim.zh,
            )

    @staticmethod
    def not_understood(words: list[str]) -> tuple[str, str]:
        """ "Baton did not understand …" naming the words, in English and Chinese."""

        def said(lang: Language) -> str:
            return message("nlu.not_understood", lang, words=message("answer.list_sep", lang).join(words))

        return said("en"), said("zh")

    def _no_code_in_lower_case(self, text: str, found: Sequence[Hit]) -> None:
        """ "booking value for us listings": a code read only in capitals ("US") said in lower case
        where a pronoun cannot stand is asked about, never dropped as the pronoun."""
        said = self.lexicon.codes_said_lower(text, found)
        if not said:
            return
        start, end, term = said[0]
        dim_name, member = term.target.split(":", 1)
        dim = self.catalog.dimensions[dim_name]

        def asked(lang: Language) -> str:
            code = dim.members[member].label.for_lang(lang)
            return message(
                "nlu.code_in_lower_case", lang, word=text[start:end], member=code, dimension=dim.label.for_lang(lang)
            )

        raise AmbiguousQuestion(asked("en"), asked("zh"), detail={"unknown": [text[start:end]]})

    def _no_count_of_a_rate(self, corrections: Sequence[Correction], found: Sequence[Hit]) -> None:
        """ "conversions last month": a rate's name in the plural counts things (conversions,
        refunds), the rate does not; read as the rate only after asking."""
        for c in corrections:
            if c.kind != "typo" or c.written.lower() != c.read_as.lower() + "s":
                continue
            named = [t for h in found if h.text.lower() == c.read_as.lower() for t in h.terms if t.kind == "metric"]
            if named and all(self.catalog.metrics[t.target].is_ratio for t in named):
                metric = self.catalog.metrics[named[0].target]
                raise AmbiguousQuestion(
                    *both("nlu.count_of_a_rate", written=c.written, metric=metric.label.en, metric_zh=metric.label.zh),
                    detail={"reason": "count_of_a_rate", "written": c.written, "metric": named[0].target},
                )

    def _no_gap_of_two_metrics(self, scan: Scan, cues: Cues, terms: Terms, periods: Sequence[object]) -> None:
        """ "difference between GMV and net revenue last month", "上个月GMV比净收入高多少": the gap
        between two metrics, or each against the period before? Each one's change only when a
        second period, or a previous-period word, sets one against it; else asked back."""
        said = [scan.norm[a:b] for a, b in cues.spans.get("change", [])]
        gap = any(vocab.GAP.fullmatch(w.strip()) for w in said)  # GAP holds every GAP_BETWEEN word
        if not gap or len(terms.metrics) < 2 or terms.members:
            return
        if len(periods) > 1 or cues.comparison_kind or cues.spans.get("previous_period"):
            return
        first, second = (self.catalog.metrics[m].label for m in terms.metrics[:2])
        raise AmbiguousQuestion(
            *both("nlu.gap_of_two_metrics", first=first.en, second=second.en, first_zh=first.zh, second_zh=second.zh),
            detail={"reason": "gap_of_two_metrics", "metrics": list(terms.metrics)},
        )

    def _no_filter_of_nothing(self, filters: Sequence[MemberFilter]) -> None:
        """ "不看新客老客的GMV", "excluding every channel": every member of a dimension taken out leaves
        no rows; asked back (naming them), never answered with an empty result."""
        for f in filters:
            members = self.catalog.dimensions[f.dimension].members
            if f.exclude and members and set(members) <= set(f.members):
                label = self.catalog.dimensions[f.dimension].label
                raise AmbiguousQuestion(
                    *both("nlu.everything_excluded", dimension=label.en, dimension_zh=label.zh),
                    detail={"reason": "everything_excluded", "dimension": f.dimension},
                )

    def _no_average_across_groups(self, cues: Cues, terms: Terms, scan: Scan) -> None:
        """ "average AOV across channels": the overall rate, or the mean of the groups' rates?
        They differ; asked back."""
        ratios = bool(terms.metrics) and all(self.catalog.metrics[m].is_ratio for m in terms.metrics)
        if cues.average and ratios and terms.dims and ACROSS_GROUPS.search(scan.norm):
            raise ask_back(
                "nlu.average_across_groups",
                {"reason": "average_across_groups", "metrics": list(terms.metrics), "dimensions": list(terms.dims)},
            )

    def each_then_members(self, dimension: str, members: Sequence[str], metric: str | None) -> AmbiguousQuestion:
        """Asked back: every group of ``dimension`` asked, then something of ``members`` alone."""
        dim = self.catalog.dimensions[dimension]
        named = {
            lang: message("answer.list_sep", lang).join(self.catalog.member_label(dimension, m, lang) for m in members)
            for lang in LANGUAGES
        }
        label = self.catalog.metrics[metric].label if metric is not None else None
        return AmbiguousQuestion(
            *both(
                "nlu.each_then_members",
                dimension=dim.label.en,
                dimension_zh=dim.label.zh,
                members=named["en"],
                members_zh=named["zh"],
                metric=label.en if label else "",
                metric_zh=label.zh if label else "",
            ),
            detail={"reason": "each_then_members", "dimension": dimension, "members": list(members)},
        )

    def bound_of_which_groups(self, said: str, dims: Sequence[str]) -> AmbiguousQuestion:
        """Asked back: a bound with two breakdowns ("上个月GMV超过1000万的区域，按渠道拆开看") may be of the
        first's totals or of each combination; bounding the cells as if they were the first's groups would
        answer another question."""
        labels = {lang: [self.catalog.dimensions[d].label.for_lang(lang) for d in dims] for lang in LANGUAGES}
        return AmbiguousQuestion(
            *both(
                "nlu.threshold_of_which_groups",
                bound=said,
                first=labels["en"][0],
                first_zh=labels["zh"][0],
                groups=" × ".join(labels["en"]),
                groups_zh=" × ".join(labels["zh"]),
            ),
            detail={"reason": "threshold_of_which_groups", "bound": said, "dimensions": list(dims)},
        )

    def check_ranked_keys(self, dims: Sequence[str], grain: Grain | None, *, combination: bool) -> None:
        """A top N or a place over two keys ("各区域GMV最高的品类") ranks their combinations only
        when the question says so (``combination``: "组合", "pairs"); else it is asked back, as
        the top of each group is not built (the rules, a model's plan and a follow-up alike)."""
        if len(dims) + (grain is not None) < 2 or combination:
            return

        def labels(language: Language) -> list[str]:
            named = [self.catalog.dimensions[d].label.for_lang(language) for d in dims]
            return named + ([message(f"answer.grain_{grain}", language)] if grain is not None else [])

        raise rank_within_or_across(labels, {"dimensions": list(dims), "grain": grain})

    def check_share(
        self,
        metrics: list[str],
        dims: list[str],
        share_filters: list[MemberFilter],
        comparison: Comparison | None,
        grain: Grain | None,
    ) -> None:
        """A share is of an amount or a count (never a rate), of a part or a breakdown the question
        names, and over a series only of one period's shares ("每月各渠道占比的环比" is not built);
        else asked back."""
        ratios = [m for m in metrics if self.catalog.metrics[m].is_ratio or self.catalog.metrics[m].unit == "ratio"]
        if ratios:
            raise ask_back("nlu.share_of_a_ratio", {"metrics": ratios})
        if comparison is not None and grain is not None:
            raise ask_back("nlu.share_with_comparison", {})
        if not dims and not share_filters and grain is None:  # with a grain: each period's share of the range
            raise ask_back("nlu.share_of_what", {"dimensions": []})

    def check_average(self, per: Grain, metrics: list[str], grain: Grain | None, share: bool) -> None:
        """An average per day (week, month …) is of an amount or a count, over one period ("日均GMV",
        "月均订单量"); of a rate ("日均转化率": the period's rate, or the mean of daily rates?), over
        a series, or with a share it is asked back."""
        fields = average_fields(per)
        rates = [m for m in metrics if not self.catalog.metrics[m].amount_or_count]
        if rates:
            labels = metric_labels(self.catalog, rates)
            raise AmbiguousQuestion(
                *(message("nlu.average_of_a_ratio", lang, metrics=labels[lang], **fields) for lang in LANGUAGES),
                detail={"metrics": rates, "reason": "average_of_a_ratio"},
            )
        if grain is not None:
            raise AmbiguousQuestion(
                *both("nlu.average_with_grain", **fields, **localized("series", f"answer.grain_{grain}")),
                detail={"grain": grain, "reason": "average_with_grain"},
            )
        if share:
            raise AmbiguousQuestion(*both("nlu.average_with_share", **fields), detail={"reason": "average_with_share"})

    @staticmethod
    def check_average_periods(query: SemanticQuery) -> None:
        """An average per week (month …) divides by whole weeks: a period that cuts one ("上个季度
        周均GMV": 13 weeks and two days) is asked back, with the whole weeks inside it; so is a why
        about one (an analysis explains a total, or an average per day)."""
        per = query.average_per
        if per is None or per == "day":
            return
        fields = average_fields(per)
        if query.intent == "why":
            raise AmbiguousQuestion(*both("nlu.average_of_why", **fields), detail={"reason": "average_of_why"})
        ranges = [query.time_range] + ([query.comparison.range] if query.comparison is not None else [])
        for period in ranges:
            if spine.whole_period_count(period.start, period.end, per) is not None:
                continue
            inside = spine.whole_inside(period.start, period.end, per)
            whole = (
                localized("whole", "nlu.average_whole_part", start=inside[0], end=inside[1], **fields)
                if inside
                else {"whole": "", "whole_zh": ""}
            )
            said = {"period": period.text or f"{period.start}~{period.end}"}
            raise AmbiguousQuestion(
                *both("nlu.average_cuts_a_period", start=period.start, end=period.end, **said, **fields, **whole),
                detail={
                    "reason": "average_cuts_a_period",
                    "suggestions": [f"{inside[0]}~{inside[1]}"] if inside else [],
                },
            )

    def check_dimensions(self, metrics: list[str], dims: list[str], filtered: list[str]) -> None:
        """Every breakdown and filter is one the metrics can be broken down by (else invalid)."""
        for metric in metrics:
            allowed = self.catalog.metrics[metric].dimensions
            for dim in [*dims, *filtered]:
                if dim not in allowed:
                    raise QuestionRefused(
                        *(self._unsupported_dimension(metric, dim, allowed, lang) for lang in LANGUAGES),
                        detail={"metric": metric, "dimension": dim, "reason": "unsupported_dimension"},
                    )

    def fixed_by_definition(self, metric: str, depth: int = 0) -> dict[str, frozenset[str]]:
        """The dimensions a metric's own filters fix, with the members they keep (``filters:
        [status = 'completed']`` keeps the order status ``completed`` only). A ratio is fixed
        where its numerator is (an empty numerator is 0 or n/a, never the rate asked); a derived
        metric where every input is (with the members any of them keeps)."""
        m = self.catalog.metrics[metric]
        if depth > 4:  # a catalog's metrics do not nest deeper; a cycle is the loader's to refuse
            return {}
        if m.is_ratio:
            return self._fixed_part(m.numerator, m.dimensions, depth)
        if m.is_derived:
            parts = [self._fixed_input(item.metric, item.filters, m.dimensions, depth) for item in m.inputs.values()]
            common = set.intersection(*(set(p) for p in parts)) if parts else set()
            return {d: frozenset().union(*(p[d] for p in parts)) for d in common}
        return self._fixed_on(m.table, m.filters, m.dimensions) if m.table is not None else {}

    def _fixed_part(self, part: str | Measure | None, dims: Sequence[str], depth: int) -> dict[str, frozenset[str]]:
        if isinstance(part, str):
            return {d: v for d, v in self.fixed_by_definition(part, depth + 1).items() if d in dims}
        return self._fixed_on(part.table, part.filters, dims) if part is not None else {}

    def _fixed_input(
        self, metric: str, filters: Sequence[str], dims: Sequence[str], depth: int
    ) -> dict[str, frozenset[str]]:
        fixed = {d: v for d, v in self.fixed_by_definition(metric, depth + 1).items() if d in dims}
        for table in self.catalog.tables_of(metric)[:1]:
            for d, v in self._fixed_on(table, filters, dims).items():
                fixed[d] = fixed[d] & v if d in fixed else v
        return fixed

    def _fixed_on(self, table: str, filters: Sequence[str], dims: Sequence[str]) -> dict[str, frozenset[str]]:
        kept: dict[str, frozenset[str]] = {}
        for sql in filters:
            for name, values in sqlexpr.fixed_values(sql).items():
                kept[name] = kept[name] & values if name in kept else values
        fixed: dict[str, frozenset[str]] = {}
        for dim in dims:
            column = self.catalog.dimensions[dim].columns.get(table)
            if column is not None and sqlexpr.is_plain_column(column) and column.lower() in kept:
                fixed[dim] = kept[column.lower()]
        return fixed

    def check_metric_filters(
        self,
        metrics: Sequence[str],
        dims: Sequence[str],
        filters: Sequence[MemberFilter],
        share_filters: Sequence[MemberFilter] = (),
    ) -> None:
        """A member filter, a share or a breakdown against what a metric's own definition keeps
        is asked back: "refunded orders" of a metric that counts completed orders only is empty
        by definition, "what share were completed" 100 %, "completed orders by status" one group
        (unless another metric asked beside it holds every status) — never a silent n/a or zeros."""
        fixed = {metric: self.fixed_by_definition(metric) for metric in metrics}
        for metric in metrics:
            for f in [*filters, *share_filters]:
                kept = fixed[metric].get(f.dimension)
                if kept is not None and f.exclude and kept <= set(f.members):
                    raise self._outside_definition(metric, f.dimension, kept, "excluded", sorted(kept))
                if kept is not None and not f.exclude and set(f.members) - kept:
                    raise self._outside_definition(metric, f.dimension, kept, "outside", sorted(set(f.members) - kept))
                if kept is not None and not f.exclude and f in share_filters and kept <= set(f.members):
                    raise self._outside_definition(metric, f.dimension, kept, "share_whole", sorted(kept))
        for dim in dims:
            if all(len(fixed[m].get(dim, ())) == 1 for m in metrics) and metrics:
                raise self._outside_definition(metrics[0], dim, fixed[metrics[0]][dim], "breakdown", [])

    def _outside_definition(
        self, metric: str, dim: str, kept: frozenset[str], case: str, asked: list[str]
    ) -> AmbiguousQuestion:
        """Asked back, naming what the metric keeps and the metrics of its table that hold
        the members asked (or, for a breakdown or an exclusion, every member)."""

        def holds(other: str) -> bool:
            own = self.fixed_by_definition(other).get(dim)
            return own is None or (case == "outside" and set(asked) <= own)  # a share or breakdown: every member

        same_table = self.catalog.tables_of(metric)
        others = [
            m
            for m, info in self.catalog.metrics.items()
            if m != metric and dim in info.dimensions and self.catalog.tables_of(m) == same_table and holds(m)
        ]
        unit = self.catalog.metrics[metric].unit
        others.sort(key=lambda m: self.catalog.metrics[m].unit != unit)  # counts for a count first

        def said(lang: Language) -> str:
            sep = message("answer.list_sep", lang)
            return message(
                f"nlu.{case}_of_definition",
                lang,
                metric=self.catalog.metrics[metric].label.for_lang(lang),
                dimension=self.catalog.dimensions[dim].label.for_lang(lang),
                kept=sep.join(self.catalog.member_label(dim, v, lang) for v in sorted(kept)),
                members=sep.join(self.catalog.member_label(dim, v, lang) for v in asked),
                others=sep.join(self.catalog.metrics[m].label.for_lang(lang) for m in others[:4])
                or message("nlu.no_dimensions", lang),
            )

        return AmbiguousQuestion(
            said("en"),
            said("zh"),
            detail={"reason": "outside_definition", "metric": metric, "dimension": dim, "suggestions": others},
        )

    def _unsupported_dimension(self, metric: str, dim: str, allowed: Sequence[str], lang: Language) -> str:
        listed = message("answer.list_sep", lang).join(self.catalog.dimensions[d].label.for_lang(lang) for d in allowed)
        return message(
            "nlu.unsupported_dimension",
            lang,
            metric=self.catalog.metrics[metric].label.for_lang(lang),
            dimension=self.catalog.dimensions[dim].label.for_lang(lang),
            allowed=listed or message("nlu.no_dimensions", lang),
        )

    def refused_metric(self, name: str) -> UnsupportedMetric:
        """A metric the catalog names but Baton does not compute: refused with the catalog's reason."""
        refused = self.catalog.refused[name]
        return UnsupportedMetric(
            *(
                message(
                    "nlu.metric_refused", lang, label=refused.label.for_lang(lang), reason=refused.reason.for_lang(lang)
                )
                for lang in LANGUAGES
            ),
            detail={"metric": name, "refused": True},
        )

    def several_metrics(self, term: str, names: Sequence[str]) -> AmbiguousQuestion:
        """Asked back: ``term`` names every metric of ``names`` equally, so Baton will not pick one."""
        named = list(names)
        return AmbiguousQuestion(
            *(
                message(
                    "nlu.several_metrics",
                    lang,
                    term=term,
                    labels=message("answer.list_sep", lang).join(
                        self.catalog.metrics[m].label.for_lang(lang) for m in named
                    ),
                )
                for lang in LANGUAGES
            ),
            detail={"term": term, "suggestions": named},
        )

    def unknown_metric(self, term: str) -> UnknownMetric:
        """The refusal of a metric the catalog does not define, naming the metrics whose names hold
        the word (else the closest three)."""
        closest = metrics_naming(self.lexicon, term) or self.closest_metrics(term)

        def listed(lang: Language) -> str:
            return message("answer.list_sep", lang).join(
                message("nlu.metric_item", lang, label=self.catalog.metrics[m].label.for_lang(lang), name=m)
                for m in closest
            )

        return UnknownMetric(
            *(message("nlu.unknown_metric", lang, term=term, closest=listed(lang)) for lang in LANGUAGES),
            detail={"term": term, "suggestions": closest},
        )

    def closest_metrics(self, term: str, k: int = 3) -> list[str]:
        """Catalog metrics ranked by similarity of their names, labels and synonyms to a term."""
        needle = normalise(term)
        scores: list[tuple[float, str]] = []
        for name, surfaces in self.lexicon.surfaces("metric").items():
            best = 0.0
            for surface in surfaces:
                ratio = SequenceMatcher(None, needle, surface).ratio()
                shared_tail = 0.15 if needle[-1:] == surface[-1:] and not needle.isascii() else 0.0
                overlap = len(set(needle) & set(surface)) / max(len(set(needle)), 1)
                best = max(best, ratio + shared_tail + 0.3 * overlap)
            scores.append((best, name))
        scores.sort(key=lambda s: (-s[0], list(self.catalog.metrics).index(s[1])))
        return [name for _, name in scores[:k]]

    def with_examples(
        self, key: str, *, metric_name: str | None = None, dimension: str | None = None
    ) -> tuple[str, str]:
        """A message in both languages whose examples name this catalog's own metric and dimensions
        — the question's own when given."""
        metric = self.catalog.metrics[metric_name] if metric_name else next(iter(self.catalog.metrics.values()), None)
        dims = sorted(
            self.catalog.dimensions.values(), key=lambda d: d is not self.catalog.dimensions.get(dimension or "")
        )

        def say(lang: Language) -> str:
            return message(
                key,
                lang,
                metric=metric.label.for_lang(lang) if metric else "",
                dimension=dims[0].label.for_lang(lang) if dims else "",
                dimensions=message("answer.list_sep", lang).join(d.label.for_lang(lang) for d in dims[:2]),
            )

        return say("en"), say("zh")

    def examples(self, language: str, first: Sequence[str] = ()) -> list[str]:
        """Metrics by label that a question back offers to ask about: those the question named
        (``first``), then the catalog's first ones — five in all."""
        names = [*dict.fromkeys(m for m in first if m in self.catalog.metrics), *self.catalog.metrics]
        return [self.catalog.metrics[m].label.for_lang(language) for m in dict.fromkeys(names)][:5]

    @staticmethod
    def default_grain(time_range: TimeRange) -> Grain:
        """The grain of a trend whose grain the question does not say, by the period's length."""
        if time_range.days <= 62:
            return "day"
        if time_range.days <= 190:
            return "week"
        return "month"
