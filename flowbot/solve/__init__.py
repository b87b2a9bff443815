"""Solving: the SAT encoding and the independent solution checker."""
