"""Every puzzle of the shared corpus that fits the rules is solved, and the answer checks out."""

from __future__ import annotations

import pytest

from flowbot.formats import load_puzzles
from flowbot.solve.check import check_paths, touches_itself
from flowbot.solve.sat import _Encoding, solve
from tests.conftest import SHARED

# Files or puzzles (file, index) with a known different outcome, from ../shared/corpus/SOURCES.md.
NO_SOLUTION = {
    "mzucker__flow_solver/puzzles/unsolvable_cross.txt",
    "ksavill__flow-free-solver-v2/puzzles/square/7x7/classic_daily_2-2-2026_1.flow",
    "ksavill__flow-free-solver-v2/puzzles/square/7x7/classic_level_1.flow",
    "ksavill__flow-free-solver-v2/puzzles/square/9x9/classic_level_121.flow",
    "ksavill__flow-free-solver-v2/puzzles/square/9x9/classic_level_18.flow",
    ("thomasahle__numberlink/puzzles/inputs5", 10),  # brute force agrees: no way to fill it
}
ONLY_TOUCHING = {
    "ksavill__flow-free-solver-v2/puzzles/square/10x10/classic_level_142.flow",
    "ksavill__flow-free-solver-v2/puzzles/square/8x8/classic_level_104.flow",
    ("thomasahle__numberlink/puzzles/inputs2", 2),
    "thomasahle__numberlink/puzzles/inputs7",
    # Edge cases written to need a self-touching path (brute force finds no strict solution).
    *(("thomasahle__numberlink/puzzles/inputs5", index) for index in (0, 1, 2, 3, 4, 5, 7)),
}
# Real Flow Free levels: every one has exactly one strict solution.
REAL_LEVELS = ("mzucker__flow_solver/puzzles", "thomasahle__numberlink/puzzles/inputs1", "lacop__FlowSolver")
CORPUS_GLOBS = (
    "mzucker__flow_solver/puzzles/*.txt",
    "thomasahle__numberlink/puzzles/*",
    "lacop__FlowSolver/levels/*.txt",
    "ksavill__flow-free-solver-v2/puzzles/**/*.flow",
)
CORPUS = SHARED / "corpus"
FILES = sorted(
    path.relative_to(CORPUS).as_posix() for pattern in CORPUS_GLOBS for path in CORPUS.glob(pattern)
)


def _expected(name: str, index: int) -> str:
    """'none', 'touching' or 'strict': what the corpus notes say about one puzzle."""
    if name in NO_SOLUTION or (name, index) in NO_SOLUTION:
        return "none"
    if name in ONLY_TOUCHING or (name, index) in ONLY_TOUCHING:
        return "touching"
    return "strict"


@pytest.mark.parametrize("name", FILES or ["(no corpus)"])
def test_corpus_puzzles_solve_and_check(corpus, name):
    real = name.startswith(REAL_LEVELS)
    for index, puzzle in enumerate(load_puzzles(corpus / name)):
        result = solve(puzzle, unique=real, timeout=60)
        expected = _expected(name, index)
        where = f"{name} #{index}"
        if expected == "none":
            assert result.status == "unsolvable", where
            continue
        assert result.status == "solved", where
        assert result.strict is (expected == "strict"), where
        assert check_paths(puzzle, result.solution.paths) == [], where
        if real:
            assert result.unique, f"{where} is a real level and must have one solution"


def test_janko_156_has_two_solutions(corpus):
    puzzle = load_puzzles(corpus / "thomasahle__numberlink/puzzles/janko")[155]
    result = solve(puzzle, unique=True)
    assert result.status == "solved" and result.strict
    assert result.unique is False


def test_janko_198_needs_touching_pairs_banned_during_the_search(corpus):
    # The strict "side by side means joined" rule is added only where a model breaks it: on this
    # 17x17 the first models run paths alongside themselves, and the answer must still be strict.
    puzzle = load_puzzles(corpus / "thomasahle__numberlink/puzzles/janko")[197]
    result = solve(puzzle, unique=True)
    assert result.status == "solved" and result.strict and result.unique
    assert result.touch_cuts > 0
    assert check_paths(puzzle, result.solution.paths) == []
    assert not any(touches_itself(path) for path in result.solution.paths)


def test_warps_boards_keep_the_strict_rule_up_front(corpus):
    # Off the square lattice the side-by-side rule guides the search (this board searched 40x longer
    # when it was left to cuts), so a graph board's CNF holds it from the start and needs no cut.
    puzzle = load_puzzles(corpus / "samgoldman__FlowSolver/puzzles/warps/14x14Mania_27_guided.txt")[0]
    assert puzzle.is_graph
    assert _Encoding(puzzle, strict=True, binary=True).side_by_side == []
    result = solve(puzzle, unique=True)
    assert result.status == "solved" and result.strict and result.unique and result.touch_cuts == 0
    assert check_paths(puzzle, result.solution.paths) == []
