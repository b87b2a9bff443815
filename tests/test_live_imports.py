"""The live loop's modules import each other one way: no circle between the loop, its report and the
games' loops, and none imports another's private names."""

from __future__ import annotations

import ast
from pathlib import Path

import flowbot

ROOT = Path(flowbot.__file__).parent
MODULES = {
    "flowbot.live.report": ROOT / "live" / "report.py",
    "flowbot.live.run": ROOT / "live" / "run.py",
    "flowbot.live.windows": ROOT / "live" / "windows.py",
    "flowbot.modes.auto_clear": ROOT / "modes" / "auto_clear.py",
    "flowbot.modes.variant_clear": ROOT / "modes" / "variant_clear.py",
    "flowbot.modes.scrape": ROOT / "modes" / "scrape.py",
}


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """Every `from X import a, b` in a module, at any depth (imports inside functions too)."""
    tree = ast.parse(path.read_text())
    return [
        (node.module, [alias.name for alias in node.names])
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    ]


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
