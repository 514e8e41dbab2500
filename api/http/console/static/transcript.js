// The host's "Referee from a chat export" panel: pick the channel's export (and each seat's
// direct messages), map authors to seats and hosts, preview what every post becomes, leave out
// flagged posts, then enter them. The service decides every post; the page only shows its answer.

import { api } from "./api.js";
import { h, replace, showError } from "./dom.js";

/** Draw the panel once into `root` (it keeps its files and preview across match refreshes). */
export function renderTranscript(root, page) {
  const panel = new TranscriptPanel(root, page);
  panel.draw();
  return panel;
}

class TranscriptPanel {
  constructor(root, page) {
    Object.assign(this, { root, page, files: [], excluded: new Set() });
    this.ui = {
      files: h("ul", { id: "transcript-file-list" }),
      error: h("p", { class: "error", role: "alert", hidden: true }),
      status: h("p", { id: "transcript-status", "aria-live": "polite" }),
      table: h("div", { id: "transcript-preview" }),
    };
  }

  draw() {
    const picker = h("input", { type: "file", id: "transcript-files", multiple: true,
      accept: ".json,.txt,application/json,text/plain", onchange: (e) => this.pick(e.target.files) });
    const seats = this.page.match.seats.map((seat) => authorField(`transcript-seat-${seat}`,
      `Authors for seat ${seat}`, seat, { seat }));
    const hosts = authorField("transcript-hosts", "Host authors", "", {});
    replace(this.root, h("h2", {}, "Referee from a chat export"),
      h("p", { class: "hint" }, "A DiscordChatExporter JSON or a plain-text transcript " +
        "([time] name: text), plus each seat's direct messages with the host. Authors are " +
        "ids, names or nicknames, separated by commas."),
      h("form", { id: "transcript-form", onsubmit: (e) => { e.preventDefault(); this.preview(); } },
        h("div", { class: "field" }, h("label", { for: "transcript-files" }, "Chat exports"), picker),
        this.ui.files,
        h("fieldset", {}, h("legend", {}, "Who is who"), seats, hosts),
        h("button", { type: "submit", id: "transcript-preview-button" }, "Preview"), " ",
        h("button", { type: "button", id: "transcript-enter", disabled: true,
          onclick: () => this.enter() }, "Enter")),
      this.ui.error, this.ui.status, this.ui.table);
  }

  /** Read the chosen files; each gets a "DMs" checkbox (ticking it voids the preview shown). */
  async pick(list) {
    const read = async (file) => ({ file, text: await file.text(), dm: false });
    this.files = await Promise.all([...list].map(read));
    const dm = (f) => (e) => { f.dm = e.target.checked; this.invalidate(); };
    replace(this.ui.files, this.files.map((f, i) => h("li", {}, h("label", {},
      h("input", { type: "checkbox", class: "transcript-dm", dataset: { index: i }, onchange: dm(f) }),
      ` ${f.file.name} is a seat's DMs with the host`))));
    this.invalidate();
  }

  /** The request body; a file is DiscordChatExporter JSON when it starts with "{" (as the CLI
   * decides), else a text transcript named after the file. */
  body() {
    const seats = {};
    for (const input of this.root.querySelectorAll("input[data-seat]")) {
      for (const author of names(input.value)) seats[author] = input.dataset.seat;
    }
    const exports = this.files.map(({ file, text, dm }) => {
      if (!text.trimStart().startsWith("{")) {
        return { format: "text", text, channel: file.name.replace(/\.[^.]*$/, ""), dm };
      }
      return { format: "discord", export: JSON.parse(text), dm };
    });
    const hosts = names(this.root.querySelector("#transcript-hosts").value);
    return { exports, seats, hosts, exclude: [...this.excluded] };
  }

  async preview() {
    const report = await this.send(() => api.transcriptPreview(this.page.id, this.body()));
    if (!report) return;
    replace(this.ui.status, summary(report.counts));
    replace(this.ui.table, previewTable(report.posts, this.excluded));
    this.root.querySelector("#transcript-enter").disabled = false;
  }

  async enter() {
    const done = await this.send(() => api.transcriptEnter(this.page.id, this.body()));
    if (!done) return;
    replace(this.ui.status, `Entered ${done.entered} command(s).`);
    replace(this.ui.table);
    this.root.querySelector("#transcript-enter").disabled = true;
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

  /** Other files were chosen: the preview shown no longer holds. */
  invalidate() {
    this.excluded.clear();
    replace(this.ui.table);
    replace(this.ui.status);
    this.root.querySelector("#transcript-enter").disabled = true;
  }
}

const names = (text) => text.split(",").map((s) => s.trim()).filter(Boolean);

function authorField(id, label, value, dataset) {
  return h("div", { class: "field" }, h("label", { for: id }, label),
    h("input", { id, value, dataset, autocomplete: "off" }));
}

function summary(counts) {
  return `Preview: ${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(", ")}. ` +
    "Nothing is recorded until Enter.";
}

function previewTable(posts, excluded) {
  const head = ["posted", "author", "text", "becomes", "exclude"];
  return h("table", { class: "events", id: "transcript-rows" },
    h("caption", { class: "hint" }, "What each post becomes"),
    h("thead", {}, h("tr", {}, head.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, posts.map((post) => postRow(post, excluded))));
}

function postRow(post, excluded) {
  const id = post.message_id;
  const toggle = (e) => (e.target.checked ? excluded.add(id) : excluded.delete(id));
  const box = post.status === "flagged" || excluded.has(id) ? h("input", { type: "checkbox",
    class: "exclude", "aria-label": `exclude post ${id}`, checked: excluded.has(id),
    onchange: toggle }) : null;
  return h("tr", { class: `post ${post.status}`, dataset: { message: post.message_id, status: post.status } },
    h("td", {}, h("time", { datetime: post.posted_at }, post.posted_at), post.dm ? " (DM)" : ""),
    h("td", {}, post.author, post.seat ? ` (${post.seat})` : post.role === "host" ? " (host)" : ""),
    h("td", { class: "content" }, post.content),
    h("td", { class: "becomes" }, becomes(post)),
    h("td", {}, box));
}

/** What a post became, in words: command, ignored and why, refused with the rule, flagged. */
export function becomes(post) {
  const command = post.command ? JSON.stringify(post.command) : "";
  switch (post.status) {
    case "command": return `command ${command}`;
    case "refused": return `refused ${post.refusal.code}: ${post.refusal.message}`;
    case "flagged":
      return `flagged edited (posted ${post.posted_at}, edited ${post.edited_at}): ${command}`;
    case "ignored": return `ignored: ${post.reason}`;
    default: return post.reason ? `${post.status}: ${post.reason}` : post.status;
  }
}
