"""The live engine's shape (issue 33): every game runs through the one engine in flowbot.live, so no
loop over looks at the screen is written outside it (a game gives its looks; the engine's watch says
how often and how long), and the engine and the games stay small: no class over 300 lines, no
function over 60, in flowbot/live and flowbot/modes."""

from __future__ import annotations

import ast
from pathlib import Path

import flowbot

ROOT = Path(flowbot.__file__).parent
ENGINE = sorted((ROOT / "live").glob("*.py"))
MODES = sorted((ROOT / "modes").glob("*.py"))
MOST_CLASS_LINES, MOST_FUNCTION_LINES = 300, 60
# Calls that look at the screen, and calls that wait: a loop with a look and a wait in it polls.
LOOK_CALLS = {
    "grab", "look", "look_steady", "look_settled", "read", "read_board", "read_puzzle", "read_words",
    "wait_for_board", "scan", "_difference",
}  # fmt: skip
WAIT_CALLS = {"sleep", "wait"}
# The demo's recorder grabs frames for a GIF until told to stop: it films, it plays no game.
NOT_A_GAME = {("demo.py", "_run")}


def called(node: ast.AST) -> set[str]:
    """The names of the functions and methods called anywhere in `node` (not in functions defined in it)."""
    names: set[str] = set()
    todo = list(ast.iter_child_nodes(node))
    while todo:
        child = todo.pop()
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(child, ast.Call):
            func = child.func
            if isinstance(func, ast.Attribute):
                names.add(func.attr)
            elif isinstance(func, ast.Name):
                names.add(func.id)
        todo.extend(ast.iter_child_nodes(child))
    return names


def loops_over_looks(path: Path) -> list[str]:
    """The loops in a module that look at the screen and wait between looks (a `while` that looks or
    waits at all), as 'file:line in function'."""
    found = []
    for function in ast.walk(ast.parse(path.read_text())):
        if not isinstance(function, ast.FunctionDef) or (path.name, function.name) in NOT_A_GAME:
            continue
        for node in ast.walk(function):
            if not isinstance(node, ast.While | ast.For):
                continue
            calls = called(node)
            looks, waits = bool(calls & LOOK_CALLS), bool(calls & WAIT_CALLS)
            if (looks and waits) or (isinstance(node, ast.While) and (looks or waits)):
                found.append(f"{path.name}:{node.lineno} in {function.name}")
    return sorted(set(found))


def sizes(kind: type) -> list[tuple[str, int]]:
    """Every class or function (of `kind`) in the engine and the modes, with its length in lines."""
    return [
        (f"{path.parent.name}/{path.name}:{node.name}", node.end_lineno - node.lineno + 1)
        for path in [*ENGINE, *MODES]
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, kind)
    ]


def test_no_loop_over_looks_outside_the_engine():
    found = [where for path in MODES for where in loops_over_looks(path)]
    assert not found, f"loops over looks outside flowbot/live (use flowbot.live.watch): {found}"


def test_the_check_sees_a_loop_over_looks(tmp_path):
    polling = tmp_path / "polling.py"
    polling.write_text(
        "def wait(screen, clock):\n"
        "    for _ in range(3):\n"
        "        if screen.grab(None) is not None:\n"
        "            return\n"
        "        clock.sleep(0.1)\n"
        "    while screen.grab(None) is None:\n"
        "        pass\n"
    )
    assert loops_over_looks(polling) == ["polling.py:2 in wait", "polling.py:6 in wait"]


def test_no_class_over_300_lines():
    long = [(name, lines) for name, lines in sizes(ast.ClassDef) if lines > MOST_CLASS_LINES]
    assert not long, long


def test_no_function_over_60_lines():
    functions = ast.FunctionDef | ast.AsyncFunctionDef
    long = [(name, lines) for name, lines in sizes(functions) if lines > MOST_FUNCTION_LINES]
    assert not long, long
