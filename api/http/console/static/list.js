// The match list ("/"): every match with its game, seats, status, result and verify badge,
// filters and a search box, and the operator's create form (generated from the game's config
// schema, with row editors for No, Not That!'s rounds and Zoom's grids). Names are in words.

import { api, exactInteger, operatorToken, setOperatorToken } from "./api.js";
import { h, replace, showError } from "./dom.js";
import { schemaForm } from "./form.js";
import { gameName, resultText } from "./words.js";
import { gridView, sampleGrid } from "./zoomgrid.js";
import { tournamentSection } from "./tournament.js";
import { playerNames, seatPlayers, tournamentApi, tournamentPage } from "./tournament-api.js";

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
  const filters = filterBar(games, () => loadMatches(table, filters), () => showRows(table, filters));
  replace(main,
    h("h1", {}, "Matches"),
    filters,
    table,
    tournamentSection(),
    createSection(games, () => loadMatches(table, filters)),
  );
  await loadMatches(table, filters);
}

function filterBar(games, reload, search) {
  const game = h("select", { id: "filter-game", name: "game", onchange: reload },
    h("option", { value: "" }, "every game"),
    games.map((g) => h("option", { value: g.name }, gameName(g.name))));
  const status = h("select", { id: "filter-status", name: "status", onchange: reload },
    ["", "open", "finished", "closed"].map((s) => h("option", { value: s }, s || "any status")));
  const query = h("input", { id: "match-search", type: "search", name: "q", oninput: search,
    placeholder: "id, seat, player or game", autocomplete: "off" });
  return h("form", { class: "filters", role: "search", onsubmit: (e) => e.preventDefault() },
    h("label", {}, "Game ", game), h("label", {}, "Status ", status),
    h("label", { for: "match-search" }, "Search "), query);
}

const loaded = new WeakMap(); // the table -> the rows the service listed
let asked = 0; // the number of the latest list asked for

/** Lists the matches the filters ask for. Only the latest answer is drawn: switching two filters
 * quickly asks twice, and the first answer may arrive last. */
async function loadMatches(table, filters) {
  const game = filters.querySelector("#filter-game").value;
  const status = filters.querySelector("#filter-status").value;
  const mine = ++asked;
  const rows = (await api.matches({ game, status })).filter((m) => !status || m.status === status);
  const tournaments = await tournamentsOf(rows);
  if (mine !== asked) return;
  loaded.set(table, rows.map((m) => withPlayers(m, tournaments)));
  showRows(table, filters);
}

/** The tournaments that paired the listed matches (at most ``TOURNAMENTS_READ`` of them, each
 * read once): id -> {name, players: id -> name}; one that cannot be read is left out. */
const TOURNAMENTS_READ = 20;
async function tournamentsOf(rows) {
  const ids = [...new Set(rows.map((m) => m.tournament?.tournament_id).filter(Boolean))];
  const read = await Promise.all(ids.slice(0, TOURNAMENTS_READ).map((id) =>
    tournamentApi.summary(id).then((t) => [id, t], () => [id, null])));
  return Object.fromEntries(read.filter(([, t]) => t).map(([id, t]) =>
    [id, { name: t.name, players: playerNames(t) }]));
}

/** A tournament's match with its players' names by seat (``players``) and its tournament's
 * name, round and board (``paired``); any other match as it is. */
function withPlayers(m, tournaments) {
  const found = m.tournament && tournaments[m.tournament.tournament_id];
  if (!found) return m;
  return { ...m, players: seatPlayers(m, found.players), paired: { ...m.tournament, name: found.name } };
}

/** The search: an id prefix, a seat's name, a tournament match's player or tournament, or a
 * game's name (either spelling), any case. */
export function matchesQuery(m, query) {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const names = [...m.seats, m.game, gameName(m.game), ...Object.values(m.players || {}),
    m.paired?.name || ""].filter(Boolean).map((s) => s.toLowerCase());
  return m.match_id.toLowerCase().startsWith(q) || names.some((s) => s.includes(q));
}

function showRows(table, filters) {
  generation += 1;
  const all = loaded.get(table) || [];
  const query = filters.querySelector("#match-search").value;
  const rows = all.filter((m) => matchesQuery(m, query));
  if (!all.length) return replace(table, h("p", {}, "No matches yet."));
  if (!rows.length) return replace(table, h("p", {}, `No match fits “${query}”.`));
  replace(table, h("table", { class: "list" },
    h("thead", {}, h("tr", {}, ["Game", "Seats", "Status", "Result", "Verified", "Created", "Match", ""].map(
      (t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.map(matchRow))));
}

/** "2026-12-03 14:05" in the viewer's time zone. */
function created(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/* The rows' verify badges are asked a few at a time, and a re-render (a filter, a search, a
 * reload) drops the ones not yet asked: a list of a hundred matches no longer queues a hundred
 * re-folds at the service ahead of the next list the viewer asked for. */
const VERIFYING_AT_ONCE = 4;
const waiting = [];
let generation = 0;
let running = 0;

function queued(task) {
  return new Promise((resolve, reject) => {
    waiting.push({ task, generation, resolve, reject });
    pump();
  });
}

function pump() {
  while (running < VERIFYING_AT_ONCE && waiting.length) {
    const job = waiting.shift();
    if (job.generation !== generation) {
      job.reject(new Error("the list was redrawn"));
      continue;
    }
    running += 1;
    job.task().then(job.resolve, job.reject).finally(() => {
      running -= 1;
      pump();
    });
  }
}

function matchRow(m) {
  const result = h("td", { class: "result-cell" }, "…");
  const badge = h("td", { class: "verify" }, "…");
  fillResult(m, result);
  queued(() => api.verify(m.match_id)).then(
    (report) => replace(badge, h("span", { class: report.ok ? "badge ok" : "badge bad" },
      report.ok ? "✔ verified" : `✘ fails at seq ${report.first_bad_seq}`)),
    () => replace(badge, "?"));
  return h("tr", { dataset: { match: m.match_id } },
    h("td", {}, gameName(m.game)),
    h("td", { class: "seats" }, m.seats.map((seat) => m.players?.[seat] || seat).join(" vs "),
      m.paired ? h("small", { class: "hint paired" },
        h("a", { href: tournamentPage(m.paired.tournament_id) }, m.paired.name),
        `, round ${m.paired.round}, board ${m.paired.board}`) : null),
    h("td", {}, m.status),
    result,
    badge,
    h("td", {}, h("time", { datetime: m.created_at }, created(m.created_at))),
    h("td", { class: "short-id" }, h("code", { title: m.match_id }, m.match_id.slice(0, 8))),
    h("td", {}, h("a", { href: `/console/matches/${m.match_id}#role=spectator` }, "watch")));
}

async function fillResult(m, cell) {
  const result = "result" in m ? m.result : (await api.state(m.match_id)).state.result;
  const player = result?.winner && m.players?.[result.winner];
  replace(cell, describeResult(player ? { ...result, winner: player } : result));
}

export function describeResult(result) {
  return result ? resultText(result) : "—";
}

function createSection(games, reload) {
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const token = h("input", { id: "operator-token", type: "password", autocomplete: "off",
    value: operatorToken(), placeholder: "printed once at first start" });
  const game = h("select", { id: "create-game", name: "game" },
    games.map((g) => h("option", { value: g.name, selected: g.name === "zoom" }, gameName(g.name))));
  const seatA = h("input", { id: "seat-a", value: "alpha", pattern: "[A-Za-z0-9_\\-]{1,32}" });
  const seatB = h("input", { id: "seat-b", value: "beta", pattern: "[A-Za-z0-9_\\-]{1,32}" });
  const advantage = h("select", { id: "advantage" });
  const advantageRow = h("div", { class: "field" }, h("label", { for: "advantage" }, "Advantage"), advantage);
  const seed = h("input", { id: "seed", inputmode: "numeric", autocomplete: "off", pattern: "[0-9]{1,19}",
    placeholder: "empty: drawn at random and committed" });
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
    advantageRow.hidden = !hasAdvantage(byName[game.value]); // Zoom's Priority; not every game's
    advantageRow.style.display = advantageRow.hidden ? "none" : ""; // .field sets a display
    if (advantageRow.hidden) advantage.value = "";
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
      if (advantage.value && !advantageRow.hidden) body.advantage = advantage.value;
      if (seed.value.trim()) body.seed = readSeed(seed.value);
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
      advantageRow,
      h("div", { class: "field" }, h("label", { for: "seed" }, "Seed (optional)"), seed),
      configSlot, preview,
      h("button", { type: "submit" }, "Create match"), error),
    links);
  gameChanged();
  return element;
}

/** A game has Advantage when the holder can use it: a `declare_priority` command (GET /games). */
const hasAdvantage = (game) => Boolean(game?.commands && "declare_priority" in game.commands);

/** The seed as typed, kept exact (a BigInt beyond 2^53): whole digits below 2^63. */
function readSeed(text) {
  const digits = text.trim();
  if (!/^\d{1,19}$/.test(digits) || BigInt(digits) >= 2n ** 63n) {
    throw new Error("seed: a whole number from 0 to 9223372036854775807 (2^63 − 1)");
  }
  return exactInteger(digits);
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
