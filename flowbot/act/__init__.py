"""Acting: plan strokes from a solution and replay them with a pointer."""
