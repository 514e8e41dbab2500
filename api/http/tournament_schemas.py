"""Answers of the tournament routes (the request bodies are beside the routes). As in
``api.http.schemas``: every answer has a model that forbids undeclared keys; a game's own
values and the free-form parts (settings, a result, a check) stay JSON objects inside."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from api.http.schemas import Answer, Time

Json = dict[str, Any]


class TournamentPlayer(Answer):
    id: str = Field(description="p1, p2… in seed order")
    name: str
    seed: int


class RoundPaired(Answer):
    round: int
    seq: int
    recorded_at: Time
    pairings: list[Json] = Field(description="board, first, second (None: a bye), match_id")


class Forfeit(Answer):
    round: int
    board: int
    winner: str | None
    reason: str


class RegisteredPlayer(TournamentPlayer):
    chat_authors: list[str] = Field(
        description="chat author ids (or names): a match's chat import maps them to the seat"
    )


class Tournament(Answer):
    tournament_id: str
    name: str
    game: str
    settings: Json = Field(description="format, rounds, tiebreaks, points_game")
    players: list[RegisteredPlayer]
    config: Json
    round_configs: dict[str, Json]
    rounds: list[RoundPaired]
    forfeits: list[Forfeit]
    withdrawn: dict[str, str] = Field(description="player id -> the reason")
    concluded: str | None = Field(
        description="the organizer's reason for ending the event before its planned rounds"
    )
    sealed: str | None = Field(
        description="the organizer's reason for sealing the finished event: its matches"
        " closed, its log a leaf of the transparency log, no act taken after",
    )
    last_seq: int


class TournamentCreated(Tournament):
    organizer_token: str = Field(description="shown once: only its hash is stored")


class TournamentEvent(Answer):
    seq: int
    type: str
    actor: str
    occurred_at: Time
    recorded_at: Time
    payload: Json
    prev_hash: str
    hash: str


class PairedBoard(Answer):
    round: int
    board: int
    first: str = Field(description="seat alpha, holds the Advantage")
    second: str | None = Field(description="seat beta; None: a bye")
    bracket: str | None
    match_id: str | None
    tokens: Json | None = Field(description="the match's role tokens, shown once")
    links: dict[str, str] | None = Field(description="each role's console link")


class Paired(Answer):
    round: int
    seq: int
    pairings: list[PairedBoard]


class StandingRow(Answer):
    rank: int
    player: str
    name: str
    points: float
    wins: int
    played: int
    tiebreaks: dict[str, float]
    game_points_for: float
    game_points_against: float
    withdrawn: bool


class Standings(Answer):
    tournament_id: str
    at: Time
    known_at: Time | None
    last_seq: int
    finished: bool
    concluded: str | None = Field(
        description="the organizer ended the event early (the reason): finished as it stands"
    )
    sealed: str | None = Field(
        description="the organizer's reason for sealing the finished event: its matches"
        " closed, its log a leaf of the transparency log, no act taken after",
    )
    champion: str | None
    rows: list[StandingRow]
    crosstable: Json | None = Field(description="round robin: player -> opponent -> games")
    bracket: list[Json] | None = Field(description="elimination: every match of the bracket")
    rounds: list[Json] = Field(description="each round's pairings with their results")
    stale_pairings: list[Json] = Field(
        description="rounds paired on a result that has changed since (never re-paired)"
    )


class TournamentDiff(Answer):
    tournament_id: str
    at: Time
    before: Time
    after: Time | None
    results: list[Json] = Field(description="boards whose result changed, with the rulings")
    organizer_events: list[TournamentEvent]
    ranks: list[Json]
    champion: Json
    standings: Json = Field(description="the rows before and after")


class TournamentVerify(Answer):
    tournament_id: str
    ok: bool
    checks: list[Json] = Field(description="name, ok, detail, seq: one per check")
    verified_at: Time = Field(
        description="when this report's verify began: its readers share it while nothing is"
        " added to the tournament or its matches, for at most ADJUDICATOR_VERIFY_REUSE_SECONDS"
    )


class Bundle(Answer):
    format: str = Field(description="adjudicator-tournament/1")
    tournament_id: str
    log: str = Field(description="the tournament's log as a record (JSON Lines)")
    matches: dict[str, str] = Field(description="match id -> its full record (JSON Lines)")
