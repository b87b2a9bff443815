"""Levels won, as each game judges it, by `flowbot auto-clear` with no flags on the real third-party
Flow games of ../shared/games, with every press recorded.

    .venv/bin/python scripts/bench_games.py                         # every game, 1 run, its level count
    .venv/bin/python scripts/bench_games.py --games qtflowfree,saleh-flow --runs 2 --count 3 --json

Each run starts an Xvfb of 1600x1000 of its own, the game's `start`, waits for `ready`, runs
`flowbot auto-clear --count N --json` (a subprocess, with a time limit) and counts the levels the
game says were won (its judge, per its SOURCE.md; never flowbot's report). dom111-flow has no next
level: one run per board (3x3, 6x5, 8x8, 15x15). Per run: won by the game, flowbot's claimed count and
exit code, claimed but not won (a lower bound: flowbot's report does not name the levels), levels the
game moved on from unwon (skipped), presses outside the game's windows, presses of a skip, restart or
auto-solve control (or of a move-on control on a level the game had not judged won), wall time.
Screens at the end of each run and flowbot's failure pictures are kept in /tmp/harness-findings/.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the harness lives in tests/

from tests.real_games import DOM111_BOARDS, GAMES, game_names, run_game

COLUMNS = (
    "game", "board", "run", "won", "claimed", "exit", "claimed not won", "left unwon", "off game",
    "skip presses", "wall s",
)  # fmt: skip


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(game_names()), help="a,b: folders (default: all)")
    parser.add_argument("--runs", type=int, default=1, help="runs of each game (default 1)")
    parser.add_argument(
        "--count", type=int, default=None, help="levels asked of flowbot (default: all its levels)"
    )
    parser.add_argument("--json", action="store_true", help="print every run as JSON instead of the table")
    parser.add_argument(
        "--flowbot-args",
        default="",
        metavar="ARGS",
        help="flags added to auto-clear's, to try settings by hand (the figures are with none)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run every game, print the table (or JSON); exit 1 when a run had a false win or a bad press."""
    args = parse_args(argv)
    names = [name.strip() for name in args.games.split(",") if name.strip()]
    unknown = [name for name in names if name not in GAMES]
    if unknown:
        known = ", ".join(GAMES)
        print(f"bench_games: unknown game(s) {', '.join(unknown)}; known: {known}", file=sys.stderr)
        return 2
    results = []
    for name in names:
        boards = DOM111_BOARDS if name == "dom111-flow" else (None,)
        for board in boards:
            for run in range(1, args.runs + 1):
                # dom111-flow has one level per board; the others are asked --count or all their levels.
                count = args.count if args.count and board is None else GAMES[name].levels
                extra = tuple(shlex.split(args.flowbot_args))
                result = run_game(name, count, board, tag=f"run{run}", extra=extra)
                record = dict(result.as_dict(), run=run)
                results.append(record)
                print(row(record), file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps({"schema_version": 1, "runs": results}, indent=1))
    else:
        print(table(results))
    faults = ("claimed_not_won", "left_unwon", "presses_outside", "presses_on_skip")
    bad = any(record[fault] for record in results for fault in faults)
    return 1 if bad else 0


def row(record: dict) -> str:
    """One run as a line of the table."""
    if record["skipped"]:
        where = f"| {record['game']} | {record['board'] or ''} | {record['run']} |"
        return f"{where} skipped: {record['skipped']} |"
    cells = (
        record["game"], record["board"] or "", record["run"], record["won_by_game"], record["claimed"],
        record["exit_code"], record["claimed_not_won"], len(record["left_unwon"]),
        len(record["presses_outside"]), len(record["presses_on_skip"]), record["wall_s"],
    )  # fmt: skip
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def table(results: list[dict]) -> str:
    """The markdown table of every run."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    return "\n".join(lines + [row(record) for record in results])


if __name__ == "__main__":
    sys.exit(main())
