// No, Not That!: prompt and category, objects in play, the step clock, "acted" markers (never
// the sealed content: the server withholds it), claims with their solution and challenge
// windows, items, safety nets and scores, and each seat's controls for the phase it is in.

import { h, replace } from "./dom.js";

const act = { seat: null };

export function renderNnt(root, view, ctx) {
  const s = view.state;
  const seats = Object.keys(s.seats);
  act.seat = ctx.seat || (seats.includes(act.seat) ? act.seat : seats[0]);
  const round = s.round;
  replace(root,
    h("div", { class: "scores", id: "scores" }, seats.map((seat) => seatCard(seat, s.seats[seat], ctx))),
    round ? roundView(round, s, ctx) : h("p", { class: "round", id: "round-line" },
      `${s.rounds_played} of ${s.rounds} rounds played (${s.phase}).`),
    ctx.live ? controls(s, ctx, seats) : null);
}

function seatCard(seat, p, ctx) {
  if (p.deadline) ctx.deadline(p.deadline);
  const path = `state.seats.${seat}.score`;
  return h("div", { class: `score${ctx.changed.has(path) ? " changed" : ""}`, dataset: { seat, path } },
    h("span", { class: "seat" }, seat), h("strong", { class: "points" }, String(p.score)),
    h("span", { class: "nets" }, ` nets ${p.safety_nets}`),
    h("span", { class: "items" }, p.items.length ? ` items: ${p.items.join(", ")}` : ""),
    h("span", { class: `acted${p.acted ? " yes" : ""}`, dataset: { acted: String(p.acted) } },
      p.acted ? " ✔ acted" : " … to act"),
    p.deadline ? h("span", {}, " step clock ", h("strong", { dataset: { deadline: p.deadline } }, "")) : null,
    p.action ? h("span", { class: "own-action" }, ` your action: ${p.action.action}${p.action.object ? ` ${p.action.object}` : ""}`) : null);
}

function roundView(r, s, ctx) {
  return h("div", { class: "nnt-round" },
    h("p", { class: "round", id: "round-line" }, `Round ${r.number} of ${s.rounds} · step ${r.step}${r.last_step ? " (last step)" : ""} · ${s.phase}`),
    h("p", { class: "prompt" }, h("strong", {}, "Prompt: "), r.prompt),
    h("p", { class: "category" }, h("strong", {}, "Category: "), r.category),
    h("h3", {}, `Objects in play (${r.distinct_in_play})`),
    h("ul", { class: "pool", id: "pool" }, r.pool.map((o) => h("li", { class: o.removed ? "removed" : null },
      `${o.object} (step ${o.step}, ${o.seats.join(" & ")})${o.removed ? " — removed" : ""}`))),
    r.invalid_claims.length ? h("ul", { id: "invalid-claims" }, r.invalid_claims.map((c) =>
      h("li", {}, `${c.seat} claims ${c.object} invalid: ${c.verdict ?? "awaiting the host"}`))) : null,
    r.prompt_claims.length ? h("ul", { id: "prompt-claims" }, r.prompt_claims.map((c) => claimItem(c, ctx))) : null);
}

function claimItem(c, ctx) {
  for (const d of [c.solution_deadline, c.challenge_deadline]) if (d) ctx.deadline(d);
  return h("li", { class: "claim" }, `${c.seat} claims the prompt: `,
    c.solution ? `solution ${c.solution.join(" ")}` : c.solved ? "solution sealed" : "no solution yet",
    c.verdict ? ` — ${c.verdict}` : "",
    !c.solved && c.solution_deadline ? [" · solve within ", h("strong", { dataset: { deadline: c.solution_deadline } })] : null,
    c.challenge_deadline && !c.challenged ? [" · challenge within ", h("strong", { dataset: { deadline: c.challenge_deadline } })] : null,
    c.challenged ? ` · challenged: ${JSON.stringify(c.challenge)}` : "");
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
    parts.push(button(`use-${item}`, `Use ${item.replace("_", " ")}`, () => send("use_item", { item })));
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
