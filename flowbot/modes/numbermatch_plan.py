"""Number Match's plan of moves: the solver's winning line for the board read under the rules found
so far, cautious first about the kinds of pair the game has not yet been seen to take."""

from __future__ import annotations

import logging
from dataclasses import replace

from flowbot.numbermatch import evidence
from flowbot.numbermatch.board import Move, apply_move, find_pairs
from flowbot.numbermatch.rules import WRAP_NONE, Rules, Scoring
from flowbot.numbermatch.search import WON, solve, solve_best

log = logging.getLogger(__name__)

# Searches are limited by positions searched (about 200,000 a second here), so a board is played the
# same way on a busy machine as on a quiet one; the seconds only cap a search on a very slow one (or a
# board grown so big that a position takes milliseconds), so that a whole plan stays within about 80 s.
SOLVE_NODES, SOLVE_SECONDS = 4_000_000, 20.0
CAUTIOUS_CAP_SECONDS = 5.0
# Positions for a line that never leaves the board with no pair while an add is left, where the game
# may end such a board: on random boards nine in ten of those found within 1,500,000 positions are
# found within 400,000 (scripts/bench_numbermatch.py --nodes); then a line that may leave none is
# looked for (SOLVE_NODES).
KEEP_A_PAIR_NODES = 400_000
# Adds a plan may use in a game that adds without limit: each one doubles the digits to search.
UNLIMITED_PLAN_ADDS = 3
# Positions a plan first gets without the moves the game has not yet been seen to take (the phone
# game's diagonals and row-end wraps, and adds while a pair is left, which some games refuse): a win
# that needs none of them risks no refused click.
CAUTIOUS_NODES = 150_000
# Pairs of a kind the game has not yet taken tried as a winning line's first move (each one solve).
PROBES = 4
# When no line clears the board: the line that takes the most pairs (a row or a win is worth nothing more).
PAIRS_ONLY = Scoring(near_pair=1, far_pair=1, row=0, board=0)


class LinePlanner:
    """The plan of moves (a role of NumberMatchClear: it reads `rules`, `fixed` and `confirmed`)."""

    def rules_with(self, adds_left: int) -> Rules:
        """The rules found so far, with the adds a plan may still use."""
        return replace(self.rules, adds=max(adds_left, 0))

    def plan(self, cells: tuple[int, ...], adds_left: int) -> tuple[Move, ...]:
        """The solver's winning line for the board as read under the rules found; with none, the
        line that takes the most pairs (said in the log), which may be empty."""
        limited = self.rules.adds_limited
        budgets = [max(adds_left, 0)] if limited else list(range(UNLIMITED_PLAN_ADDS + 1))
        untried: dict[str, object] = {
            field: off
            for field, kind, off in (("diagonals", "diagonal", False), ("wrap", "wrap", WRAP_NONE))
            if getattr(self.rules, field) != off and field not in self.fixed and kind not in self.confirmed
        }
        # Some games refuse "+" while a pair is left: a plan that adds only when stuck risks nothing
        # there, but loses where the game ends a board with no pair left (the rules may not say).
        if (
            not self.rules.add_when_stuck
            and "add_when_stuck" not in self.fixed
            and "add" not in self.confirmed
            and not self.rules.stuck_may_end
        ):
            untried["add_when_stuck"] = True
        if untried:
            cautious = replace(self.rules, adds=budgets[-1], **untried)
            answer = solve(cells, cautious, nodes=CAUTIOUS_NODES, timeout=CAUTIOUS_CAP_SECONDS)
            # Its adds must come where no pair is left under the full rules too.
            stuck_only = self.rules.add_when_stuck or "add_when_stuck" in untried
            full = replace(self.rules, adds=budgets[-1], add_when_stuck=stuck_only)
            if answer.status == WON and evidence.adds_allowed(cells, answer.moves, full):
                return answer.moves
        # Not known whether the game ends a board with no pair left: a while for a line that keeps
        # one, then a line that may not, which is the board's only chance if none is found.
        unknown_end = self.rules.ends_without_pairs is None and self.rules.stuck_may_end
        nodes = KEEP_A_PAIR_NODES if unknown_end else SOLVE_NODES
        for budget in budgets:
            rules = replace(self.rules, adds=budget)
            answer = solve(cells, rules, nodes=nodes // len(budgets), timeout=SOLVE_SECONDS / len(budgets))
            if answer.status == WON:
                return self.untried_first(cells, answer.moves, rules, untried)
        if unknown_end:
            line = self.win_leaving_no_pair(cells, budgets[-1], untried)
            if line:
                return line
        rules = replace(self.rules, adds=budgets[-1])
        best = solve_best(cells, rules, PAIRS_ONLY, nodes=SOLVE_NODES, timeout=SOLVE_SECONDS)
        pairs = sum(not move.is_add for move in best.moves)
        log.warning(
            "no win found for the board on screen under %s: playing the line that takes the most pairs (%d)",
            evidence.rules_text(rules),
            pairs,
        )
        return best.moves

    def win_leaving_no_pair(
        self, cells: tuple[int, ...], adds: int, untried: dict[str, object]
    ) -> tuple[Move, ...]:
        """A winning line that may leave the board with no pair while an add is left, when none that
        keeps one was found: it loses only where the game ends such a board, where the board is lost
        anyway (and the rule is learnt). Empty when there is none either."""
        rules = replace(self.rules, adds=adds, ends_without_pairs=False)
        answer = solve(cells, rules, nodes=SOLVE_NODES, timeout=SOLVE_SECONDS)
        if answer.status != WON:
            return ()
        log.warning(
            "no win found that keeps a pair on the board while adds are left: playing one that may not "
            "(a game that ends a board with no pair left would end this one)"
        )
        return self.untried_first(cells, answer.moves, rules, untried)

    def untried_first(
        self, cells: tuple[int, ...], line: tuple[Move, ...], rules: Rules, untried: dict[str, object]
    ) -> tuple[Move, ...]:
        """A winning line that needs pairs of a kind the game has not yet been seen to take, made to
        start with one such pair when a win follows it: a refusal then comes while the board still
        has its pairs and adds (at the line's end it can cost the board)."""
        kinds = {field: off for field, off in untried.items() if field in ("diagonals", "wrap")}
        if not kinds or not line or line[0].is_add:
            return line
        safe = set(find_pairs(cells, replace(rules, **kinds)))
        risky = [Move(a, b) for a, b in find_pairs(cells, rules) if (a, b) not in safe]
        if line[0] in risky:
            return line
        for move in risky[:PROBES]:
            after = apply_move(cells, move, rules)
            if rules.stuck_may_end and after and not find_pairs(after, rules):
                continue  # it would leave no pair, which may end the game with adds unused
            answer = solve(after, rules, nodes=CAUTIOUS_NODES, timeout=CAUTIOUS_CAP_SECONDS / PROBES)
            if answer.status == WON:
                log.info("playing %s first: a pair of a kind the game has not yet taken", move)
                return (move, *answer.moves)
        return line
