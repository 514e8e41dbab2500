// The tournament page's calls to the service, made through api.js (the one module that calls it).
// The organizer token arrives in the URL fragment (#token=...), never in a request line; it is
// moved to this tab's sessionStorage, the fragment is cleared, and it travels only in
// "Authorization: Bearer" headers. The role links of each paired round's matches (answered
// once, by the pairing) are kept beside it, so the organizer can hand them out after a reload.

import { call } from "./api.js";

const TOKEN = (id) => `adjudicator.tournament.${id}`;
const LINKS = (id) => `adjudicator.tournament.${id}.links`;

/** Take the organizer token from the fragment into sessionStorage (then clear the fragment). */
export function adoptOrganizer(id) {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has("token")) {
    sessionStorage.setItem(TOKEN(id), params.get("token") || "");
    history.replaceState(null, "", location.pathname + location.search);
  }
}

export function organizerToken(id) {
  return sessionStorage.getItem(TOKEN(id)) || "";
}

export function forgetOrganizer(id) {
  sessionStorage.removeItem(TOKEN(id));
}

/** match id -> {role: link} of every board this tab paired. */
export function savedLinks(id) {
  try {
    return JSON.parse(sessionStorage.getItem(LINKS(id)) || "{}");
  } catch {
    return {};
  }
}

function saveLinks(id, paired) {
  const links = savedLinks(id);
  for (const board of paired.pairings || []) {
    if (board.match_id && board.links) links[board.match_id] = board.links;
  }
  sessionStorage.setItem(LINKS(id), JSON.stringify(links));
}

const path = (id, rest = "") => `/tournaments/${encodeURIComponent(id)}${rest}`;

/** The console's page of a tournament. */
export const tournamentPage = (id) => `/console${path(id)}`;

/** A tournament's player id -> name (from its summary, ``GET /tournaments/{id}``). */
export const playerNames = (tournament) =>
  Object.fromEntries(tournament.players.map((p) => [p.id, p.name]));

/** A tournament's match: seat -> its player's name (``match.tournament`` names the pairing's
 * players; the first holds the first seat). */
export function seatPlayers(match, names) {
  const [first, second] = match.seats;
  return { [first]: names[match.tournament.first], [second]: names[match.tournament.second] };
}

export const tournamentApi = {
  list: () => call("GET", "/tournaments"),
  summary: (id) => call("GET", path(id)),
  standings: (id, params) => call("GET", path(id, "/standings"), { params }),
  verify: (id) => call("GET", path(id, "/verify")),
  async pair(id) {
    const paired = await call("POST", path(id, "/rounds"), { token: organizerToken(id) });
    saveLinks(id, paired);
    return paired;
  },
  forfeit: (id, body) =>
    call("POST", path(id, "/forfeits"), { token: organizerToken(id), body }),
  withdraw: (id, body) =>
    call("POST", path(id, "/withdrawals"), { token: organizerToken(id), body }),
  conclude: (id, body) =>
    call("POST", path(id, "/conclusion"), { token: organizerToken(id), body }),
  seal: (id, body) =>
    call("POST", path(id, "/seal"), { token: organizerToken(id), body }),
};
