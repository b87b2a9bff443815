"""A Shapes level in the bundled game's real window on Xvfb: read from the screen, won by X pointer
strokes through the cells, and judged in the results file."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from flowbot.capture.shapes.read import read_shapes
from flowbot.game.layout import compute_layout
from flowbot.game.session import Session
from flowbot.game.trial import generated_shapes
from flowbot.solve.sat import solve
from tests.test_game_shapes import stroke_points
from tests.test_game_window import Mouse, grab

pytestmark = [
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.presses_by_test,
]

WINDOW = (540, 960)


def test_a_ring_level_is_won_with_the_x_pointer_in_a_real_window(tmp_path):
    from flowbot.display import VirtualDisplay

    level = generated_shapes("ring", 11)(0)
    results = tmp_path / "results.jsonl"
    with VirtualDisplay(1280, 1024) as screen:
        env = dict(os.environ, DISPLAY=screen.name, SDL_VIDEO_WINDOW_POS="0,0")
        env.pop("SDL_VIDEODRIVER", None)
        command = [sys.executable, "-m", "flowbot.game", "--results", str(results), "--size", "540x960"]
        command += ["--variant", "shapes", "--shape", "ring", "--seed", "11", "--levels", "2"]
        game = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            lines: list[str] = []
            reader = threading.Thread(target=lambda: lines.append(game.stdout.readline()), daemon=True)
            reader.start()
            reader.join(30)
            assert lines and lines[0].strip() == "game ready"
            time.sleep(0.2)
            window = np.ascontiguousarray(grab(screen.name)[: WINDOW[1], : WINDOW[0]])
            reading = read_shapes(window)
            assert len(reading.cells) == level.cols
            # The window sits at the screen's top-left: the game's own layout says where each cell is.
            cells = compute_layout(*WINDOW, level.rows, level.cols, puzzle=level).geometry
            for cell in reading.cells:
                assert cells.cell_at(*cell.centre) is not None
            mouse = Mouse(screen.name)
            try:
                solution = solve(level).solution
                for path in solution.paths:
                    points = stroke_points(cells, path, step=8.0)
                    mouse.move(*points[0])
                    mouse.press(True)
                    for point in points[1:]:
                        mouse.move(*point)
                    mouse.press(False)
                session = Session([level])
                session.board.pipes = [list(path) for path in solution.paths]
                layout = compute_layout(*WINDOW, level.rows, level.cols, session.dialog(), puzzle=level)
                assert layout.dialog is not None and layout.dialog.button is not None
                time.sleep(0.3)  # a few frames for the dialog to appear
                mouse.move(*layout.dialog.button.center)
                mouse.press(True)
                mouse.press(False)
                time.sleep(0.3)
            finally:
                mouse.close()
            game.send_signal(signal.SIGINT)
            _, err = game.communicate(timeout=10)
            assert game.returncode == 0, err
        finally:
            if game.poll() is None:
                game.kill()
                game.communicate()
    first, second = (json.loads(line) for line in results.read_text().splitlines())
    assert first["solved"] is True and first["shape"] == "ring" and first["moves"] == len(level.colors)
    assert first["puzzle"] == level.to_rows()
    assert second["level"] == 2 and second["solved"] is False
