// Zoom grids drawn as coloured cells with column letters and row numbers (the spec's symbol
// legend: R red, G green, B blue, Y yellow, K black, W white; other symbols get a stable hue).
// Every cell also carries its symbol as text, shown on request, so colour is never the only cue.

import { cellName, columnName, h } from "./dom.js";

const PALETTE = { R: "#d7263d", G: "#2e9e44", B: "#2d5fd3", Y: "#f2c12e", K: "#1b1b1b", W: "#ffffff" };
const NAMES = { R: "red", G: "green", B: "blue", Y: "yellow", K: "black", W: "white" };

export function colour(symbol) {
  if (PALETTE[symbol]) return PALETTE[symbol];
  let hash = 0;
  for (const ch of symbol) hash = (hash * 31 + ch.codePointAt(0)) % 360;
  return `hsl(${hash}, 65%, 55%)`;
}

const ink = (symbol) => (["K", "B", "R", "G"].includes(symbol) ? "#fff" : "#111");

/** Rows of symbols: a row is a string (one symbol per character) or a list of tokens. */
export const rowsOf = (grid) => grid.map((row) => (Array.isArray(row) ? row : [...row]));

/**
 * The grid as a CSS grid of cells (each placed explicitly, so outlines can overlay them); `onCell(cell)` makes cells pickable (click, or arrow keys
 * and Enter: one tab stop, roving focus); `fit` sizes the cells to the screen (console.css's
 * `.zgrid.fit`) instead of a fixed pixel size. Returns the element; overlays go in with `outline`.
 */
export function gridView(grid, { id, onCell, small = false, headers = true, fit = false } = {}) {
  const rows = rowsOf(grid);
  const columns = rows[0]?.length || 0;
  const node = h("div", {
    id, class: `zgrid${small ? " small" : ""}${fit && headers ? " fit" : ""}${onCell ? " pickable" : ""}`,
    role: onCell ? "grid" : "img",
    "aria-label": `${rows.length} by ${columns} grid`,
    style: `--columns:${columns + (headers ? 1 : 0)};--cols:${columns};--rows:${rows.length}`,
  });
  const at = (r, c) => `grid-row:${r + (headers ? 2 : 1)};grid-column:${c + (headers ? 2 : 1)}`;
  if (headers) {
    node.append(h("span", { class: "corner", style: at(-1, -1) }));
    for (let c = 0; c < columns; c++) {
      node.append(h("span", { class: "colhead", style: at(-1, c) }, columnName(c)));
    }
  }
  rows.forEach((row, r) => {
    if (headers) node.append(h("span", { class: "rowhead", style: at(r, -1) }, String(r + 1)));
    row.forEach((symbol, c) => node.append(cellNode(symbol, at(r, c), r, c, onCell, !small)));
  });
  if (onCell) roving(node, columns);
  return node;
}

function cellNode(symbol, place, r, c, onCell, named) {
  const name = cellName(r, c);
  const label = `${name} ${NAMES[symbol] || symbol}`;
  return h("span", {
    class: "cell", role: onCell ? "gridcell" : null, tabindex: onCell ? (r + c === 0 ? 0 : -1) : null,
    "aria-label": label, title: label,
    style: `${place};background:${colour(symbol)};color:${ink(symbol)}`,
    dataset: named ? { cell: name, symbol } : { symbol },
    onclick: onCell ? () => onCell(name) : null,
  }, h("span", { class: "sym" }, symbol));
}

function roving(node, columns) {
  node.addEventListener("keydown", (event) => {
    const cells = [...node.querySelectorAll(".cell")];
    const i = cells.indexOf(document.activeElement);
    if (i < 0) return;
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns }[event.key];
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      cells[i].click();
    } else if (step && cells[i + step]) {
      event.preventDefault();
      cells[i].tabIndex = -1;
      cells[i + step].tabIndex = 0;
      cells[i + step].focus();
    }
  });
}

/**
 * Outline a target's h×w cells at its top-left cell (row, column 0-based) with a caption: above
 * the box, or below it for a box in the first row (above, it would cover the column letters).
 */
export function outline(gridNode, row, column, height, width, caption, kind = "found") {
  const box = h("span", {
    class: `outline ${kind}${row === 0 ? " first-row" : ""}`,
    style: `grid-row:${row + 2} / span ${height};grid-column:${column + 2} / span ${width}`,
    title: caption,
  }, h("span", { class: "caption" }, caption));
  gridNode.append(box);
  return box;
}

/** A sample grid for the create form's preview (a fixed pseudo-random walk, not a match's). */
export function sampleGrid(rows, columns, alphabet) {
  let x = 12345;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) >>> 16; // high bits only
  return Array.from({ length: rows }, () =>
    Array.from({ length: columns }, () => alphabet[next() % alphabet.length]));
}

export function legend() {
  return h("ul", { class: "legend", "aria-label": "symbol legend" },
    Object.entries(NAMES).map(([symbol, name]) =>
      h("li", {}, h("span", { class: "swatch", style: `background:${colour(symbol)}` }),
        ` ${symbol} ${name}`)));
}
