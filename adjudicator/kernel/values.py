"""Building and copying the folds' frozen values, faster than ``dataclasses`` does.

* ``@fast_init`` on a frozen, slotted dataclass replaces its ``__init__`` by one that takes the
  same arguments (same names, order, defaults and default factories) and sets each field
  through the field's own slot descriptor. The ``__init__`` that ``dataclass(frozen=True)``
  writes calls ``object.__setattr__`` per field, looked up afresh each time (to get past the
  frozen guard), which costs twice as much; a fold builds several values per event.
* ``updated(value, **changes)``: ``dataclasses.replace`` without re-running ``__init__``
  (defaults, factories, the frozen guard per field); a fold calls it several times per event,
  which made it a fifth of Zoom's re-fold.
* ``replacer(cls, *names)``: the copy ``updated`` makes, for a fixed set of names, as a
  function of the value and their new values in that order, so a fold's hottest copies pass
  no keyword arguments either.

Each is straight-line code generated once per class (and set of changed names): one slot
assignment per field, no loop over the fields. Use them only on frozen, slotted dataclasses
whose ``__init__`` does nothing but assign (no ``__post_init__``, no ``InitVar``, no keyword-only
or ``init=False`` field): the fold's state values are such, and anything else is refused.

A twin of ``dataclasses`` kept for speed: its equality with it is a property over every value
class of the folds (``tests/unit/kernel/test_values.py``), and what it buys is measured by
``infra/bench/values_bench.py`` (a copy 1.5-1.9x, an ``__init__`` 1.5-1.7x, on the states).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, fields
from types import MemberDescriptorType
from typing import Any, TypeVar

T = TypeVar("T")

_COPIERS: dict[tuple[type, tuple[str, ...]], Callable[..., Any]] = {}


def fast_init(cls: type[T]) -> type[T]:
    """``cls`` (a frozen, slotted dataclass) with the faster ``__init__`` (see above)."""
    every = _fields(cls)
    namespace = _namespace(cls, every)
    params, lines = [], []
    for f in every:
        if f.default is not MISSING:
            namespace[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
            value = f.name
        elif f.default_factory is not MISSING:
            namespace[f"_f_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            value = f"_f_{f.name}() if {f.name} is _MISSING else {f.name}"
        else:
            params.append(f.name)
            value = f.name
        lines.append(f"_s_{f.name}(self, {value})")
    init = _compiled("__init__", f"self, {', '.join(params)}", lines, namespace)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


def replacer(cls: type[T], *names: str) -> Callable[..., T]:
    """A function ``(value, *new_values) -> copy``: a copy of the ``cls`` instance ``value``
    with the fields ``names`` set to ``new_values`` (unknown or repeated names refused)."""
    key = (cls, names)
    copier = _COPIERS.get(key)
    if copier is None:
        copier = _COPIERS[key] = _copier(cls, names)
    return copier


def updated(value: T, /, **changes: Any) -> T:
    """A copy of the dataclass ``value`` with ``changes`` applied (unknown names refused; a
    field may be named ``value``: the value copied is given by position only)."""
    copier: Callable[..., T] = replacer(type(value), *changes)
    return copier(value, *changes.values())


def _copier(cls: type, names: tuple[str, ...]) -> Callable[..., Any]:
    every = _fields(cls)
    unknown = sorted(set(names) - {f.name for f in every})
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {unknown}")
    if len(set(names)) != len(names):
        raise TypeError(f"a field of {cls.__name__} is named twice: {names}")
    given = {name: f"_{i}" for i, name in enumerate(names)}
    lines = ["new = _new(cls)"]
    lines += [f"_s_{f.name}(new, {given.get(f.name, 'value.' + f.name)})" for f in every]
    lines.append("return new")
    params = "".join(", " + arg for arg in given.values())
    return _compiled("copy", f"value{params}", lines, _namespace(cls, every))


def _fields(cls: type) -> tuple[Field[Any], ...]:
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__; use dataclasses.replace")
    every = fields(cls)
    odd = [f.name for f in every if f.kw_only or not f.init]
    if odd:
        raise TypeError(f"{cls.__name__} has keyword-only or init=False fields {odd}")
    return every


def _namespace(cls: type, every: tuple[Field[Any], ...]) -> dict[str, Any]:
    """The globals of the generated code: ``_s_<field>``, each field's slot setter."""
    namespace: dict[str, Any] = {"cls": cls, "_new": object.__new__, "_MISSING": MISSING}
    for f in every:
        slot = cls.__dict__.get(f.name)
        if type(slot) is not MemberDescriptorType:
            raise TypeError(f"{cls.__name__} is not a slotted dataclass (field {f.name})")
        namespace[f"_s_{f.name}"] = slot.__set__
    return namespace


def _compiled(
    name: str, params: str, lines: list[str], namespace: dict[str, Any]
) -> Callable[..., Any]:
    """The function ``name(params)`` whose body is ``lines``, its globals ``namespace``."""
    exec(f"def {name}({params}):\n" + "".join(f"    {line}\n" for line in lines), namespace)
    function: Callable[..., Any] = namespace[name]
    return function
