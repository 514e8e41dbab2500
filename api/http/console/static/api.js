// The one module that talks to the service: the REST API and the live stream, nothing else.
// A role token arrives in the URL fragment (#token=...&role=...), never in a request line; it is
// moved to this tab's sessionStorage, the fragment is cleared, and it travels only in
// "Authorization: Bearer" headers.

const KEY = (matchId) => `adjudicator.token.${matchId}`;
const OPERATOR_KEY = "adjudicator.operator";

// Field names of rulings, in one place: the lead is renaming "at" to "occurred_at".
export const RULING_TIME_FIELD = "occurred_at";

export class ApiError extends Error {
  constructor(status, body) {
    super(body.message || `HTTP ${status}`);
    this.status = status;
    this.code = body.code || "http_error";
    this.details = body.details;
  }
}

/** Take the token and role from the fragment into sessionStorage (then clear the fragment). */
export function adoptFragment(matchId) {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has("token") || params.has("role")) {
    const who = { token: params.get("token") || "", role: params.get("role") || "spectator" };
    sessionStorage.setItem(KEY(matchId), JSON.stringify(who));
    history.replaceState(null, "", location.pathname + location.search);
  }
}

/** The role this tab acts as for a match: {token, role} (a spectator has no token). */
export function identity(matchId) {
  const raw = sessionStorage.getItem(KEY(matchId));
  return raw ? JSON.parse(raw) : { token: "", role: "spectator" };
}

export function forget(matchId) {
  sessionStorage.removeItem(KEY(matchId));
}

export function operatorToken() {
  return sessionStorage.getItem(OPERATOR_KEY) || "";
}

export function setOperatorToken(token) {
  sessionStorage.setItem(OPERATOR_KEY, token);
}

function headers(token, extra = {}) {
  const h = { Accept: "application/json", ...extra };
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

/** Whole numbers beyond 2^53 stay exact (as BigInt): commitments hash the exact payload. */
function exactReviver(key, value, context) {
  if (typeof value === "number" && !Number.isSafeInteger(value) && /^-?\d+$/.test(context?.source)) {
    return BigInt(context.source);
  }
  return value;
}

/** JSON text of a body; a BigInt (a seed beyond 2^53) is written as its exact digits. */
export function toJson(body) {
  const mark = "\u0000big:";
  const text = JSON.stringify(body, (k, v) => (typeof v === "bigint" ? `${mark}${v}` : v));
  return text.replace(/"\\u0000big:(-?\d+)"/g, "$1");
}

/** Whole digits as a BigInt when beyond 2^53 (kept exact), else a Number. */
export function exactInteger(text) {
  const big = BigInt(text);
  return big > BigInt(Number.MAX_SAFE_INTEGER) || big < -BigInt(Number.MAX_SAFE_INTEGER) ? big : Number(big);
}

export async function call(method, path, { token = "", body, params, extra, exact = false } = {}) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, v);
  }
  const init = { method, headers: headers(token, extra) };
  if (body !== undefined) {
    init.body = toJson(body);
    init.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(url, init);
  const type = response.headers.get("content-type") || "";
  const text = await response.text();
  const data = type.includes("json") ? JSON.parse(text, exact ? exactReviver : undefined) : text;
  if (!response.ok) throw new ApiError(response.status, typeof data === "object" ? data : {});
  return data;
}

const forMatch = (id) => `/matches/${encodeURIComponent(id)}`;
const tokenOf = (id) => identity(id).token;

export const api = {
  games: () => call("GET", "/games"),
  matches: (params) => call("GET", "/matches", { params }),
  match: (id) => call("GET", forMatch(id)),
  create: (body) => call("POST", "/matches", { token: operatorToken(), body }),
  state: (id, params) => call("GET", `${forMatch(id)}/state`, { token: tokenOf(id), params }),
  events: (id, params) => pages(id, params, false),
  exactEvents: (id) => pages(id, {}, true),
  diff: (id, params) => call("GET", `${forMatch(id)}/diff`, { token: tokenOf(id), params }),
  timeline: (id, params) =>
    call("GET", `${forMatch(id)}/timeline`, { token: tokenOf(id), params }),
  verify: (id) => call("GET", `${forMatch(id)}/verify`, { token: tokenOf(id) }),
  command: (id, body, key) =>
    call("POST", `${forMatch(id)}/commands`, {
      token: tokenOf(id),
      body,
      extra: { "Idempotency-Key": key || crypto.randomUUID() },
    }),
  ruling: (id, body) =>
    call("POST", `${forMatch(id)}/rulings`, {
      token: tokenOf(id),
      body,
      extra: { "Idempotency-Key": crypto.randomUUID() },
    }),
  transcriptPreview: (id, body, page) => transcript(id, "preview", body, page),
  transcriptEnter: (id, body, page) => transcript(id, "enter", body, page),
  close: (id) => call("POST", `${forMatch(id)}/close`, { token: tokenOf(id) }),
  async exportRecord(id) {
    const response = await fetch(`${forMatch(id)}/export`, { headers: headers(tokenOf(id)) });
    if (!response.ok) throw new ApiError(response.status, await response.json());
    return response.blob();
  },
};

/** A chat export's preview or entry: `body` is the JSON body, or a FormData (the export files
 * and an "options" part) sent as multipart/form-data; `page` is {offset, limit} of the rows. */
function transcript(id, action, body, page = {}) {
  const path = `${forMatch(id)}/transcript/${action}`;
  if (!(body instanceof FormData)) return call("POST", path, { token: tokenOf(id), body, params: page });
  return upload(path, body, page, tokenOf(id));
}

async function upload(path, form, params, token) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  const response = await fetch(url, { method: "POST", headers: headers(token), body: form });
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new ApiError(response.status, typeof data === "object" ? data : {});
  return data;
}

const PAGE = 500;

/** Every event of a match, page by page (`limit` and the `after_seq` cursor). */
async function pages(id, params = {}, exact = false) {
  const events = [];
  for (let after = 0; ; ) {
    const query = { ...params, limit: PAGE, after_seq: after };
    const page = await call("GET", `${forMatch(id)}/events`, { token: tokenOf(id), params: query, exact });
    events.push(...page);
    if (page.length < PAGE) return events;
    after = page.at(-1).seq;
  }
}

/**
 * Follow a match's server-sent events from `afterSeq`, calling onEvent(event) for each.
 * EventSource cannot send headers, so this reads the stream with fetch; it reconnects from the
 * last seq seen, and stops after match.closed, when the token is refused (status "refused") or
 * when the returned function is called.
 */
export function follow(id, afterSeq, onEvent, onStatus = () => {}) {
  const control = new AbortController();
  let seq = afterSeq;
  let closed = false;
  async function run() {
    while (!control.signal.aborted && !closed) {
      try {
        const url = `${forMatch(id)}/stream?after_seq=${seq}`;
        const response = await fetch(url, {
          headers: headers(tokenOf(id), { Accept: "text/event-stream" }),
          signal: control.signal,
        });
        if (response.status === 401 || response.status === 403) {
          onStatus("refused"); // the token will not do: asking again would not change that
          return;
        }
        if (!response.ok) throw new Error(`stream: HTTP ${response.status}`);
        onStatus("live");
        await readEvents(response.body, (event) => {
          seq = Math.max(seq, event.seq);
          if (event.type === "match.closed") closed = true;
          onEvent(event);
        });
      } catch (error) {
        if (control.signal.aborted) return;
        onStatus("reconnecting");
      }
      if (!closed) await new Promise((r) => setTimeout(r, 1000));
    }
    onStatus(closed ? "closed" : "stopped");
  }
  run();
  return () => control.abort();
}

async function readEvents(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      if (data) onEvent(JSON.parse(data));
    }
  }
}
