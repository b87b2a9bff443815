"""Screenshots of Flow's sister games through the loader users meet (`flowbot solve SHOT.png`): read
exactly as their truth files, solved, and checked; Shapes boards (truths in tests/data/shapes) solved
as graphs of their cells, and refused by their kind when they cannot be read."""

from __future__ import annotations

import json
import math
from itertools import pairwise
from pathlib import Path

import pytest

from flowbot.cli import main
from flowbot.loader import load_puzzles
from flowbot.solve.check import check_paths
from flowbot.solve.sat import solve

VARIANTS = Path(__file__).resolve().parents[2] / "shared" / "screenshots" / "variants"
if not VARIANTS.is_dir():
    pytest.skip("../shared/screenshots/variants is not here", allow_module_level=True)

IMAGES = sorted(path for path in VARIANTS.iterdir() if path.suffix.lower() in {".png", ".jpg", ".jpeg"})
WITH_TRUTH = [path for path in IMAGES if path.with_name(path.stem + ".truth.txt").exists()]
WITHOUT_TRUTH = [path for path in IMAGES if path not in WITH_TRUTH]


def truth_rows(image: Path) -> list[str]:
    """The truth board's rows (a hex truth's layout line left out)."""
    lines = image.with_name(image.stem + ".truth.txt").read_text().split("\n")
    return [line for line in lines if line and not line.startswith("hex")]


@pytest.mark.parametrize("image", WITH_TRUTH, ids=lambda path: path.name[:40])
def test_a_variant_screenshot_reads_as_its_truth_and_solves(image):
    [puzzle] = load_puzzles(image)
    assert puzzle.to_rows() == truth_rows(image)
    result = solve(puzzle)
    assert result.status == "solved"
    assert check_paths(puzzle, result.solution.paths) == []


def test_the_kinds_read_are_the_games_they_come_from():
    kinds = {path.name: load_puzzles(path)[0].kind for path in WITH_TRUTH}
    assert sorted(kind for name, kind in kinds.items() if "bridges" in name) == ["bridges"]
    assert sum(kind == "hexes" for kind in kinds.values()) >= 3
    walled = [
        load_puzzles(path)[0] for path in WITH_TRUTH if "original6" in path.name or "original7" in path.name
    ]
    assert walled and all(puzzle.edge_walls for puzzle in walled)


SHAPES_TRUTHS = Path(__file__).resolve().parent / "data" / "shapes"


def shapes_truth(image: Path):
    """The Shapes truth (tests/data/shapes) of a screenshot with no corpus truth."""
    from flowbot.capture.shapes.truth import read_truth, truth_path

    return read_truth(truth_path(SHAPES_TRUTHS, image).read_text())


@pytest.mark.parametrize("image", WITHOUT_TRUTH, ids=lambda path: path.name[:40])
def test_a_shapes_screenshot_solves_through_the_loader_as_a_graph_of_its_cells(image):
    [puzzle] = load_puzzles(image)
    truth = shapes_truth(image)
    assert puzzle.kind == "shapes"
    assert puzzle.cell_count == len(truth.centres)
    assert len(puzzle.links()) == len(truth.neighbours)
    result = solve(puzzle)
    assert result.status == "solved"
    assert check_paths(puzzle, result.solution.paths) == []


def test_a_shapes_board_whose_dots_do_not_pair_is_still_refused_by_its_kind(tmp_path, capsys):
    import cv2

    from flowbot.capture.image import decode_image

    image = next(path for path in WITHOUT_TRUTH if "FlowShapesSolver__7." in path.name)
    truth = shapes_truth(image)
    frame = decode_image(image.read_bytes())
    # One dot painted over with the board's black: its colour has one endpoint left.
    x, y = truth.centres[truth.letters.index("A")]
    cv2.circle(frame, (round(x), round(y)), 60, (0, 0, 0), -1)
    shot = tmp_path / "one_dot_gone.png"
    cv2.imwrite(str(shot), frame)
    code = main(["solve", str(shot)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith(f"flowbot: {shot}: this is a Flow Free: Shapes board"), err
    assert "cannot read it yet" in err
    assert "as a Shapes board: colour" in err and "has 1 endpoint (cell" in err  # and why


def test_solve_json_of_a_shapes_screenshot_gives_the_graph(capsys):
    image = next(path for path in WITHOUT_TRUTH if "FlowShapesSolver__11." in path.name)
    truth = shapes_truth(image)
    assert main(["solve", "--json", str(image)]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["status"] == "solved"
    graph = record["graph"]
    assert len(graph["cells"]) == len(truth.centres)
    # Each cell read is the truth's cell at its middle (the numbering may differ).
    same = [
        min(range(len(truth.centres)), key=lambda t, c=cell: math.dist(c, truth.centres[t]))
        for cell in graph["cells"]
    ]
    assert sorted(same) == list(range(len(truth.centres)))
    assert {tuple(sorted((same[a], same[b]))) for a, b in graph["neighbours"]} == set(truth.neighbours)
    covered = sorted(cell for path in graph["paths"].values() for cell in path)
    assert covered == list(range(len(truth.centres)))  # every cell, once
    for path in graph["paths"].values():
        assert all(tuple(sorted((same[a], same[b]))) in truth.neighbours for a, b in pairwise(path))


def test_the_overlay_of_a_shapes_board_draws_each_path_through_its_cells(tmp_path, capsys):
    import cv2

    from flowbot.capture.image import decode_image
    from flowbot.capture.screenshot import read_screenshot

    image = next(path for path in WITHOUT_TRUTH if "FlowShapesSolver__8." in path.name)
    out = tmp_path / "shapes.png"
    assert main(["solve", str(image), "--overlay", str(out)]) == 0, capsys.readouterr().err
    frame = decode_image(image.read_bytes())
    picture = cv2.imread(str(out))
    reading = read_screenshot(frame)
    solution = solve(reading.puzzle).solution
    for index, path in enumerate(solution.paths):
        red, green, blue = reading.seen_rgb[index]
        for first, second in pairwise(path):
            # The pipe goes through the middle of each border crossed, and each cell's middle.
            border = reading.shapes.borders[tuple(sorted((first[1], second[1])))]
            for x, y in (border, reading.centres[second]):
                seen = picture[round(y), round(x)].astype(int)
                assert abs(seen - (blue, green, red)).max() < 40, (first, second, seen)


def test_solve_json_of_a_hex_screenshot_gives_paths_in_format_e_coordinates(capsys):
    image = next(path for path in WITH_TRUTH if "FlowShapesSolver__1." in path.name)
    assert main(["solve", "--json", str(image)]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["status"] == "solved"
    cells = {tuple(cell) for path in record["paths"].values() for cell in path}
    assert len(cells) == 37  # every cell of the hexagon of hexagons, once


def test_the_overlay_of_a_hex_board_draws_each_path_through_its_cells_middles(tmp_path, capsys):
    import cv2

    from flowbot.capture.image import decode_image
    from flowbot.capture.screenshot import read_screenshot

    image = next(path for path in WITH_TRUTH if "FlowShapesSolver__4." in path.name)
    out = tmp_path / "hex.png"
    assert main(["solve", str(image), "--overlay", str(out)]) == 0, capsys.readouterr().err
    frame = decode_image(image.read_bytes())
    picture = cv2.imread(str(out))
    assert picture.shape == frame.shape
    reading = read_screenshot(frame)
    solution = solve(reading.puzzle).solution
    for index, path in enumerate(solution.paths):
        red, green, blue = reading.seen_rgb[index]
        for cell in path[1:-1]:  # an empty cell on the screenshot now shows its flow's pipe
            x, y = (round(value) for value in reading.centres[cell])
            seen = picture[y, x].astype(int)
            assert abs(seen - (blue, green, red)).max() < 40, (cell, seen)
