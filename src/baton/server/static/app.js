// Baton's web page: sign-in, questions and follow-ups, analyses with live progress, run history, catalog.
// Every text from the server or the user goes into the page as text (textContent), never as HTML.
import { api, ApiError, setCsrf, setLanguage } from "./api.js";
import { el, renderAnswer } from "./answer.js";

// The page's strings, English and Chinese: Baton's messages (baton.messages.web), inlined by the server as
// a JSON data block (never executed, so the page's policy allows it).
export const I18N = JSON.parse(document.getElementById("baton-strings")?.textContent || '{"en": {}, "zh": {}}');

const params = new URLSearchParams(window.location.search);
const state = {
  lang: (params.get("lang") || navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en",
  user: null,
  conversationId: "new",
  busy: false,
};

/** Whether the page has a string ``key`` (codes it has no word for are shown as they are). */
export function has(key) {
  return key in (I18N.en ?? {});
}

/** A page string in the current language, with {fields} filled in (as text). */
export function t(key, fields = {}) {
  const table = I18N[state.lang] ?? {};
  const template = key in table ? table[key] : I18N.en?.[key] ?? key;
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

/** Open the app for a session ({user, csrf_token}) from a sign-in or from the cookie. */
function enterApp(session) {
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
}

/** After a reload: the session cookie still holds, so take its user and CSRF token (GET /api/session). */
async function resumeSession() {
  try {
    enterApp(await api("GET", "/api/session"));
  } catch {
    showSignIn(); // no live session: sign in with a token
  }
}

async function signIn(event) {
  event.preventDefault();
  showError("signin-error", null);
  try {
    enterApp(await api("POST", "/api/session", { token: $("token").value }));
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
  const word = (prefix, value) => (has(`${prefix}_${value}`) ? t(`${prefix}_${value}`) : String(value ?? ""));
  const kind = ["started", "state", "handoff", "finished"].includes(data.kind) ? data.kind : "state";
  const text = t(`ev_${kind}`, {
    step: word("step", data.step), agent: word("agent", data.agent), status: statusWord(data.status),
    tokens: data.tokens ?? 0,
  });
  return el("li", { class: `transition transition-${kind}` }, text);
}

export function statusWord(status) {
  const key = `status_${status}`;
  return has(key) ? t(key) : String(status ?? "");
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
    await loadConversations(new Map(runs.map((run) => [run.run_id, run.question ?? ""])));
  } catch (error) {
    showError("runs-error", error);
  }
}

/** The user's conversations, newest first; opening one puts its turns back in the thread to follow up on. */
async function loadConversations(questions) {
  const head = $("conversations-table").tHead;
  const body = $("conversations-table").tBodies[0];
  head.replaceChildren(el("tr", {}, ["runs_started", "conv_turns", "conv_first"].map((c) => el("th", {}, t(c)))));
  const { conversations } = await api("GET", "/api/conversations");
  const listed = conversations.filter((c) => c.turns.length);
  body.replaceChildren(...listed.map((c) => {
    const row = el("tr", { class: "clickable", tabindex: "0", "data-conversation-id": c.conversation_id }, [
      el("td", {}, when(c.started_at)), el("td", { class: "num" }, String(c.turns.length)),
      el("td", {}, questions.get(c.turns[0]) ?? ""),
    ]);
    row.addEventListener("click", () => openConversation(c));
    row.addEventListener("keydown", (e) => e.key === "Enter" && openConversation(c));
    return row;
  }));
  if (!listed.length) body.replaceChildren(el("tr", {}, [el("td", { colspan: "3" }, t("conversations_empty"))]));
}

async function openConversation(conversation) {
  showError("runs-error", null);
  try {
    const runs = await Promise.all(conversation.turns.map((id) => api("GET", `/api/runs/${encodeURIComponent(id)}`)));
    const turns = [];
    for (const run of runs) {
      const turn = el("article", { class: "turn", "data-kind": run.kind ?? "ask", "data-run-id": run.run_id });
      if (run.answer) await renderAnswer(turn, run.answer, t);
      else turn.append(el("p", {}, [run.question ?? "", " · ", statusWord(run.status)]));
      turns.push(turn);
    }
    state.conversationId = conversation.conversation_id;
    const note = el("p", { class: "muted continuing" }, t("conv_continue"));
    $("thread").replaceChildren(note, ...turns);
    showView("ask");
    $("question").focus();
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
        `${t("unit")}: ${has(`unit_${m.unit}`) ? t(`unit_${m.unit}`) : m.unit ?? ""}`,
        m.owner ? ` · ${t("owner")}: ${m.owner}` : "",
        m.dimensions?.length ? ` · ${t("metric_dimensions")}: ${m.dimensions.map((d) => labels.get(d) ?? d).join(t("list_sep"))}` : "",
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
  applyLanguage();
  resumeSession(); // the sign-in form shows only when there is no session to resume
}

start();
