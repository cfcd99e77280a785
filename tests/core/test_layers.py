"""The engine's layout: every game package has the same files with the same roles, and neither
the core nor a game package imports in a circle (so no module needs an import inside a
function, at its foot, or for type checking only).

docs/new-game.md lists the files of a game package; docs/architecture.md the layers.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import courtly

PACKAGE = Path(courtly.__file__).parent
GAMES = sorted(p for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").exists())

EVERY_GAME_HAS = {
    "__init__",
    "game",
    "components",
    "rules",
    "views",
    "text",
    "rules_text",
    "tensor",
    "heuristic",
}
"""The files of every game package (docs/new-game.md); a game with hidden information has
``worlds`` too."""


def modules(folder: Path) -> dict[str, Path]:
    return {path.stem: path for path in sorted(folder.glob("*.py"))}


def imports(path: Path, package: str) -> Iterator[tuple[str, ast.stmt, bool]]:
    """Every module ``path`` imports (absolute names), the statement, and whether the statement
    is at the module's top level."""
    tree = ast.parse(path.read_text())
    top = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node, id(node) in top
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            yield name, node, id(node) in top
            for alias in node.names:  # ``from . import views`` imports a module too
                yield f"{name}.{alias.name}", node, id(node) in top


def graph(folder: Path, package: str) -> dict[str, set[str]]:
    """Which modules of the package each of its modules imports."""
    own = modules(folder)
    edges: dict[str, set[str]] = {name: set() for name in own}
    for name, path in own.items():
        for target, _, _ in imports(path, f"{package}.{name}"):
            if target.startswith(f"{package}."):
                other = target[len(package) + 1 :].split(".")[0]
                if other in own and other != name:
                    edges[name].add(other)
    return edges


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph, if it has one."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


LAYERS = [("courtly.core", PACKAGE / "core")] + [
    (f"courtly.games.{folder.name}", folder) for folder in GAMES
]


@pytest.mark.parametrize(("package", "folder"), LAYERS, ids=[name for name, _ in LAYERS])
def test_no_module_imports_in_a_circle(package: str, folder: Path) -> None:
    assert cycle(graph(folder, package)) is None


@pytest.mark.parametrize(("package", "folder"), LAYERS, ids=[name for name, _ in LAYERS])
def test_every_import_is_at_the_top_and_real(package: str, folder: Path) -> None:
    for name, path in modules(folder).items():
        source = path.read_text()
        assert "TYPE_CHECKING" not in source, f"{package}.{name} imports for type checking only"
        for target, node, at_top in imports(path, f"{package}.{name}"):
            where = f"{package}.{name} line {node.lineno} ({target})"
            assert at_top, f"an import inside a function or a block: {where}"


def test_the_core_knows_no_game_and_no_front_end() -> None:
    for name, path in modules(PACKAGE / "core").items():
        for target, node, _ in imports(path, f"courtly.core.{name}"):
            assert not target.startswith("courtly.") or target.startswith("courtly.core"), (
                f"courtly.core.{name} line {node.lineno} imports {target}"
            )


@pytest.mark.parametrize("folder", GAMES, ids=[folder.name for folder in GAMES])
def test_a_game_uses_only_the_core(folder: Path) -> None:
    package = f"courtly.games.{folder.name}"
    for name, path in modules(folder).items():
        for target, node, _ in imports(path, f"{package}.{name}"):
            if target.startswith("courtly."):
                assert target.startswith((package, "courtly.core")), (
                    f"{package}.{name} line {node.lineno} imports {target}"
                )


@pytest.mark.parametrize("folder", GAMES, ids=[folder.name for folder in GAMES])
def test_every_game_package_has_the_same_files(folder: Path) -> None:
    own = set(modules(folder))
    assert own >= EVERY_GAME_HAS, f"{folder.name} lacks {sorted(EVERY_GAME_HAS - own)}"
    game_class = next(g for g in courtly.games() if g.id == folder.name.replace("_", "-"))
    if game_class.hidden_information:
        assert "worlds" in own, f"{folder.name} hides things but samples no worlds"


@pytest.mark.parametrize("folder", GAMES, ids=[folder.name for folder in GAMES])
def test_a_games_classes_are_named_after_it(folder: Path) -> None:
    """``RoyalGambit`` and its ``RoyalGambitState``, ``RoyalGambitAction``, ``RoyalGambitTables``,
    ``RoyalGambitViews``, ``RoyalGambitText`` and ``RoyalGambitHeuristic``."""
    info = next(g for g in courtly.games() if g.id == folder.name.replace("_", "-"))
    game = courtly.make(info.id)
    name = type(game).__name__
    assert name == "".join(word.title() for word in folder.name.split("_"))
    assert type(game.new_state()).__name__ == f"{name}State"
    assert type(game.actions[0]).__name__ == f"{name}Action"
    assert type(game.text).__name__ == f"{name}Text"
    assert type(game.views).__name__ == f"{name}Views"
    assert type(game.tables).__name__ == f"{name}Tables"  # type: ignore[attr-defined]
    assert [bot.factory.__name__ for bot in info.bots] == [f"{name}Heuristic"]  # type: ignore[attr-defined]
