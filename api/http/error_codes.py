"""Every error code the service answers with: its HTTP status and what it means. One table for
every game and route, so a code has one status everywhere. ``tests/golden/error_codes.json`` is
this table as reviewed; the README's error table is generated from it. After adding or changing
a code, ``.venv/bin/python -m api.http.error_codes`` rewrites both (review the diff), and the
code goes into ``adjudicator.kernel.errors.Code`` too: that ``Literal`` is what mypy checks
every raise site against, and a test holds the two equal.

Statuses: 422 the request is malformed or names what does not exist; 409 it is well formed but
the match's state forbids it now (or another writer got in first); 403 the token may not do it;
401 no usable token; 404 no such match or route; 413 the body is too large; 500 the service
failed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from adjudicator.tournaments.rules import SWISS_MAX_PLAYERS


@dataclass(frozen=True, slots=True)
class Code:
    status: int
    meaning: str


def _table(status: int, **meanings: str) -> dict[str, Code]:
    return {code: Code(status, meaning) for code, meaning in meanings.items()}


CODES: dict[str, Code] = {
    **_table(
        400,
        http_error="the HTTP request itself is unusable",
    ),
    **_table(
        401,
        missing_token="this needs 'Authorization: Bearer <token>'",
        invalid_token="the token is malformed or unknown to the service",
    ),
    **_table(
        403,
        not_operator="only the operator token may do this",
        not_organizer="tournament: only the tournament's organizer token may do this",
        token_not_for_match="the token belongs to another match",
        host_only="only the match's host may do this",
        wrong_seat="a seat acts only for itself",
        read_only_token="the auditor's token reads, it never acts",
        game_time_host_only="only the host enters a game time (occurred_at)",
        export_forbidden="only the host, or the auditor once the match is closed, exports",
        export_before_close="the auditor may export once the match is closed",
        ludii_hidden="a hidden-variant game's values: the host only until the close",
    ),
    **_table(
        404,
        unknown_match="no match with this id",
        unknown_tournament="no tournament with this id",
        not_in_log="transparency log: the match has no leaf (it is not closed)",
        not_found="no such route",
    ),
    **_table(405, method_not_allowed="the route does not take this method"),
    **_table(413, payload_too_large="the request body is over the size limit"),
    **_table(
        429,
        too_many_streams="this client address holds as many live streams as it may"
        " (ADJUDICATOR_MAX_STREAMS_PER_CLIENT); close one or retry later",
    ),
    **_table(
        422,
        log_size_out_of_range="transparency log: a tree size or index the log has not reached",
        bad_cosignature="transparency log: the cosignature, its key or its checkpoint is refused",
        invalid_request="the request does not match its schema (a missing, misspelled or"
        " mistyped field, a bad parameter, invalid JSON)",
        json_required="the body is not JSON: send it as application/json",
        invalid_config="the game's config at match creation is not valid",
        unknown_game="no game with this name",
        unknown_command="the game has no command of this type",
        unknown_seat="no seat with this name in the match",
        duplicate_seat="the two seats need different names",
        naive_time="a time without a zone",
        time_out_of_range="a time outside the years the service can store and compute with",
        game_time_in_future="an entered game time (or a ruling's) is ahead of now",
        unknown_seq="no event with this seq in the match",
        not_rulable="match bookkeeping (match.*) cannot be voided or amended",
        not_amendable="the event has no graded outcome to amend",
        ruling_not_applicable="the game has no use for this ruling",
        idempotency_key_reused="the Idempotency-Key was used for a different request",
        invalid_event="the store refused the events (an internal check)",
        record_invalid="an imported match record does not verify (the report says why)",
        malformed_coordinate="Zoom: not a coordinate (column letters then row, like c4)",
        outside_grid="Zoom: the cell is outside the grid",
        unknown_target="Zoom: the round has no target with this label",
        duplicate_target="Zoom: a buzz names a target twice",
        empty_grid="Zoom: a supplied grid or target has no cells",
        ragged_grid="Zoom: a supplied grid or target is not rectangular",
        bad_symbol="Zoom: an empty or over-long symbol",
        target_too_large="Zoom: a supplied target is larger than the grid",
        target_absent="Zoom: a supplied target does not occur in the grid",
        grid_too_small="Zoom: the grid cannot hold that many distinct targets",
        cannot_generate="Zoom: no grid with every target exactly once within the bound",
        bad_object="No, Not That!: an object is 1 to 32 printable characters",
        head_start_is_a_step_action="No, Not That!: Head Start is given as a first-step action",
        unknown_wordlist="No, Not That!: the service has no word list with this sha256",
        bad_cell="Zombego: not a cell of this board",
        bad_move="Zombego: not a move in Ludii notation",
        bad_slot="Zombego: no such hand slot",
        unknown_piece="Zombego: the piece set has no piece of this value",
        not_zombego="Ludii notation is for Zombego matches",
        options_mismatch="Ludii: the game's options are not the match's",
        illegal_ply="Ludii: a ply the rules refuse (details name it)",
        not_an_export="transcript: the file is not a DiscordChatExporter JSON export",
        not_a_transcript="transcript: the text does not follow '[<time>] <name>: <text>'",
        bad_message="transcript: a message lacks a field it needs (the message is named)",
        missing_timestamp="transcript: a message has no timestamp",
        bad_timestamp="transcript: a timestamp is not ISO 8601",
        timestamp_without_offset="transcript: a timestamp has no UTC offset",
        unknown_author="transcript: the author map names nobody in the file",
        ambiguous_author="transcript: an author map entry names more than one author",
        no_transcript_reader="transcript: the game has no post parser",
        unknown_post="transcript: a correction names no post of the exports (or several)",
        post_not_mapped="transcript: a correction names a post by neither a seat nor a host",
        corrected_and_excluded="transcript: a post is both excluded and corrected",
        correction_wrong_seat="transcript: a correction acts for another seat than the post's",
        too_few_players="tournament: the format needs more players",
        too_many_players=f"tournament: a Swiss takes at most {SWISS_MAX_PLAYERS} players",
        too_many_rounds="tournament: a Swiss has at most players - 1 rounds",
        bad_rounds="tournament: a Swiss needs its number of rounds (at least 1); other formats"
        " take none",
        duplicate_player="tournament: two players share an id or a name",
        duplicate_chat_author="tournament: a chat author is registered for two players (or twice)",
        bad_round_config="tournament: a per-round config names a round the format never plays",
        bad_seeds="tournament: the seeds are not 1 to the number of players, each once",
        tiebreak_not_for_format="tournament: the format (or a game without game points)"
        " cannot use this tie-break",
        duplicate_tiebreak="tournament: a tie-break is listed twice",
        unknown_player="tournament: no player with this id",
        elimination_needs_winner="tournament: an elimination match needs a winner, not a draw",
        bad_result="tournament: the result does not fit its pairing (board, players, bye)",
        bad_round="tournament: the rounds are not numbered 1, 2, ... or not as paired",
        unknown_board="tournament: the round is not paired or has no such board",
        diff_backwards="a diff's before is a later record time than its after",
    ),
    **_table(
        409,
        version_conflict="another writer got in first, again and again: try again",
        match_closed="the match is closed: nothing more is recorded",
        match_exists="a match with this id exists already",
        duplicate_token="a token with this hash is issued already",
        game_time_backwards="an entered game time is before the last recorded one",
        no_round_in_progress="no round is in progress (at that time)",
        round_in_progress="a round is already in progress",
        wrong_round="that is not the next round",
        match_over="Zoom: every round has been played",
        no_seed="Zoom: the match has no seed; supply the round's grid",
        not_advantage_holder="Zoom: only the Advantage holder declares Priority",
        priority_already_used="Zoom: Priority is declared once per match",
        nothing_to_undo="no event was recorded after that seq",
        match_finished="No, Not That!: the match is over",
        no_step_open="No, Not That!: no step is open",
        already_acted="No, Not That!: one action per seat per step",
        submit_in_last_step="No, Not That!: the last step takes pass or a claim",
        pass_only_in_last_step="No, Not That!: pass only in the last step",
        nothing_to_accuse="No, Not That!: the opponent submitted no object in the previous step",
        head_start_first_step_only="No, Not That!: Head Start is a first-step action",
        item_not_held="No, Not That!: the seat does not hold that item",
        item_already_used="No, Not That!: the item is used already",
        exchange_between_rounds_only="No, Not That!: exchange only between two rounds",
        no_solution_window="No, Not That!: no solution window is open for the seat",
        nothing_to_challenge="No, Not That!: no correct prompt claim awaits an answer",
        nothing_to_judge="No, Not That!: no pending question for the host",
        stale_action="No, Not That!: the action names another step",
        game_over="Zombego: the game is over",
        not_your_turn="Zombego: it is the other seat's turn",
        placement_first="Zombego: a piece must be placed now",
        movement_first="Zombego: a piece must be moved now",
        cell_occupied="Zombego: the cell is taken",
        cell_attacked="Zombego: the cell is attacked",
        zombie_gate_closed="Zombego: no zombie may be placed now",
        not_in_hand="Zombego: the hand holds no such piece",
        not_your_piece="Zombego: the piece is not the mover's",
        own_piece="Zombego: a piece cannot land on its own side's piece",
        no_helper="Zombego: no helper allows that move",
        illegal_move="Zombego: the rules do not allow that move",
        zombie_fight="Zombego: zombies do not attack zombies",
        slot_mismatch="Zombego: the hand slot holds another piece",
        match_not_at_start="Ludii: the match has moves already",
        transcript_channel_mismatch="transcript: the export is of another channel than the match's",
        post_already_entered="transcript: a correction names a post entered before (use a ruling)",
        round_not_finished="tournament: the current round has a board without a result",
        tournament_finished="tournament: every round has been played, or the organizer ended it",
        no_valid_pairing="tournament: no pairing without a rematch or a second bye exists",
        board_decided="tournament: the board has a result already (its match's or a forfeit)",
        forfeit_on_bye="tournament: a bye has no opponent to forfeit",
        round_started="tournament: a match of the round has started: it is not re-paired",
        round_not_paired="tournament: no round has been paired yet",
        player_withdrawn="tournament: the player has withdrawn already",
        tournament_not_finished="tournament: a round is still to be played or to have its"
        " results (seal it once finished, or conclude it first)",
        tournament_sealed="tournament: the organizer sealed it; it takes no act",
        match_not_closed="tournament: a match could not be closed for the seal; seal again",
    ),
    **_table(500, internal_error="the service failed; quote the request id"),
    **_table(
        503,
        no_signing_key="transparency log: no key can sign (ADJUDICATOR_SIGNING_KEY is expected)",
        not_ready="the database does not answer",
        warming_up="the service is resuming its long open matches after its start (10 s at most)",
        streams_full="the process serves as many live streams as it may"
        " (ADJUDICATOR_MAX_STREAMS); retry later or on another replica",
        store_unavailable="the database did not answer this request; retry (with the same "
        "Idempotency-Key, a command is recorded at most once)",
    ),
}


def status(code: str, fallback: int) -> int:
    """The status of ``code`` (``fallback`` for a code the table does not know: a test makes
    sure there is none)."""
    known = CODES.get(code)
    return fallback if known is None else known.status


def markdown() -> str:
    """The README's error table."""
    rows = ["| code | status | meaning |", "| --- | --- | --- |"]
    rows += [f"| `{c}` | {e.status} | {e.meaning} |" for c, e in sorted(CODES.items())]
    return "\n".join(rows)


ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GOLDEN = ROOT / "tests" / "golden" / "error_codes.json"
BEGIN, END = "<!-- error-table:begin -->", "<!-- error-table:end -->"


def golden() -> str:
    """The table as its reviewed golden file holds it."""
    table = {code: {"status": e.status, "meaning": e.meaning} for code, e in CODES.items()}
    return json.dumps(table, indent=1, sort_keys=True, ensure_ascii=False)


def with_table(readme: str) -> str:
    """``readme`` with the generated table between its markers replaced by :func:`markdown`."""
    start = readme.index(BEGIN) + len(BEGIN)
    end = readme.index(END, start)
    return f"{readme[:start]}\n{markdown()}\n{readme[end:]}"


def regenerate() -> list[Path]:
    """Rewrite the README's table and the golden file from :data:`CODES`; the files changed."""
    changed = []
    for path, make in ((README, with_table), (GOLDEN, lambda _: golden())):
        old = path.read_text(encoding="utf-8")
        new = make(old)
        if new != old:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


if __name__ == "__main__":
    for path in regenerate():
        print(f"rewrote {path.relative_to(ROOT)}")
