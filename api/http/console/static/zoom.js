// Zoom: the grid, the targets, found targets outlined with who found them, the round clock,
// lockouts and Priority counting down from the server's deadlines, and the buzz controls.

import { h, replace, seatClass, when } from "./dom.js";
import { reasonText, words } from "./words.js";
import { gridView, legend, outline, rowsOf } from "./zoomgrid.js";

const picking = { target: null, pairs: [], seat: null, showLetters: false };

export function renderZoom(root, view, ctx) {
  const s = view.state;
  const round = s.round;
  // "in_round" is the server's word; a round kept after its end (ended_at) takes no buzzes
  const seatActs = ctx.live && s.phase === "in_round" && Boolean(ctx.seat || ctx.isHost);
  picking.seat = ctx.seat || picking.seat || s.seats[0];
  const parts = [scoreboard(s, ctx), roundLine(s, round, ctx)];
  if (round) {
    parts.push(targetsView(round, s, ctx, seatActs));
    parts.push(boardView(round, ctx, seatActs, root));
    if (seatActs) parts.push(buzzPanel(s, ctx, root));
  }
  if (ctx.seat || ctx.isHost) parts.push(h("p", { id: "buzz-outcome", "aria-live": "polite" }, lastOutcome));
  parts.push(phaseControls(s, ctx), buzzList(s, ctx));
  replace(root, ...parts);
  root.classList.toggle("letters", picking.showLetters);
}

/** A card per seat in its colour: name, score, and its state (Advantage, Priority, lockouts). */
function scoreboard(s, ctx) {
  return h("div", { class: "scores", id: "scores" }, s.seats.map((seat) =>
    h("div", {
      class: `score ${seatClass(s.seats, seat)}${ctx.changed.has(`state.scores.${seat}`) ? " changed" : ""}`,
      dataset: { seat, path: `state.scores.${seat}` },
    }, h("span", { class: "seat" }, seat + (s.advantage === seat ? " (Advantage)" : "")),
    h("strong", { class: "points", "aria-label": `${seat}'s points` }, String(s.scores[seat])),
    h("span", { class: "card-state" }, seatState(s, seat, ctx)))));
}

function seatState(s, seat, ctx) {
  const round = s.phase === "in_round" ? s.round : null;
  const parts = [];
  if (round?.priority?.holder === seat) {
    parts.push(h("span", { class: "pill ok" }, "Priority ",
      h("span", { class: "card-clock", dataset: { deadline: round.priority.until } }, "")));
  }
  for (const lock of round?.lockouts.filter((l) => l.seat === seat) || []) {
    ctx.deadline(lock.until);
    parts.push(h("span", { class: "pill bad" }, `locked out of ${lock.target} `,
      h("span", { class: "card-clock", dataset: { deadline: lock.until } }, "")));
  }
  if (!parts.length) parts.push(round ? "may buzz" : "waiting for the round");
  return parts;
}

function roundLine(s, round, ctx) {
  if (!round || s.phase !== "in_round") {
    const last = s.played.at(-1);
    const ended = last ? `Round ${last.number} ended (${words(last.end_reason)}). ` : "";
    const next = hasNext(s) ? `Next: round ${s.next_round} of ${s.rounds_total}.` : "";
    return h("div", {}, h("p", { class: "round", id: "round-line" }, ended + next),
      last ? playedSummary(last) : null);
  }
  ctx.deadline(round.clock_deadline);
  const priority = round.priority;
  if (priority) ctx.deadline(priority.until);
  // The round's clock, big: what is left before the round ends without a correct buzz.
  return h("div", { class: "clockbar" },
    h("div", {}, h("span", { class: "bigclock-label" }, "round clock"),
      h("strong", { class: "bigclock", id: "round-clock", dataset: { deadline: round.clock_deadline } }, "")),
    h("p", { class: "round", id: "round-line" },
      `Round ${round.number} of ${s.rounds_total} · the clock runs until a correct buzz`,
      priority ? h("span", { class: "priority", id: "priority" }, ` · Priority: ${priority.holder} `,
        h("strong", { class: "countdown", dataset: { deadline: priority.until } }, "")) : null));
}

function playedSummary(played) {
  const found = Object.entries(played.found).map(([label, f]) => `${label} by ${f.seat} at ${f.at}`);
  const unfound = played.void_targets.length ? ` · void: ${played.void_targets.join(", ")}` : "";
  return h("p", { class: "hint", id: "played-summary" },
    `Round ${played.number}: ${found.join(", ") || "nothing found"}${unfound}`);
}

function targetsView(round, s, ctx, seatActs) {
  const me = picking.seat;
  const locks = Object.fromEntries(round.lockouts.filter((l) => l.seat === me)
    .map((l) => [l.target, l]));
  return h("div", { class: "targets", id: "targets" }, Object.entries(round.targets).map(
    ([label, rows]) => {
      const found = round.found[label];
      const lock = locks[label];
      if (lock) ctx.deadline(lock.until);
      const chosen = picking.target === label;
      const attrs = {
        class: `target${found ? " found" : ""}${chosen ? " chosen" : ""}${lock ? " locked" : ""}`,
        dataset: { target: label }, "aria-pressed": seatActs ? String(chosen) : null,
      };
      const body = [
        h("span", { class: "label" }, label),
        gridView(rows, { small: true, headers: false }),
        found ? h("span", { class: "note" }, `found by ${found.seat} at ${found.at}`) : null,
        lock ? h("span", { class: "note lock" }, `${me} locked out `,
          h("strong", { dataset: { deadline: lock.until } }, "")) : null,
      ];
      if (!seatActs || found) return h("div", attrs, body);
      return h("button", { type: "button", ...attrs, onclick: () => choose(label) }, body);
    }));
}

function choose(label) {
  picking.target = label;
  for (const node of document.querySelectorAll(".target")) {
    const on = node.dataset.target === label;
    node.classList.toggle("chosen", on);
    if (node.tagName === "BUTTON") node.setAttribute("aria-pressed", String(on));
  }
  document.getElementById("pick-hint").textContent = `Target ${label}: now click its top-left cell.`;
}

function boardView(round, ctx, seatActs, root) {
  const onCell = seatActs ? (cell) => addPair(cell, root) : null;
  const grid = gridView(round.grid, { id: "grid", onCell, fit: true });
  for (const [label, found] of Object.entries(round.found)) {
    const rows = rowsOf(round.targets[label]);
    const [r, c] = parseCell(found.at);
    outline(grid, r, c, rows.length, rows[0].length, `${label} · ${found.seat}`);
  }
  for (const lock of round.lockouts) {
    if (lock.seat === picking.seat || ctx.isHost || !ctx.seat) ctx.deadline(lock.until);
  }
  const lettersBox = h("input", { type: "checkbox", id: "show-letters",
    checked: picking.showLetters, onchange: (e) => {
      picking.showLetters = e.target.checked;
      root.classList.toggle("letters", picking.showLetters);
    } });
  return h("div", { class: "boardwrap" },
    h("div", { class: "tools" }, h("label", { class: "toggle" }, lettersBox, " letters"), legend()),
    grid, lockoutList(round));
}

function lockoutList(round) {
  if (!round.lockouts.length) return h("ul", { id: "lockouts", class: "lockouts" });
  return h("ul", { id: "lockouts", class: "lockouts", "aria-label": "lockouts" },
    round.lockouts.map((l) => h("li", { class: "lockout" },
      `${l.seat} locked out of ${l.target}: `,
      h("strong", { dataset: { deadline: l.until } }, ""), " (or until the other seat buzzes)")));
}

export function parseCell(cell) {
  const [, letters, digits] = cell.match(/^([a-z]+)(\d+)$/);
  let column = 0;
  for (const ch of letters) column = column * 26 + (ch.charCodeAt(0) - 96);
  return [Number(digits) - 1, column - 1];
}

function addPair(cell, root) {
  if (!picking.target) {
    document.getElementById("pick-hint").textContent = "First click a target (A, B, …).";
    return;
  }
  picking.pairs = picking.pairs.filter((p) => p.target !== picking.target);
  picking.pairs.push({ target: picking.target, at: cell });
  picking.target = null;
  document.getElementById("pick-hint").textContent =
    `Pairs: ${picking.pairs.length}. Pick another target, or press Buzz.`;
  drawPairs(root);
}

function buzzPanel(s, ctx, root) {
  const seatPick = ctx.isHost ? h("label", {}, "for seat ",
    h("select", { id: "buzz-seat", onchange: (e) => (picking.seat = e.target.value) },
      s.seats.map((seat) => h("option", { value: seat, selected: seat === picking.seat }, seat))))
    : null;
  const posted = ctx.isHost ? h("label", {}, " chat post time (blank: now) ",
    h("input", { id: "buzz-time", type: "text", placeholder: "2026-11-30T12:00:05Z",
      size: 22 })) : null;
  const send = async () => {
    if (!picking.pairs.length) return;
    const body = { type: "buzz", seat: picking.seat, pairs: picking.pairs };
    const time = document.getElementById("buzz-time")?.value.trim();
    if (time) body.occurred_at = time;
    lastOutcome = "";
    document.getElementById("buzz-outcome").textContent = "";
    const answer = await ctx.act(body);
    if (answer) {
      picking.pairs = []; // sent: the page was redrawn with them before the answer came back
      drawPairs(root);
      showOutcome(answer.outcome);
    }
  };
  const panel = h("div", { class: "buzz", id: "buzz-panel" },
    h("p", { id: "pick-hint", class: "hint", "aria-live": "polite" },
      picking.target ? `Target ${picking.target}: now click its top-left cell.`
        : "Click a target, then its top-left cell in the grid (several pairs per buzz)."),
    h("ul", { id: "pairs" }), seatPick, posted,
    h("button", { type: "button", id: "buzz", onclick: send }, "Buzz"),
    h("button", { type: "button", id: "clear-pairs", class: "quiet",
      onclick: () => { picking.pairs = []; drawPairs(root); } }, "Clear"));
  queueMicrotask(() => drawPairs(root));
  return panel;
}

let lastOutcome = "";
function showOutcome(outcome) {
  if (!outcome) return;
  lastOutcome = outcome.pairs.map((p) =>
    `${p.target} at ${p.at}: ${p.outcome}${p.reason ? ` (${reasonText(p.reason)})` : ""}`).join(" · ");
  const node = document.getElementById("buzz-outcome");
  if (node) node.textContent = lastOutcome;
}

function drawPairs(root) {
  const list = root.querySelector("#pairs");
  if (!list) return;
  replace(list, picking.pairs.map((p) => h("li", { class: "pair" }, `${p.target} at ${p.at}`)));
}

const hasNext = (s) => s.phase !== "finished" && s.next_round && s.next_round <= s.rounds_total;

function phaseControls(s, ctx) {
  if (!ctx.live) return null;
  const controls = [];
  const between = s.phase !== "in_round";
  if (ctx.isHost && between && hasNext(s)) {
    controls.push(h("button", { type: "button", id: "start-round",
      onclick: () => ctx.act({ type: "start_round" }) }, `Start round ${s.next_round}`));
  }
  const holder = ctx.seat && ctx.seat === s.advantage;
  if ((holder || ctx.isHost) && s.advantage && between && hasNext(s) &&
      !s.priority.used && !s.priority.declared_for_next_round) {
    controls.push(h("button", { type: "button", id: "declare-priority",
      onclick: () => ctx.act({ type: "declare_priority", seat: s.advantage }) },
    `Declare Priority for round ${s.next_round} (${s.advantage})`));
  }
  return h("div", { class: "controls" }, controls);
}

function buzzList(s, ctx) {
  return h("details", { class: "buzzes", open: true },
    h("summary", {}, `Buzzes (${s.buzzes.length})`),
    h("ul", { id: "buzz-list" }, s.buzzes.map((b) => h("li", { // "#seq" is each one's number
      class: ctx.changed.hasPrefix(`state.buzzes[seq=${b.seq}]`) ? "changed" : null,
      dataset: { seq: b.seq },
    }, `#${b.seq} ${when(b.when)} ${b.seat} (round ${b.round}): `, b.pairs.map((p) =>
      `${p.target} ${p.at} ${p.outcome}${p.reason ? ` (${reasonText(p.reason)})` : ""}`).join(", ")))));
}
