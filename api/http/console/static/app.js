// Entry point: "/" is the match list, "/console/matches/{id}" a match page,
// "/console/tournaments/{id}" a tournament page.
import { renderList } from "./list.js";
import { renderMatch } from "./match.js";
import { renderTournament } from "./tournament.js";

const main = document.getElementById("main");
const path = location.pathname.match(/^\/console\/matches\/([^/]+)$/);
const tournament = location.pathname.match(/^\/console\/tournaments\/([^/]+)$/);
if (path) renderMatch(main, decodeURIComponent(path[1]));
else if (tournament) renderTournament(main, decodeURIComponent(tournament[1]));
else renderList(main);
