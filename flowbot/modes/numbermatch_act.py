"""Number Match's moves on the screen: a click on each cell of a pair (scrolled into view first),
a click on "+" or on a control labelled "add"; each press after the board guard's look, and the
pointer fenced to the game (the grid, its "+", an add control found by its label)."""

from __future__ import annotations

from flowbot.act.pointer import click
from flowbot.capture.screen import Region
from flowbot.live.watch import tries
from flowbot.modes.numbermatch_guard import BoardChangedError
from flowbot.modes.numbermatch_view import (
    LOOK_PAUSE,
    LOOKS,
    SETTLE,
    WIDTH,
    NumberMatchClearError,
    View,
    board_y,
    locate,
)
from flowbot.numbermatch.board import Move, find_pairs
from flowbot.numbermatch.game import board_text
from flowbot.numbermatch.rules import Rules

CLICK_HOLD = 0.02


class Pressing:
    """Acting on the board (a role of NumberMatchClear: it keeps `clicks`, `add_point`, `add_anchor`,
    `fenced`, and reads `view`, `guard`, `pointer`, `region`, `clock`)."""

    def play(self, move: Move, cells: tuple[int, ...], rules: Rules) -> None:
        """Click a pair's two cells, or "+" (not when the game adds by itself: it is stuck now)."""
        assert self.view is not None
        if move.is_add:
            if rules.auto_add and not find_pairs(cells, rules):
                return
            plus = self.view.reading.plus
            if plus is not None:
                self.press(plus[0] + self.view.frame.left, plus[1] + self.view.frame.top)
                return
            point = self.add_control(cells)
            if point is None:
                raise NumberMatchClearError('no "+" and no control labelled "add" on the screen')
            self.press(*point)
            return
        for index in (move.a, move.b):
            row, col = divmod(index, WIDTH)
            self.bring_into_view(row, cells)
            try:
                self.press(*self.view.cell_point(row, col))
            except BoardChangedError:
                if index == move.a:
                    raise
                # The first click moved the board (a message above it went away): the same board
                # elsewhere is found again, and its second cell pressed where it is now.
                self.relocate(cells)
                self.bring_into_view(row, cells)
                self.press(*self.view.cell_point(row, col))

    def relocate(self, cells: tuple[int, ...]) -> None:
        """Find the board `cells` again on the screen after it moved; BoardChangedError if it is not there."""
        assert self.view is not None
        expected = board_text(cells, WIDTH)

        def look() -> View | None:
            """One steady look: the view when the board read shows in it."""
            view = self.look_steady()
            top = locate(expected, view.reading, self.view.top)
            if top is None:
                return None
            view.top = top
            return view

        found = tries(self.clock.sleep, LOOKS, look, LOOK_PAUSE)
        if found is None:
            raise BoardChangedError(
                "the board moved and does not show as read any more; stopped before pressing"
            )
        self.view = found

    def deselect(self, move: Move, cells: tuple[int, ...]) -> None:
        """After a pair the game refused: click its second cell again, which the game then holds
        selected (the next click would pair with it)."""
        assert self.view is not None
        row, col = divmod(move.b, WIDTH)
        self.bring_into_view(row, cells)
        self.press(*self.view.cell_point(row, col))

    def add_control(self, cells: tuple[int, ...]) -> tuple[float, float] | None:
        """Where the add control labelled "add" is now: where it was found while the board has not
        moved on screen since; else looked for again (a page scrolled by the wheel takes the control
        with it), first in this view, then with the board's top row in view (the top of the page)."""
        assert self.view is not None
        if self.add_point is not None and abs(board_y(self.view) - self.add_anchor) <= 2:
            return self.add_point
        self.add_point = None
        point = self.find_add_control(self.view)
        if point is None and self.view.top > 0:
            self.bring_into_view(0, cells)
            point = self.find_add_control(self.view)
        return point

    def find_add_control(self, view: View) -> tuple[float, float] | None:
        """The screen point of a control labelled "add" (read with OCR, once), or None."""
        from flowbot.numbermatch.controls import find_add_control

        found = find_add_control(view.frame.pixels, view.reading.grid)
        if found is not None:
            self.add_point = (found[0] + view.frame.left, found[1] + view.frame.top)
            self.add_anchor = board_y(view)
            self.fence_view(view)
        return self.add_point

    def press(self, x: float, y: float) -> None:
        """One click, after the guard's look."""
        self.guard.check(x, y)
        click(self.pointer, x, y, hold=CLICK_HOLD, sleep=self.clock.sleep)
        self.clicks += 1
        self.clock.sleep(SETTLE)

    def fence_view(self, view: View) -> None:
        """Keep the pointer on the game (the grid, the "+" under it, an add control found by its
        label), growing the fence as the board grows; and arm the board guard."""
        grid, frame = view.reading.grid, view.frame
        xs = [grid.xs[0] - grid.cell * 0.5, grid.xs[-1] + grid.cell * 0.5]
        ys = [grid.ys[0] - grid.cell, grid.ys[-1] + grid.cell]
        if view.reading.plus is not None:
            ys.append(view.reading.plus[1] + grid.cell)
        xs, ys = [x + frame.left for x in xs], [y + frame.top for y in ys]
        if self.add_point is not None:
            xs.append(self.add_point[0])
            ys.append(self.add_point[1])
        if self.region is None and hasattr(self.pointer, "bounds"):
            if self.fenced:
                before = self.pointer.bounds  # type: ignore[attr-defined]
                xs += [before.left, before.left + before.width]
                ys += [before.top, before.top + before.height]
            left, top = int(min(xs)), int(min(ys))
            self.pointer.bounds = Region(left, top, int(max(xs)) + 1 - left, int(max(ys)) + 1 - top)  # type: ignore[attr-defined]
            self.fenced = True
        self.guard.arm(frame, view.reading)
        if hasattr(self.pointer, "guard"):
            self.pointer.guard = self.guard  # type: ignore[attr-defined] - its cheap look runs mid-drag too
