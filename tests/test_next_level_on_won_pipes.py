"""A next level whose dots sit on the won level's cells is a new level, not the won one still showing.

After a win the loop waits for a board that is not the level just won; a board read where the won
level still shows (misread under its dialog) is that level. Games that colour their flows in a fixed
order put the next level's dots on cells the won level's pipes filled, in the same colours (or in
colours the won level had not, which look covered): judged by its cells alone, the won level still
showed, and the next level was never taken (next-truong's level 6 after level 5). The won level's
pipes cross the edges between its cells; a new level shows nothing there. Played on the bundled game."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from flowbot.act.plan import PointerSettings
from flowbot.capture.read import read_puzzle
from flowbot.capture.verdict import inner_cells, missing_cells
from flowbot.game.look import Variant
from flowbot.game.packs import levels_from
from flowbot.live.scene import Scene
from flowbot.model import PALETTE, Puzzle
from flowbot.modes.auto_clear import AutoClear
from flowbot.modes.flow_verdict import Baseline
from flowbot.solve.sat import solve
from tests.simulated_game import SimulatedGame


def on_the_pipes(won: Puzzle, paths) -> Puzzle:
    """A level whose dots lie on `won`'s inner cells: one pair in each of its colours on two cells of
    that colour's pipe, then pairs in colours it has not, until half its inner cells hold a dot."""
    inner = [cell for path in paths for cell in path[1:-1]]
    grid = [["." for _ in range(won.cols)] for _ in range(won.rows)]
    names: dict[str, str] = {}
    taken: set = set()
    letters = iter("ABCDEFGHIJKLMNOP")
    for color, path in enumerate(paths):
        if len(path) >= 4:
            letter = next(letters)
            names[letter] = won.colors[color].name
            for row, col in path[1:3]:
                grid[row][col] = letter
                taken.add((row, col))
    spare = [name for name in PALETTE if name not in {c.name for c in won.colors}]
    free = [cell for cell in inner if cell not in taken]
    while 2 * len(taken) < len(inner) and len(free) >= 2 and spare:
        letter = next(letters)
        names[letter] = spare.pop(0)
        for row, col in (free.pop(0), free.pop(0)):
            grid[row][col] = letter
            taken.add((row, col))
    return Puzzle.from_rows(["".join(row) for row in grid], names)


def test_a_next_level_on_the_won_pipes_is_new_and_the_won_level_is_still_won(tmp_path: Path):
    first = levels_from("5x5", None)[0]
    paths = solve(first).solution.paths
    game = SimulatedGame([first, on_the_pipes(first, paths)], variant=Variant(dialog=False), delay=600)
    before = game.grab()
    reading = read_puzzle(before.pixels)
    scene = Scene(before, reading)
    solution = solve(reading.puzzle).solution
    centre = game.layout.geometry.center
    for path in solution.paths:
        game.move(*centre(path[0]))
        game.down()
        for cell in path[1:]:
            game.move(*centre(cell))
        game.up()
    loop = AutoClear(game, game, PointerSettings(), artifacts=tmp_path, clock=game.clock)
    loop.keep_won(scene, solution, Baseline.of(scene, solution))
    assert loop.still_won(game.grab())  # the won level, drawn
    game.session.next()
    following = game.grab()
    assert not np.array_equal(following.pixels, before.pixels)
    # Its cells alone would say the won level still shows: half of them hold dots of its colours or
    # of colours it has not (covered, to a judge of cells)...
    missing = missing_cells(following.pixels, scene.geometry, solution, scene.reading.seen_rgb,
                            Baseline.of(scene, solution).centres)  # fmt: skip
    assert len(missing) <= inner_cells(solution) // 2
    # ...but no pipe crosses the edges between them: a new level.
    assert not loop.still_won(following)
