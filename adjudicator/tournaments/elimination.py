"""Single and double elimination brackets, replayed from the recorded rounds.

The field is padded to the next power of two, P = 2^k, and seeded in the standard order
(1 v P, then so that seeds 1 and 2 can meet only in the final: 1, P, P/2, P/2+1, ...); the
missing seeds are byes, so the top seeds get them. A slot holds a player or nobody (``None``):
a match with one player is a bye for that player, a match with none gives nobody.

Single elimination: winners' stage s is tournament round s.

Double elimination: winners' stage s (1..k) is round s; losers' stage j (1..2k-2) is round
j + 1; the grand final is round 2k and its reset, when the losers' side wins it, round 2k + 1.
Losers' stage 1 pairs the losers of winners' stage 1; an even stage 2m pairs the winners of
stage 2m-1 with the losers of winners' stage m+1 (in reversed order when m is odd, so early
opponents do not meet again at once); an odd stage 2m+1 pairs the winners of stage 2m.
With k = 1 (two players) the loser of the final is the losers' champion.

A withdrawn player is nobody in every match paired after the withdrawal (the opponent has a
bye, which is the withdrawn player's loss by walkover; two withdrawn players who would meet
give nobody, and the recorded round that left them out is replayed so). The first seat goes
by :mod:`adjudicator.tournaments.seats`, as in a Swiss.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from adjudicator.tournaments import seats
from adjudicator.tournaments.model import (
    Bracket,
    BracketMatch,
    Pairing,
    Player,
    Round,
    TournamentError,
)
from adjudicator.tournaments.records import Game

Slot = str | None


@dataclass(frozen=True, slots=True)
class Match:
    bracket: Bracket
    stage: int
    a: Slot
    b: Slot


def seed_order(size: int) -> list[int]:
    """Seeds in bracket order for a bracket of ``size`` (a power of two)."""
    order = [1]
    while len(order) < size:
        m = 2 * len(order)
        order = [s for seed in order for s in (seed, m + 1 - seed)]
    return order


def levels(n_players: int) -> int:
    """k: the winners' bracket has 2^k slots."""
    return max(1, (n_players - 1).bit_length())


@dataclass
class Replay:
    """The bracket as far as the recorded rounds take it."""

    matches: list[list[Match]]  # per tournament round
    winners: list[list[Slot]]  # per tournament round, per match (None: unplayed or nobody)
    champion: str | None
    next_matches: list[Match] | None  # None: nothing more to pair
    unfinished: bool = False  # a recorded round still has a match without a winner
    walkovers: dict[str, int] = field(default_factory=dict)
    """The players of a match that a recorded round has not paired, both withdrawn before it,
    and that round: nobody went on from it. (A withdrawn player whose opponent is still in
    loses that match by walkover, the opponent's bye: a loss, not listed here.)"""


def replay(
    double: bool, players: Sequence[Player], rounds: Sequence[Round], withdrawn: frozenset[str]
) -> Replay:
    k = levels(len(players))
    by_seed = {p.seed: p.id for p in players}
    wb: list[Slot] = [by_seed.get(s) for s in seed_order(2**k)]
    lb: list[Slot] = []
    wb_losers: list[list[Slot]] = []
    out = Replay([], [], None, None)
    gf: tuple[Slot, Slot] | None = None
    for t in range(1, 2 * k + 2 if double else k + 1):
        done = t <= len(rounds)
        gone = _gone(withdrawn, rounds[t - 1]) if done else withdrawn
        slots: list[tuple[Bracket, int, Slot, Slot]] = []
        if t <= k:
            slots += [(Bracket.WINNERS, t, wb[i], wb[i + 1]) for i in range(0, len(wb), 2)]
        j = t - 1
        if double and 1 <= j <= 2 * k - 2:
            slots += [(Bracket.LOSERS, j, a, b) for a, b in _losers_pairs(j, lb, wb_losers)]
        if double and t == 2 * k and gf is not None:
            slots.append((Bracket.GRAND_FINAL, 1, *gf))
        if double and t == 2 * k + 1:
            if gf is None or out.champion is not None:
                break
            slots.append((Bracket.GRAND_FINAL_RESET, 1, *gf))
        if not done:
            out.next_matches = [Match(b, st, _x(x, gone), _x(y, gone)) for b, st, x, y in slots]
            return out
        matches = [_replayed(b, stage, x, y, gone, t, out) for b, stage, x, y in slots]
        played = _as_paired_on(rounds, t)
        won = [_winner(m, played) for m in matches]
        out.matches.append(matches)
        out.winners.append(won)
        if any(w is None and (m.a or m.b) for m, w in zip(matches, won, strict=True)):
            out.unfinished = True
            return out
        wb, lb, wb_losers, gf = _advance(double, k, t, matches, won, wb, lb, wb_losers, gf, out)
        if out.champion is not None:
            return out
    return out


def _as_paired_on(rounds: Sequence[Round], t: int) -> Round:
    """Recorded round ``t`` with the results the round after it was paired on, when that one
    is recorded and says: who went on from ``t`` is who played on, and a result changed since
    is that round's stale pairing (``projections.tournaments.stale_pairings``), not another
    bracket (the recorded rounds would no longer be the bracket's: ``bad_round``)."""
    rnd = rounds[t - 1]
    paired_on = rounds[t].paired_on if t < len(rounds) else None
    then = {b: r for (n, b), r in (paired_on or {}).items() if n == t}
    if not then:  # not recorded with the pairing: the results as they are
        return rnd
    return replace(rnd, results={b: r for b, r in then.items() if r is not None})


def _replayed(
    bracket: Bracket, stage: int, x: Slot, y: Slot, gone: frozenset[str], t: int, out: Replay
) -> Match:
    """A recorded round's match of ``x`` and ``y``: nobody's when both are ``gone`` (withdrawn
    before the round was paired, which left them out; noted in ``out.walkovers``)."""
    if x is not None and y is not None and x in gone and y in gone:
        out.walkovers.update({x: t, y: t})
        return Match(bracket, stage, None, None)
    return Match(bracket, stage, x, y)


def _gone(withdrawn: frozenset[str], paired: Round) -> frozenset[str]:
    """The withdrawn players a recorded round was paired without (each withdrawn before it
    was paired): those it does not name. A player withdrawn later is in it, to play or forfeit.
    A match of two of them gives nobody; one of them against a player still in is that
    player's bye, which ``_winner`` reads from the round (the withdrawn one loses it)."""
    named = {x for p in paired.pairings for x in (p.first, p.second) if x is not None}
    return withdrawn - named


def _x(slot: Slot, gone: frozenset[str]) -> Slot:
    return None if slot in gone else slot


def _losers_pairs(j: int, lb: list[Slot], wb_losers: list[list[Slot]]) -> list[tuple[Slot, Slot]]:
    if j == 1:
        first = wb_losers[0]
        return [(first[i], first[i + 1]) for i in range(0, len(first), 2)]
    if j % 2 == 0:
        m = j // 2
        dropped = list(reversed(wb_losers[m])) if m % 2 else list(wb_losers[m])
        return list(zip(lb, dropped, strict=True))
    return [(lb[i], lb[i + 1]) for i in range(0, len(lb), 2)]


def _winner(m: Match, rnd: Round) -> Slot:
    """The player who goes on from ``m`` (``None``: nobody, or not decided yet)."""
    if m.a is None or m.b is None:
        return m.a if m.b is None else m.b
    for p in rnd.pairings:
        if {p.first, p.second} == {m.a, m.b}:
            result = rnd.results.get(p.board)
            return None if result is None else result.winner
        if p.second is None and p.first in (m.a, m.b):
            return p.first  # the other was withdrawn when this round was paired
    raise TournamentError("bad_round", f"round {rnd.number} does not pair {m.a!r} with {m.b!r}")


def _loser(m: Match, winner: Slot) -> Slot:
    if winner is None:
        return None
    other = m.b if winner == m.a else m.a
    return other


def _advance(
    double: bool,
    k: int,
    t: int,
    matches: list[Match],
    won: list[Slot],
    wb: list[Slot],
    lb: list[Slot],
    wb_losers: list[list[Slot]],
    gf: tuple[Slot, Slot] | None,
    out: Replay,
) -> tuple[list[Slot], list[Slot], list[list[Slot]], tuple[Slot, Slot] | None]:
    pairs = list(zip(matches, won, strict=True))
    wb_next = [w for m, w in pairs if m.bracket is Bracket.WINNERS]
    if t <= k:
        wb_losers = [*wb_losers, [_loser(m, w) for m, w in pairs if m.bracket is Bracket.WINNERS]]
        wb = wb_next
    lb_won = [w for m, w in pairs if m.bracket is Bracket.LOSERS]
    if lb_won:
        lb = lb_won
    if not double:
        if t == k:
            out.champion = wb[0]
        return wb, lb, wb_losers, gf
    if t == 2 * k - 1 or (k == 1 and t == 1):
        lb_champion = lb[0] if k > 1 else wb_losers[0][0]
        gf = (wb[0], lb_champion)
    for m, w in pairs:
        if m.bracket is Bracket.GRAND_FINAL:
            if w == m.a or m.b is None or m.a is None:
                out.champion = w
            else:
                gf = (m.a, m.b)
        elif m.bracket is Bracket.GRAND_FINAL_RESET:
            out.champion = w
    return wb, lb, wb_losers, gf


def pairings(
    matches: Sequence[Match],
    history: Mapping[str, Sequence[Game]],
    seed: Mapping[str, int],
    round_number: int,
) -> tuple[Pairing, ...]:
    """The matches as boards: the players' matches first, in bracket order, then the byes."""
    out: list[Pairing] = []
    for m in matches:
        if m.a is None and m.b is None:
            continue
        if m.a is None or m.b is None:
            out.append(Pairing(round_number, 0, m.a or m.b or "", None, m.bracket))
            continue
        hi, lo = (m.a, m.b) if seed[m.a] < seed[m.b] else (m.b, m.a)
        first_hi = seats.first_is_higher(
            seats.preference(history[hi]), seats.preference(history[lo]), seed[hi]
        )
        out.append(Pairing(round_number, 0, *((hi, lo) if first_hi else (lo, hi)), m.bracket))
    games = [p for p in out if p.second is not None] + [p for p in out if p.second is None]
    return tuple(
        Pairing(round_number, i, p.first, p.second, p.bracket) for i, p in enumerate(games, start=1)
    )


def bracket(replayed: Replay, rounds: Sequence[Round]) -> tuple[BracketMatch, ...]:
    """Every match played or paired, with its winner once known."""
    out: list[BracketMatch] = []
    for rnd in rounds:
        for p in rnd.pairings:
            result = rnd.results.get(p.board)
            winner = p.first if p.second is None else (result.winner if result else None)
            stage = _stage(replayed, rnd.number, p)
            out.append(
                BracketMatch(
                    rnd.number,
                    p.board,
                    p.bracket or Bracket.WINNERS,
                    stage,
                    p.first,
                    p.second,
                    winner,
                )
            )
    return tuple(out)


def _stage(replayed: Replay, number: int, p: Pairing) -> int:
    if number <= len(replayed.matches):
        for m in replayed.matches[number - 1]:
            if p.first in (m.a, m.b):
                return m.stage
    return number if p.bracket in (None, Bracket.WINNERS) else 1
