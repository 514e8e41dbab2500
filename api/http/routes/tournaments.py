"""Tournaments: create (operator), pair rounds, re-pair, forfeit and withdraw (organizer),
read the stream, the standings at (``at``, ``known_at``) and the diff between two record times,
verify and export (anyone: a tournament's results are public)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from adjudicator.kernel.errors import InvalidCommand
from adjudicator.kernel.numbers import Int, NotBoolean
from adjudicator.tournaments.model import Format, Tiebreak
from adjudicator.tournaments.model import Settings as Rules
from api.http import tournament_schemas as ts
from api.http.deps import Authorization, Operator, Service, bearer_token
from api.http.errors import ApiError
from api.http.params import At, RawTime, instant
from api.http.responses import FastJSONResponse
from api.http.schemas import errors
from api.http.strictjson import StrictJsonRoute
from api.service import tournament_audit, tournament_reads
from api.service.tournaments import (
    POINTS_GAMES,
    Plan,
    PlayerEntry,
    TournamentService,
    role_links,
)
from projections import tournaments as fold
from projections.views import Known

router = APIRouter(route_class=StrictJsonRoute, tags=["tournaments"])

NO_NUL = r"^[^\x00]*$"  # PostgreSQL's text holds no NUL character
Name = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100, pattern=NO_NUL)
]
Reason = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500, pattern=NO_NUL)
]
PlayerId = Annotated[str, StringConstraints(max_length=100, pattern=NO_NUL)]


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name
    chat_authors: list[Name] = Field(default_factory=list, max_length=20)


class CreateTournament(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[
        str,
        StringConstraints(strip_whitespace=True, min_length=1, max_length=200, pattern=NO_NUL),
    ]
    game: str
    format: Format
    rounds: Annotated[int, Field(ge=1, le=1000), NotBoolean] | None = Field(
        None, description="Swiss only: how many rounds"
    )
    tiebreaks: list[Tiebreak] = Field(default_factory=list, max_length=6)
    players: list[PlayerIn] = Field(min_length=1, max_length=512, description="in seed order")
    config: dict[str, Any] = Field(default_factory=dict, description="every match's config")
    round_configs: dict[int, dict[str, Any]] = Field(
        default_factory=dict, description="round number -> the config of that round's matches"
    )


class Reasoned(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: Reason


class ForfeitIn(Reasoned):
    round: Int = Field(ge=1, le=10_000)
    board: Int = Field(ge=1, le=10_000)
    winner: PlayerId | None = Field(
        description="the player id who wins by forfeit (None: both lose)"
    )


class WithdrawIn(Reasoned):
    player: PlayerId = Field(description="the player id (p1, p2… in seed order)")


def tournaments(request: Request, service: Service) -> TournamentService:
    """The app's tournament service (made at its first use: it keeps the matches' folds)."""
    found: TournamentService | None = getattr(request.app.state, "tournaments", None)
    if found is None or found.matches is not service:
        reuse = request.app.state.settings.verify_reuse_seconds
        found = request.app.state.tournaments = TournamentService(service, reuse)
    return found


Tournaments = Annotated[TournamentService, Depends(tournaments)]


def organizer(
    request: Request, tournament_id: str, service: Tournaments, _: Authorization = None
) -> None:
    """The tournament's organizer token (401 without a token, 403 ``not_organizer``)."""
    header = request.headers.get("authorization")
    if header is None:
        raise ApiError(401, "missing_token", "this needs the organizer token as a bearer token")
    service.require_organizer(tournament_id, bearer_token(header))


Organizer = Depends(organizer)
ACTING = errors(401, 403, 404, 409, 422)


Route = TypeVar("Route", bound=Callable[..., Any])


def organizer_act(path: str, answer: Any) -> Callable[[Route], Route]:
    """The route of an organizer's act: ``POST path``, 201 with ``answer``, the organizer's
    token required (401, 403), refusals as 404, 409 and 422."""
    return router.post(
        path, status_code=201, dependencies=[Organizer], response_model=answer, responses=ACTING
    )


@router.post(
    "/tournaments",
    status_code=201,
    dependencies=[Operator],
    response_model=ts.TournamentCreated,
    responses=errors(401, 403, 422),
)
def create_tournament(service: Tournaments, body: CreateTournament) -> dict[str, Any]:
    """Operator: a new tournament; answers its id and the organizer token (shown once: only
    its hash is stored). Nothing is recorded unless every check passes."""
    rules = Rules(body.format, body.rounds, tuple(body.tiebreaks), body.game in POINTS_GAMES)
    players = tuple(PlayerEntry(p.name, tuple(p.chat_authors)) for p in body.players)
    plan = Plan(body.name, body.game, rules, players, body.config, body.round_configs)
    tournament_id, token = service.create(plan)
    return {
        "tournament_id": tournament_id,
        "organizer_token": token,
        **tournament_reads.summary(service, tournament_id),
    }


@router.get("/tournaments/{tournament_id}", response_model=ts.Tournament, responses=errors(404))
def get_tournament(service: Tournaments, tournament_id: str) -> dict[str, Any]:
    """Settings, players (ids p1, p2… in seed order), rounds with pairings and match ids."""
    return tournament_reads.summary(service, tournament_id)


@router.get(
    "/tournaments/{tournament_id}/events",
    response_model=list[ts.TournamentEvent],
    responses=errors(404, 422),
)
def tournament_events(
    service: Tournaments, tournament_id: str, known_at: RawTime = None
) -> list[dict[str, Any]]:
    """The tournament's own stream (seqs, hash chain), as recorded by ``known_at``."""
    known = instant(known_at, "known_at")
    return [tournament_reads.event_json(e) for e in service.events(tournament_id, known)]


def _paired(
    service: TournamentService, paired: fold.PairedRound, tokens: dict[str, Any]
) -> dict[str, Any]:
    boards = []
    for board in paired.boards:
        made = tokens.get(board.match_id or "")
        boards.append(
            {
                **fold.pairing_json(board),
                "tokens": made,
                "links": None if made is None else role_links(board.match_id or "", made),
            }
        )
    return {"round": paired.number, "seq": paired.seq, "pairings": boards}


@organizer_act("/tournaments/{tournament_id}/rounds", ts.Paired)
def pair_round(service: Tournaments, tournament_id: str) -> dict[str, Any]:
    """Organizer: pair the next round (409 ``round_not_finished`` while a board of the current
    one has no result) and create its matches; answers every role token and link of each."""
    return _paired(service, *service.pair(tournament_id))


@organizer_act("/tournaments/{tournament_id}/rounds/current/repair", ts.Paired)
def repair_round(service: Tournaments, tournament_id: str, body: Reasoned) -> dict[str, Any]:
    """Organizer: pair the current round again before any of its matches has started (after a
    withdrawal, say); new matches replace the old ones, which are never played."""
    return _paired(service, *service.repair(tournament_id, body.reason))


@organizer_act("/tournaments/{tournament_id}/forfeits", ts.TournamentEvent)
def forfeit(service: Tournaments, tournament_id: str, body: ForfeitIn) -> dict[str, Any]:
    """Organizer: decide a board without play (409 ``board_decided`` once it has a result)."""
    event = service.forfeit(tournament_id, body.round, body.board, body.winner, body.reason)
    return tournament_reads.event_json(event)


@organizer_act("/tournaments/{tournament_id}/withdrawals", ts.TournamentEvent)
def withdraw(service: Tournaments, tournament_id: str, body: WithdrawIn) -> dict[str, Any]:
    """Organizer: the player is paired in no later round; the games played stay."""
    return tournament_reads.event_json(service.withdraw(tournament_id, body.player, body.reason))


@organizer_act("/tournaments/{tournament_id}/conclusion", ts.TournamentEvent)
def conclude(service: Tournaments, tournament_id: str, body: Reasoned) -> dict[str, Any]:
    """Organizer: end the event before its planned rounds, as it stands (a Swiss that
    withdrawals left without a pairing free of rematches, an event cut short): finished from
    then on, its leader the champion. Not while a board of the last round has no result (409
    ``round_not_finished``: forfeit it first) nor once finished (409 ``tournament_finished``)."""
    return tournament_reads.event_json(service.conclude(tournament_id, body.reason))


@organizer_act("/tournaments/{tournament_id}/seal", ts.TournamentEvent)
def seal(service: Tournaments, tournament_id: str, body: Reasoned) -> dict[str, Any]:
    """Organizer: seal the finished event (every planned round played with its results, or
    concluded; 409 ``tournament_not_finished`` before). Each of its matches still open is
    closed as its host would close it, then ``tournament.sealed`` names every match with the
    hash of its last event and the tournament's log becomes a leaf of the transparency log:
    its standings are final (a closed match takes no ruling) and ``adjudicator verify BUNDLE
    --key`` proves the whole event. Once sealed, every act is refused (409
    ``tournament_sealed``)."""
    return tournament_reads.event_json(service.seal(tournament_id, body.reason))


@router.get(
    "/tournaments/{tournament_id}/standings",
    response_model=ts.Standings,
    responses=errors(404, 409, 422),
)
def standings(
    service: Tournaments, tournament_id: str, at: At, known_at: RawTime = None
) -> Response:
    """The standings at game time ``at`` (default now) as known at ``known_at`` (default now):
    each match's result read from its own fold at the same two times."""
    view = service.view(tournament_id, at, Known(instant(known_at, "known_at")))
    return FastJSONResponse(tournament_reads.standings_json(service, view))


@router.get(
    "/tournaments/{tournament_id}/diff",
    response_model=ts.TournamentDiff,
    responses=errors(404, 409, 422),
)
def diff(
    service: Tournaments,
    tournament_id: str,
    at: At,
    before: RawTime = None,
    after: RawTime = None,
) -> Response:
    """What changed in the standings at ``at`` between record times ``before`` (required) and
    ``after`` (default now): the boards whose result changed, with the rulings that did it."""
    earlier = instant(before, "before")
    if earlier is None:
        raise ApiError(422, "invalid_request", "give the earlier record time: before")
    later = instant(after, "after")
    if later is not None and later < earlier:
        raise InvalidCommand("diff_backwards", "before is a later record time than after")
    return FastJSONResponse(tournament_reads.diff(service, tournament_id, at, earlier, later))


@router.get(
    "/tournaments/{tournament_id}/verify",
    response_model=ts.TournamentVerify,
    responses=errors(404),
)
def verify(service: Tournaments, tournament_id: str) -> dict[str, Any]:
    """Anyone: the tournament's chain, every match verified, and every round's pairing
    recomputed from the results as known when it was made; one report, check by check. Its
    readers share it: one is computed at a time, and given again (``verified_at`` says when
    it began) while no event is added to the tournament or its matches, for at most
    ``ADJUDICATOR_VERIFY_REUSE_SECONDS``."""
    return tournament_audit.verify_shared(service, tournament_id)


@router.get(
    "/tournaments/{tournament_id}/export",
    dependencies=[Organizer],
    response_model=ts.Bundle,
    responses=errors(401, 403, 404),
)
def export(service: Tournaments, tournament_id: str) -> Response:
    """Organizer (who holds every match's host token already): one bundle (JSON), the
    tournament's log and every match's full record, which ``adjudicator verify`` checks
    offline."""
    text = tournament_audit.export_bundle(service, tournament_id)
    disposition = f'attachment; filename="tournament-{tournament_id}.json"'
    return Response(
        text, media_type="application/json", headers={"Content-Disposition": disposition}
    )
