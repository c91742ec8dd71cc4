"""The HTML report: one self-contained file, readable on a phone, with no network at view time.

The chart is there twice: an inline SVG rendered offline (shown when scripts cannot run — a
mail client, a locked-down viewer, print) and an interactive chart that the bundled Vega,
Vega-Lite and Vega-Embed libraries draw from the same spec, which replaces the SVG once it
has drawn. The libraries live in ``baton/report/vendor`` (BSD-3-Clause, licences beside
them) and are inlined.

The page's Content-Security-Policy (:func:`content_security_policy`) starts from
``default-src 'none'``, so the page cannot fetch anything even if something tried, and allows
exactly the page's own inline scripts and style, each by its SHA-256 hash: no other inline
script, event handler (``onerror=``), ``javascript:`` URL or ``eval``/``Function`` runs, even
should some text ever slip through unescaped. Vega would compile its expressions with
``Function``; the embed call asks for its CSP-safe mode instead (``ast: true``: expressions are
parsed to a syntax tree and run by the expression interpreter, vega-interpreter, bundled in
vega-embed). Vega-Embed and its tooltip would inject ``<style>`` elements of their own, which
the policy refuses; they are turned off (``defaultStyle: false``, ``disableDefaultStyle``) and
the few rules the chart needs are part of the page's own hashed style. Vega sets element styles
only through the CSSOM (``element.style.x = …``), which a policy does not govern, so
``style-src`` needs no ``'unsafe-inline'`` either.

Chinese reads on a machine with no CJK font: the page's style begins with an ``@font-face`` rule
("Baton CJK", :mod:`baton.report.fonts`) holding the bundled Noto Sans CJK cut to the characters
the page and its chart show, as a WOFF data URL (``font-src data:``); text, the static SVG's labels
and the interactive chart (drawn once the font has loaded, since Vega measures its labels) use it
first.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from baton.catalog.model import Catalog
from baton.charts import render_svg
from baton.contracts.answer import Answer
from baton.report.content import CODE_SECTIONS, KeyFigure, ReportContent, build_content, figure_table
from baton.report.files import atomic_write_text

VENDOR_SCRIPTS = ("vega/vega.min.js", "vega-lite/vega-lite.min.js", "vega-embed/vega-embed.min.js")

_CSS = """
:root { color-scheme: light; --ink: #1f2328; --muted: #57606a; --line: #d0d7de; --accent: #4c78a8; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 "Baton CJK", "Noto Sans CJK SC", "Noto Sans SC", "PingFang SC", "Microsoft YaHei",
  -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
.chart svg text { font-family: "Baton CJK", "Noto Sans CJK SC", "Noto Sans SC", "PingFang SC", sans-serif; }
main { max-width: 860px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.35rem; margin: 0.2rem 0 0.6rem; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.2rem; }
h3 { font-size: 0.98rem; margin: 1rem 0 0.3rem; }
.question { color: var(--muted); margin: 0 0 0.6rem; }
.interpretation { font-weight: 600; margin: 0 0 0.4rem; }
.answer { font-size: 1.08rem; padding: 12px 14px; border-left: 4px solid var(--accent); background: #f6f8fa; }
.status { color: #b42318; font-weight: 600; }
.table-wrap { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; width: 100%; font-size: 0.92rem; }
th, td { border-bottom: 1px solid var(--line); padding: 6px 8px; text-align: left; white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th.num { text-align: right; }
table.figures { table-layout: fixed; }
table.figures th, table.figures td { white-space: normal; overflow-wrap: anywhere; }
table.figures th:first-child { width: 30%; }
.section li { margin: 0.2rem 0; }
figure { margin: 0; }
.chart svg, .chart canvas { max-width: 100%; height: auto; }
#baton-interactive { width: 100%; }
#baton-interactive .vega-embed { width: 100%; }
figcaption, .note { color: var(--muted); font-size: 0.88rem; }
pre { overflow-x: auto; background: #f6f8fa; padding: 10px; font-size: 0.85rem; border-radius: 6px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace, "Baton CJK"; }
ul { padding-left: 1.2rem; }
footer { color: var(--muted); font-size: 0.8rem; margin: 2rem 0 1rem; }
@media (max-width: 600px) { main { padding: 10px; } body { font-size: 15px; } th, td { padding: 4px 6px; } }
.vega-embed { position: relative; display: inline-block; box-sizing: border-box; }
.vega-embed .chart-wrapper.fit-x { width: 100%; }
.vega-embed .chart-wrapper.fit-y { height: 100%; }
#vg-tooltip-element { visibility: hidden; padding: 8px; position: fixed; z-index: 1000; font-family: sans-serif;
  font-size: 11px; border-radius: 3px; box-shadow: 2px 2px 4px rgba(0, 0, 0, 0.1);
  background-color: rgba(255, 255, 255, 0.95); border: 1px solid #d9d9d9; color: black; }
#vg-tooltip-element.visible { visibility: visible; }
#vg-tooltip-element h2 { margin-top: 0; margin-bottom: 10px; font-size: 13px; }
#vg-tooltip-element table { border-spacing: 0; }
#vg-tooltip-element table tr { border: none; }
#vg-tooltip-element table tr td { overflow: hidden; text-overflow: ellipsis; padding-top: 2px; padding-bottom: 2px;
  border: none; white-space: normal; }
#vg-tooltip-element table tr td.key { color: #808080; max-width: 150px; text-align: right; padding-right: 4px; }
#vg-tooltip-element table tr td.value { display: block; max-width: 300px; max-height: 7em; text-align: left; }
"""
"""The page's one style. Its last rules are Vega-Embed's and Vega-Tooltip's own (vega-embed 6.29,
vega-tooltip in it), which they would otherwise inject as ``<style>`` elements the policy refuses."""

_EMBED = """
(function () {
  var holder = document.getElementById("baton-spec");
  var target = document.getElementById("baton-interactive");
  var still = document.getElementById("baton-static");
  if (!holder || !target || typeof vegaEmbed !== "function") { document.body.setAttribute("data-chart", "static"); return; }
  var spec = JSON.parse(holder.textContent);
  spec.width = "container";
  spec.autosize = { type: "fit-x", contains: "padding" };
  var options = {
    renderer: "svg", actions: false, mode: "vega-lite",
    ast: true,  /* expressions run by the interpreter: no Function, no 'unsafe-eval' */
    defaultStyle: false, tooltip: { disableDefaultStyle: true }  /* their rules are in the page's style */
  };
  var fonts = document.fonts ? document.fonts.ready : Promise.resolve();  /* Vega measures text: fonts first */
  fonts.then(function () { return vegaEmbed(target, spec, options); }).then(function () {
    if (still) { still.hidden = true; }
    document.body.setAttribute("data-chart", "interactive");
  }).catch(function (err) {
    target.textContent = "";
    document.body.setAttribute("data-chart", "static");
    document.body.setAttribute("data-chart-error", String(err && err.message || err));
  });
})();
"""


@lru_cache(maxsize=1)
def vendor_scripts() -> tuple[tuple[str, str], ...]:
    """The bundled libraries as (name, source), safe to inline inside ``<script>``."""
    folder = resources.files("baton.report").joinpath("vendor")
    return tuple((name, _script_safe(folder.joinpath(name).read_text(encoding="utf-8"))) for name in VENDOR_SCRIPTS)


@lru_cache(maxsize=1)
def _vendor_blocks() -> tuple[str, ...]:
    """The text of each library's ``<script>`` element (hashed for the policy once)."""
    return tuple(f"/* {name} (BSD-3-Clause) */\n{src}\n" for name, src in vendor_scripts())


def csp_hash(source: str) -> str:
    """The policy source allowing one inline ``<script>`` or ``<style>`` whose text is ``source``."""
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def content_security_policy(scripts: tuple[str, ...] | list[str], styles: tuple[str, ...] | list[str]) -> str:
    """The page's policy: nothing fetched, only these inline scripts and styles (by hash)."""
    script_src = " ".join(csp_hash(s) for s in scripts) or "'none'"
    style_src = " ".join(csp_hash(s) for s in styles) or "'none'"
    return (
        f"default-src 'none'; script-src {script_src}; style-src {style_src}; "
        "img-src data:; font-src data:; base-uri 'none'; form-action 'none'"
    )


def vendor_size() -> int:
    """Bytes of bundled JavaScript inlined into every HTML report."""
    return sum(len(src.encode("utf-8")) for _, src in vendor_scripts())


def _script_safe(source: str) -> str:
    """Source that cannot end its ``<script>`` element early (``</script`` and ``<!--``)."""
    return re.sub(r"</(script)", r"<\\/\1", source, flags=re.IGNORECASE).replace("<!--", "<\\!--")


def _json_script(value: Any) -> str:
    """JSON for a ``<script type="application/json">``: ``<``, ``>``, ``&`` escaped inside strings."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _list(items: list[str], none: str) -> str:
    return "<ul>" + "".join(f"<li>{_e(i)}</li>" for i in (items or [none])) + "</ul>"


_NUMERIC_TEXT = re.compile(r"[+\-−]?[¥$]?[\d,]+(?:\.\d+)?%?(?:万|亿|[KMBT])?")
"""A cell that reads as a number (the signs and 万/亿/K/M/B/T scales :mod:`baton.numbers` writes)."""


def _is_numeric_text(text: str) -> bool:
    return bool(_NUMERIC_TEXT.fullmatch(text.strip()))


def _table(header: list[str], rows: list[list[str]], css: str | None = None) -> str:
    """A table whose number cells (and the heading of an all-number column) align right."""
    numeric = [bool(rows) and all(_is_numeric_text(r[i]) for r in rows) for i in range(len(header))]
    head = "".join(
        f'<th class="num">{_e(h)}</th>' if n else f"<th>{_e(h)}</th>" for h, n in zip(header, numeric, strict=True)
    )
    body = "".join(
        "<tr>"
        + "".join(f'<td class="num">{_e(c)}</td>' if _is_numeric_text(c) else f"<td>{_e(c)}</td>" for c in r)
        + "</tr>"
        for r in rows
    )
    table = f'<table class="{css}">' if css else "<table>"
    return f'<div class="table-wrap">{table}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _figures(t: dict[str, str], figures: list[KeyFigure]) -> list[str]:
    """The key numbers, in a table whose long cells wrap rather than run off a phone's screen."""
    header, rows = figure_table(t, figures)
    return [f"<h2>{_e(t['key_numbers'])}</h2>", _table(header, rows, "figures")]


def _sections(c: ReportContent) -> list[str]:
    """An analysis' sections: a real heading each and one list item per line."""
    out: list[str] = []
    for s in c.sections:
        items = (
            "<ul>" + "".join(f"<li><code>{_e(i)}</code></li>" for i in s.items) + "</ul>"
            if s.kind in CODE_SECTIONS
            else _list(list(s.items), "")
        )
        out.append(f'<section class="section section-{_e(s.kind)}"><h2>{_e(s.heading)}</h2>{items}</section>')
    return out


def _strip_xml_prolog(svg: str) -> str:
    return re.sub(r"^\s*<\?xml[^>]*>\s*", "", svg)


def metric_definitions_html(c: ReportContent) -> str:
    """The metrics' 口径 as a list: definition, expression, filters, time column, owner."""
    t = c.labels
    items = []
    for m in c.metrics:
        bits = [f"<strong>{_e(m.label)}</strong> (<code>{_e(m.name)}</code>): {_e(m.definition)}"]
        bits.append(f"<br>{_e(t['expression'])}: <code>{_e(m.expression)}</code>")
        if m.filters:
            bits.append(f"<br>{_e(t['metric_filters'])}: " + "; ".join(f"<code>{_e(f)}</code>" for f in m.filters))
        if m.time_column:
            bits.append(f"<br>{_e(t['time_column'])}: <code>{_e(m.time_column)}</code>")
        bits.append(f"<br>{_e(t['owner'])}: {_e(m.owner)}")
        items.append("<li>" + "".join(bits) + "</li>")
    return "<ul>" + "".join(items) + "</ul>"


def _how_computed(c: ReportContent) -> list[str]:
    """How this was computed: SQL, metric definitions, scope, freshness, assumptions, gate, run."""
    t = c.labels
    parts = [f"<h2>{_e(t['how'])}</h2>"]
    if c.sql:
        parts += [f"<h3>{_e(t['sql'])}</h3>", f'<pre><code class="language-sql">{_e(c.sql)}</code></pre>']
    if c.metrics:
        parts += [f"<h3>{_e(t['metrics'])}</h3>", metric_definitions_html(c)]
    scope = ([f"{t['time_range']}: {c.time_range}"] if c.time_range else []) + c.filters
    parts += [f"<h3>{_e(t['filters'])}</h3>", _list(scope, t["none"])]
    parts += [f"<h3>{_e(t['freshness'])}</h3>", f"<p>{_e(c.freshness or t['none'])}</p>"]
    if not c.is_analysis:  # an analysis states them in its sections
        parts += [f"<h3>{_e(t['assumptions'])}</h3>", _list(c.assumptions, t["none"])]
        parts += [f"<h3>{_e(t['excluded'])}</h3>", _list(c.excluded, t["none"])]
    if c.limitations or not c.is_analysis:
        parts += [f"<h3>{_e(t['limitations'])}</h3>", _list(c.limitations, t["none"])]
    if c.gate:
        parts += [f"<h3>{_e(t['gate'])}</h3>", f'<p class="note">{_e(c.gate)}</p>']
    parts += [f"<h3>{_e(t['run_id'])}</h3>", f"<p><code>{_e(c.run_id)}</code></p>"]
    return parts


def _chart(c: ReportContent, svg: str | None) -> list[str]:
    """The chart: the static SVG (shown at once), the interactive view and why this chart."""
    t = c.labels
    return [
        f"<h2>{_e(t['chart'])}</h2>",
        '<figure class="chart">',
        f'<div id="baton-static" role="img" aria-label="{_e(c.chart_title or t["chart"])}">'
        f"{_strip_xml_prolog(svg or '')}</div>",
        f'<div id="baton-interactive" aria-label="{_e(t["interactive"])}"></div>',
        f"<figcaption>{_e(t['chart_reason'])}: {_e(c.chart_reason or '')}"
        + "".join(f"<br>{_e(note)}" for note in c.chart_notes)
        + "</figcaption>",
        "</figure>",
    ]


_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")
"""Characters a machine without a CJK font draws as boxes (CJK, kana, hangul, full-width forms)."""


def page_style(shown: str) -> str:
    """The page's style: the CJK font cut to the characters of ``shown`` (when it has any), then the
    rules. Text uses "Baton CJK" first, so Chinese renders on a machine with no CJK font at all."""
    if _CJK.search(shown) is None:
        return _CSS
    from baton.report.fonts import font_face_css

    face = font_face_css(shown)
    return f"{face}\n{_CSS}" if face else _CSS


def with_page_font(spec: dict[str, Any]) -> dict[str, Any]:
    """The chart spec drawn in the page: its text in the embedded font first (Vega measures
    labels with the font it draws them in)."""
    from baton.report.fonts import FONT_FAMILY

    config = dict(spec.get("config") or {})
    font = config.get("font")
    config["font"] = f'"{FONT_FAMILY}", {font}' if isinstance(font, str) and font else f'"{FONT_FAMILY}", sans-serif'
    return {**spec, "config": config}


def render_html_content(c: ReportContent, spec: dict[str, Any] | None, svg: str | None) -> str:
    """The page for prepared content; ``spec``/``svg`` are the chart (both or neither)."""
    lang = "zh-CN" if c.language == "zh" else "en"
    scripts = [*_vendor_blocks(), _EMBED] if spec is not None else []  # the spec is data, not a script
    body = _body(c, spec, svg)
    spec_json = _json_script(with_page_font(spec)) if spec is not None else ""
    style = page_style(body + json.dumps(spec, ensure_ascii=False) if spec is not None else body)
    parts: list[str] = [
        "<!doctype html>",
        f'<html lang="{lang}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy(scripts, [style])}">',
        f"<title>{_e(c.title)} · {_e(c.question[:80])}</title>",
        f"<style>{style}</style>",
        "</head>",
        '<body data-chart="none">' if spec is None else '<body data-chart="pending">',
        body,
    ]
    if spec is not None:
        parts.append(f'<script type="application/json" id="baton-spec">{spec_json}</script>')
        parts += [f"<script>{source}</script>" for source in scripts]
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def _body(c: ReportContent, spec: dict[str, Any] | None, svg: str | None) -> str:
    """The report itself, inside ``<main>``."""
    t = c.labels
    parts: list[str] = [
        "<main>",
        f"<h1>{_e(c.title)}</h1>",
        f'<p class="question">{_e(t["question"])}: {_e(c.question)}</p>',
        f"<h2>{_e(t['answer'])}</h2>",
        *([f'<p class="interpretation">{_e(c.interpretation)}</p>'] if c.interpretation else []),
        f'<p class="answer">{_e(c.answer)}</p>',
    ]
    if c.status != "answered":
        parts.append(f'<p class="status">{_e(t["status"])}: {_e(c.status_label or c.status)}</p>')
    parts += _sections(c)
    if c.key_figures:
        parts += _figures(t, c.key_figures)
    if spec is not None:
        parts += _chart(c, svg)
    if c.table_header:
        parts += [f"<h2>{_e(t['table'])}</h2>", _table(c.table_header, c.table_rows)]
        parts += [f'<p class="note">{_e(n)}</p>' for n in c.table_notes]
    parts += _how_computed(c)
    parts += [f"<footer>{_e(t['generated'])} · {_e(c.run_id)}</footer>", "</main>"]
    return "\n".join(parts)


def render_html(answer: Answer, *, catalog: Catalog | None = None, svg: str | None = None) -> str:
    """The self-contained HTML report of ``answer`` (the SVG is rendered here unless given)."""
    spec = answer.chart
    if spec is not None and svg is None:
        svg = render_svg(spec)
    return render_html_content(build_content(answer, catalog), spec, svg)


def write_html_report(answer: Answer, path: Path, *, catalog: Catalog | None = None) -> list[Path]:
    """Write the HTML report to ``path`` atomically; the paths written."""
    return [atomic_write_text(path, render_html(answer, catalog=catalog))]
