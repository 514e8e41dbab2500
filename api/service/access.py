"""Who may do what: the one place that reads a token's role (``TokenGrant.role``).

A match's tokens: the **host** acts for either seat, enters game times, rules, closes, exports
and sees everything; a **seat** acts for its own seat only and sees its own sealed actions; the
**auditor** reads (everything once the match is closed, when it may also export), it never
acts. The **operator** token creates and imports matches and reads every match as an auditor
does; it never acts. No token: a **spectator**, who sees the public view.

Refusals (all 403): ``read_only_token``, ``token_not_for_match``, ``host_only``,
``game_time_host_only``, ``export_forbidden``, ``export_before_close``, ``ludii_hidden``.
"""

from __future__ import annotations

from datetime import datetime

from adjudicator.kernel.decider import HOST, Context, Role, Viewer, seat_actor
from adjudicator.kernel.errors import NotPermitted
from events import MatchRecord, TokenGrant

OPERATOR = TokenGrant("", "operator", None)


def acting_in(grant: TokenGrant, match_id: str) -> TokenGrant:
    """A token that may act in this match: not the operator's (it reads), nor another match's."""
    if grant.role == "operator":
        raise NotPermitted("read_only_token", "the operator token reads matches, it never acts")
    if grant.match_id != match_id:
        raise NotPermitted("token_not_for_match", "this token belongs to another match")
    return grant


def require_host(grant: TokenGrant, what: str) -> None:
    """403 ``host_only`` (message: "only the host ``what``") unless ``grant`` is the host's."""
    if grant.role != "host":
        raise NotPermitted("host_only", f"only the host {what}")


def is_host(grant: TokenGrant | None, match_id: str) -> bool:
    """Whether ``grant`` is this match's host token."""
    return grant is not None and grant.match_id == match_id and grant.role == "host"


def actor_of(grant: TokenGrant) -> str:
    """The envelope actor a token acts as (an auditor's token never acts: see ``acting``)."""
    if grant.role == "seat" and grant.seat is not None:
        return seat_actor(grant.seat)
    return HOST if grant.role == "host" else grant.role


def own_seat(grant: TokenGrant | None) -> str | None:
    """The seat a seat's token acts for (a command that names no seat is its own); else None."""
    return grant.seat if grant is not None and grant.role == "seat" else None


def acting(grant: TokenGrant, now: datetime) -> Context:
    """Who acts at game time ``now``: the host, or a seat for itself; 403 ``read_only_token``
    for a token that only reads."""
    if grant.role == "host":
        return Context(actor=HOST, now=now)
    if grant.role == "seat" and grant.seat is not None:
        return Context(actor=seat_actor(grant.seat), now=now, seat=grant.seat)
    raise NotPermitted("read_only_token", "this token may read the match but not act in it")


def require_time_enterer(grant: TokenGrant) -> None:
    """Only the host enters a game time (``occurred_at``): 403 ``game_time_host_only``."""
    if grant.role != "host":
        raise NotPermitted("game_time_host_only", "only the host enters a game time")


def viewer_of(match: MatchRecord, grant: TokenGrant | None) -> Viewer:
    """Who reads: a match's own token as its role, the operator as an auditor (everything once
    the match is closed), anyone else as a spectator."""
    closed = match.status == "closed"
    if grant is not None and grant.role == "operator":
        return Viewer(Role.AUDITOR, closed=closed)
    if grant is None or grant.match_id != match.match_id:
        return Viewer(Role.SPECTATOR, closed=closed)
    return Viewer(Role(grant.role), seat=grant.seat, closed=closed)


def require_exporter(match: MatchRecord, grant: TokenGrant | None) -> None:
    """Who may export: the host always, the auditor (or the operator) once the match is closed
    (403 otherwise). Both see every private payload and salt, so an export they get is the full
    record."""
    operator = grant is not None and grant.role == "operator"
    mine = grant is not None and (grant.match_id == match.match_id or operator)
    if not mine or grant is None or grant.role not in ("host", "auditor", "operator"):
        raise NotPermitted("export_forbidden", "only the host or (once closed) the auditor exports")
    if not viewer_of(match, grant).sees_everything:
        raise NotPermitted("export_before_close", "the auditor may export once the match closes")


def require_hidden_reader(match: MatchRecord, grant: TokenGrant | None) -> None:
    """A hidden-information record's values (a Ludii game of the hidden ruleset): the host
    only until the match is closed, then anyone (403 ``ludii_hidden``)."""
    if match.status != "closed" and not is_host(grant, match.match_id):
        raise NotPermitted("ludii_hidden", "hidden values: the host only, until the close")
