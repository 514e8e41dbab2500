// A form generated from a JSON schema (a game's config schema from GET /games): scalars and
// enums become inputs and selects, lists of words a comma-separated field, anything else JSON.
// A list of objects (No, Not That!'s rounds) gets a row editor, and Zoom's host-supplied grids
// an editor of rows of letters; each writes the JSON field under it, which is what is sent.

import { h, replace } from "./dom.js";

function resolve(schema, root) {
  if (schema.$ref) return resolve(root.$defs[schema.$ref.split("/").pop()], root);
  if (schema.anyOf) {
    const some = schema.anyOf.filter((s) => s.type !== "null");
    if (some.length === 1) return { ...resolve(some[0], root), nullable: true, ...pick(schema) };
  }
  return schema;
}

const pick = ({ default: d, description, title }) =>
  Object.fromEntries(Object.entries({ default: d, description, title }).filter(([, v]) => v !== undefined));

function kindOf(field) {
  if (field.enum) return "enum";
  if (field.type === "array" && field.items?.type === "string") return "words";
  if (["integer", "number", "string", "boolean"].includes(field.type)) return field.type;
  return "json";
}

function input(name, field, kind, example) {
  const id = `cfg-${name}`;
  const value = field.default ?? example;
  if (kind === "enum") {
    return h("select", { id, name }, field.enum.map((v) =>
      h("option", { value: JSON.stringify(v), selected: v === field.default }, String(v))));
  }
  if (kind === "boolean") return h("input", { id, name, type: "checkbox", checked: value === true });
  if (kind === "json") {
    const text = value === undefined ? "" : JSON.stringify(value, null, 1);
    return h("textarea", { id, name, rows: value === undefined ? 2 : 6, spellcheck: "false" }, text);
  }
  const type = kind === "integer" || kind === "number" ? "number" : "text";
  const step = kind === "number" ? "any" : undefined;
  const shown = kind === "words" && Array.isArray(value) ? value.join(", ") : value;
  return h("input", {
    id, name, type, step, min: field.minimum, max: field.maximum, value: shown ?? "",
    placeholder: kind === "words" ? "comma-separated" : field.nullable ? "(none)" : "",
  });
}

function read(kind, node) {
  if (kind === "boolean") return node.checked;
  const text = node.value.trim();
  if (kind === "enum") return JSON.parse(text);
  if (text === "") return undefined;
  if (kind === "integer" || kind === "number") return Number(text);
  if (kind === "words") return text.split(",").map((s) => s.trim()).filter(Boolean);
  if (kind === "json") return JSON.parse(text);
  return text;
}

/** {element, value()}: value() is the config object (empty fields left to the game's default). */
export function schemaForm(schema, examples = {}) {
  const fields = Object.entries(schema.properties || {}).map(([name, raw]) => {
    const field = resolve(raw, schema);
    const kind = kindOf(field);
    const node = input(name, field, kind, examples[name]);
    const label = h("label", { for: node.id }, field.title || name);
    const help = field.description ? h("small", {}, field.description) : null;
    const editor = kind === "json" ? editorFor(name, field, schema, node) : null;
    const row = h("div", { class: "field" }, label, editor, node, help);
    return { name, kind, node, row };
  });
  const element = h("fieldset", { class: "config" }, h("legend", {}, "Config"),
    fields.map((f) => f.row));
  function value() {
    const config = {};
    for (const { name, kind, node } of fields) {
      try {
        const v = read(kind, node);
        if (v !== undefined) config[name] = v;
      } catch {
        throw new Error(`${name}: not valid JSON`);
      }
    }
    return config;
  }
  return { element, value, fields };
}

// ---- editors over a JSON field ------------------------------------------------------------

function editorFor(name, field, root, node) {
  if (field.type === "array" && field.items?.$ref) {
    return rowsEditor(name, resolve(field.items, root), root, node);
  }
  if (name === "supplied_rounds") return gridsEditor(node);
  return null;
}

const singular = (name) => name.replace(/_/g, " ").replace(/s$/, "");

/** Rows of objects (each its own fields), written as a JSON list into `node`. */
function rowsEditor(name, item, root, node) {
  const rows = [];
  const list = h("ol", { class: "rows-editor", id: `rows-${name}` });
  const write = () => {
    node.value = JSON.stringify(rows.map((r) => r.value()), null, 1);
  };
  function add(value = {}) {
    const editor = objectEditor(item, root, value, write, `${name}-${rows.length + 1}`);
    const entry = { ...editor };
    const remove = h("button", { type: "button", class: "remove-row",
      onclick: () => { rows.splice(rows.indexOf(entry), 1); li.remove(); write(); } }, `Remove this ${singular(name)}`);
    const li = h("li", {}, editor.element, remove);
    rows.push(entry);
    list.append(li);
  }
  let initial = [];
  try {
    initial = JSON.parse(node.value || "[]");
  } catch {
    initial = [];
  }
  for (const value of Array.isArray(initial) ? initial : []) add(value);
  node.addEventListener("change", () => {
    try {
      const values = JSON.parse(node.value || "[]");
      rows.length = 0;
      list.replaceChildren();
      for (const value of values) add(value);
    } catch {
      // the JSON typed is not valid yet: the row editor keeps what it shows
    }
  });
  return h("div", { class: "rows" }, list,
    h("button", { type: "button", class: "add-row", onclick: () => { add(); write(); } }, `Add a ${singular(name)}`));
}

/** One object's fields; a `oneOf` with a discriminator is a choice of kind, then its fields. */
function objectEditor(schema, root, value, onChange, prefix) {
  const parts = Object.entries(schema.properties || {}).map(([key, raw]) => {
    const id = `${prefix}-${key}`;
    if (raw.oneOf && raw.discriminator) return unionPart(key, raw, root, value[key] || {}, onChange, id);
    const field = resolve(raw, root);
    const kind = kindOf(field);
    const node = input(key, field, kind, value[key]);
    node.id = id;
    if (kind !== "json" && value[key] !== undefined && kind !== "boolean" && kind !== "enum") {
      node.value = kind === "words" ? value[key].join(", ") : value[key];
    }
    node.addEventListener("input", onChange);
    node.addEventListener("change", onChange);
    const element = h("div", { class: "field" }, h("label", { for: id }, field.title || key), node);
    return { key, element, value: () => read(kind, node) };
  });
  function collect() {
    const out = {};
    for (const part of parts) {
      const v = part.value();
      if (v !== undefined) out[part.key] = v;
    }
    return out;
  }
  return { element: h("div", { class: "object" }, parts.map((p) => p.element)), value: collect };
}

function unionPart(key, raw, root, value, onChange, id) {
  const tag = raw.discriminator.propertyName;
  const variants = Object.entries(raw.discriminator.mapping).map(([name, ref]) =>
    [name, resolve({ $ref: ref }, root)]);
  const choose = h("select", { id }, variants.map(([name, v]) =>
    h("option", { value: name, selected: name === value[tag], title: v.description }, name)));
  const slot = h("div", { class: "variant" });
  let current = null;
  function draw(initial) {
    const schema = Object.fromEntries(variants)[choose.value];
    const rest = { ...schema, properties: Object.fromEntries(
      Object.entries(schema.properties || {}).filter(([k]) => k !== tag)) };
    current = objectEditor(rest, root, initial, onChange, id);
    replace(slot, current.element);
  }
  choose.addEventListener("change", () => { draw({}); onChange(); });
  draw(value);
  const element = h("fieldset", { class: "union" }, h("legend", {}, h("label", { for: id }, raw.title || key)), choose, slot);
  return { key, element, value: () => ({ [tag]: choose.value, ...current.value() }) };
}

/** Zoom's host-supplied rounds: per round its number, its grid pasted as rows of letters and
 * its targets (a label, then the target's rows), written as JSON into `node`. */
function gridsEditor(node) {
  const rows = [];
  const list = h("ol", { class: "rows-editor", id: "rows-supplied_rounds" });
  const write = () => {
    const out = {};
    for (const r of rows) {
      const v = r.value();
      if (v) out[v.round] = { grid: v.grid, targets: v.targets };
    }
    node.value = Object.keys(out).length ? JSON.stringify(out, null, 1) : "";
  };
  function add() {
    const n = rows.length + 1;
    const round = h("input", { id: `grid-round-${n}`, type: "number", min: 1, value: n, oninput: write });
    const grid = h("textarea", { id: `grid-rows-${n}`, rows: 6, cols: 24, spellcheck: "false",
      placeholder: "ABCD\nEFGH\nIJKL", oninput: write, class: "letters" });
    const targets = h("textarea", { id: `grid-targets-${n}`, rows: 3, cols: 24, spellcheck: "false",
      placeholder: "A: FG JK", oninput: write, class: "letters" });
    const entry = {
      value() {
        const lines = grid.value.split("\n").map((l) => l.trim()).filter(Boolean);
        if (!lines.length) return null;
        const named = {};
        for (const line of targets.value.split("\n").map((l) => l.trim()).filter(Boolean)) {
          const [label, ...body] = line.split(/[:\s]+/).filter(Boolean);
          if (label && body.length) named[label] = body;
        }
        return { round: round.value, grid: lines, targets: named };
      },
    };
    const li = h("li", {},
      h("div", { class: "field" }, h("label", { for: round.id }, "Round"), round),
      h("div", { class: "field" }, h("label", { for: grid.id }, "Grid (one row of letters a line)"), grid),
      h("div", { class: "field" }, h("label", { for: targets.id }, "Targets (a label, then its rows: A: FG JK)"), targets),
      h("button", { type: "button", class: "remove-row",
        onclick: () => { rows.splice(rows.indexOf(entry), 1); li.remove(); write(); } }, "Remove this grid"));
    rows.push(entry);
    list.append(li);
  }
  return h("div", { class: "rows" }, list,
    h("button", { type: "button", class: "add-row", onclick: add }, "Add a host-supplied grid"));
}
