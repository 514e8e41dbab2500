// A form generated from a JSON schema (a game's config schema from GET /games): scalars and
// enums become inputs and selects, lists of words a comma-separated field, anything else JSON.

import { h } from "./dom.js";

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
    return { name, kind, node, row: h("div", { class: "field" }, label, node, help) };
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
