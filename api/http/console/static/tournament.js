// A tournament page: standings (rank, points, each chosen tie-break, wins), a crosstable for a
// round robin or a bracket for an elimination, the rounds with their pairings, results and
// links to each match, game-time and record-time controls, the audit badge, and the
// organizer's controls (pair the next round, forfeit a board, withdraw a player, end the
// event early, seal the finished event). The page decides nothing: it draws what the API
// answers and polls the standings every two seconds.

import { h, replace, showError } from "./dom.js";
import { gameName } from "./words.js";
import {
  adoptOrganizer, organizerToken, playerNames, savedLinks, tournamentApi as api, tournamentPage,
} from "./tournament-api.js";

const POLL_MS = 2000;
/** The organizer's controls that have nothing to do once the tournament is finished. */
const LOCKED_WHEN_FINISHED = ["pair-round", "forfeit-submit", "withdraw-submit", "conclude-submit"];
/** Every organizer's control: all locked once the tournament is sealed. */
const ORGANIZER_CONTROLS = [...LOCKED_WHEN_FINISHED, "seal-submit"];
const FORMATS = {
  round_robin: "round robin",
  double_round_robin: "double round robin",
  swiss: "Swiss",
  single_elimination: "single elimination",
  double_elimination: "double elimination",
};
const TIEBREAKS = {
  buchholz: "Buchholz",
  buchholz_cut1: "Buchholz Cut-1",
  sonneborn_berger: "Sonneborn-Berger",
  direct_encounter: "Direct encounter",
  wins: "Wins (tie-break)",
  game_points_diff: "Game points difference",
};
const SHORT = { Rank: "#", Points: "Pts", Wins: "W", Board: "Bd", "First seat": "1st", "Second seat": "2nd",
  Match: "", "Buchholz Cut-1": "BH-1", Buchholz: "BH", "Sonneborn-Berger": "SB", "Direct encounter": "DE",
  "Wins (tie-break)": "W (tb)", "Game points difference": "GPD" };
const BRACKETS = { winners: "Winners", losers: "Losers", grand_final: "Grand final",
  grand_final_reset: "Grand final reset" };

export async function renderTournament(main, id) {
  adoptOrganizer(id);
  const page = new TournamentPage(main, id, organizerToken(id));
  try {
    await page.start();
  } catch (error) {
    document.getElementById("acting").textContent = "";
    const lead = error?.code === "unknown_tournament" ? `No tournament with the id ${id}` : "Cannot open this tournament";
    const said = error?.code ? `${error.code}: ${error.message}` : String(error?.message || error);
    replace(main, h("h1", {}, "Tournament not found"),
      h("p", { class: "error", role: "alert", id: "tournament-error" }, `${lead} (${said}).`),
      h("p", {}, h("a", { href: "/" }, "Back to the start page")));
  }
}

/** The start page's list: every tournament, newest first, each a link to its page. */
export function tournamentSection() {
  const list = h("div", { id: "tournaments" }, "…");
  api.list().then(
    (rows) => replace(list, rows.length ? h("ul", { class: "tournament-list" }, rows.map((t) =>
      h("li", { dataset: { tournament: t.tournament_id } },
        h("a", { href: tournamentPage(t.tournament_id) }, t.name),
        ` · ${gameName(t.game)}`,
        t.sealed_leaf === null ? null : h("span", { class: "sealed", title: `transparency-log leaf ${t.sealed_leaf}` },
          " · sealed")))) : h("p", {}, "No tournaments yet.")),
    (error) => replace(list, h("p", { class: "error", role: "alert" }, `${error.code || "error"}: ${error.message}`)));
  return h("section", { class: "tournaments" }, h("h2", {}, "Tournaments"), list);
}

class TournamentPage {
  constructor(main, id, token) {
    Object.assign(this, { main, id, token, at: "", knownAt: "", summary: null, standings: null,
      drawn: "", verifiedSeq: null, ui: {} });
  }

  isLive() {
    return !this.at && !this.knownAt;
  }

  names() {
    return playerNames(this.summary);
  }

  async start() {
    this.summary = await api.summary(this.id);
    document.getElementById("acting").textContent = `Acting as: ${this.token ? "organizer" : "visitor (spectator)"}`;
    document.title = `${this.summary.name} · Match adjudicator`;
    const ui = this.ui;
    ui.status = h("span", { id: "live-status", class: "live" }, "connecting…");
    ui.badge = h("span", { id: "audit-badge", class: "badge" }, "verifying…");
    ui.checks = h("ul", { id: "audit-checks", hidden: true });
    ui.error = h("p", { class: "error", role: "alert", hidden: true, id: "tournament-error" });
    ui.past = h("div", { id: "past", hidden: true });
    ui.standings = h("section", { id: "standings", "aria-label": "standings" });
    ui.grid = h("section", { id: "grid-section" });
    ui.rounds = h("section", { id: "rounds", "aria-label": "rounds" });
    ui.organizer = h("section", { id: "organizer", "aria-label": "organizer's controls" });
    const settings = this.summary.settings;
    const tiebreaks = settings.tiebreaks.map((t) => TIEBREAKS[t] || t).join(", ") || "none";
    replace(this.main,
      h("h1", { id: "tournament-name" }, this.summary.name),
      h("p", { class: "meta", id: "tournament-meta" },
        h("span", { id: "tournament-game" }, gameName(this.summary.game)), " · ",
        h("span", { id: "tournament-format" }, FORMATS[settings.format] || settings.format),
        settings.rounds ? ` of ${settings.rounds} rounds` : "",
        ` · ${this.summary.players.length} players · tie-breaks: ${tiebreaks} · `, ui.status),
      h("p", { class: "audit-line" }, "Audit: ", ui.badge, " ",
        h("button", { type: "button", id: "audit-toggle", class: "link",
          onclick: () => (ui.checks.hidden = !ui.checks.hidden) }, "checks")), ui.checks,
      ui.error, this.timeControls(), ui.past, ui.standings, ui.grid,
      this.token ? ui.organizer : null, ui.rounds,
      h("p", {}, h("a", { href: "/" }, "All matches and tournaments")));
    if (this.token) this.drawOrganizer();
    await this.refresh();
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  // reading

  async poll() {
    if (this.polling || !this.isLive()) return;
    this.polling = true;
    try {
      await this.refresh();
    } finally {
      this.polling = false;
    }
  }

  async refresh() {
    const params = {};
    if (this.at) params.at = this.at;
    if (this.knownAt) params.known_at = this.knownAt;
    try {
      const standings = await api.standings(this.id, params);
      if (standings.last_seq !== this.summary.last_seq) this.summary = await api.summary(this.id);
      this.standings = standings;
      showError(this.ui.error, null);
      this.setStatus(this.isLive() ? "live" : "past");
    } catch (error) {
      showError(this.ui.error, error);
      this.setStatus(this.isLive() ? "reconnecting" : "past");
      return;
    }
    this.draw();
    this.audit();
  }

  setStatus(status) {
    this.ui.status.dataset.status = status;
    this.ui.status.textContent = { live: "live (every 2 s)", past: "paused: viewing the past",
      reconnecting: "reconnecting…" }[status] || status;
  }

  /** The audit badge, verified again whenever the standings' results or the tournament's log
   * change; a sealed tournament's says its log is in the transparency log (its seal check). */
  async audit() {
    const key = JSON.stringify([this.summary.last_seq, this.standings.rounds]);
    if (!this.isLive() || key === this.verifiedSeq) return;
    this.verifiedSeq = key;
    try {
      const report = await api.verify(this.id);
      const failing = report.checks.filter((c) => !c.ok);
      this.ui.badge.className = report.ok ? "badge ok" : "badge bad";
      this.ui.badge.title = `verify began ${new Date(report.verified_at).toLocaleString()}`;
      const sealed = report.checks.some((c) => c.name === "seal" && c.ok);
      this.ui.badge.textContent = report.ok ? (sealed ? "✔ verified · sealed in the transparency log" : "✔ verified")
        : `✘ NOT verified: ${failing.map((c) => `${c.name} (${c.detail})`).join("; ")}`;
      replace(this.ui.checks, report.checks.map((c) => h("li", { class: c.ok ? "ok" : "bad" },
        `${c.ok ? "✔" : "✘"} ${c.name}: ${c.detail}`)));
    } catch (error) {
      this.ui.badge.className = "badge bad";
      this.ui.badge.textContent = `? cannot verify (${error.code || "error"}: ${error.message})`;
    }
  }

  // drawing

  draw() {
    const key = JSON.stringify([this.standings.rows, this.standings.rounds, this.standings.crosstable,
      this.standings.bracket, this.standings.stale_pairings, this.summary.last_seq, this.at, this.knownAt]);
    if (key === this.drawn) return; // nothing moved: keep the page (and any selection) as it is
    this.drawn = key;
    const s = this.standings;
    this.ui.past.hidden = this.isLive();
    if (!this.isLive()) {
      const parts = [];
      if (this.at) parts.push(`game time ${s.at}`);
      if (this.knownAt) parts.push(`as known at ${s.known_at}`);
      replace(this.ui.past, h("p", { class: "past" }, `Viewing the past: ${parts.join(", ")}. Live updates are paused.`));
    }
    replace(this.ui.standings, h("h2", {}, "Standings"),
      s.finished ? h("p", { class: "result", id: "champion" },
        s.champion ? `Finished: ${this.names()[s.champion] || s.champion} wins the tournament` : "Finished",
        s.concluded ? h("small", { class: "hint", id: "concluded" }, ` — ended early: ${s.concluded}`) : null,
        s.sealed ? h("small", { class: "hint", id: "sealed" }, ` — sealed, final: ${s.sealed}`) : null) : null,
      this.standingsTable(), this.staleNote());
    if (s.crosstable) replace(this.ui.grid, h("h2", {}, "Crosstable"), this.crosstable());
    else if (s.bracket) replace(this.ui.grid, h("h2", {}, "Bracket"), this.bracket());
    else replace(this.ui.grid);
    replace(this.ui.rounds, h("h2", {}, "Rounds"),
      s.rounds.length ? [...s.rounds].reverse().map((r) => this.roundView(r))
        : h("p", { class: "hint", id: "no-rounds" }, "No round has been paired yet."));
    if (this.token) this.fillOrganizer();
  }

  standingsTable() {
    const tiebreaks = this.summary.settings.tiebreaks;
    const head = ["Rank", "Player", "Points", ...tiebreaks.map((t) => TIEBREAKS[t] || t), "Wins"];
    return h("div", { class: "scroll" }, h("table", { class: "ttable standings", id: "standings-table" },
      h("thead", {}, h("tr", {}, head.map(heading))),
      h("tbody", {}, this.standings.rows.map((row) => h("tr", { dataset: { player: row.player },
        class: row.withdrawn ? "withdrawn" : null },
      h("td", { class: "rank" }, String(row.rank)),
      h("td", { class: "name" }, row.name, row.withdrawn ? " (withdrawn)" : ""),
      h("td", { class: "points" }, num(row.points)),
      tiebreaks.map((t) => h("td", { class: "tiebreak", dataset: { tiebreak: t } }, num(row.tiebreaks[t] ?? 0))),
      h("td", { class: "wins" }, String(row.wins)))))));
  }

  staleNote() {
    const stale = this.standings.stale_pairings;
    if (!stale.length) return null;
    return h("div", { class: "changes", id: "stale-pairings" },
      h("p", {}, "Paired on results that have changed since (played rounds are never re-paired):"),
      h("ul", {}, stale.map((r) => h("li", { dataset: { round: r.round } }, `Round ${r.round} was paired when `,
        r.changed.map((c) => this.changedBoard(c)).join("; "), "."))));
  }

  /** A board whose result changed after a later round was paired, in words: "round 2, board 4
   * (Ada – Bo) stood at Bo wins (0–1); it is now Ada wins (1–1)". */
  changedBoard(change) {
    const names = this.names();
    const [number, boardNumber] = change.board.split(".").map(Number);
    const board = this.standings.rounds.find((r) => r.round === number)?.pairings
      .find((b) => b.board === boardNumber);
    if (!board) return `round ${number}, board ${boardNumber} has changed`;
    const told = (result) => (result
      ? describe({ ...board, result, drawn: false }, names, this.summary.settings.points_game) : "no result");
    const who = `${names[board.first] || board.first} – ${names[board.second] || board.second}`;
    return `round ${number}, board ${boardNumber} (${who}) stood at ${told(change.then)}; ` +
      `it is now ${told(change.now)}`;
  }

  crosstable() {
    const order = this.standings.rows.map((r) => r.player);
    const names = this.names();
    const table = this.standings.crosstable;
    return h("div", { class: "scroll" }, h("table", { class: "ttable crosstable", id: "crosstable" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"),
        order.map((p, i) => h("th", { scope: "col", title: names[p] }, String(i + 1))))),
      h("tbody", {}, order.map((p, i) => h("tr", { dataset: { player: p } },
        h("th", { scope: "row" }, `${i + 1}. ${names[p] || p}`),
        order.map((q) => h("td", { dataset: { opponent: q }, class: p === q ? "self" : null },
          p === q ? "×" : cells(table[p]?.[q]))))))),
    h("p", { class: "hint" }, "Rows and columns in rank order; ½ a draw, + and − a forfeit won and lost, · not played yet."));
  }

  bracket() {
    const names = this.names();
    const groups = new Map();
    for (const m of this.standings.bracket) {
      if (!groups.has(m.bracket)) groups.set(m.bracket, new Map());
      const stages = groups.get(m.bracket);
      if (!stages.has(m.stage)) stages.set(m.stage, []);
      stages.get(m.stage).push(m);
    }
    const who = (p, m) => h("div", { class: p && m.winner === p ? "slot won" : "slot" },
      p ? names[p] || p : "—");
    return h("div", { id: "bracket" }, [...groups].map(([bracket, stages]) =>
      h("div", { class: "bracket-part", dataset: { bracket } }, h("h3", {}, BRACKETS[bracket] || bracket),
        h("div", { class: "bracket-columns" }, [...stages].sort((a, b) => a[0] - b[0]).map(([stage, ms]) =>
          h("div", { class: "bracket-column" }, h("h4", {}, `Stage ${stage}`),
            ms.map((m) => h("div", { class: "bracket-match", dataset: { round: m.round, board: m.board } },
              who(m.first, m), who(m.second, m)))))))));
  }

  roundView(round) {
    const names = this.names();
    const links = this.token ? savedLinks(this.id) : {};
    const forfeits = Object.fromEntries(this.summary.forfeits.map((f) => [`${f.round}/${f.board}`, f]));
    const name = (p) => (p ? names[p] || p : "bye");
    return h("div", { class: "round", dataset: { round: round.round } },
      h("h3", {}, `Round ${round.round}`),
      h("div", { class: "scroll" }, h("table", { class: "ttable pairings" },
        h("thead", {}, h("tr", {}, ["Board", "First seat", "Second seat", "Result", "Match"].map(heading))),
        h("tbody", {}, round.pairings.map((b) => {
          const forfeit = forfeits[`${b.round}/${b.board}`];
          return h("tr", { dataset: { board: b.board, match: b.match_id || "" } },
            h("td", {}, String(b.board)),
            h("td", { class: "first" }, name(b.first)),
            h("td", { class: "second" }, name(b.second)),
            h("td", { class: "result-cell" }, describe(b, names, this.summary.settings.points_game, forfeit),
              forfeit ? h("small", { class: "hint" }, ` — ${forfeit.reason}`) : null),
            h("td", { class: "match-links" }, b.match_id ? [
              h("a", { href: `/console/matches/${b.match_id}#role=spectator`, class: "watch" }, "watch"),
              links[b.match_id] ? roleLinks(links[b.match_id]) : null,
            ] : "—"));
        })))));
  }

  // game time and record time

  timeControls() {
    const atInput = h("input", { id: "t-at", type: "datetime-local", step: 1, "aria-label": "game time" });
    const knownInput = h("input", { id: "t-known", type: "datetime-local", step: 1, "aria-label": "record time" });
    const problem = h("p", { id: "t-error", class: "error", role: "alert", hidden: true });
    const go = (event) => {
      event.preventDefault();
      try {
        this.at = toIso(atInput.value, "game time");
        this.knownAt = toIso(knownInput.value, "record time");
      } catch (error) {
        return showError(problem, error);
      }
      showError(problem, null);
      this.refresh();
    };
    const live = () => {
      atInput.value = knownInput.value = "";
      this.at = this.knownAt = "";
      showError(problem, null);
      this.refresh();
    };
    return h("section", { id: "time-travel", "aria-label": "time travel" },
      h("form", { class: "travel-row", id: "time-form", onsubmit: go },
        h("label", { for: "t-at" }, "Game time "), atInput,
        h("label", { for: "t-known" }, "Record time (as known at) "), knownInput,
        h("button", { type: "submit", id: "t-go" }, "Show"),
        h("button", { type: "button", id: "t-live", onclick: live }, "Back to live")),
      h("p", { class: "hint" }, "Game time: the results as they stood then. Record time: the standings " +
        "as they were believed then, before later rulings. Both in your local time; empty is now."),
      problem);
  }

  // the organizer's controls

  drawOrganizer() {
    const ui = this.ui;
    const pairError = h("p", { class: "error", role: "alert", hidden: true, id: "pair-error" });
    const pairDone = h("p", { class: "hint", id: "pair-done", role: "status" });
    const pair = h("button", { type: "button", id: "pair-round", onclick: () => this.act(pair, pairError, async () => {
      const paired = await api.pair(this.id);
      pairDone.textContent = `Round ${paired.round} paired: ${paired.pairings.length} boards. ` +
        "Each board's role links are in its row below (shown to this tab only).";
    }) }, "Pair next round");

    ui.forfeitBoard = h("select", { id: "forfeit-board", required: true });
    ui.forfeitWinner = h("select", { id: "forfeit-winner" });
    const forfeitReason = h("input", { id: "forfeit-reason", required: true, maxlength: 500, placeholder: "why" });
    const forfeitError = h("p", { class: "error", role: "alert", hidden: true, id: "forfeit-error" });
    ui.forfeitBoard.addEventListener("change", () => this.fillWinners());
    const forfeitForm = h("form", { class: "organizer-form", id: "forfeit-form", onsubmit: (e) => {
      e.preventDefault();
      const [round, board] = ui.forfeitBoard.value.split("/").map(Number);
      const winner = ui.forfeitWinner.value || null;
      this.act(e.submitter || forfeitForm, forfeitError, async () => {
        await api.forfeit(this.id, { round, board, winner, reason: forfeitReason.value });
        forfeitReason.value = "";
      });
    } },
    h("h3", {}, "Forfeit a board"),
    h("div", { class: "field" }, h("label", { for: "forfeit-board" }, "Board"), ui.forfeitBoard),
    h("div", { class: "field" }, h("label", { for: "forfeit-winner" }, "Wins by forfeit"), ui.forfeitWinner),
    h("div", { class: "field" }, h("label", { for: "forfeit-reason" }, "Reason"), forfeitReason),
    h("button", { type: "submit", id: "forfeit-submit" }, "Forfeit"), forfeitError);

    ui.withdrawPlayer = h("select", { id: "withdraw-player", required: true });
    const withdrawReason = h("input", { id: "withdraw-reason", required: true, maxlength: 500, placeholder: "why" });
    const withdrawError = h("p", { class: "error", role: "alert", hidden: true, id: "withdraw-error" });
    const withdrawForm = h("form", { class: "organizer-form", id: "withdraw-form", onsubmit: (e) => {
      e.preventDefault();
      this.act(e.submitter || withdrawForm, withdrawError, async () => {
        await api.withdraw(this.id, { player: ui.withdrawPlayer.value, reason: withdrawReason.value });
        withdrawReason.value = "";
      });
    } },
    h("h3", {}, "Withdraw a player"),
    h("div", { class: "field" }, h("label", { for: "withdraw-player" }, "Player"), ui.withdrawPlayer),
    h("div", { class: "field" }, h("label", { for: "withdraw-reason" }, "Reason"), withdrawReason),
    h("button", { type: "submit", id: "withdraw-submit" }, "Withdraw"), withdrawError);

    const concludeForm = this.reasonForm("conclude", "End the event early",
      "Between rounds only: the standings as they stand are final, the leader wins.", "End the event",
      (reason) => api.conclude(this.id, { reason }));
    const sealForm = this.reasonForm("seal", "Seal the event",
      "Once it is finished: every match still open is closed and the tournament's log is "
      + "signed in the transparency log. The standings are then final; nothing more can be done.", "Seal",
      (reason) => api.seal(this.id, { reason }));

    ui.finishedNote = h("p", { class: "hint", id: "organizer-finished", hidden: true });
    replace(ui.organizer, h("h2", {}, "Organizer"), ui.finishedNote,
      h("div", { class: "controls" }, pair), pairError, pairDone,
      h("div", { class: "organizer-forms" }, forfeitForm, withdrawForm, concludeForm, sealForm));
    this.lockControls();
  }

  /** An organizer's act that takes a reason only (``name``-reason, ``name``-submit,
   * ``name``-error): ``send(reason)`` records it, its refusal shown beside the form. */
  reasonForm(name, title, hint, button, send) {
    const reason = h("input", { id: `${name}-reason`, required: true, maxlength: 500, placeholder: "why" });
    const error = h("p", { class: "error", role: "alert", hidden: true, id: `${name}-error` });
    const form = h("form", { class: "organizer-form", id: `${name}-form`, onsubmit: (e) => {
      e.preventDefault();
      this.act(e.submitter || form, error, async () => {
        await send(reason.value);
        reason.value = "";
      });
    } },
    h("h3", {}, title),
    h("p", { class: "hint" }, hint),
    h("div", { class: "field" }, h("label", { for: `${name}-reason` }, "Reason"), reason),
    h("button", { type: "submit", id: `${name}-submit` }, button), error);
    return form;
  }

  /** Whether ``control`` has nothing left to do (the API would refuse it): every organizer's
   * act once the tournament is sealed; the seal until it is finished (so before the first
   * standings arrive too); the others once it is. */
  locked(control) {
    const s = this.standings;
    if (!s) return control?.id === "seal-submit";
    if (s.sealed) return ORGANIZER_CONTROLS.includes(control?.id);
    if (control?.id === "seal-submit") return !s.finished;
    return Boolean(s.finished) && LOCKED_WHEN_FINISHED.includes(control?.id);
  }

  /** Run an organizer's act: errors (the API's message) beside its control, then redraw. */
  async act(control, errorTarget, action) {
    showError(errorTarget, null);
    if (control) control.disabled = true;
    try {
      await action();
      this.drawn = "";
      await this.refresh();
    } catch (error) {
      showError(errorTarget, error);
      if (error?.status === 401 || error?.status === 403) {
        document.getElementById("acting").textContent = "Acting as: visitor (the organizer token was refused)";
      }
    } finally {
      if (control) control.disabled = this.locked(control);
    }
  }

  /** The organizer's choices from the tournament as it stands now (kept as chosen). */
  fillOrganizer() {
    const ui = this.ui;
    const names = this.names();
    const latest = this.summary.rounds.at(-1);
    const results = Object.fromEntries((this.standings.rounds.find((r) => r.round === latest?.round)?.pairings || [])
      .map((b) => [b.board, b.result]));
    const open = (latest?.pairings || []).filter((b) => b.second && !results[b.board]);
    keepChoice(ui.forfeitBoard, open.length ? open.map((b) => [`${b.round}/${b.board}`,
      `round ${b.round}, board ${b.board}: ${names[b.first] || b.first} – ${names[b.second] || b.second}`])
      : [["", "no board without a result"]]);
    this.fillWinners();
    const playing = this.summary.players.filter((p) => !(p.id in this.summary.withdrawn));
    keepChoice(ui.withdrawPlayer, playing.length ? playing.map((p) => [p.id, `${p.name} (${p.id})`])
      : [["", "nobody left"]]);
    ui.finishedNote.hidden = !this.standings.finished;
    ui.finishedNote.textContent = this.standings.sealed
      ? "The tournament is sealed: its standings are final and it takes no act."
      : "The tournament is finished: no round is left to pair, no player to withdraw, no board to "
        + "forfeit. Seal it to make its standings final and sign its log.";
    this.lockControls();
  }

  /** Each organizer's control enabled or disabled as :meth:`locked` says. */
  lockControls() {
    for (const id of ORGANIZER_CONTROLS) {
      const control = document.getElementById(id);
      if (control) control.disabled = this.locked(control);
    }
  }

  fillWinners() {
    const names = this.names();
    const [round, board] = this.ui.forfeitBoard.value.split("/").map(Number);
    const found = this.summary.rounds.find((r) => r.round === round)?.pairings.find((b) => b.board === board);
    const players = found ? [found.first, found.second] : [];
    keepChoice(this.ui.forfeitWinner, [...players.map((p) => [p, names[p] || p]), ["", "nobody (both lose)"]]);
  }
}

/** A column heading: in full, or abbreviated on a phone (the full name as its title). */
function heading(text) {
  const short = SHORT[text];
  if (short === undefined) return h("th", { scope: "col" }, text);
  return h("th", { scope: "col" }, h("span", { class: "long" }, text),
    h("abbr", { class: "short", title: text, "aria-hidden": "true" }, short));
}

/** Replace a select's options, keeping the chosen value when it is still offered. */
function keepChoice(select, options) {
  const was = select.value;
  replace(select, options.map(([value, label]) => h("option", { value }, label)));
  if (options.some(([value]) => value === was)) select.value = was;
}

function toIso(value, what) {
  if (!value) return "";
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new Error(`${what}: "${value}" is not a date and time`);
  return time.toISOString();
}

function num(value) {
  if (value === null || value === undefined) return "";
  const n = Number(value);
  if (Number.isInteger(n)) return String(n);
  if (Math.abs(n % 1) === 0.5) return `${n < 0 ? "-" : ""}${Math.trunc(Math.abs(n)) || ""}½`;
  return String(Math.round(n * 100) / 100);
}

/** The crosstable cell: one score per game between the two (½ a draw, + and − a forfeit won
 * and lost, · not played yet). */
function cells(games) {
  if (!games?.length) return "";
  return games.map((g) => {
    if (g.score === null) return "·";
    if (g.forfeit) return g.score > 0 ? "+" : "−"; // a forfeit won or lost, as crosstables write it
    return num(g.score);
  }).join(" ");
}

/** A board's result in words; ``forfeit``: the organizer's forfeit of it, if any (an earlier
 * version took one naming no winner on a knockout board: it decides nothing, and the board
 * still needs a winner, as a drawn match's does). */
function describe(board, names, pointsGame, forfeit) {
  if (!board.second) return "bye";
  const r = board.result;
  if (!r && board.drawn && forfeit && !forfeit.winner) {
    return "forfeited naming no winner: needs a winner (a ruling, or a forfeit naming one)";
  }
  if (!r && board.drawn) return "drawn: needs a winner (a ruling, or a forfeit)";
  if (!r) return board.match_id ? "in play" : "—";
  const score = pointsGame && !r.forfeit ? ` (${num(r.first_points)}–${num(r.second_points)})` : "";
  if (!r.winner) return `${r.forfeit ? "double forfeit" : "draw"}${score}`;
  return `${names[r.winner] || r.winner} wins${r.forfeit ? " by forfeit" : ""}${score}`;
}

function roleLinks(links) {
  const order = ["host", "alpha", "beta", "auditor"];
  return h("details", { class: "role-links" }, h("summary", {}, "role links"),
    h("ul", {}, order.filter((r) => links[r]).map((role) => h("li", {},
      h("a", { href: links[role], target: "_blank", rel: "noopener", dataset: { role } },
        role === "host" || role === "auditor" ? role : `seat ${role}`)))));
}
