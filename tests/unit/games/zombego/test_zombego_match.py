"""A Zombego match through the Game protocol: commands, events, fold, views, rulings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from adjudicator.games.zombego import ZombegoGame
from adjudicator.games.zombego.commands import Move, Place, PlaceZombie, ZombegoConfig
from adjudicator.games.zombego.state import ZombegoState
from adjudicator.kernel.decider import Role, Setup, Viewer
from adjudicator.kernel.errors import DomainError
from adjudicator.kernel.payloads import plain
from adjudicator.registry import GAMES
from tests.kit import Act, History, Specification, Table, act, given, recorded
from tests.support.zombego_play import command

SEATS = ("white", "black")
HOST = Viewer(Role.HOST)
GOLDEN = Path(__file__).parents[3] / "golden" / "zombego" / "zombego-golden.jsonl"


def new_table(seed: int | None = 7, **config: Any) -> Table:
    return Table(ZombegoGame(), Setup(match_id="m", seats=SEATS, config=config, seed=seed))


def given_board(*history: History, seed: int | None = 7, **config: Any) -> Specification:
    """Given a fresh match (hand orders from ``seed``), then ``history``."""
    fresh = new_table(seed, **config)
    return given(fresh.game, fresh.setup, *history)


def plies(texts: list[str], t: float = 0) -> list[Act]:
    """Ludii move strings as history, the seats alternating from white, one second apart."""
    return [ply(text, SEATS[i % 2], t + i) for i, text in enumerate(texts)]


def ply(text: str, seat: str, t: float) -> Act:
    return act(command(text, seat), seat=seat, t=t)


def play(table: Table, texts: list[str], t: float = 0) -> None:
    for i, text in enumerate(texts):
        seat = SEATS[i % 2]
        table.act(command(text, seat), seat=seat, t=t + i)


def refused(table: Table, cmd: BaseModel, seat: str | None) -> str:
    with pytest.raises(DomainError) as caught:
        table.act(cmd, seat=seat, t=100)
    return caught.value.code


def state(table: Table) -> ZombegoState:
    result: ZombegoState = table.state(1000)
    return result


def test_the_game_is_registered() -> None:
    assert isinstance(GAMES["zombego"], ZombegoGame)


def test_the_config_has_the_spec_defaults_and_refuses_unknown_keys() -> None:
    config = ZombegoConfig()
    assert (config.board, config.ruleset.value, config.ply_cap) == (6, "All Zombies", 2499)
    with pytest.raises(ValidationError):
        ZombegoConfig.model_validate({"board": 11})
    with pytest.raises(ValidationError):
        ZombegoConfig.model_validate({"colour": "red"})


def test_hand_orders_come_from_the_seed() -> None:
    def order(seed: int | None) -> list[int]:
        return [c >> 2 for c in state(new_table(seed)).opening.hands[0]]

    assert order(7) == order(7)
    assert order(7) != order(8) or order(7) != order(9)
    assert order(None) == [2, 7, 15, 25, 56, 57, 101, 106]
    assert sorted(order(7)) == order(None)


def test_a_placement_is_recorded_as_what_the_seat_did() -> None:
    slot = [c >> 2 for c in state(new_table()).opening.hands[0]].index(56)
    placed = {"seat": "white", "slot": slot, "cell": "e3", "value": 56}
    table = (
        given_board()
        .when(Place(seat="white", cell="E3", value=56), seat="white", t=1)
        .then(events=[("zombego.placed", placed)])
    )
    assert table.game.outcome(state(table), 1) == {
        "ply": 1,
        "outcome": "plain",
        "move": "place:56:e3",
    }
    view = table.game.view(state(table), HOST)
    assert view["board"]["e3"] == {"owner": "white", "zombie": False, "value": 56}
    assert view["to_move"] == "black"


def test_a_piece_may_be_named_by_slot() -> None:
    table = new_table()
    [fact] = table.act(Place(seat="white", cell="a1", slot=3), seat="white", t=1)
    assert fact.payload.slot == 3
    assert fact.payload.value == state(table).opening.hands[0][3] >> 2


@pytest.mark.parametrize(
    ("cmd", "seat", "code"),
    [
        (Place(seat="black", cell="a1", value=2), "black", "not_your_turn"),
        (Place(seat="black", cell="a1", value=2), "white", "wrong_seat"),
        (Place(seat="green", cell="a1", value=2), None, "unknown_seat"),
        (Place(seat="white", cell="z9", value=2), "white", "bad_cell"),
        (Place(seat="white", cell="a1", value=3), "white", "unknown_piece"),
        (Place(seat="white", cell="a1", slot=9), "white", "bad_slot"),
        (PlaceZombie(seat="white", cell="a1", value=2), "white", "not_in_hand"),
        (
            Move.model_validate({"seat": "white", "from": "a1", "to": "a2"}),
            "white",
            "not_your_piece",
        ),
    ],
)
def test_illegal_commands_are_refused_with_a_precise_code(
    cmd: BaseModel, seat: str | None, code: str
) -> None:
    given_board().when(cmd, seat=seat, t=100).then_refused(code)


def test_the_host_may_act_for_a_seat_and_the_commands_seat_is_authoritative() -> None:
    slot = [c >> 2 for c in state(new_table()).opening.hands[0]].index(2)
    placed = {"seat": "white", "slot": slot, "cell": "a1", "value": 2}
    table = (
        given_board()
        .when(Place(seat="white", cell="a1", value=2), seat=None, t=1)
        .then(events=[("zombego.placed", placed)])
    )
    assert table.facts[-1].actor == "host"


def test_rules_errors_surface_through_the_game() -> None:
    given_board(*plies(["place:2:c3"])).when(
        Place(seat="black", cell="c2", value=7), seat="black", t=100
    ).then_refused("cell_attacked")


def golden_games() -> list[dict[str, Any]]:
    return [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("game", golden_games(), ids=["trial0", "trial1"])
def test_a_golden_game_plays_through_the_match_and_ends_with_its_result(
    game: dict[str, Any],
) -> None:
    table = new_table()
    texts = [ply["played"] for ply in game["plies"]]
    play(table, texts[:20])
    view = table.game.view(state(table), Viewer(Role.SEAT, seat=SEATS[20 % 2]))
    golden = game["plies"][20]
    assert sorted(m["move"] for m in view["legal"]) == sorted(golden["legal"])
    play(table, texts[20:], t=20)
    final = table.game.view(state(table), HOST)
    assert final["result"] == {
        "winner": SEATS[game["result"]["winner"] - 1],
        "reason": "no_legal_move",
        "scores": {seat: final["counts"][seat]["living"] for seat in SEATS},
    }
    assert final["legal"] == [] and final["to_move"] is None
    assert refused(table, command(texts[0], "white"), "white") == "game_over"


def test_a_move_made_impossible_by_a_ruling_is_folded_as_void() -> None:
    table = new_table()
    play(table, ["place:2:c3", "place:2:f6", "place:7:a1"])
    table.record("ruling.void", {"target_seq": 2, "reason": "entered by mistake"}, t=50)
    folded = state(table)
    assert folded.voided == ((3, "not_your_turn"),)
    assert table.game.outcome(folded, 3) == {"void": True, "reason": "not_your_turn"}
    assert folded.position.ply == 1


def test_a_declared_result_prevails() -> None:
    declared = {"winner": "black", "at": "2026-01-01T12:00:05+00:00", "reason": "forfeit"}
    spec = given_board(*plies(["place:2:c3"]), recorded("ruling.declare_result", declared, t=60))
    assert state(spec.table).result() == {
        "winner": "black",
        "reason": "ruling",
        "scores": {"white": 1, "black": 0},
        "seq": 2,
    }
    late = spec.when(Place(seat="black", cell="f6", value=2), seat="black", t=100)
    late.then_refused("game_over")


def test_an_undo_refolds_to_the_position_at_its_point_and_play_goes_on_from_there() -> None:
    game = json.loads(GOLDEN.read_text().splitlines()[0])
    texts = [ply["played"] for ply in game["plies"]]
    table, replayed = new_table(seed=None), new_table(seed=None)
    play(table, texts[:12])
    play(replayed, texts[:6])
    table.record("ruling.undo", {"to_seq": 6, "reason": "moves entered twice"}, t=50)
    undone = state(table)
    assert undone.position == state(replayed).position
    assert table.folded(1000).effects.voided.keys() == set(range(7, 13))
    assert table.game.view(undone, HOST)["legal"] == table.game.view(state(replayed), HOST)["legal"]
    seat = SEATS[6 % 2]
    table.act(command(texts[6], seat), seat=seat, t=60)
    assert state(table).position.ply == undone.position.ply + 1


# hidden variant ------------------------------------------------------------------------------
HIDDEN = "Stratego Style with Zombies"


def test_the_deal_is_recorded_as_private_facts_with_the_first_command() -> None:
    table = new_table(ruleset=HIDDEN)
    drafts = table.game.decide(
        state(table), Place(seat="white", cell="e3", value=56), table.context(1, "white")
    )
    deals = [d for d in drafts if d.type == "zombego.piece_dealt"]
    assert len(deals) == 16
    assert all(d.private_to == (plain(d.payload)["seat"],) for d in deals)
    [placed] = [d for d in drafts if d.type == "zombego.placed"]
    assert placed.private_to is None and "value" not in plain(placed.payload)


def test_a_seat_sees_its_own_values_but_not_the_opponents() -> None:
    table = new_table(ruleset=HIDDEN)
    play(table, ["place:56:e3", "place:2:f5"])
    white = table.game.view(state(table), Viewer(Role.SEAT, seat="white"))
    assert white["board"]["e3"]["value"] == 56 and white["board"]["f5"]["value"] is None
    assert all(s["value"] is None for s in white["hands"]["black"] if s)
    assert {s["value"] for s in white["hands"]["white"] if s} == {2, 7, 15, 25, 57, 101, 106}
    black = table.game.view(state(table), Viewer(Role.SEAT, seat="black"))
    assert black["legal"] is None
    assert black["history"][0]["move"] == "place:?:e3"
    spectator = table.game.view(state(table), Viewer(Role.SPECTATOR))
    assert spectator["board"]["e3"]["value"] is None and spectator["legal"] is None
    assert table.game.view(state(table), HOST)["board"]["f5"]["value"] == 2


def test_a_placed_zombie_is_revealed_by_a_public_event() -> None:
    game = golden_games()[1]
    table = new_table(seed=None, ruleset=HIDDEN)
    texts = [ply["played"] for ply in game["plies"]]
    index = texts.index("zombie:57:f3")
    play(table, texts[:index])
    table.act(command(texts[index], SEATS[index % 2]), seat=SEATS[index % 2], t=index)
    revealed = table.facts[-1]
    assert revealed.type == "zombego.zombie_revealed"
    assert revealed.payload.value == 57 and revealed.payload.cell == "f3"
    deal = table.facts[revealed.payload.dealt_seq - 1]
    assert deal.type == "zombego.piece_dealt" and deal.payload.value == 57
    black = table.game.view(state(table), Viewer(Role.SEAT, seat="black"))
    assert black["board"]["f3"] == {"owner": "white", "zombie": True, "value": 57}
