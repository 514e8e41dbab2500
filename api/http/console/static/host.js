// The host's console: the event list with a ruling form on each event, and closing the match.

import { api, RULING_TIME_FIELD } from "./api.js";
import { h, replace, showError, when } from "./dom.js";

const KINDS = ["void", "amend", "adjust_score", "end_round", "undo", "declare_result", "note"];
const AMEND_EXAMPLE = { zoom: '{"A": "correct"}', no_not_that: '{"verdict": "correct"}' };
let openSeq = null;

export async function renderHost(root, page, force = false) {
  const typing = document.activeElement?.closest?.("form.ruling");
  if (typing && root.contains(typing) && !force) return; // keep a ruling being typed
  const events = page.travel.events || (await api.events(page.id));
  const closed = page.match.status === "closed";
  replace(root, h("h2", {}, "Host console"),
    closed ? null : h("button", { type: "button", id: "close-match",
      onclick: () => confirm("Close the match? Nothing more can be recorded.") &&
        page.act(() => api.close(page.id)) }, "Close match"),
    h("table", { class: "events", id: "event-list" },
      h("thead", {}, h("tr", {}, ["#", "type", "actor", "game time", "payload", ""].map(
        (t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, events.map((e) => eventRow(e, page, closed)))));
}

function eventRow(event, page, closed) {
  const voided = page.view.voided?.[String(event.seq)];
  const row = h("tr", { dataset: { seq: event.seq }, class: voided ? "voided" : null },
    h("td", {}, String(event.seq)), h("td", {}, event.type), h("td", {}, event.actor),
    h("td", {}, when(event.occurred_at)),
    h("td", { class: "payload" }, voided ? `(voided) ` : "", brief(event.payload)),
    h("td", {}, closed ? null : h("button", { type: "button", class: "rule",
      onclick: () => { openSeq = openSeq === event.seq ? null : event.seq; renderHost(row.closest("section"), page, true); } },
    "Rule…")));
  if (openSeq !== event.seq || closed) return row;
  return [row, h("tr", { class: "ruling-row" }, h("td", { colspan: 6 }, rulingForm(event, page)))];
}

const brief = (payload) => (payload ? JSON.stringify(payload).slice(0, 120) : "(private)");

function rulingForm(event, page) {
  const kind = h("select", { name: "type", id: "ruling-type" }, KINDS.map((k) => h("option", { value: k }, k)));
  const fields = h("div", { class: "ruling-fields" });
  const reason = h("input", { name: "reason", id: "ruling-reason", required: true, placeholder: "reason (required)" });
  const seats = page.match.seats;
  const problem = h("p", { class: "error", role: "alert", hidden: true });
  function draw() {
    const t = event.occurred_at;
    const parts = {
      amend: [field("outcome", "outcome (JSON)", AMEND_EXAMPLE[page.match.game] || "{}")],
      adjust_score: [seatField(seats, "seat"), field("delta", "delta", "1", "number"), field(RULING_TIME_FIELD, "game time", t)],
      end_round: [field(RULING_TIME_FIELD, "game time", t)],
      declare_result: [seatField(["", ...seats], "winner"), field(RULING_TIME_FIELD, "game time", t)],
    }[kind.value] || [];
    replace(fields, parts);
  }
  kind.addEventListener("change", draw);
  draw();
  async function submit(e) {
    e.preventDefault();
    const body = { type: kind.value, reason: reason.value };
    if (["void", "amend"].includes(kind.value)) body.target_seq = event.seq;
    if (kind.value === "undo") body.to_seq = event.seq;
    showError(problem, null);
    try {
      for (const input of fields.querySelectorAll("[name]")) body[input.name] = parse(input, page.match.game);
    } catch (error) {
      showError(problem, error); // said here, in the form, which keeps what was typed
      return;
    }
    document.activeElement?.blur();
    if (await page.act(() => api.ruling(page.id, body))) openSeq = null;
    page.refresh();
  }
  return h("form", { class: "ruling", dataset: { seq: event.seq }, onsubmit: submit },
    h("label", {}, `Ruling on #${event.seq} `, kind), fields, reason, h("button", { type: "submit" }, "Record ruling"),
    problem);
}

function parse(input, game) {
  if (input.name === "outcome") {
    try {
      return JSON.parse(input.value);
    } catch {
      const example = AMEND_EXAMPLE[game] || "{}";
      throw new Error(`outcome: not valid JSON; write it like ${example}`);
    }
  }
  if (input.name === "delta") return Number(input.value);
  if (input.name === "winner") return input.value || null;
  return input.value;
}

const field = (name, label, value, type = "text") =>
  h("label", {}, `${label} `, h("input", { name, type, value, size: name === "outcome" ? 18 : 26 }));

const seatField = (seats, name) =>
  h("label", {}, `${name} `, h("select", { name }, seats.map((s) => h("option", { value: s }, s || "draw"))));
