"""Pickling for the classes that may run compiled (courtly/_compiled.py).

Process pools, Ray and vector environments ship games, states and views between processes with
``pickle``. A class compiled by mypyc has no ``__dict__`` and cannot be rebuilt by the standard
machinery (``object.__new__`` is refused), so such classes pickle through these two functions:
``__reduce__`` returns ``(rebuild, (cls, args, fields_of(self)))``, and :func:`rebuild` calls
``cls(*args)`` (a cheap, blank instance: every state takes ``blank=True``) and sets the fields.

This module is never compiled: it only moves attributes about.
"""

from __future__ import annotations

from typing import Any

_NOT_FIELDS = frozenset({"__dict__", "__hash__", "__weakref__"})


def field_names(cls: type) -> tuple[str, ...]:
    """Every instance attribute of ``cls``, compiled (``__mypyc_attrs__``) or with ``__slots__``."""
    names: list[str] = []
    for klass in cls.__mro__:
        declared = klass.__dict__.get("__mypyc_attrs__") or klass.__dict__.get("__slots__", ())
        if isinstance(declared, str):
            declared = (declared,)
        names += [n for n in declared if n not in _NOT_FIELDS and n not in names]
    return tuple(names)


def fields_of(obj: object) -> dict[str, Any]:
    """The values of ``obj``'s set attributes (unset ones are left out), and its ``__dict__``."""
    values: dict[str, Any] = {}
    for name in field_names(type(obj)):
        try:
            values[name] = getattr(obj, name)
        except AttributeError:
            continue
    values.update(getattr(obj, "__dict__", {}))
    return values


def rebuild(
    cls: type,
    args: tuple[Any, ...],
    fields: dict[str, Any],
    keywords: dict[str, Any] | None = None,
) -> Any:
    """``cls(*args, **keywords)`` with ``fields`` set on it: the other half of ``__reduce__``."""
    obj = cls(*args, **(keywords or {}))
    for name, value in fields.items():
        setattr(obj, name, value)
    return obj
