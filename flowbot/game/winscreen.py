"""The win-screen fault's screens: on a win the whole window, board and all, gives way to a big title
and bare words to press ("Continue" moves on, "Levels" opens a list of the levels), with no box
around them, as some games draw their win; the list's numbers open a level. Places are pure."""

from __future__ import annotations

from dataclasses import dataclass

from flowbot.game.layout import REFERENCE, Box

TITLE = "Winner!"
CONTINUE = "Continue"
LEVELS = "Levels"
# Font heights in reference pixels (540x960 window): a title far larger than the words under it,
# which is what hides small words from a reader that takes the whole window in at once.
TITLE_FONT = 120
WORD_FONT = 46
LIST_FONT = 40
TITLE_Y = 0.3  # of the window's height: the title's middle
WORD_YS = (0.55, 0.66)  # Continue's and Levels' middles
LIST_HEADING_Y = 0.1  # of the window's height: the list's heading, "Levels" (not a control)
LIST_TOP = 0.2  # the first row of level numbers
LIST_COLUMNS = 5
LIST_STEP = 90  # reference pixels between neighbouring numbers
GLYPH_WIDTH = 0.5  # a letter's width, of the font's height: the words' boxes are sized by it

__all__ = ["CONTINUE", "LEVELS", "TITLE", "WinScreen", "level_list", "screen_scale", "win_screen"]


@dataclass(frozen=True, slots=True)
class WinScreen:
    """Where the win screen's parts sit: the title, and each bare word by the action it does."""

    title: Box
    words: tuple[tuple[str, str, Box], ...]  # (action, text, box): "continue" and "levels"

    def action_at(self, x: float, y: float) -> str | None:
        """The action of the word under a pixel ('continue' or 'levels'), or None."""
        return next((action for action, _, box in self.words if box.contains(x, y)), None)


def screen_scale(width: int, height: int) -> float:
    """The window's size against the 540x960 reference (the smaller ratio wins), as the layout's."""
    return min(width / REFERENCE[0], height / REFERENCE[1])


def _word_box(text: str, font: float, x: float, y: float) -> Box:
    """The box a word of `font` pixels takes centred at (x, y), a little wider than its letters: what
    a player's press on the word hits."""
    width = max(font, len(text) * GLYPH_WIDTH * font) + font / 2
    height = 1.2 * font
    return Box(x - width / 2, y - height / 2, width, height)


def win_screen(width: int, height: int) -> WinScreen:
    """The win screen in a width x height window: the title high up, the two words under it."""
    scale = screen_scale(width, height)
    middle = width / 2
    title = _word_box(TITLE, TITLE_FONT * scale, middle, TITLE_Y * height)
    words = tuple(
        (action, text, _word_box(text, WORD_FONT * scale, middle, share * height))
        for (action, text), share in zip((("continue", CONTINUE), ("levels", LEVELS)), WORD_YS, strict=True)
    )
    return WinScreen(title, words)


def level_list(width: int, height: int, count: int) -> tuple[Box, ...]:
    """The boxes of the level list's numbers 1..count, LIST_COLUMNS a row, under its heading."""
    scale = screen_scale(width, height)
    step = LIST_STEP * scale
    left = width / 2 - step * (LIST_COLUMNS - 1) / 2
    top = LIST_TOP * height
    return tuple(
        _word_box(str(index + 1), LIST_FONT * scale, left + step * (index % LIST_COLUMNS),
                  top + step * (index // LIST_COLUMNS))
        for index in range(count)
    )  # fmt: skip
