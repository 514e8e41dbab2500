// The host's console: the event list in sentences (each payload on request), a ruling form per
// ruling type (opened from an event's row or from the toolbar), and closing the match. A
// ruling's error is said in its form, which keeps what was typed.

import { api, RULING_TIME_FIELD } from "./api.js";
import { h, replace, showError, when } from "./dom.js";
import { eventSentence, rulingKindName } from "./words.js";

const KINDS = ["void", "amend", "adjust_score", "undo", "end_round", "declare_result", "note"];
const NOT_IN = { zombego: ["amend", "adjust_score", "end_round"] }; // the game has no use for them
const AMENDABLE = new Set(["zoom.buzzed", "nnt.acted", "nnt.solved", "nnt.challenged"]);
let open = null; // {seq, kind}: the ruling form shown (seq null: from the toolbar)
const unfolded = new Set(); // the seqs whose payload the host opened: a redraw keeps them open

export async function renderHost(root, page, force = false) {
  const typing = document.activeElement?.closest?.("form.ruling");
  if (typing && root.contains(typing) && !force) return; // keep a ruling being typed
  const events = await api.exactEvents(page.id); // seeds and other big numbers kept exact
  const closed = page.match.status === "closed";
  const redraw = () => renderHost(root, page, true);
  const context = { events, page, redraw };
  replace(root, h("h2", {}, "Host console"),
    closed ? null : h("div", { class: "controls host-tools" },
      h("button", { type: "button", id: "new-ruling", onclick: () => { open = open?.seq === null ? null : { seq: null }; redraw(); } },
        "Record a ruling…"),
      h("button", { type: "button", id: "close-match",
        onclick: () => confirm("Close the match? Nothing more can be recorded.") &&
          page.act(() => api.close(page.id)) }, "Close match")),
    !closed && open?.seq === null ? rulingForm(null, context) : null,
    h("table", { class: "events", id: "event-list" },
      h("caption", {}, "Every event of the match, oldest first"),
      h("thead", {}, h("tr", {}, ["#", "time", "what happened", ""].map(
        (t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, events.map((e) => eventRow(e, context, closed)))));
}

function eventRow(event, context, closed) {
  const { page, redraw } = context;
  const voided = page.view.voided?.[String(event.seq)];
  const sentence = eventSentence(event, { state: page.view.state });
  const row = h("tr", { dataset: { seq: event.seq, type: event.type }, class: voided ? "voided" : null },
    h("td", {}, `#${event.seq}`),
    h("td", { class: "time" }, h("time", { datetime: event.occurred_at }, when(event.occurred_at))),
    h("td", { class: "sentence" },
      voided ? h("strong", {}, "(voided) ") : null, sentence,
      payloadDetails(event)),
    h("td", {}, closed ? null : h("button", { type: "button", class: "rule",
      "aria-label": `Rule on #${event.seq}`,
      onclick: () => { open = open?.seq === event.seq ? null : { seq: event.seq }; redraw(); } },
    "Rule…")));
  if (open?.seq !== event.seq || closed) return row;
  return [row, h("tr", { class: "ruling-row" }, h("td", { colspan: 4 }, rulingForm(event, context)))];
}

/** The event's record on request; it stays open across the redraws a new event brings. */
function payloadDetails(event) {
  const details = h("details", { class: "payload", open: unfolded.has(event.seq) },
    h("summary", {}, "details"), h("pre", {}, pretty(event)));
  details.addEventListener("toggle", () => {
    if (details.open) unfolded.add(event.seq);
    else unfolded.delete(event.seq);
  });
  return details;
}

/** The event as recorded (payload, actor, times, commitment), big whole numbers exact. */
export function pretty(event) {
  const shown = { type: event.type, actor: event.actor, occurred_at: event.occurred_at,
    recorded_at: event.recorded_at, visibility: event.visibility, payload: event.payload ?? "(private)" };
  if (event.commitment) shown.commitment = event.commitment;
  return JSON.stringify(shown, (k, v) => (typeof v === "bigint" ? `\u0000${v}\u0000` : v), 1)
    .replace(/"\\u0000(-?\d+)\\u0000"/g, "$1");
}

const kindsFor = (game) => KINDS.filter((k) => !(NOT_IN[game] || []).includes(k));

function rulingForm(event, context) {
  const { page } = context;
  const kinds = kindsFor(page.match.game);
  const start = open?.kind || (event ? (AMENDABLE.has(event.type) ? "amend" : "void") : "note");
  const kind = h("select", { name: "type", id: "ruling-type" },
    kinds.map((k) => h("option", { value: k, selected: k === start }, rulingKindName(k))));
  const fields = h("div", { class: "ruling-fields" });
  const reason = h("input", { name: "reason", id: "ruling-reason", required: true, maxlength: 500,
    placeholder: "why (required, on the record)" });
  const problem = h("p", { class: "error", role: "alert", hidden: true });
  const submit = h("button", { type: "submit" }, "Record ruling");
  function draw() {
    open = { seq: event?.seq ?? null, kind: kind.value };
    replace(fields, FIELDS[kind.value](event, context));
  }
  kind.addEventListener("change", draw);
  draw();
  async function send(e) {
    e.preventDefault();
    showError(problem, null);
    let body;
    try {
      body = { type: kind.value, reason: reason.value.trim(), ...read(fields) };
    } catch (error) {
      return showError(problem, error); // said here, in the form, which keeps what was typed
    }
    submit.disabled = true;
    try {
      await api.ruling(page.id, body);
    } catch (error) {
      submit.disabled = false;
      return showError(problem, error);
    }
    open = null;
    document.activeElement?.blur();
    page.refresh();
  }
  const title = event ? `Ruling on #${event.seq}` : "New ruling";
  return h("form", { class: "ruling", dataset: { seq: event?.seq ?? "" }, onsubmit: send,
    "aria-label": title },
  h("div", { class: "field" }, h("label", { for: "ruling-type" }, `${title}: `), kind),
  fields,
  h("div", { class: "field" }, h("label", { for: "ruling-reason" }, "Reason"), reason),
  submit, " ", h("button", { type: "button", onclick: () => { open = null; context.redraw(); } }, "Cancel"),
  problem);
}

/** The body's fields from the form's named inputs (a field's reader says how to read it). */
function read(fields) {
  const body = {};
  for (const input of fields.querySelectorAll("[data-field]")) {
    const value = READERS[input.dataset.read || "text"](input);
    if (value !== undefined) body[input.dataset.field] = value;
  }
  return body;
}

const READERS = {
  text: (input) => input.value.trim() || undefined,
  seq: (input) => Number(input.value),
  seat: (input) => input.value || null,
  points(input) {
    const n = Number(input.value);
    if (!Number.isInteger(n) || n === 0) throw new Error("points: a whole number other than 0 (negative takes points away)");
    return n;
  },
  time(input) {
    const text = input.value.trim();
    if (!text) return undefined; // now
    if (Number.isNaN(Date.parse(text))) throw new Error(`game time: not a time (write it like ${new Date().toISOString()})`);
    return new Date(text).toISOString();
  },
  outcome(input) {
    try {
      const value = JSON.parse(input.value);
      if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("not an object");
      return value;
    } catch {
      throw new Error('outcome: not valid JSON; write it like {"A": "correct"} or pick the choices above');
    }
  },
};

const FIELDS = {
  void: (event, c) => [eventPick(c, "target_seq", "Event to void", event, (e) => e.actor !== "system")],
  undo: (event, c) => [eventPick(c, "to_seq", "Keep everything up to", event, () => true),
    h("p", { class: "hint" }, "Every event after it is voided.")],
  amend: (event, c) => amendFields(event, c),
  adjust_score: (event, c) => [
    seatPick(c.page.match.seats, "seat", "Seat", false),
    labelled("ruling-points", "Points (negative takes away)",
      h("input", { id: "ruling-points", type: "number", step: 1, value: 1, dataset: { field: "delta", read: "points" } })),
    timeField(event)],
  end_round: (event) => [timeField(event)],
  declare_result: (event, c) => [seatPick(c.page.match.seats, "winner", "Winner", true), timeField(event)],
  note: () => [],
};

function labelled(id, label, input) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

function eventPick(context, field, label, event, keep) {
  const id = `ruling-${field.replace("_", "-")}`;
  const choices = context.events.filter((e) => keep(e) || e.seq === event?.seq);
  return labelled(id, label, h("select", { id, dataset: { field, read: "seq" } },
    choices.map((e) => h("option", { value: e.seq, selected: e.seq === event?.seq },
      `#${e.seq} ${when(e.occurred_at)} ${eventSentence(e, { state: context.page.view.state })}`.slice(0, 110)))));
}

function seatPick(seats, field, label, draw) {
  const id = `ruling-${field}`;
  return labelled(id, label, h("select", { id, dataset: { field, read: "seat" } },
    seats.map((s) => h("option", { value: s }, s)), draw ? h("option", { value: "" }, "draw (nobody wins)") : null));
}

function timeField(event) {
  return labelled("ruling-time", "Game time (empty: now)",
    h("input", { id: "ruling-time", name: RULING_TIME_FIELD, value: event?.occurred_at || "",
      placeholder: "e.g. 2026-01-01T12:00:05Z", size: 26, dataset: { field: RULING_TIME_FIELD, read: "time" } }));
}

/** The verdicts an amend may give, per graded part of the event (Zoom: each buzzed target). */
function outcomeParts(event) {
  if (event?.type === "zoom.buzzed") return (event.payload?.pairs || []).map((p) => [p.target, `${p.target} at ${p.at}`]);
  return [["verdict", "verdict"]];
}

function amendFields(event, context) {
  const amendable = (e) => AMENDABLE.has(e.type);
  const pick = eventPick(context, "target_seq", "Event to amend", event, amendable);
  const select = pick.querySelector("select");
  const choices = h("fieldset", { class: "outcome-choices" }, h("legend", {}, "Outcome"));
  const json = h("input", { name: "outcome", id: "ruling-outcome", size: 30, spellcheck: "false",
    dataset: { field: "outcome", read: "outcome" } });
  function sync() {
    const outcome = {};
    for (const s of choices.querySelectorAll("select")) outcome[s.name] = s.value;
    json.value = JSON.stringify(outcome);
  }
  function drawChoices() {
    const target = context.events.find((e) => e.seq === Number(select.value));
    replace(choices, h("legend", {}, "Outcome"), outcomeParts(target).map(([key, label]) =>
      h("label", {}, `${label} `, h("select", { name: key, onchange: sync },
        ["correct", "incorrect"].map((v) => h("option", { value: v }, v))))));
    sync();
  }
  select.addEventListener("change", drawChoices);
  drawChoices();
  return [pick, choices, labelled("ruling-outcome", "Outcome as sent (JSON)", json)];
}
