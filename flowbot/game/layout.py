"""Where everything sits in a window of a given size: the board's grid, the text lines, buttons, dialog."""

from __future__ import annotations

import math
from dataclasses import dataclass

from flowbot.cellmap import GATE_DEPTH, SQRT3, CellMap, HexGeometry, WarpGates
from flowbot.game.look import Look
from flowbot.game.shapes import board_shape
from flowbot.model import Geometry, Puzzle
from flowbot.shapes.pixels import ShapeMap

# Sizes below are for a 540x960 portrait window and scale with the window (the smaller ratio wins).
REFERENCE = (540, 960)
MARGIN = 0.03  # of the window width, each side of the board
TITLE_BAND = 90
HUD_BAND = 40
BOTTOM_BAND = 140
BUTTON_RADIUS = 26
BUTTON_GAP = 80  # between the centres of neighbouring bottom buttons
DIALOG_WIDTH = 0.8  # of the window width, at most DIALOG_MAX_WIDTH reference pixels
DIALOG_MAX_WIDTH = 560
MIN_DIALOG_HEIGHT = 0.55  # of the dialog's width
MIN_CELL = 4
# The "You won!" banner pushes the board down by this share of a cell, and at least BANNER_BAND.
BANNER_SHARE = 0.6
BANNER_BAND = 44
HEADER_SHARE = 0.5  # the header's band above the board, of a cell
SMALL_MARGIN = 12  # around a board placed at the top-left (--board-px)
TEXT_BUTTON = (180, 52)  # the plain push button, reference pixels
MODAL_WIDTH = 440  # the modal's card, reference pixels (at most 0.85 of the window's width)
MODAL_BUTTON_HEIGHT = 60
ARROW_BAND = 60  # room beside the board for each skip arrow, reference pixels

BOTTOM_BUTTONS = ("previous", "restart", "next")


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle in window pixels."""

    x: float
    y: float
    width: float
    height: float

    def contains(self, x: float, y: float) -> bool:
        """True when the pixel lies inside the rectangle."""
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height

    @property
    def center(self) -> tuple[float, float]:
        """The middle of the rectangle."""
        return self.x + self.width / 2, self.y + self.height / 2


@dataclass(frozen=True, slots=True)
class RoundButton:
    """A round button of the bottom bar: its action's name, centre and radius in window pixels."""

    name: str
    x: float
    y: float
    radius: float

    def contains(self, x: float, y: float) -> bool:
        """True when the pixel lies on the button."""
        return math.hypot(x - self.x, y - self.y) <= self.radius


@dataclass(frozen=True, slots=True)
class Dialog:
    """What a dialog says: a title, lines of text, and the label of its one button (None for no button)."""

    title: str
    lines: tuple[str, ...] = ()
    button: str | None = None


@dataclass(frozen=True, slots=True)
class DialogLayout:
    """Where a dialog's parts sit: its box, the title band, the middle of each text line, its button."""

    box: Box
    title: Box
    line_ys: tuple[float, ...]
    button: Box | None
    style: str = "flow"  # "text": a plain push button centred on the window, its title a line above it
    # "modal": the whole window dimmed behind a card over the board, with `other` (plays the level
    # again) beside `button` (moves on)
    other: Box | None = None


@dataclass(frozen=True, slots=True)
class Layout:
    """Everything's place in one window size; `geometry` is the one map between cells and pixels."""

    width: int
    height: int
    scale: float
    geometry: Geometry | HexGeometry | WarpGates | ShapeMap  # square, hexagons, warps, or Shapes cells
    title_y: float
    hud: Box
    buttons: tuple[RoundButton, ...]
    dialog: DialogLayout | None
    banner: Box | None = None  # where "You won!" is written, when it shows
    header: Box | None = None  # the band just above the board for the level's header line
    title_shown: bool = True  # the level's name in the top band (not with a board at the top-left)
    hud_shown: bool = True  # the flows/moves/pipe line (not with a header or a board at the top-left)
    arrows: tuple[RoundButton, ...] = ()  # the skip arrows beside the board: 'previous' and 'next'
    next_box: Box | None = None  # the "Next Level" push button always shown under the board, if any

    @property
    def cell(self) -> float:
        """The side of a cell in pixels."""
        return self.geometry.cell_size

    def px(self, reference: float) -> int:
        """A length given for the 540x960 window, in this window's pixels (at least 1)."""
        return max(1, round(reference * self.scale))

    def button_at(self, x: float, y: float) -> str | None:
        """The name of the bottom button under a pixel ('previous', 'restart', 'next'), or None."""
        return next((button.name for button in self.buttons if button.contains(x, y)), None)

    def arrow_at(self, x: float, y: float) -> str | None:
        """The skip arrow under a pixel ('previous' or 'next'), or None."""
        return next((arrow.name for arrow in self.arrows if arrow.contains(x, y)), None)


def compute_layout(
    width: int,
    height: int,
    rows: int,
    cols: int,
    dialog: Dialog | None = None,
    *,
    look: Look | None = None,
    won: bool = False,
    puzzle: Puzzle | None = None,
) -> Layout:
    """Lay out a rows x cols board in a width x height window: square cells as large as fit.

    `look` says where the board goes; `won` (with a win banner) pushes the board down under it.
    With `puzzle`, its kind of board: hexagons for Hexes, room around the grid for Warps' openings.
    """
    units_x, units_y, origin = _extent(rows, cols, puzzle)
    if width < 1 or height < 1:
        raise ValueError(f"window size {width}x{height} has no pixels")
    look = look or Look()
    scale = min(width / REFERENCE[0], height / REFERENCE[1])
    bottom = height - BOTTOM_BAND * scale
    if look.board_px is None:
        margin = max(MARGIN * width, ARROW_BAND * scale if look.skip_arrows else 0.0)
        top = (TITLE_BAND + HUD_BAND) * scale
        band = HUD_BAND * scale  # the HUD or header line just above the board, moving with it
        fit = bottom - top
        if look.win_banner:
            fit = min(fit - BANNER_BAND * scale, (fit - 1) * units_y / (units_y + BANNER_SHARE))
        # Whole pixels per cell keep every grid line crisp and every cell the same size.
        cell = max(MIN_CELL, math.floor(min((width - 2 * margin) / units_x, fit / units_y)))
        push = _push(cell, scale) if look.win_banner else 0
        left = (width - round(cell * units_x)) // 2
        resting = round(top + max(0.0, (bottom - top) - push - cell * units_y) / 2)
    else:
        margin = SMALL_MARGIN * scale
        cell = max(MIN_CELL, math.floor(look.board_px / units_x))
        while True:  # as wide as asked, unless the board would reach the bottom buttons
            band = math.ceil(HEADER_SHARE * cell) if look.header else 0
            push = _push(cell, scale) if look.win_banner else 0
            if cell <= MIN_CELL or margin + band + push + units_y * cell <= bottom - margin:
                break
            cell -= 1
        left = round(margin)
        resting = round(margin + band)
    upper = resting + (push if won and look.win_banner else 0)
    geometry = _board_map(rows, cols, puzzle, left + origin[0] * cell, upper + origin[1] * cell, cell)
    board_width = round(cell * units_x)
    # The HUD spans the board, or a readable width when the board is narrow.
    hud_width = min(width - 2 * margin, max(board_width, 420 * scale))
    hud = Box((width - hud_width) / 2, upper - HUD_BAND * scale, hud_width, HUD_BAND * scale)
    header = Box(left, upper - band, board_width, band) if look.header else None
    banner = None
    if look.win_banner and won:
        banner = Box(left, resting - band, board_width, push)
    button_y = height - (BOTTOM_BAND / 2) * scale
    buttons = tuple(
        RoundButton(name, width / 2 + (index - 1) * BUTTON_GAP * scale, button_y, BUTTON_RADIUS * scale)
        for index, name in enumerate(BOTTOM_BUTTONS)
    )
    placed = None
    if dialog is not None and dialog.button is not None and look.next_button == "text":
        placed = _text_dialog_layout(width, height, scale)
    elif dialog is not None and dialog.button is not None and look.next_button == "modal":
        placed = _modal_layout(width, height, scale, geometry)
    elif dialog is not None:
        placed = _dialog_layout(width, height, scale, geometry, dialog)
    at_top = look.board_px is not None
    arrows = _arrows(geometry.bounds, ARROW_BAND * scale, at_top) if look.skip_arrows else ()
    next_box = None
    if look.next_button == "always":
        next_box = _under_board(width, geometry.bounds[3], button_y - BUTTON_RADIUS * scale, scale)
    return Layout(
        width,
        height,
        scale,
        geometry,
        TITLE_BAND * scale / 2,
        hud,
        buttons,
        placed,
        banner=banner,
        header=header,
        title_shown=not at_top,
        hud_shown=not at_top and not look.header,
        arrows=arrows,
        next_box=next_box,
    )


def _arrows(bounds: tuple[float, float, float, float], band: float, at_top: bool) -> tuple[RoundButton, ...]:
    """The skip arrows halfway down the board: one each side of it, or both right of a board at the
    window's top-left (no room on its left)."""
    left, top, right, bottom = bounds
    middle = (top + bottom) / 2
    before = right + band / 2 if at_top else left - band / 2
    after = right + 3 * band / 2 if at_top else right + band / 2
    radius = band * 0.4
    return RoundButton("previous", before, middle, radius), RoundButton("next", after, middle, radius)


def _extent(rows: int, cols: int, puzzle: Puzzle | None) -> tuple[float, float, tuple[float, float]]:
    """The board's width and height in cells, and where its map's origin sits from its top-left."""
    if puzzle is not None and puzzle.hex_lower is not None:
        unit = HexGeometry(0.0, 0.0, 1 / SQRT3, rows, cols, puzzle.hex_lower, frozenset(puzzle.cells()))
        left, top, right, bottom = unit.bounds
        return right - left, bottom - top, (-left, -top)
    if puzzle is not None and puzzle.warps:
        return cols + 2 * GATE_DEPTH, rows + 2 * GATE_DEPTH, (GATE_DEPTH, GATE_DEPTH)
    shape = None if puzzle is None else board_shape(puzzle)
    if shape is not None:
        left, top, right, bottom = shape.bounds
        return right - left, bottom - top, (-left, -top)
    return cols, rows, (0.0, 0.0)


def _board_map(
    rows: int, cols: int, puzzle: Puzzle | None, left: float, top: float, cell: int
) -> Geometry | HexGeometry | WarpGates | ShapeMap:
    """The map between the board's cells and the window's pixels, its origin at (left, top)."""
    if puzzle is not None and puzzle.hex_lower is not None:
        radius = cell / SQRT3
        return HexGeometry(left, top, radius, rows, cols, puzzle.hex_lower, frozenset(puzzle.cells()))
    shape = None if puzzle is None else board_shape(puzzle)
    if shape is not None:  # a unit of the board's polygons is `cell` pixels
        return ShapeMap(shape, left, top, cell)
    left, top = round(left), round(top)  # whole pixels: crisp grid lines
    geometry = Geometry(
        tuple(float(left + col * cell) for col in range(cols + 1)),
        tuple(float(top + row * cell) for row in range(rows + 1)),
    )
    if puzzle is not None and puzzle.warps:
        return WarpGates.of(geometry, puzzle)
    return geometry


def _push(cell: int, scale: float) -> int:
    """How far the win banner pushes the board down: more than half a cell, and room for its words."""
    return max(math.ceil(BANNER_SHARE * cell), round(BANNER_BAND * scale))


def _text_dialog_layout(width: int, height: int, scale: float) -> DialogLayout:
    """A plain push button centred on the window, with a short line of text just above it."""
    button_width, button_height = TEXT_BUTTON[0] * scale, TEXT_BUTTON[1] * scale
    line = 36 * scale
    x, y = (width - button_width) / 2, (height - button_height) / 2
    button = Box(x, y, button_width, button_height)
    title = Box(x - button_width / 2, y - line - 8 * scale, 2 * button_width, line)
    box = Box(title.x, title.y, title.width, y + button_height - title.y)
    return DialogLayout(box, title, (), button, style="text")


def _under_board(width: int, board_bottom: float, buttons_top: float, scale: float) -> Box:
    """A plain push button centred between the board and the bottom buttons."""
    button_width, button_height = TEXT_BUTTON[0] * scale, TEXT_BUTTON[1] * scale
    y = (board_bottom + buttons_top - button_height) / 2
    return Box((width - button_width) / 2, max(board_bottom + 2, y), button_width, button_height)


def _modal_layout(width: int, height: int, scale: float, geometry: CellMap) -> DialogLayout:
    """A card centred on the board: a title in its upper half, and two buttons side by side at its
    bottom, the one that plays the level again on the left, the one that moves on on the right."""
    card_width = min(MODAL_WIDTH * scale, 0.85 * width)
    pad = 20 * scale
    button_height = MODAL_BUTTON_HEIGHT * scale
    card_height = 0.55 * card_width
    left, top, right, bottom = geometry.bounds
    x = min(max(0.0, (left + right - card_width) / 2), width - card_width)
    y = min(max(0.0, (top + bottom - card_height) / 2), max(0.0, height - card_height))
    box = Box(x, y, card_width, card_height)
    title = Box(x, y + pad, card_width, card_height - 3 * pad - button_height)
    button_width = (card_width - 3 * pad) / 2
    button_y = y + card_height - pad - button_height
    other = Box(x + pad, button_y, button_width, button_height)
    button = Box(x + 2 * pad + button_width, button_y, button_width, button_height)
    return DialogLayout(box, title, (), button, style="modal", other=other)


def _dialog_layout(width: int, height: int, scale: float, geometry: CellMap, dialog: Dialog) -> DialogLayout:
    """A dialog centred on the board: title band, text lines, and a 4:1 button below them."""
    box_width = min(DIALOG_WIDTH * width, DIALOG_MAX_WIDTH * scale)
    pad = 22 * scale
    title_height = 60 * scale
    line_height = 36 * scale
    button_width = 0.62 * box_width
    button_height = button_width / 4
    content = line_height * len(dialog.lines)
    if dialog.button is not None:
        content += pad + button_height
    # Never wider than 2:1, so that no bot takes the dialog itself for its wide "next level" button.
    box_height = max(title_height + pad + content + pad, MIN_DIALOG_HEIGHT * box_width)
    lines_top = title_height + (box_height - title_height - content) / 2
    left, top, right, bottom = geometry.bounds
    middle_x, middle_y = (left + right) / 2, (top + bottom) / 2
    x = min(max(0.0, middle_x - box_width / 2), width - box_width)
    y = min(max(0.0, middle_y - box_height / 2), max(0.0, height - box_height))
    box = Box(x, y, box_width, box_height)
    title = Box(x, y, box_width, title_height)
    first = y + lines_top + line_height / 2
    line_ys = tuple(first + index * line_height for index in range(len(dialog.lines)))
    button = None
    if dialog.button is not None:
        button_y = y + lines_top + line_height * len(dialog.lines) + pad
        button = Box(x + (box_width - button_width) / 2, button_y, button_width, button_height)
    return DialogLayout(box, title, line_ys, button)
