"""No, Not That!: a duel of sealed simultaneous submissions (rules in the shared spec).

Modules: ``commands`` (the configuration, and what players and the host ask), ``events`` (event
types and payloads), ``decide``, ``evolve``, ``timing`` (``advance``), ``flow`` (how a step and a
round move), ``judge`` (verdicts), ``scoring``, ``view``, ``checks`` (preconditions shared by
decide and evolve), ``judging`` (the library of category and prompt rules).

Events: ``nnt.round_started``, ``nnt.acted`` (a sealed step action: one type for every action so
the public envelope does not tell which), ``nnt.revealed``, ``nnt.solved`` (sealed),
``nnt.solution_revealed``, ``nnt.challenged``, ``nnt.accepted``, ``nnt.item_used``,
``nnt.exchanged``, ``nnt.category_judged``, ``nnt.prompt_judged``. They record what was done;
verdicts and points are derived by the fold. The host settles what the program cannot judge
with ``judge_category`` (does the object of one pending question fit a host-judged category),
``judge_value`` (does a value fit, for the round) and ``judge_prompt`` (does a solution meet a
host-judged prompt); ``judge_category`` and ``judge_prompt`` name the question by its
``target_seq``, as the view lists it under ``awaiting_ruling``. Judgements recorded before
``target_seq`` existed (``{object, fits}``, ``{seat, meets}``) fold as they always did: a value
ruled on for the round, a seat's claim of the step. The dictionary is data given to
``NoNotThatGame(words)``.

Choices where the spec is silent (what a fair host would do):

* Rounds start when the host says so (``start_round``): the host posts prompt and category. Every
  step's deadline includes the configured countdown (3 s by default).
* Objects are compared in a canonical form: trimmed, inner spaces collapsed, upper-case; integer
  literals without sign noise or leading zeros. A sane object is 1-32 printable characters.
* Head Start: the object must be sane but is not checked against the category until a challenge;
  it can be used in one solution of that round only. When a solution token could be both an
  object in play and the Head Start object, the object in play is taken.
* Life Ring "no point change": the accused (or the opponent) does not gain the point either.
* Two prompt claims in one step: each solution stays sealed until both are in or the other window
  has closed; a lapsed window reveals the sealed one in the views (no event marks that instant).
  Each challenge window runs the step time from its own solution's time (spec, "Exact
  resolutions"), closing at the reveal if it has run out by then; after a host verdict on the
  prompt, from that verdict (``flow.challenge_end``).
* A challenge of a solution whose objects need host verdicts waits for all of them. A verdict
  by ``judge_category`` is on one submission (every claim about that submission, and any later
  challenge of it, reads it) for the rest of the round; a Head Start object of the same value
  is a submission of its own. ``judge_value`` rules on the value, every submission of it, for
  the rest of the round; a submission's own verdict comes first.
* Sum and product prompts need at least ``min_objects`` numbers (2 by default).
* ``use_item`` (Extra Safe, Life Ring) is allowed in any phase until the match is finished;
  ``exchange`` takes ``times`` (1 point for 2 nets each time).
* Rulings: ``adjust_score`` counts for the round (tiebreak) when it falls inside one, but never
  toward the 3 claim points; ``end_round`` ends the round at its instant; ``declare_result``
  finishes the match. ``amend`` takes ``{"verdict": "correct" | "incorrect"}`` on an
  ``nnt.acted`` invalid claim, an ``nnt.solved`` solution or an ``nnt.challenged`` challenge.
* The host may act for a seat (entering a match played elsewhere); seats only for themselves.
"""

from adjudicator.games.no_not_that.commands import Item, NoNotThatConfig, RoundConfig
from adjudicator.games.no_not_that.game import NoNotThatGame
from adjudicator.games.no_not_that.state import NoNotThatState, Phase

__all__ = ["Item", "NoNotThatConfig", "NoNotThatGame", "NoNotThatState", "Phase", "RoundConfig"]
