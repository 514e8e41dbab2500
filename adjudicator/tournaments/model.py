"""The tournament's values: players, settings, pairings, results, rounds and standings.

Plain frozen dataclasses: the pure rules (:mod:`adjudicator.tournaments.rules`) take and give
these, nothing else. Player ids are the caller's strings; rounds and boards are numbered from 1.
Mapping fields are left out of the hash (a dict is not hashable) but take part in equality.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from adjudicator.kernel.errors import Code, DomainError


class Format(StrEnum):
    ROUND_ROBIN = "round_robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin"
    SWISS = "swiss"
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"


class Tiebreak(StrEnum):
    BUCHHOLZ = "buchholz"
    BUCHHOLZ_CUT1 = "buchholz_cut1"
    SONNEBORN_BERGER = "sonneborn_berger"
    DIRECT_ENCOUNTER = "direct_encounter"
    WINS = "wins"
    GAME_POINTS_DIFF = "game_points_diff"


class Bracket(StrEnum):
    """Which part of an elimination bracket a pairing belongs to."""

    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"
    GRAND_FINAL_RESET = "grand_final_reset"


@dataclass(frozen=True, slots=True)
class Player:
    """An entrant. ``seed`` 1 is the top seed; seeds are 1..n, each once."""

    id: str
    name: str
    seed: int


@dataclass(frozen=True, slots=True)
class Settings:
    """How the event is run.

    ``rounds`` is the number of rounds of a Swiss (1 to players - 1) and ``None`` for every other
    format (their length follows from the field). ``tiebreaks`` are applied in order after the
    points. ``points_game`` says the game scores game points (Zoom, No, Not That!): only then is
    :attr:`Tiebreak.GAME_POINTS_DIFF` allowed.
    """

    format: Format
    rounds: int | None
    tiebreaks: tuple[Tiebreak, ...]
    points_game: bool


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round. ``first`` takes the first seat (seat "alpha", moves first, holds
    the Advantage): it is balanced across rounds the way colours are in chess. ``second`` is
    ``None`` for a bye (a win worth 1 point, no game to play, no result needed).
    ``bracket`` is set for elimination formats only."""

    round: int
    board: int
    first: str
    second: str | None
    bracket: Bracket | None = None


@dataclass(frozen=True, slots=True)
class Result:
    """The result of one board. ``winner`` is ``None`` for a draw (refused in elimination:
    ``elimination_needs_winner``). ``first_points``/``second_points`` are the game points
    (0 when the game has none).

    ``forfeit``: decided without play. With a winner it is a forfeit win (1 point to the
    winner, 0 to the other); with no winner it is a double forfeit (0 points each). A forfeit
    still counts as a meeting (the two are never paired again in a Swiss), but not for the
    first-seat history; a forfeit winner is no longer due a bye (FIDE C.04.1.c)."""

    round: int
    board: int
    winner: str | None
    first_points: float
    second_points: float
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class Round:
    """A paired round; ``results`` maps a board to its result (a missing board is unfinished;
    a bye needs none)."""

    number: int
    pairings: tuple[Pairing, ...]
    results: Mapping[int, Result] = field(default_factory=dict, hash=False)
    paired_on: Mapping[tuple[int, int], Result | None] | None = field(default=None, hash=False)
    """The earlier rounds' results this round was paired on, by (round, board), None where a
    board had none (recorded with its pairing); None when not known. An elimination's bracket
    goes on from a round as the round after it was paired (``elimination.replay``): a result
    changed after that pairing changes the points, not who played on."""


@dataclass(frozen=True, slots=True)
class CrossCell:
    """One game of a player against one opponent, from the player's side: the round, whether
    the player had the first seat, the score (1, 0.5, 0; ``None`` while unfinished) and
    whether it was a forfeit."""

    round: int
    first: bool
    score: float | None
    forfeit: bool


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One elimination match: ``second`` is ``None`` for a bye, ``winner`` is ``None`` while
    unplayed. ``stage`` is the round within its bracket (winners 1..k, losers 1..2k-2)."""

    round: int
    board: int
    bracket: Bracket
    stage: int
    first: str
    second: str | None
    winner: str | None


Crosstable = Mapping[str, Mapping[str, tuple[CrossCell, ...]]]
"""player -> opponent -> their games, in round order (round robin only)."""


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line. ``points``: win 1 (a bye too), draw 0.5, loss 0. ``wins`` counts
    won rounds (byes and forfeit wins included); ``played`` counts rounds with a result (byes
    included). ``tiebreaks`` holds the settings' tie-breaks, each with its value."""

    rank: int
    player: str
    points: float
    wins: int
    played: int
    tiebreaks: Mapping[Tiebreak, float] = field(hash=False)
    game_points_for: float
    game_points_against: float
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Standings:
    """The ranking, with a crosstable (round robin) or a bracket (elimination); ``champion``
    is the winner once ``finished``."""

    rows: tuple[StandingRow, ...]
    crosstable: Crosstable | None = field(hash=False)
    bracket: tuple[BracketMatch, ...] | None
    finished: bool
    champion: str | None


class TournamentError(DomainError):
    """A tournament input the rules refuse; ``code`` is one of the tournament codes of
    :data:`adjudicator.kernel.errors.Code`."""

    kind = "tournament_error"

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(code, message)
