// The page's one way to talk to the server: JSON over fetch, the session cookie, the CSRF header on
// writes, the page's language on every request, and the server's one error shape turned into ApiError.

let csrfToken = null; // kept in memory only: after a reload, GET /api/session gives it back
let language = "en";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function setCsrf(token) {
  csrfToken = token;
}

export function setLanguage(lang) {
  language = lang;
}

export function acceptLanguage() {
  return language === "zh" ? "zh-CN,zh;q=0.9" : "en";
}

/** Call the API; the parsed JSON body, or an ApiError carrying the server's code and message. */
export async function api(method, path, body) {
  const headers = { Accept: "application/json", "Accept-Language": acceptLanguage() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && csrfToken) headers["X-CSRF-Token"] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && data.error ? data.error : {};
    throw new ApiError(response.status, error.code || "http_error", error.message || `HTTP ${response.status}`);
  }
  return data;
}
