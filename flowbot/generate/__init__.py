"""Generating puzzles: flows grown from straight lines, kept when their solution is unique."""
