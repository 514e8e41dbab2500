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

from functools import cache
from itertools import compress

from adjudicator.games.zombego.board import Tables, cells_of, pattern
from adjudicator.games.zombego.position import MOVE, PLACE, ZOMBIE, Move, Outcome, Position

Row = tuple[Move, ...]
_BITS = bytes.maketrans(b"01", b"\x00\x01")


def _picked(row: Row, mask: int) -> compress[Move]:
    """The moves of ``row`` at the set bits of ``mask``, ascending: a 0/1 byte per cell, LSB
    first, from the mask's binary text, selects them in C."""
    return compress(row, bin(mask)[:1:-1].encode().translate(_BITS))


@cache
def _placement_row(n: int, kind: int, value: int) -> Row:
    """Every ``Move(kind, value, cell)`` of an nxn board, indexed by cell (made once)."""
    return tuple(Move(kind, value, cell) for cell in range(n * n))


@cache
def _movement_rows(n: int) -> tuple[Row, ...]:
    """Every ``Move(MOVE, origin, dest)`` of an nxn board, indexed by origin then dest."""
    return tuple(tuple(Move(MOVE, a, b) for b in range(n * n)) for a in range(n * n))


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
    kind, tag = (ZOMBIE, 2 | me) if zombie else (PLACE, me)
    values = sorted({c >> 2 for c in hand if c and c & 3 == tag})
    if not values:
        return ()
    occupied = owned[0] | owned[1]
    empty = tables.full & ~occupied
    enemies = cells_of(owned[1 - me])
    out: list[Move] = []
    for value in values:
        free = empty & ~_barred(tables, value, enemies, occupied)
        if free:
            out += _picked(_placement_row(tables.n, kind, value), free)
    return tuple(out)


def _barred(tables: Tables, value: int, enemies: list[int], occupied: int) -> int:
    """The cells where ``value`` may not enter: the union of its pattern at every enemy (4.6)."""
    geo = tables.geometry[value]
    barred = 0
    if geo.slides is None:
        leaps = geo.leaps
        for cell in enemies:
            barred |= leaps[cell]
    else:
        for cell in enemies:
            barred |= pattern(geo, cell, occupied)
    return barred


def destinations(
    tables: Tables, cells: tuple[int, ...], owned: tuple[int, int], zombies: int, origin: int
) -> tuple[int, list[int]]:
    """(destination mask, helper cells) of the piece at ``origin`` (7.1-7.3, §8 zombie rule)."""
    helpers = cells_of(_helper_mask(tables, cells, owned, origin))
    return _reach(tables, cells, owned, zombies, origin, helpers), helpers


def _helper_mask(
    tables: Tables, cells: tuple[int, ...], owned: tuple[int, int], origin: int
) -> int:
    """The friendly pieces that the mover's own pattern designates as its helpers (7.1)."""
    mover = cells[origin]
    geo = tables.geometry[mover >> 2]
    if geo.slides is None:
        return geo.leaps[origin] & owned[mover & 1]
    return pattern(geo, origin, owned[0] | owned[1]) & owned[mover & 1]


def _reach(
    tables: Tables,
    cells: tuple[int, ...],
    owned: tuple[int, int],
    zombies: int,
    origin: int,
    helpers: list[int],
) -> int:
    """The union of the helpers' patterns anchored at ``origin``, less what it may not enter."""
    geometry = tables.geometry
    occupied = owned[0] | owned[1]
    mask = 0
    for helper in helpers:
        geo = geometry[cells[helper] >> 2]
        mask |= geo.leaps[origin] if geo.slides is None else pattern(geo, origin, occupied)
    mover = cells[origin]
    me = mover & 1
    mask &= ~owned[me]
    if mover & 2:
        mask &= ~(owned[1 - me] & zombies)
    return mask


def movements(
    tables: Tables, cells: tuple[int, ...], owned: tuple[int, int], zombies: int, me: int
) -> tuple[Move, ...]:
    """Tier 2: every distinct (origin, destination) of ``me``'s board pieces.

    The hot loop of a play-out: :func:`destinations` inlined, bits walked lowest first.
    """
    geometry = tables.geometry
    rows = _movement_rows(tables.n)
    occupied = owned[0] | owned[1]
    own = owned[me]
    enemy_zombies = owned[1 - me] & zombies
    out: list[Move] = []
    origins = own
    while origins:
        low = origins & -origins
        origins ^= low
        origin = low.bit_length() - 1
        mover = cells[origin]
        geo = geometry[mover >> 2]
        helpers = geo.leaps[origin] if geo.slides is None else pattern(geo, origin, occupied)
        helpers &= own
        mask = 0
        while helpers:
            low = helpers & -helpers
            helpers ^= low
            geo = geometry[cells[low.bit_length() - 1] >> 2]
            mask |= geo.leaps[origin] if geo.slides is None else pattern(geo, origin, occupied)
        mask &= ~(own | enemy_zombies) if mover & 2 else ~own
        if mask:
            out += _picked(rows[origin], mask)
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
