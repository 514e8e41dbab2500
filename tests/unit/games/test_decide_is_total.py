"""Every game's ``decide`` handles every command of its union.

``mypy --strict`` proves it statically (each ``decide`` ends in ``assert_never``, and the
annotations below check each game against ``Game[its state, its command union]``); these tests
check at run time that the union, the API's ``command_models`` and ``decide`` agree: every
command, decided against a fresh match, is recorded or refused with a stable code, never
unhandled."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from pydantic import BaseModel

from adjudicator.games.no_not_that import NoNotThatGame, NoNotThatState
from adjudicator.games.no_not_that.commands import NoNotThatCommand
from adjudicator.games.zombego import ZombegoGame
from adjudicator.games.zombego.commands import ZombegoCommand
from adjudicator.games.zombego.state import ZombegoState
from adjudicator.games.zoom import ZoomGame
from adjudicator.games.zoom.commands import ZoomCommand
from adjudicator.games.zoom.state import ZoomState
from adjudicator.kernel.decider import HOST, Context, Game, Setup
from adjudicator.kernel.errors import DomainError
from tests.kit import T0
from tests.support.nnt_harness import WORDS, make_config

ZOOM: Game[ZoomState, ZoomCommand] = ZoomGame()
NNT: Game[NoNotThatState, NoNotThatCommand] = NoNotThatGame(WORDS)
ZOMBEGO: Game[ZombegoState, ZombegoCommand] = ZombegoGame()

CASES: list[tuple[Game[Any, Any], object, Setup, dict[str, dict[str, Any]]]] = [
    (
        ZOOM,
        ZoomCommand,
        Setup("m", ("alpha", "beta"), {"rounds": 2}, advantage="beta", seed=7),
        {
            "start_round": {},
            "buzz": {"seat": "alpha", "pairs": [{"target": "A", "at": "a1"}]},
            "declare_priority": {"seat": "beta"},
        },
    ),
    (
        NNT,
        NoNotThatCommand,
        Setup("m", ("Alpha", "Beta"), make_config(items={"Alpha": ["extra_safe"]})),
        {
            "submit": {"seat": "Alpha", "object": "Q"},
            "claim_invalid": {"seat": "Alpha"},
            "claim_prompt": {"seat": "Alpha"},
            "pass": {"seat": "Alpha"},
            "head_start": {"seat": "Alpha", "object": "Q"},
            "solve": {"seat": "Alpha", "tokens": ["Q"]},
            "challenge": {"seat": "Alpha"},
            "accept": {"seat": "Alpha"},
            "use_item": {"seat": "Alpha", "item": "extra_safe"},
            "exchange": {"seat": "Alpha"},
            "start_round": {},
            "judge_category": {"target_seq": 3, "fits": True},
            "judge_value": {"object": "Q", "fits": True},
            "judge_prompt": {"target_seq": 3, "meets": True},
        },
    ),
    (
        ZOMBEGO,
        ZombegoCommand,
        Setup("m", ("white", "black"), {}, seed=7),
        {
            "place": {"seat": "white", "cell": "a1", "value": 2},
            "place_zombie": {"seat": "white", "cell": "a1", "value": 2},
            "move": {"seat": "white", "from": "a1", "to": "a2"},
        },
    ),
]
IDS = [game.name for game, *_ in CASES]


@pytest.mark.parametrize(("game", "union", "setup", "samples"), CASES, ids=IDS)
def test_the_command_models_are_the_command_union(
    game: Game[Any, Any], union: object, setup: Setup, samples: dict[str, dict[str, Any]]
) -> None:
    assert list(game.command_models.values()) == list(get_args(union))
    assert set(samples) == set(game.command_models)


@pytest.mark.parametrize(("game", "union", "setup", "samples"), CASES, ids=IDS)
def test_every_command_is_decided_or_refused_with_a_code(
    game: Game[Any, Any], union: object, setup: Setup, samples: dict[str, dict[str, Any]]
) -> None:
    state = game.initial(setup)
    ctx = Context(actor=HOST, now=T0)
    for kind, model in game.command_models.items():
        command: BaseModel = model.model_validate({"type": kind, **samples[kind]})
        try:
            drafts = game.decide(state, command, ctx)
        except DomainError as refused:
            assert refused.code, kind
        else:
            assert drafts, kind
