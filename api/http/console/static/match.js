// A match page: who this tab acts as, the game's board and controls, live updates from the
// stream, time travel, and the host's and the auditor's consoles. The page decides no rule: it
// draws the state the API returns and sends commands the API judges.

import { adoptFragment, api, follow, identity } from "./api.js";
import { h, replace, showError, clock, seatClass, redrawKeepingTyped, clearTyped } from "./dom.js";
import { gameName } from "./words.js";
import { renderAudit } from "./audit.js";
import { renderHost } from "./host.js";
import { describeResult } from "./list.js";
import { TimeTravel } from "./timetravel.js";
import { renderTranscript } from "./transcript.js";
import { renderZoom } from "./zoom.js";
import { renderZombego } from "./zombego.js";
import { renderNnt } from "./nnt.js";
import { playerNames, seatPlayers, tournamentApi, tournamentPage } from "./tournament-api.js";

const RENDERERS = { zoom: renderZoom, zombego: renderZombego, no_not_that: renderNnt };

export function describeRole(role) {
  if (role.startsWith("seat:")) return `seat ${role.slice(5)}`;
  return role;
}

export async function renderMatch(main, id) {
  adoptFragment(id);
  const who = identity(id);
  // said once the service has taken the link's token (a link only claims its role)
  document.getElementById("acting").textContent = "Acting as: …";
  const page = new MatchPage(main, id, who);
  try {
    await page.start();
  } catch (error) {
    cannotOpen(main, id, error);
  }
}

/** The page of a match that cannot be shown (no such match, the service unreachable). */
function cannotOpen(main, id, error) {
  document.getElementById("acting").textContent = "";
  const lead = error?.code === "unknown_match" ? `No match with the id ${id}` : "Cannot open this match";
  const said = error?.code ? `${error.code}: ${error.message}` : String(error?.message || error);
  replace(main, h("h1", {}, "Match not found"),
    h("p", { class: "error", role: "alert", id: "match-error" }, `${lead} (${said}).`),
    h("p", {}, h("a", { href: "/" }, "Back to the match list")));
}

/** "alpha vs beta", each seat's name in its colour; in a tournament's match, "Ada (alpha) vs Bo
 * (beta)": ``players`` maps a seat to its player's name. */
function seatsVs(seats, players = {}) {
  return seats.flatMap((seat, i) => [i ? " vs " : null,
    h("span", { class: `seat-name ${seatClass(seats, seat)}`, dataset: { seat } }, players[seat] || seat,
      players[seat] ? h("small", { class: "seat-of" }, ` (${seat})`) : null)]);
}

/** A tournament's match: its players' names by seat (the pairing's first holds the first seat)
 * and a line linking the tournament's page ("Zoom Winter Cup · round 2, board 4"); nothing
 * for a match created on its own, or when the tournament cannot be read. */
async function pairedBy(match) {
  const paired = match.tournament;
  if (!paired) return { players: {}, line: null };
  let tournament = null;
  try {
    tournament = await tournamentApi.summary(paired.tournament_id);
  } catch {
    return { players: {}, line: null };
  }
  const players = seatPlayers(match, playerNames(tournament));
  const line = h("p", { class: "meta", id: "paired-by" },
    h("a", { href: tournamentPage(paired.tournament_id) }, tournament.name),
    ` · round ${paired.round}, board ${paired.board}`);
  return { players, line };
}

/** A token the service refuses (401: unknown or malformed; 403: another match's). */
const refusedToken = (error) => error?.status === 401 || error?.status === 403;

class MatchPage {
  constructor(main, id, who) {
    Object.assign(this, { main, id, who, offset: 0, view: null, timer: null, ui: {} });
    this.seat = who.role.startsWith("seat:") ? who.role.slice(5) : null;
    this.isHost = who.role === "host";
  }

  async start() {
    this.match = await api.match(this.id);
    const paired = await pairedBy(this.match);
    this.players = paired.players; // seat -> player's name, in a tournament's match
    this.lastSeq = this.match.last_seq;
    const ui = this.ui;
    ui.status = h("span", { id: "live-status", class: "live" }, "connecting…");
    ui.error = h("p", { class: "error", role: "alert", hidden: true, id: "match-error" });
    ui.banner = h("div", { id: "banner" });
    ui.board = h("section", { id: "board", "aria-label": "board" });
    ui.travel = h("section", { id: "travel", "aria-label": "time travel" });
    ui.host = h("section", { id: "host-console" });
    ui.audit = h("section", { id: "audit" });
    ui.transcript = h("section", { id: "transcript", "aria-label": "referee from a chat export" });
    replace(this.main,
      h("h1", { class: `match-title game-${this.match.game}` }, `${gameName(this.match.game)}: `,
        seatsVs(this.match.seats, paired.players)),
      paired.line,
      h("p", { class: "meta" }, `match ${this.id} · `, ui.status),
      ui.error, ui.banner, ui.board, ui.travel, ui.host, this.isHost ? ui.transcript : null, ui.audit);
    this.travel = new TimeTravel(this, ui.travel);
    if (this.isHost && this.match.status !== "closed") renderTranscript(ui.transcript, this);
    await this.refresh();
    if (this.refused) return; // nothing to follow with a token the service refuses
    if (this.match.status === "closed") this.onStatus("closed"); // nothing more will come
    else this.stop = follow(this.id, this.lastSeq, (e) => this.onEvent(e),
      (s) => (s === "refused" ? this.refuse() : this.onStatus(s)));
    setInterval(() => this.tick(), 250);
  }

  /** ``result`` with its winning seat named by its player in a tournament's match ("Ada
   * (alpha)"), as it is otherwise. */
  named(result) {
    const player = result?.winner && this.players[result.winner];
    return player ? { ...result, winner: `${player} (${result.winner})` } : result;
  }

  /** The server's "now", from the state's `at` when it was fetched (no trust in our clock). */
  serverNow() {
    return Date.now() + this.offset;
  }

  onStatus(status) {
    this.ui.status.textContent = status;
    this.ui.status.dataset.status = status;
  }

  onEvent(event) {
    if (event.seq <= this.lastSeq) return;
    this.lastSeq = event.seq;
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.refresh();
    });
  }

  /** Re-read the state (at the time-travel point, or now) and redraw everything. */
  async refresh() {
    try {
      const state = await api.state(this.id, this.travel.params());
      this.accepted();
      if (this.travel.isLive()) this.offset = Date.parse(state.at) - Date.now();
      this.view = state;
      this.match = { ...this.match, status: state.status };
      if (this.travel.isLive()) this.lastSeq = Math.max(this.lastSeq || 0, state.last_seq);
      this.draw();
      await this.travel.update();
      await this.drawConsoles();
    } catch (error) {
      showError(this.ui.error, error);
      if (refusedToken(error)) return this.refuse();
    }
    this.scheduleDeadline();
  }

  /** The service took the token: the header says the role it acts as. */
  accepted() {
    document.getElementById("acting").textContent = `Acting as: ${describeRole(this.who.role)}`;
  }

  /** The service refused the link's token: say so, and stop (no stream, no retries). */
  refuse() {
    this.refused = true;
    this.stop?.();
    document.getElementById("acting").textContent = "Acting as: nobody (the link's token was refused)";
    this.onStatus("refused");
  }

  draw() {
    const state = this.view;
    const live = this.travel.isLive();
    replace(this.ui.banner,
      state.state.result ? h("p", { class: "result", id: "result" },
        `Result: ${describeResult(this.named(state.state.result))}`) : null,
      this.match.status === "closed" ? h("p", { class: "closed" }, "This match is closed.") : null,
      live ? null : h("p", { class: "past" }, this.travel.describe()));
    const render = RENDERERS[this.match.game];
    this.deadlines = [];
    redrawKeepingTyped(this.ui.board, () => render(this.ui.board, state, this.context(live)));
    this.tick();
  }

  context(live) {
    return {
      id: this.id, seat: this.seat, isHost: this.isHost, role: this.who.role,
      live: live && this.match.status === "open",
      changed: this.travel.changedPaths(),
      serverNow: () => this.serverNow(),
      deadline: (iso) => this.deadlines.push(Date.parse(iso)),
      act: (body) => this.act(() => api.command(this.id, body)),
      error: (e) => showError(this.ui.error, e),
      redraw: () => this.draw(),
    };
  }

  /** Send a write; errors show in the alert, success re-reads at once (the stream follows). */
  async act(send) {
    showError(this.ui.error, null);
    try {
      const answer = await send();
      clearTyped(this.ui.board); // sent: what was typed for it goes, as the form does
      await this.refresh();
      return answer;
    } catch (error) {
      showError(this.ui.error, error);
      return null;
    }
  }

  async drawConsoles() {
    if (this.isHost) await renderHost(this.ui.host, this);
    if (this.who.role === "auditor") await renderAudit(this.ui.audit, this);
  }

  /** Re-read when the next deadline in view passes (the server applies it; we only wait). */
  scheduleDeadline() {
    clearTimeout(this.timer);
    if (!this.travel.isLive()) return;
    const now = this.serverNow();
    const next = Math.min(...(this.deadlines || []).filter((d) => d > now));
    if (Number.isFinite(next)) this.timer = setTimeout(() => this.refresh(), next - now + 50);
  }

  tick() {
    const now = this.travel.isLive() ? this.serverNow() : Date.parse(this.view?.at);
    for (const node of document.querySelectorAll("[data-deadline]")) {
      node.textContent = clock(Date.parse(node.dataset.deadline) - now);
    }
  }
}
