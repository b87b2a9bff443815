"""Capture: read a Flow board from a screenshot or a live frame."""
