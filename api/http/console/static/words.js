// Words for what the service names by identifier: games, reasons, items, actions, event types
// and rulings. The one place the console turns `no_not_that`, `no_legal_move` or a
// `zoom.buzzed` payload into `No, Not That!`, `no legal move` or `alpha buzzed A at c4 — correct`.
// Pure functions of their arguments: no DOM, no requests.

const GAMES = { zoom: "Zoom", no_not_that: "No, Not That!", zombego: "Zombego" };
const ITEMS = { extra_safe: "Extra Safe", life_ring: "Life Ring", head_start: "Head Start" };
const REASONS = {
  result: "result declared",
  all_found: "every target found",
  clock: "time ran out",
  ply_cap: "move limit reached",
};
const RULING_KINDS = {
  void: "Void an event",
  amend: "Amend an outcome",
  adjust_score: "Adjust a score",
  undo: "Undo back to an event",
  end_round: "End the round",
  declare_result: "Declare the result",
  note: "Note",
};

/** "No, Not That!" for `no_not_that`; an unknown game's identifier in words. */
export const gameName = (game) => GAMES[game] || words(game);

/** "no legal move" for `no_legal_move`. */
export const reasonText = (reason) => (reason ? REASONS[reason] || words(reason) : "");

export const itemName = (item) => ITEMS[item] || words(item);

/** The ruling kinds' names for a form's choices ("Void an event" for `void`). */
export const rulingKindName = (kind) => RULING_KINDS[kind] || words(kind);

/** Underscores and dots to spaces: the last resort for an identifier nobody named. */
export function words(identifier) {
  return String(identifier ?? "").replace(/[._]+/g, " ").trim();
}

/** A whole number exactly as recorded (a BigInt from the exact reader stays exact). */
const exact = (n) => (typeof n === "bigint" ? n.toString() : String(n));

const plural = (n, one, many = `${one}s`) => `${exact(n)} ${Number(n) === 1 ? one : many}`;

/** "alpha wins (no legal move)", "draw (agreed)", or "no result". */
export function resultText(result) {
  if (!result) return "no result";
  const why = result.reason ? ` (${reasonText(result.reason)})` : "";
  return result.winner ? `${result.winner} wins${why}` : `draw${why}`;
}

function actorName(actor) {
  if (!actor) return "someone";
  if (actor.startsWith("seat:")) return actor.slice(5);
  return actor;
}

/** The outcomes the fold derived for a Zoom buzz, by target (from the host's state). */
function buzzOutcomes(state, seq) {
  const buzz = (state?.buzzes || []).find((b) => b.seq === seq);
  return Object.fromEntries((buzz?.pairs || []).map((p) => [p.target, p]));
}

function pairText(pair, outcome) {
  const verdict = outcome ? ` — ${words(outcome.outcome)}${outcome.amended ? " (amended)" : ""}` : "";
  return `${pair.target} at ${pair.at}${verdict}`;
}

const quoted = (text) => `“${text}”`;

const NNT_ACTIONS = {
  submit: (a) => `submitted ${quoted(a.object)}`,
  claim_invalid: () => "claimed the last object invalid",
  claim_prompt: () => "claimed the prompt",
  pass: () => "passed",
  head_start: () => "played Head Start (object hidden)",
};

function nntAction(action) {
  if (!action) return "acted (sealed)";
  const say = NNT_ACTIONS[action.action];
  return say ? say(action) : words(action.action);
}

/** Each event type's sentence (without the time): `(payload, event, context) => text`. */
const SENTENCES = {
  "match.created": (p) => `match created: ${gameName(p.game)}, ${p.seats.join(" vs ")}` +
    (p.advantage ? `, Advantage ${p.advantage}` : ""),
  "match.seeded": (p) => `seeded with ${exact(p.seed)}`,
  "match.closed": (p) => `host closed the match — ${resultText(p.result)}`,

  "zoom.round_started": (p) => `host started round ${p.round}` + (p.grid ?
    ` (${p.grid.length}×${p.grid[0]?.length ?? 0} grid, ${plural(Object.keys(p.targets || {}).length, "target")})` : ""),
  "zoom.buzzed": (p, e, ctx) => {
    const outcomes = buzzOutcomes(ctx.state, e.seq);
    return `${p.seat} buzzed ${p.pairs.map((pair) => pairText(pair, outcomes[pair.target])).join("; ")}`;
  },
  "zoom.priority_declared": (p) => `${p.seat} declared Priority for the next round`,

  "nnt.round_started": (p) => `host started round ${p.round}`,
  "nnt.acted": (p) => `${p.seat} ${nntAction(p)} (round ${p.round}, step ${p.step})`,
  "nnt.revealed": (p) => `round ${p.round}, step ${p.step} revealed: ` +
    Object.entries(p.actions).map(([seat, a]) => `${seat} ${nntAction(a)}`).join("; "),
  "nnt.solved": (p) => `${p.seat} sealed a solution: ${p.tokens.join(" ")}`,
  "nnt.solution_revealed": (p) => "solutions revealed: " +
    Object.entries(p.solutions).map(([seat, t]) => `${seat}: ${t.join(" ")}`).join("; "),
  "nnt.challenged": (p) => `${p.seat} challenged the solution`,
  "nnt.accepted": (p) => `${p.seat} accepted the solution`,
  "nnt.item_used": (p) => `${p.seat} used ${itemName(p.item)}`,
  "nnt.exchanged": (p) => `${p.seat} exchanged ${plural(p.times, "point")} for ${plural(2 * p.times, "safety net")}`,
  "nnt.category_judged": (p) => `host ruled ${quoted(p.object)} ${p.fits ? "fits" : "does not fit"} the category` +
    (p.target_seq ? ` (on #${p.target_seq})` : ""),
  "nnt.prompt_judged": (p) => `host ruled ${p.seat}'s solution ${p.meets ? "meets" : "does not meet"} the prompt` +
    (p.target_seq ? ` (on #${p.target_seq})` : ""),

  "zombego.placed": (p) => `${p.seat} placed a piece on ${p.cell}`,
  "zombego.zombie_placed": (p) => `${p.seat} placed a zombie on ${p.cell}`,
  "zombego.moved": (p) => `${p.seat} moved ${p.from}–${p.to}`,
  "zombego.piece_dealt": (p) => `${p.seat} was dealt a piece (hand slot ${p.slot + 1})`,
  "zombego.zombie_revealed": (p) => `the zombie on ${p.cell} is revealed` +
    (p.dealt_seq ? ` (dealt in #${p.dealt_seq})` : ""),

  "ruling.void": (p) => `host voided #${p.target_seq}: ${p.reason}`,
  "ruling.undo": (p) => `host undid everything after #${p.to_seq}: ${p.reason}`,
  "ruling.amend": (p) => `host amended #${p.target_seq} to ${amendText(p.outcome)}: ${p.reason}`,
  "ruling.adjust_score": (p) => `host ${p.delta >= 0 ? "gave" : "took"} ${plural(Math.abs(p.delta), "point")} ` +
    `${p.delta >= 0 ? "to" : "from"} ${p.seat}: ${p.reason}`,
  "ruling.end_round": (p) => `host ended the round: ${p.reason}`,
  "ruling.declare_result": (p) => `host declared ${p.winner ? `${p.winner} the winner` : "a draw"}: ${p.reason}`,
  "ruling.note": (p) => `host noted: ${p.reason}`,
};

/** What a sealed (private, not yet revealed) event of each type says. */
const SEALED = {
  "match.seeded": "the seed is committed (sealed until the match closes)",
  "nnt.acted": "acted (sealed until the step is revealed)",
  "nnt.solved": "sealed a solution",
  "zombego.piece_dealt": "was dealt a piece (sealed)",
};

function amendText(outcome) {
  if (!outcome) return "(nothing)";
  if ("verdict" in outcome) return words(outcome.verdict);
  return Object.entries(outcome).map(([k, v]) => `${k} ${words(v)}`).join(", ");
}

/**
 * One event as a sentence (without its time), e.g. `alpha buzzed A at c4 — correct`.
 * `context.state` is the host's game state (for outcomes the fold derived).
 */
export function eventSentence(event, context = {}) {
  const p = event.payload;
  if (p === null || p === undefined) {
    const sealed = SEALED[event.type] || `${words(event.type)} (sealed)`;
    return event.actor?.startsWith("seat:") ? `${actorName(event.actor)} ${sealed}` : sealed;
  }
  const say = SENTENCES[event.type];
  try {
    if (say) return say(p, event, context);
  } catch {
    // a payload of an unexpected shape: fall through to the plain words
  }
  return `${actorName(event.actor)}: ${words(event.type)}`;
}

/** Every event type this module has a sentence for (tests check the list is whole). */
export const DESCRIBED_TYPES = Object.keys(SENTENCES);
