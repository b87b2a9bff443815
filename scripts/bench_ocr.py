"""Time reading words with tesseract's library in this process against its program run per picture,
on real screenshots: milliseconds per reading (median, max) and CPU, and whether both read the same.

    .venv/bin/python scripts/bench_ocr.py [--folder DIR] [--limit 20] [--json]

Each screenshot is read whole (sparse text, as the live loop reads a game's window) and as its bands
of text rows (as the win-sign reader does), once with each engine; the words, boxes and confidences
must agree (the program's confidences are whole numbers through pytesseract).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from pathlib import Path

import cv2

from flowbot.capture import ocr
from flowbot.capture.tesseract_api import TesseractApi
from flowbot.progress import Progress

DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "shared" / "screenshots"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=DEFAULT_FOLDER, help="screenshots (png, jpg)")
    parser.add_argument("--limit", type=int, default=20, help="screenshots read (default 20)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    return parser.parse_args(argv)


def _pictures(folder: Path, limit: int) -> list[tuple[str, object]]:
    """(name, grey picture) for each whole screenshot and each of its text bands, as ocr reads them."""
    pictures = []
    paths = sorted(folder.glob("*.png")) + sorted(folder.glob("*.jpg"))
    read = 0
    for path in paths:
        if read >= limit:
            break
        frame = cv2.imread(str(path))
        if frame is None:
            continue
        read += 1
        pictures.append((path.name, ocr.page_image(frame)[0]))
        for top, bottom in ocr.text_bands(frame)[: ocr.BAND_LIMIT]:
            band = frame[max(0, top - ocr.BAND_MARGIN) : bottom + ocr.BAND_MARGIN]
            pictures.append((path.name, ocr.page_image(band)[0]))  # as read_words_in_bands' first look
    return pictures


def _timed(engine, pictures) -> tuple[list[float], float, list[dict]]:
    """Wall milliseconds of each reading, the CPU seconds of them all (children's too), the readings."""
    import resource

    def cpu() -> float:
        """CPU seconds of this process and its finished children."""
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    times, readings = [], []
    started = cpu()
    progress = Progress(len(pictures), type(engine).__name__.strip("_"))
    for _, picture in pictures:
        begun = time.perf_counter()
        readings.append(engine.data(picture, 11))
        times.append((time.perf_counter() - begun) * 1000)
        progress.advance()
    progress.close()
    return times, cpu() - started, readings


def _words(data: dict | None) -> list[tuple]:
    """The words of a reading with their boxes and whole confidences."""
    if data is None:
        return []
    columns = zip(
        data["text"], data["left"], data["top"], data["width"], data["height"], data["conf"], strict=True
    )
    return [(text, int(left), int(top), int(width), int(height), int(float(conf)))
            for text, left, top, width, height, conf in columns if str(text).strip()]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Read every picture with both engines and print the figures."""
    args = parse_args(argv)
    if not args.folder.is_dir():
        print(f"bench_ocr: no folder {args.folder}", file=sys.stderr)
        return 2
    api = TesseractApi.load(ocr.TESSERACT_THREADS)  # one thread, as the bot runs it
    try:
        import pytesseract
    except ImportError:
        pytesseract = None
    if api is None or pytesseract is None or shutil.which("tesseract") is None:
        print("bench_ocr: needs both tesseract's library and its program with pytesseract", file=sys.stderr)
        return 2
    program = ocr._Program(pytesseract)
    pictures = _pictures(args.folder, args.limit)
    library_ms, library_cpu, library_read = _timed(api, pictures)
    program_ms, program_cpu, program_read = _timed(program, pictures)
    differ = [name for (name, _), a, b in zip(pictures, library_read, program_read, strict=True)
              if _words(a) != _words(b)]  # fmt: skip
    summary = {
        "screenshots": len({name for name, _ in pictures}),
        "readings": len(pictures),
        "library_ms_median": round(statistics.median(library_ms), 1),
        "library_ms_max": round(max(library_ms), 1),
        "program_ms_median": round(statistics.median(program_ms), 1),
        "program_ms_max": round(max(program_ms), 1),
        "library_cpu_s": round(library_cpu, 2),
        "program_cpu_s": round(program_cpu, 2),
        "readings_that_differ": len(differ),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{summary['readings']} readings of {summary['screenshots']} screenshots: library "
            f"{summary['library_ms_median']} ms median ({summary['library_ms_max']} max, "
            f"{summary['library_cpu_s']} CPU-s), program {summary['program_ms_median']} ms median "
            f"({summary['program_ms_max']} max, {summary['program_cpu_s']} CPU-s); "
            f"{len(differ)} readings differ{': ' + ', '.join(sorted(set(differ))) if differ else ''}"
        )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
