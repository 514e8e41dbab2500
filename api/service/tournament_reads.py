"""The tournament read side as the routes answer it: a tournament's summary and stream, its
standings at (``at``, ``known_at``) with each round's pairings and results, and the diff
between two record times naming the rulings (and the organizer's events) that explain it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from adjudicator.kernel.canonical import iso
from adjudicator.tournaments.model import Result, Round, Standings
from api.service.tournaments import TournamentService, View
from events import StoredEvent
from projections import tournaments as fold
from projections.timetravel import rulings_recorded
from projections.views import Known


def summary(service: TournamentService, tournament_id: str) -> dict[str, Any]:
    t = service.tournament(tournament_id)
    return {
        "tournament_id": t.tournament_id,
        "name": t.name,
        "game": t.game,
        "settings": fold.settings_json(t.settings),
        "players": [
            {**players_json(p), "chat_authors": list(t.chat_authors.get(p.id, ()))}
            for p in t.players
        ],
        "config": dict(t.config),
        "round_configs": {str(n): dict(c) for n, c in t.round_configs.items()},
        "rounds": [round_json(r) for r in t.rounds],
        "forfeits": [
            {"round": f.round, "board": f.board, "winner": f.winner, "reason": f.reason}
            for f in t.forfeits.values()
        ],
        "withdrawn": dict(t.withdrawn),
        "concluded": t.concluded,
        "sealed": t.sealed,
        "last_seq": t.last_seq,
    }


def players_json(player: Any) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "seed": player.seed}


def round_json(paired: fold.PairedRound) -> dict[str, Any]:
    return {
        "round": paired.number,
        "seq": paired.seq,
        "recorded_at": iso(paired.recorded_at),
        "pairings": [fold.pairing_json(b) for b in paired.boards],
    }


def event_json(event: StoredEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "type": event.type,
        "actor": event.actor,
        "occurred_at": event.occurred_iso,
        "recorded_at": event.recorded_iso,
        "payload": event.payload,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
    }


def standings_json(service: TournamentService, view: View) -> dict[str, Any]:
    """The standings of ``view`` (rank, points, tie-breaks…), a crosstable or a bracket, every
    round's pairings with their results, and the rounds paired on a result since changed."""
    standings = service.standings(view)
    t = view.tournament
    return {
        "tournament_id": t.tournament_id,
        "at": iso(view.at),
        "known_at": None if view.known.at is None else iso(view.known.at),
        "last_seq": t.last_seq,
        "finished": standings.finished,
        "concluded": t.concluded,
        "sealed": t.sealed,
        "champion": standings.champion,
        "rows": rows_json(standings, {p.id: p.name for p in t.players}),
        "crosstable": crosstable_json(standings),
        "bracket": bracket_json(standings),
        "rounds": rounds_json(t, view.rounds, view.drawn),
        "stale_pairings": fold.stale_pairings(t, view.rounds),
    }


def rows_json(standings: Standings, names: Mapping[str, str]) -> list[dict[str, Any]]:
    return [
        {
            "rank": row.rank,
            "player": row.player,
            "name": names.get(row.player, row.player),
            "points": row.points,
            "wins": row.wins,
            "played": row.played,
            "tiebreaks": {str(k): v for k, v in row.tiebreaks.items()},
            "game_points_for": row.game_points_for,
            "game_points_against": row.game_points_against,
            "withdrawn": row.withdrawn,
        }
        for row in standings.rows
    ]


def crosstable_json(standings: Standings) -> dict[str, Any] | None:
    if standings.crosstable is None:
        return None
    return {
        player: {
            opponent: [
                {"round": c.round, "first": c.first, "score": c.score, "forfeit": c.forfeit}
                for c in cells
            ]
            for opponent, cells in row.items()
        }
        for player, row in standings.crosstable.items()
    }


def bracket_json(standings: Standings) -> list[dict[str, Any]] | None:
    if standings.bracket is None:
        return None
    return [
        {
            "round": m.round,
            "board": m.board,
            "bracket": str(m.bracket),
            "stage": m.stage,
            "first": m.first,
            "second": m.second,
            "winner": m.winner,
        }
        for m in standings.bracket
    ]


def rounds_json(
    t: fold.Tournament, rounds: tuple[Round, ...], drawn: frozenset[tuple[int, int]]
) -> list[dict[str, Any]]:
    """Each round's boards with their results; ``drawn``: the board's match ended in a draw,
    which an elimination does not take (it has no result until its host rules a winner or the
    organizer forfeits it)."""
    by_number = {r.number: r for r in rounds}
    answer = []
    for paired in sorted(t.rounds, key=lambda r: r.number):
        results: Mapping[int, Result] = by_number[paired.number].results
        boards = [
            {
                **fold.pairing_json(b),
                "result": fold.result_json(results.get(b.pairing.board)),
                "drawn": (paired.number, b.pairing.board) in drawn,
            }
            for b in paired.boards
        ]
        answer.append({"round": paired.number, "seq": paired.seq, "pairings": boards})
    return answer


def diff(
    service: TournamentService,
    tournament_id: str,
    at: datetime | None,
    before: datetime,
    after: datetime | None,
) -> dict[str, Any]:
    """What changed in the standings at game time ``at`` between record times ``before`` and
    ``after`` (default now): each board whose result changed, with the rulings recorded in its
    match in between; the organizer's events recorded in between; every rank that moved."""
    old = service.view(tournament_id, at, Known(before))
    new = service.view(tournament_id, old.at, Known(after))
    old_json, new_json = standings_json(service, old), standings_json(service, new)
    return {
        "tournament_id": tournament_id,
        "at": iso(old.at),
        "before": iso(before),
        "after": None if after is None else iso(after),
        "results": changed_results(service, old, new, before, after),
        "organizer_events": [
            event_json(e) for e in service.events(tournament_id, after) if e.recorded_at > before
        ],
        "ranks": changed_ranks(old_json["rows"], new_json["rows"]),
        "champion": {"before": old_json["champion"], "after": new_json["champion"]},
        "standings": {"before": old_json["rows"], "after": new_json["rows"]},
    }


def changed_results(
    service: TournamentService,
    old: View,
    new: View,
    before: datetime,
    after: datetime | None,
) -> list[dict[str, Any]]:
    then = {(r.number, b): res for r in old.rounds for b, res in r.results.items()}
    boards = {
        (paired.number, b.pairing.board): b
        for paired in new.tournament.rounds
        for b in paired.boards
    }
    changes = []
    for r in new.rounds:
        for pairing in r.pairings:
            key = (r.number, pairing.board)
            was, now = then.get(key), r.results.get(pairing.board)
            if was == now:
                continue
            board = boards[key]
            changes.append(
                {
                    "round": r.number,
                    "board": pairing.board,
                    "match_id": board.match_id,
                    "before": fold.result_json(was),
                    "after": fold.result_json(now),
                    "rulings": rulings_between(service, board.match_id, before, after),
                }
            )
    return changes


def rulings_between(
    service: TournamentService, match_id: str | None, before: datetime, after: datetime | None
) -> list[dict[str, Any]]:
    """The rulings recorded in the match after ``before`` and by ``after``: what explains the
    change of its result."""
    if match_id is None:
        return []
    recorded = service.matches.store.read(match_id, recorded_by=after)
    return rulings_recorded([e for e in recorded if e.recorded_at > before])


def changed_ranks(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    was = {row["player"]: row for row in old}
    return [
        {
            "player": row["player"],
            "rank": {"before": was[row["player"]]["rank"], "after": row["rank"]},
            "points": {"before": was[row["player"]]["points"], "after": row["points"]},
        }
        for row in new
        if row["player"] in was
        and (was[row["player"]]["rank"], was[row["player"]]["points"])
        != (row["rank"], row["points"])
    ]
