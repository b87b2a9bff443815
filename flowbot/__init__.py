"""flowbot: reads Flow Free from the screen, solves it, and plays it back with the mouse."""

__version__ = "0.1.0"
