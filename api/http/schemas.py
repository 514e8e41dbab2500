"""Request and response bodies of the HTTP API (separate from the store's records).

Every answer has a model here, so the OpenAPI document says what each route returns. The
response models forbid keys they do not declare: an answer that grew a key without its model
fails loudly in the tests instead of being documented wrong. A game's own state, config,
outcome and result stay ``dict[str, Any]`` inside the typed envelopes (``GET /games`` gives
each game's schemas).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from adjudicator.kernel.numbers import NotBoolean
from adjudicator.kernel.times import Instant

SeatName = Annotated[
    str, StringConstraints(strip_whitespace=True, pattern=r"^[A-Za-z0-9_-]{1,32}$")
]
Time = Annotated[
    str, Field(description="RFC 3339, in UTC", json_schema_extra={"format": "date-time"})
]
Json = dict[str, Any]


class CreateMatch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str
    seats: tuple[SeatName, SeatName]
    advantage: SeatName | None = None
    config: dict[str, Any] = Field(default_factory=dict)
    seed: Annotated[int, Field(ge=0, lt=2**63), NotBoolean] | None = Field(
        None, description="drawn at random (and committed) when omitted"
    )


class CommandBody(BaseModel):
    """A game command: ``type`` names it (see GET /games); the host may add ``occurred_at``."""

    model_config = ConfigDict(extra="allow")

    type: str
    occurred_at: Instant | None = Field(
        None, description="host only: the game time of an entered action (never backwards)"
    )


class Answer(BaseModel):
    """A response body: exactly the keys declared."""

    model_config = ConfigDict(extra="forbid")


class Tokens(Answer):
    """A match's role tokens, shown once (only their hashes are stored)."""

    host: str
    auditor: str
    seats: dict[str, str] = Field(description="seat name -> the seat's token")


class MatchCreated(Answer):
    match_id: str
    game: str
    rules_version: str
    seats: list[str]
    tokens: Tokens


class PairedBy(Answer):
    """The tournament that paired a match: the round, the board and the two players (the
    first holds the first seat, ``seats[0]``; names at ``GET /tournaments/{id}``)."""

    tournament_id: str
    round: int
    board: int
    first: str | None = Field(description="the player id in the first seat")
    second: str | None = Field(description="the player id in the second seat")


class MatchSummary(Answer):
    """A match at a glance (``GET /matches``, ``GET /matches/{id}``)."""

    match_id: str
    game: str
    rules_version: str
    status: Literal["open", "finished", "closed"] = Field(
        description="open: being played; finished: has a result, not closed yet; closed"
    )
    result: Json | None = Field(description="the result as folded now (the game's shape)")
    winner: str | None = Field(description="the winning seat; None while open or for a draw")
    created_at: Time
    seats: list[str]
    advantage: str | None
    last_seq: int
    tournament: PairedBy | None = Field(
        description="the tournament that paired this match (null: a match created on its own)"
    )


class Event(Answer):
    """An event envelope as the asking token may see it: a private payload it may not see is
    withheld (``payload`` null), its commitment never."""

    seq: int
    type: str
    actor: str = Field(description="host, seat:<name> or system")
    occurred_at: Time = Field(description="game time")
    recorded_at: Time = Field(description="record time")
    visibility: Literal["public", "private"]
    private_to: list[str] | None = Field(description="the seats a private event is shown to")
    commitment: str | None = Field(description="sha256 over salt + canonical payload (private)")
    payload: Json | None
    idempotency_key: str | None = Field(description="shown to its own seat and the host only")
    prev_hash: str
    hash: str
    source: Json | None = Field(description="where an entered event came from (a chat post)")
    salt: str | None = Field(
        None, description="present only for a viewer who sees everything (a private event)"
    )


class FeedPosition(Answer):
    match_id: str
    position: int = Field(description="global order across every match, gap-free")


class FeedEvent(Event, FeedPosition):
    """An event of ``GET /feed``: its match and global position, then the envelope."""


class Acted(Answer):
    """What a command, ruling or close recorded (as the asking token may see it), the derived
    outcome of its first event, and whether this answer replays an earlier request."""

    events: list[Event]
    outcome: Json | None
    replayed: bool


class State(Answer):
    """A match's state at game time ``at`` as known at a record time, as the asking token may
    see it; ``state`` is the game's own view (see each game's rules)."""

    match_id: str
    game: str
    rules_version: str
    status: Literal["open", "closed"]
    at: Time = Field(description="the game time folded at (cut to the record time asked about)")
    known_at: Time | None = Field(description="the record time asked about (null: now)")
    known_seq: int | None
    last_seq: int = Field(description="the last seq the answer knows of")
    voided: dict[str, Any] = Field(description="seq -> why it is void")
    state: Json


class RecordTime(Answer):
    known_at: Time | None
    known_seq: int | None
    last_seq: int


class Ruling(Answer):
    seq: int
    type: str
    occurred_at: Time
    recorded_at: Time
    payload: Json | None


class Change(Answer):
    """One leaf of the state that differs: ``path`` like ``buzzes[seq=12].pairs[0].outcome``."""

    path: str
    before: Any
    after: Any


class Diff(Answer):
    """What changed in the state at ``at`` between two record times, and the rulings recorded
    in between that explain it."""

    at: Time
    before: RecordTime
    after: RecordTime
    rulings: list[Ruling]
    changes: list[Change]


class TimelinePoint(Answer):
    seq: int
    at: Time
    type: str
    actor: str
    outcome: Json | None = Field(description="null for a private event the viewer may not see")
    summary: Json = Field(description="scores, phase, result right after the event")
    post: Json | None = Field(
        None, description="the chat post it was entered from: {channel_id, message_id}"
    )


class Timeline(Answer):
    match_id: str
    points: list[TimelinePoint]


class Check(Answer):
    name: str
    ok: bool
    detail: str
    seq: int | None = Field(description="the first bad seq (the header: 1)")


class VerifyReport(Answer):
    """Hash chain, commitments (and a record's header), then the re-fold of the result."""

    match_id: str
    ok: bool
    first_bad_seq: int | None
    checks: list[Check]


class Imported(Answer):
    match_id: str
    game: str
    rules_version: str
    status: Literal["open", "closed"]
    tokens: Tokens
    verify: VerifyReport


class Game(Answer):
    name: str
    rules_version: str
    config_schema: Json = Field(description="JSON schema of the config at match creation")
    commands: dict[str, Json] = Field(description="command type -> its JSON schema")


class Health(Answer):
    status: Literal["ok"]


class Ready(Answer):
    status: Literal["ready"]


class LudiiGameOut(Answer):
    """A Zombego match as a Ludii game (the shape of ``zombego-golden.jsonl``)."""

    board: int
    ruleset: str
    piece_set: str
    values: list[int]
    players: dict[str, str] = Field(description="player number (1, 2) -> seat")
    moves: list[str] = Field(description="Ludii move strings, voided moves left out")
    final_position: Json
    result: Json | None = Field(description="winner as a player number (null: a draw)")


class Entered(Answer):
    """What an entry of several commands recorded in one atomic batch."""

    match_id: str
    entered: int
    first_seq: int | None
    last_seq: int | None
    result: Json | None = Field(description="the match's result after the batch")


class Channel(Answer):
    channel_id: str
    name: str
    dm: bool


class IgnoredAuthor(Answer):
    author_id: str
    author: str
    as_: Literal["bot", "spectator"] = Field(alias="as")


class PostRow(Answer):
    """One post and what it becomes."""

    index: int = Field(description="the post's place in game-time order (0 first)")
    message_id: str
    channel_id: str
    dm: bool
    line: int | None
    author_id: str
    author: str
    role: str = Field(description="seat, host, spectator or bot")
    seat: str | None
    posted_at: Time
    edited_at: Time | None
    game_time: Time | None
    content: str
    flag: Literal["edited", "near_miss"] | None = Field(
        description="edited (entered, the content as exported counts) or near_miss (looks"
        " like a command but does not read whole: nothing entered unless corrected)"
    )
    status: Literal["command", "flagged", "refused", "ignored", "excluded", "already_entered"] = (
        Field(description="what the post becomes; flagged posts are listed first")
    )
    reason: str | None = Field(
        description="why flagged or ignored: chatter, host remark, spectator, bot, system"
        " message (kind), excluded by the host, entered before, or the near miss"
    )
    command: Json | None
    reading: Literal["machine", "host"] | None = Field(
        description="whose reading the command is: the post reader's, or the host's correction"
    )
    enters: bool = Field(description="entering records this post's command")
    seqs: list[int] | None = Field(description="first and last seq of the post's events")
    outcome: Json | None
    refusal: Json | None = Field(description="the live rule's code and message")


class TranscriptReport(Answer):
    match_id: str
    game: str
    channels: list[Channel]
    ignored_authors: list[IgnoredAuthor]
    counts: dict[str, int] = Field(description="posts per status")
    total: int = Field(description="posts in the exports (every page)")
    offset: int
    limit: int
    posts: list[PostRow] = Field(description="this page: flagged first, then by game time")


class TranscriptPreview(TranscriptReport):
    pass


class TranscriptEntered(TranscriptReport):
    entered: int
    first_seq: int | None
    last_seq: int | None
    result: Json | None = Field(description="the match's result as the state shows it now")


class ErrorBody(BaseModel):
    """Every error answer: a stable ``code`` (see the README's table), a human message."""

    code: str = Field(description="stable, snake_case; one status per code everywhere")
    message: str
    details: Any = Field(None, description="validation errors, a verify report, a ply…")
    request_id: str | None = Field(None, description="internal_error only: quote it")


MEANINGS = {
    401: "no usable token",
    403: "the token may not do this",
    404: "no such match",
    409: "the match's state forbids it now, or another writer got in first",
    413: "the body is too large",
    422: "the request is malformed or names what does not exist",
    429: "this client holds as many live streams as it may (Retry-After)",
    500: "the service failed (JSON with the request id)",
    503: "the database does not answer, or (a stream) the server holds all it may",
}
# the body limit applies to every request; any route may fail, or find the database gone
EVERY_ROUTE = (413, 500, 503)


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers of a route: ``statuses``, and those any route may give (413, 500,
    503)."""
    return {
        status: {"model": ErrorBody, "description": MEANINGS[status]}
        for status in sorted({*statuses, *EVERY_ROUTE})
    }
