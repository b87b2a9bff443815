"""Reading Number Match boards from screenshots: the shared screenshots with truth files, and refusals."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from flowbot.numbermatch.cli import run_numbermatch
from flowbot.numbermatch.read import NumberMatchReadError, read_board
from tests.conftest import SHARED

SCREENSHOTS = SHARED / "numbermatch" / "screenshots"


def screenshot_files(photos: bool = False) -> list[Path]:
    """Every screenshot (or every photo of a phone's screen) with a truth file beside it."""
    if not SCREENSHOTS.is_dir():
        return []
    found = []
    for truth in sorted(SCREENSHOTS.glob("*.truth.txt")):
        image = truth.with_name(truth.name.removesuffix(".truth.txt") + ".jpg")
        if image.exists() and ("photo" in _manifest(image.name, 6)) == photos:
            found.append(image)
    return found


def _manifest(name: str, column: int) -> str:
    """A column of the manifest's row for a file (6: photo or screenshot, 11: notes)."""
    for line in (SCREENSHOTS / "MANIFEST.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) > column and cells[1] == name:
            return cells[column]
    return ""


def badge_in_manifest(name: str) -> int | None:
    """The "+" badge the manifest notes for a file ("+ badge 5", "+ counter 4"), if it notes one."""
    found = re.search(r"\+ (?:badge|counter) (\d)", _manifest(name, 11) + " " + _manifest(name, 9))
    return int(found.group(1)) if found else None


@pytest.fixture(scope="module")
def shots() -> list[Path]:
    """The screenshots, or skip when ../shared/numbermatch is absent."""
    files = screenshot_files()
    if not files:
        pytest.skip("../shared/numbermatch/screenshots is not present")
    return files


def test_every_screenshot_reads_exactly(shots: list[Path]) -> None:
    """Each screenshot's board is its truth file, row for row, and its "+" badge reads as noted."""
    wrong = []
    for image in shots:
        truth = image.with_name(image.stem + ".truth.txt").read_text().split()
        reading = read_board(cv2.imread(str(image)), image.name)
        if list(reading.rows) != truth:
            wrong.append((image.name, reading.rows, truth))
        assert reading.adds_left == badge_in_manifest(image.name), image.name
        assert not reading.rectified
    assert not wrong


def test_photos_of_a_phone_read_exactly_straightened() -> None:
    """The photos (perspective, glare, moiré) read as their truth files once straightened; a badge
    that reads agrees with the manifest's note (a dim photo's may not read: then None, never wrong)."""
    photos = screenshot_files(photos=True)
    if not photos:
        pytest.skip("../shared/numbermatch/screenshots has no photos")
    wrong = []
    for image in photos:
        truth = image.with_name(image.stem + ".truth.txt").read_text().split()
        reading = read_board(cv2.imread(str(image)), image.name)
        if list(reading.rows) != truth:
            wrong.append((image.name, reading.rows, truth))
        noted = badge_in_manifest(image.name)
        assert reading.adds_left is None or noted is None or reading.adds_left == noted, image.name
    assert not wrong


def test_blue_digits_are_told_apart(shots: list[Path]) -> None:
    """The live digits added by "+" (drawn in blue) read as blue, the first rows' black ones do not."""
    for image in shots:
        reading = read_board(cv2.imread(str(image)), image.name)
        assert not any(reading.blue[0]), image.name
        if len(reading.rows) >= 5:  # the relay's boards: rows 5 on came from an add
            assert any(reading.blue[4]), image.name


def test_a_blank_image_is_refused_by_name() -> None:
    """A white page has no grid: the error names the file."""
    with pytest.raises(NumberMatchReadError, match=r"blank\.png: no grid"):
        read_board(np.full((800, 400, 3), 255, np.uint8), "blank.png")


def _painted_blank(image: Path, row: int, col: int) -> np.ndarray:
    """The screenshot with the digit of one cell painted over with the cell's white."""
    frame = cv2.imread(str(image))
    reading = read_board(frame, image.name)
    x, y = reading.grid.center(row, col)
    half = reading.grid.cell * 0.35
    cv2.rectangle(frame, (int(x - half), int(y - half)), (int(x + half), int(y + half)), (255, 255, 255), -1)
    return frame


def test_an_empty_slot_amid_the_numbers_is_refused_where_cleared_digits_show_faint(shots: list[Path]) -> None:
    """A look that draws a cleared digit faint never draws a blank amid the numbers: a misread, refused."""
    image = next(shot for shot in shots if "." in shot.with_name(shot.stem + ".truth.txt").read_text())
    truth = image.with_name(image.stem + ".truth.txt").read_text().split()
    col = next(index for index, char in enumerate(truth[0]) if char.isdigit())
    with pytest.raises(NumberMatchReadError, match=rf"row 1, column {col + 1} reads as an empty slot"):
        read_board(_painted_blank(image, 0, col), image.name)


def test_a_blank_cell_amid_the_numbers_reads_cleared_where_no_digit_shows_faint(shots: list[Path]) -> None:
    """A look with no faint digit draws its cleared cells blank (a light mobile look): read as cleared."""
    image = next(shot for shot in shots if "." not in shot.with_name(shot.stem + ".truth.txt").read_text())
    truth = image.with_name(image.stem + ".truth.txt").read_text().split()
    reading = read_board(_painted_blank(image, 0, 0), image.name)
    assert list(reading.rows) == ["." + truth[0][1:], *truth[1:]]


def test_a_mark_that_is_no_digit_is_refused(shots: list[Path]) -> None:
    """A filled square where a digit was matches no digit's shape: refused, naming the cell."""
    image = shots[0]
    frame = cv2.imread(str(image))
    reading = read_board(frame, image.name)
    x, y = reading.grid.center(0, 2)
    half = reading.grid.cell * 0.3
    cv2.rectangle(frame, (int(x - half), int(y - half)), (int(x + half), int(y + half)), (255, 255, 255), -1)
    cv2.rectangle(
        frame, (int(x - half / 2), int(y - half)), (int(x + half / 2), int(y + half)), (0, 0, 0), -1
    )
    with pytest.raises(NumberMatchReadError, match=r"row 1, column 3 holds a mark that is no digit"):
        read_board(frame, image.name)


def run_cli(*paths: str) -> tuple[int, list[dict], str]:
    """`flowbot numbermatch --json` in process: (exit code, records, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = run_numbermatch(
        list(paths), adds=4, as_json=True, best=False, timeout=10.0, out=out, err=err, colors=False
    )
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_the_cli_solves_screenshots_with_the_board_and_badge_as_read(shots: list[Path]) -> None:
    code, records, _ = run_cli(*(str(image) for image in shots))
    assert code == 0
    for image, record in zip(shots, records, strict=True):
        assert record["board"] == image.with_name(image.stem + ".truth.txt").read_text().split()
        assert record["adds_left"] == badge_in_manifest(image.name) == record["adds"]
        assert record["status"] == "won"


def test_a_folder_gives_its_images_and_leaves_notes_beside_them_alone(tmp_path: Path) -> None:
    """A folder of one rendered game frame, a truth file and a README: one board, read from the image."""
    pygame = pytest.importorskip("pygame")
    from flowbot.game.numbermatch import NumberMatchView
    from flowbot.game.render import surface_to_bgr
    from flowbot.numbermatch.game import NumberMatchGame

    game = NumberMatchGame(random.Random(11))
    game.add()
    pygame.font.init()
    view = NumberMatchView(game, (540, 960))
    surface = pygame.Surface((540, 960))
    view.draw(surface)
    cv2.imwrite(str(tmp_path / "shot.png"), surface_to_bgr(surface))
    (tmp_path / "shot.truth.txt").write_text("\n".join(game.rows_text()) + "\n")
    (tmp_path / "README.md").write_text("notes\n")
    code, [record], _ = run_cli(str(tmp_path))
    assert code == 0
    assert record["source"].endswith("shot.png")
    assert record["board"] == list(game.rows_text()) and record["adds_left"] == 3 and record["adds"] == 3


def test_an_unreadable_screenshot_is_an_error_line_naming_it(tmp_path: Path) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((900, 500, 3), 255, np.uint8))
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    code, records, err = run_cli(str(blank), str(broken))
    assert code == 2
    assert [record["status"] for record in records] == ["error", "error"]
    assert "blank.png: no grid" in records[0]["error"] and "broken.png" in records[1]["error"]
    assert "blank.png" in err


def test_a_board_scrolled_part_way_is_refused_not_solved(tmp_path: Path) -> None:
    """A screenshot of a long board scrolled down shows only part of it: solving that would be wrong."""
    pygame = pytest.importorskip("pygame")
    from flowbot.game.numbermatch import NumberMatchView
    from flowbot.game.render import surface_to_bgr
    from flowbot.numbermatch.game import NumberMatchGame

    game = NumberMatchGame(random.Random(12), start=35)
    for _ in range(3):
        game.add()
    pygame.font.init()
    view = NumberMatchView(game, (540, 700))
    surface = pygame.Surface((540, 700))
    # Down a few rows (the end is off screen), and down to the end (the top is off screen; the
    # straightened reading of it must not pass for a whole board either).
    for name, offset in (("middle", view.layout.cell * 3), ("end", view.layout.max_offset(game.row_count))):
        view.offset = offset
        view.draw(surface)
        cv2.imwrite(str(tmp_path / f"{name}.png"), surface_to_bgr(surface))
    code, records, _ = run_cli(str(tmp_path / "middle.png"), str(tmp_path / "end.png"))
    assert code == 2 and [record["status"] for record in records] == ["error", "error"]
    assert "middle.png: only part of the board shows" in records[0]["error"]
    assert "end.png: only part of the board shows" in records[1]["error"]


GAMES = SHARED / "numbermatch-games"
# The first screen of each third-party game as its judge showed it (0 = cleared), and the "+" badge.
GAME_SHOTS = {
    "numberama": (("023456789", "011213141", "516171819"), None),
    "thejas-nm": (("001919558", "846337399", "739928285"), 6),
}


@pytest.mark.parametrize("game", sorted(GAME_SHOTS))
def test_the_third_party_games_read_exactly(game: str) -> None:
    """A dark page of white tiles with covered cleared cells, and a light look with bold digits,
    blank cleared cells and a white "+" on a lavender disc with a red badge, read as their judges show."""
    shot = GAMES / game / "shot.png"
    if not shot.exists():
        pytest.skip(f"{shot} is not present")
    reading = read_board(cv2.imread(str(shot)), shot.name)
    rows, badge = GAME_SHOTS[game]
    assert [row.replace(".", "0") for row in reading.rows] == list(rows)
    assert reading.whole and not reading.rectified
    assert reading.adds_left == badge
    if badge is not None:
        assert reading.plus is not None


def test_a_cell_drawn_inverted_reads_as_its_digit() -> None:
    """A selected cell drawn as a light digit on a dark ground (the light look's selection) reads as
    the digit it holds, not as a blank."""
    shot = GAMES / "thejas-nm" / "shot.png"
    if not shot.exists():
        pytest.skip(f"{shot} is not present")
    frame = cv2.imread(str(shot))
    reading = read_board(frame, shot.name)
    x0, x1 = (round(x) for x in reading.grid.xs[2:4])
    y0, y1 = (round(y) for y in reading.grid.ys[0:2])
    frame[y0 + 2 : y1 - 1, x0 + 2 : x1 - 1] = 255 - frame[y0 + 2 : y1 - 1, x0 + 2 : x1 - 1]
    assert read_board(frame, shot.name).rows == reading.rows


def test_a_last_row_of_two_cells_is_read() -> None:
    """A look that draws a cell only for a slot: a last row of two cells (its lines too short for a
    row of the grid) is still a row of the board."""
    shot = GAMES / "thejas-nm" / "shot.png"
    if not shot.exists():
        pytest.skip(f"{shot} is not present")
    frame = cv2.imread(str(shot))
    reading = read_board(frame, shot.name)
    grid = reading.grid
    x0, x1 = round(grid.xs[0]) - 1, round(grid.xs[2]) + 2
    y0, y1 = round(grid.ys[2]) - 1, round(grid.ys[3]) + 2
    step = round(grid.cell)
    frame[y0 + step : y1 + step, x0:x1] = frame[y0:y1, x0:x1]  # row 3's first two cells, a row lower
    again = read_board(frame, shot.name)
    assert again.rows == (*reading.rows, reading.rows[2][:2] + "_" * 7)
    assert again.whole


def tile_board(rows: list[str], cell: int = 40) -> np.ndarray:
    """A dark page with the board drawn as separate white tiles (bold digits), a cleared cell covered
    by a smaller dark square with its digit faint under it: a look drawn here, no game's pixels."""
    pygame = pytest.importorskip("pygame")
    from flowbot.numbermatch.glyphs import SYSTEM_FONTS

    pygame.font.init()
    face = next((path for path in SYSTEM_FONTS if "Bold" in path and Path(path).is_file()), None)
    font = pygame.font.Font(face, cell // 2)
    height = 2 * cell + cell * len(rows) + 200
    frame = np.full((height, 12 * cell, 3), (42, 23, 15), np.uint8)
    for row, text in enumerate(rows):
        for col, char in enumerate(text):
            if char == "_":
                continue
            x, y = cell + col * cell, 2 * cell + row * cell
            frame[y + 1 : y + cell - 1, x + 1 : x + cell - 1] = (250, 245, 244)
            digit = "7" if char == "." else char
            glyph = pygame.surfarray.array3d(font.render(digit, True, (255, 255, 255), (0, 0, 0)))[:, :, 0].T
            gy, gx = y + (cell - glyph.shape[0]) // 2, x + (cell - glyph.shape[1]) // 2
            area = frame[gy : gy + glyph.shape[0], gx : gx + glyph.shape[1]]
            ink = glyph[:, :, None] / 255.0
            area[:] = (area * (1 - ink)).astype(np.uint8)
            if char == ".":
                # A dark cover inside a grey frame, so its inside is a few pixels smaller than a tile's.
                frame[y + 1 : y + cell - 1, x + 1 : x + cell - 1] = (95, 85, 80)
                cover = frame[y + 4 : y + cell - 4, x + 4 : x + cell - 4]
                shade = np.zeros((cell, cell), bool)
                shade[gy - y : gy - y + glyph.shape[0], gx - x : gx - x + glyph.shape[1]] = glyph > 127
                cover[:] = (59, 41, 30)
                cover[shade[4 : cell - 4, 4 : cell - 4]] = (47, 29, 18)  # its digit a shade darker
    return frame


def test_a_board_of_tiles_mostly_covered_reads_whole() -> None:
    """Covered cells drawn a little smaller than live ones, and more of them: one board, every row."""
    rows = ["12345....", ".....13..", "5161.....", "...45....", ".4.5.....", "1........", "..2......"]
    rows += ["......3..", "....4....", "753456161", "3151715__"]
    reading = read_board(tile_board(rows), "tiles.png")
    assert list(reading.rows) == rows


def test_a_board_of_tiles_cut_by_the_frame_is_not_whole() -> None:
    """A board taller than the window: the rows shown read, and the reading does not pass for whole."""
    rows = ["123456789", "987654321", "123456789", "987654321", "5________"]
    frame = tile_board(rows)
    cut = frame[: 2 * 40 + 3 * 40 + 15]  # the fourth row cut by the frame's edge
    reading = read_board(cut, "cut.png", straighten=False)
    assert list(reading.rows) == rows[:3] and not reading.whole
    assert read_board(frame, "whole.png").whole
