"""Errors the service layer raises besides the rules' own (``adjudicator.kernel.errors``) and
the store's (``events``); the HTTP layer's table (``api.http.errors``) turns each into its
answer, the command line into its exit status."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Protocol

from pydantic import ValidationError

from adjudicator.kernel.errors import InvalidCommand, quoted


class HasErrors(Protocol):
    """A pydantic validation error, or the HTTP framework's wrapper of one."""

    def errors(self) -> Sequence[Any]: ...


class ConfigInvalid(InvalidCommand):
    """A game's config at match creation does not validate (422 ``invalid_config``)."""

    def __init__(self, error: ValidationError) -> None:
        self.details = validation_details(error)
        super().__init__("invalid_config", "config: " + first_problem(self.details))


class UnknownGame(InvalidCommand):
    """No game of that name (422 ``unknown_game``); the message and ``details.games`` list the
    games there are."""

    def __init__(self, name: str, games: Collection[str]) -> None:
        self.details = {"games": sorted(games)}
        known = ", ".join(self.details["games"])
        super().__init__("unknown_game", f"no game named {quoted(name)}; the games are: {known}")


class RecordInvalid(Exception):
    """An imported match record does not verify (422 ``record_invalid``); ``report`` says why."""

    code = "record_invalid"

    def __init__(self, report: dict[str, Any]) -> None:
        super().__init__("the match record does not verify")
        self.report = report


def validation_details(error: HasErrors) -> list[dict[str, Any]]:
    """Each problem of a validation error: where (``loc``), what (``msg``), its ``type``."""
    return [
        {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
        for e in error.errors()
    ]


def first_problem(details: list[dict[str, Any]]) -> str:
    """The first problem as one line: ``where: what``."""
    if not details:
        return "the request is not valid"
    where = ".".join(str(part) for part in details[0]["loc"])
    return f"{where}: {details[0]['msg']}" if where else str(details[0]["msg"])
