// Zombego's pieces as pictures, after Ludii's piece artwork: a piece *is* its movement pattern,
// so each is drawn as a small grid around its own cell with the cells it designates. Leaps are
// filled squares (they jump over anything); slides are arrows to the edge (they stop at the first
// piece). Zombies have a ragged green body; a piece whose value the viewer may not see is a plain
// "?". Every picture is decorative (aria-hidden): the element holding it carries the words.

import { svg } from "./dom.js";

const OUTCOME_WORDS = {
  plain: "move",
  place: "place",
  defender_dies: "capture",
  attacker_dies: "attack fails: the attacker becomes a zombie",
  hidden: "attack (the outcome depends on the hidden defender)",
};

/** The pattern of a shown value ({name, leaps, slides}), or null for a hidden one. */
export function patternOf(view, value) {
  return value === null || value === undefined ? null : view.patterns?.[String(value)] ?? null;
}

/** "white's zombie king + alfil piece" / "black's hidden piece" (owner, zombie flag, pattern). */
export function pieceName(view, piece) {
  const pattern = patternOf(view, piece.value);
  return `${piece.owner}'s ${piece.zombie ? "zombie " : ""}${pattern ? pattern.name : "hidden"} piece`;
}

export function outcomeWords(outcome) {
  return OUTCOME_WORDS[outcome] || outcome;
}

/** A jagged outline for zombies: a star of short spikes around the body. */
function ragged(points = 18) {
  const out = [];
  for (let i = 0; i < points * 2; i++) {
    const angle = (Math.PI * i) / points;
    const r = i % 2 ? 40 : 47;
    out.push(`${(50 + r * Math.cos(angle)).toFixed(1)},${(50 + r * Math.sin(angle)).toFixed(1)}`);
  }
  return out.join(" ");
}

function body(side, zombie) {
  const cls = `body ${side}${zombie ? " zombie" : ""}`;
  return zombie ? svg("polygon", { class: cls, points: ragged() }) : svg("circle", { class: cls, cx: 50, cy: 50, r: 46 });
}

/** The grid: centre cell, leap squares and slide arrows, scaled to the pattern's reach. */
function grid(pattern) {
  const reach = Math.max(2, ...pattern.leaps.map(([dx, dy]) => Math.max(Math.abs(dx), Math.abs(dy))),
    pattern.slides.length ? 3 : 0);
  const side = 2 * reach + 1;
  const cell = 62 / side;
  const at = (d) => 50 + d * cell;
  const parts = [];
  for (let i = 0; i <= side; i++) {
    const p = 19 + i * cell;
    parts.push(svg("line", { class: "gridline", x1: p, y1: 19, x2: p, y2: 81 }),
      svg("line", { class: "gridline", x1: 19, y1: p, x2: 81, y2: p }));
  }
  const inset = cell * 0.12;
  parts.push(svg("rect", { class: "self", x: at(0) - cell / 2 + inset, y: at(0) - cell / 2 + inset,
    width: cell - 2 * inset, height: cell - 2 * inset }));
  for (const [dx, dy] of pattern.leaps) {
    parts.push(svg("rect", { class: "leap", x: at(dx) - cell / 2 + inset, y: at(-dy) - cell / 2 + inset,
      width: cell - 2 * inset, height: cell - 2 * inset }));
  }
  for (const [dx, dy] of pattern.slides) parts.push(arrow(at, dx, -dy, reach, cell));
  return parts;
}

function arrow(at, dx, dy, reach, cell) {
  const start = 0.55, end = reach + 0.35;
  const [x1, y1, x2, y2] = [at(dx * start), at(dy * start), at(dx * end), at(dy * end)];
  const len = Math.hypot(x2 - x1, y2 - y1);
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const head = cell * 0.8;
  const base = [x2 - ux * head, y2 - uy * head];
  const wing = [-uy * head * 0.6, ux * head * 0.6];
  const tip = `${x2},${y2} ${base[0] + wing[0]},${base[1] + wing[1]} ${base[0] - wing[0]},${base[1] - wing[1]}`;
  return svg("g", { class: "slide" },
    svg("line", { x1, y1, x2: base[0], y2: base[1] }),
    svg("polygon", { points: tip }));
}

/** A piece's picture: {side: "p1"|"p2"|"neutral", zombie, pattern (null: hidden)}. */
export function pieceArt({ side, zombie = false, pattern }) {
  const node = svg("svg", { class: `art ${side}${zombie ? " zombie" : ""}`, viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" },
    body(side, zombie),
    pattern ? grid(pattern) : svg("text", { class: "unknown", x: 50, y: 52, "text-anchor": "middle", "dominant-baseline": "central" }, "?"));
  return node;
}

/** The icon drawn on a destination: a dot (move), a ring with a plus (place), red corners
 * (capture), a zombie face (the attack fails), a question mark (the outcome is hidden). */
export function outcomeIcon(outcome) {
  const icon = (...parts) => svg("svg", { class: `icon ${outcome}`, viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" }, ...parts);
  if (outcome === "plain") return icon(svg("circle", { cx: 50, cy: 50, r: 16 }));
  if (outcome === "place") {
    return icon(svg("circle", { cx: 50, cy: 50, r: 22, class: "ring" }),
      svg("path", { d: "M50 36 V64 M36 50 H64", class: "stroke" }));
  }
  if (outcome === "defender_dies") {
    const corner = (x, y, sx, sy) => svg("polygon", { points: `${x},${y} ${x + sx * 30},${y} ${x},${y + sy * 30}` });
    return icon(corner(2, 2, 1, 1), corner(98, 2, -1, 1), corner(2, 98, 1, -1), corner(98, 98, -1, -1));
  }
  if (outcome === "attacker_dies") {
    return icon(svg("polygon", { points: ragged(12), class: "face", transform: "translate(50 50) scale(.5) translate(-50 -50)" }),
      svg("path", { d: "M38 42 l8 8 M46 42 l-8 8 M54 42 l8 8 M62 42 l-8 8 M40 62 H60", class: "stroke" }));
  }
  return icon(svg("circle", { cx: 50, cy: 50, r: 24, class: "ring" }),
    svg("text", { x: 50, y: 52, "text-anchor": "middle", "dominant-baseline": "central" }, "?"));
}
