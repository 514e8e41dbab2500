// The auditor's view: the verify report check by check, the export download and, once the match
// is closed, every revealed secret with its commitment re-computed here (sha256 of salt+payload).

import { api } from "./api.js";
import { h, replace } from "./dom.js";

export async function renderAudit(root, page) {
  const report = await api.verify(page.id);
  const closed = page.match.status === "closed";
  const events = closed ? await api.exactEvents(page.id) : [];
  const secrets = events.filter((e) => e.commitment && e.payload && e.salt);
  const checked = await Promise.all(secrets.map(async (e) => [e, await matches(e)]));
  replace(root, h("h2", {}, "Audit"),
    h("p", { id: "verify-summary", class: report.ok ? "badge ok" : "badge bad" },
      report.ok ? "✔ the record verifies" : `✘ the record fails at seq ${report.first_bad_seq}`),
    h("ul", { id: "verify-checks" }, report.checks.map((c) => h("li", { class: c.ok ? "ok" : "bad" },
      `${c.ok ? "✔" : "✘"} ${c.name}: ${c.detail}${c.seq ? ` (seq ${c.seq})` : ""}`))),
    h("button", { type: "button", id: "export", onclick: () => download(page) }, "Download export (JSON Lines)"),
    closed || secrets.length ? h("h3", {}, "Revealed secrets") : null,
    h("ul", { id: "secrets" }, checked.map(([e, ok]) => h("li", { class: ok ? "ok" : "bad", dataset: { seq: e.seq } },
      `#${e.seq} ${e.type} ${canonical(e.payload)} — commitment ${e.commitment.slice(0, 12)}… `,
      h("strong", {}, ok ? "✔ verified" : "✘ does not match")))));
}

async function download(page) {
  const blob = await page.act(() => api.exportRecord(page.id));
  if (!blob) return;
  const link = h("a", { href: URL.createObjectURL(blob), download: `${page.id}.match.jsonl` });
  document.body.append(link);
  link.click();
  link.remove();
}

/** Canonical JSON as the service hashes it: sorted keys, no spaces, text as is. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return typeof value === "bigint" ? value.toString() : JSON.stringify(value);
}

async function matches(event) {
  const bytes = new TextEncoder().encode(event.salt + canonical(event.payload));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  return hex === event.commitment;
}
