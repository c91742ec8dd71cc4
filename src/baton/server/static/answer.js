// One answer on the page: interpretation first, the answer, an analysis' sections, the chart, the table,
// and "how this was computed" in collapsible panels. Texts and numbers come formatted from the server
// (GET /api/runs/{id}/view: the report's content, made by the one formatter); nothing is inserted as HTML.
import { api } from "./api.js";

const CHART_FONT = "Baton CJK, sans-serif";

/** An element with attributes and children (strings become text nodes: never parsed as HTML). */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, String(value));
  }
  for (const child of Array.isArray(children) ? children : [children]) {
    if (child === null || child === undefined || child === "") continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const NUMERIC = /^[+\-−]?[¥$]?[\d,]+(?:\.\d+)?%?(?:万|亿|[KMBT])?$/;

function table(header, rows, css) {
  const head = el("thead", {}, el("tr", {}, header.map((h) => el("th", {}, h))));
  const body = el("tbody", {}, rows.map((row) => el("tr", {}, row.map((cell) => {
    const text = cell === null || cell === undefined ? "" : String(cell);
    return el("td", NUMERIC.test(text.trim()) ? { class: "num" } : {}, text);
  }))));
  return el("div", { class: "table-wrap" }, el("table", css ? { class: css } : {}, [head, body]));
}

function list(items, t) {
  return el("ul", {}, (items && items.length ? items : [t("none")]).map((item) => el("li", {}, item)));
}

function panel(name, title, body) {
  return el("details", { class: `panel panel-${name}` }, [el("summary", {}, title), body]);
}

async function viewOf(answer) {
  try {
    return await api("GET", `/api/runs/${encodeURIComponent(answer.run_id)}/view`);
  } catch {
    return null; // the raw answer is still shown
  }
}

function followUpLine(answer, t) {
  const info = answer.follow_up;
  if (!info || info.standalone || !info.parent_run_id) return null;
  const words = (parts) => parts.map((p) => t(`part_${p}`)).join(t("list_sep"));
  const bits = [];
  if (info.inherited?.length) bits.push(t("inherited", { parts: words(info.inherited) }));
  if (info.changed?.length) bits.push(t("changed", { parts: words(info.changed) }));
  return bits.length ? el("p", { class: "inherited" }, bits.join(t("clause_sep"))) : null;
}

function statusBlock(answer, t) {
  if (answer.status === "answered") return [];
  const parts = [el("p", { class: "status" }, `${t("status")}: ${t(`status_${answer.status}`)}`)];
  if (answer.error?.message && answer.error.message !== answer.answer) parts.push(el("p", {}, answer.error.message));
  if (answer.suggestions?.length) {
    parts.push(el("p", { class: "suggestions" }, [
      t("suggestions"), " ", ...answer.suggestions.flatMap((s, i) => [i ? t("list_sep") : "", el("code", {}, s)]),
    ]));
  }
  return parts;
}

function sectionsBlock(answer, t) {
  return (answer.sections || []).map((s) => el("section", { class: `section section-${s.kind}` }, [
    el("h3", {}, s.heading), el("ul", {}, s.items.map((item) => el("li", {}, item))),
  ]));
}

function figuresBlock(content, t) {
  const figures = content?.key_figures || [];
  if (!figures.length) return [];
  const optional = ["interval", "detail"].filter((name) => figures.some((f) => f[name]));
  const header = [t("item"), t("value"), t("exact"), ...optional.map((name) => t(name))];
  const rows = figures.map((f) => [f.label, f.value, f.exact, ...optional.map((name) => f[name] || "—")]);
  return [el("h3", {}, t("key_numbers")), table(header, rows, "figures")];
}

function resultBlock(answer, content, t) {
  if (content && content.table_header?.length) {
    return [
      el("h3", {}, t("table")), table(content.table_header, content.table_rows, "result"),
      ...(content.table_notes || []).map((n) => el("p", { class: "note" }, n)),
    ];
  }
  // No formatted view (GET /view failed): the raw rows are never shown, as the page never formats a number.
  const result = answer.result;
  if (!result || !result.columns?.length || answer.sections?.length) return [];
  return [el("h3", {}, t("table")), el("p", { class: "note table-unavailable", role: "status" }, t("table_unavailable"))];
}

function metricsBlock(answer, t) {
  return el("ul", {}, (answer.metrics || []).map((m) => el("li", { class: "metric" }, [
    el("strong", {}, m.label), " (", el("code", {}, m.name), "): ", m.definition,
    el("br"), `${t("expression")}: `, el("code", {}, m.expression),
    m.filters?.length ? [el("br"), `${t("filters")}: `, el("code", {}, m.filters.join("; "))] : null,
    m.time_column ? [el("br"), `${t("time_column")}: `, el("code", {}, m.time_column)] : null,
    el("br"), `${t("owner")}: ${m.owner}`,
  ].flat())));
}

function panels(answer, content, t) {
  const excluded = answer.excluded_paths?.length ? answer.excluded_paths : content?.excluded || [];
  const out = [];
  if (answer.sql) out.push(panel("sql", t("sql"), el("pre", {}, el("code", {}, answer.sql))));
  if (answer.metrics?.length) out.push(panel("definitions", t("definitions"), metricsBlock(answer, t)));
  const freshness = answer.data_freshness || content?.freshness;
  const answered = answer.status === "answered"; // otherwise only what it has
  if (answered || freshness) out.push(panel("freshness", t("freshness"), el("p", {}, freshness || t("none"))));
  if (answered || answer.assumptions?.length) {
    out.push(panel("assumptions", t("assumptions"), list(answer.assumptions, t)));
  }
  if (answered || excluded.length) out.push(panel("excluded", t("excluded"), list(excluded, t)));
  if (answer.tests?.length) {
    out.push(panel("tests", t("tests"), list(answer.tests.map((s) => `${s.name} — ${s.method}`), t)));
  }
  if (content?.limitations?.length) out.push(panel("limitations", t("limitations"), list(content.limitations, t)));
  return out;
}

function reportLinks(answer, t) {
  const base = `/api/runs/${encodeURIComponent(answer.run_id)}/report`;
  const link = (format, label) => el("a", { href: `${base}?format=${format}`, target: "_blank", rel: "noopener" }, label);
  return el("p", { class: "note run-footer" }, [
    t("run_id", { run_id: answer.run_id }), " · ", link("html", t("report_html")), " · ", link("md", t("report_md")),
  ]);
}

async function fontsSettled() {
  if (!document.fonts) return;
  const wait = new Promise((done) => setTimeout(done, 3000));
  try {
    await Promise.race([document.fonts.load('16px "Baton CJK"', "中"), wait]);
  } catch {
    // measured with a fallback font: the chart still draws
  }
}

/** Draw the Vega-Lite spec as SVG (expressions interpreted: the policy allows no eval). */
async function drawChart(holder, spec, t) {
  if (typeof vegaEmbed !== "function") return;
  const copy = JSON.parse(JSON.stringify(spec));
  copy.config = { ...(copy.config || {}), font: CHART_FONT };
  copy.width = "container";
  copy.autosize = { type: "fit-x", contains: "padding" };
  await fontsSettled();
  try {
    await vegaEmbed(holder, copy, {
      renderer: "svg", actions: false, mode: "vega-lite", ast: true,
      defaultStyle: false, tooltip: { disableDefaultStyle: true },
    });
    holder.dataset.chart = "drawn";
  } catch (error) {
    holder.dataset.chart = "error";
    holder.replaceChildren(el("p", { class: "error" }, t("chart_error", { error: error?.message || error })));
  }
}

/** Render ``answer`` into ``container`` (its previous content replaced). */
export async function renderAnswer(container, answer, t, { withQuestion = true } = {}) {
  const content = answer.run_id ? await viewOf(answer) : null;
  const chart = answer.chart ? el("div", { class: "chart", "data-chart": "pending" }) : null;
  container.dataset.runId = answer.run_id;
  container.dataset.status = answer.status;
  container.lang = answer.language === "zh" ? "zh-CN" : "en";
  container.replaceChildren(...[
    withQuestion ? el("p", { class: "question" }, answer.question) : null,
    answer.interpretation ? el("p", { class: "interpretation" }, answer.interpretation) : null,
    followUpLine(answer, t),
    el("p", { class: "answer-text" }, answer.answer),
    ...statusBlock(answer, t),
    ...sectionsBlock(answer, t),
    ...figuresBlock(content, t),
    chart ? el("h3", {}, t("chart")) : null,
    chart,
    ...resultBlock(answer, content, t),
    ...panels(answer, content, t),
    reportLinks(answer, t),
  ].filter(Boolean));
  if (chart) await drawChart(chart, answer.chart, t);
}
