"""Domain errors. One root; each subclass is a kind the API maps to one HTTP status.

Every instance carries a stable machine-readable ``code`` (snake_case, one of :data:`Code`)
and a human message.
Codes are part of the public contract: clients branch on them, so they never change meaning.
"""

from __future__ import annotations

from typing import Literal

Code = Literal[
    "already_acted",
    "ambiguous_author",
    "bad_cell",
    "bad_cosignature",
    "bad_message",
    "bad_move",
    "bad_object",
    "bad_result",
    "bad_round",
    "bad_round_config",
    "bad_rounds",
    "bad_seeds",
    "bad_slot",
    "bad_symbol",
    "bad_timestamp",
    "board_decided",
    "cannot_generate",
    "cell_attacked",
    "cell_occupied",
    "corrected_and_excluded",
    "correction_wrong_seat",
    "diff_backwards",
    "duplicate_chat_author",
    "duplicate_player",
    "duplicate_seat",
    "duplicate_target",
    "duplicate_tiebreak",
    "duplicate_token",
    "elimination_needs_winner",
    "empty_grid",
    "exchange_between_rounds_only",
    "export_before_close",
    "export_forbidden",
    "forfeit_on_bye",
    "game_over",
    "game_time_backwards",
    "game_time_host_only",
    "game_time_in_future",
    "grid_too_small",
    "head_start_first_step_only",
    "head_start_is_a_step_action",
    "host_only",
    "http_error",
    "idempotency_key_reused",
    "illegal_move",
    "illegal_ply",
    "internal_error",
    "invalid_config",
    "invalid_event",
    "invalid_request",
    "invalid_token",
    "item_already_used",
    "item_not_held",
    "json_required",
    "log_size_out_of_range",
    "ludii_hidden",
    "malformed_coordinate",
    "match_closed",
    "match_exists",
    "match_finished",
    "match_not_at_start",
    "match_not_closed",
    "match_over",
    "method_not_allowed",
    "missing_timestamp",
    "missing_token",
    "movement_first",
    "naive_time",
    "no_helper",
    "no_round_in_progress",
    "no_seed",
    "no_signing_key",
    "no_solution_window",
    "no_step_open",
    "no_transcript_reader",
    "no_valid_pairing",
    "not_a_transcript",
    "not_advantage_holder",
    "not_amendable",
    "not_an_export",
    "not_found",
    "not_in_hand",
    "not_in_log",
    "not_operator",
    "not_organizer",
    "not_ready",
    "not_rulable",
    "not_your_piece",
    "not_your_turn",
    "not_zombego",
    "nothing_to_accuse",
    "nothing_to_challenge",
    "nothing_to_judge",
    "nothing_to_undo",
    "options_mismatch",
    "outside_grid",
    "own_piece",
    "pass_only_in_last_step",
    "payload_too_large",
    "placement_first",
    "player_withdrawn",
    "post_already_entered",
    "post_not_mapped",
    "priority_already_used",
    "ragged_grid",
    "read_only_token",
    "record_invalid",
    "round_in_progress",
    "round_not_finished",
    "round_not_paired",
    "round_started",
    "ruling_not_applicable",
    "slot_mismatch",
    "stale_action",
    "store_unavailable",
    "streams_full",
    "submit_in_last_step",
    "target_absent",
    "target_too_large",
    "tiebreak_not_for_format",
    "time_out_of_range",
    "timestamp_without_offset",
    "token_not_for_match",
    "too_few_players",
    "too_many_players",
    "too_many_rounds",
    "too_many_streams",
    "tournament_finished",
    "tournament_not_finished",
    "tournament_sealed",
    "transcript_channel_mismatch",
    "unknown_author",
    "unknown_board",
    "unknown_command",
    "unknown_game",
    "unknown_match",
    "unknown_piece",
    "unknown_player",
    "unknown_post",
    "unknown_seat",
    "unknown_seq",
    "unknown_target",
    "unknown_tournament",
    "unknown_wordlist",
    "version_conflict",
    "warming_up",
    "wrong_round",
    "wrong_seat",
    "zombie_fight",
    "zombie_gate_closed",
]
"""Every error code the service answers with, one name each: mypy checks each raise site
against it, and a test holds it equal to the table of statuses and meanings that the README's
error table is made from (``api/http/error_codes.py``)."""


QUOTED = 80
"""The characters of a client's value that an error message quotes at most."""


def quoted(value: object) -> str:
    """``repr(value)`` as an error message quotes a value the client sent (an id in the path, a
    name in the body): whole up to :data:`QUOTED` characters, else its start and its length,
    so that a 5,000-character id is not sent back whole in the answer and its log line."""
    text = str(value)
    if len(text) <= QUOTED:
        return repr(value)
    return f"{text[:QUOTED]!r}… ({len(text):,} characters)"


class DomainError(Exception):
    """Root of every error the rules raise. Nothing is recorded when one is raised."""

    kind = "domain_error"

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class InvalidCommand(DomainError):
    """The command is malformed or names things that do not exist (a bad coordinate, a label)."""

    kind = "invalid_command"


class RuleViolation(DomainError):
    """The command is well formed but the rules forbid it now (wrong phase, not your turn)."""

    kind = "rule_violation"


class NotPermitted(DomainError):
    """The actor may not do this at all (a seat acting for the other seat, a non-host ruling)."""

    kind = "not_permitted"
