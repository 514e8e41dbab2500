// The match list ("/"): every match with its game, seats, status, result and verify badge,
// filters, and the operator's create form (generated from the game's config schema).

import { api, operatorToken, setOperatorToken } from "./api.js";
import { h, replace, showError } from "./dom.js";
import { schemaForm } from "./form.js";
import { gridView, sampleGrid } from "./zoomgrid.js";
import { tournamentSection } from "./tournament.js";

const EXAMPLES = {
  no_not_that: {
    rounds: [
      {
        prompt_text: "numbers that add up to 10",
        category_text: "whole numbers from 1 to 20",
        category: { kind: "integers", minimum: 1, maximum: 20 },
        prompt: { kind: "sum", target: 10 },
      },
    ],
  },
};
const SEATS = { zoom: ["alpha", "beta"], no_not_that: ["Alpha", "Beta"], zombego: ["white", "black"] };

export async function renderList(main) {
  document.getElementById("acting").textContent = "Acting as: visitor (spectator)";
  const games = await api.games();
  const table = h("div", { id: "matches" });
  const filters = filterBar(games, () => loadMatches(table, filters));
  replace(main,
    h("h1", {}, "Matches"),
    filters,
    table,
    tournamentSection(),
    createSection(games, () => loadMatches(table, filters)),
  );
  await loadMatches(table, filters);
}

function filterBar(games, reload) {
  const game = h("select", { id: "filter-game", name: "game", onchange: reload },
    h("option", { value: "" }, "every game"),
    games.map((g) => h("option", { value: g.name }, g.name)));
  const status = h("select", { id: "filter-status", name: "status", onchange: reload },
    ["", "open", "finished", "closed"].map((s) => h("option", { value: s }, s || "any status")));
  return h("form", { class: "filters", onsubmit: (e) => e.preventDefault() },
    h("label", {}, "Game ", game), h("label", {}, "Status ", status));
}

async function loadMatches(table, filters) {
  const game = filters.querySelector("#filter-game").value;
  const status = filters.querySelector("#filter-status").value;
  const rows = (await api.matches({ game, status })).filter((m) => !status || m.status === status);
  if (!rows.length) return replace(table, h("p", {}, "No matches yet."));
  const body = h("tbody", {}, rows.map(matchRow));
  replace(table, h("table", { class: "list" },
    h("thead", {}, h("tr", {}, ["Game", "Seats", "Status", "Result", "Verified", ""].map(
      (t) => h("th", { scope: "col" }, t)))),
    body));
}

function matchRow(m) {
  const result = h("td", { class: "result-cell" }, "…");
  const badge = h("td", { class: "verify" }, "…");
  fillResult(m, result);
  api.verify(m.match_id).then(
    (report) => replace(badge, h("span", { class: report.ok ? "badge ok" : "badge bad" },
      report.ok ? "✔ verified" : `✘ fails at seq ${report.first_bad_seq}`)),
    () => replace(badge, "?"));
  return h("tr", { dataset: { match: m.match_id } },
    h("td", {}, m.game),
    h("td", {}, m.seats.join(" vs ")),
    h("td", {}, m.status),
    result,
    badge,
    h("td", {}, h("a", { href: `/console/matches/${m.match_id}#role=spectator` }, "watch")));
}

async function fillResult(m, cell) {
  const result = "result" in m ? m.result : (await api.state(m.match_id)).state.result;
  replace(cell, describeResult(result));
}

export function describeResult(result) {
  if (!result) return "—";
  return result.winner ? `${result.winner} wins (${result.reason})` : `draw (${result.reason})`;
}

function createSection(games, reload) {
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const token = h("input", { id: "operator-token", type: "password", autocomplete: "off",
    value: operatorToken(), placeholder: "printed once at first start" });
  const game = h("select", { id: "create-game", name: "game" },
    games.map((g) => h("option", { value: g.name, selected: g.name === "zoom" }, g.name)));
  const seatA = h("input", { id: "seat-a", value: "alpha", pattern: "[A-Za-z0-9_\\-]{1,32}" });
  const seatB = h("input", { id: "seat-b", value: "beta", pattern: "[A-Za-z0-9_\\-]{1,32}" });
  const advantage = h("select", { id: "advantage" });
  const configSlot = h("div");
  const preview = h("div", { class: "preview" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const links = h("div", { id: "role-links" });
  let form = null;
  function seatsChanged() {
    replace(advantage, h("option", { value: "" }, "nobody"),
      [seatA.value, seatB.value].map((s) => h("option", { value: s }, s)));
  }
  function gameChanged() {
    [seatA.value, seatB.value] = SEATS[game.value] || ["alpha", "beta"];
    seatsChanged();
    form = schemaForm(byName[game.value].config_schema, EXAMPLES[game.value]);
    replace(configSlot, form.element);
    form.element.addEventListener("input", () => drawPreview(game.value, form, preview));
    drawPreview(game.value, form, preview);
  }
  async function submit(event) {
    event.preventDefault();
    showError(error, null);
    try {
      setOperatorToken(token.value.trim());
      const body = { game: game.value, seats: [seatA.value, seatB.value], config: form.value() };
      if (advantage.value) body.advantage = advantage.value;
      const made = await api.create(body);
      replace(links, roleLinks(made));
      reload();
    } catch (e) {
      showError(error, e);
    }
  }
  game.addEventListener("change", gameChanged);
  seatA.addEventListener("input", seatsChanged);
  seatB.addEventListener("input", seatsChanged);
  const element = h("section", { class: "create" },
    h("h2", {}, "New match (operator)"),
    h("form", { id: "create-form", onsubmit: submit },
      h("div", { class: "field" }, h("label", { for: "operator-token" }, "Operator token"), token),
      h("div", { class: "field" }, h("label", { for: "create-game" }, "Game"), game),
      h("div", { class: "field" }, h("label", { for: "seat-a" }, "First seat"), seatA),
      h("div", { class: "field" }, h("label", { for: "seat-b" }, "Second seat"), seatB),
      h("div", { class: "field" }, h("label", { for: "advantage" }, "Advantage"), advantage),
      configSlot, preview,
      h("button", { type: "submit" }, "Create match"), error),
    links);
  gameChanged();
  return element;
}

function drawPreview(game, form, target) {
  if (game !== "zoom") return replace(target);
  let config;
  try {
    config = form.value();
  } catch {
    return;
  }
  const rows = Math.min(config.grid_height || 16, 40);
  const columns = Math.min(config.grid_width || 16, 40);
  const alphabet = config.alphabet?.length ? config.alphabet : ["R", "G", "B", "Y", "K", "W"];
  replace(target, h("h3", {}, "Preview"),
    h("p", { class: "hint" }, `A sample ${rows}×${columns} grid in this alphabet. The match's ` +
      "own grids are drawn from its secret seed and shown when each round starts."),
    gridView(sampleGrid(rows, columns, alphabet), { id: "preview-grid", small: true }));
}

/** One link per role; the token travels in the fragment, which browsers never send. */
export function roleLinks(made) {
  const base = `${location.origin}/console/matches/${made.match_id}#`;
  const link = (role, token) => base + new URLSearchParams(token ? { role, token } : { role });
  const roles = [
    ["host", link("host", made.tokens.host)],
    ...Object.entries(made.tokens.seats).map(([seat, t]) => [`seat ${seat}`, link(`seat:${seat}`, t)]),
    ["auditor", link("auditor", made.tokens.auditor)],
    ["spectator", link("spectator")],
  ];
  return h("div", { class: "links" },
    h("h3", {}, "Role links (shown once: hand each to its person)"),
    h("ul", {}, roles.map(([name, href]) =>
      h("li", {}, h("strong", {}, `${name}: `),
        h("a", { href, target: "_blank", rel: "noopener", dataset: { role: name } }, href)))));
}
