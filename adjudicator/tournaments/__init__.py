"""Tournaments: pairings (Berger round robin, Dutch Swiss, single and double elimination),
tie-breaks and standings. Pure: no I/O, no clock; the service folds the tournament's stream and
the matches' results into :class:`Round` values and asks these functions.
"""

from adjudicator.tournaments.model import (
    Bracket,
    BracketMatch,
    CrossCell,
    Crosstable,
    Format,
    Pairing,
    Player,
    Result,
    Round,
    Settings,
    StandingRow,
    Standings,
    Tiebreak,
    TournamentError,
)
from adjudicator.tournaments.rules import (
    check_conclusion,
    check_entries,
    check_seal,
    check_settings,
    is_finished,
    pair_next,
    planned_rounds,
    standings,
)

__all__ = [
    "Bracket",
    "BracketMatch",
    "CrossCell",
    "Crosstable",
    "Format",
    "Pairing",
    "Player",
    "Result",
    "Round",
    "Settings",
    "StandingRow",
    "Standings",
    "Tiebreak",
    "TournamentError",
    "check_conclusion",
    "check_entries",
    "check_seal",
    "check_settings",
    "is_finished",
    "pair_next",
    "planned_rounds",
    "standings",
]
