"""Number Match's rules learnt from the game: what a refused or unexpected move says about the rules
this game plays by (its adds, its diagonals and row-end wraps, whether it ends a stuck board), each
lesson said in the log and the report; a rule set on the command line is never changed."""

from __future__ import annotations

import logging
from dataclasses import replace

from flowbot.modes.numbermatch_view import WIDTH
from flowbot.numbermatch import evidence
from flowbot.numbermatch.board import Move, apply_move, find_pairs
from flowbot.numbermatch.rules import WRAP_NONE

log = logging.getLogger(__name__)


class RuleLearner:
    """Learning the rules (a role of NumberMatchClear: it keeps `rules` and `lessons`, reads `fixed`)."""

    def learn(
        self, before: tuple[int, ...], move: Move, expected: tuple[int, ...], seen: tuple[int, ...]
    ) -> bool:
        """Adopt the rule that explains why the board shows `seen` and not `expected` after `move`
        from `before`; True when a rule changed (said in the log and the report)."""
        before, seen = evidence.trimmed(before), evidence.trimmed(seen)
        if move.is_add:
            if seen == before:
                if find_pairs(before, self.rules) and not self.rules.add_when_stuck:
                    return self.adopt("add_when_stuck", True, '"+" did nothing while a pair was left')
                return False
            appended = evidence.appended(before, seen)
            if appended is None:
                return False
            kind = evidence.add_kind(before, appended)
            return self.adopt("add", kind, f'"+" added {evidence.digits(appended)}')
        if seen == before:
            kind = evidence.line_kind(move, WIDTH)
            if kind == "diagonal" and self.rules.diagonals:
                return self.adopt(
                    "diagonals", False, f"a diagonal pair {evidence.cells_text(move)} was refused"
                )
            if kind == "wrap" and self.rules.wrap != WRAP_NONE:
                wrap = evidence.wrap_refused(before, move, self.rules)
                return self.adopt(
                    "wrap", wrap, f"a pair across a row's end {evidence.cells_text(move)} was refused"
                )
            return False
        kept = replace(self.rules, clear_rows=False)
        if self.rules.clear_rows and seen == evidence.trimmed(apply_move(before, move, kept)):
            return self.adopt("clear_rows", False, "an emptied row stayed in place")
        return self.learn_unprompted(expected, seen)

    def learn_unprompted(self, before: tuple[int, ...], seen: tuple[int, ...]) -> bool:
        """A board with no pair left that grew with no "+" pressed: the game adds by itself when
        stuck (and its add's kind shows); True when a rule changed."""
        if self.rules.auto_add or find_pairs(before, self.rules):
            return False
        appended = evidence.appended(before, seen)
        if appended is None:
            return False
        learnt = self.adopt(
            "auto_add", True, f"the game added {evidence.digits(appended)} by itself when stuck"
        )
        kind = evidence.add_kind(before, appended)
        if kind != self.rules.add:
            self.adopt("add", kind, f"its add was {kind}")
        return learnt

    def ended_stuck(self, cells: tuple[int, ...], adds_left: int, sign: str) -> bool:
        """After the game gave `sign` of the board's end (its end screen, a "+" it did not take): True
        when the board as known had no pair left and adds unused, which teaches that the game ends a
        board the moment no pair is left (said in the log and the report)."""
        if not cells or find_pairs(cells, self.rules):
            return False
        if self.rules.adds_limited and adds_left <= 0:
            return False  # out of adds: any game ends there
        unused = f"{adds_left} add{'s' if adds_left != 1 else ''}" if self.rules.adds_limited else "adds"
        self.adopt("ends_without_pairs", True, f"{sign} when no pair was left, {unused} unused")
        return True

    def adopt(self, name: str, value: object, because: str) -> bool:
        """Set one rule (unless the command line fixed it); True when it changed."""
        if name in self.fixed or getattr(self.rules, name) == value:
            return False
        self.rules = replace(self.rules, **{name: value})
        lesson = f"{because}: {name.replace('_', '-')}={evidence.value_text(value)}"
        self.lessons.append(lesson)
        log.warning("rule found from the game: %s", lesson)
        return True
