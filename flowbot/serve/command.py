"""`flowbot serve`'s command line: the options and the run, ready for the CLI registry."""

from __future__ import annotations

import argparse

from flowbot.argtypes import Range, ranged
from flowbot.serve.server import DEFAULT_HOST, DEFAULT_PORT

# 0 asks the system for a free port (the address printed says which).
PORT_RANGE = Range(True, 0, 65535)
WORKERS_RANGE = Range(True, 1, 32)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `flowbot serve`."""
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default {DEFAULT_HOST}, this computer only; 0.0.0.0 for a phone)",
    )
    parser.add_argument(
        "--port",
        type=ranged(PORT_RANGE),
        default=DEFAULT_PORT,
        help=f"port (default {DEFAULT_PORT}; 0 for any free one)",
    )
    parser.add_argument(
        "--workers",
        type=ranged(WORKERS_RANGE),
        metavar="N",
        help="screenshots analysed at once (default: the CPU count, at most 4)",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C or SIGTERM."""
    from flowbot.serve.server import serve

    return serve(args.host, args.port, workers=args.workers)
