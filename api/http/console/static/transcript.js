// The host's "Referee from a chat export" panel: pick the channel's export (and each seat's
// direct messages), map authors to seats and hosts, preview what every post becomes (posts that
// need a look first), exclude posts or correct them (the command a post means, and why), then
// enter. The service decides every post; the page only shows its answer.
//
// Enter is enabled only while the table shown is the service's preview of the current files,
// authors, exclusions and corrections: each exclusion or correction re-runs the preview at
// once, and an answer that arrives after a newer change is dropped.

import { api } from "./api.js";
import { h, replace, showError } from "./dom.js";

const DEFAULT_LIMIT = 1000;
const COLUMNS = ["#", "posted", "author", "post", "becomes", "command", "outcome", "exclude", ""];

/** Draw the panel once into `root` (it keeps its files and preview across match refreshes). */
export function renderTranscript(root, page) {
  const panel = new TranscriptPanel(root, page);
  panel.draw();
  return panel;
}

class TranscriptPanel {
  constructor(root, page) {
    Object.assign(this, { root, page, files: [], excluded: new Set(), corrections: new Map() });
    this.version = 0; // bumped by every change of what a preview depends on
    this.shown = null; // the version the table shown previews (null: none, or entered)
    this.report = null; // the answer the table shows
    this.entered = false; // the table shows an Enter answer
    this.editing = null; // the open correction form: {key, command, reason}
    this.offset = 0;
    this.limit = DEFAULT_LIMIT;
    this.ui = {
      files: h("ul", { id: "transcript-file-list" }),
      error: h("p", { id: "transcript-error", class: "error", role: "alert", hidden: true }),
      status: h("p", { id: "transcript-status", "aria-live": "polite" }),
      result: h("p", { id: "transcript-result", hidden: true }),
      pages: h("div", { id: "transcript-pages", class: "controls", hidden: true }),
      table: h("div", { id: "transcript-preview" }),
      enter: h("button", { type: "button", id: "transcript-enter", disabled: true,
        onclick: () => this.enter() }, "Enter"),
    };
  }

  draw() {
    const picker = h("input", { type: "file", id: "transcript-files", multiple: true,
      accept: ".json,.txt,application/json,text/plain", onchange: (e) => this.pick(e.target.files) });
    const seats = this.page.match.seats.map((seat) => authorField(`transcript-seat-${seat}`,
      `Authors for seat ${seat}`, seat, { seat }));
    const hosts = authorField("transcript-hosts", "Host authors", "", {});
    const limit = h("input", { id: "transcript-limit", type: "number", min: 1, max: 10000,
      value: this.limit, onchange: (e) => this.setLimit(e.target.value) });
    replace(this.root, h("h2", {}, "Referee from a chat export"),
      h("p", { class: "hint" }, "A DiscordChatExporter JSON or a plain-text transcript " +
        "([time] name: text), plus each seat's direct messages with the host. Authors are " +
        "ids, names or nicknames, separated by commas."),
      h("form", { id: "transcript-form", oninput: (e) => this.authorsChanged(e),
        onsubmit: (e) => { e.preventDefault(); this.offset = 0; this.preview(); } },
      h("div", { class: "field" }, h("label", { for: "transcript-files" }, "Chat exports"), picker),
      this.ui.files,
      h("fieldset", {}, h("legend", {}, "Who is who"), seats, hosts),
      h("div", { class: "field" }, h("label", { for: "transcript-limit" }, "Posts per page"), limit),
      h("button", { type: "submit", id: "transcript-preview-button" }, "Preview"), " ",
      this.ui.enter),
      this.ui.error, this.ui.status, this.ui.result, this.ui.pages, this.ui.table);
  }

  /** Keep the chosen files; each gets a "DMs" checkbox (ticking it voids the preview shown). */
  pick(list) {
    this.files = [...list].map((file) => ({ file, dm: false }));
    const dm = (f) => (e) => { f.dm = e.target.checked; this.stale(); };
    replace(this.ui.files, this.files.map((f, i) => h("li", {}, h("label", {},
      h("input", { type: "checkbox", class: "transcript-dm", dataset: { index: i }, onchange: dm(f) }),
      ` ${f.file.name} is a seat's DMs with the host`))));
    this.excluded.clear();
    this.corrections.clear();
    this.editing = null;
    this.report = null;
    this.offset = 0;
    this.stale();
  }

  /** A seat's or the hosts' authors were edited: the preview shown no longer holds. */
  authorsChanged(event) {
    if (event.target.matches("#transcript-hosts, input[data-seat]")) this.stale();
  }

  setLimit(value) {
    const limit = Math.min(10000, Math.max(1, Number.parseInt(value, 10) || DEFAULT_LIMIT));
    this.limit = limit;
    this.offset = 0;
    if (this.report) this.preview();
  }

  cast() {
    const seats = {};
    for (const input of this.root.querySelectorAll("input[data-seat]")) {
      for (const author of names(input.value)) seats[author] = input.dataset.seat;
    }
    const hosts = names(this.root.querySelector("#transcript-hosts").value);
    return { seats, hosts, exclude: [...this.excluded], corrections: [...this.corrections.values()] };
  }

  /** The request body, multipart/form-data: the chosen files as they are ("export" parts,
   * "dm_export" for a seat's DMs; the service tells DiscordChatExporter JSON from a text
   * transcript, named after the file) and the "options" part. */
  body() {
    const form = new FormData();
    for (const { file, dm } of this.files) form.append(dm ? "dm_export" : "export", file, file.name);
    form.append("options", JSON.stringify(this.cast()));
    return form;
  }

  rowsPage() {
    return { offset: this.offset, limit: this.limit };
  }

  /** Ask for the preview of what is chosen now; an answer overtaken by a newer change is
   * dropped (the newer change asks again). */
  async preview() {
    const version = this.version;
    this.ui.enter.disabled = true;
    replace(this.ui.status, "Previewing…");
    const report = await this.send(() => api.transcriptPreview(this.page.id, this.body(), this.rowsPage()));
    if (version !== this.version) return;
    if (!report) {
      if (this.report && !this.entered) this.render(FAILED);
      replace(this.ui.status, "The preview failed: change the exclusions or corrections, " +
        "or preview again.");
      return;
    }
    Object.assign(this, { report, entered: false, shown: version });
    this.ui.result.hidden = true;
    replace(this.ui.status, summary(report.counts));
    this.render(null);
    this.ui.enter.disabled = false;
  }

  async enter() {
    if (this.shown !== this.version) return;
    this.ui.enter.disabled = true;
    const version = this.version;
    const done = await this.send(() => api.transcriptEnter(this.page.id, this.body(), this.rowsPage()));
    if (!done) {
      if (version === this.version) this.ui.enter.disabled = false;
      return;
    }
    Object.assign(this, { report: done, entered: true, shown: null, editing: null });
    this.excluded.clear();
    this.corrections.clear();
    this.version += 1;
    replace(this.ui.status, `Entered ${done.entered} command(s)` +
      (done.first_seq === null ? "." : ` (seq ${done.first_seq}–${done.last_seq}).`));
    replace(this.ui.result, "Result: ", describe(done.result));
    this.ui.result.hidden = false;
    this.render(null);
    await this.page.refresh();
  }

  async send(call) {
    showError(this.ui.error, null);
    if (!this.files.length) {
      showError(this.ui.error, new Error("Choose at least one export file first."));
      return null;
    }
    try {
      return await call();
    } catch (error) {
      showError(this.ui.error, error);
      return null;
    }
  }

  /** The preview shown no longer holds: Enter waits for a new preview. */
  stale() {
    this.version += 1;
    this.ui.enter.disabled = true;
    if (this.report && !this.entered) {
      this.render(CHANGED);
      replace(this.ui.status, "Preview again: what is chosen has changed.");
    } else if (!this.report) {
      replace(this.ui.table);
      replace(this.ui.status);
      this.ui.pages.hidden = true;
    }
  }

  /** An exclusion or a correction changed: preview again at once. */
  changed() {
    this.version += 1;
    this.ui.enter.disabled = true;
    if (this.report && !this.entered) this.render(ASKED);
    this.preview();
  }

  toggleExcluded(post, on) {
    if (on) {
      this.excluded.add(post.message_id);
      this.corrections.delete(keyOf(post)); // a post is corrected or excluded, not both
    } else {
      this.excluded.delete(post.message_id);
    }
    this.changed();
  }

  correct(post, command, reason) {
    this.corrections.set(keyOf(post), { message_id: post.message_id, channel_id: post.channel_id,
      command, reason });
    this.excluded.delete(post.message_id);
    this.editing = null;
    this.changed();
  }

  uncorrect(post) {
    this.corrections.delete(keyOf(post));
    this.changed();
  }

  goTo(offset) {
    this.offset = Math.max(0, offset);
    this.preview();
  }

  /** Draw the report; `stale` (a sentence) says why the table no longer holds. */
  render(stale) {
    const report = this.report;
    this.note = stale || null;
    const table = this.entered ? enteredTable(report.posts) : this.previewTable(report);
    replace(this.ui.table, stale ? h("p", { class: "transcript-stale" }, stale) : null, table);
    this.drawPages(report, stale);
  }

  drawPages(report, stale) {
    const shown = report.posts.length;
    this.ui.pages.hidden = report.total <= shown && report.offset === 0;
    const from = report.offset + 1;
    replace(this.ui.pages,
      h("span", { id: "transcript-showing" },
        `Showing ${shown} of ${report.total} posts` +
        (shown ? ` (rows ${from}–${report.offset + shown}, posts that need a look first).` : ".")),
      h("button", { type: "button", id: "transcript-prev", disabled: stale || report.offset === 0,
        onclick: () => this.goTo(report.offset - report.limit) }, "Previous page"),
      h("button", { type: "button", id: "transcript-next",
        disabled: stale || report.offset + shown >= report.total,
        onclick: () => this.goTo(report.offset + report.limit) }, "Next page"));
  }

  previewTable(report) {
    const flagged = report.posts.filter((p) => p.status === "flagged");
    const rest = report.posts.filter((p) => p.status !== "flagged");
    const group = (cls, title, posts) => posts.length ? h("tbody", { class: cls },
      h("tr", { class: "transcript-group" }, h("th", { scope: "rowgroup", colspan: COLUMNS.length },
        title)), posts.map((post) => this.rows(post))) : null;
    const total = report.counts.flagged || 0;
    return h("table", { class: "events transcript-rows", id: "transcript-rows" },
      h("caption", { class: "hint" }, "What each post becomes"),
      h("thead", {}, h("tr", {}, COLUMNS.map((t) => h("th", { scope: "col" }, t)))),
      group("transcript-needs-look", `Needs a look (${total} in all)`, flagged),
      group("transcript-in-order", "The other posts, in game-time order", rest));
  }

  /** A post's row, and under it its correction form when that is open. */
  rows(post) {
    const key = keyOf(post);
    const correction = this.corrections.get(key);
    const excluded = this.excluded.has(post.message_id);
    const box = post.status === "already_entered" ? null : h("input", { type: "checkbox",
      class: "exclude", "aria-label": `exclude post ${post.message_id}`, checked: excluded,
      onchange: (e) => this.toggleExcluded(post, e.target.checked) });
    let action = null;
    if (correction) {
      action = h("button", { type: "button", class: "uncorrect",
        onclick: () => this.uncorrect(post) }, "Undo correction");
    } else if (correctable(post)) {
      action = h("button", { type: "button", class: "correct", "aria-expanded":
        String(this.editing?.key === key), onclick: () => this.openForm(post) }, "Correct");
    }
    const row = postRow(post, correction, [h("td", {}, box), h("td", {}, action)]);
    const form = this.editing?.key === key ? this.correctionForm(post) : null;
    return [row, form];
  }

  openForm(post) {
    const key = keyOf(post);
    if (this.editing?.key === key) {
      this.editing = null;
    } else {
      const command = post.command ? JSON.stringify(withoutSeat(post.command, post)) : "";
      this.editing = { key, command, reason: "" };
    }
    this.render(this.note);
    this.root.querySelector("tr.transcript-correct .correct-command")?.focus();
  }

  correctionForm(post) {
    const draft = this.editing;
    const error = h("p", { class: "error", role: "alert", hidden: true });
    const command = h("input", { class: "correct-command", id: "transcript-correct-command",
      value: draft.command, autocomplete: "off", spellcheck: "false",
      placeholder: EXAMPLES[this.page.match.game] || '{"type": "…"}',
      oninput: (e) => { draft.command = e.target.value; } });
    const reason = h("input", { class: "correct-reason", id: "transcript-correct-reason",
      value: draft.reason, required: true, maxlength: 500, autocomplete: "off",
      oninput: (e) => { draft.reason = e.target.value; } });
    const save = (e) => {
      e.preventDefault();
      let body;
      try {
        body = JSON.parse(draft.command);
      } catch {
        showError(error, new Error("The command is not JSON: write a POST /commands body."));
        return;
      }
      if (!body || typeof body !== "object" || Array.isArray(body) || typeof body.type !== "string") {
        showError(error, new Error('The command is a JSON object with a "type".'));
        return;
      }
      if (!draft.reason.trim()) {
        showError(error, new Error("Say why: the reason is recorded with the correction."));
        return;
      }
      this.correct(post, body, draft.reason.trim());
    };
    const who = post.seat ? ` It acts for seat ${post.seat}.` : "";
    return h("tr", { class: "transcript-correct", dataset: { message: post.message_id } },
      h("td", { colspan: COLUMNS.length }, h("form", { class: "transcript-correct-form",
        "aria-label": `correct post ${post.message_id}`, onsubmit: save },
      h("p", { class: "hint" }, `The command this post means, judged at the post's time.${who}`),
      h("div", { class: "field" }, h("label", { for: "transcript-correct-command" },
        "Command (JSON)"), command),
      h("div", { class: "field" }, h("label", { for: "transcript-correct-reason" },
        "Reason (recorded with it)"), reason),
      h("button", { type: "submit", class: "save-correction" }, "Save correction"), " ",
      h("button", { type: "button", onclick: () => this.openForm(post) }, "Cancel"),
      error)));
  }
}

const ASKED = "This table is out of date: the preview is being asked again.";
const CHANGED = "This table is out of date: preview again to see what the posts become now.";
const FAILED = "This table is out of date: the last preview failed (see the error above).";

const EXAMPLES = {
  zoom: '{"type": "buzz", "pairs": [{"target": "A", "at": "c4"}]}',
  zombego: '{"type": "move", "from": "b1", "to": "c3"}',
  no_not_that: '{"type": "pass"}',
};

const names = (text) => text.split(",").map((s) => s.trim()).filter(Boolean);
const keyOf = (post) => `${post.channel_id}/${post.message_id}`;

/** A seat's command acts for its seat: the seat need not be written. */
function withoutSeat(command, post) {
  if (post.role !== "seat" || command.seat !== post.seat) return command;
  const { seat: _seat, ...rest } = command;
  return rest;
}

/** Posts of a seat or a host that did not become a command (or were only flagged). */
function correctable(post) {
  return ["flagged", "refused", "ignored"].includes(post.status) &&
    (post.role === "seat" || post.role === "host");
}

function authorField(id, label, value, dataset) {
  return h("div", { class: "field" }, h("label", { for: id }, label),
    h("input", { id, value, dataset, autocomplete: "off" }));
}

const COUNTED = {
  command: (n) => `${n} command${n === 1 ? "" : "s"}`,
  flagged: (n) => `${n} need${n === 1 ? "s" : ""} a look`,
  refused: (n) => `${n} refused by the rules`,
  ignored: (n) => `${n} ignored`,
  excluded: (n) => `${n} left out by the host`,
  already_entered: (n) => `${n} entered before`,
};

function summary(counts) {
  const parts = Object.entries(counts).map(([k, n]) => (COUNTED[k] ? COUNTED[k](n) : `${n} ${k}`));
  return `Preview: ${parts.join(", ")}. Nothing is recorded until Enter.`;
}

function enteredTable(posts) {
  return h("table", { class: "events transcript-rows", id: "transcript-rows" },
    h("caption", { class: "hint" }, "What entering did with each post"),
    h("thead", {}, h("tr", {}, COLUMNS.slice(0, 7).map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, posts.map((post) => postRow(post, null, []))));
}

function postRow(post, correction, more) {
  const who = post.seat ? ` (${post.seat})` : post.role === "seat" ? "" : ` (${post.role})`;
  const corrected = correction || post.reading === "host";
  return h("tr", { class: `post ${post.status}${corrected ? " corrected" : ""}`, dataset: {
    message: post.message_id, channel: post.channel_id, status: post.status,
    reading: post.reading || "" } },
  h("td", { class: "index" }, String(post.index + 1)),
  h("td", {}, h("time", { datetime: post.game_time || post.posted_at }, post.posted_at),
    post.dm ? " (DM)" : ""),
  h("td", {}, post.author, who),
  h("td", { class: "content" }, post.content),
  h("td", { class: "becomes" }, becomes(post),
    correction ? h("span", { class: "correction" }, `corrected by the host: ${correction.reason}`)
      : null),
  h("td", { class: "command", title: post.command ? JSON.stringify(post.command) : null },
    post.command ? readable(post.command) : "",
    post.reading === "host" ? h("span", { class: "reading" }, "read by the host") : null),
  h("td", { class: "outcome" }, outcomeOf(post)),
  more);
}

const REASONS = {
  chatter: "chatter",
  "host remark": "a host's remark",
  spectator: "a spectator's post",
  bot: "a bot's post",
  "excluded by the host": "left out by the host",
  "entered before": "entered before",
};

function reasonWords(reason) {
  if (!reason) return "";
  const system = /^system message \((.*)\)$/.exec(reason);
  if (system) return `a system message (${spaced(system[1])})`;
  return REASONS[reason] || reason;
}

/** What a post becomes, in words. */
export function becomes(post) {
  const edited = post.flag === "edited"
    ? `edited after posting (posted ${post.posted_at}, edited ${post.edited_at}): it counts as exported`
    : null;
  switch (post.status) {
    case "command": return "command";
    case "flagged":
      if (post.flag === "near_miss") {
        return `looks like a command: ${post.reason || "it does not read whole"}. ` +
          "Not entered unless corrected.";
      }
      return edited || "needs a look";
    case "refused": return "refused by the rules";
    case "ignored": return `ignored: ${reasonWords(post.reason)}`;
    case "excluded": return "left out by the host";
    case "already_entered": return "entered before";
    default: return post.reason ? `${spaced(post.status)}: ${reasonWords(post.reason)}` : spaced(post.status);
  }
}

const spaced = (word) => String(word).replace(/([a-z])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase();

/** A command as players write it: `buzz A c4`, `start round 1`, `move from b1 to c3`. */
export function readable(command) {
  const type = spaced(command.type || "command");
  const words = type.split(" ");
  const parts = [type];
  for (const [key, value] of Object.entries(command)) {
    if (key === "type" || key === "seat" || value === null || value === undefined) continue;
    const shown = plain(value);
    parts.push(words.includes(key) || Array.isArray(value) ? shown : `${spaced(key)} ${shown}`);
  }
  return parts.join(" ");
}

function plain(value) {
  if (Array.isArray(value)) {
    return value.map((v) => (v && typeof v === "object" && "target" in v && "at" in v
      ? `${v.target} ${v.at}` : plain(v))).join(", ");
  }
  if (value && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** The outcome of a post's command (or the rule that refused it) and its events' seqs. */
function outcomeOf(post) {
  const seqs = post.seqs
    ? h("span", { class: "seqs" }, post.seqs[0] === post.seqs[1] ? `seq ${post.seqs[0]}`
      : `seqs ${post.seqs[0]}–${post.seqs[1]}`)
    : null;
  if (post.refusal) {
    return [h("span", { class: "refusal", dataset: { code: post.refusal.code } },
      `refused: ${post.refusal.message}`), seqs];
  }
  return [post.outcome ? describeOutcome(post.outcome) : "", seqs];
}

const QUIET = new Set(["seq", "seat", "when", "round", "post", "at"]);

export function describeOutcome(outcome) {
  if (Array.isArray(outcome.pairs)) {
    return outcome.pairs.map((p) => `${p.target} ${p.at}: ${spaced(p.outcome ?? "")}` +
      (p.reason ? ` (${spaced(p.reason)})` : "")).join(", ");
  }
  return Object.entries(outcome).filter(([k]) => !QUIET.has(k))
    .map(([k, v]) => `${spaced(k)}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
}

function describe(result) {
  if (!result) return "none yet";
  if (typeof result !== "object") return String(result);
  if ("winner" in result) {
    return result.winner ? `${result.winner} wins` + (result.reason ? ` (${result.reason})` : "")
      : `draw${result.reason ? ` (${result.reason})` : ""}`;
  }
  return JSON.stringify(result);
}
