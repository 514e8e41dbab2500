"""The rounds checked and read into each player's games: the one reading every rule shares.

A player's :class:`Game` is one board from that player's side. Scores: a win 1 (a bye and a
forfeit win too), a draw 0.5, a loss 0, a double forfeit 0 for both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from adjudicator.tournaments.model import (
    CrossCell,
    Crosstable,
    Format,
    Pairing,
    Player,
    Result,
    Round,
    Settings,
    TournamentError,
)

ELIMINATION = frozenset({Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION})


@dataclass(frozen=True, slots=True)
class Game:
    """One round of one player. ``opponent`` is ``None`` for a bye; ``score`` is ``None``
    while the board has no result."""

    round: int
    opponent: str | None
    first: bool
    score: float | None
    points_for: float
    points_against: float
    forfeit: bool


def check_rounds(settings: Settings, players: Sequence[Player], rounds: Sequence[Round]) -> None:
    """Refuse rounds that are not numbered 1, 2, ..., name unknown players, seat a player
    twice, or carry results that do not fit their pairings."""
    known = {p.id for p in players}
    for index, rnd in enumerate(rounds, start=1):
        if rnd.number != index:
            raise TournamentError("bad_round", f"round {rnd.number} is at position {index}")
        _check_pairings(rnd, known)
        boards = {p.board: p for p in rnd.pairings}
        for board, result in rnd.results.items():
            pairing = boards.get(board)
            if pairing is None or result.board != board or result.round != rnd.number:
                raise TournamentError("bad_result", f"round {index}: no board {board}")
            _check_result(settings, pairing, result)


def _check_pairings(rnd: Round, known: set[str]) -> None:
    seen: set[str] = set()
    boards: set[int] = set()
    for p in rnd.pairings:
        if p.round != rnd.number or p.board in boards:
            raise TournamentError("bad_round", f"round {rnd.number}: board {p.board} misplaced")
        boards.add(p.board)
        for who in (p.first, p.second):
            if who is None:
                continue
            if who not in known:
                raise TournamentError("unknown_player", f"no player {who!r}")
            if who in seen:
                raise TournamentError("bad_round", f"round {rnd.number}: {who!r} paired twice")
            seen.add(who)


def _check_result(settings: Settings, pairing: Pairing, result: Result) -> None:
    if result.winner not in (None, pairing.first, pairing.second):
        raise TournamentError("unknown_player", f"{result.winner!r} is not on the board")
    if pairing.second is None and result.winner != pairing.first:
        raise TournamentError("bad_result", "a bye is a win for its player")
    if result.winner is None and settings.format in ELIMINATION:
        raise TournamentError("elimination_needs_winner", "an elimination match needs a winner")


def score(result: Result, player: str) -> float:
    """The points ``player`` takes from ``result``."""
    if result.winner is None:
        return 0.0 if result.forfeit else 0.5
    return 1.0 if result.winner == player else 0.0


def games(players: Sequence[Player], rounds: Sequence[Round]) -> dict[str, list[Game]]:
    """Every player's games, in round order (withdrawn players keep theirs)."""
    out: dict[str, list[Game]] = {p.id: [] for p in players}
    for rnd in rounds:
        for p in rnd.pairings:
            result = rnd.results.get(p.board)
            if p.second is None:
                out[p.first].append(Game(rnd.number, None, True, 1.0, 0.0, 0.0, False))
                continue
            forfeit = result is not None and result.forfeit
            gp1 = result.first_points if result else 0.0
            gp2 = result.second_points if result else 0.0
            s1 = None if result is None else score(result, p.first)
            s2 = None if result is None else score(result, p.second)
            out[p.first].append(Game(rnd.number, p.second, True, s1, gp1, gp2, forfeit))
            out[p.second].append(Game(rnd.number, p.first, False, s2, gp2, gp1, forfeit))
    return out


def points(history: Sequence[Game]) -> float:
    return sum(g.score for g in history if g.score is not None)


def round_finished(rnd: Round) -> bool:
    """Every board of the round has a result (a bye needs none)."""
    return all(p.second is None or p.board in rnd.results for p in rnd.pairings)


def crosstable(order: Sequence[str], history: Mapping[str, Sequence[Game]]) -> Crosstable:
    """player -> opponent -> the games between them, for every player in ``order``."""
    out: dict[str, dict[str, tuple[CrossCell, ...]]] = {}
    for p in order:
        row: dict[str, list[CrossCell]] = {}
        for g in history[p]:
            if g.opponent is not None:
                row.setdefault(g.opponent, []).append(
                    CrossCell(g.round, g.first, g.score, g.forfeit)
                )
        out[p] = {o: tuple(row[o]) for o in order if o in row}
    return out
