"""The modal look's win dialog (`--next-button modal`), as some web games show theirs: the whole window
dimmed at once by a translucent layer (towards black on the dark page, washed towards the page's own
colour on the light one), a light card over the board in front of it, with a title and two buttons in a
language flowbot has no words for: one plays the level again, the other, filled with a colour and
ending in an arrow, moves on. Drawing only; where things go is the layout's (layout._modal_layout)."""

from __future__ import annotations

import pygame

from flowbot.game.layout import Box, Layout
from flowbot.game.look import RGB, Theme

# Words of a language flowbot knows none of (Finnish: "Done!", "Again", "Next"): what it must do
# without any words it knows.
TITLE = "Valmis!"
AGAIN = "Uudelleen"
ONWARD = "Seuraava"
# How much of the page shows through the layer: dimmed to 45% on the dark page, washed out to 20%
# on the light one (a web page's translucent scrim).
DARK_GAIN, LIGHT_GAIN = 0.45, 0.2
CARD: RGB = (250, 250, 250)
INK: RGB = (25, 25, 35)
PRIMARY: RGB = (70, 110, 240)
OUTLINE: RGB = (170, 170, 180)
TITLE_FONT = 48
LABEL_FONT = 30
CORNER = 16  # reference pixels: the card's and the buttons' rounded corners
ARROW = (14, 6, 1)  # reference pixels: the arrow's length, its head's height, its shaft's thickness


def draw_modal(surface: pygame.Surface, layout: Layout, theme: Theme, font) -> None:
    """Dim the whole window, then draw the card with its title and buttons; `font(size)` gives a
    pygame font of a pixel size."""
    placed = layout.dialog
    assert placed is not None and placed.button is not None and placed.other is not None
    gain = LIGHT_GAIN if theme.light else DARK_GAIN
    layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    layer.fill((*(theme.page_rgb if theme.light else (0, 0, 0)), round(255 * (1 - gain))))
    surface.blit(layer, (0, 0))
    corner = layout.px(CORNER)
    pygame.draw.rect(surface, CARD, _rect(placed.box), border_radius=corner)
    title = font(layout.px(TITLE_FONT)).render(TITLE, True, INK)
    surface.blit(title, title.get_rect(center=_centre(placed.title)))
    other = _rect(placed.other)
    pygame.draw.rect(surface, CARD, other, border_radius=corner)
    pygame.draw.rect(surface, OUTLINE, other, max(1, layout.px(2)), border_radius=corner)
    again = font(layout.px(LABEL_FONT)).render(AGAIN, True, INK)
    surface.blit(again, again.get_rect(center=other.center))
    _onward(surface, layout, placed.button, font)


def _onward(surface: pygame.Surface, layout: Layout, box: Box, font) -> None:
    """The button that moves on: filled with a colour, its word and then an arrow pointing right."""
    button = _rect(box)
    pygame.draw.rect(surface, PRIMARY, button, border_radius=layout.px(CORNER))
    label = font(layout.px(LABEL_FONT)).render(ONWARD, True, (255, 255, 255))
    length, head, thickness = (layout.px(part) for part in ARROW)
    gap = layout.px(10)
    left = button.centerx - (label.get_width() + gap + length) // 2
    surface.blit(label, label.get_rect(midleft=(left, button.centery)))
    start = left + label.get_width() + gap
    tip = (start + length, button.centery)
    shaft = pygame.Rect(start, button.centery - thickness // 2, length - head // 2, thickness)
    pygame.draw.rect(surface, (255, 255, 255), shaft)
    back = tip[0] - round(head * 0.8)
    pygame.draw.polygon(
        surface, (255, 255, 255), [(back, tip[1] - head // 2), tip, (back, tip[1] + head // 2)]
    )


def _rect(box: Box) -> pygame.Rect:
    """A layout box as a pygame rectangle."""
    return pygame.Rect(round(box.x), round(box.y), round(box.width), round(box.height))


def _centre(box: Box) -> tuple[int, int]:
    """A box's middle in whole pixels."""
    x, y = box.center
    return round(x), round(y)
