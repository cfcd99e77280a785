"""Which of Courtly's modules run compiled, and the fall-back to their sources.

``make compiled`` (``tools/compile.py``) compiles the modules on the search's hot path with
mypyc into extension modules beside their sources: the same code, two to four times as fast.
Python imports an extension module in preference to a ``.py`` file, so they are picked up with
nothing else to do. Without a C compiler everything still runs, as plain Python. The build also
makes a few extension modules from C sources (``courtly/rl/_scatter.c``); their callers fall
back to plain Python code when they cannot be imported.

A compiled module runs the code it was compiled from, so after an edit to its source it would run
*old* rules. The build records a hash of every source it compiled (``_compiled.json``); at import,
if any of those sources has changed since, or ``COURTLY_PURE=1`` is set, every compiled module is
imported from its source instead, and the C extension modules are not imported at all. (They
are compiled as one group, so it is all or none.)
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from importlib.abc import MetaPathFinder
from pathlib import Path
from types import ModuleType

PACKAGE_ROOT = Path(__file__).resolve().parent
MANIFEST = PACKAGE_ROOT / "_compiled.json"
"""Written by ``tools/compile.py``: ``{"modules": {module name: sha256 of its source},
"extensions": {C extension module name: sha256 of its C source}}``."""


def source_of(module: str) -> Path:
    """The ``.py`` file of ``courtly.x.y``."""
    parts = module.split(".")
    return PACKAGE_ROOT.joinpath(*parts[1:]).with_suffix(".py")


def extension_source_of(module: str) -> Path:
    """The C file of the extension module ``courtly.x._y``."""
    parts = module.split(".")
    return PACKAGE_ROOT.joinpath(*parts[1:]).with_suffix(".c")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _recorded(key: str) -> dict[str, str]:
    try:
        data = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return {}
    modules = data.get(key) if isinstance(data, dict) else None
    return {str(k): str(v) for k, v in modules.items()} if isinstance(modules, dict) else {}


def manifest() -> dict[str, str]:
    """The compiled modules and the hashes of the sources they were compiled from ({} if none)."""
    return _recorded("modules")


def extensions() -> dict[str, str]:
    """The C extension modules built and the hashes of their C sources ({} if none)."""
    return _recorded("extensions")


def stale_modules(recorded: dict[str, str]) -> list[str]:
    """The compiled modules whose source is no longer the one they were compiled from."""
    return _stale(recorded, source_of)


def stale_extensions(recorded: dict[str, str]) -> list[str]:
    """The C extension modules whose C source is no longer the one they were built from."""
    return _stale(recorded, extension_source_of)


def _stale(recorded: dict[str, str], source: Callable[[str], Path]) -> list[str]:
    stale = []
    for module, digest in recorded.items():
        path = source(module)
        if not path.exists() or source_hash(path) != digest:
            stale.append(module)
    return stale


class _FromSource(MetaPathFinder):
    """Imports the listed modules from their ``.py`` files, whatever is compiled beside them,
    and refuses to import the withheld C extension modules (their callers fall back)."""

    def __init__(self, modules: Sequence[str], withheld: Sequence[str] = ()) -> None:
        self.modules = frozenset(modules)
        self.withheld = frozenset(withheld)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname in self.withheld:
            raise ModuleNotFoundError(f"{fullname} is not used: running from source", name=fullname)
        if fullname not in self.modules:
            return None
        source = str(source_of(fullname))
        loader = importlib.machinery.SourceFileLoader(fullname, source)
        return importlib.machinery.ModuleSpec(fullname, loader, origin=source)


def choose() -> None:
    """Before any compiled module is imported: fall back to the sources if the compiled modules
    are out of date (with a warning that says how to rebuild them) or ``COURTLY_PURE=1``."""
    recorded = manifest()
    built = extensions()
    if not recorded and not built:
        return
    pure = os.environ.get("COURTLY_PURE", "") not in ("", "0")
    if not pure:
        stale = stale_modules(recorded) + stale_extensions(built)
        if not stale:
            return
        warnings.warn(
            f"courtly: {', '.join(stale)} changed since it was compiled; running every compiled "
            "module from its source (slower). `make compiled` rebuilds them.",
            RuntimeWarning,
            stacklevel=2,
        )
    sys.meta_path.insert(0, _FromSource(list(recorded), list(built)))


def running_compiled() -> list[str]:
    """The Courtly modules imported so far that run compiled (for benchmarks and tests)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("courtly.") and str(getattr(module, "__file__", "")).endswith(suffixes)
    )
