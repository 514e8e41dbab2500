"""Who takes the first seat: chess colours (FIDE C.04.3, Dutch, parts A.6 and E) applied to the
first seat (seat "alpha", the first mover, the Advantage holder).

Only games played over the board count: byes and forfeits give no seat. A player's seat
*difference* is firsts minus seconds. Preferences:

- absolute: difference above +1 or below -1, or the same seat in the last two games: the
  other seat;
- strong: difference +1 or -1: the seat that evens it;
- mild: difference 0 after some games: the other seat than in the last game;
- none: no game played yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adjudicator.tournaments.records import Game

NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class Preference:
    """``want`` +1 first seat, -1 second seat, 0 none; ``strength`` NONE..ABSOLUTE;
    ``seats`` the played seats in order (+1 first, -1 second)."""

    want: int
    strength: int
    difference: int
    seats: tuple[int, ...]


def preference(history: Sequence[Game]) -> Preference:
    seats = tuple(1 if g.first else -1 for g in history if g.opponent is not None and not g.forfeit)
    diff = sum(seats)
    if not seats:
        return Preference(0, NONE, 0, seats)
    twice = len(seats) >= 2 and seats[-1] == seats[-2]
    if diff > 1 or diff < -1 or twice:
        want = -1 if diff > 1 else 1 if diff < -1 else -seats[-1]
        return Preference(want, ABSOLUTE, diff, seats)
    if diff != 0:
        return Preference(-diff, STRONG, diff, seats)
    return Preference(-seats[-1], MILD, diff, seats)


def conflict(a: Preference, b: Preference) -> int:
    """How strong a clash the two preferences make when paired (NONE if both can be met)."""
    if a.want == 0 or a.want != b.want:
        return NONE
    return min(a.strength, b.strength)


def first_is_higher(high: Preference, low: Preference, high_seed: int) -> bool:
    """Whether the higher-ranked of the two takes the first seat (FIDE C.04.3 E.1-E.5; with no
    preference at all, the higher-ranked takes it when its seed is odd: in round 1 the
    seats alternate board by board)."""
    if high.want != low.want:
        return high.want == 1 or (high.want == 0 and low.want == -1)
    if high.want == 0:
        return high_seed % 2 == 1
    if high.strength != low.strength:
        return (high.want == 1) == (high.strength > low.strength)
    if high.strength == ABSOLUTE and abs(high.difference) != abs(low.difference):
        return (high.want == 1) == (abs(high.difference) > abs(low.difference))
    for h, lo in zip(reversed(high.seats), reversed(low.seats), strict=False):
        if h != lo:
            return h == -1
    return high.want == 1
