"""Legal-move generation (spec §6-§8): the first non-empty of three priority tiers.

* Tier 1: a living hand piece on an empty cell whose pattern sees no opponent piece (§6).
* Tier 2: a board piece moves by the patterns of the friendly helpers its own pattern designates,
  each anchored at the mover's origin (§7); zombie-on-zombie attacks are not generated (§8).
* Tier 3: a hand zombie, under the same placement rule, only while zombies < living (§6, §10).

Moves are listed distinct, in ascending order of (kind, a, b). Placement legality uses the symmetry
of every pattern (4.6): cell c is barred for value v exactly when c lies in ``pattern(v, e)`` of
some opponent piece at e, so one union per hand value replaces a test per cell.
"""

from __future__ import annotations

from adjudicator.games.zombego.board import Tables, cells_of, pattern
from adjudicator.games.zombego.model import MOVE, PLACE, ZOMBIE, Move, Outcome, Position


def generate(
    tables: Tables,
    cells: tuple[int, ...],
    hands: tuple[tuple[int, ...], tuple[int, ...]],
    owned: tuple[int, int],
    zombies: int,
    *,
    player: int,
) -> tuple[Move, ...]:
    """The legal moves of ``player`` (1 or 2) in the given position parts."""
    me = player - 1
    found = placements(tables, hands[me], owned, me, zombie=False)
    if found:
        return found
    found = movements(tables, cells, owned, zombies, me)
    if found:
        return found
    own = owned[me]
    if 2 * (own & zombies).bit_count() < own.bit_count():
        return placements(tables, hands[me], owned, me, zombie=True)
    return ()


def placements(
    tables: Tables, hand: tuple[int, ...], owned: tuple[int, int], me: int, *, zombie: bool
) -> tuple[Move, ...]:
    """Placements of ``me``'s own hand pieces with the given zombie flag (tier 1 or tier 3)."""
    occupied = owned[0] | owned[1]
    empty = tables.full & ~occupied
    enemies = cells_of(owned[1 - me])
    kind, flag = (ZOMBIE, 2) if zombie else (PLACE, 0)
    values = sorted({c >> 2 for c in hand if c and c & 1 == me and c & 2 == flag})
    out: list[Move] = []
    for value in values:
        geo = tables.geometry[value]
        barred = 0
        if geo.rays is None:
            for cell in enemies:
                barred |= geo.leaps[cell]
        else:
            for cell in enemies:
                barred |= pattern(geo, cell, occupied)
        out.extend(Move(kind, value, cell) for cell in cells_of(empty & ~barred))
    return tuple(out)


def destinations(
    tables: Tables, cells: tuple[int, ...], owned: tuple[int, int], zombies: int, origin: int
) -> tuple[int, list[int]]:
    """(destination mask, helper cells) of the piece at ``origin`` (7.1-7.3, §8 zombie rule)."""
    geometry = tables.geometry
    occupied = owned[0] | owned[1]
    mover = cells[origin]
    me = mover & 1
    own = owned[me]
    helpers = cells_of(pattern(geometry[mover >> 2], origin, occupied) & own)
    mask = 0
    for helper in helpers:
        mask |= pattern(geometry[cells[helper] >> 2], origin, occupied)
    mask &= ~own
    if mover & 2:
        mask &= ~(owned[1 - me] & zombies)
    return mask, helpers


def movements(
    tables: Tables, cells: tuple[int, ...], owned: tuple[int, int], zombies: int, me: int
) -> tuple[Move, ...]:
    """Tier 2: every distinct (origin, destination) of ``me``'s board pieces."""
    out: list[Move] = []
    for origin in cells_of(owned[me]):
        mask, _ = destinations(tables, cells, owned, zombies, origin)
        out.extend(Move(MOVE, origin, dest) for dest in cells_of(mask))
    return tuple(out)


def outcome(pos: Position, move: Move) -> Outcome:
    """What a legal move does (§8): placements and moves to empty cells are plain."""
    kind, origin, dest = move
    if kind != MOVE or not pos.board[dest]:
        return Outcome.PLAIN
    attacker, defender = pos.board[origin], pos.board[dest]
    if attacker & 2:
        return Outcome.DEFENDER_DIES
    if defender & 2 or covers(pos, dest, origin):
        return Outcome.ATTACKER_DIES
    return Outcome.DEFENDER_DIES


def covers(pos: Position, defender_cell: int, origin: int) -> bool:
    """``cov`` of §8: the defender's full pattern, on the pre-move board, includes the origin."""
    geo = pos.rules.tables.geometry[pos.board[defender_cell] >> 2]
    occupied = pos.owned[0] | pos.owned[1]
    return bool(pattern(geo, defender_cell, occupied) >> origin & 1)


def ludii_count(pos: Position) -> int:
    """Ludii's legal-move list size (13.2): movement counts one per (origin, helper, dest)."""
    if not pos.moves or pos.moves[0].kind != MOVE:
        return len(pos.moves)
    tables, cells, owned = pos.rules.tables, pos.board, pos.owned
    occupied = owned[0] | owned[1]
    me = pos.to_move - 1
    total = 0
    for origin in cells_of(owned[me]):
        mover = cells[origin]
        _, helpers = destinations(tables, cells, owned, pos.zombies, origin)
        barred = owned[me] | (owned[1 - me] & pos.zombies if mover & 2 else 0)
        for helper in helpers:
            geo = tables.geometry[cells[helper] >> 2]
            total += (pattern(geo, origin, occupied) & ~barred).bit_count()
    return total
