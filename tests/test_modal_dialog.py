"""A modal win dialog that dims the whole window at once, in a language flowbot has no words for: the
bundled game's modal look (`--next-button modal`: a translucent layer over everything, a card over the
board titled "Valmis!", an outlined "Uudelleen" that plays the level again beside a filled "Seuraava"
ending in an arrow, which moves on). The layer and the panel in front of it are found by comparing
the window with the one before drawing (capture.scrim), the move-on button by its arrow or its fill
(capture.controls.modal_control, capture.icons; only buttons on its card, new since drawing), and the
live loop presses its arrow button, never the other one, on the dark page (dimmed) and the light one
(washed out), counting the level on the next level that press brings: a button known by its look alone
could be an offer. Pictures drawn in the test show the icons and the words."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from flowbot.act.plan import PointerSettings
from flowbot.capture import ocr
from flowbot.capture.controls import is_forbidden, label_score, modal_control
from flowbot.capture.icons import ends_in_go_icon
from flowbot.capture.scrim import Scrim, find_scrim
from flowbot.game.look import Look, Theme, Variant
from flowbot.game.packs import levels_from
from flowbot.live.report import PRESSED_ON
from flowbot.modes.auto_clear import AutoClear
from flowbot.modes.flow_verdict import Baseline, sight
from flowbot.solve.sat import solve
from tests.simulated_game import SimulatedGame

FAST = PointerSettings(moves_per_cell=2, move_delay=0.0, release_pause=0.0, flow_pause=0.0)
needs_ocr = pytest.mark.skipif(not ocr.available(), reason="tesseract is not installed")


class RecordingGame(SimulatedGame):
    """The simulated game, keeping what each press hit ('dialog', 'dialog again', 'board', ...)."""

    def __init__(self, *args, **options) -> None:
        super().__init__(*args, **options)
        self.hits: list[str] = []

    def down(self) -> None:
        """Press where the pointer is, noting what the press hit."""
        self.presses += 1
        self.held = True
        self.hits.append(self.view.pointer_down(self.x, self.y))


def modal_game(light: bool = False, levels: int = 2) -> RecordingGame:
    """The bundled game with the modal look, in process."""
    look = Variant(Theme(light=light), look=Look(next_button="modal"))
    return RecordingGame(levels_from("5x5", None)[:levels], variant=look)


def win(game: SimulatedGame) -> None:
    """Draw the shown level's solution, stroke by stroke."""
    centre = game.layout.geometry.center
    for path in solve(game.session.board.puzzle).solution.paths:
        game.move(*centre(path[0]))
        game.down()
        for cell in path[1:]:
            game.move(*centre(cell))
        game.up()


def before_and_after(light: bool) -> tuple[RecordingGame, np.ndarray, np.ndarray]:
    """A modal game, its window before drawing and once won (the modal showing)."""
    game = modal_game(light)
    before = game.grab().pixels
    win(game)
    return game, before, game.grab().pixels


def inside(box, point) -> bool:
    """True when pixel (x, y) lies in a layout Box."""
    return box.contains(*point)


# --- the game --------------------------------------------------------------------------------------


@pytest.mark.parametrize("light", [False, True], ids=["dark", "light"])
def test_the_modal_dims_the_whole_window_and_its_buttons_play_again_or_move_on(light):
    game, before, after = before_and_after(light)
    placed = game.layout.dialog
    assert placed is not None and placed.style == "modal" and placed.other is not None
    assert not np.array_equal(before[40:90], after[40:90])  # the title band dimmed too, far from the card
    game.move(*placed.other.center)
    game.down()
    game.up()
    assert game.hits[-1] == "dialog again" and not game.session.board.complete  # the level again
    win(game)
    game.move(10, 10)  # the dimmed page takes no press
    game.down()
    game.up()
    assert game.hits[-1] == "nothing" and game.session.level == 1
    game.move(*game.layout.dialog.button.center)
    game.down()
    game.up()
    assert game.hits[-1] == "dialog" and game.session.level == 2
    assert [(r.level, r.solved) for r in game.results] == [(1, True)]


# --- the scrim -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("light", "gain"), [(False, 0.45), (True, 0.2)], ids=["dimmed", "washed-out"])
def test_the_layer_over_the_window_and_the_panel_in_front_are_found(light, gain):
    game, before, after = before_and_after(light)
    scrim = find_scrim(before, after, game.layout.geometry.bounds)
    assert scrim is not None and abs(scrim.gain - gain) < 0.05
    button = game.layout.dialog.button
    left, top, width, height = scrim.panel
    assert left <= button.center[0] <= left + width and top <= button.center[1] <= top + height
    # Undoing the layer gives back the window as it was, where nothing stands in front.
    behind = scrim.unmixed(after)
    assert np.abs(behind[:40].astype(int) - before[:40].astype(int)).mean() < 3


def test_no_layer_where_only_the_board_changed_or_the_window_moved():
    game = modal_game()
    before = game.grab().pixels
    path = solve(game.session.board.puzzle).solution.paths[0]
    centre = game.layout.geometry.center
    game.move(*centre(path[0]))
    game.down()
    for cell in path[1:]:
        game.move(*centre(cell))
    game.up()
    drawn = game.grab().pixels
    bounds = game.layout.geometry.bounds
    assert find_scrim(before, drawn, bounds) is None  # strokes on the board alone
    assert find_scrim(before, np.roll(before, 40, axis=0), bounds) is None  # the window moved
    faded = (before.astype(np.float32) * 0.4).astype(np.uint8)
    assert find_scrim(before, faded, bounds) is None  # a fade with nothing in front: no dialog
    assert find_scrim(before, before[:-1], bounds) is None  # not the same part of the screen


def test_cells_under_the_panel_are_hidden_and_a_box_beside_it_is_not():
    scrim = Scrim(0.5, (0.0, 0.0, 0.0), (100, 100, 50, 40))
    assert scrim.hides((140, 130, 180, 170)) and not scrim.hides((151, 100, 200, 140))
    pixels = np.full((200, 200, 3), 60, np.uint8)
    pixels[100:140, 100:150] = 250  # beyond what a layer halving everything can show
    assert scrim.in_front(pixels, (100, 100, 50, 40)) and not scrim.in_front(pixels, (0, 0, 50, 40))


def test_cells_under_a_card_of_the_boards_colour_are_hidden_never_dropped():
    """A card of the board's own colour over a board with no grid lines, on a page washed out with that
    colour: the cells under the card look as before drawing (empty), and the card stands out only by
    its words and button. Seen through the scrim, with the card's padding around those, the cells
    under it are hidden (neither drawn nor missing) and every other cell shows drawn."""
    theme = Theme(light=True, grid=False)
    game = RecordingGame(levels_from("5x5", None)[:2], variant=Variant(theme, dialog=False), delay=60)
    before = game.grab().pixels
    win(game)
    layer = np.array(theme.board_rgb[::-1], np.float32)
    washed = (0.15 * game.grab().pixels.astype(np.float32) + 0.85 * layer).astype(np.uint8)
    board = game.layout.geometry
    x, y = (round(value) for value in board.center((2, 2)))
    washed[y - 125 : y + 125, x - 170 : x + 170] = theme.board_rgb[::-1]  # the card, as the board
    cv2.putText(washed, "Valmis!", (x - 70, y - 40), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (30, 30, 30), 2)
    washed[y + 30 : y + 75, x - 100 : x + 100] = (240, 110, 70)  # its button
    solution = solve(game.session.board.puzzle).solution
    baseline = _baseline(before, board, solution, theme)
    assert sight(baseline, washed, board, solution, None).unfinished  # the covered cells look empty
    scrim = find_scrim(before, washed, board.bounds)
    assert scrim is not None and abs(scrim.gain - 0.15) < 0.03
    assert sight(baseline, washed, board, solution, None, scrim).unfinished == []
    assert scrim.hides((x - 10, y - 10, x + 10, y + 10))


def _baseline(pixels: np.ndarray, board, solution, theme: Theme) -> Baseline:
    """The verdict's baseline of a level shown on `pixels` at `board`, to be drawn as `solution`."""
    from types import SimpleNamespace

    from flowbot.capture.screen import Frame
    from flowbot.live.scene import Scene

    puzzle = solution.puzzle
    colours = tuple(theme.rgb(puzzle, color) for color in range(len(puzzle.colors)))
    reading = SimpleNamespace(puzzle=puzzle, geometry=board, seen_rgb=colours)
    return Baseline.of(Scene(Frame(pixels), reading), solution)


# --- the move-on control ---------------------------------------------------------------------------


@pytest.mark.parametrize("light", [False, True], ids=["dark", "light"])
def test_the_button_ending_in_an_arrow_is_the_one_that_moves_on(light):
    game, before, after = before_and_after(light)
    scrim = find_scrim(before, after, game.layout.geometry.bounds)
    control = modal_control(after, scrim, before)
    placed = game.layout.dialog
    assert control is not None and inside(placed.button, control.center)
    assert not inside(placed.other, control.center)


PLAIN, FILLED = ((250, 250, 250), (30, 30, 30)), ((220, 90, 40), (255, 255, 255))  # a button's fill, ink


def _card(labels: list[tuple[str, tuple[tuple[int, int, int], tuple[int, int, int]]]], arrow: bool = False):
    """A dark page dimmed by half, with a light card in front holding buttons (label, fill, ink)
    side by side; the last button gets an arrow drawn after its label. The page before, and now."""
    before = np.full((500, 760, 3), 90, np.uint8)
    cv2.putText(before, "Level 7  moves 12", (40, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (240, 240, 240), 2)
    before[80:480, 10:50] = (40, 160, 200)  # something around the card: a side bar, a footer
    before[440:480, 60:740] = (200, 200, 60)
    now = (before.astype(np.float32) * 0.5).astype(np.uint8)
    now[150:330, 60:640] = (250, 250, 250)
    boxes = []
    for index, (label, (fill, ink)) in enumerate(labels):
        left = 90 + index * 280
        box = (left, 250, 240, 60)
        now[250:310, left : left + 240] = fill
        cv2.rectangle(now, (left, 250), (left + 239, 309), (120, 120, 120), 2)
        cv2.putText(now, label, (left + 20, 290), cv2.FONT_HERSHEY_SIMPLEX, 0.9, ink, 2, cv2.LINE_AA)
        if arrow and index == len(labels) - 1:
            cv2.arrowedLine(now, (left + 180, 280), (left + 225, 280), ink, 3, cv2.LINE_AA, tipLength=0.4)
        boxes.append(box)
    return before, now, boxes


def _chosen(before, now) -> tuple[str | None, list[str]]:
    """The label of the control modal_control chooses on a card (None: none), and those refused."""
    scrim = find_scrim(before, now)
    assert scrim is not None
    refused: list[str] = []
    control = modal_control(now, scrim, before, refused)
    return (None if control is None else control.label), refused


@needs_ocr
def test_with_two_buttons_and_no_word_known_the_arrow_one_is_chosen():
    before, now, _ = _card([("Valikko", PLAIN), ("Jatka", PLAIN)], arrow=True)
    label, _ = _chosen(before, now)
    assert label is not None and "jatka" in label.lower()


@needs_ocr
def test_with_no_word_known_and_no_arrow_the_one_primary_button_is_chosen():
    before, now, _ = _card([("Valikko", PLAIN), ("Jatka", FILLED)])
    label, _ = _chosen(before, now)
    assert label is not None and "jatka" in label.lower()
    # Two buttons alike: nothing tells which one moves on, so none is pressed.
    before, now, _ = _card([("Valikko", PLAIN), ("Jatka", PLAIN)])
    assert _chosen(before, now)[0] is None


@needs_ocr
def test_a_button_whose_words_restart_or_open_a_menu_is_never_pressed_whatever_its_icon():
    before, now, _ = _card([("Menu", FILLED), ("Restart", PLAIN)], arrow=True)
    label, refused = _chosen(before, now)
    assert label is None and len(refused) == 2
    # A known word anywhere in the dialog: the unknown primary one is not guessed at.
    before, now, _ = _card([("Menu", PLAIN), ("Jatka", FILLED)])
    assert _chosen(before, now)[0] is None


UPDATE = ((40, 140, 250), (255, 255, 255))  # a browser's "Update" pill: filled, saturated


def _pill(picture: np.ndarray, left: int, top: int) -> None:
    """A filled "Update" pill, as a browser's toolbar shows one."""
    fill, ink = UPDATE
    picture[top : top + 36, left : left + 110] = fill
    cv2.putText(picture, "Update", (left + 10, top + 25), cv2.FONT_HERSHEY_SIMPLEX, 0.7, ink, 2, cv2.LINE_AA)


@needs_ocr
@pytest.mark.parametrize("where", ["toolbar", "over-the-page"])
def test_a_button_the_dimming_never_reached_is_no_control_of_the_modal(where):
    # Colours the layer cannot show are not the card's alone: a browser's toolbar above the page
    # (its "Update" pill new since drawing, but far from the card), or a button of another program
    # over the page, there before drawing and as it was. Neither is the card's primary button.
    before, now, _ = _card([("Valikko", PLAIN), ("Jatka", PLAIN)])
    if where == "toolbar":
        bar = np.full((60, before.shape[1], 3), 90, np.uint8)
        before, now = np.vstack([bar, before]), np.vstack([bar, now])
        _pill(now, 600, 12)
    else:
        _pill(before, 640, 350)
        _pill(now, 640, 350)
    assert _chosen(before, now)[0] is None


# --- icons and words -------------------------------------------------------------------------------


def _label(draw) -> np.ndarray:
    """A button's inside (white ink on blue) with "Go" and whatever `draw(picture, ink)` adds after it."""
    picture = np.full((60, 220, 3), (200, 90, 40), np.uint8)
    cv2.putText(picture, "Go", (20, 42), cv2.FONT_HERSHEY_SIMPLEX, 1, (255, 255, 255), 2, cv2.LINE_AA)
    draw(picture, (255, 255, 255))
    return picture


ICONS = {
    "arrow": lambda p, ink: cv2.arrowedLine(p, (110, 32), (160, 32), ink, 2, cv2.LINE_AA, tipLength=0.35),
    "chevron": lambda p, ink: cv2.polylines(p, [np.array([[110, 18], [124, 32], [110, 46]])], False, ink, 3),
    "double chevron": lambda p, ink: [
        cv2.polylines(p, [np.array([[x, 18], [x + 14, 32], [x, 46]])], False, ink, 3) for x in (100, 120)
    ],
    "triangle": lambda p, ink: cv2.fillPoly(p, [np.array([[110, 18], [134, 32], [110, 46]])], ink),
    "check": lambda p, ink: cv2.polylines(p, [np.array([[108, 32], [118, 44], [140, 16]])], False, ink, 3),
}


@pytest.mark.parametrize("icon", list(ICONS))
def test_an_icon_pointing_on_is_told_by_its_shape(icon):
    assert ends_in_go_icon(_label(ICONS[icon]))


@pytest.mark.parametrize("text", ["Menu", "Retry", "Level", "Seuraava", "OK", "D", "o", "B", "K", "V", "3"])
def test_words_and_letters_are_no_icon(text):
    picture = np.full((60, 260, 3), (200, 90, 40), np.uint8)
    cv2.putText(picture, text, (20, 42), cv2.FONT_HERSHEY_SIMPLEX, 1, (255, 255, 255), 2, cv2.LINE_AA)
    assert not ends_in_go_icon(picture)
    dash = _label(lambda p, ink: cv2.line(p, (110, 32), (150, 32), ink, 2, cv2.LINE_AA))
    assert not ends_in_go_icon(dash)  # a dash is no arrow


def test_arrows_as_ocr_reads_them_move_on_and_words_that_restart_never():
    for label in ("Man tiep ->", "Man tiep —>", "Seuraava —»", "Go =>", "Jatka ›", "OK ✓", "Jatka →"):
        assert label_score(label) == 3, label
    for label in ("Man tiep —", "—", "x - y"):
        assert label_score(label) == 0, label
    for label in ("Restart ->", "Menu >", "Réessayer →", "Zurück »", "Livelli >"):
        assert label_score(label) == 0 and is_forbidden(label), label


def test_move_on_words_of_five_languages_besides_english():
    labels = ("Suivant", "Niveau suivant", "Siguiente", "Weiter", "Nächstes Level", "Próximo", "Avanti")
    for label in labels:
        assert label_score(label) >= 4, label


# --- the live loop ---------------------------------------------------------------------------------


def _clear(game: RecordingGame, count: int, tmp_path):
    """auto-clear on the in-process game, on its clock."""
    loop = AutoClear(game, game, FAST, None, count, artifacts=tmp_path, clock=game.clock,
                     settle_timeout=1.0, verify_timeout=0.5)  # fmt: skip
    return loop.run()


@pytest.mark.parametrize("light", [False, True], ids=["dimmed", "washed-out"])
def test_the_loop_presses_the_modals_arrow_button_and_counts_the_level_on_the_next_one(light, tmp_path):
    game = modal_game(light, levels=3)
    report = _clear(game, 2, tmp_path)
    assert report.cleared == 2, report.stopped
    # "Seuraava" is no word flowbot knows: its arrow says to press it, and the next level it brought
    # is the game's word, the last level asked for too.
    assert [level.won_by for level in report.levels] == [PRESSED_ON, PRESSED_ON]
    assert [(r.level, r.solved) for r in game.results] == [(1, True), (2, True)]
    assert game.session.level == 3
    assert "dialog again" not in game.hits and game.hits.count("dialog") == 2


def test_a_modal_button_a_flow_dialogs_search_finds_too_is_the_modals_to_weigh(tmp_path, monkeypatch):
    # A game whose modal button looks like a Flow-style dialog's, its arrow read as text (next-truong's
    # "Màn tiếp ->"): the modal's reading alone decides, so neither the arrow read on it nor its look
    # remembered from the level before makes it the game's word: each level counts on the next level
    # its press brought.
    from flowbot.capture.buttons import Button
    from flowbot.game.modal import PRIMARY
    from flowbot.live import signs

    game = modal_game(levels=3)

    def flow_style(frame, board, window):
        """The modal's filled button, where a frame shows it."""
        placed = game.layout.dialog
        if placed is None:
            return None
        box = placed.button
        left, top = round(box.x) - frame.left, round(box.y) - frame.top
        middle = round(box.height / 2)
        if not 0 <= left < frame.pixels.shape[1] or not 0 <= top + middle < frame.pixels.shape[0]:
            return None
        fill = frame.pixels[top + middle, left + 4].astype(int)
        if np.abs(fill - np.array(PRIMARY[::-1])).max() > 12:
            return None  # not showing on this frame (the level before drawing)
        return Button(left, top, round(box.width), round(box.height))

    monkeypatch.setattr(signs, "dialog_button", flow_style)
    monkeypatch.setattr(signs, "label_on", lambda pixels, button: "Seuraava ->")
    report = _clear(game, 2, tmp_path)
    assert report.cleared == 2, report.stopped
    assert [level.won_by for level in report.levels] == [PRESSED_ON, PRESSED_ON]
    assert [(r.level, r.solved) for r in game.results] == [(1, True), (2, True)]


class OfferGame(RecordingGame):
    """The modal game whose filled arrow button brings no level (an offer: "Install", "+5 moves")."""

    def down(self) -> None:
        """Press where the pointer is; the modal's filled button does nothing."""
        placed = self.layout.dialog
        if placed is not None and placed.button is not None and inside(placed.button, (self.x, self.y)):
            self.presses += 1
            self.held = True
            self.hits.append("offer")
            return
        super().down()


def test_a_modal_known_by_its_look_alone_is_no_win_when_its_press_brings_no_level(tmp_path):
    look = Variant(Theme(), look=Look(next_button="modal"))
    game = OfferGame(levels_from("5x5", None)[:2], variant=look)
    game.guard = None  # a pointer that carries a guard: the loop arms it, and draws nothing over the modal
    report = _clear(game, 1, tmp_path)
    assert report.cleared == 0 and not any(level.cleared for level in report.levels), report.summary()
    assert game.hits.count("offer") == 1  # pressed once, to see whether the next level comes
    assert game.session.level == 1


def test_a_modal_whose_button_says_to_move_on_in_words_is_the_games_word(tmp_path, monkeypatch):
    monkeypatch.setattr("flowbot.game.modal.ONWARD", "Next")
    game = modal_game(levels=3)
    report = _clear(game, 2, tmp_path)
    assert report.cleared == 2, report.stopped
    assert [level.won_by for level in report.levels] == ["dialog", "dialog"]
    # Level 1 was moved on from by its button; level 2, the last asked, is left won under its modal.
    assert [(r.level, r.solved) for r in game.results] == [(1, True)]
    assert game.session.level == 2 and game.session.board.complete
