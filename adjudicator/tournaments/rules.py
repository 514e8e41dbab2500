"""The tournament's pure rules: check the settings, pair the next round, rank the standings.

Deterministic: the same settings, players, rounds and withdrawals always give the same
pairings and standings, so a verifier recomputes them. No clock, no I/O, no randomness.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from adjudicator.tournaments import berger, elimination, swiss, tiebreaks
from adjudicator.tournaments.model import (
    Crosstable,
    Format,
    Pairing,
    Player,
    Round,
    Settings,
    StandingRow,
    Standings,
    Tiebreak,
    TournamentError,
)
from adjudicator.tournaments.records import (
    ELIMINATION,
    Game,
    check_rounds,
    crosstable,
    games,
    points,
    round_finished,
)

ROUND_ROBINS = frozenset({Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN})
SWISS_MAX_PLAYERS = 128
"""The largest Swiss field a new tournament may have: a Swiss round is one maximum-weight
matching over the field (``swiss``), about cubic in its size, run on the service's CPU while it
referees every other match and again at each verify (the times by field size:
``docs/tournaments.md``, "Speed")."""
ELIMINATION_TIEBREAKS = frozenset({Tiebreak.WINS, Tiebreak.GAME_POINTS_DIFF})


def check_settings(settings: Settings, players: Sequence[Player]) -> None:
    """Refuse a field or settings the format cannot run (nothing is recorded)."""
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise TournamentError("duplicate_player", "two players share an id")
    if sorted(p.seed for p in players) != list(range(1, len(players) + 1)):
        raise TournamentError("bad_seeds", "the seeds are not 1 to the number of players")
    if len(players) < 2:
        raise TournamentError("too_few_players", f"{settings.format} needs at least 2 players")
    _check_rounds_setting(settings, len(players))
    _check_tiebreaks(settings)


def check_entries(
    settings: Settings,
    players: Sequence[Player],
    round_numbers: Iterable[int],
    chat_authors: Iterable[Sequence[str]],
) -> None:
    """Refuse what a new tournament's entries may not hold beyond what pairing needs: a Swiss
    field over ``SWISS_MAX_PLAYERS``, two players of one name, a chat author registered twice
    (one list a player), a config for a round the format never plays. Checked when a
    tournament is created only (not by :func:`pair_next`), so a tournament recorded before
    these checks still pairs."""
    if settings.format == Format.SWISS and len(players) > SWISS_MAX_PLAYERS:
        raise TournamentError(
            "too_many_players",
            f"a Swiss takes at most {SWISS_MAX_PLAYERS} players ({len(players)} given)",
        )
    _check_names(players)
    _check_chat_authors(chat_authors)
    _check_round_configs(settings, len(players), round_numbers)


def _check_names(players: Sequence[Player]) -> None:
    """Two players of one name (in any case) would be one row twice in every table."""
    seen: dict[str, str] = {}
    for p in players:
        key = " ".join(p.name.split()).casefold()
        if key in seen:
            raise TournamentError(
                "duplicate_player", f"two players share the name {p.name!r} ({seen[key]}, {p.id})"
            )
        seen[key] = p.id


def _check_chat_authors(chat_authors: Iterable[Sequence[str]]) -> None:
    """A chat author registered for two players (or twice) would make the chat import of
    their match guess whose post it is. Two keys are one author when they differ only in case:
    the import reads a key as a name or nickname in any case
    (``adjudicator.transcripts.posts.Author.known_as``)."""
    seen: set[str] = set()
    for authors in chat_authors:
        for author in authors:
            key = author.casefold()
            if key in seen:
                raise TournamentError(
                    "duplicate_chat_author", f"the chat author {author!r} is registered twice"
                )
            seen.add(key)


def _check_round_configs(settings: Settings, n_players: int, numbers: Iterable[int]) -> None:
    """Refuse a per-round config for a round the event never has (rounds are 1 to the last
    one the format plays: double elimination's last is its grand final's reset, 2k + 1)."""
    last = planned_rounds(settings, n_players)
    if last is None:
        last = 2 * elimination.levels(n_players) + 1
    for number in sorted(numbers):
        if not 1 <= number <= last:
            raise TournamentError(
                "bad_round_config",
                f"a config for round {number}: this {settings.format} plays rounds 1 to {last}",
            )


def _check_rounds_setting(settings: Settings, n: int) -> None:
    if settings.format is not Format.SWISS:
        if settings.rounds is not None:
            raise TournamentError("bad_rounds", f"{settings.format} takes no number of rounds")
        return
    if settings.rounds is None or settings.rounds < 1:
        raise TournamentError("bad_rounds", "a Swiss needs a number of rounds, at least 1")
    if settings.rounds > n - 1:
        most = f"{n - 1} Swiss round{'' if n - 1 == 1 else 's'}"
        raise TournamentError("too_many_rounds", f"{n} players play at most {most}")


def _check_tiebreaks(settings: Settings) -> None:
    if len(set(settings.tiebreaks)) != len(settings.tiebreaks):
        raise TournamentError("duplicate_tiebreak", "a tie-break is listed twice")
    for tb in settings.tiebreaks:
        if settings.format in ELIMINATION and tb not in ELIMINATION_TIEBREAKS:
            raise TournamentError("tiebreak_not_for_format", f"{tb} does not rank an elimination")
        if tb is Tiebreak.GAME_POINTS_DIFF and not settings.points_game:
            raise TournamentError("tiebreak_not_for_format", "the game has no game points")


def planned_rounds(settings: Settings, n_players: int) -> int | None:
    """Rounds the event will have: round robin N - 1 per cycle (N the field, made even),
    Swiss its setting, single elimination k (2^k >= n), double elimination ``None`` (2k, or
    2k + 1 with a grand-final reset)."""
    if settings.format is Format.ROUND_ROBIN:
        return berger.rounds_per_cycle(n_players)
    if settings.format is Format.DOUBLE_ROUND_ROBIN:
        return 2 * berger.rounds_per_cycle(n_players)
    if settings.format is Format.SWISS:
        return settings.rounds
    if settings.format is Format.SINGLE_ELIMINATION:
        return elimination.levels(n_players)
    return None


def pair_next(
    settings: Settings,
    players: Sequence[Player],
    rounds: Sequence[Round],
    withdrawn: frozenset[str] = frozenset(),
) -> tuple[Pairing, ...]:
    """The pairings of round ``len(rounds) + 1``. Raises ``round_not_finished`` while a board
    of the last round has no result and ``tournament_finished`` when no round is left."""
    _check_all(settings, players, rounds, withdrawn)
    _require_last_round_finished(rounds)
    number = len(rounds) + 1
    if settings.format in ELIMINATION:
        return _pair_elimination(settings, players, rounds, withdrawn)
    planned = planned_rounds(settings, len(players))
    if planned is not None and number > planned:
        raise TournamentError("tournament_finished", f"all {planned} rounds are paired")
    if settings.format in ROUND_ROBINS:
        return _pair_round_robin(players, number, withdrawn)
    return swiss.pair(players, games(players, rounds), number, withdrawn)


def _require_last_round_finished(rounds: Sequence[Round]) -> None:
    """``round_not_finished`` while a board of the last recorded round has no result."""
    if rounds and not round_finished(rounds[-1]):
        raise TournamentError(
            "round_not_finished", f"round {rounds[-1].number} has boards without a result"
        )


def _check_all(
    settings: Settings,
    players: Sequence[Player],
    rounds: Sequence[Round],
    withdrawn: frozenset[str],
) -> None:
    check_settings(settings, players)
    check_rounds(settings, players, rounds)
    unknown = withdrawn - {p.id for p in players}
    if unknown:
        raise TournamentError("unknown_player", f"no player {sorted(unknown)[0]!r}")


def _pair_round_robin(
    players: Sequence[Player], number: int, withdrawn: frozenset[str]
) -> tuple[Pairing, ...]:
    """The Berger table's round; a withdrawn player's opponent (like the dummy's) has a bye."""
    by_seed = [p.id for p in sorted(players, key=lambda p: p.seed)]
    out = []
    for board, (a, b) in enumerate(berger.cycle_round(len(players), number), start=1):
        first, second = berger.by_number(by_seed, a), berger.by_number(by_seed, b)
        first, second = (None if x in withdrawn else x for x in (first, second))
        if first is None and second is None:
            continue
        if first is None or second is None:
            out.append(Pairing(number, board, first or second or "", None))
        else:
            out.append(Pairing(number, board, first, second))
    return tuple(out)


def _pair_elimination(
    settings: Settings,
    players: Sequence[Player],
    rounds: Sequence[Round],
    withdrawn: frozenset[str],
) -> tuple[Pairing, ...]:
    double = settings.format is Format.DOUBLE_ELIMINATION
    replayed = elimination.replay(double, players, rounds, withdrawn)
    if replayed.next_matches is None:
        raise TournamentError("tournament_finished", "the bracket has its champion")
    seed = {p.id: p.seed for p in players}
    return elimination.pairings(
        replayed.next_matches, games(players, rounds), seed, len(rounds) + 1
    )


def is_finished(
    settings: Settings,
    players: Sequence[Player],
    rounds: Sequence[Round],
    withdrawn: frozenset[str] = frozenset(),
) -> bool:
    """Every round is paired and has its results (elimination: the champion is known)."""
    _check_all(settings, players, rounds, withdrawn)
    return _finished(settings, players, rounds, withdrawn)


def _finished(
    settings: Settings,
    players: Sequence[Player],
    rounds: Sequence[Round],
    withdrawn: frozenset[str],
) -> bool:
    if settings.format in ELIMINATION:
        double = settings.format is Format.DOUBLE_ELIMINATION
        replayed = elimination.replay(double, players, rounds, withdrawn)
        return replayed.champion is not None or (
            replayed.next_matches is None and not replayed.unfinished
        )
    planned = planned_rounds(settings, len(players))
    return planned is not None and len(rounds) >= planned and all(round_finished(r) for r in rounds)


def check_conclusion(
    settings: Settings,
    players: Sequence[Player],
    rounds: Sequence[Round],
    withdrawn: frozenset[str] = frozenset(),
) -> None:
    """Whether the organizer may end the event before its planned rounds (a Swiss that
    withdrawals have left without a pairing free of rematches, an event cut short): not while
    a board of the last round has no result (``round_not_finished``: forfeit it first), nor
    once the event is finished (``tournament_finished``)."""
    _check_all(settings, players, rounds, withdrawn)
    _require_last_round_finished(rounds)
    if _finished(settings, players, rounds, withdrawn):
        raise TournamentError("tournament_finished", "the tournament is finished already")


def check_seal(
    settings: Settings,
    players: Sequence[Player],
    rounds: Sequence[Round],
    withdrawn: frozenset[str] = frozenset(),
    concluded: bool = False,
) -> None:
    """Whether the organizer may seal the event (its results final, its log signed): only once
    it is finished, every planned round played with its results (elimination: the bracket
    decided) or the event concluded early (``tournament_not_finished`` before)."""
    _check_all(settings, players, rounds, withdrawn)
    if concluded:
        return
    if not _finished(settings, players, rounds, withdrawn):
        raise TournamentError(
            "tournament_not_finished",
            "the tournament is not finished: every planned round needs its results first"
            " (or conclude it as it stands)",
        )


def standings(
    settings: Settings,
    players: Sequence[Player],
    rounds: Sequence[Round],
    withdrawn: frozenset[str] = frozenset(),
    concluded: bool = False,
) -> Standings:
    """Points, tie-breaks and rank of every player, with the crosstable (round robin) or the
    bracket (elimination). ``concluded``: the organizer ended the event early, so it is
    finished as it stands (its leader the champion, none if no round was paired; an
    elimination's only if decided)."""
    _check_all(settings, players, rounds, withdrawn)
    history = games(players, rounds)
    pts = {p.id: points(history[p.id]) for p in players}
    fixed = {
        p.id: {tb: tiebreaks.value(tb, history[p.id], pts, pts[p.id]) for tb in settings.tiebreaks}
        for p in players
    }
    seeded = [p.id for p in sorted(players, key=lambda p: p.seed)]
    finished = concluded or _finished(settings, players, rounds, withdrawn)
    champion = None
    bracket = None
    reach: dict[str, float] = {}
    if settings.format in ELIMINATION:
        replayed = elimination.replay(
            settings.format is Format.DOUBLE_ELIMINATION, players, rounds, withdrawn
        )
        champion = replayed.champion
        bracket = elimination.bracket(replayed, rounds)
        reach = _reach(settings, seeded, replayed, len(rounds), withdrawn)
    ordered, values = tiebreaks.rank(
        seeded, lambda p: (reach.get(p, 0.0), pts[p]), settings.tiebreaks, fixed, history
    )
    rows = tuple(
        _row(i, p, pts[p], history[p], values[p], p in withdrawn)
        for i, p in enumerate(ordered, start=1)
    )
    if settings.format not in ELIMINATION and finished and rounds:  # ended before any: none
        champion = ordered[0]
    cross: Crosstable | None = (
        crosstable(seeded, history) if settings.format in ROUND_ROBINS else None
    )
    return Standings(rows, cross, bracket, finished, champion)


def _reach(
    settings: Settings,
    seeded: list[str],
    replayed: elimination.Replay,
    last: int,
    withdrawn: frozenset[str],
) -> dict[str, float]:
    """How far each player went: the round of the loss that put them out (later is better);
    still in: one more than any round (``last``, the last paired); the champion: two more. A
    loss by walkover counts: a withdrawn player's match in a round paired after the withdrawal
    (the opponent's bye) is lost, and a match of two withdrawn players puts both out
    (``Replay.walkovers``), so a withdrawn player is out in the round they missed. Withdrawn but
    not out yet (no such round paired since): just below every player still in."""
    lives = 2 if settings.format is Format.DOUBLE_ELIMINATION else 1
    losses = {p: 0 for p in seeded}
    out_at: dict[str, float] = {}
    played = zip(replayed.matches, replayed.winners, strict=True)
    for number, (matches, won) in enumerate(played, start=1):
        for m, winner in zip(matches, won, strict=True):
            if winner is None or m.a is None or m.b is None:
                continue
            loser = m.b if winner == m.a else m.a
            losses[loser] += 1
            if losses[loser] == lives:
                out_at[loser] = number
    for player, number in replayed.walkovers.items():
        out_at[player] = min(out_at.get(player, number), number)
    return {
        p: last + 2.0
        if p == replayed.champion
        else out_at.get(p, last + 0.5 if p in withdrawn else last + 1.0)
        for p in seeded
    }


def _row(
    rank: int,
    player: str,
    pts: float,
    history: Sequence[Game],
    values: dict[Tiebreak, float],
    withdrawn: bool,
) -> StandingRow:
    done = [g for g in history if g.score is not None]
    return StandingRow(
        rank=rank,
        player=player,
        points=pts,
        wins=sum(1 for g in done if g.score == 1.0),
        played=len(done),
        tiebreaks=values,
        game_points_for=sum(g.points_for for g in done),
        game_points_against=sum(g.points_against for g in done),
        withdrawn=withdrawn,
    )
