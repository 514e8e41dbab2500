"""A tournament's stream folded: its settings, players, rounds (pairings and their matches),
forfeits and withdrawals, as known at a record time; and its rounds as the pure rules take
them, each match's result read through a function (the match's own fold at the same game time
and record time, ``api.service.tournaments``). No I/O here."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from adjudicator.tournaments.model import (
    Bracket,
    Format,
    Pairing,
    Player,
    Result,
    Round,
    Settings,
    Standings,
    Tiebreak,
)
from adjudicator.tournaments.records import ELIMINATION
from events import StoredEvent
from events.record import TOURNAMENT_SEALED

CREATED = "tournament.created"
PAIRED = "tournament.round_paired"
REPAIRED = "tournament.repaired"
FORFEIT = "tournament.forfeit"
WITHDRAWN = "tournament.withdrawn"
CONCLUDED = "tournament.concluded"
SEALED = TOURNAMENT_SEALED

FIRST_SEAT, SECOND_SEAT = "alpha", "beta"
"""The seats of every tournament match: the pairing's ``first`` plays ``alpha``."""


@dataclass(frozen=True, slots=True)
class Board:
    """One pairing of a round and the match created for it (None: a bye)."""

    pairing: Pairing
    match_id: str | None


@dataclass(frozen=True, slots=True)
class PairedRound:
    """A round as paired (or last re-paired): its boards, the seq and record time of the event
    that paired it, and the results its pairing was made on (match id -> result as then
    known, None when it had none)."""

    number: int
    boards: tuple[Board, ...]
    seq: int
    recorded_at: datetime
    basis: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Forfeit:
    round: int
    board: int
    winner: str | None
    reason: str
    seq: int


@dataclass(frozen=True, slots=True)
class Tournament:
    tournament_id: str
    name: str
    game: str
    settings: Settings
    players: tuple[Player, ...]
    config: Mapping[str, Any]
    round_configs: Mapping[int, Mapping[str, Any]]
    rounds: tuple[PairedRound, ...] = ()
    forfeits: Mapping[tuple[int, int], Forfeit] = field(default_factory=dict)
    withdrawn: Mapping[str, str] = field(default_factory=dict)
    last_seq: int = 0
    chat_authors: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Player id -> the chat author ids registered for it (a match's chat import maps them)."""
    concluded: str | None = None
    """The organizer's reason for ending the event before its planned rounds (None: not)."""
    sealed: str | None = None
    """The organizer's reason for sealing the finished event (None: not sealed): its matches
    closed, its log a leaf of the transparency log, no act taken after."""

    @property
    def withdrawn_ids(self) -> frozenset[str]:
        return frozenset(self.withdrawn)

    def player(self, player_id: str) -> Player | None:
        return next((p for p in self.players if p.id == player_id), None)

    def config_for(self, round_number: int) -> Mapping[str, Any]:
        return self.round_configs.get(round_number, self.config)

    def match_ids(self) -> list[str]:
        return [b.match_id for r in self.rounds for b in r.boards if b.match_id is not None]


def settings_json(settings: Settings) -> dict[str, Any]:
    return {
        "format": str(settings.format),
        "rounds": settings.rounds,
        "tiebreaks": [str(t) for t in settings.tiebreaks],
        "points_game": settings.points_game,
    }


def settings_of(data: Mapping[str, Any]) -> Settings:
    return Settings(
        format=Format(data["format"]),
        rounds=data.get("rounds"),
        tiebreaks=tuple(Tiebreak(t) for t in data.get("tiebreaks", ())),
        points_game=bool(data.get("points_game", False)),
    )


def pairing_json(board: Board) -> dict[str, Any]:
    p = board.pairing
    return {
        "round": p.round,
        "board": p.board,
        "first": p.first,
        "second": p.second,
        "bracket": p.bracket,
        "match_id": board.match_id,
    }


def board_of(data: Mapping[str, Any]) -> Board:
    bracket = None if data["bracket"] is None else Bracket(data["bracket"])
    pairing = Pairing(data["round"], data["board"], data["first"], data["second"], bracket)
    return Board(pairing, data.get("match_id"))


def created(event: StoredEvent) -> Tournament:
    data = event.payload
    players = tuple(Player(p["id"], p["name"], p["seed"]) for p in data["players"])
    authors = {p["id"]: tuple(p.get("chat_authors", ())) for p in data["players"]}
    configs = {int(k): v for k, v in data.get("round_configs", {}).items()}
    return Tournament(
        event.match_id,
        data["name"],
        data["game"],
        settings_of(data["settings"]),
        players,
        data["config"],
        configs,
        last_seq=event.seq,
        chat_authors=authors,
    )


def evolve(tournament: Tournament, event: StoredEvent) -> Tournament:
    data = event.payload
    changes: dict[str, Any] = {"last_seq": event.seq}
    if event.type in (PAIRED, REPAIRED):
        boards = tuple(board_of(b) for b in data["pairings"])
        paired = PairedRound(data["round"], boards, event.seq, event.recorded_at, data["basis"])
        kept = tuple(r for r in tournament.rounds if r.number != data["round"])
        changes["rounds"] = (*kept, paired)
    elif event.type == FORFEIT:
        forfeit = Forfeit(data["round"], data["board"], data["winner"], data["reason"], event.seq)
        changes["forfeits"] = {**tournament.forfeits, (forfeit.round, forfeit.board): forfeit}
    elif event.type == WITHDRAWN:
        changes["withdrawn"] = {**tournament.withdrawn, data["player"]: data["reason"]}
    elif event.type == CONCLUDED:
        changes["concluded"] = data["reason"]
    elif event.type == SEALED:
        changes["sealed"] = data["reason"]
    return _replace(tournament, changes)


def final_table(standings: Standings) -> list[dict[str, Any]]:
    """The standings a seal records: each player's rank, in rank order (ints and ids only, so
    its JSON is canonical whatever reads it; the points and tie-breaks follow from the
    results, which the verify recomputes)."""
    return [{"rank": row.rank, "player": row.player} for row in standings.rows]


def _replace(tournament: Tournament, changes: dict[str, Any]) -> Tournament:
    return replace(tournament, **changes)


def fold_tournament(events: Sequence[StoredEvent]) -> Tournament:
    """The tournament its events describe (the first must be ``tournament.created``)."""
    tournament = created(events[0])
    for event in events[1:]:
        tournament = evolve(tournament, event)
    return tournament


ResultReader = Callable[[str], Mapping[str, Any] | None]
"""A match id -> its result as the game gives it (``{"winner": seat, "scores": …}``), or None."""


def result_of(
    board: Board,
    found: Mapping[str, Any] | None,
    forfeit: Forfeit | None,
    needs_winner: bool = False,
) -> Result | None:
    """The board's result as the rules count it: a forfeit prevails; a bye is a win for its
    player; otherwise the match's result with its seats turned into the players. Where a
    match ``needs_winner`` (an elimination), a drawn match is no result: its board is still to
    be decided, by a ruling in the match that names a winner or by a forfeit (a host may rule
    a draw in any match; the rules refuse it as an elimination's result). A forfeit naming no
    winner there (the service refuses one now, but recorded some before) decides nothing: the
    match's own result does, or the organizer's forfeit naming the winner."""
    p = board.pairing
    if forfeit is not None and forfeit.winner is None and needs_winner:
        forfeit = None
    if forfeit is not None:
        return Result(p.round, p.board, forfeit.winner, 0.0, 0.0, forfeit=True)
    if p.second is None or found is None:  # a bye needs no result
        return None
    seats = {FIRST_SEAT: p.first, SECOND_SEAT: p.second}
    winner = seats.get(found.get("winner") or "")
    if winner is None and needs_winner:
        return None
    scores = found.get("scores") or {}
    return Result(
        p.round,
        p.board,
        winner,
        float(scores.get(FIRST_SEAT, 0)),
        float(scores.get(SECOND_SEAT, 0)),
    )


def model_rounds(tournament: Tournament, read: ResultReader) -> tuple[Round, ...]:
    """Every paired round as the rules take it, each match's result read by ``read``."""
    rounds = []
    elimination = tournament.settings.format in ELIMINATION
    for paired in sorted(tournament.rounds, key=lambda r: r.number):
        results: dict[int, Result] = {}
        for board in paired.boards:
            found = None if board.match_id is None else read(board.match_id)
            forfeit = tournament.forfeits.get((paired.number, board.pairing.board))
            result = result_of(board, found, forfeit, elimination)
            if result is not None:
                results[board.pairing.board] = result
        pairings = tuple(b.pairing for b in paired.boards)
        basis = paired_on(paired.basis) if elimination else None  # read by the bracket only
        rounds.append(Round(paired.number, pairings, results, basis))
    return tuple(rounds)


def paired_on(basis: Mapping[str, Any]) -> dict[tuple[int, int], Result | None] | None:
    """A pairing's recorded basis (:func:`basis_of`) as the rules take it; None when it does
    not read (a bundle from elsewhere may hold anything: its verify compares the basis with
    the results then known, and says so)."""
    try:
        return {_board_key(key): _basis_result(key, value) for key, value in basis.items()}
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _board_key(key: str) -> tuple[int, int]:
    number, board = key.split(".")
    return int(number), int(board)


def _basis_result(key: str, value: Mapping[str, Any] | None) -> Result | None:
    if value is None:
        return None
    number, board = _board_key(key)
    winner = value["winner"]
    if winner is not None and not isinstance(winner, str):
        raise TypeError("a winner is a player id")
    return Result(
        number,
        board,
        winner,
        float(value["first_points"]),
        float(value["second_points"]),
        bool(value["forfeit"]),
    )


def drawn_boards(tournament: Tournament, read: ResultReader, number: int) -> list[int]:
    """The boards of round ``number`` of an elimination whose match has a result, or whose
    forfeit, the rules do not take (:func:`result_of`: a draw, or a forfeit naming no winner,
    and nothing deciding it): each still needs a winner."""
    if tournament.settings.format not in ELIMINATION:
        return []
    paired = next((r for r in tournament.rounds if r.number == number), None)
    undecided = []
    for board in () if paired is None else paired.boards:
        forfeit = tournament.forfeits.get((number, board.pairing.board))
        found = None if board.match_id is None else read(board.match_id)
        ended = found is not None or forfeit is not None  # else the board is still in play
        if ended and result_of(board, found, forfeit, True) is None:
            undecided.append(board.pairing.board)
    return undecided


def result_json(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "winner": result.winner,
        "first_points": _number(result.first_points),
        "second_points": _number(result.second_points),
        "forfeit": result.forfeit,
    }


def _number(value: float) -> int | float:
    """An integral score as an int (canonical JSON, no float spelling)."""
    return int(value) if float(value).is_integer() else value


def basis_of(rounds: Sequence[Round]) -> dict[str, Any]:
    """What a pairing is made on: every earlier board's result ("round.board" -> its JSON, None
    while it had none), recorded with the pairing so a later change to it can be named."""
    return {
        f"{r.number}.{p.board}": result_json(r.results.get(p.board))
        for r in rounds
        for p in r.pairings
    }


def stale_pairings(tournament: Tournament, rounds: Sequence[Round]) -> list[dict[str, Any]]:
    """The rounds paired on a result that has changed since (a retroactive ruling, a forfeit):
    played rounds are never re-paired; the standings say which pairing used which old result."""
    now = basis_of(rounds)
    stale = []
    for paired in sorted(tournament.rounds, key=lambda r: r.number):
        changed = [
            {"board": key, "then": then, "now": now.get(key)}
            for key, then in paired.basis.items()
            if now.get(key) != then
        ]
        if changed:
            stale.append({"round": paired.number, "paired_seq": paired.seq, "changed": changed})
    return stale
