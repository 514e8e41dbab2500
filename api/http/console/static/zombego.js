// Zombego as a player sees it: each piece drawn as its movement pattern (zombego-pieces.js), the
// two seats' hands and counts, the board, a legend of the piece set and the move list in Ludii
// notation. Choosing a piece (or a hand piece) shows its helpers on the board and its
// destinations, each with the icon of its outcome, from the state's own list of legal moves;
// choosing a destination plays it. The page decides no rule: hidden values come as null and are
// drawn as "?", and the helpers and outcomes are the service's.

import { h, replace } from "./dom.js";
import { outcomeIcon, outcomeWords, patternOf, pieceArt, pieceName } from "./zombego-pieces.js";

const FILES = "abcdefghijkl";
const pick = { from: null };

/** Legal moves by their source: "place:<value>", "zombie:<value>" or a board cell. */
function bySource(legal) {
  const map = {};
  for (const { move, outcome } of legal || []) {
    const [kind, rest, cell] = move.split(":");
    const entry = kind === "move" ? { source: rest.split("-")[0], to: rest.split("-")[1], value: null }
      : { source: `${kind}:${rest}`, to: cell, value: Number(rest) };
    (map[entry.source] ||= []).push({ ...entry, kind, outcome: kind === "move" ? outcome : "place" });
  }
  return map;
}

const sideOf = (s, seat) => (seat === s.players.P1 ? "p1" : "p2");

export function renderZombego(root, view, ctx) {
  const s = view.state;
  const mover = s.to_move;
  const acting = ctx.live && mover && (ctx.seat === mover || ctx.isHost);
  const moves = acting ? bySource(s.legal) : {};
  if (pick.from && !moves[pick.from]) pick.from = null;
  const targets = pick.from ? moves[pick.from] : [];
  const ui = {
    s, moves, acting, targets,
    dest: Object.fromEntries(targets.map((t) => [t.to, t])),
    helpers: new Set(pick.from && s.helpers ? s.helpers[pick.from] || [] : []),
    last: lastCells(s),
    choose: (source) => {
      pick.from = pick.from === source ? null : source;
      renderZombego(root, view, ctx);
      root.querySelector(`[data-source="${source}"], .square[data-cell="${source}"]`)?.focus(); // keyboard stays put
    },
    play: (dest) => {
      const body = dest.kind === "move" ? { type: "move", seat: mover, from: dest.source, to: dest.to }
        : { type: dest.kind === "zombie" ? "place_zombie" : "place", seat: mover, cell: dest.to, value: dest.value };
      pick.from = null;
      ctx.act(body);
    },
  };
  replace(root, h("div", { class: "zombego" },
    h("div", { class: "zombego-play" },
      status(s),
      player(ui, s.players.P2),
      board(ui),
      player(ui, s.players.P1),
      selection(ui)),
    h("aside", { class: "zombego-side" }, moveList(s), legend(s))));
}

const REASONS = {
  no_legal_move: (loser) => `${loser} has no legal move`,
  zombie_majority: (loser) => `${loser} has more zombies than living pieces on the board`,
  ply_cap: () => "the game reached its length cap",
};

/** "white wins: black has no legal move" (the result in words). */
function resultWords(s) {
  const r = s.result;
  if (!r) return "";
  const loser = r.winner === s.players.P1 ? s.players.P2 : s.players.P1;
  const why = (REASONS[r.reason] || (() => r.reason.replaceAll("_", " ")))(loser);
  return r.winner ? `${r.winner} wins: ${why}` : `a draw: ${why}`;
}

/** The cells of the last ply (its origin and destination, or the placed cell), to mark them. */
function lastCells(s) {
  const move = s.history?.[0]?.move || "";
  return new Set(move.startsWith("move:") ? move.slice(5).split("-") : move ? [move.split(":")[2]] : []);
}

function status(s) {
  const mover = s.to_move;
  const text = mover ? `To move: ${mover}` : `Game over after ply ${s.ply}${s.result ? ` — ${resultWords(s)}` : ""}`;
  return h("p", { id: "to-move", class: `zturn ${mover ? sideOf(s, mover) : ""}`, role: "status" },
    h("strong", {}, text), mover ? ` · ply ${s.ply + 1}` : "",
    h("span", { class: "meta" }, ` · ${s.options.board}×${s.options.board}, ${s.options.ruleset}`));
}

/** A seat's card: name and colour, board counts, whose turn, and the hand's pieces. */
function player(ui, seat) {
  const { s } = ui;
  const counts = s.counts[seat] || { living: 0, zombies: 0 };
  const turn = s.to_move === seat;
  return h("section", { class: `player-card ${sideOf(s, seat)}${turn ? " turn" : ""}`, "aria-label": `${seat}'s side` },
    h("div", { class: "player-head" },
      h("span", { class: `seat-dot ${sideOf(s, seat)}`, "aria-hidden": "true" }),
      h("strong", { class: "seat-name" }, seat),
      turn ? h("span", { class: "to-move-badge" }, "to move") : null,
      h("span", { class: "counts" }, `${counts.living} living · ${counts.zombies} ${counts.zombies === 1 ? "zombie" : "zombies"} on the board`)),
    hand(ui, seat));
}

function hand(ui, seat) {
  const { s, moves, acting } = ui;
  const mine = acting && s.to_move === seat;
  const slots = (s.hands[seat] || []).map((piece, slot) => [piece, slot]).filter(([piece]) => piece);
  return h("div", { class: "hand", dataset: { seat }, role: "group", "aria-label": `${seat}'s hand` },
    slots.length ? null : h("span", { class: "meta" }, "hand empty"),
    slots.map(([piece, slot]) => {
      const source = `${piece.zombie ? "zombie" : "place"}:${piece.value}`;
      const label = `${pieceName(s, piece)} in hand${piece.value === null ? ` (slot ${slot + 1})` : ""}`;
      const art = pieceArt({ side: sideOf(s, piece.owner), zombie: piece.zombie, pattern: patternOf(s, piece.value) });
      if (!(mine && moves[source])) return h("span", { class: "slot", role: "img", "aria-label": label, title: label }, art);
      const chosen = pick.from === source;
      return h("button", { type: "button", class: `slot usable${chosen ? " chosen" : ""}`, "aria-label": label, dataset: { source },
        "aria-pressed": chosen ? "true" : "false", title: label, onclick: () => ui.choose(source) }, art);
    }));
}

function board(ui) {
  const n = ui.s.options.board;
  const node = h("div", { class: "zboard", id: "zboard", style: `--n:${n}`, role: "group", "aria-label": `${n} by ${n} board` });
  for (let row = n; row >= 1; row--) {
    node.append(h("span", { class: "rowhead", "aria-hidden": "true" }, String(row)));
    for (let col = 0; col < n; col++) node.append(square(ui, `${FILES[col]}${row}`, (row + col) % 2 === 1));
  }
  node.append(h("span", { class: "corner" }));
  for (let col = 0; col < n; col++) node.append(h("span", { class: "colhead", "aria-hidden": "true" }, FILES[col]));
  return node;
}

/** What a destination does, in words: "move to c4", "capture black's knight piece at d3". */
function destinationLabel(ui, target, piece, cell) {
  const defender = piece ? `${pieceName(ui.s, piece)} at ${cell}` : cell;
  if (target.outcome === "place") return `place on ${cell}`;
  if (target.outcome === "plain") return `move to ${cell}`;
  if (target.outcome === "defender_dies") return `capture ${defender}`;
  if (target.outcome === "attacker_dies") return `attack ${defender}: the attacker becomes a zombie`;
  return `attack ${defender}: the outcome depends on its hidden pattern`;
}

function square(ui, cell, dark) {
  const { s, dest, helpers } = ui;
  const piece = s.board[cell];
  const target = dest[cell];
  const helper = helpers.has(cell);
  const chosen = pick.from === cell;
  const classes = ["square", target ? `dest ${target.outcome}` : "", helper ? "helper" : "", chosen ? "chosen" : "",
    dark ? "dark" : "light", ui.last.has(cell) ? "last" : ""].filter(Boolean).join(" ");
  const content = [
    piece ? pieceArt({ side: sideOf(s, piece.owner), zombie: piece.zombie, pattern: patternOf(s, piece.value) }) : null,
    target ? outcomeIcon(target.outcome) : null,
    helper ? h("span", { class: "helper-mark", "aria-hidden": "true" }) : null,
  ];
  const named = piece ? `${pieceName(s, piece)} at ${cell}` : `${cell}, empty`;
  const attrs = { class: classes, dataset: { cell }, title: target ? destinationLabel(ui, target, piece, cell) : named };
  if (target) return h("button", { type: "button", ...attrs, "aria-label": destinationLabel(ui, target, piece, cell), onclick: () => ui.play(target) }, content);
  const label = `${named}${helper ? ", helper" : ""}${chosen ? ", chosen" : ""}`;
  if (ui.acting && piece && ui.moves[cell]) {
    return h("button", { type: "button", ...attrs, "aria-label": label, "aria-pressed": chosen ? "true" : "false",
      onclick: () => ui.choose(cell) }, content);
  }
  return h("span", { ...attrs, role: "img", "aria-label": label }, content);
}

/** The chosen piece, its helpers and what its destinations do, in words. */
function selection(ui) {
  const { s, targets } = ui;
  const node = h("div", { id: "selection", class: "selection", "aria-live": "polite" });
  if (!pick.from) {
    const hint = ui.acting ? "Choose a piece to see where it may go." : s.to_move ? `Waiting for ${s.to_move}.` : "";
    return replace(node, h("p", { class: "meta" }, hint));
  }
  const onBoard = s.board[pick.from];
  const [kind, value] = pick.from.split(":");
  const piece = onBoard || { owner: s.to_move, zombie: kind === "zombie", value: Number(value) };
  const where = onBoard ? `at ${pick.from}` : "in hand";
  const counts = {};
  for (const t of targets) counts[t.outcome] = (counts[t.outcome] || 0) + 1;
  const summary = Object.entries(counts).map(([o, k]) => counted(o, k)).join(", ");
  const helperText = onBoard ? [...ui.helpers].map((cell) => `${cell} (${patternOf(s, s.board[cell]?.value)?.name || "?"})`) : [];
  return replace(node,
    h("div", { class: "chosen-art" }, pieceArt({ side: sideOf(s, piece.owner), zombie: piece.zombie, pattern: patternOf(s, piece.value) })),
    h("div", {},
      h("p", {}, h("strong", {}, `${pieceName(s, piece)} ${where}`)),
      onBoard ? h("p", { id: "helpers" }, `Moves with the help of ${helperText.join(", ")}, by their patterns from ${pick.from}.`) : null,
      h("p", { id: "destinations" }, `${summary}.`),
      h("button", { type: "button", class: "quiet", onclick: () => ui.choose(pick.from) }, "Cancel")));
}

const COUNTED = {
  place: ["cell to place it on", "cells to place it on"],
  plain: ["move", "moves"],
  defender_dies: ["capture", "captures"],
  attacker_dies: ["failed attack (the attacker becomes a zombie)", "failed attacks (the attacker becomes a zombie)"],
  hidden: ["attack with a hidden outcome", "attacks with a hidden outcome"],
};

/** "3 moves", "1 capture" (the destinations of the chosen piece, by outcome). */
function counted(outcome, k) {
  const [one, many] = COUNTED[outcome] || [outcomeWords(outcome), outcomeWords(outcome)];
  return `${k} ${k === 1 ? one : many}`;
}

const RESULT_WORDS = {
  plain: "",
  defender_dies: "captures: the defender becomes a zombie",
  attacker_dies: "fails: the attacker becomes a zombie",
};

/** The moves in the README's (Ludii's) notation, oldest first; voided ones struck through. */
function moveList(s) {
  const voided = new Set((s.voided || []).map((v) => v.seq));
  const plies = [...s.history].reverse();
  return h("section", { class: "moves", "aria-label": "moves" },
    h("h3", {}, `Moves (${plies.length})`),
    h("p", { class: "meta" }, "place:value:cell, zombie:value:cell, move:from-to"),
    h("ol", { id: "history" }, plies.map((p) => h("li", { class: `${sideOf(s, p.seat)}${voided.has(p.seq) ? " voided" : ""}`, value: p.ply },
      h("span", { class: "seat-name" }, p.seat), " ", h("code", {}, p.move),
      RESULT_WORDS[p.outcome] ? h("span", { class: `outcome-words ${p.outcome}` }, ` ${RESULT_WORDS[p.outcome]}`) : null,
      voided.has(p.seq) ? h("span", { class: "meta" }, " (voided)") : null))));
}

/** The piece set (each value drawn with its pattern and name) and the keys to the pictures. */
function legend(s) {
  const values = Object.keys(s.patterns || {}).map(Number).sort((a, b) => a - b);
  const key = (art, text) => h("li", {}, art, h("span", {}, text));
  return h("section", { id: "legend", class: "zlegend", "aria-label": "legend" },
    h("h3", {}, `Piece set: ${s.options.piece_set}`),
    h("p", { class: "meta" }, "Each player has one of each. A piece moves only with a friendly helper that its own pattern points at, by the helper's pattern from its own cell."),
    h("ul", { class: "piece-set" }, values.map((v) => {
      const pattern = s.patterns[String(v)];
      return h("li", { "aria-label": `${pattern.name}, value ${v}` },
        pieceArt({ side: "neutral", pattern }), h("span", {}, h("span", { class: "name" }, pattern.name), h("br"), h("span", { class: "meta" }, `value ${v}`)));
    })),
    h("h3", {}, "Key"),
    h("ul", { class: "keys" },
      key(pieceArt({ side: "neutral", pattern: { leaps: [[1, 2], [-1, -2], [2, -1], [-2, 1]], slides: [] } }), "filled squares: leaps, over anything"),
      key(pieceArt({ side: "neutral", pattern: { leaps: [], slides: [[1, 0], [-1, 0]] } }), "arrows: slides, to the first piece in the way"),
      key(pieceArt({ side: "p1", zombie: true, pattern: { leaps: [[1, 1], [-1, -1], [1, -1], [-1, 1]], slides: [] } }), "ragged green: a zombie"),
      key(pieceArt({ side: "p2", pattern: null }), "?: a piece you may not see"),
      key(outcomeIcon("place"), "place here"),
      key(outcomeIcon("plain"), "move here"),
      key(outcomeIcon("defender_dies"), "capture"),
      key(outcomeIcon("attacker_dies"), "the attack fails: the attacker becomes a zombie"),
      key(h("span", { class: "helper-key", "aria-hidden": "true" }), "a helper of the chosen piece"),
      key(h("span", { class: "last-key", "aria-hidden": "true" }), "the last move's cells")));
}
