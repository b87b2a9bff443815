"""Boards of any cell shape (Flow Free: Shapes: cubes, rings, mixed cells) read as a graph of cells."""

from flowbot.capture.shapes.graph import ShapeCell, ShapeReading
from flowbot.capture.shapes.read import read_shapes

__all__ = ["ShapeCell", "ShapeReading", "read_shapes"]
