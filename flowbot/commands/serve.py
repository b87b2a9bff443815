"""`flowbot serve`: a web page where a phone player drops a screenshot and gets hints or the solution."""

from __future__ import annotations

import argparse

from flowbot.argtypes import Range, ranged

NAME = "serve"
HELP = "a web page for phones: drop a screenshot, get a hint or the solution"
DESCRIPTION = (
    "Serves a page (and POST /api/solve) that reads a screenshot (or a photo of a phone) of Flow Free, "
    "its sister games Bridges, Hexes and Warps, or Number Match, draws the board it read over it, and "
    "reveals the solution a step at a time (one flow, or Number Match's next pair). Listens on this "
    "computer only unless --host says "
    "otherwise; --host 0.0.0.0 prints the address (and a QR code) for a phone on the same network. "
    "Behind a reverse proxy, --trusted-proxy names it, so that each client behind it is told apart. "
    "Ctrl-C or SIGTERM stops it."
)
# Kept here rather than imported from the server so that `flowbot --help` loads no web framework.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000

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
        help="worker processes, screenshots analysed at once (default: the CPU count, at most 4)",
    )
    parser.add_argument(
        "--trusted-proxy",
        type=_trusted_networks,
        default=(),
        metavar="ADDR[,ADDR]",
        help=(
            "reverse proxies (addresses or networks such as 10.0.0.0/8) whose X-Forwarded-For or "
            "Forwarded header names the client; from any other peer those headers are ignored"
        ),
    )


def _trusted_networks(text: str) -> tuple:
    """The networks of --trusted-proxy, or argparse's error naming the entry that is not one."""
    from flowbot.serve.clients import parse_trusted

    try:
        return parse_trusted(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C or SIGTERM."""
    from flowbot.serve.server import serve

    return serve(args.host, args.port, workers=args.workers, trusted=args.trusted_proxy)
