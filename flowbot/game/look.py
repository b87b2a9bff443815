"""How the game looks (colours, grid style, glyphs) and where it puts things (board, header, banner,
next button): plain values shared by the window, the renderer and the in-process test game."""

from __future__ import annotations

from dataclasses import dataclass, field

from flowbot.model import PALETTE, Puzzle
from flowbot.palette import PALETTES

RGB = tuple[int, int, int]

DOT_RADIUS = 0.35  # of a cell: the reader expects dots 0.7 of a cell across
# Cells under a pipe take its colour at 1/TINT brightness on the dark page: at most 51 of 255, darker
# than any dot the reader accepts (70), so a tinted cell is never read as an endpoint.
TINT = 5
# On the light page a tint is this share of the way from the board's white to the pipe's colour.
LIGHT_WASH = 0.25
DARK_LINES: RGB = (70, 110, 70)
LIGHT_LINES: RGB = (110, 110, 110)
NEXT_BUTTONS = ("flow", "text", "modal", "always")
THEMES = ("dark", "light")


@dataclass(frozen=True, slots=True)
class Theme:
    """How a game draws: its page, grid lines (or tiles, or one panel), palette, dots and glyphs.

    The variants imitate other Flow games, so the bot is tested on looks it was not written for.
    """

    line_rgb: RGB = DARK_LINES
    title_rgb: RGB = (60, 200, 60)
    tiles: bool = False  # no grid lines: each cell a tile, with gaps of the page between
    palette: str = "current"  # a palette of flowbot.palette.PALETTES
    dot_radius: float = DOT_RADIUS  # of a cell
    light: bool = False  # a near-white page, a white board, dark text
    grid: bool = True  # False: no lines and no tiles, one rounded panel with a faint marker per empty cell
    glyphs: bool = False  # a white shape inside each dot, one shape per colour

    def rgb(self, puzzle: Puzzle, color: int) -> RGB:
        """A colour of the puzzle in this theme's palette (by its name, else by its rank)."""
        name = puzzle.colors[color].name
        index = PALETTE.index(name) if name in PALETTE else color % len(PALETTE)
        rgb = PALETTES[self.palette][index]
        if self.light and min(rgb) > 230:
            return LIGHT_STAND_IN  # a white dot would vanish on the white board
        return rgb

    @property
    def page_rgb(self) -> RGB:
        """The window's background."""
        return (246, 246, 246) if self.light else (0, 0, 0)

    @property
    def board_rgb(self) -> RGB:
        """The board's own background inside its grid (the panel's colour without a grid)."""
        if not self.grid:
            return (222, 222, 226) if self.light else (38, 38, 42)
        return (255, 255, 255) if self.light else (0, 0, 0)

    @property
    def marker_rgb(self) -> RGB:
        """The faint dot that marks an empty cell on a panel without a grid."""
        return (192, 192, 198) if self.light else (64, 64, 70)

    @property
    def tile_rgb(self) -> RGB:
        """A cell drawn as a tile, in the tiles variant."""
        return (226, 226, 226) if self.light else (45, 45, 45)

    @property
    def text_rgb(self) -> RGB:
        """Words on the page: the HUD, header, banner."""
        return (40, 40, 40) if self.light else (255, 255, 255)

    @property
    def heading_rgb(self) -> RGB:
        """The level's name at the top."""
        return (30, 120, 30) if self.light else self.title_rgb

    @property
    def icon_rgb(self) -> tuple[RGB, RGB]:
        """The round buttons' colour when enabled and when not."""
        return ((70, 70, 70), (190, 190, 190)) if self.light else ((255, 255, 255), (90, 90, 90))

    def tint(self, rgb: RGB) -> RGB:
        """The colour of a cell under a pipe of colour `rgb`: dark on the dark page, a wash on the light."""
        if not self.light:
            return (rgb[0] // TINT, rgb[1] // TINT, rgb[2] // TINT)
        base = self.board_rgb
        return tuple(round(b + (c - b) * LIGHT_WASH) for b, c in zip(base, rgb, strict=True))  # type: ignore[return-value]


LIGHT_STAND_IN: RGB = (45, 45, 45)


@dataclass(frozen=True, slots=True)
class Look:
    """Where the game puts things: the board's size and place, and what appears around it on a win."""

    board_px: int | None = None  # the board this wide at the window's top-left; None: centred, large
    header: bool = False  # "level 12  6x6  flows 0/6" just above the board
    win_banner: bool = False  # "You won!" above the board on a win, pushing the board down
    # "flow": Flow's dialog over the board; "text": a plain grey push button mid-window after a win;
    # "modal": the whole window dimmed at once behind a card in words flowbot has none for, its move-on
    # button ending in an arrow; "always": Flow's dialog after a win, and a plain "Next Level" push
    # button under the board at all times that moves on, won or not (as web games' do)
    next_button: str = "flow"
    skip_arrows: bool = False  # "<" and ">" beside the board, skipping a level at any time
    # A line of the game's numbers under its title ("00:07     Moves: 12     Score: 0", see game/stats.py):
    # its clock's kind (stops, runs, down) and its score's (win, flows); None: not shown.
    clock: str | None = None
    score: str | None = None


@dataclass(frozen=True, slots=True)
class Variant:
    """Ways other Flow games differ, for testing the bot on games it was not written for."""

    theme: Theme = field(default_factory=Theme)
    dialog: bool = True  # False: the next level loads by itself once a level is complete
    shift: bool = False  # the board moves on screen from one level to the next
    sample_per_frame: bool = False  # read the pointer once per frame instead of every queued event
    look: Look = field(default_factory=Look)


def shift_offset(level: int, width: int, height: int, *, forward_only: bool = False) -> tuple[int, int]:
    """Where the frame sits in the window in the shifting variant: moved a little per level.

    `forward_only` moves only right and down, for a board at the window's top-left that would
    otherwise leave the window.
    """
    step = level % 5 - 2
    if forward_only:
        return (step + 2) * width // 30, (step + 2) * height // 40
    return step * width // 30, -step * height // 40
