"""The live loop (flowbot.live) and the games that plug into it (flowbot.modes) import one way: the
loop imports no game, nothing imports a private name of another module, no circle runs through them,
and a game uses only the loop's public services (no `self._name` of the loop's own)."""

from __future__ import annotations

import ast
from pathlib import Path

import flowbot

ROOT = Path(flowbot.__file__).parent
LOOP = sorted((ROOT / "live").glob("*.py"))
GAMES = [
    *(ROOT / "modes").glob("auto_clear*.py"),
    *(ROOT / "modes").glob("variant_clear*.py"),
    *(ROOT / "modes").glob("numbermatch_*.py"),
    *(ROOT / "modes").glob("flow_*.py"),
    ROOT / "modes" / "scrape.py",
]


def module_name(path: Path) -> str:
    """flowbot.live.loop for flowbot/live/loop.py."""
    return ".".join(("flowbot", *path.relative_to(ROOT).with_suffix("").parts))


MODULES = {module_name(path): path for path in [*LOOP, *GAMES]}


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """Every `from X import a, b` in a module, at any depth (imports inside functions too)."""
    tree = ast.parse(path.read_text())
    return [
        (node.module, [alias.name for alias in node.names])
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    ]


def test_the_loop_imports_no_game():
    found = [
        (module_name(path), module)
        for path in LOOP
        for module, _ in imports(path)
        if module.startswith("flowbot.modes") or module.startswith("flowbot.numbermatch")
    ]
    assert not found, found


def test_no_circle_between_the_loop_and_the_games():
    graph = {
        name: {module for module, _ in imports(path) if module in MODULES} for name, path in MODULES.items()
    }

    def reaches(start: str, goal: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(
            nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})) for nxt in graph[start]
        )

    circles = [name for name in MODULES if reaches(name, name)]
    assert not circles, f"import circles through {circles}: {graph}"


def test_no_module_imports_anothers_private_names():
    private = [
        (name, module, imported)
        for name, path in MODULES.items()
        for module, names in imports(path)
        if module.startswith("flowbot.")
        for imported in names
        if imported.startswith("_")
    ]
    assert not private, private


def loop_private_names() -> set[str]:
    """The private fields and methods of the engine's classes (LiveLoop and the roles it is made of)."""
    names = set()
    for path in LOOP:
        for cls in (node for node in ast.parse(path.read_text()).body if isinstance(node, ast.ClassDef)):
            for node in cls.body:
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    names.add(node.target.id)
                elif isinstance(node, ast.FunctionDef):
                    names.add(node.name)
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def test_the_games_use_only_the_loops_public_services():
    private = loop_private_names()
    assert {"_press_controls", "_dialog_seen", "_dialog_control"} <= private  # the check sees them
    used = [
        (path.name, node.attr, node.lineno)
        for path in GAMES
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and is_the_loop(node.value) and node.attr in private
    ]
    assert not used, used


def is_the_loop(node: ast.AST) -> bool:
    """True for `self` (a game's loop) and `self.loop` (a game's helper holding the loop)."""
    if isinstance(node, ast.Name):
        return node.id == "self"
    return isinstance(node, ast.Attribute) and node.attr == "loop" and is_the_loop(node.value)


def test_the_loop_imports_no_solver():
    # A game says with its own solver whether a board read is a level (issue 33): the loop knows none.
    found = [
        (module_name(path), module)
        for path in LOOP
        for module, _ in imports(path)
        if module.startswith("flowbot.solve")
    ]
    assert not found, found
