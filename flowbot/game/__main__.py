"""`python -m flowbot.game`: open the game window (see flowbot.game.app for the options)."""

import sys

from flowbot.game.app import main

sys.exit(main())
