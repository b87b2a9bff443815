"""Tesseract's own library (libtesseract, the C API) inside this process, through ctypes.

A `tesseract` run spends about 80 ms of CPU loading its language model before it reads anything, and
the live loop reads a game's window after most tries: here the model is loaded once per process and
each picture costs only its reading (5 ms for a label, 20-50 ms for a window). The words, boxes and
confidences are tesseract's own, the same as its program prints (the same library does the work).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import threading

import numpy as np

log = logging.getLogger(__name__)

# The columns of tesseract's TSV, in order (its program's `tsv` output without the header line).
COLUMNS = (
    "level", "page_num", "block_num", "par_num", "line_num", "word_num",
    "left", "top", "width", "height", "conf", "text",
)  # fmt: skip
NUMBERS = frozenset(COLUMNS[:10])
# Sonames tried when the linker cache does not name the library (Debian 12 ships 5; the C API used
# here is the same in 4).
SONAMES = ("libtesseract.so.5", "libtesseract.so.4", "libtesseract.dylib")


class TesseractApi:
    """One loaded model (English) of one process; `data` reads a grey picture, one call at a time."""

    def __init__(self, library: ctypes.CDLL, handle: int) -> None:
        self._library = library
        self._handle = handle
        self._lock = threading.Lock()

    @classmethod
    def load(cls, threads: str = "1") -> TesseractApi | None:
        """The library with English loaded, or None (no library, no model: the caller runs the program).
        Its OpenMP threads are limited to `threads` unless OMP_THREAD_LIMIT says otherwise: OpenMP reads
        the limit once, when the library loads, and threads over it spin while they wait (twice the CPU
        and more wall time on a busy machine, for the same words)."""
        os.environ.setdefault("OMP_THREAD_LIMIT", threads)
        library = _library()
        if library is None:
            return None
        handle = library.TessBaseAPICreate()
        if not handle:
            return None
        # Tesseract's notes ("Estimating resolution as ...") go to stderr unless sent elsewhere: the
        # program's stderr was its own, here it is the bot's.
        library.TessBaseAPISetVariable(handle, b"debug_file", os.devnull.encode())
        if library.TessBaseAPIInit3(handle, None, b"eng") != 0:
            log.info("libtesseract could not load its English model: the tesseract program is used")
            library.TessBaseAPIDelete(handle)
            return None
        return cls(library, handle)

    def data(self, grey: np.ndarray, page_mode: int) -> dict[str, list] | None:
        """Every box tesseract finds on a grey picture in page segmentation mode `page_mode` (its
        --psm), as columns of its TSV (pytesseract's Output.DICT shape); None when it failed.

        grey : (H, W) uint8 ndarray
        """
        picture = np.ascontiguousarray(grey, dtype=np.uint8)
        height, width = picture.shape
        library, handle = self._library, self._handle
        with self._lock:
            library.TessBaseAPISetPageSegMode(handle, page_mode)
            library.TessBaseAPISetImage(handle, picture.ctypes.data, width, height, 1, picture.strides[0])
            try:
                if library.TessBaseAPIRecognize(handle, None) != 0:
                    return None
                text = library.TessBaseAPIGetTsvText(handle, 0)
                if not text:
                    return None
                try:
                    tsv = ctypes.string_at(text).decode("utf-8", errors="replace")
                finally:
                    library.TessDeleteText(text)
            finally:
                library.TessBaseAPIClear(handle)
        return parse_tsv(tsv)


def parse_tsv(tsv: str) -> dict[str, list]:
    """Tesseract's TSV lines (no header) as one list per column: numbers as int, `conf` as float."""
    columns: dict[str, list] = {name: [] for name in COLUMNS}
    for line in tsv.splitlines():
        fields = line.split("\t")
        if len(fields) < len(COLUMNS) - 1:
            continue
        fields = [*fields, ""][: len(COLUMNS)]  # a box with no text may end without its tab
        for name, value in zip(COLUMNS, fields, strict=True):
            if name in NUMBERS:
                columns[name].append(int(value))
            elif name == "conf":
                columns[name].append(float(value))
            else:
                columns[name].append(value)
    return columns


def _library() -> ctypes.CDLL | None:
    """libtesseract with the argument and result types of the calls used, or None when not found."""
    names = [ctypes.util.find_library("tesseract"), *SONAMES]
    for name in dict.fromkeys(name for name in names if name):
        try:
            library = ctypes.CDLL(name)
        except OSError:
            continue
        try:
            _declare(library)
        except AttributeError:  # a library without the C API calls used here
            continue
        return library
    return None


def _declare(library: ctypes.CDLL) -> None:
    """Set the C types of the calls used (a pointer must not be cut to an int)."""
    handle, text = ctypes.c_void_p, ctypes.c_void_p
    library.TessBaseAPICreate.restype = handle
    library.TessBaseAPICreate.argtypes = []
    library.TessBaseAPIDelete.argtypes = [handle]
    library.TessBaseAPISetVariable.argtypes = [handle, ctypes.c_char_p, ctypes.c_char_p]
    library.TessBaseAPIInit3.argtypes = [handle, ctypes.c_char_p, ctypes.c_char_p]
    library.TessBaseAPISetPageSegMode.argtypes = [handle, ctypes.c_int]
    library.TessBaseAPISetImage.argtypes = [handle, ctypes.c_void_p] + [ctypes.c_int] * 4
    library.TessBaseAPIRecognize.argtypes = [handle, ctypes.c_void_p]
    library.TessBaseAPIGetTsvText.restype = text
    library.TessBaseAPIGetTsvText.argtypes = [handle, ctypes.c_int]
    library.TessDeleteText.argtypes = [text]
    library.TessBaseAPIClear.argtypes = [handle]
