"""Tie-breaks and the ranking they make.

For tie-breaks a bye is a draw against a virtual opponent whose score is the bye-receiver's own
final points (FIDE C.07's "virtual opponent", simplified): it adds the player's own points to
Buchholz and half of them to Sonneborn-Berger. Unfinished games count for nothing. A forfeit
counts as a game against the real opponent. A withdrawn player's unpaired rounds count for
nothing.

- Buchholz: the sum of the opponents' points.
- Buchholz Cut-1: Buchholz less the least of its terms.
- Sonneborn-Berger: the opponents' points, in full for a win and halved for a draw.
- Direct encounter: among the players still tied when it is applied, the points each scored
  against the others; only when every two of them have met (else 0 for all: not applicable).
- Wins: won rounds (byes and forfeit wins included).
- Game points difference: game points for less against (points games only).

Ranking: points, then the tie-breaks in the settings' order, then seed. In elimination the
first key is how far the player went (champion, then the later elimination first; a walkover,
a withdrawn player's missed round, counts as the loss that put them out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from adjudicator.tournaments.model import Tiebreak
from adjudicator.tournaments.records import Game


def terms(
    history: Sequence[Game], pts: Mapping[str, float], own: float
) -> list[tuple[float, float]]:
    """(opponent's points, score) of each finished game; a bye is (own points, 0.5)."""
    out = []
    for g in history:
        if g.score is None:
            continue
        out.append((own, 0.5) if g.opponent is None else (pts[g.opponent], g.score))
    return out


def value(tb: Tiebreak, history: Sequence[Game], pts: Mapping[str, float], own: float) -> float:
    """A tie-break that does not depend on who else is tied (everything but direct encounter)."""
    if tb is Tiebreak.WINS:
        return float(sum(1 for g in history if g.score == 1.0))
    if tb is Tiebreak.GAME_POINTS_DIFF:
        return sum(g.points_for - g.points_against for g in history if g.score is not None)
    ts = terms(history, pts, own)
    if tb is Tiebreak.BUCHHOLZ:
        return sum(o for o, _ in ts)
    if tb is Tiebreak.BUCHHOLZ_CUT1:
        return sum(o for o, _ in ts) - min((o for o, _ in ts), default=0.0)
    if tb is Tiebreak.SONNEBORN_BERGER:
        return sum(o * s for o, s in ts)
    return 0.0


def direct_encounter(
    group: Sequence[str], history: Mapping[str, Sequence[Game]]
) -> dict[str, float]:
    """Each tied player's points against the others of ``group`` (all 0 unless all have met)."""
    members = set(group)
    scored = {p: 0.0 for p in group}
    met: set[frozenset[str]] = set()
    for p in group:
        for g in history[p]:
            if g.opponent in members and g.score is not None:
                scored[p] += g.score
                met.add(frozenset((p, g.opponent)))
    needed = len(group) * (len(group) - 1) // 2
    return scored if len(met) == needed else {p: 0.0 for p in group}


def rank(
    order: Sequence[str],
    primary: Callable[[str], tuple[float, ...]],
    tiebreaks: Sequence[Tiebreak],
    fixed: Mapping[str, Mapping[Tiebreak, float]],
    history: Mapping[str, Sequence[Game]],
) -> tuple[list[str], dict[str, dict[Tiebreak, float]]]:
    """Players best first, and each one's tie-break values. ``order`` is the seed order (the last
    key); ``primary`` the first key (higher is better)."""
    values: dict[str, dict[Tiebreak, float]] = {p: dict(fixed[p]) for p in order}
    groups = _split([list(order)], primary)
    for tb in tiebreaks:
        if tb is Tiebreak.DIRECT_ENCOUNTER:
            for g in groups:
                for p, v in direct_encounter(g, history).items():
                    values[p][tb] = v
        groups = _split(groups, _by(values, tb))
    return [p for g in groups for p in g], values


def _by(
    values: Mapping[str, Mapping[Tiebreak, float]], tb: Tiebreak
) -> Callable[[str], tuple[float, ...]]:
    return lambda p: (values[p][tb],)


def _split(groups: list[list[str]], key: Callable[[str], tuple[float, ...]]) -> list[list[str]]:
    """Each group sorted by ``key`` (best first, stable) and cut where the key changes."""
    out: list[list[str]] = []
    for g in groups:
        ordered = sorted(g, key=lambda p: tuple(-x for x in key(p)))
        run: list[str] = []
        for p in ordered:
            if run and key(run[-1]) != key(p):
                out.append(run)
                run = []
            run.append(p)
        out.append(run)
    return out
