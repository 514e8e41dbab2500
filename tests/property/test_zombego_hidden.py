"""The hidden variant never shows a seat (or a spectator) a value it may not see.

Random legal games are driven through ``decide``/``evolve``. After every ply, each restricted
viewer's view must be unchanged when the values hidden from that viewer are shuffled among their
pieces: so nothing in it depends on them. Public events never carry a hidden value.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.games.zombego import ZombegoGame, board
from adjudicator.games.zombego.commands import Move, Place, PlaceZombie, ZombegoCommand
from adjudicator.games.zombego.play import make
from adjudicator.games.zombego.position import MOVE, ZOMBIE, Position
from adjudicator.games.zombego.position import Move as RulesMove
from adjudicator.games.zombego.state import ZombegoState
from adjudicator.kernel.decider import Context, Fact, Role, Setup, Viewer, seat_actor
from adjudicator.kernel.payloads import plain

GAME = ZombegoGame()
SEATS = ("white", "black")
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def as_command(move: RulesMove, seat: str, n: int) -> ZombegoCommand:
    if move.kind == MOVE:
        names = board.cell_name(move.a, n), board.cell_name(move.b, n)
        return Move.model_validate({"seat": seat, "from": names[0], "to": names[1]})
    model = PlaceZombie if move.kind == ZOMBIE else Place
    return model(seat=seat, cell=board.cell_name(move.b, n), value=move.a)


def shuffled(pos: Position, player: int, rng: random.Random) -> Position:
    """``pos`` with the values of ``player``'s hidden pieces (all but board zombies) shuffled."""
    me = player - 1
    cells, hands = list(pos.board), [list(h) for h in pos.hands]
    spots = [(cells, i) for i, c in enumerate(cells) if c and c & 1 == me and not c & 2]
    spots += [(hand, i) for hand in hands for i, c in enumerate(hand) if c and c & 1 == me]
    values = [where[i] >> 2 for where, i in spots]
    rng.shuffle(values)
    for (where, i), value in zip(spots, values, strict=True):
        where[i] = value << 2 | (where[i] & 3)
    return make(pos.rules, cells, (hands[0], hands[1]), to_move=pos.to_move, ply=pos.ply,
                result=pos.result)  # fmt: skip


def assert_no_leak(state: ZombegoState, rng: random.Random) -> None:
    for viewer, hidden_players in (
        (Viewer(Role.SEAT, seat="white"), (2,)),
        (Viewer(Role.SEAT, seat="black"), (1,)),
        (Viewer(Role.SPECTATOR), (1, 2)),
        (Viewer(Role.AUDITOR, closed=False), (1, 2)),
    ):
        other = state.position
        for player in hidden_players:
            other = shuffled(other, player, rng)
        seen = GAME.view(state, viewer)
        assert seen == GAME.view(replace(state, position=other), viewer)
        for entry in seen["history"]:
            if entry["seat"] != viewer.seat and entry["move"].startswith("place:"):
                assert entry["move"].startswith("place:?:")


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    rng=st.randoms(use_true_random=False),
    n=st.sampled_from(board.BOARD_SIZES),
    piece_set=st.sampled_from(list(board.PIECE_SETS)),
    seed=st.integers(min_value=0, max_value=2**63 - 1),
)
def test_views_never_show_a_hidden_value(
    rng: random.Random, n: int, piece_set: str, seed: int
) -> None:
    config = {"board": n, "piece_set": piece_set, "ruleset": "Stratego Style with Zombies"}
    config["ply_cap"] = rng.randint(1, 120)
    state = GAME.initial(Setup(match_id="m", seats=SEATS, config=config, seed=seed))
    seq = 0
    while state.result() is None:
        seat = state.seat_of(state.position.to_move)
        move = rng.choice(state.position.moves)
        ctx = Context(actor=seat_actor(seat), now=NOW, seat=seat)
        for draft in GAME.decide(state, as_command(move, seat, n), ctx):
            public = draft.private_to is None
            assert (
                not public or "value" not in plain(draft.payload) or draft.type.endswith("revealed")
            )
            seq += 1
            state = GAME.evolve(state, Fact(seq, draft.type, ctx.actor, NOW, draft.payload))
        assert not state.voided
        assert_no_leak(state, rng)
