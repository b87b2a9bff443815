"""Flow's sister games: bridges, hex cells, warps and walls in the model, format E, the solver and checker."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowbot.cli import main
from flowbot.errors import FormatError, InputFileError, PuzzleError
from flowbot.formats import parse_text, puzzle_json_text, read_entries
from flowbot.generate.variants import VARIANTS as VARIANT_NAMES
from flowbot.generate.variants import make_variant_level
from flowbot.graph_text import graph_text, parse_graph_text
from flowbot.model import Puzzle
from flowbot.render import PLAIN, TRUECOLOR, render_puzzle, render_solution
from flowbot.solve.check import check_paths, touches_itself_on
from flowbot.solve.sat import solve
from tests.boards import count_graph_solutions

VARIANTS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "samgoldman__FlowSolver" / "puzzles"

# A bridge in the middle: D goes across it, B goes down through it.
BRIDGES = """BRIDGES
  A-B-C
  | | |
A-.-.-.-C
| | | | |
D-.-*-.-D
| | | | |
E-.-B-.-E
  | | |
  .-.-.
"""

# Hexes, odd columns lower (odd-q): the truth-file layout of the Classic 5x5 #1 screenshot.
HEX_ODD = """HEX
  A   B
 /|\\ /|\\
C-.-.-.-D
|/|\\|/|\\|
.-.-.-.-E
|/|\\|/|\\|
.-A-.-D-.
|/|\\|/|\\|
.-C-B-E-.
"""
HEX_ODD_LINES = ["#A#B#", "C...D", "....E", ".A.D.", ".CBE."]


def solved(puzzle: Puzzle):
    """Solve strictly and uniquely, and make sure the checker agrees."""
    result = solve(puzzle, unique=True, allow_touching=False)
    assert result.status == "solved"
    assert check_paths(puzzle, result.solution.paths) == []
    return result


# --- the model and its plain-data constructor --------------------------------------------------------


def test_from_lines_hexes_uses_odd_q_neighbours():
    puzzle = Puzzle.from_lines("hexes", HEX_ODD_LINES)
    assert puzzle.kind == "hexes" and puzzle.is_graph and puzzle.hex_lower == 1
    # An odd (lower) column meets the columns beside it level and one row down; an even one, level and up.
    assert sorted(puzzle.neighbors((2, 1))) == [(1, 1), (2, 0), (2, 2), (3, 0), (3, 1), (3, 2)]
    assert sorted(puzzle.neighbors((2, 2))) == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 2)]
    assert (0, 0) not in puzzle.neighbors((1, 0))  # a missing cell


def test_from_lines_is_the_same_board_as_format_e():
    assert Puzzle.from_lines("hexes", HEX_ODD_LINES) == parse_graph_text(HEX_ODD.splitlines())


def test_from_lines_bridges_walls_and_warps():
    lines = ["A.B.", ".+..", "B..A", "...."]
    puzzle = Puzzle.from_lines("bridges", lines, walls=[((2, 1), (2, 2)), ((3, 3), (3, 2))])
    assert puzzle.bridges == {(1, 1)} and puzzle.to_rows() == lines
    assert not puzzle.linked((2, 1), (2, 2)) and not puzzle.linked((3, 2), (3, 3))
    warps = Puzzle.from_lines("warps", ["A..B", "....", "B..A"], warps=[("row", 1), ("col", 0)])
    assert warps.linked((1, 3), (1, 0)) and warps.linked((2, 0), (0, 0))
    assert not warps.linked((0, 3), (0, 0))


@pytest.mark.parametrize(
    ("kind", "lines", "extra", "fragment"),
    [
        ("circles", ["A.A"], {}, "unknown kind"),
        ("square", ["A+A"], {}, "bridge"),
        ("hexes", ["A..A"], {"warps": [("row", 0)]}, "warps on a hexes board"),
        ("warps", ["A.A", "..."], {"warps": [("row", 5)]}, "outside"),
        ("square", ["A.A", "..."], {"walls": [((0, 0), (1, 1))]}, "not neighbours"),
    ],
)
def test_from_lines_refuses_what_is_not_a_board(kind, lines, extra, fragment):
    with pytest.raises(PuzzleError, match=fragment):
        Puzzle.from_lines(kind, lines, **extra)


def test_a_bridge_is_never_an_endpoint():
    with pytest.raises(PuzzleError, match="bridge at row 1, col 1 is also an endpoint"):
        Puzzle.from_rows(["A.A"]).rebuilt(bridges=frozenset({(0, 0)}))


def test_walls_touching_missing_cells_are_dropped():
    puzzle = Puzzle.from_lines("square", ["A#", "A."], walls=[((0, 0), (0, 1)), ((1, 0), (1, 1))])
    assert puzzle.edge_walls == {((1, 0), (1, 1))}


def test_square_boards_stay_classic():
    puzzle = Puzzle.from_lines("square", ["A.A", "B.B"])
    assert not puzzle.is_graph and puzzle == Puzzle.from_rows(["A.A", "B.B"])


# --- format E -------------------------------------------------------------------------------------------


def test_format_e_reads_by_content_and_writes_back(tmp_path):
    for text in (BRIDGES, HEX_ODD):
        path = tmp_path / "level.txt"
        path.write_text(text)
        [entry] = read_entries(path)
        assert entry.source.format == "graph"
        assert graph_text(entry.puzzle) == text


def test_format_e_hex_parity_follows_the_diagonals():
    # A missing column in front: the lower columns are now the even ones, and the board the same.
    shifted = Puzzle.from_rows(["#" + line for line in HEX_ODD_LINES]).rebuilt(hex_lower=0)
    text = graph_text(shifted)
    assert "\\" in text and "/" in text
    puzzle = parse_graph_text(text.splitlines())
    assert puzzle == shifted and puzzle.hex_lower == 0
    assert solved(puzzle).unique


def test_format_e_warps_and_walls():
    text = "WARPS\nA-.-B-\n|   |\n.-.-.\n| | |\nB-.-A\n|   |\n"
    puzzle = parse_graph_text(text.splitlines())
    assert puzzle.warps == {("row", 0), ("col", 0), ("col", 2)}
    assert puzzle.edge_walls == {((0, 1), (1, 1))}
    assert graph_text(puzzle) == text


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("WARPS\n.-.\n| |\n.-.\n", "no dots"),
        ("STANDARD\nA-A\n \\\nB-B\n", "not a link that fits"),
        ("STANDARD\nA-A-\n|\nB-B\n", r"warp joins|does not join"),
        ("HEX\nA-A-\n", "do not wrap"),
        ("STANDARD\nA-*-A\n", "bridge"),
        ("STANDARD\nA-?-A\n", "not a cell"),
    ],
)
def test_format_e_refusals_name_the_problem(tmp_path, text, fragment):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(FormatError, match=fragment) as caught:
        read_entries(path)
    assert str(caught.value).startswith(f"{path}: ")


# --- flowbot JSON ---------------------------------------------------------------------------------------


def test_json_schema_2_round_trips_every_feature():
    for text in (BRIDGES, HEX_ODD, "WARPS\nA-.-B-\n|   |\n.-.-.\n| | |\nB-.-A\n|   |\n"):
        puzzle = parse_graph_text(text.splitlines())
        written = puzzle_json_text(puzzle)
        assert json.loads(written)["schema_version"] == 2
        [entry] = parse_text(written)
        assert entry.puzzle == puzzle


def test_json_square_boards_are_still_version_1_and_old_files_read():
    written = json.loads(puzzle_json_text(Puzzle.from_rows(["A.A"])))
    assert written["schema_version"] == 1 and "kind" not in written
    [entry] = parse_text('{"schema_version": 1, "grid": ["+AA+"]}')
    assert entry.puzzle.colors[0].label == "+"  # in version 1 '+' was only ever a colour


def test_json_even_q_layout_kept():
    puzzle = Puzzle.from_lines("hexes", HEX_ODD_LINES).rebuilt(hex_lower=0)
    data = json.loads(puzzle_json_text(puzzle))
    assert data["layout"] == "even-q"
    assert parse_text(json.dumps(data))[0].puzzle.hex_lower == 0


# --- solving and checking -------------------------------------------------------------------------------


def test_bridge_cell_is_in_both_paths_each_straight_through():
    puzzle = parse_graph_text(BRIDGES.splitlines())
    result = solved(puzzle)
    assert result.unique
    crossing = [path for path in result.solution.paths if (2, 2) in path]
    assert len(crossing) == 2
    assert result.solution.crossing((2, 2)) == {"h": 3, "v": 1}


def test_checker_finds_turns_on_bridges_and_uncovered_lanes():
    puzzle = Puzzle.from_lines("bridges", ["A.B", ".+.", "B.A"])
    # A turns on the bridge; B jumps: the bridge's other way is never used.
    paths = [[(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)], [(0, 2), (0, 1), (1, 0), (2, 0)]]
    problems = " | ".join(check_paths(puzzle, paths))
    assert "turns or ends on the bridge" in problems
    assert "jumps" in problems
    assert "not covered" in problems
    result = solved(puzzle)  # A goes down through the bridge, B across it
    assert result.solution.crossing((1, 1)) == {"v": 0, "h": 1}


def test_a_flow_may_cross_itself_on_a_bridge_but_not_use_a_way_twice():
    puzzle = Puzzle.from_lines("bridges", ["A.B", ".+.", "B.A"])
    twice = [[(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)], [(0, 2), (1, 2), (1, 1), (1, 0), (2, 0)]]
    assert check_paths(puzzle, twice) == []
    again = [[(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)], [(0, 2), (0, 1), (1, 1), (2, 1), (2, 0)]]
    assert any("going down is used" in problem for problem in check_paths(puzzle, again))


def test_warps_and_walls_change_the_answer():
    warped = Puzzle.from_lines("warps", ["AB.BA"], warps=[("row", 0)])
    assert solved(warped).solution.paths[0] in (((0, 0), (0, 4)), ((0, 4), (0, 0)))
    assert solve(Puzzle.from_lines("square", ["AB.BA"])).status == "unsolvable"
    assert solve(Puzzle.from_lines("square", ["A.A"])).status == "solved"
    walled = Puzzle.from_lines("square", ["A.A"], walls=[((0, 1), (0, 2))])
    assert solve(walled).status == "unsolvable"
    assert any("jumps" in problem for problem in check_paths(walled, [[(0, 0), (0, 1), (0, 2)]]))


def test_strict_rule_on_hexes_forbids_sharp_turns():
    puzzle = Puzzle.from_lines("hexes", ["A.", "A."])
    assert puzzle.linked((0, 1), (1, 0))  # an odd column meets the even column level and one row down
    assert touches_itself_on(puzzle, [(0, 0), (0, 1), (1, 0)])
    assert not touches_itself_on(puzzle, [(0, 0), (1, 0)])


def test_hex_warp_and_bridge_answers_are_checked(tmp_path):
    for text in (BRIDGES, HEX_ODD):
        puzzle = parse_graph_text(text.splitlines())
        result = solved(puzzle)
        assert not any(touches_itself_on(puzzle, path) for path in result.solution.paths)


@pytest.mark.skipif(not VARIANTS.is_dir(), reason="shared corpus not present")
def test_every_sister_game_level_solves_and_checks():
    files = sorted(VARIANTS.glob("*/*.txt"))
    assert files
    for path in files:
        if path.name == "14x14Template.txt":
            with pytest.raises(FormatError, match="no dots"):
                read_entries(path)
            continue
        [entry] = read_entries(path)
        result = solved(entry.puzzle)
        assert result.strict
        drawn = graph_text(entry.puzzle).splitlines()
        assert drawn == [line.rstrip() for line in path.read_text().rstrip().splitlines()]


# --- pictures -------------------------------------------------------------------------------------------


def test_pictures_draw_links_used_and_bridges():
    puzzle = parse_graph_text(BRIDGES.splitlines())
    result = solve(puzzle)
    plain = render_solution(result.solution, PLAIN)
    assert "D-d-+-d-D" in plain
    assert render_puzzle(puzzle, PLAIN).splitlines()[0].strip() == "A-B-C"
    assert "\x1b[" in render_solution(result.solution, TRUECOLOR)


def test_hex_picture_staggers_the_lower_columns():
    puzzle = Puzzle.from_lines("hexes", HEX_ODD_LINES)
    lines = render_puzzle(puzzle, PLAIN).splitlines()
    assert lines[0] == "  A   B"  # the odd columns' first cells, half a cell above the even ones'
    assert lines[1].startswith("C   .   D")


# --- generating levels ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(9))
def test_small_variant_levels_have_one_strict_solution_by_brute_force(seed):
    rng = random.Random(seed)
    variant = VARIANT_NAMES[seed % 3]
    rows, cols = rng.choice([(4, 4), (4, 5), (5, 4)])
    level = make_variant_level(variant, rows, cols, rng.randint(3, 4), rng)
    assert level.puzzle.kind == variant or (variant == "warps" and not level.puzzle.warps)
    assert check_paths(level.puzzle, level.solution.paths) == []
    assert count_graph_solutions(level.puzzle, limit=2)[0] == 1


@pytest.mark.parametrize("variant", ["bridges", "hexes", "warps"])
def test_variant_levels_are_unique_well_formed_and_survive_a_file(variant, tmp_path):
    rng = random.Random(variant)
    level = make_variant_level(variant, 9, 9, 8, rng)
    puzzle = level.puzzle
    assert len(puzzle.colors) == 8 and puzzle.kind == variant
    assert min(len(path) for path in level.solution.paths) >= 3
    assert not any(touches_itself_on(puzzle, path) for path in level.solution.paths)
    for text in (graph_text(puzzle), puzzle_json_text(puzzle)):
        [entry] = parse_text(text)
        result = solve(entry.puzzle, unique=True, allow_touching=False)
        assert result.status == "solved" and result.unique
        assert result.solution.paths == level.solution.paths


def test_generate_and_convert_commands(tmp_path, capsys):
    assert (
        main(["generate", "--variant", "hexes", "--size", "6x6", "--seed", "4", "--out", str(tmp_path)]) == 0
    )
    [saved] = tmp_path.glob("hexes-6x6-4-001.json")
    data = json.loads(saved.read_text())
    assert data["kind"] == "hexes" and data["schema_version"] == 2
    out = tmp_path / "graph"
    assert main(["convert", str(saved), "--to", "graph", "--out", str(out)]) == 0
    assert (out / saved.with_suffix(".txt").name).read_text().startswith("HEX\n")
    assert main(["convert", str(saved), "--to", "grid", "--out", str(out)]) == 2
    assert "does not fit a text grid" in capsys.readouterr().err
    assert main(["generate", "--variant", "warps", "--size", "6x6", "--difficulty", "easy"]) == 64
    assert main(["rate", str(saved)]) == 0  # the rater reasons along a hex board's links too


def test_solve_json_paths_use_format_e_coordinates(tmp_path, capsys):
    path = tmp_path / "bridges.txt"
    path.write_text(BRIDGES)
    assert main(["solve", "--json", str(path)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["paths"]["B"] == [[0, 2], [1, 2], [2, 2], [3, 2]]  # [line / 2, position / 2]
    assert [2, 2] in record["paths"]["D"]


def test_the_terminal_game_refuses_graph_boards_by_name_and_the_bundled_game_plays_them(tmp_path):
    from flowbot.game.packs import levels_from
    from flowbot.play.levels import load_levels

    path = tmp_path / "hex.txt"
    path.write_text(HEX_ODD)
    with pytest.raises(FormatError, match="hexes board: the terminal game plays classic boards only"):
        load_levels(str(path))
    with pytest.raises(InputFileError, match="hexes board: the terminal game plays classic boards only"):
        load_levels(str(tmp_path))
    assert [level.kind for level in levels_from(folder=str(tmp_path))] == ["hexes"]


SCREENSHOT_TRUTHS = Path(__file__).resolve().parents[2] / "shared" / "screenshots" / "variants"


@pytest.mark.skipif(not SCREENSHOT_TRUTHS.is_dir(), reason="shared screenshots not present")
def test_screenshot_truths_build_boards_with_one_strict_solution():
    # The hex truths are odd-q (their MANIFEST); real levels have exactly one strict solution, which
    # a wrong reading of the layout would hardly keep.
    built = 0
    for path in sorted(SCREENSHOT_TRUTHS.glob("*.truth.txt")):
        lines = path.read_text().splitlines()
        if lines[0].startswith("hex:"):
            puzzle = Puzzle.from_lines("hexes", lines[1:])
        elif any("+" in line for line in lines):
            puzzle = Puzzle.from_lines("bridges", lines)
        else:
            continue  # square boards whose walls the truth leaves out
        result = solved(puzzle)
        assert result.strict and result.unique, path.name
        built += 1
    assert built >= 4


@pytest.mark.skipif(not VARIANTS.is_dir(), reason="shared corpus not present")
def test_bench_variants_set_reports_by_size_and_kind(capsys):
    assert main(["bench", "--set", "variants", "--repeat", "1"]) == 0
    captured = capsys.readouterr()
    assert "14x14 warps     8" in captured.out and "15x15 hexes" in captured.out
    assert "31 puzzles: 31 solved" in captured.out
    assert "14x14Template.txt: the board has no dots" in captured.err


# --- careless input -------------------------------------------------------------------------------------

_WARPS = "WARPS\nA-.-B-\n|   |\n.-.-.\n| | |\nB-.-A\n|   |\n"


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    base=st.sampled_from([BRIDGES, HEX_ODD, _WARPS]),
    edits=st.lists(st.tuples(st.integers(0, 200), st.sampled_from("AB.*-|\\/ #\n")), max_size=4),
)
def test_format_e_never_fails_with_a_traceback(base, edits):
    # Real drawings with a few characters changed: walls, warps, stray links, broken lines.
    text = list(base)
    for position, char in edits:
        text[6 + position % (len(text) - 6)] = char  # the header stays
    try:
        [entry] = parse_text("".join(text))
    except (FormatError, PuzzleError):
        return
    puzzle = entry.puzzle
    assert parse_graph_text(graph_text(puzzle).splitlines()) == puzzle  # what reads, writes back the same
    result = solve(puzzle, timeout=5)
    if result.status == "solved":
        assert check_paths(puzzle, result.solution.paths) == []
