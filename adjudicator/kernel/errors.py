"""Domain errors. One root; each subclass is a kind the API maps to one HTTP status.

Every instance carries a stable machine-readable ``code`` (snake_case) and a human message.
Codes are part of the public contract: clients branch on them, so they never change meaning.
"""

from __future__ import annotations


class DomainError(Exception):
    """Root of every error the rules raise. Nothing is recorded when one is raised."""

    kind = "domain_error"

    def __init__(self, code: str, message: str) -> None:
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
