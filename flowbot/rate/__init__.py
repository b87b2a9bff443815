"""Rating: a human-style solver and the difficulty it gives a puzzle."""
