"""Boards of Flow's sister games read from screenshots (Bridges, Hexes, Warps, walls), as plain data."""

from flowbot.capture.variants.read import read_variant
from flowbot.capture.variants.reading import VariantReading

__all__ = ["VariantReading", "read_variant"]
