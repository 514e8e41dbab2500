"""Zombego (Dale W. Walton, 2023), exactly as Ludii plays it: see the shared spec ``zombego.md``.

The pure rules core lives in ``board`` (geometry, tables), ``position`` (values), ``movegen``
(legal moves), ``play`` (playing moves, end of game), ``check`` (precise refusals) and
``notation`` (Ludii move strings and positions in JSON); the match integration in ``commands``,
``events`` (event types and payloads), ``state``, ``decide``, ``evolve``, ``view`` and ``game``.
"""

from adjudicator.games.zombego.game import ZombegoGame

__all__ = ["ZombegoGame"]
