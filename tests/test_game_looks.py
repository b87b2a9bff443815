"""The bundled game's extra looks (--no-grid, --theme light, --glyphs, --next-button text, --win-banner,
--header, --board-px): parsed, laid out and drawn where the layout says, and played through the view."""

from __future__ import annotations

import random

import numpy as np
import pytest

pygame = pytest.importorskip("pygame")

from flowbot.errors import UsageError  # noqa: E402 - after the skip when pygame is missing
from flowbot.game.app import build_parser, main, variant_from  # noqa: E402
from flowbot.game.layout import compute_layout  # noqa: E402
from flowbot.game.look import DARK_LINES, LIGHT_LINES, Look, Theme, Variant  # noqa: E402
from flowbot.game.render import PLAIN_BORDER, PLAIN_FILL, Renderer, surface_to_bgr  # noqa: E402
from flowbot.game.session import Session  # noqa: E402
from flowbot.game.view import GameView  # noqa: E402
from flowbot.generate.levels import make_level  # noqa: E402
from flowbot.model import Puzzle  # noqa: E402
from flowbot.solve.sat import solve  # noqa: E402
from tests.simulated_game import SimulatedGame  # noqa: E402

ALL_FLAGS = ["--no-grid", "--theme", "light", "--glyphs", "--next-button", "text", "--win-banner", "--header"]
LOOKS = {
    "no grid": Variant(Theme(grid=False)),
    "light": Variant(Theme(light=True, line_rgb=LIGHT_LINES)),
    "light, no grid": Variant(Theme(light=True, grid=False, line_rgb=LIGHT_LINES)),
    "glyphs": Variant(Theme(glyphs=True)),
    "text button": Variant(look=Look(next_button="text")),
    "banner": Variant(look=Look(win_banner=True)),
    "header": Variant(look=Look(header=True)),
    "small board": Variant(look=Look(board_px=200)),
    "all at once": variant_from(build_parser().parse_args(ALL_FLAGS)),
    "all, small board, no dialog": variant_from(
        build_parser().parse_args([*ALL_FLAGS, "--board-px", "200", "--no-dialog", "--size", "1280x1000"])
    ),
}


@pytest.fixture(scope="module", autouse=True)
def headless():
    """pygame with the dummy video driver (for this module only: later games need a real one)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SDL_VIDEODRIVER", "dummy")
        pygame.font.init()
        yield
        pygame.font.quit()


def level(side: int, seed: int = 0) -> Puzzle:
    """A generated square level."""
    return make_level(side, side, side, random.Random(side * 100 + seed)).puzzle


def window_for(variant: Variant) -> tuple[int, int]:
    """The issue's window for a small board, the game's default otherwise."""
    return (1280, 1000) if variant.look.board_px is not None else (540, 960)


def play(view: GameView, surface, puzzle: Puzzle, strokes: int | None = None) -> None:
    """Draw the solution's strokes (all, or the first few) through the view, window pixel by pixel."""
    paths = solve(puzzle).solution.paths
    for path in paths[:strokes]:
        layout = view.draw(surface)
        dx, dy = view.offset()
        points = [layout.geometry.center(cell) for cell in path]
        view.pointer_down(points[0][0] + dx, points[0][1] + dy)
        for x, y in points[1:]:
            view.pointer_move(x + dx, y + dy)
        view.pointer_up()


def pixel(frame: np.ndarray, x: float, y: float) -> tuple[int, int, int]:
    """The RGB at a window pixel of a BGR frame."""
    blue, green, red = frame[round(y), round(x)]
    return int(red), int(green), int(blue)


# --- the command line ------------------------------------------------------------------------------


def test_every_look_flag_parses_into_the_variant_and_they_combine():
    args = build_parser().parse_args(
        [*ALL_FLAGS, "--board-px", "200", "--size", "1280x1000", "--tiles", "--palette", "legacy",
         "--dot-size", "0.4", "--no-dialog", "--shift", "--sample-per-frame", "--interpolate"]
    )  # fmt: skip
    variant = variant_from(args)
    assert variant.theme == Theme(
        line_rgb=LIGHT_LINES,
        tiles=True,
        palette="legacy",
        dot_radius=0.4,
        light=True,
        grid=False,
        glyphs=True,
    )
    assert variant.look == Look(board_px=200, header=True, win_banner=True, next_button="text")
    assert not variant.dialog and variant.shift and variant.sample_per_frame and args.interpolate


def test_defaults_are_todays_look_and_an_explicit_line_colour_wins_over_the_theme():
    assert variant_from(build_parser().parse_args([])) == Variant(Theme(line_rgb=DARK_LINES))
    light = variant_from(build_parser().parse_args(["--theme", "light", "--line-color", "1,2,3"]))
    assert light.theme.line_rgb == (1, 2, 3) and light.theme.light
    assert variant_from(build_parser().parse_args(["--theme", "light"])).theme.line_rgb == LIGHT_LINES


@pytest.mark.parametrize(
    "argv", [["--theme", "sepia"], ["--next-button", "round"], ["--board-px", "wide"], ["--size", "9000x100"],
             ["--size", "8000x8000"], ["--size", "99999999x99999999"]]
)  # fmt: skip
def test_bad_look_options_are_usage_errors(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert "usage: flowbot game" in capsys.readouterr().err


@pytest.mark.parametrize("width", [59, 541, -5])
def test_board_px_must_fit_the_window(width, capsys):
    with pytest.raises(UsageError, match="--board-px"):
        variant_from(build_parser().parse_args(["--board-px", str(width)]))
    assert main(["--board-px", str(width)]) == UsageError.exit_code
    assert "the board must be 60 to 540 pixels wide" in capsys.readouterr().err


# --- where things go -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(540, 960), (1280, 1000), (800, 600), (1800, 700)])
@pytest.mark.parametrize("side", [5, 9, 14])
def test_the_banner_pushes_the_board_down_at_least_half_a_cell_and_keeps_its_cells(size, side):
    look = Look(win_banner=True, header=True)
    before = compute_layout(*size, side, side, look=look)
    after = compute_layout(*size, side, side, look=look, won=True)
    assert before.banner is None and after.banner is not None
    assert after.cell == before.cell and after.geometry.xs == before.geometry.xs
    assert after.geometry.ys[0] - before.geometry.ys[0] >= 0.5 * before.cell
    # The banner sits above the header, which moves with the board; nothing reaches the bottom buttons.
    assert after.banner.y + after.banner.height <= after.header.y + 1
    assert after.header.y + after.header.height == after.geometry.ys[0]
    assert after.banner.y >= before.hud.y - 1
    assert after.geometry.ys[-1] < min(button.y - button.radius for button in after.buttons)


@pytest.mark.parametrize("pixels", [60, 180, 200, 220, 600, 1280])
def test_board_px_puts_a_board_that_wide_at_the_top_left(pixels):
    for rows, cols in ((5, 5), (9, 9), (10, 8)):
        for look in (Look(board_px=pixels), Look(board_px=pixels, header=True, win_banner=True)):
            layout = compute_layout(1280, 1000, rows, cols, look=look, won=True)
            xs, ys = layout.geometry.xs, layout.geometry.ys
            assert 4 <= xs[0] <= 20
            below = min(button.y - button.radius for button in layout.buttons)
            if rows * (pixels // cols) < 700:  # a board that fits above the bottom buttons is as asked
                assert pixels - cols < xs[-1] - xs[0] <= pixels
            assert ys[-1] < below  # never over the round buttons
            assert not layout.title_shown and not layout.hud_shown
            top = ys[0] - (look.win_banner and layout.banner.height) - (look.header and layout.header.height)
            assert 4 <= top <= 20


def test_the_text_button_is_centred_on_the_window_far_from_a_small_board():
    dialog = _complete_dialog()
    layout = compute_layout(1280, 1000, 5, 5, dialog, look=Look(board_px=200, next_button="text"))
    button = layout.dialog.button
    assert button.center == pytest.approx((640, 500))
    assert button.x > layout.geometry.xs[-1] + 200  # far outside the board's area
    assert 2 <= button.width / button.height <= 4


def _complete_dialog():
    """The dialog of a completed level."""
    session = Session([level(5)])
    session.board.pipes = [list(path) for path in solve(session.board.puzzle).solution.paths]
    return session.dialog()


# --- drawn where the layout says ------------------------------------------------------------------


@pytest.mark.parametrize("side", [5, 9])
@pytest.mark.parametrize("name", list(LOOKS))
def test_every_look_draws_its_dots_pipes_and_empty_cells_where_the_layout_says(name, side):
    variant = LOOKS[name]
    puzzle = level(side)
    view = GameView(Session([puzzle, level(side, 1)]), variant)
    surface = pygame.Surface(window_for(variant))
    play(view, surface, puzzle, strokes=2)
    layout = view.draw(surface)
    frame = surface_to_bgr(surface)
    theme, board = variant.theme, view.session.board
    geometry = layout.geometry
    for color, pair in enumerate(puzzle.endpoints):
        rgb = theme.rgb(puzzle, color)
        for cell in pair:
            x, y = geometry.center(cell)
            # The dot's rim, inside the disc and outside any glyph.
            assert pixel(frame, x + 0.8 * theme.dot_radius * layout.cell, y) == rgb, (name, cell)
    covered = {cell for pipe in board.pipes if len(pipe) > 1 for cell in pipe}
    dots = {cell for pair in puzzle.endpoints for cell in pair}
    empty = [cell for cell in puzzle.cells() if cell not in covered | dots]
    assert empty
    for cell in empty:
        x, y = geometry.center(cell)
        near = pixel(frame, x + 0.25 * layout.cell, y)
        assert near == theme.board_rgb, (name, cell)
        if not theme.grid:  # a small faint marker in the middle, the panel all around it
            assert pixel(frame, x, y) == theme.marker_rgb
            assert pixel(frame, x + 0.15 * layout.cell, y) == theme.board_rgb
    for color, pipe in enumerate(board.pipes):
        for cell in pipe[1:-1]:
            x, y = geometry.center(cell)
            assert pixel(frame, x, y) == theme.rgb(puzzle, color)
            tint = pixel(frame, x + 0.4 * layout.cell, y + 0.4 * layout.cell)
            assert tint == theme.tint(theme.rgb(puzzle, color))


def test_no_grid_is_one_rounded_panel_with_no_lines_and_faint_small_markers():
    for theme in (Theme(grid=False), Theme(grid=False, light=True)):
        surface = pygame.Surface((540, 960))
        puzzle = level(7)
        layout = Renderer(theme).draw(surface, Session([puzzle]).board, level=1)
        frame = surface_to_bgr(surface)
        xs, ys = layout.geometry.xs, layout.geometry.ys
        inside = frame[round(ys[0]) + 2 : round(ys[-1]) - 2, round(xs[0]) + 2 : round(xs[-1]) - 2]
        colours = {tuple(int(v) for v in bgr[::-1]) for bgr in inside.reshape(-1, 3)}
        lines = {theme.line_rgb, DARK_LINES, LIGHT_LINES}
        assert not colours & lines
        assert pixel(frame, xs[0] - 4, ys[0] - 4) == theme.page_rgb  # the corner is rounded off
        assert pixel(frame, xs[0] - 4, (ys[0] + ys[-1]) / 2) == theme.board_rgb  # the panel's edge
        # The marker: a few pixels across, barely brighter (or darker) than the panel, never dot-like.
        marker, panel = np.array(theme.marker_rgb), np.array(theme.board_rgb)
        assert 15 <= abs(int((marker - panel).sum())) // 3 <= 40
        marked = np.all(inside == np.array(theme.marker_rgb[::-1]), axis=2).sum()
        empty_cells = puzzle.cell_count - 2 * len(puzzle.colors)
        assert 3 * empty_cells <= marked <= 50 * empty_cells


def test_light_theme_has_a_light_page_dark_lines_dark_text_and_pale_tints():
    theme = Theme(light=True, line_rgb=LIGHT_LINES)
    assert min(theme.page_rgb) >= 230 and min(theme.board_rgb) >= 230 and max(theme.text_rgb) <= 80
    assert max(theme.line_rgb) <= 140
    surface = pygame.Surface((540, 960))
    puzzle = level(6)
    view = GameView(Session([puzzle]), Variant(theme))
    play(view, surface, puzzle, strokes=3)
    layout = view.draw(surface)
    frame = surface_to_bgr(surface)
    assert pixel(frame, 3, 3) == theme.page_rgb
    x, y = layout.geometry.xs[1], layout.geometry.center((0, 0))[1]
    assert pixel(frame, x, y + 0.3 * layout.cell) == LIGHT_LINES or pixel(frame, x - 1, y) == LIGHT_LINES
    for color in range(len(puzzle.colors)):
        dot, tint = theme.rgb(puzzle, color), theme.tint(theme.rgb(puzzle, color))
        assert all(t >= d for t, d in zip(tint, dot, strict=True)) and sum(tint) > sum(dot)
        # A wash: nearer the white board than the dot's colour.
        assert np.abs(np.subtract(tint, theme.board_rgb)).sum() < np.abs(np.subtract(tint, dot)).sum() / 2
    hud = frame[round(layout.hud.y) : round(layout.hud.y + layout.hud.height)]
    assert (hud.max(axis=2) <= 80).any()  # dark words


def test_glyphs_are_white_shapes_half_the_dot_one_shape_per_colour():
    puzzle = level(9)
    theme = Theme(glyphs=True)
    surface = pygame.Surface((540, 960))
    layout = Renderer(theme).draw(surface, Session([puzzle]).board, level=1)
    frame = surface_to_bgr(surface)
    radius = theme.dot_radius * layout.cell
    shapes = []
    for color, pair in enumerate(puzzle.endpoints):
        x, y = layout.geometry.center(pair[0])
        r = round(radius)
        patch = frame[round(y) - r : round(y) + r + 1, round(x) - r : round(x) + r + 1]
        white = np.all(patch == 255, axis=2)
        if min(theme.rgb(puzzle, color)) > 200:
            continue  # a white dot carries a black glyph
        assert white[r, r]  # the glyph covers the centre
        rows, cols = np.nonzero(white)
        across = max(rows.max() - rows.min(), cols.max() - cols.min()) + 1
        assert 0.35 * 2 * radius <= across <= 0.75 * 2 * radius, color
        shapes.append(white)
    assert len(shapes) >= 5
    for index, first in enumerate(shapes[:5]):
        for second in shapes[index + 1 : 5]:
            assert (first != second).sum() > 10  # different shapes


def test_the_header_sits_within_half_a_cell_above_the_board_and_counts_flows():
    puzzle = level(5)
    for look in (Look(header=True), Look(header=True, board_px=200)):
        view = GameView(Session([puzzle]), Variant(look=look))
        surface = pygame.Surface(window_for(view.variant))
        layout = view.draw(surface)
        before = surface_to_bgr(surface)
        xs, ys = layout.geometry.xs, layout.geometry.ys
        lit = np.nonzero((before[:, round(xs[0]) : round(xs[-1])] > 128).any(axis=(1, 2)))[0]
        above = lit[lit < ys[0]]
        words = above[above >= ys[0] - layout.cell]  # the header's rows (the top title is far above)
        assert len(words) >= 5
        assert words.min() >= ys[0] - 0.5 * layout.cell and words.max() < ys[0] - 1
        play(view, surface, puzzle, strokes=1)
        after = surface_to_bgr(surface)
        view.draw(surface)
        after = surface_to_bgr(surface)
        band = slice(round(ys[0] - 0.5 * layout.cell), round(ys[0]))
        assert (before[band] != after[band]).any()  # "flows 0/5" became "flows 1/5"


# --- played through the view: the pointer follows the look ------------------------------------------


def test_the_text_button_click_moves_on_and_the_result_counts_as_solved():
    puzzles = [level(5), level(6)]
    game = SimulatedGame(puzzles, (1280, 1000), Variant(look=Look(next_button="text", board_px=200)))
    play(game.view, game.surface, puzzles[0])
    layout = game.view.draw(game.surface)
    frame = surface_to_bgr(game.surface)
    button = layout.dialog.button
    assert pixel(frame, button.x + 6, button.y + 6) == PLAIN_FILL
    assert pixel(frame, button.x, button.y + button.height / 2) == PLAIN_BORDER
    label = frame[round(button.y) + 3 : round(button.y + button.height) - 3, round(button.x) + 3 :]
    assert (label.max(axis=2) < 60).any()  # a dark label
    board_corner = layout.geometry.center((0, 0))
    game.move(*board_corner)
    game.down()
    game.up()
    assert game.session.level == 1  # a press on the board does not move on
    game.move(*button.center)
    game.down()
    game.up()
    assert game.session.level == 2
    assert [result.solved for result in game.results] == [True]


def test_the_banner_shows_after_the_release_and_the_board_is_played_where_it_moved():
    puzzles = [level(5), level(6)]
    variant = Variant(look=Look(win_banner=True), dialog=False)  # no dialog over the board to press
    game = SimulatedGame(puzzles, variant=variant, clock=lambda: 0.0)
    resting = game.layout.geometry
    play(game.view, game.surface, puzzles[0])
    moved = game.view.draw(game.surface).geometry
    assert moved.ys[0] - resting.ys[0] >= 0.5 * (resting.ys[1] - resting.ys[0])
    frame = surface_to_bgr(game.surface)
    banner = game.view.layout.banner
    words = frame[
        round(banner.y) : round(banner.y + banner.height), round(banner.x) : round(banner.x + banner.width)
    ]
    assert (words == 255).all(axis=2).any()  # "You won!" in white
    # A press on the moved board's dot starts a stroke there (the cell map moved with the board).
    dot = puzzles[0].endpoints[0][0]
    game.move(*moved.center(dot))
    game.down()
    assert game.session.board.drawing == 0
    game.up()


def test_without_a_dialog_the_next_level_comes_by_itself_after_the_banner():
    now = [0.0]
    puzzles = [level(5), level(6)]
    variant = variant_from(build_parser().parse_args([*ALL_FLAGS, "--no-dialog", "--board-px", "200",
                                                      "--size", "1280x1000"]))  # fmt: skip
    game = SimulatedGame(puzzles, (1280, 1000), variant, clock=lambda: now[0])
    play(game.view, game.surface, puzzles[0])
    game.grab()
    assert game.session.level == 1 and game.view.layout.banner is not None
    assert game.view.layout.dialog is None  # no button at all
    now[0] += 0.5
    game.grab()
    assert game.session.level == 2 and game.view.layout.banner is None
    assert [result.solved for result in game.results] == [True]


def test_the_shifting_board_is_played_through_its_offset():
    puzzles = [level(5), level(6), level(7)]
    game = SimulatedGame(puzzles, variant=Variant(Theme(light=True, grid=False), shift=True, dialog=False),
                         clock=lambda: 0.0, delay=-1)  # fmt: skip
    offsets = []
    for index in range(2):
        offsets.append(game.view.offset())
        play(game.view, game.surface, puzzles[index])
        game.grab()
        assert game.session.level == index + 2
    assert offsets[0] != offsets[1]
    assert [result.solved for result in game.results] == [True, True]


def test_a_shifting_small_board_stays_in_the_window():
    puzzles = [level(5)] * 5
    game = SimulatedGame(puzzles, (1280, 1000), Variant(shift=True, look=Look(board_px=200)))
    seen = set()
    for _ in range(5):
        dx, dy = game.view.offset()
        seen.add((dx, dy))
        assert dx >= 0 and dy >= 0 and game.layout.geometry.xs[-1] + dx < 1280
        game.session.next()
        game.grab()
    assert len(seen) == 5


def test_a_time_trial_shows_its_clock_and_end_screen_in_every_new_look():
    from flowbot.game.render import DIALOG_FILL
    from flowbot.game.trial import LevelMaker, TrialSession, generated

    now = [0.0]
    results: list = []
    maker = LevelMaker(generated(5, 5, seed=2))
    try:
        for variant in (LOOKS["all at once"], LOOKS["all, small board, no dialog"]):
            session = TrialSession(maker, 20, report=results.append, clock=lambda: now[0])
            game = SimulatedGame(None, window_for(variant), variant, clock=lambda: now[0], session=session)
            corner = slice(0, 60)
            start = surface_to_bgr(game.surface)[corner].copy()
            play(game.view, game.surface, session.board.puzzle)
            game.grab()
            assert session.level == 2 and session.solved == 1  # at once: no dialog, no banner wait
            now[0] += 7
            game.grab()
            assert (surface_to_bgr(game.surface)[corner] != start).any()  # the clock and count changed
            now[0] += 20
            game.grab()
            layout = game.view.layout
            assert session.over and layout.dialog is not None and layout.dialog.style == "flow"
            box = layout.dialog.box
            assert pixel(surface_to_bgr(game.surface), box.x + 10, box.y + box.height - 10) == DIALOG_FILL
            game.move(*layout.geometry.center((0, 0)))
            game.down()
            game.up()
            assert session.board.drawing is None and session.board.moves == 0
    finally:
        maker.close()
    assert [result.solved for result in results] == [True, False, True, False]


def test_a_shifting_board_as_wide_as_the_window_never_leaves_it():
    import random

    from flowbot.game.look import Variant
    from flowbot.generate.levels import make_level
    from tests.simulated_game import SimulatedGame

    levels = [make_level(9, 9, 8, random.Random(seed)).puzzle for seed in range(5)]
    game = SimulatedGame(levels, variant=Variant(shift=True))
    for _ in range(5):
        game.grab()
        dx, dy = game.view.offset()
        geometry = game.layout.geometry
        assert geometry.xs[0] + dx >= 0
        assert geometry.xs[-1] + dx < 540
        assert geometry.ys[0] + dy >= 0
        assert geometry.ys[-1] + dy < 960
        game.session.next()
