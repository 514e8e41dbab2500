// Zombego: the board with its pieces (value, owner, zombie), both hands and the side to move.
// Clicking a piece highlights its legal destinations with their outcome (from the state's own
// list of legal moves); clicking a destination plays it. Hidden values come as null and are
// drawn as "?": the server shows a value only to those who may see it.

import { h, replace } from "./dom.js";

const FILES = "abcdefghijkl";
const pick = { from: null };

/** Legal moves by their source: "hand:<slot-value>" or a board cell -> [{to, outcome, kind}]. */
function bySource(legal) {
  const map = {};
  for (const { move, outcome } of legal || []) {
    const [kind, rest, cell] = move.split(":");
    const [source, to, value] = kind === "move" ? [rest.split("-")[0], rest.split("-")[1], null]
      : [`${kind}:${rest}`, cell, Number(rest)];
    (map[source] ||= []).push({ to, outcome, kind, value });
  }
  return map;
}

export function renderZombego(root, view, ctx) {
  const s = view.state;
  const mover = s.to_move;
  const acting = ctx.live && mover && (ctx.seat === mover || ctx.isHost);
  const moves = acting ? bySource(s.legal) : {};
  const targets = pick.from ? moves[pick.from] || [] : [];
  const play = (dest) => {
    const body = dest.kind === "move" ? { type: "move", seat: mover, from: pick.from, to: dest.to }
      : { type: dest.kind === "zombie" ? "place_zombie" : "place", seat: mover, cell: dest.to, value: dest.value };
    pick.from = null;
    ctx.act(body);
  };
  const choose = (source) => {
    pick.from = pick.from === source ? null : source;
    renderZombego(root, view, ctx);
  };
  replace(root,
    h("p", { id: "to-move", class: "round" }, mover ? `To move: ${mover} (ply ${s.ply + 1})` : `Game over after ply ${s.ply}`,
      ` · ${s.options.ruleset}, ${s.options.piece_set}`),
    hand(s, s.players.P2, moves, acting && mover === s.players.P2, choose),
    board(s, moves, targets, acting, choose, play),
    hand(s, s.players.P1, moves, acting && mover === s.players.P1, choose),
    targets.length ? h("ul", { id: "destinations" }, targets.map((t) => h("li", {}, `${t.to}: ${t.outcome}`))) : null,
    h("details", { class: "history" }, h("summary", {}, `Moves (${s.history.length})`),
      h("ol", { id: "history", reversed: true }, s.history.map((p) => h("li", {}, `${p.seat}: ${p.move} (${p.outcome})`)))));
}

function pieceText(piece) {
  const value = piece.value === null ? "?" : String(piece.value);
  return piece.zombie ? `Z${value}` : value;
}

function pieceNode(piece, s) {
  const side = piece.owner === s.players.P1 ? "p1" : "p2";
  const label = `${piece.owner} ${piece.zombie ? "zombie" : "piece"} ${piece.value ?? "hidden"}`;
  return h("span", { class: `piece ${side}${piece.zombie ? " zombie" : ""}`, title: label, "aria-label": label },
    pieceText(piece));
}

function hand(s, seat, moves, mine, choose) {
  const slots = s.hands[seat] || [];
  return h("div", { class: "hand", dataset: { seat } }, h("span", { class: "seat" }, `${seat}'s hand: `),
    slots.map((piece, slot) => {
      if (!piece) return null;
      const source = `${piece.zombie ? "zombie" : "place"}:${piece.value}`;
      const usable = mine && moves[source];
      const node = pieceNode(piece, s);
      if (!usable) return h("span", { class: "slot", dataset: { slot } }, node);
      return h("button", { type: "button", class: `slot${pick.from === source ? " chosen" : ""}`,
        dataset: { slot, source }, onclick: () => choose(source) }, node);
    }));
}

function board(s, moves, targets, acting, choose, play) {
  const n = s.options.board;
  const dest = Object.fromEntries(targets.map((t) => [t.to, t]));
  const node = h("div", { class: "zboard", id: "zboard", style: `--n:${n}`, role: "grid", "aria-label": `${n} by ${n} board` });
  for (let row = n; row >= 1; row--) {
    node.append(h("span", { class: "rowhead" }, String(row)));
    for (let col = 0; col < n; col++) node.append(square(`${FILES[col]}${row}`, s, moves, dest, acting, choose, play));
  }
  node.append(h("span", { class: "corner" }));
  for (let col = 0; col < n; col++) node.append(h("span", { class: "colhead" }, FILES[col]));
  return node;
}

function square(cell, s, moves, dest, acting, choose, play) {
  const piece = s.board[cell];
  const target = dest[cell];
  const classes = ["square", target ? `dest ${target.outcome}` : "", pick.from === cell ? "chosen" : ""].join(" ");
  const content = [piece ? pieceNode(piece, s) : null, target ? h("span", { class: "outcome" }, target.outcome) : null];
  const attrs = { class: classes, dataset: { cell }, "aria-label": `${cell}${piece ? "" : " empty"}${target ? `, ${target.outcome}` : ""}` };
  if (target) return h("button", { type: "button", ...attrs, onclick: () => play(target) }, content);
  if (acting && piece && moves[cell]) return h("button", { type: "button", ...attrs, onclick: () => choose(cell) }, content);
  return h("span", attrs, content);
}
