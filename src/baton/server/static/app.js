// Baton's web page: sign-in, questions and follow-ups, analyses with live progress, run history, catalog.
// Every text from the server or the user goes into the page as text (textContent), never as HTML.
import { api, ApiError, setCsrf, setLanguage } from "./api.js";
import { el, renderAnswer } from "./answer.js";

// The page's strings: one table, English and Chinese (the product's own messages live in baton.messages).
export const I18N = {
  en: {
    title: "Baton", switch_language: "中文", sign_in: "Sign in", sign_out: "Sign out",
    token_label: "API token (from baton token create)", signed_in_as: "Signed in as {user}",
    tab_ask: "Ask", tab_runs: "Run history", tab_catalog: "Catalog",
    question_placeholder: "Ask about a metric, in English or Chinese: what it was, how it moved, why.",
    ask: "Ask", analyze: "Analyze", new_conversation: "New conversation", options: "Options",
    as_of_label: "Analysis date (as of)", working: "Working…", you_asked: "Question",
    status_answered: "Answered", status_clarification_needed: "Needs clarification", status_refused: "Refused",
    status_failed: "Failed", status_running: "Running", status_queued: "Queued", status: "Status",
    inherited: "Kept from the previous question: {parts}", changed: "changed: {parts}",
    part_metric: "metric", part_filter: "filter", part_exclusion: "exclusion", part_period: "period",
    part_grain: "grain", part_comparison: "comparison", part_breakdown: "breakdown", part_ranking: "ranking",
    part_share: "share", part_why: "why",
    suggestions: "Suggestions:", key_numbers: "Key numbers", item: "Item", value: "Value", exact: "Exact",
    interval: "95% interval", detail: "Test", chart: "Chart", table: "Result", drivers: "Drivers",
    sql: "SQL", definitions: "Metric definitions (口径)", freshness: "Data freshness", assumptions: "Assumptions",
    excluded: "Excluded paths", limitations: "Limitations", tests: "Statistical tests", none: "None",
    expression: "Expression", filters: "Filters", owner: "Owner", time_column: "Dated by",
    run_id: "Run {run_id}", report_html: "HTML report", report_md: "Markdown report",
    progress: "Progress", ev_started: "Started", ev_state: "Step: {step}", ev_finished: "Finished: {status}",
    ev_handoff: "Handoff to the {agent} agent ({tokens} tokens)",
    step_clarify_metric: "reading the question", step_plan_sql: "planning the SQL", step_policy_check: "policy check",
    step_execute: "running the query", step_analyse: "analysing", step_explain: "writing the answer",
    agent_sql: "SQL", agent_quality: "data quality", agent_stats: "statistics", agent_trend: "trend",
    agent_insight: "insight", agent_chart: "chart", agent_report: "report",
    status_done: "Done", status_cancelled: "Cancelled",
    unit_currency: "money", unit_count: "count", unit_ratio: "ratio", unit_number: "number",
    progress_done: "Finished: {status}", truncated: "Only the first rows are shown.",
    runs_question: "Question", runs_kind: "Kind", runs_status: "Status", runs_started: "Started", runs_user: "User",
    runs_empty: "No runs yet.", run_not_found: "This run cannot be opened: it does not exist or is not yours.",
    metrics: "Metrics", dimensions: "Dimensions", unit: "Unit", metric_dimensions: "Breakdowns",
    network_error: "The server could not be reached.", chart_error: "The chart could not be drawn: {error}",
    kind_ask: "question", kind_analyze: "analysis", kind_query: "query", kind_sql: "SQL", kind_export: "export",
  },
  zh: {
    title: "Baton", switch_language: "English", sign_in: "登录", sign_out: "退出登录",
    token_label: "API 令牌（由 baton token create 生成）", signed_in_as: "当前用户：{user}",
    tab_ask: "提问", tab_runs: "运行记录", tab_catalog: "指标目录",
    question_placeholder: "用中文或英文问一个指标问题：是多少、怎么变化、为什么。",
    ask: "提问", analyze: "分析原因", new_conversation: "新对话", options: "选项",
    as_of_label: "分析日期（as of）", working: "处理中…", you_asked: "问题",
    status_answered: "已回答", status_clarification_needed: "需要澄清", status_refused: "已拒绝",
    status_failed: "失败", status_running: "运行中", status_queued: "排队中", status: "状态",
    inherited: "沿用上一问的：{parts}", changed: "改变的：{parts}",
    part_metric: "指标", part_filter: "筛选条件", part_exclusion: "排除条件", part_period: "期间",
    part_grain: "时间粒度", part_comparison: "对比", part_breakdown: "拆分维度", part_ranking: "排名",
    part_share: "占比", part_why: "原因",
    suggestions: "建议：", key_numbers: "关键数字", item: "项目", value: "数值", exact: "精确值",
    interval: "95% 区间", detail: "检验", chart: "图表", table: "结果", drivers: "驱动因素",
    sql: "SQL", definitions: "指标口径", freshness: "数据新鲜度", assumptions: "假设",
    excluded: "已排除的路径", limitations: "局限", tests: "统计检验", none: "无",
    expression: "表达式", filters: "筛选条件", owner: "负责人", time_column: "日期字段",
    run_id: "运行 {run_id}", report_html: "HTML 报告", report_md: "Markdown 报告",
    progress: "进度", ev_started: "开始", ev_state: "步骤：{step}", ev_finished: "结束：{status}",
    ev_handoff: "交接给 {agent} 智能体（{tokens} 个词元）",
    step_clarify_metric: "理解问题", step_plan_sql: "生成 SQL", step_policy_check: "权限检查",
    step_execute: "执行查询", step_analyse: "分析", step_explain: "撰写回答",
    agent_sql: "SQL", agent_quality: "数据质量", agent_stats: "统计检验", agent_trend: "趋势",
    agent_insight: "洞察", agent_chart: "图表", agent_report: "报告",
    status_done: "完成", status_cancelled: "已取消",
    unit_currency: "金额", unit_count: "计数", unit_ratio: "比率", unit_number: "数值",
    progress_done: "已结束：{status}", truncated: "只显示前若干行。",
    runs_question: "问题", runs_kind: "类型", runs_status: "状态", runs_started: "开始时间", runs_user: "用户",
    runs_empty: "还没有运行记录。", run_not_found: "无法打开这次运行：它不存在，或不属于你。",
    metrics: "指标", dimensions: "维度", unit: "单位", metric_dimensions: "可拆分维度",
    network_error: "无法连接服务器。", chart_error: "图表无法绘制：{error}",
    kind_ask: "提问", kind_analyze: "分析", kind_query: "查询", kind_sql: "SQL", kind_export: "导出",
  },
};

const params = new URLSearchParams(window.location.search);
const state = {
  lang: (params.get("lang") || navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en",
  user: null,
  conversationId: "new",
  busy: false,
};

/** A page string in the current language, with {fields} filled in (as text). */
export function t(key, fields = {}) {
  const table = I18N[state.lang];
  const template = key in table ? table[key] : I18N.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in fields ? String(fields[name]) : `{${name}}`));
}

const $ = (id) => document.getElementById(id);

function applyLanguage() {
  setLanguage(state.lang);
  document.documentElement.lang = state.lang === "zh" ? "zh-CN" : "en";
  document.title = t("title");
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-placeholder]")) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
  $("who").textContent = state.user ? t("signed_in_as", { user: state.user }) : "";
}

function showError(id, error) {
  const node = $(id);
  if (!error) {
    node.textContent = "";
    return;
  }
  node.textContent = error instanceof ApiError ? error.message : t("network_error");
  if (error instanceof ApiError && error.status === 401) { // the session ended: sign in again, told why
    showSignIn();
    $("signin-error").textContent = error.message;
  }
}

// --- sign-in -----------------------------------------------------------------------------------------

function showSignIn() {
  state.user = null;
  setCsrf(null);
  document.body.dataset.state = "signed-out";
  $("signin-form").hidden = false;
  $("app").hidden = true;
  $("signout").hidden = true;
  applyLanguage();
}

async function signIn(event) {
  event.preventDefault();
  showError("signin-error", null);
  try {
    const session = await api("POST", "/api/session", { token: $("token").value });
    setCsrf(session.csrf_token);
    state.user = session.user;
    $("token").value = "";
    $("signin-form").hidden = true;
    $("app").hidden = false;
    $("signout").hidden = false;
    document.body.dataset.state = "signed-in";
    applyLanguage();
    showView("ask");
    if (params.get("run")) openRun(params.get("run"));
  } catch (error) {
    showError("signin-error", error);
    document.body.dataset.state = "signed-out";
  }
}

async function signOut() {
  try {
    await api("DELETE", "/api/session");
  } catch {
    // signed out either way
  }
  $("thread").replaceChildren();
  state.conversationId = "new";
  showSignIn();
}

// --- views -------------------------------------------------------------------------------------------

function showView(name) {
  for (const tab of document.querySelectorAll("nav.tabs button")) {
    tab.setAttribute("aria-selected", String(tab.dataset.view === name));
  }
  for (const panel of document.querySelectorAll("[data-view-panel]")) panel.hidden = panel.dataset.viewPanel !== name;
  if (name === "runs") loadRuns();
  if (name === "catalog") loadCatalog();
}

// --- asking ------------------------------------------------------------------------------------------

function requestBody(question) {
  const body = { question, conversation_id: state.conversationId };
  const asOf = $("as-of").value;
  if (asOf) body.as_of = asOf;
  return body;
}

function setBusy(busy) {
  state.busy = busy;
  for (const id of ["ask-button", "analyze-button", "new-conversation"]) $(id).disabled = busy;
  document.body.dataset.busy = String(busy);
}

async function ask(event) {
  event.preventDefault();
  const question = $("question").value.trim();
  if (!question || state.busy) return;
  showError("ask-error", null);
  setBusy(true);
  const turn = el("article", { class: "turn", "data-kind": "ask" }, [el("p", { class: "muted" }, t("working"))]);
  $("thread").append(turn);
  try {
    const answer = await api("POST", "/api/ask", { ...requestBody(question), wait: true });
    if (answer.conversation_id) state.conversationId = answer.conversation_id;
    $("question").value = "";
    await renderAnswer(turn, answer, t);
  } catch (error) {
    turn.remove();
    showError("ask-error", error);
  } finally {
    setBusy(false);
  }
}

/** One progress event as a line: a state the run entered, or a handoff to an agent. */
function progressLine(data) {
  const word = (prefix, value) => (`${prefix}_${value}` in I18N.en ? t(`${prefix}_${value}`) : String(value ?? ""));
  const kind = ["started", "state", "handoff", "finished"].includes(data.kind) ? data.kind : "state";
  const text = t(`ev_${kind}`, {
    step: word("step", data.step), agent: word("agent", data.agent), status: statusWord(data.status),
    tokens: data.tokens ?? 0,
  });
  return el("li", { class: `transition transition-${kind}` }, text);
}

export function statusWord(status) {
  const key = `status_${status}`;
  return key in I18N.en ? t(key) : String(status ?? "");
}

/** Follow a run's server-sent events until it is done (the cookie authenticates the stream). */
function follow(runId, list) {
  return new Promise((resolve) => {
    const source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
    source.addEventListener("transition", (message) => {
      try {
        list.append(progressLine(JSON.parse(message.data)));
      } catch {
        // a malformed event is skipped
      }
    });
    source.addEventListener("done", (message) => {
      source.close();
      let status = "";
      try {
        status = JSON.parse(message.data).status;
      } catch {
        // keep going: the run itself says how it ended
      }
      list.append(el("li", { class: "done" }, t("progress_done", { status: statusWord(status) })));
      resolve();
    });
    source.onerror = () => {
      source.close(); // no reconnect loop: the run is fetched below either way
      resolve();
    };
  });
}

async function waitForAnswer(runId) {
  for (let tries = 0; tries < 600; tries += 1) {
    const run = await api("GET", `/api/runs/${encodeURIComponent(runId)}`);
    if (run.answer) return run.answer;
    await new Promise((done) => setTimeout(done, 1000));
  }
  throw new ApiError(504, "timeout", t("network_error"));
}

async function analyze() {
  const question = $("question").value.trim();
  if (!question || state.busy) return;
  showError("ask-error", null);
  setBusy(true);
  const list = el("ol", { class: "progress", "aria-label": t("progress") });
  const progress = el("details", { class: "panel panel-progress", open: true }, [el("summary", {}, t("progress")), list]);
  const turn = el("article", { class: "turn", "data-kind": "analyze" }, [el("p", { class: "question" }, question), progress]);
  $("thread").append(turn);
  try {
    const started = await api("POST", "/api/analyze", { ...requestBody(question), wait: false });
    turn.dataset.runId = started.run_id;
    await follow(started.run_id, list);
    progress.open = false; // the relay has finished: its steps fold away above the answer
    const answer = await waitForAnswer(started.run_id);
    if (answer.conversation_id) state.conversationId = answer.conversation_id;
    $("question").value = "";
    const body = el("div", { class: "analysis" });
    turn.append(body);
    await renderAnswer(body, answer, t, { withQuestion: false });
    turn.dataset.state = "done";
  } catch (error) {
    turn.dataset.state = "error";
    showError("ask-error", error);
  } finally {
    setBusy(false);
  }
}

function newConversation() {
  state.conversationId = "new";
  $("thread").replaceChildren();
  showError("ask-error", null);
  $("question").focus();
}

// --- run history -------------------------------------------------------------------------------------

async function loadRuns() {
  showError("runs-error", null);
  const head = $("runs-table").tHead;
  const body = $("runs-table").tBodies[0];
  const columns = ["runs_started", "runs_kind", "runs_status", "runs_question", "runs_user"];
  head.replaceChildren(el("tr", {}, columns.map((c) => el("th", {}, t(c)))));
  try {
    const { runs } = await api("GET", "/api/runs");
    body.replaceChildren(...runs.map((run) => {
      const row = el("tr", { class: "clickable", tabindex: "0", "data-run-id": run.run_id }, [
        el("td", {}, when(run.started_at)), el("td", {}, run.kind ? t(`kind_${run.kind}`) : ""),
        el("td", {}, statusWord(run.status)),
        el("td", {}, run.question ?? ""), el("td", {}, run.user ?? ""),
      ]);
      row.addEventListener("click", () => openRun(run.run_id));
      row.addEventListener("keydown", (e) => e.key === "Enter" && openRun(run.run_id));
      return row;
    }));
    if (!runs.length) body.replaceChildren(el("tr", {}, [el("td", { colspan: "5" }, t("runs_empty"))]));
  } catch (error) {
    showError("runs-error", error);
  }
}

/** An ISO timestamp as "YYYY-MM-DD HH:MM:SS" in the reader's time zone. */
function when(iso) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso ?? "";
  const pad = (n) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ` +
    `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

async function openRun(runId) {
  showView("runs");
  const detail = $("run-detail");
  detail.replaceChildren();
  try {
    const run = await api("GET", `/api/runs/${encodeURIComponent(runId)}`);
    const card = el("article", { class: "turn", "data-run-id": run.run_id });
    detail.append(card);
    if (run.answer) await renderAnswer(card, run.answer, t);
    else card.append(el("p", {}, [run.question ?? "", " · ", statusWord(run.status)]));
    card.scrollIntoView({ block: "start" });
  } catch (error) {
    showError("runs-error", error);
    if (error instanceof ApiError && error.status === 404) {
      detail.replaceChildren(el("p", { class: "error run-error", role: "alert" }, t("run_not_found")));
    }
  }
}

// --- catalog -----------------------------------------------------------------------------------------

async function loadCatalog() {
  showError("catalog-error", null);
  try {
    const catalog = await api("GET", "/api/catalog");
    const labels = new Map(catalog.dimensions.map((d) => [d.name, d.label ?? d.name]));
    $("catalog-metrics").replaceChildren(...catalog.metrics.map((m) => el("div", { class: "catalog-metric" }, [
      el("h3", {}, [m.label ?? m.name, " ", el("span", { class: "name" }, m.name)]),
      el("p", { class: "definition" }, m.description ?? ""),
      el("p", { class: "muted" }, [
        `${t("unit")}: ${`unit_${m.unit}` in I18N.en ? t(`unit_${m.unit}`) : m.unit ?? ""}`,
        m.owner ? ` · ${t("owner")}: ${m.owner}` : "",
        m.dimensions?.length ? ` · ${t("metric_dimensions")}: ${m.dimensions.map((d) => labels.get(d) ?? d).join("、")}` : "",
      ]),
    ])));
    $("catalog-dimensions").replaceChildren(...catalog.dimensions.map((d) => el("div", { class: "catalog-dim" }, [
      el("h3", {}, [d.label ?? d.name, " ", el("span", { class: "name" }, d.name)]),
      el("ul", { class: "members" }, (d.members ?? []).map((m) => el("li", {}, memberText(m)))),
    ])));
  } catch (error) {
    showError("catalog-error", error);
  }
}

function memberText(member) {
  if (member && typeof member === "object") return member.label ? `${member.label} (${member.name})` : member.name;
  return String(member);
}

// --- start -------------------------------------------------------------------------------------------

function start() {
  if (params.get("as_of")) $("as-of").value = params.get("as_of");
  $("signin-form").addEventListener("submit", signIn);
  $("signout").addEventListener("click", signOut);
  $("lang-toggle").addEventListener("click", () => {
    state.lang = state.lang === "zh" ? "en" : "zh";
    applyLanguage();
  });
  for (const tab of document.querySelectorAll("nav.tabs button")) {
    tab.addEventListener("click", () => showView(tab.dataset.view));
  }
  $("ask-form").addEventListener("submit", ask);
  $("analyze-button").addEventListener("click", analyze);
  $("new-conversation").addEventListener("click", newConversation);
  $("question").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      $("ask-form").requestSubmit();
    }
  });
  showSignIn();
}

start();
