"""Time `flowbot solve` on issue 25's puzzle sets, whole processes, against another tree and Go's anchor.

Each set is solved in one `python -m flowbot solve --json` process per round (the 5x5 set is one
puzzle, so its figure is start-up plus one solve). Rounds interleave every program on a set, so a
busy machine slows each alike; the figures are medians of wall and CPU (user + system) seconds.

    .venv/bin/python scripts/bench_solvers.py                         # flowbot alone
    .venv/bin/python scripts/bench_solvers.py --baseline /tmp/main    # and an older checkout
    .venv/bin/python scripts/bench_solvers.py --go-anchor ~/src/numberlink   # and the Go solver
    .venv/bin/python scripts/bench_solvers.py --startup 20            # start-up: one 5x5, whole process

--startup N times N whole processes solving one 5x5 text puzzle as a user runs them (the `flowbot`
console script beside the interpreter and `python -m flowbot`, from a scratch folder, so the
installed flowbot is the one imported), next to the interpreter alone, and prints min and median
of wall and CPU time: on a shared machine the minimum, and CPU time, are the figures least touched
by other work. `--python PY` picks the install (repeat it to compare installs, rounds interleaved).

--go-anchor names a checkout of thomasahle/numberlink kept outside this repository (with
src/numberlink/*.go); it is built with the `go` found on PATH in GOPATH mode into a temporary
folder. Without `go` or the checkout, flowbot's figures are printed alone and the anchor is named
as missing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))

from flowbot.formats import load_puzzles  # noqa: E402
from flowbot.modes.bench import find_shared  # noqa: E402

# Issue 25's sets: corpus globs, in the shared corpus.
SETS: dict[str, tuple[str, ...]] = {
    "levels": ("mzucker__flow_solver/puzzles/*.txt",),  # 28 real levels and the unsolvable cross
    "janko": ("thomasahle__numberlink/puzzles/janko",),  # 270 boards, 8x8 to 36x20
    "50x50": ("thomasahle__numberlink/puzzles/inputs10",),  # 11 boards of 50x50
    "5x5": ("mzucker__flow_solver/puzzles/regular_5x5_01.txt",),  # one small level, whole process
}


@dataclass(frozen=True, slots=True)
class Run:
    """One timed process: wall and CPU seconds, and how many puzzles it solved."""

    wall: float
    cpu: float
    solved: int


# A user's install has bytecode (pip compiles it): flowbot's processes may write theirs, so only the
# first, untimed run of each tree compiles (PYTHONDONTWRITEBYTECODE would make every run compile).
ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], cwd: Path, stdin: str | None = None, timeout: float = 600) -> tuple[Run, str]:
    """Run a command, return its wall and CPU (user + system) seconds and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        command,
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=ENVIRONMENT,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, 0), done.stdout


def flowbot_run(tree: Path, files: list[str]) -> Run:
    """Solve the files with the flowbot checkout at `tree` in one process (`-m` finds that tree first)."""
    command = [sys.executable, "-m", "flowbot", "solve", "--json", "--timeout", "60", *files]
    run, out = timed(command, tree)
    solved = sum(json.loads(line)["status"] == "solved" for line in out.splitlines() if line.startswith("{"))
    return Run(run.wall, run.cpu, solved)


def startup_commands(python: Path, puzzle: str) -> dict[str, list[str]]:
    """The processes --startup times: the interpreter alone, then a 5x5 solve as a user runs it."""
    script = python.parent / ("flowbot.exe" if os.name == "nt" else "flowbot")
    return {
        "python -c pass": [str(python), "-c", "pass"],
        "flowbot solve": [str(script), "solve", puzzle],
        "python -m flowbot solve": [str(python), "-m", "flowbot", "solve", puzzle],
    }


def startup(pythons: list[Path], puzzle: str, runs: int) -> None:
    """Time each start-up command of each install `runs` times, rounds interleaved; print min and
    median wall and CPU ms."""
    commands = {
        (python, label): command
        for python in pythons
        for label, command in startup_commands(python, puzzle).items()
    }
    # A user's install has bytecode (pip compiles it; an editable install writes it on the first
    # run): one untimed run each may write it, then every timed run reads it like theirs.
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    times: dict[tuple[Path, str], list[tuple[float, float]]] = {key: [] for key in commands}
    with tempfile.TemporaryDirectory(prefix="flowbot-startup-") as scratch:
        for command in commands.values():
            startup_run(command, scratch, environment)
        for _ in range(runs):
            for key, command in commands.items():
                times[key].append(startup_run(command, scratch, environment))
    for (python, label), pairs in times.items():
        walls, cpus = [wall * 1000 for wall, _ in pairs], [cpu * 1000 for _, cpu in pairs]
        where = f" ({python})" if len(pythons) > 1 else ""
        print(
            f"startup {label:24} wall min {min(walls):5.1f} median {statistics.median(walls):5.1f} ms"
            f"  cpu min {min(cpus):5.1f} median {statistics.median(cpus):5.1f} ms{where}"
        )


def startup_run(command: list[str], cwd: str, environment: dict[str, str]) -> tuple[float, float]:
    """One process's wall and CPU (user + system) seconds; a failed run stops the benchmark."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=environment, stdout=subprocess.DEVNULL)
    # wait4 gives this child's own CPU time, not the sum over every child so far.
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {process.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def go_input(files: list[str]) -> str:
    """The puzzles in the Go solver's input format: 'width height', then the rows, for each."""
    blocks = []
    for name in files:
        for puzzle in load_puzzles(name):
            blocks.append(f"{puzzle.cols} {puzzle.rows}\n" + "\n".join(puzzle.to_rows()))
    return "\n".join(blocks) + "\n0 0\n"


def go_run(binary: Path, stdin: str) -> Run:
    """Solve with the Go anchor in one process."""
    run, out = timed([str(binary)], binary.parent, stdin=stdin)
    return Run(run.wall, run.cpu, out.count("Found a solution!"))


def build_go_anchor(source: Path, into: Path) -> Path | str:
    """The Go solver built from `source` into `into`, or why it could not be built."""
    go = shutil.which("go")
    if go is None:
        return "no `go` on PATH"
    if source.resolve().is_relative_to(REPOSITORY):
        return "the anchor's source must live outside this repository"
    if not (source / "src" / "numberlink").is_dir():
        return f"{source} has no src/numberlink"
    binary = into / "numberlink"
    environment = {**os.environ, "GOPATH": str(source.resolve()), "GO111MODULE": "off", "GOCACHE": str(into)}
    command = [go, "build", "-o", str(binary), "numberlink"]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"go build failed: {done.stderr.strip()[:200]}"
    return binary


def set_files(corpus: Path, name: str) -> list[str]:
    """The files of one set, sorted."""
    return [str(path) for pattern in SETS[name] for path in sorted(corpus.glob(pattern))]


def main() -> int:
    """Time every set with flowbot (and the baseline and the anchor when given), print medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, of {', '.join(SETS)}")
    parser.add_argument("--repeat", type=int, default=3, help="rounds per set (default 3)")
    parser.add_argument("--baseline", type=Path, metavar="TREE", help="another flowbot checkout to compare")
    parser.add_argument("--go-anchor", type=Path, metavar="DIR", help="a thomasahle/numberlink checkout")
    parser.add_argument("--startup", type=int, metavar="N", help="only time N start-ups of a 5x5 solve")
    parser.add_argument(
        "--python",
        type=Path,
        action="append",
        help="with --startup: the interpreter of an install to time (default this one; repeat to compare)",
    )
    args = parser.parse_args()
    corpus = find_shared("corpus")
    if corpus is None:
        print("no shared corpus found (set FLOWBOT_SHARED)", file=sys.stderr)
        return 2
    if args.startup is not None:
        load = os.getloadavg()[0]
        pythons = args.python or [Path(sys.executable)]
        print(f"load average {load:.1f} on {os.cpu_count()} cores; {args.startup} runs each")
        startup(pythons, set_files(corpus, "5x5")[0], args.startup)
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        return 0
    with tempfile.TemporaryDirectory(prefix="flowbot-anchor-") as scratch:
        anchor = None
        if args.go_anchor is not None:
            anchor = build_go_anchor(args.go_anchor, Path(scratch))
        if not isinstance(anchor, Path):
            print(f"Go anchor missing: {anchor or 'no --go-anchor given'}; flowbot's figures alone")
        for tree in (REPOSITORY, args.baseline):
            if tree is not None:  # untimed: writes the tree's bytecode, as a user's install has it
                flowbot_run(tree, set_files(corpus, "levels"))
        load = os.getloadavg()[0]
        print(f"load average {load:.1f} on {os.cpu_count()} cores; medians of {args.repeat} rounds")
        for name in args.sets.split(","):
            files = set_files(corpus, name)
            if not files:
                print(f"{name}: not in the corpus, skipped")
                continue
            programs = {"flowbot": lambda files=files: flowbot_run(REPOSITORY, files)}
            if args.baseline is not None:
                programs["baseline"] = lambda files=files: flowbot_run(args.baseline, files)
            if isinstance(anchor, Path):
                stdin = go_input(files)
                programs["go"] = lambda stdin=stdin: go_run(anchor, stdin)
            runs: dict[str, list[Run]] = {program: [] for program in programs}
            for _ in range(args.repeat):
                for program, run in programs.items():
                    runs[program].append(run())
            report(name, runs)
        print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


def report(name: str, runs: dict[str, list[Run]]) -> None:
    """One line per program: median wall and CPU seconds, solved count, and flowbot's ratio to it."""
    wall = {program: statistics.median(run.wall for run in rounds) for program, rounds in runs.items()}
    cpu = {program: statistics.median(run.cpu for run in rounds) for program, rounds in runs.items()}
    for program, rounds in runs.items():
        line = f"{name:7} {program:9} wall {wall[program]:7.3f} s  cpu {cpu[program]:7.3f} s"
        line += f"  solved {rounds[0].solved}"
        if program != "flowbot":
            line += f"  flowbot/{program}: wall {wall['flowbot'] / wall[program]:.2f}x"
            line += f" cpu {cpu['flowbot'] / max(cpu[program], 1e-6):.2f}x"
        print(line)


if __name__ == "__main__":
    sys.exit(main())
