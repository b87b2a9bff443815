"""`python -m flowbot` runs the command line."""

import sys

from flowbot.cli import main

sys.exit(main())
