"""Read words on a frame with tesseract: its library in this process (tesseract_api), else its program
through pytesseract (imported only here); no OCR engine means no words."""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import shutil
from collections import OrderedDict
from dataclasses import dataclass

import cv2
import numpy as np

log = logging.getLogger(__name__)

# Tesseract reads best with capitals about 30 px tall; UI labels are often 10-20 px.
TEXT_HEIGHT = 48
# Words tesseract is less sure of than this are mostly noise from icons and edges.
MIN_CONFIDENCE = 40
# The margin put around a whole frame before reading it (words at its very edge read better).
FRAME_PAD = 16
# Reading band by band: grey levels from the ground that count as ink, the rows of plain ground that
# part two bands, the heights a band of words can have (a small label in lower case has 5 rows of
# ink), the rows of ground kept around each, and at most how many bands are read (each costs a
# reading: 5-50 ms with tesseract's library, 0.1 s with its program).
INK_CONTRAST = 48
BAND_GAP = 4
BAND_HEIGHTS = (5, 240)
BAND_MARGIN = 6
BAND_LIMIT = 12
# The heights, in pixels, a band's ink is scaled to for reading, tried in turn until one reads words:
# tesseract misses words much smaller than the first, and a font it reads badly at one size often
# reads at another. A band is never shrunk, nor enlarged more than MAX_BAND_SCALE times.
BAND_TEXT_HEIGHTS = (36, 64)
MAX_BAND_SCALE = 6.0
# The words of the pictures read last, by digest (see read_words): the live loop looks at a game's
# window after every try of a level, and a window that did not change reads as it did.
READ_KEPT = 16
# Threads each tesseract run may use (OpenMP's OMP_THREAD_LIMIT, unless the environment sets it):
# with more, its OpenMP threads spin while they wait, costing three to four times the CPU on a
# window-sized picture for the same words, and its wall time too on a machine that is busy anyway.
TESSERACT_THREADS = "1"


@dataclass(frozen=True, slots=True)
class Word:
    """A word read on a frame and its box, in the frame's pixels."""

    text: str
    left: int
    top: int
    width: int
    height: int
    confidence: float

    @property
    def center(self) -> tuple[float, float]:
        """The pixel (x, y) in the middle of the word."""
        return self.left + self.width / 2, self.top + self.height / 2


_READ: OrderedDict[bytes, list[Word]] = OrderedDict()


@functools.cache
def available() -> bool:
    """True when tesseract can be used: its library, or its program with pytesseract (the bootstrap
    installs both)."""
    if _engine() is not None:
        return True
    if shutil.which("tesseract") is None:
        log.warning("tesseract is not installed: labels of buttons cannot be read")
    else:
        log.warning("pytesseract is not installed: labels of buttons cannot be read")
    return False


class _Program:
    """The tesseract program run once per picture through pytesseract (where its library is not found)."""

    def __init__(self, pytesseract) -> None:
        self._pytesseract = pytesseract

    def data(self, grey: np.ndarray, page_mode: int) -> dict[str, list] | None:
        """Every box tesseract finds on a grey picture (see TesseractApi.data); None when it failed."""
        pytesseract = self._pytesseract
        try:
            return pytesseract.image_to_data(
                grey, config=f"--psm {page_mode}", output_type=pytesseract.Output.DICT
            )
        except (pytesseract.TesseractError, OSError) as error:
            log.info("tesseract failed: %s", error)
            return None


_ENGINES: dict[int, object] = {}


def _engine():
    """This process's tesseract (its library, loaded once per process, else its program), or None;
    either runs limited to TESSERACT_THREADS threads (the library reads this process's environment
    when it loads, the program inherits it; a limit set there already is kept)."""
    os.environ.setdefault("OMP_THREAD_LIMIT", TESSERACT_THREADS)
    pid = os.getpid()  # a forked child loads its own: a model is not shared across a fork
    if pid not in _ENGINES:
        _ENGINES[pid] = _loaded_engine()
    return _ENGINES[pid]


def _loaded_engine():
    """The library if it loads, else the program if it and pytesseract are installed, else None."""
    from flowbot.capture.tesseract_api import TesseractApi

    api = TesseractApi.load(TESSERACT_THREADS)
    if api is not None:
        return api
    if shutil.which("tesseract") is None:
        return None
    try:
        import pytesseract
    except ImportError:
        return None
    return _Program(pytesseract)


def read_line(patch: np.ndarray) -> str:
    """The text of a one-line label (a button's inside), or '' when nothing is read.

    patch : (H, W, 3) uint8 ndarray, BGR
    """
    return read_lines([patch])[0]


def read_lines(patches: list[np.ndarray]) -> list[str]:
    """The text of several one-line labels, read in one tesseract call: the labels are stacked one
    above the other with a gap, and words go back by row.

    patches : (H, W, 3) uint8 ndarrays, BGR
    """
    texts = [""] * len(patches)
    usable = [index for index, patch in enumerate(patches) if patch.size and min(patch.shape[:2]) >= 4]
    if not usable or not available():
        return texts

    prepared = [_binarised(_prepared(patches[index], TEXT_HEIGHT, pad=TEXT_HEIGHT // 2)) for index in usable]
    width = max(image.shape[1] for image in prepared)
    rows, spans, top = [], [], 0
    for image in prepared:
        row = cv2.copyMakeBorder(image, 0, 0, 0, width - image.shape[1], cv2.BORDER_CONSTANT, value=255)
        # A white band between labels, so tesseract sees separate lines.
        rows.extend([row, np.full((TEXT_HEIGHT // 2, width), 255, np.uint8)])
        spans.append((top, top + image.shape[0]))
        top += image.shape[0] + TEXT_HEIGHT // 2
    sheet = np.vstack(rows)
    data = _engine().data(sheet, 6)  # --psm 6: one block of lines
    if data is None:
        return texts
    words: list[list[tuple[int, str]]] = [[] for _ in usable]
    for index, text in enumerate(data["text"]):
        if not text.strip():
            continue
        middle = data["top"][index] + data["height"][index] / 2
        for slot, (low, high) in enumerate(spans):
            if low <= middle < high:
                words[slot].append((data["left"][index], text.strip()))
    for slot, index in enumerate(usable):
        texts[index] = " ".join(text for _, text in sorted(words[slot]))
    return texts


def read_words(frame: np.ndarray, scale: float | None = None) -> list[Word]:
    """Every word tesseract finds on a frame (sparse text: labels, links, messages), in frame pixels.
    A picture read lately is not read again (up to a tenth of a second of OCR): the live loop looks
    at a game's still window after each try of a level.

    frame : (H, W, 3) uint8 ndarray, BGR
    scale : how much the frame is enlarged for reading (default: 2 below 600 rows, else 1)
    """
    if not available() or frame.size == 0:
        return []
    key = _picture_key(frame, scale)
    if key in _READ:
        _READ.move_to_end(key)
        return list(_READ[key])
    words = _tesseract_words(frame) if scale is None else _tesseract_words(frame, scale)
    _READ[key] = words
    while len(_READ) > READ_KEPT:
        _READ.popitem(last=False)
    return list(words)


def _picture_key(frame: np.ndarray, scale: float | None = None) -> bytes:
    """A digest of a picture's size and pixels (and the scale it is read at): equal for two captures
    of one still picture."""
    digest = hashlib.blake2b(np.ascontiguousarray(frame).data, digest_size=16)
    digest.update(repr((frame.shape, scale)).encode())
    return digest.digest()


def _tesseract_words(frame: np.ndarray, scale: float | None = None) -> list[Word]:
    """Every word tesseract finds on a frame, in frame pixels (see read_words)."""
    image, scale = page_image(frame, scale)
    data = _engine().data(image, 11)  # --psm 11: sparse text, in no particular order
    if data is None:
        return []
    words = []
    for index, text in enumerate(data["text"]):
        confidence = float(data["conf"][index])
        if not text.strip() or confidence < MIN_CONFIDENCE:
            continue
        words.append(
            Word(
                text.strip(),
                round((data["left"][index] - FRAME_PAD) / scale),
                round((data["top"][index] - FRAME_PAD) / scale),
                round(data["width"][index] / scale),
                round(data["height"][index] / scale),
                confidence,
            )
        )
    return words


def page_image(frame: np.ndarray, scale: float | None = None) -> tuple[np.ndarray, float]:
    """The grey picture tesseract is given for a frame in read_words, and the scale it is enlarged by
    (default: 2 below 600 rows, else 1).

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    height = frame.shape[0]
    # Small frames are enlarged so their text reaches the size tesseract reads best; big ones are not.
    if scale is None:
        scale = 2.0 if height < 600 else 1.0
    return _prepared(frame, round(height * scale), pad=FRAME_PAD, invert_dark=False), scale


def read_words_in_bands(frame: np.ndarray, limit: int = BAND_LIMIT) -> list[Word]:
    """Every word found reading each band of text rows on its own (rows holding ink, between rows of
    plain ground), top to bottom, at most `limit` bands, each at several sizes (band_scales) until one
    reads words. Slower than read_words, which it backs up: on a whole frame a big title can swallow
    the small words under it into one box of its own, and small words on a big frame are too small.

    frame : (H, W, 3) uint8 ndarray, BGR
    """
    words = []
    for top, bottom in text_bands(frame)[:limit]:
        low, high = max(0, top - BAND_MARGIN), min(frame.shape[0], bottom + BAND_MARGIN)
        for scale in band_scales(bottom - top):
            band = frame[low:high]
            found = read_words(band) if scale is None else read_words(band, scale)
            if found:
                break
        for word in found:
            words.append(Word(word.text, word.left, word.top + low, word.width, word.height, word.confidence))
    return words


def band_scales(height: int) -> list[float | None]:
    """The scales a band of `height` rows of ink is read at, in turn: read_words' own first (None),
    then each of BAND_TEXT_HEIGHTS over its height, at least 1 and at most MAX_BAND_SCALE, each once."""
    scales: list[float | None] = [None]
    for target in BAND_TEXT_HEIGHTS:
        scale = round(min(MAX_BAND_SCALE, max(1.0, target / max(1, height))), 2)
        if scale not in scales and scale != 2.0:  # 2: read_words' own scale for a band
            scales.append(scale)
    return scales


def text_bands(frame: np.ndarray) -> list[tuple[int, int]]:
    """Runs of rows holding ink (pixels far from the ground, the frame border's median grey), as
    (top, bottom) with bottom exclusive; runs closer than BAND_GAP merge, and runs of a height no
    text has are dropped."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.int16)
    border = np.concatenate([grey[0], grey[-1], grey[:, 0], grey[:, -1]])
    ink = np.abs(grey - int(np.median(border))) > INK_CONTRAST
    rows = np.flatnonzero(np.count_nonzero(ink, axis=1) >= 2)
    bands: list[tuple[int, int]] = []
    for row in rows:
        if bands and row - bands[-1][1] < BAND_GAP:
            bands[-1] = (bands[-1][0], int(row) + 1)
        else:
            bands.append((int(row), int(row) + 1))
    return [(top, bottom) for top, bottom in bands if BAND_HEIGHTS[0] <= bottom - top <= BAND_HEIGHTS[1]]


def dark_on_light(patch: np.ndarray) -> np.ndarray:
    """A patch as black text on white (Otsu's threshold, the border's majority the ground), in BGR:
    a line of small light text on a dark ground that tesseract misses as it is often reads so.

    patch : (H, W, 3) uint8 ndarray, BGR
    """
    grey = _binarised(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY))
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def _prepared(patch: np.ndarray, height: int, pad: int | None = None, invert_dark: bool = True) -> np.ndarray:
    """Grey, scaled to `height` rows, with a margin of the ground around; a label's light text on a
    dark ground is inverted (a whole frame mixes both, which tesseract's own binarisation handles)."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    border = np.concatenate([grey[0], grey[-1], grey[:, 0], grey[:, -1]])
    if invert_dark and float(np.median(border)) < 128:
        grey = 255 - grey
    scale = height / grey.shape[0]
    if abs(scale - 1) > 0.05:
        interpolation = cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=interpolation)
    ground = int(np.median(np.concatenate([grey[0], grey[-1]])))
    pad = max(8, height // 4) if pad is None else pad
    return cv2.copyMakeBorder(grey, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=ground)


def _binarised(grey: np.ndarray) -> np.ndarray:
    """Black text on white (Otsu's threshold), so labels of different grounds stack into one sheet."""
    _, binary = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # The ground is the border's majority; make it white.
    border = np.concatenate([binary[0], binary[-1], binary[:, 0], binary[:, -1]])
    return binary if float(np.mean(border)) >= 128 else 255 - binary
