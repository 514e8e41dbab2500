// Time travel: a slider over game time (`at`), a control over record time (the match as believed
// before and after each ruling, its changes from /diff highlighted) and the scores over game time
// with the events as markers (from /timeline).

import { api } from "./api.js";
import { h, mmss, replace, seatClass, showError, svg, when } from "./dom.js";
import { words } from "./words.js";

const NO_CHANGES = { has: () => false, hasPrefix: () => false };

export class TimeTravel {
  constructor(page, root) {
    Object.assign(this, { page, root, at: null, ruling: null, side: "after", changes: null });
  }

  isLive() {
    return this.at === null && this.ruling === null;
  }

  /** Query parameters of the state read: game time `at`, record time `known_seq`. */
  params() {
    const params = {};
    if (this.at !== null) params.at = new Date(this.at).toISOString();
    if (this.ruling) Object.assign(params, this.known(this.side));
    return params;
  }

  /** Record time just before or after the selected ruling: as known when the seq before it,
   * or the ruling itself, was recorded (unambiguous even within one microsecond). */
  known(side) {
    const { seq } = this.ruling;
    return { known_seq: side === "before" ? seq - 1 : seq };
  }

  describe() {
    const parts = [];
    if (this.at !== null) parts.push(`game time ${new Date(this.at).toISOString()}`);
    if (this.ruling) parts.push(`as known ${this.side} ruling #${this.ruling.seq}`);
    return `Viewing the past: ${parts.join(", ")}. Controls are off.`;
  }

  changedPaths() {
    if (!this.changes) return NO_CHANGES;
    const paths = this.changes.map((c) => c.path);
    return { has: (p) => paths.includes(p), hasPrefix: (p) => paths.some((q) => q.startsWith(p)) };
  }

  async update() {
    const id = this.page.id;
    const [events, timeline] = await Promise.all([api.events(id), api.timeline(id)]);
    this.events = events;
    const start = Date.parse(events[0]?.occurred_at || this.page.view.at);
    const end = Math.max(Date.parse(this.page.view.at), ...events.map((e) => Date.parse(e.occurred_at)));
    replace(this.root, h("h2", {}, "Time travel"),
      this.gameTimeControl(start, this.isLive() ? this.page.serverNow() : end),
      this.recordTimeControl(events), this.changeList(),
      plot(timeline.points, this.page.match.seats || [], start, (t) => this.goTo(t)));
  }

  gameTimeControl(start, end) {
    const span = Math.max(1, Math.ceil((end - start) / 1000));
    const value = this.at === null ? span : Math.round((this.at - start) / 1000);
    const label = h("output", { id: "at-label" }, this.at === null ? "now" : when(new Date(this.at).toISOString()));
    const slider = h("input", { type: "range", id: "at-slider", min: 0, max: span, step: 1, value,
      "aria-label": "game time", oninput: (e) => {
        label.textContent = when(new Date(start + e.target.value * 1000).toISOString());
      }, onchange: (e) => this.goTo(Number(e.target.value) >= span ? null : start + e.target.value * 1000) });
    const exact = h("input", { id: "at-input", type: "text", size: 26, placeholder: "ISO time",
      value: this.at === null ? "" : new Date(this.at).toISOString() });
    const problem = h("p", { id: "at-error", class: "error", role: "alert", hidden: true });
    const goExact = (e) => {
      e.preventDefault();
      const text = exact.value.trim();
      const at = text ? Date.parse(text) : null;
      if (Number.isNaN(at)) {
        showError(problem, new Error(`"${text}" is not a time: write it as ISO 8601 with its zone, like 2026-11-30T12:00:05Z`));
        return;
      }
      this.goTo(at);
    };
    return h("div", { class: "travel-row" },
      h("label", { for: "at-slider" }, "Game time "), slider, label,
      h("form", { class: "inline", onsubmit: goExact },
        exact, h("button", { type: "submit", id: "at-go" }, "Go")),
      h("button", { type: "button", id: "at-live", onclick: () => this.backToLive() }, "Back to live"),
      problem);
  }

  recordTimeControl(events) {
    const rulings = events.filter((e) => e.type.startsWith("ruling."));
    if (!rulings.length) return h("p", { class: "hint" }, "No rulings yet: the record has only one version.");
    const bySeq = Object.fromEntries(events.map((e) => [e.seq, e]));
    const select = h("select", { id: "ruling-pick", "aria-label": "ruling", onchange: (e) => this.pickRuling(e.target.value, bySeq) },
      h("option", { value: "" }, "as known now"),
      rulings.map((r) => h("option", { value: r.seq, selected: this.ruling?.seq === r.seq },
        `#${r.seq} ${words(r.type.slice(7))}: ${r.payload?.reason || ""}`)));
    const side = (name) => h("label", {}, h("input", { type: "radio", name: "side", value: name,
      id: `side-${name}`, checked: this.side === name, disabled: !this.ruling,
      onchange: () => { this.side = name; this.page.refresh(); } }), ` ${name}`);
    return h("div", { class: "travel-row" }, h("label", { for: "ruling-pick" }, "Record time "),
      select, side("before"), side("after"));
  }

  async pickRuling(value, bySeq) {
    if (!value) {
      this.ruling = null;
      this.changes = null;
      return this.page.refresh();
    }
    const seq = Number(value);
    const before = bySeq[seq - 1]?.recorded_at;
    this.ruling = { seq, before, after: bySeq[seq].recorded_at };
    const params = { before_seq: seq - 1, after_seq: seq };
    if (this.at !== null) params.at = new Date(this.at).toISOString();
    const diff = await api.diff(this.page.id, params);
    this.changes = diff.changes;
    this.page.refresh();
  }

  changeList() {
    if (!this.ruling || !this.changes) return null;
    return h("div", { id: "changes", class: "changes" },
      h("h3", {}, `What ruling #${this.ruling.seq} changed`),
      this.changes.length ? h("ul", {}, this.changes.map((c) => h("li", { class: "change" },
        h("code", {}, c.path), `: ${fmt(c.before)} → ${fmt(c.after)}`))) : h("p", {}, "Nothing in the state."));
  }

  goTo(at) {
    this.at = at;
    this.page.refresh();
  }

  backToLive() {
    Object.assign(this, { at: null, ruling: null, changes: null, side: "after" });
    this.page.refresh();
  }
}

function fmt(value) {
  if (value === undefined || value === null) return "—";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.length > 90 ? `${text.slice(0, 88)}…` : text;
}

/** Seconds between the time axis's ticks: the first step that gives at most six of them. */
function tickStep(seconds) {
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];
  return steps.find((step) => seconds / step <= 6) || Math.ceil(seconds / 6 / 3600) * 3600;
}

/** A score line as a step chart: a score holds until the event that changes it, then jumps
 * (a horizontal segment, then a vertical one), and holds to the end of the plot. */
export function stepPath(points, x, y, end) {
  if (!points.length) return "";
  const parts = [`M${x(points[0].t)},${y(points[0].v)}`];
  for (const { t, v } of points.slice(1)) parts.push(`H${x(t)}`, `V${y(v)}`);
  parts.push(`H${x(end)}`);
  return parts.join(" ");
}

/** Scores over game time: a step line per seat in its colour, a time axis in m:ss from the
 * match's start, one marker per event (click: go to that time). */
function plot(points, matchSeats, start, goTo) {
  const scored = points.filter((p) => p.summary && p.summary.scores);
  if (!scored.length) return h("p", { class: "hint" }, "No scores to plot.");
  const seats = Object.keys(scored[0].summary.scores);
  const times = scored.map((p) => Date.parse(p.at));
  const t0 = Math.min(start, ...times), t1 = Math.max(t0 + 1000, ...times);
  const values = scored.flatMap((p) => Object.values(p.summary.scores));
  const top = Math.max(1, ...values), bottom = Math.min(0, ...values);
  const W = 640, H = 200, left = 34, right = 12, topPad = 24, bottomPad = 40;
  const x = (t) => left + ((t - t0) / (t1 - t0)) * (W - left - right);
  const y = (v) => H - bottomPad - ((v - bottom) / (top - bottom)) * (H - topPad - bottomPad);
  const colour = (seat, i) => seatClass(matchSeats, seat) || `seat-${(i % 4) + 1}`;
  const lines = seats.map((seat, i) => svg("path", { class: `step ${colour(seat, i)}`,
    "data-seat": seat, "stroke-dasharray": i ? "7 3" : null,
    d: stepPath(scored.map((p) => ({ t: Date.parse(p.at), v: p.summary.scores[seat] })), x, y, t1) }));
  const markers = scored.map((p) => svg("circle", { cx: x(Date.parse(p.at)), cy: H - bottomPad + 22, r: 4,
    class: `marker ${p.type.split(".")[0]}`, tabindex: 0, role: "button",
    "aria-label": `#${p.seq} ${words(p.type)} at ${when(p.at)}` }, svg("title", {}, `#${p.seq} ${words(p.type)} ${when(p.at)}`)));
  for (const m of markers) {
    m.addEventListener("click", () => goTo(Date.parse(m.dataset.at)));
    m.addEventListener("keydown", (e) => e.key === "Enter" && goTo(Date.parse(m.dataset.at)));
  }
  scored.forEach((p, i) => (markers[i].dataset.at = p.at));
  const base = H - bottomPad;
  const axis = [svg("line", { class: "axis", x1: left, x2: W - right, y1: base, y2: base }),
    svg("line", { class: "axis", x1: left, x2: left, y1: topPad, y2: base })];
  const step = tickStep((t1 - t0) / 1000) * 1000;
  const ticks = [];
  for (let t = 0; t0 + t <= t1; t += step) {
    ticks.push(svg("g", { class: "tick" }, svg("line", { x1: x(t0 + t), x2: x(t0 + t), y1: base, y2: base + 4 }),
      svg("text", { x: x(t0 + t), y: base + 14, "text-anchor": "middle" }, mmss(t))));
  }
  const levels = [...new Set([bottom, Math.round((bottom + top) / 2), top])];
  const grid = levels.map((v) => [svg("line", { class: "grid-line", x1: left, x2: W - right, y1: y(v), y2: y(v) }),
    svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end" }, String(v))]);
  const keys = seats.map((seat, i) => svg("text", { class: `key ${colour(seat, i)}`, x: left + i * 130, y: 15 },
    `${i ? "- -" : "——"} ${seat}`));
  return h("figure", { id: "score-plot" }, svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": "scores over game time" }, grid, axis, ticks, lines, markers, keys,
  svg("text", { x: W - right, y: H - 2, "text-anchor": "end" }, "game time (m:ss from the start)")),
  h("figcaption", {}, "Scores over game time; markers are events (click one to go there)."));
}
