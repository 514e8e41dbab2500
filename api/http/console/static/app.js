// Entry point: "/" is the match list, "/console/matches/{id}" a match page.
import { renderList } from "./list.js";
import { renderMatch } from "./match.js";

const main = document.getElementById("main");
const path = location.pathname.match(/^\/console\/matches\/([^/]+)$/);
if (path) renderMatch(main, decodeURIComponent(path[1]));
else renderList(main);
