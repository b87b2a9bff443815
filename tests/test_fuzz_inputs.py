"""Hostile and careless input at every file-reading command, in-process: no traceback, a clean exit
status (2 for unreadable input, 64 for a command line flowbot cannot act on), nothing written.

A valid puzzle can come out of random text now and then; it may be solved (0) or not (1), and then
`convert`/`read` may write it: what is checked there is that nothing is written when the run failed.
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flowbot.cli import main
from flowbot.model import Puzzle
from tests.images import draw_board, jpeg_bytes, png_bytes

FUZZ = settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Each command with the file in place of {} and an output folder in place of {out}.
COMMANDS = {
    "solve": ["solve", "--json", "--timeout", "2", "{}"],
    "read": ["read", "{}", "--out", "{out}"],
    "convert": ["convert", "{}", "--out", "{out}"],
    "rate": ["rate", "--json", "{}"],
    "bench": ["bench", "--repeat", "1", "--timeout", "2", "{}"],
    "numbermatch": ["numbermatch", "--json", "--timeout", "1", "{}"],
}


def _small_screenshot() -> np.ndarray:
    """A readable screenshot to cut and damage."""
    return draw_board(Puzzle.from_rows(["A.B", "...", "A.B"]), cell=40, margin=(20, 40), hud=False)


SHOT = _small_screenshot()
PNG = png_bytes(SHOT)
JPEG = jpeg_bytes(SHOT)


def _png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims any size over a few bytes of data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-10, 100)
    | st.floats(allow_nan=True)
    | st.text(".#AB12 ", max_size=6),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(["rows", "grid", "cols", "schema_version", "colors", "source", "x"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=20,
)

contents = st.one_of(
    st.binary(max_size=300),
    st.integers(1, len(PNG) - 1).map(lambda cut: PNG[:cut]),
    st.integers(1, len(JPEG) - 1).map(lambda cut: JPEG[:cut]),
    st.tuples(st.integers(0, len(PNG) - 1), st.integers(0, 255)).map(
        lambda hit: PNG[: hit[0]] + bytes([hit[1]]) + PNG[hit[0] + 1 :]
    ),
    st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1)).map(lambda size: _png_header(*size)),
    st.sampled_from([_png_header(20000, 20000), _png_header(0, 0), b"\xff\xd8\xff" + b"\x00" * 50]),
    json_values.map(lambda value: json.dumps(value).encode()),
    st.text("AB.#12 \t\n:x9", max_size=80).map(str.encode),
    st.text(max_size=40).map(lambda text: text.encode("utf-8", "surrogatepass")),
)


def _run(args: list[str], capsys) -> tuple[int, str, str]:
    """Run flowbot in-process; a traceback would surface here as an exception and fail the test."""
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("command", list(COMMANDS))
def test_hostile_files_get_a_clean_refusal(command, tmp_path_factory, capsys, monkeypatch):
    from flowbot.modes import bench

    # The bench's one-call timing runs flowbot again in a subprocess: not what is tested here.
    monkeypatch.setattr(bench, "_one_call_wall", lambda files, repeat: 0.0)

    @FUZZ
    @given(data=contents)
    def check(data: bytes) -> None:
        folder = tmp_path_factory.mktemp(command)
        path = folder / "input.dat"
        path.write_bytes(data)
        out = folder / "out"
        args = [
            str(path) if part == "{}" else str(out) if part == "{out}" else part for part in COMMANDS[command]
        ]
        code, _, err = _run(args, capsys)
        assert "Traceback" not in err
        assert code in (0, 1, 2, 64), (code, err)
        if code in (2, 64):
            assert err.strip(), "a refusal says why"
            for line in err.splitlines():
                assert line.startswith(("flowbot: ", "wrote ")), line
        written = sorted(p.name for p in folder.rglob("*") if p.is_file())
        if code != 0 or command not in ("read", "convert"):
            assert written == ["input.dat"], written
        assert not any(name.endswith(".flowbot-tmp") for name in written)

    check()


def test_odd_files_at_play_are_refused_before_the_terminal(tmp_path, capsys):
    for name, data in {
        "bomb.png": _png_header(20000, 20000),
        "cut.png": PNG[:100],
        "junk.json": b'{"grid": [1, 2]}',
        "binary.txt": bytes(range(32)),
    }.items():
        path = Path(tmp_path / name)
        path.write_bytes(data)
        code, _, err = _run(["play", str(path)], capsys)
        assert code == 2 and err.startswith(f"flowbot: {path}") and err.count("\n") == 1, err
