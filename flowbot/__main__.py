"""`python -m flowbot` runs the command line."""

import sys

from flowbot.cli import entry

sys.exit(entry())
