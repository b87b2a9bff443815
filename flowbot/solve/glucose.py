"""Glucose 4.1 through python-sat's C functions alone: the part of pysat's Solver that solving uses.

`import pysat.solvers` costs 20-60 ms (it loads pysat's formula and engine modules and pathlib,
tempfile, enum) and every clause added through it runs two Python calls around the C one. The C
module `pysolvers` that pysat ships holds the same solver: this adapter calls it directly. When that
module lacks a function this uses (another python-sat release), `solver_class` gives pysat's own
Solver instead, which offers the same methods.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable
from itertools import repeat

# The C functions of glucose 4.1 this adapter calls, by their names in `pysolvers`.
_FUNCTIONS = (
    "new", "add_cl", "solve_lim", "model", "cbudget", "pbudget", "interrupt", "clearint", "del", "setincr",
)  # fmt: skip


def solver_class():
    """The glucose4 solver class: this adapter when pysolvers has every function it calls, else pysat's."""
    try:
        import pysolvers
    except ImportError:
        pysolvers = None
    if pysolvers is not None and all(hasattr(pysolvers, f"glucose41_{name}") for name in _FUNCTIONS):
        return Glucose
    from pysat.solvers import Solver

    return Solver


class Glucose:
    """One incremental glucose 4.1 solver: clauses, budgets, interruptible calls and the model."""

    def __init__(self, name: str = "glucose4", incr: bool = False) -> None:
        import pysolvers

        if name != "glucose4":
            raise ValueError(f"this adapter runs glucose4 only, not {name}")
        self._c = pysolvers
        self._handle = pysolvers.glucose41_new()
        self._status: bool | None = None
        if incr:
            # Glucose's mode for many calls under assumptions (pysat's `incr=True`): clause quality
            # leaves the assumptions' levels out.
            pysolvers.glucose41_setincr(self._handle)

    def append_formula(self, clauses: Iterable[list[int]]) -> None:
        """Add every clause in one pass of C calls (an unsatisfiable formula shows at the next solve)."""
        deque(map(self._c.glucose41_add_cl, repeat(self._handle), clauses), maxlen=0)

    def add_clause(self, clause: list[int]) -> None:
        """Add one clause."""
        self._c.glucose41_add_cl(self._handle, clause)

    def conf_budget(self, budget: int) -> None:
        """Stop the next limited call after this many conflicts (-1: no limit)."""
        self._c.glucose41_cbudget(self._handle, budget)

    def prop_budget(self, budget: int) -> None:
        """Stop the next limited call after this many propagations (-1: no limit)."""
        self._c.glucose41_pbudget(self._handle, budget)

    def solve_limited(self, assumptions: Iterable[int] = (), expect_interrupt: bool = False) -> bool | None:
        """Search within the budgets, with the assumptions true: True, False, or None when a budget or
        an interrupt stopped it."""
        # pysat's C code handles Ctrl-C itself only for a call made on the main thread.
        on_main = threading.current_thread() is threading.main_thread()
        self._status = self._c.glucose41_solve_lim(
            self._handle, list(assumptions), int(on_main), int(expect_interrupt)
        )
        return self._status

    def solve(self) -> bool | None:
        """Search with no budget."""
        self.conf_budget(-1)
        self.prop_budget(-1)
        return self.solve_limited()

    def get_model(self) -> list[int] | None:
        """The model of the last satisfiable call, one signed literal per variable."""
        if self._status is not True:
            return None
        return self._c.glucose41_model(self._handle) or []

    def interrupt(self) -> None:
        """Make the running limited call with expect_interrupt return None soon."""
        self._c.glucose41_interrupt(self._handle)

    def clear_interrupt(self) -> None:
        """Let the next call run after an interrupt."""
        self._c.glucose41_clearint(self._handle)

    def delete(self) -> None:
        """Free the C solver; later calls are errors."""
        if self._handle is not None:
            self._c.glucose41_del(self._handle)
            self._handle = None
