"""Compile the modules on the search's hot path with mypyc (``make compiled``).

mypyc turns type-annotated Python into C extension modules; they are written beside their
sources (``src/courtly/.../rules.cpython-311-x86_64-linux-gnu.so``), where Python imports them
instead of the ``.py`` files. What is compiled is what a search iteration runs through: the engine
contract, the search itself, and every module of every game package but its facts and its text
(``game_modules``: derived from the tree, so a new game is compiled as it is). The sources stay the reference:
``courtly._compiled`` falls back to them when they change after a build (or with
``COURTLY_PURE=1``), and the test suite checks that compiled and pure Python search alike.

    python tools/compile.py          # build (about two minutes)
    python tools/compile.py --clean  # remove every compiled module
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

# courtly._compiled (standard library only) knows where the manifest lives and how a source is
# hashed; it is loaded by its path, since importing the package would pick a build already.
_spec = importlib.util.spec_from_file_location(
    "_courtly_compiled", SRC / "courtly" / "_compiled.py"
)
assert _spec is not None and _spec.loader is not None
compiled = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compiled)

CORE_MODULES = (
    "courtly.core.game",  # State and View: every step of every game goes through them
    "courtly.core.events",  # who may know each event: every hidden card dealt or laid
    "courtly.core.draws",  # shuffles and choices of chance events and sampled worlds
    "courtly.agents.ismcts",  # the tree walk
)
NOT_HOT = frozenset({"__init__", "game", "rules_text", "text", "render"})
"""A game package's modules that are not compiled: its facts, and what people read and type
(rendering, narration, parsing): nothing a rollout or a search iteration runs through."""


def game_modules() -> tuple[str, ...]:
    """Every game package's hot modules (its rules, views, heuristic...), found in the tree:
    a new game under ``courtly/games`` is compiled with nothing to add here."""
    found = []
    for package in sorted((SRC / "courtly" / "games").iterdir()):
        if not (package / "__init__.py").exists():
            continue
        for module in sorted(package.glob("*.py")):
            if module.stem not in NOT_HOT:
                found.append(f"courtly.games.{package.name}.{module.stem}")
    return tuple(found)


MODULES = CORE_MODULES + game_modules()
EXTENSIONS = ("courtly.rl._scatter",)
"""Extension modules written in C (``courtly/rl/_scatter.c``): the observer's scatter of a
writer's lists into its float32 vector, which no Python code (compiled or not) does as cheaply."""
GROUP = "courtly"
"""The shared library behind the compiled modules: ``src/courtly__mypyc.*.so``."""


def c_extension(name: str, relative_to: Path | None = None) -> Any:
    """The setuptools ``Extension`` of a C module (``EXTENSIONS``), built with what reads librt's
    sinks: mypyc's runtime headers, and ``librt_strings_api.c``, which fills librt's table of
    functions when the module imports it. Named by its full name with its source relative to
    ``relative_to`` (a build in place, here), else by its last name (a build elsewhere)."""
    from mypyc.build import include_dir
    from setuptools import Extension

    runtime = Path(include_dir())
    source = compiled.extension_source_of(name)
    return Extension(
        name if relative_to is not None else name.rpartition(".")[2],
        [
            str(source.relative_to(relative_to) if relative_to is not None else source),
            str(runtime / "strings" / "librt_strings_api.c"),
        ],
        include_dirs=[str(runtime), str(runtime / "strings")],
        # The runtime headers define helpers for compiled modules that this one does not use.
        extra_compile_args=["-O3", "-Wno-unused-function"],
    )


def compiled_files() -> list[Path]:
    """Every file a build leaves in ``src/``."""
    return sorted(SRC.glob(f"{GROUP}__mypyc.*.so")) + sorted(SRC.glob("courtly/**/*.so"))


def clean() -> None:
    for path in compiled_files():
        path.unlink()
    compiled.MANIFEST.unlink(missing_ok=True)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    clean()
    os.chdir(ROOT)  # mypyc writes its C sources under build/, relative to here
    paths = [str(compiled.source_of(name).relative_to(ROOT)) for name in MODULES]
    extensions = mypycify(
        ["--config-file", str(ROOT / "pyproject.toml"), *paths],
        opt_level="3",
        group_name=GROUP,
        target_dir=str(ROOT / "build" / "mypyc"),
    )
    extensions += [c_extension(name, relative_to=ROOT) for name in EXTENSIONS]
    try:
        setup(
            name="courtly-compiled",
            package_dir={"": "src"},
            ext_modules=extensions,
            script_args=[
                "--quiet",
                "build_ext",
                "--inplace",
                "--build-temp",
                "build/temp",
            ],
        )
    except BaseException:
        clean()  # no half-built group: all modules compiled, or none
        raise
    # The hashes let courtly._compiled notice a source edited after this build.
    hashes = {name: compiled.source_hash(compiled.source_of(name)) for name in MODULES}
    c_hashes = {
        name: compiled.source_hash(compiled.extension_source_of(name)) for name in EXTENSIONS
    }
    compiled.MANIFEST.write_text(
        json.dumps({"modules": hashes, "extensions": c_hashes}, indent=2) + "\n"
    )
    shutil.rmtree(ROOT / "build" / "temp", ignore_errors=True)
    print(f"compiled {len(MODULES)} modules: {', '.join(MODULES)}")
    print(f"built {len(EXTENSIONS)} C extension modules: {', '.join(EXTENSIONS)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove every compiled module")
    parser.add_argument("--sources", action="store_true", help="list the sources compiled")
    args = parser.parse_args()
    if args.sources:
        sources = [compiled.source_of(name) for name in MODULES]
        sources += [compiled.extension_source_of(name) for name in EXTENSIONS]
        print(" ".join(str(path.relative_to(ROOT)) for path in sources))
    elif args.clean:
        clean()
        print("removed the compiled modules: Courtly runs as plain Python")
    else:
        build()


if __name__ == "__main__":
    main()
