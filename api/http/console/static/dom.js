// Tiny DOM helpers: h(tag, attrs, ...children) builds elements; text is always set as text.

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  append(node, children);
  return node;
}

export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/** Redraw root by draw() and keep what the person was typing: each text input or textarea (by
 * id) whose value differs from its default gets its value back, and the element that had the
 * focus gets it back with its caret. A redraw comes with every event of the match, and an
 * opponent's action must not empty the field a player is filling in. */
export function redrawKeepingTyped(root, draw) {
  const typed = [...root.querySelectorAll("input[id], textarea[id]")]
    .filter((n) => !["checkbox", "radio", "range"].includes(n.type) && n.value !== n.defaultValue)
    .map((n) => [n.id, n.value]);
  const active = root.contains(document.activeElement) ? document.activeElement : null;
  const caret = active?.id ? [active.id, selection(active)] : null;
  draw();
  const within = (id) => { const n = document.getElementById(id); return n && root.contains(n) ? n : null; };
  for (const [id, value] of typed) {
    const node = within(id);
    if (node && "value" in node && node.value === node.defaultValue) node.value = value;
  }
  const node = caret && within(caret[0]);
  if (!node) return;
  node.focus();
  if (caret[1]) try { node.setSelectionRange(...caret[1]); } catch { /* not a text field */ }
}

/** Forget what was typed under root (after it was sent): each text field back to its default. */
export function clearTyped(root) {
  for (const node of root.querySelectorAll("input, textarea")) {
    if (!["checkbox", "radio", "range"].includes(node.type)) node.value = node.defaultValue;
  }
}

function selection(node) {
  try {
    return node.selectionStart === null ? null : [node.selectionStart, node.selectionEnd];
  } catch {
    return null; // an input type without a caret
  }
}

/** Show an API error (or any error) in a role=alert element. */
export function showError(target, error) {
  const code = error?.code ? `${error.code}: ` : "";
  replace(target, error ? `${code}${error.message}` : "");
  target.hidden = !error;
}

/** "1:05" from milliseconds (never negative). */
export function clock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function when(iso) {
  return iso ? new Date(iso).toLocaleTimeString([], { hour12: false }) : "";
}

/** Column letters like a spreadsheet: 0 -> a, 25 -> z, 26 -> aa. */
export function columnName(index) {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(97 + ((n - 1) % 26)) + name;
  }
  return name;
}

export function cellName(row, column) {
  return `${columnName(column)}${row + 1}`;
}

/** "m:ss" of game time since the match's start (ms), for the plot's time axis. */
export function mmss(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The class of a seat's colour (seat-1 … seat-4): its place in the match's seat list. */
export function seatClass(seats, seat) {
  const index = seats.indexOf(seat);
  return index < 0 ? "" : `seat-${(index % 4) + 1}`;
}
