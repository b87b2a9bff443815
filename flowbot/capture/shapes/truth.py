"""The truth of a Shapes board as text: cells with their middles in image pixels, their letters and
their neighbours; written from a reading, read back, compared with a reading, drawn for an eye check.

    shapes: 27 cells
    # cell  x  y  letter  neighbours
    0 295.0 102.0 A 1 2
    1 ...

A cell's number is its line's place (from 0); x, y its middle in the image's pixels; the letter '.'
for an empty cell, else its endpoint's colour (letters by first appearance in cell order); then the
numbers of the cells it shares a border with (each pair listed from both ends).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from flowbot.capture.shapes.graph import EMPTY, ShapeReading
from flowbot.errors import FormatError

HEADER = "shapes:"
# A read cell matches a truth cell when its middle lies within this share of a cell of the truth's.
MATCH = 0.3


@dataclass(frozen=True)
class ShapesTruth:
    """A board's truth: centres (x, y) per cell, a letter per cell, and the pairs that are neighbours."""

    centres: tuple[tuple[float, float], ...]
    letters: str
    neighbours: frozenset[tuple[int, int]]


def truth_path(folder: Path, image: Path) -> Path:
    """Where the truth of a screenshot lies in a folder of truths."""
    return folder / (image.stem + ".shapes.txt")


def truth_of(reading: ShapeReading) -> ShapesTruth:
    """The truth a reading states (to be checked by eye before it is kept)."""
    centres = tuple((round(x, 1), round(y, 1)) for x, y in reading.centres)
    return ShapesTruth(centres, reading.letters, reading.neighbours)


def write_truth(truth: ShapesTruth) -> str:
    """The truth as text (see the module's docstring)."""
    around: dict[int, list[int]] = {index: [] for index in range(len(truth.centres))}
    for a, b in sorted(truth.neighbours):
        around[a].append(b)
        around[b].append(a)
    lines = [f"{HEADER} {len(truth.centres)} cells", "# cell  x  y  letter  neighbours"]
    for index, (x, y) in enumerate(truth.centres):
        others = " ".join(str(other) for other in sorted(around[index]))
        lines.append(f"{index} {x:.1f} {y:.1f} {truth.letters[index]} {others}".rstrip())
    return "\n".join(lines) + "\n"


def read_truth(text: str) -> ShapesTruth:
    """Parse a truth's text; FormatError naming the line that is wrong."""
    lines = [line.strip() for line in text.splitlines()]
    if not lines or not lines[0].startswith(HEADER):
        raise FormatError(f"a Shapes truth starts with '{HEADER} N cells'")
    centres: list[tuple[float, float]] = []
    letters: list[str] = []
    listed: dict[int, set[int]] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        try:
            index, x, y = int(fields[0]), float(fields[1]), float(fields[2])
            letter, others = fields[3], {int(field) for field in fields[4:]}
        except (IndexError, ValueError):
            expected = "expected 'cell x y letter neighbours...'"
            raise FormatError(f"line {number}: {expected}, got {line!r}") from None
        if index != len(centres) or len(letter) != 1:
            raise FormatError(f"line {number}: cell {len(centres)} with a one-character letter expected")
        centres.append((x, y))
        letters.append(letter)
        listed[index] = others
    pairs = set()
    for index, others in listed.items():
        for other in others:
            if index not in listed.get(other, set()):
                raise FormatError(f"cell {index} lists {other} as a neighbour, but not the other way")
            pairs.add((min(index, other), max(index, other)))
    _check_letters("".join(letters))
    return ShapesTruth(tuple(centres), "".join(letters), frozenset(pairs))


def _check_letters(letters: str) -> None:
    """Every letter twice, letters by first appearance; FormatError otherwise."""
    seen = [letter for letter in letters if letter != EMPTY]
    for letter in set(seen):
        if seen.count(letter) != 2:
            raise FormatError(f"letter {letter!r} marks {seen.count(letter)} cells, not 2")


def differences(truth: ShapesTruth, reading: ShapeReading) -> list[str]:
    """Everything in which a reading differs from a truth, in words; empty when it reads exactly.

    Cells are matched by their middles (numbering may differ); colours by the cells they pair.
    """
    read = np.array(reading.centres)
    known = np.array(truth.centres)
    if len(read) != len(known):
        return [f"{len(read)} cells read, the truth has {len(known)}"]
    size = _typical_gap(known)
    distance = np.linalg.norm(known[:, None, :] - read[None, :, :], axis=2)
    match = distance.argmin(axis=1)
    problems = [
        f"truth cell {index} at {truth.centres[index]} has no read cell near it"
        for index in range(len(known))
        if distance[index, match[index]] > MATCH * size
    ]
    if problems or len(set(match.tolist())) != len(match):
        return problems or ["two truth cells match one read cell"]
    back = {int(read_index): index for index, read_index in enumerate(match)}
    seen_pairs = frozenset(tuple(sorted((back[a], back[b]))) for a, b in reading.neighbours)
    for a, b in sorted(truth.neighbours - seen_pairs):
        problems.append(f"cells {a} and {b} are neighbours, but not read so")
    for a, b in sorted(seen_pairs - truth.neighbours):
        problems.append(f"cells {a} and {b} are read as neighbours, but are not")
    if _colour_pairs(truth.letters, range(len(known))) != _colour_pairs(reading.letters, match.argsort()):
        problems.append(f"endpoints differ: truth {truth.letters}, read (in truth order) "
                        f"{''.join(reading.letters[int(i)] for i in match)}")  # fmt: skip
    return problems


def _colour_pairs(letters: str, order) -> frozenset[frozenset[int]]:
    """The cells (in truth numbering: `order` gives the truth number of each cell) each colour pairs."""
    cells: dict[str, set[int]] = {}
    for index, letter in enumerate(letters):
        if letter != EMPTY:
            cells.setdefault(letter, set()).add(int(order[index]))
    return frozenset(frozenset(pair) for pair in cells.values())


def _typical_gap(centres: np.ndarray) -> float:
    """The median distance from a cell's middle to the nearest other middle."""
    distance = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    np.fill_diagonal(distance, np.inf)
    return float(np.median(distance.min(axis=1)))


def draw_truth(frame: np.ndarray, truth: ShapesTruth) -> np.ndarray:
    """A dimmed copy of the frame with the truth drawn: links from middle to middle, numbers, letters."""
    picture = (frame * 0.4).astype(np.uint8)
    size = _typical_gap(np.array(truth.centres))
    width = max(1, round(size / 50))
    for a, b in sorted(truth.neighbours):
        (x0, y0), (x1, y1) = truth.centres[a], truth.centres[b]
        cv2.line(picture, (round(x0), round(y0)), (round(x1), round(y1)), (0, 255, 0), width, cv2.LINE_AA)
    scale = max(0.3, size / 160)
    for index, (x, y) in enumerate(truth.centres):
        cv2.circle(picture, (round(x), round(y)), max(2, round(size / 25)), (255, 255, 255), -1, cv2.LINE_AA)
        text = str(index) + ("" if truth.letters[index] == EMPTY else " " + truth.letters[index])
        point = (round(x - size / 5), round(y - size / 10))
        cv2.putText(picture, text, point, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(picture, text, point, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 1, cv2.LINE_AA)
    return picture
