"""`flowbot demo`: the main job on the bundled default: solve the bundled puzzle and show it."""

from __future__ import annotations

import sys
from importlib import resources

from flowbot.formats import load_puzzles
from flowbot.render import render_puzzle, render_solution, terminal_colors
from flowbot.solve.check import check_paths
from flowbot.solve.sat import solve


def bundled_puzzle_path() -> str:
    """Where the bundled demo puzzle lives inside the installed package."""
    return str(resources.files("flowbot") / "data" / "puzzles" / "demo.json")


def run_demo() -> int:
    """Solve the bundled puzzle, print it before and after, and check the answer independently."""
    path = bundled_puzzle_path()
    puzzle = load_puzzles(path)[0]
    colors = terminal_colors(sys.stdout)
    print(f"bundled puzzle ({puzzle.size}, {len(puzzle.colors)} flows):")
    print(render_puzzle(puzzle, colors))
    result = solve(puzzle, unique=True)
    if result.solution is None:
        print(f"no solution ({result.status})")
        return 1
    problems = check_paths(puzzle, result.solution.paths)
    verdict = "checked" if not problems else "CHECK FAILED: " + "; ".join(problems)
    uniqueness = "unique" if result.unique else "not unique"
    print(f"solved in {result.seconds * 1000:.1f} ms ({uniqueness}, {verdict}):")
    print(render_solution(result.solution, colors))
    return 0 if not problems else 1
