"""Tesseract's library in this process (flowbot/capture/tesseract_api.py): the same words, boxes and
confidences as its program, nothing printed on the bot's stderr, and the program when it is missing."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest

from flowbot.capture import ocr
from flowbot.capture.tesseract_api import TesseractApi, parse_tsv

API = TesseractApi.load()
needs_api = pytest.mark.skipif(API is None, reason="libtesseract (Debian's tesseract-ocr) is not installed")


def _sheet() -> np.ndarray:
    """A grey picture with two lines of words, cut out of a wider one (rows not contiguous)."""
    wide = np.full((260, 900), 255, np.uint8)
    cv2.putText(wide, "Level complete", (40, 90), cv2.FONT_HERSHEY_SIMPLEX, 1.6, 0, 3)
    cv2.putText(wide, "Next level", (60, 200), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 40, 2)
    return wide[:, :700]


def test_the_tsv_columns_are_numbers_a_confidence_and_the_text():
    tsv = "5\t1\t1\t1\t1\t1\t12\t9\t62\t21\t96.865891\tNext\n4\t1\t1\t1\t1\t0\t12\t9\t62\t21\t-1\n"
    data = parse_tsv(tsv)
    assert data["text"] == ["Next", ""]  # a box with no text may end without its tab
    assert data["left"] == [12, 12] and data["conf"] == [pytest.approx(96.865891), -1.0]
    assert parse_tsv("") == {name: [] for name in data}


@needs_api
def test_the_library_reads_what_the_program_reads(capfd):
    pytesseract = pytest.importorskip("pytesseract")
    if shutil.which("tesseract") is None:
        pytest.skip("the tesseract program is not installed")
    sheet = _sheet()
    assert not sheet.flags["C_CONTIGUOUS"]
    for page_mode in (6, 11):
        library = API.data(sheet, page_mode)
        program = pytesseract.image_to_data(
            np.ascontiguousarray(sheet), config=f"--psm {page_mode}", output_type=pytesseract.Output.DICT
        )
        kept = [index for index, text in enumerate(program["text"]) if text.strip()]
        assert [library["text"][index] for index in kept] == [program["text"][index] for index in kept]
        for column in ("left", "top", "width", "height"):
            assert library[column] == [int(value) for value in program[column]], column
        # pytesseract cuts the program's confidences to whole numbers; the library keeps tesseract's.
        assert [int(value) for value in library["conf"]] == [int(value) for value in program["conf"]]
        assert {"Level", "complete", "Next", "level"} <= set(library["text"])
    # The library's notes ("Estimating resolution as ...") are not the bot's to print.
    assert capfd.readouterr().err == ""


@needs_api
def test_a_picture_read_twice_reads_the_same_and_a_blank_one_reads_no_word():
    sheet = _sheet()
    assert API.data(sheet, 11) == API.data(sheet.copy(), 11)
    blank = API.data(np.full((50, 80), 255, np.uint8), 11)
    assert not any(text.strip() for text in blank["text"])


def test_without_the_library_the_program_reads(monkeypatch):
    monkeypatch.setattr(TesseractApi, "load", classmethod(lambda cls, threads="1": None))
    engine = ocr._loaded_engine()
    if shutil.which("tesseract") is None:
        assert engine is None
        return
    pytest.importorskip("pytesseract")
    assert isinstance(engine, ocr._Program)
    data = engine.data(np.ascontiguousarray(_sheet()), 11)
    assert {"Level", "complete"} <= {text.strip() for text in data["text"]}


def test_each_process_loads_its_own_engine(monkeypatch):
    # A model loaded before a fork is not used by the child: its pid asks for one of its own.
    loads = []
    monkeypatch.setattr(ocr, "_loaded_engine", lambda: loads.append(1) or object())
    monkeypatch.setattr(ocr, "_ENGINES", {})
    first = ocr._engine()
    assert ocr._engine() is first and len(loads) == 1
    monkeypatch.setattr(ocr.os, "getpid", lambda: -5)
    assert ocr._engine() is not first and len(loads) == 2


def test_loading_the_library_limits_its_threads_unless_the_environment_says_otherwise(monkeypatch):
    # OpenMP reads the limit once, when the library loads: set after, its threads spin (twice the CPU).
    import flowbot.capture.tesseract_api as tesseract_api

    monkeypatch.setattr(tesseract_api, "_library", lambda: None)
    monkeypatch.delenv("OMP_THREAD_LIMIT", raising=False)
    assert TesseractApi.load() is None
    assert tesseract_api.os.environ["OMP_THREAD_LIMIT"] == "1"
    monkeypatch.setenv("OMP_THREAD_LIMIT", "3")
    TesseractApi.load()
    assert tesseract_api.os.environ["OMP_THREAD_LIMIT"] == "3"
