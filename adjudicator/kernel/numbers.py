"""A request's numbers: ``true`` and ``false`` are not numbers.

pydantic's lax mode reads a JSON boolean as the integer 1 or 0 (and as the float 1.0 or 0.0),
so a careless client's ``{"type": "void", "target_seq": true}`` voided seq 1 and a Swiss of
``"rounds": true`` was created with one round. Every number a request carries (a command's, a
ruling's, a game's config, a tournament's) is refused when it is a boolean, as pydantic refuses
any other value that is not a number (422 ``invalid_request`` at the field, type
``number_not_boolean``), and otherwise validated as ``int`` and ``float`` validate it (``"3"`` and
``3.0`` are still read as 3, as before). The JSON schema is ``int``'s and ``float``'s.

* ``Int``, ``Float``: a field's type, its constraints in its ``Field(...)``
  (``rounds: Int = Field(11, ge=1)``).
* ``NotBoolean``, last among the constraints of a number inside a union:
  ``Annotated[int, Field(ge=1), NotBoolean] | None`` (a constraint put after it, as in
  ``Int | None = Field(None, ge=1)``, still validates, but pydantic then writes it into the JSON
  schema under its own name, ``ge``, not as ``minimum``).

``tests/unit/kernel/test_numbers.py`` walks every request model for a number that takes a
boolean.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError


def _refuse_boolean(value: Any) -> Any:
    if isinstance(value, bool):
        raise PydanticCustomError("number_not_boolean", "Input should be a number, not a boolean")
    return value


NotBoolean = BeforeValidator(_refuse_boolean)
"""The refusal of a boolean where a number is expected."""

Int = Annotated[int, NotBoolean]
"""``int``, a boolean refused."""

Float = Annotated[float, NotBoolean]
"""``float``, a boolean refused."""
