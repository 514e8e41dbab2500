// No, Not That!: prompt and category, objects in play, the step clock, "acted" markers (never
// the sealed content: the server withholds it), claims with their solution and challenge
// windows, items, safety nets and scores, and each seat's controls for the phase it is in.

import { h, replace, seatClass } from "./dom.js";
import { itemName, words } from "./words.js";

const act = { seat: null };

export function renderNnt(root, view, ctx) {
  const s = view.state;
  const seats = Object.keys(s.seats);
  act.seat = ctx.seat || (seats.includes(act.seat) ? act.seat : seats[0]);
  const round = s.round;
  const colour = (seat) => seatClass(seats, seat);
  replace(root,
    h("div", { class: "scores", id: "scores" }, seats.map((seat) => seatCard(seat, s.seats[seat], ctx, colour))),
    round ? roundView(round, s, ctx, colour) : h("p", { class: "round", id: "round-line" },
      `${s.rounds_played} of ${s.rounds} rounds played (${words(s.phase)}).`),
    ctx.live ? controls(s, ctx, seats) : null);
}

/** A seat's card: name, score, nets and items, the sealed "acted" marker, its step clock. */
function seatCard(seat, p, ctx, colour) {
  if (p.deadline) ctx.deadline(p.deadline);
  const path = `state.seats.${seat}.score`;
  return h("div", { class: `score ${colour(seat)}${ctx.changed.has(path) ? " changed" : ""}`, dataset: { seat, path } },
    h("span", { class: "seat" }, seat), h("strong", { class: "points", "aria-label": `${seat}'s points` }, String(p.score)),
    h("span", { class: "card-state" },
      h("span", { class: "nets pill" }, `nets ${p.safety_nets}`),
      p.items.length ? h("span", { class: "items pill" }, `items: ${p.items.map(itemName).join(", ")}`) : null,
      h("span", { class: `acted${p.acted ? " yes" : ""}`, dataset: { acted: String(p.acted) },
        title: p.acted ? "acted: the action is sealed until the step is revealed" : "has not acted this step" },
      p.acted ? " acted (sealed)" : " to act"),
      p.deadline ? h("span", { class: "countdown" }, "step clock ",
        h("strong", { class: "card-clock", dataset: { deadline: p.deadline } }, "")) : null,
      p.action ? h("span", { class: "own-action pill" }, ` your action: ${p.action.action}${p.action.object ? ` ${p.action.object}` : ""}`) : null));
}

function roundView(r, s, ctx, colour) {
  const deadlines = Object.values(s.seats).map((p) => p.deadline).filter(Boolean).sort();
  const windows = r.prompt_claims.flatMap((c) => [c.solution_deadline, c.challenge_deadline]).filter(Boolean).sort();
  const clockAt = deadlines[0] || windows[0];
  return h("div", { class: "nnt-round" },
    h("div", { class: "clockbar" },
      clockAt ? h("div", {}, h("span", { class: "bigclock-label" }, deadlines.length ? "step clock" : "window"),
        h("strong", { class: "bigclock", id: "step-clock", dataset: { deadline: clockAt } }, "")) : null,
      h("p", { class: "round", id: "round-line" }, `Round ${r.number} of ${s.rounds} · step ${r.step}${r.last_step ? " (last step)" : ""}${s.phase === "step" ? "" : ` · ${words(s.phase)}`}`)),
    h("div", { class: "prompt-card" },
      h("p", { class: "prompt" }, h("strong", {}, "Prompt: "), h("span", { class: "prompt-text" }, r.prompt)),
      h("p", { class: "category" }, h("strong", {}, "Category: "), r.category)),
    h("h3", {}, `Objects in play (${r.distinct_in_play})`),
    h("ul", { class: "pool chips", id: "pool" }, r.pool.map((o) => h("li", {
      class: `chip${o.removed ? " removed" : ""}`, title: `step ${o.step}, ${o.seats.join(" & ")}${o.removed ? ", removed" : ""}` },
    h("span", { class: "by" }, o.seats.map((seat) => h("span", { class: `dot ${colour(seat)}`, "aria-hidden": "true" }))),
    o.object, h("span", { class: "step-no" }, `step ${o.step}, ${o.seats.join(" & ")}${o.removed ? " — removed" : ""}`)))),
    r.invalid_claims.length ? h("ul", { id: "invalid-claims", class: "claims" }, r.invalid_claims.map((c) =>
      h("li", { class: colour(c.seat) }, `${c.seat} claims ${c.object} invalid: ${c.verdict ? words(c.verdict) : "awaiting the host"}`))) : null,
    r.prompt_claims.length ? h("ul", { id: "prompt-claims", class: "claims" }, r.prompt_claims.map((c) => claimItem(c, ctx, colour))) : null);
}

/** A prompt claim; its solution and challenge windows count down. */
function claimItem(c, ctx, colour) {
  for (const d of [c.solution_deadline, c.challenge_deadline]) if (d) ctx.deadline(d);
  return h("li", { class: `claim ${colour(c.seat)}` }, `${c.seat} claims the prompt: `,
    c.solution ? `solution ${c.solution.join(" ")}` : c.solved ? "solution sealed" : "no solution yet",
    c.verdict ? ` — ${words(c.verdict)}` : "",
    !c.solved && c.solution_deadline ? [" · solve within ", h("strong", { class: "countdown", dataset: { deadline: c.solution_deadline } })] : null,
    c.challenge_deadline && !c.challenged ? [" · challenge within ", h("strong", { class: "countdown", dataset: { deadline: c.challenge_deadline } })] : null,
    c.challenged ? ` · challenged: ${describeChallenge(c.challenge)}` : "");
}

function describeChallenge(challenge) {
  if (!challenge || typeof challenge !== "object") return words(challenge);
  return Object.entries(challenge).map(([key, value]) => `${words(key)} ${Array.isArray(value) ? value.join(" ") : words(value)}`).join(", ");
}

function controls(s, ctx, seats) {
  const parts = [];
  if (ctx.isHost) parts.push(hostControls(s, ctx, seats));
  if (ctx.seat || ctx.isHost) parts.push(seatControls(s, ctx));
  return h("div", { class: "controls", id: "nnt-controls" }, parts);
}

function hostControls(s, ctx, seats) {
  const parts = [];
  if (["waiting", "between_rounds"].includes(s.phase) && s.rounds_played < s.rounds) {
    parts.push(button("start-round", `Start round ${s.rounds_played + 1}`, () => ctx.act({ type: "start_round", round: s.rounds_played + 1 })));
  }
  // Each judgement names its question by the target_seq the state lists for it.
  for (const q of s.awaiting_ruling.category_questions || []) {
    const judge = (fits) => () => ctx.act({ type: "judge_category", target_seq: q.target_seq, fits });
    const about = q.about === "challenge"
      ? `submission seq ${q.target_seq}, challenged at seq ${q.waiting_seq}`
      : `invalid claim seq ${q.target_seq}`;
    parts.push(h("span", { class: "question", dataset: { targetSeq: String(q.target_seq) } },
      `Does ${q.object} fit (${about})? `,
      button(`judge-category-${q.target_seq}-fits`, "fits", judge(true)),
      button(`judge-category-${q.target_seq}-not`, "does not fit", judge(false))));
  }
  const questions = s.awaiting_ruling.category_questions || [];
  for (const object of s.awaiting_ruling.category || []) {
    if (questions.filter((q) => q.object === object).length < 2) continue;
    const judge = (fits) => () => ctx.act({ type: "judge_value", object, fits });
    parts.push(h("span", { class: "question" }, `Rule on ${object} for the round: `,
      button(null, "fits", judge(true)), button(null, "does not fit", judge(false))));
  }
  for (const q of s.awaiting_ruling.prompt_questions || []) {
    const judge = (meets) => () => ctx.act({ type: "judge_prompt", target_seq: q.target_seq, meets });
    parts.push(h("span", { class: "question", dataset: { targetSeq: String(q.target_seq) } },
      `${q.seat}'s solution (claim seq ${q.target_seq}) meets the prompt? `,
      button(`judge-prompt-${q.target_seq}-meets`, "meets", judge(true)),
      button(`judge-prompt-${q.target_seq}-not`, "does not", judge(false))));
  }
  parts.push(h("label", {}, " acting for seat ", h("select", { id: "act-seat", onchange: (e) => { act.seat = e.target.value; ctx.redraw?.(); } },
    seats.map((seat) => h("option", { value: seat, selected: seat === act.seat }, seat)))));
  return h("div", { class: "host-controls" }, parts);
}

function seatControls(s, ctx) {
  const seat = act.seat;
  const me = s.seats[seat];
  const send = (type, extra = {}) => ctx.act({ type, seat, ...extra });
  const parts = [];
  if (s.phase === "step" && !me.acted) parts.push(stepControls(s, me, send));
  if (s.phase === "claims") parts.push(claimControls(s, seat, send));
  if (s.phase === "between_rounds") parts.push(numberForm("exchange", "Exchange 1 point for 2 safety nets, times", (n) => send("exchange", { times: n })));
  for (const item of me.items.filter((i) => i !== "head_start")) {
    parts.push(button(`use-${item}`, `Use ${itemName(item)}`, () => send("use_item", { item })));
  }
  return h("div", { class: "seat-controls" }, h("p", { class: "hint" }, `Actions for ${seat}:`), parts);
}

function stepControls(s, me, send) {
  const r = s.round;
  const object = h("input", { id: "nnt-object", placeholder: "object", "aria-label": "object" });
  return h("form", { class: "inline", id: "step-form", onsubmit: (e) => { e.preventDefault(); send("submit", { object: object.value }); } },
    r.last_step ? null : [object, h("button", { type: "submit", id: "submit" }, "Submit (sealed)")],
    r.step > 1 ? button("claim-invalid", "Claim invalid", () => send("claim_invalid")) : null,
    button("claim-prompt", "Claim prompt", () => send("claim_prompt")),
    r.last_step ? button("pass", "Pass", () => send("pass")) : null,
    r.step === 1 && me.items.includes("head_start") ? button("head-start", "Head Start with this object", () => send("head_start", { object: object.value })) : null);
}

function claimControls(s, seat, send) {
  const claims = s.round?.prompt_claims || [];
  const parts = [];
  const mine = claims.find((c) => c.seat === seat && !c.solved);
  if (mine) {
    const tokens = h("input", { id: "nnt-solution", placeholder: "objects, space-separated", "aria-label": "solution" });
    parts.push(h("form", { class: "inline", onsubmit: (e) => { e.preventDefault(); send("solve", { tokens: tokens.value.split(/[\s,]+/).filter(Boolean) }); } },
      tokens, h("button", { type: "submit", id: "solve" }, "Send solution")));
  }
  if (claims.some((c) => c.seat !== seat && c.verdict === "correct" && !c.challenged)) {
    parts.push(button("challenge", "Challenge", () => send("challenge")), button("accept", "Accept", () => send("accept")));
  }
  return parts;
}

function numberForm(id, label, onNumber) {
  const input = h("input", { id, type: "number", min: 1, value: 1, "aria-label": label });
  return h("form", { class: "inline", onsubmit: (e) => { e.preventDefault(); onNumber(Number(input.value)); } },
    h("label", {}, `${label} `, input), h("button", { type: "submit" }, "Exchange"));
}

const button = (id, text, onclick) => h("button", { type: "button", id, onclick }, text);
