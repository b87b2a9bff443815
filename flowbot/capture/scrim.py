"""A page seen through a scrim: a game's modal dialog dims (or washes out) its whole window at once with
a translucent layer and stands a panel in front of it at full contrast. Every pixel behind the layer
shows as `gain * pixel + offset` (one gain for the whole window: the layer's opacity; the offset is the
layer's colour times that opacity), so the window before and after differ by one affine map, save
where the panel stands. Pure functions of two frames of the same part of the screen."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# The frames are shrunk to about this many pixels on their longer side and blurred alike (sigma in
# shrunk pixels): a scrim is a whole-window matter, and a game that also blurs what it dims (a
# backdrop blur of a few pixels) is lost in the blur both frames get.
SHRINK_TO = 320
BLUR = 3.0
# A point tells a scrim when its colour before stood at least NEAR levels from the page's (the page
# alone fits any gain); it follows the scrim when within FIT levels of the map (shrunk and blurred).
NEAR, FIT = 16.0, 8.0
MIN_POINTS = 30
# The scrim's gain: below GAIN[0] nothing shows through (a new screen, not a scrim), above GAIN[1] the
# page did not dim (the drawn pipes, a counter that changed).
GAIN = (0.05, 0.85)
# Of the points that tell, this share follows the scrim, and clearly more than follow no change at all.
FOLLOW, MARGIN = 0.6, 0.2
# A pixel stands in front of the scrim when it is this far beyond every colour the scrim can show.
REACH = 12.0
# The panel in front: at least this share of the window (a dialog's button at the least), at most
# this share (a new screen), with the parts in front within PANEL_GAP of the window's longer side of
# one another taken as one panel (a title above its buttons).
PANEL_SHARE = (0.002, 0.8)
PANEL_GAP = 0.08
# A card may be of a colour the scrim can show too (a white card over a page washed out with white):
# only its words and buttons then stand out, and the card reaches past them by its padding, taken as
# this share of their larger side on every side.
PANEL_PAD = 0.25


@dataclass(frozen=True, slots=True)
class Scrim:
    """A translucent layer over the whole window, and the panel standing in front of it."""

    gain: float  # the share of what is behind that shows through (1: no layer)
    offset: tuple[float, float, float]  # BGR the layer adds to every pixel behind it
    panel: tuple[int, int, int, int]  # left, top, width, height of what stands in front, frame pixels

    def unmixed(self, pixels: np.ndarray) -> np.ndarray:
        """The frame as it would show without the layer (what stands in front comes out wrong: see
        `hides`).

        pixels : (H, W, 3) uint8 ndarray, BGR
        """
        behind = (pixels.astype(np.float32) - np.array(self.offset, np.float32)) / self.gain
        return np.clip(np.rint(behind), 0, 255).astype(np.uint8)

    def hides(self, box: tuple[float, float, float, float]) -> bool:
        """True when the panel covers part of a box (left, top, right, bottom, frame pixels)."""
        left, top, width, height = self.panel
        return box[0] < left + width and left < box[2] and box[1] < top + height and top < box[3]

    def in_front(self, pixels: np.ndarray, box: tuple[int, int, int, int], share: float = 0.03) -> bool:
        """True when at least `share` of a box (left, top, width, height) shows colours the layer
        cannot show: it stands in front of the scrim (a dialog's button), not behind it."""
        left, top, width, height = box
        part = pixels[top : top + height, left : left + width].astype(np.float32)
        return part.size > 0 and float(np.mean(_beyond(part, self))) >= share

    def shifted(self, dx: int, dy: int) -> Scrim:
        """The same scrim with its panel in another frame's pixels."""
        left, top, width, height = self.panel
        return Scrim(self.gain, self.offset, (left + dx, top + dy, width, height))


def find_scrim(
    before: np.ndarray, now: np.ndarray, ignore: tuple[float, float, float, float] | None = None
) -> Scrim | None:
    """The scrim `now` shows over what `before` showed, or None: one gain well below 1 maps most of the
    window before onto it now, and a panel stands in front. Points inside `ignore` (left, top, right,
    bottom: the board, where the strokes changed the picture) are left out of the fit while enough
    points tell around it.

    before, now : (H, W, 3) uint8 ndarrays, BGR, the same part of the screen
    """
    if before.shape != now.shape or before.size == 0:
        return None
    factor = max(1, round(max(before.shape[:2]) / SHRINK_TO))
    was, shows = _shrunk(before, factor, BLUR), _shrunk(now, factor, BLUR)
    # Around the board first (the strokes changed the board); the whole window when too little tells there.
    sample = _sample(was, shows, _outside(was.shape[:2], ignore, factor)) or _sample(was, shows, None)
    fit = None if sample is None else _fit(*sample)
    if fit is None:
        return None
    gain, offset = fit
    panel = _panel(_shrunk(before, factor, 0.0), _shrunk(now, factor, 0.0), gain, offset, factor)
    return None if panel is None else Scrim(gain, offset, panel)


def _shrunk(frame: np.ndarray, factor: int, blur: float) -> np.ndarray:
    """A frame shrunk by `factor` (area averages), blurred by `blur` (sigma; 0: not), as float32."""
    height, width = frame.shape[:2]
    size = (max(1, width // factor), max(1, height // factor))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    return cv2.GaussianBlur(small, (0, 0), blur) if blur > 0 else small


def _outside(
    shape: tuple[int, int], ignore: tuple[float, float, float, float] | None, factor: int
) -> np.ndarray | None:
    """A mask of the shrunk frame's points outside `ignore` (with the blur's reach around it), or None
    for no box to leave out."""
    if ignore is None:
        return None
    reach = 2 * BLUR
    left, top, right, bottom = (round(value / factor) for value in ignore)
    mask = np.ones(shape, bool)
    mask[
        max(0, top - round(reach)) : max(0, bottom + round(reach)),
        max(0, left - round(reach)) : max(0, right + round(reach)),
    ] = False
    return mask


Sample = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _sample(was: np.ndarray, shows: np.ndarray, points: np.ndarray | None) -> Sample | None:
    """The points that tell a scrim (their colour before stood apart from the page's): before, now,
    and how far from the page before, with the page's colour before and now; None when too few tell."""
    before = was.reshape(-1, 3) if points is None else was[points]
    after = shows.reshape(-1, 3) if points is None else shows[points]
    if len(before) < MIN_POINTS:
        return None
    page, page_now = _page(before, after)
    apart = before - page
    telling = np.abs(apart).max(axis=1) > NEAR
    if np.count_nonzero(telling) < MIN_POINTS:
        return None
    return before[telling], after[telling], apart[telling], page, page_now


def _fit(
    before: np.ndarray, after: np.ndarray, apart: np.ndarray, page: np.ndarray, page_now: np.ndarray
) -> tuple[float, tuple[float, float, float]] | None:
    """The gain and offset that map the points before onto them now, when they make a scrim (see
    find_scrim), else None. The page's colour anchors the map; the gain is the median over the
    points' channels that stood apart from it."""
    unchanged = np.abs(after - before).max(axis=1) <= FIT
    if unchanged.mean() > 1 - MARGIN:
        return None  # the page did not change (the strokes changed the board alone): the usual look
    spread = np.abs(apart) > NEAR
    gain = float(np.median((after - page_now)[spread] / apart[spread]))
    if not GAIN[0] <= gain <= GAIN[1]:
        return None
    follows = np.abs(after - (page_now + gain * apart)).max(axis=1) <= FIT
    if follows.mean() < FOLLOW or follows.mean() < unchanged.mean() + MARGIN:
        return None
    offset = page_now - gain * page
    return gain, (float(offset[0]), float(offset[1]), float(offset[2]))


def _page(before: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The commonest colour before (in steps of 8 levels), and what the same points show now."""
    steps = (before // 8).astype(np.int32)
    keys = steps[:, 0] * 1024 + steps[:, 1] * 32 + steps[:, 2]
    page = keys == np.argmax(np.bincount(keys, minlength=32768))
    return np.median(before[page], axis=0), np.median(after[page], axis=0)


def _beyond(pixels: np.ndarray, scrim: Scrim) -> np.ndarray:
    """Which pixels (float32, BGR) show a colour the layer cannot show: out of [offset, offset + 255
    gain] by more than REACH in some channel."""
    low = np.array(scrim.offset, np.float32) - REACH
    high = low + 255 * scrim.gain + 2 * REACH
    return ((pixels < low) | (pixels > high)).any(axis=-1)


def _panel(
    was: np.ndarray, shows: np.ndarray, gain: float, offset: tuple[float, float, float], factor: int
) -> tuple[int, int, int, int] | None:
    """The box (frame pixels) of what stands in front of the scrim: the largest part new since `was`
    and beyond the scrim's reach, with the parts near it, and the card's padding around them; None
    when it is too small for a dialog or takes the whole window. What did not change is no panel: the
    layer does not reach it (the edge of a window, another window)."""
    new = np.abs(shows - was).max(axis=2) > FIT
    front = (_beyond(shows, Scrim(gain, offset, (0, 0, 0, 0))) & new).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(front, connectivity=8)
    if count < 2:
        return None
    parts = sorted(stats[1:], key=lambda part: -part[cv2.CC_STAT_AREA])
    gap = PANEL_GAP * max(front.shape)
    left, top, width, height = (int(value) for value in parts[0][:4])
    box = [left, top, left + width, top + height]
    for part in parts[1:]:
        x, y, w, h = (int(value) for value in part[:4])
        if x <= box[2] + gap and box[0] - gap <= x + w and y <= box[3] + gap and box[1] - gap <= y + h:
            box = [min(box[0], x), min(box[1], y), max(box[2], x + w), max(box[3], y + h)]
    share = (box[2] - box[0]) * (box[3] - box[1]) / front.size
    if not PANEL_SHARE[0] <= share <= PANEL_SHARE[1]:
        return None
    pad = PANEL_PAD * max(box[2] - box[0], box[3] - box[1])
    height, width = front.shape
    left, top = max(0.0, box[0] - pad), max(0.0, box[1] - pad)
    right, bottom = min(float(width), box[2] + pad), min(float(height), box[3] + pad)
    left, top, right, bottom = (round(value * factor) for value in (left, top, right, bottom))
    return left, top, right - left, bottom - top
