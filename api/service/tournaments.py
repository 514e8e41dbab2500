"""The tournament service: create a tournament, pair its rounds (each match an ordinary match,
drafted by ``MatchService.new_match`` and stored with the round's event), forfeits,
withdrawals and re-pairings, and its standings at any game time as known at any record time.
Each match's result is read through the match's own fold at the same (``at``, ``known_at``):
``projections.tournament_results`` (the fold ``GET /matches/{id}/state`` answers from, kept
between asks), then the game's ``result``.

A tournament is its own stream (``events.tournaments``): ``tournament.created``,
``tournament.round_paired``, ``tournament.repaired``, ``tournament.forfeit`` and
``tournament.withdrawn``; every organizer event but the pairing itself names a reason."""

from __future__ import annotations

import functools
import threading
import uuid
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar
from urllib.parse import urlencode

import structlog
from pydantic import ValidationError

from adjudicator.kernel.errors import (
    DomainError,
    InvalidCommand,
    NotPermitted,
    RuleViolation,
    quoted,
)
from adjudicator.tournaments import rules
from adjudicator.tournaments.model import Player, Round, Settings, Standings
from adjudicator.tournaments.records import ELIMINATION
from api.service import host
from api.service.errors import ConfigInvalid
from api.service.matches import Drafted, MatchService
from api.service.shared_reports import BoundedMemo, SharedReports
from api.service.tokens import new_token, token_hash
from events import NewEvent, StoredEvent, StoreError, TokenGrant, VersionConflict
from events.tournaments import TournamentRecord, TournamentStore, UnknownTournament
from projections import tournaments as fold
from projections.tournament_results import MatchResults
from projections.tournaments import Board, Tournament
from projections.verify import Check
from projections.views import Known

ORGANIZER = "organizer"
POINTS_GAMES = frozenset({"zoom", "no_not_that"})
"""Games whose result carries game points (the game points difference tie-break)."""


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    name: str
    chat_authors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Plan:
    """A tournament as asked for, before anything is recorded."""

    name: str
    game: str
    settings: Settings
    players: tuple[PlayerEntry, ...]
    config: Mapping[str, Any]
    round_configs: Mapping[int, Mapping[str, Any]]


T = TypeVar("T")
log = structlog.get_logger(__name__)


@dataclass(frozen=True, slots=True)
class Act(Generic[T]):
    """What an organizer's act decided: its one event (type and payload), the matches it
    pairs (stored with the event, in one transaction) and what the caller needs after."""

    type: str
    payload: dict[str, Any]
    then: T
    matches: Sequence[Drafted] = ()


@dataclass(frozen=True, slots=True)
class View:
    """A tournament folded as known at a record time, its rounds with their results read at
    the same game and record time."""

    tournament: Tournament
    rounds: tuple[Round, ...]
    at: datetime
    known: Known
    drawn: frozenset[tuple[int, int]] = frozenset()
    """(round, board) of each elimination board whose match ended in a draw: no result yet."""


P = ParamSpec("P")
R = TypeVar("R")
PAIRING_CHECKS = 4096
"""Recorded pairings' checks the verify remembers (``remembered_reading_checks``), by what each
read: a few hundred bytes each."""
TURNS = 64
"""Locks the organizer's acts take, by their tournament's hash (``_one_at_a_time``)."""


def _one_at_a_time(
    act: Callable[Concatenate[TournamentService, str, P], R],
) -> Callable[Concatenate[TournamentService, str, P], R]:
    """``act`` (its first argument a tournament id) run while no other act of this service on
    the same tournament runs. Two pairings at once (a double click) would both draft a round,
    and the store would refuse the second (``version_conflict``, nothing stored: a round's
    matches are stored with its event). One after the other, the second sees the round the
    first paired and gets the answer that says so (``round_not_finished``). Across replicas
    the store's version check refuses the second."""

    def in_turn(self: TournamentService, tournament_id: str, /, *a: P.args, **k: P.kwargs) -> R:
        with self._turns[hash(tournament_id) % TURNS]:
            return act(self, tournament_id, *a, **k)

    functools.update_wrapper(in_turn, act)  # its name and docstring
    return in_turn


class TournamentService:
    def __init__(self, matches: MatchService, verify_reuse_seconds: float = 30.0) -> None:
        self.matches = matches
        self.store = TournamentStore(matches.store)
        self.folds = MatchResults(self.store, matches.games)
        self.reports: SharedReports[dict[str, Any]] = SharedReports(verify_reuse_seconds)
        self.pairing_checks: BoundedMemo[Hashable, Check] = BoundedMemo(PAIRING_CHECKS)
        self._turns = [threading.Lock() for _ in range(TURNS)]

    # create

    def create(self, plan: Plan) -> tuple[str, str]:
        """Check everything, then record ``tournament.created``; the id and organizer token."""
        game = self.matches.game(plan.game)
        configs = {0: plan.config, **plan.round_configs}
        checked = {n: self._checked_config(game.config_model, c) for n, c in configs.items()}
        players = tuple(Player(f"p{i}", p.name, i) for i, p in enumerate(plan.players, 1))
        rules.check_settings(plan.settings, players)
        authors = [entry.chat_authors for entry in plan.players]
        rules.check_entries(plan.settings, players, plan.round_configs, authors)
        token, now = new_token("org"), self.matches.clock()
        tournament_id = str(uuid.uuid4())
        payload = {
            "name": plan.name,
            "game": game.name,
            "settings": fold.settings_json(plan.settings),
            "players": [
                {"id": p.id, "name": p.name, "seed": p.seed, "chat_authors": list(e.chat_authors)}
                for p, e in zip(players, plan.players, strict=True)
            ],
            "config": checked[0],
            "round_configs": {str(n): c for n, c in checked.items() if n},
        }
        record = TournamentRecord(tournament_id, plan.name, game.name, now, token_hash(token), 0)
        self.store.create(record, [NewEvent(fold.CREATED, ORGANIZER, now, payload)])
        return tournament_id, token

    @staticmethod
    def _checked_config(model: Any, config: Mapping[str, Any]) -> dict[str, Any]:
        try:
            checked: dict[str, Any] = model.model_validate(dict(config)).model_dump(mode="json")
        except ValidationError as error:
            raise ConfigInvalid(error) from None
        return checked

    # who

    def require_organizer(self, tournament_id: str, token: str | None) -> None:
        """401 without a token; 403 ``not_organizer`` unless it is this tournament's."""
        record = self.store.get(tournament_id)
        if token is None:
            raise NotPermitted("not_organizer", "this needs the tournament's organizer token")
        if token_hash(token) != record.organizer_hash:
            raise NotPermitted("not_organizer", "only the tournament's organizer may do this")

    # reads

    def events(self, tournament_id: str, known_at: datetime | None = None) -> list[StoredEvent]:
        self.store.get(tournament_id)
        return self.store.read(tournament_id, known_at)

    def tournament(self, tournament_id: str, known_at: datetime | None = None) -> Tournament:
        return fold.fold_tournament(self.events(tournament_id, known_at))

    def view(self, tournament_id: str, at: datetime | None, known: Known) -> View:
        """The tournament at game time ``at`` (default now) as known at ``known.at``."""
        now = self.matches.clock()
        at = at or now
        events = [e for e in self.events(tournament_id, known.at) if e.occurred_at <= at]
        if not events:  # asked about a time before it was created
            raise UnknownTournament(tournament_id, self.store.get(tournament_id).created_at)
        tournament = fold.fold_tournament(events)
        results = self.results(tournament.match_ids(), at, known)
        rounds = fold.model_rounds(tournament, results.get)
        drawn = {
            (r.number, board)
            for r in tournament.rounds
            for board in fold.drawn_boards(tournament, results.get, r.number)
        }
        return View(tournament, rounds, at, known, frozenset(drawn))

    def result(self, match_id: str, at: datetime, known: Known) -> Mapping[str, Any] | None:
        return self.results([match_id], at, known).get(match_id)

    def results(
        self, match_ids: Sequence[str], at: datetime, known: Known
    ) -> dict[str, Mapping[str, Any] | None]:
        """Each match's result at game time ``at`` as known at ``known``: the match's own fold
        (``projections.tournament_results``: the live match state's ``Running`` fold, kept
        between asks), then the game's ``result``."""
        return self.folds.results(match_ids, at, known)

    def standings(self, view: View) -> Standings:
        t = view.tournament
        concluded = t.concluded is not None
        return rules.standings(t.settings, t.players, view.rounds, t.withdrawn_ids, concluded)

    # the organizer's acts: each a decide function of the tournament, recorded by _act

    def pair(self, tournament_id: str) -> tuple[fold.PairedRound, dict[str, Any]]:
        """Pair the next round (the current one must be finished) and create its matches."""

        def decide(t: Tournament) -> Act[list[Drafted]]:
            results, seqs = self._results_now(t)
            _require_no_draws(t, results)
            rounds = fold.model_rounds(t, results.get)
            pairings = rules.pair_next(t.settings, t.players, rounds, t.withdrawn_ids)
            number = pairings[0].round if pairings else len(t.rounds) + 1
            boards, drafted = self._new_matches(t, pairings)
            payload = {
                "round": number,
                "pairings": [fold.pairing_json(b) for b in boards],
                "basis": fold.basis_of(rounds),
                "known_seqs": seqs,
            }
            return Act(fold.PAIRED, payload, drafted, matches=drafted)

        drafted = self._act(tournament_id, decide)[1]
        return self.tournament(tournament_id).rounds[-1], _tokens(drafted)

    def repair(self, tournament_id: str, reason: str) -> tuple[fold.PairedRound, dict[str, Any]]:
        """Pair the current round again before any of its matches has started (after a
        withdrawal, say): new matches replace its matches, which are then closed without a
        result (:meth:`_close_replaced`), so that their links, already handed out, refuse
        play instead of recording a game the standings never read."""

        def decide(t: Tournament) -> Act[list[Drafted]]:
            if not t.rounds:
                raise RuleViolation("round_not_paired", "no round has been paired yet")
            current = max(t.rounds, key=lambda r: r.number)
            self._require_unstarted(current)
            results, seqs = self._results_now(t)
            rounds = fold.model_rounds(t, results.get)
            earlier = tuple(r for r in rounds if r.number < current.number)
            pairings = rules.pair_next(t.settings, t.players, earlier, t.withdrawn_ids)
            boards, drafted = self._new_matches(t, pairings)
            payload = {
                "round": current.number,
                "pairings": [fold.pairing_json(b) for b in boards],
                "basis": fold.basis_of(earlier),
                "known_seqs": seqs,
                "replaces": [b.match_id for b in current.boards if b.match_id is not None],
                "reason": reason,
            }
            return Act(fold.REPAIRED, payload, drafted, matches=drafted)

        event, drafted = self._act(tournament_id, decide)
        self._close_replaced(event.payload["replaces"])
        return self.tournament(tournament_id).rounds[-1], _tokens(drafted)

    def _close_replaced(self, match_ids: Sequence[str]) -> None:
        """Close each replaced match, as its host would (``match.closed``, no result: nothing
        was played). After the re-pairing is recorded, not in its transaction: a process that
        stops in between leaves a replaced match open, as every one was before, and one closed
        meanwhile (or started, in a race with the check) is left as it is."""
        for match_id in match_ids:
            try:
                host.close(self.matches, match_id, TokenGrant(match_id, "host", None))
            except (DomainError, StoreError):  # closed meanwhile, say
                log.info("replaced match not closed", match_id=match_id, exc_info=True)

    def forfeit(
        self, tournament_id: str, round_number: int, board: int, winner: str | None, reason: str
    ) -> StoredEvent:
        """A board of the current round decided without play: its match has no result yet."""

        def decide(t: Tournament) -> Act[None]:
            found = self._board(t, round_number, board)
            pairing = found.pairing
            if winner is not None and winner not in (pairing.first, pairing.second):
                raise InvalidCommand(
                    "unknown_player", f"{quoted(winner)} does not play on this board"
                )
            if pairing.second is None or found.match_id is None:
                raise RuleViolation("forfeit_on_bye", "a bye has no opponent to forfeit")
            elimination = t.settings.format in ELIMINATION
            recorded = t.forfeits.get((round_number, board))
            if recorded is not None and (recorded.winner is not None or not elimination):
                raise RuleViolation("board_decided", "this board is already decided by forfeit")
            if winner is None and elimination:
                raise InvalidCommand(
                    "elimination_needs_winner", "an elimination board's forfeit names its winner"
                )
            now = self.result(found.match_id, self.matches.clock(), Known())
            if fold.result_of(found, now, None, elimination) is not None:
                raise RuleViolation("board_decided", "this board's match has a result already")
            payload = {"round": round_number, "board": board, "winner": winner, "reason": reason}
            return Act(fold.FORFEIT, payload, None)

        return self._act(tournament_id, decide)[0]

    def withdraw(self, tournament_id: str, player: str, reason: str) -> StoredEvent:
        """The player is paired in no later round; the games played stay."""

        def decide(t: Tournament) -> Act[None]:
            if t.player(player) is None:
                raise InvalidCommand(
                    "unknown_player", f"no player {quoted(player)} in this tournament"
                )
            if player in t.withdrawn:
                raise RuleViolation("player_withdrawn", f"{quoted(player)} has withdrawn already")
            return Act(fold.WITHDRAWN, {"player": player, "reason": reason}, None)

        return self._act(tournament_id, decide)[0]

    def conclude(self, tournament_id: str, reason: str) -> StoredEvent:
        """End the event before its planned rounds, as it stands (``rules.check_conclusion``):
        it is finished from then on, its leader the champion, and no round is paired again."""

        def decide(t: Tournament) -> Act[None]:
            rules.check_conclusion(t.settings, t.players, self._rounds(t), t.withdrawn_ids)
            return Act(fold.CONCLUDED, {"reason": reason}, None)

        return self._act(tournament_id, decide)[0]

    def seal(self, tournament_id: str, reason: str) -> StoredEvent:
        """Seal the finished event (every planned round played with its results, or concluded
        early; ``tournament_not_finished`` before): close each of its matches that is still
        open, as its host would (the result as folded now is recorded, and the match's leaf
        enters the transparency log), then record ``tournament.sealed`` naming every match and
        the hash of its last event, with the tournament's own leaf in the same transaction
        (``TournamentStore.append``). Its standings are final from then on: a closed match
        takes no ruling, and the tournament no act (``tournament_sealed``). A process that
        stops after closing the matches leaves them closed and the tournament unsealed: sealing
        again records the seal. The seal records the final standings (each player's rank) and
        the champion, read as a pairing reads its results (``known_seqs``), so the verify
        recomputes them from the match records."""
        t = self.tournament(tournament_id)
        _require_open(t, after_conclusion=True)
        self._check_seal(t)
        for match_id, (status, _) in self.store.match_heads(t.match_ids()).items():
            if status != "closed":
                self._close(match_id)
        sealed = functools.partial(self._sealed, reason=reason)
        return self._act(tournament_id, sealed, after_conclusion=True)[0]

    def _sealed(self, t: Tournament, reason: str) -> Act[None]:
        """The seal's event, decided on the tournament as stored, its matches closed."""
        results, seqs = self._results_now(t)
        rounds = fold.model_rounds(t, results.get)
        concluded = t.concluded is not None
        rules.check_seal(t.settings, t.players, rounds, t.withdrawn_ids, concluded)
        heads = self.store.match_heads(t.match_ids())
        still_open = sorted(m for m, (status, _) in heads.items() if status != "closed")
        if still_open:
            raise RuleViolation(
                "match_not_closed", f"match {still_open[0]} could not be closed: seal again"
            )
        table = rules.standings(t.settings, t.players, rounds, t.withdrawn_ids, concluded)
        payload = {
            "reason": reason,
            "matches": {m: heads[m][1] for m in t.match_ids()},
            "known_seqs": seqs,
            "standings": fold.final_table(table),
            "champion": table.champion,
        }
        return Act(fold.SEALED, payload, None)

    def _check_seal(self, t: Tournament) -> None:
        rounds = self._rounds(t)
        concluded = t.concluded is not None
        rules.check_seal(t.settings, t.players, rounds, t.withdrawn_ids, concluded)

    def _close(self, match_id: str) -> None:
        """Close a match for its seal, as its host would; one closed meanwhile stays so."""
        try:
            host.close(self.matches, match_id, TokenGrant(match_id, "host", None))
        except (DomainError, StoreError) as error:
            if getattr(error, "code", None) != "match_closed":
                raise

    @_one_at_a_time
    def _act(
        self,
        tournament_id: str,
        decide: Callable[[Tournament], Act[T]],
        after_conclusion: bool = False,
    ) -> tuple[StoredEvent, T]:
        """The one way an organizer's act is recorded: load the tournament, ``decide``,
        append its event after the seq it was decided against, with the matches it pairs in
        the same transaction. Another writer first (another replica): refused
        (``version_conflict``) with nothing stored, to be asked again on the fresh
        tournament (not retried here: the organizer decides again on what changed)."""
        t = self.tournament(tournament_id)
        _require_open(t, after_conclusion)  # an event ended early or sealed takes no act
        act = decide(t)
        event = NewEvent(act.type, ORGANIZER, self.matches.clock(), act.payload)
        new = [d.new for d in act.matches]
        try:
            stored = self.store.append(t.tournament_id, t.last_seq, [event], new)
        except VersionConflict as conflict:
            raise RuleViolation(
                "version_conflict", "the tournament changed meanwhile: read it and ask again"
            ) from conflict
        for made in new:
            self.matches.remember(made)
        return stored[0], act.then

    # helpers

    def _rounds(self, t: Tournament) -> tuple[Round, ...]:
        """``t``'s rounds with each match's result now, as known now."""
        return fold.model_rounds(t, self._results_now(t)[0].get)

    def _results_now(
        self, t: Tournament
    ) -> tuple[dict[str, Mapping[str, Any] | None], dict[str, int]]:
        """Each match's result now, as known now, and the last seq of each log it folds: a
        pairing records them (``known_seqs``), so its verify reads exactly what it read,
        whatever the record times of events of other streams committed meanwhile."""
        return self.folds.results_and_seqs(t.match_ids(), self.matches.clock(), Known())

    def _board(self, t: Tournament, round_number: int, board: int) -> Board:
        paired = next((r for r in t.rounds if r.number == round_number), None)
        if paired is None:
            raise InvalidCommand("unknown_board", f"round {round_number} is not paired")
        found = next((b for b in paired.boards if b.pairing.board == board), None)
        if found is None:
            raise InvalidCommand("unknown_board", f"round {round_number} has no board {board}")
        return found

    def _require_unstarted(self, paired: fold.PairedRound) -> None:
        for board in paired.boards:
            if board.match_id is not None and self.matches.match(board.match_id).last_seq > 2:
                raise RuleViolation(
                    "round_started", f"board {board.pairing.board}'s match has started"
                )

    def _new_matches(
        self, t: Tournament, pairings: Sequence[Any]
    ) -> tuple[list[Board], list[Drafted]]:
        """One ordinary match drafted per pairing with an opponent (seat alpha: the pairing's
        first, who holds the Advantage), to be stored with the round's event."""
        boards, drafted = [], []
        for pairing in pairings:
            if pairing.second is None:
                boards.append(Board(pairing, None))
                continue
            draft = self.matches.new_match(
                t.game,
                (fold.FIRST_SEAT, fold.SECOND_SEAT),
                fold.FIRST_SEAT,
                t.config_for(pairing.round),
                tournament={
                    "id": t.tournament_id,
                    "round": pairing.round,
                    "board": pairing.board,
                    "first": pairing.first,
                    "second": pairing.second,
                },
            )
            boards.append(Board(pairing, draft.new.record.match_id))
            drafted.append(draft)
        return boards, drafted


def _tokens(drafted: Sequence[Drafted]) -> dict[str, Any]:
    """Every role's token of each paired match, by match id."""
    return {d.new.record.match_id: d.tokens for d in drafted}


def role_links(match_id: str, tokens: Mapping[str, Any]) -> dict[str, str]:
    """The console link of each role (the token in the fragment, never sent to a server)."""
    base = f"/console/matches/{match_id}#"
    links = {"host": base + urlencode({"role": "host", "token": tokens["host"]})}
    for seat, token in tokens["seats"].items():
        links[seat] = base + urlencode({"role": f"seat:{seat}", "token": token})
    links["auditor"] = base + urlencode({"role": "auditor", "token": tokens["auditor"]})
    links["spectator"] = base + urlencode({"role": "spectator"})
    return links


def _require_no_draws(t: Tournament, results: Mapping[str, Mapping[str, Any] | None]) -> None:
    """409 ``round_not_finished`` naming the boards of the current round of an elimination whose
    match ended in a draw (``fold.drawn_boards``): each needs a winner before the next round."""
    number = max((r.number for r in t.rounds), default=0)
    drawn = fold.drawn_boards(t, results.get, number)
    if drawn:
        boards = ", ".join(str(b) for b in drawn)
        raise RuleViolation(
            "round_not_finished",
            f"round {number}, board {boards}: the match ended in a draw and an elimination"
            " match needs a winner: its host rules one (a declare_result ruling naming the"
            " winner) or the organizer gives the board by forfeit",
        )


def _require_open(t: Tournament, after_conclusion: bool = False) -> None:
    """No act once the tournament is sealed (``tournament_sealed``), nor once the organizer
    concluded it (``tournament_finished``) but the seal (``after_conclusion``)."""
    if t.sealed is not None:
        raise RuleViolation("tournament_sealed", f"the organizer sealed the tournament: {t.sealed}")
    if t.concluded is not None and not after_conclusion:
        raise RuleViolation(
            "tournament_finished", f"the organizer concluded the tournament: {t.concluded}"
        )
