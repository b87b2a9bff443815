"""`python -m flowbot.serve [--host H] [--port P]`: the web page for phones, as `flowbot serve` runs it."""

from __future__ import annotations

import sys

from flowbot.cli import Parser
from flowbot.errors import FlowbotError
from flowbot.serve.command import add_arguments, run


def main(argv: list[str] | None = None) -> int:
    """Parse the options and serve; a FlowbotError becomes one line and its exit code."""
    parser = Parser(prog="flowbot serve", description="A web page that solves Flow screenshots.")
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except FlowbotError as error:
        print(f"flowbot: {error}", file=sys.stderr)
        return error.exit_code


if __name__ == "__main__":
    sys.exit(main())
