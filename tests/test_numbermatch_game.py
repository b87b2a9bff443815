"""The bundled Number Match game: its rules and results, and its frames read back by the reader."""

from __future__ import annotations

import json
import random

import pytest

from flowbot.numbermatch.board import Move, apply_move, find_pairs
from flowbot.numbermatch.game import NumberMatchGame, board_text
from flowbot.numbermatch.rules import Rules

pygame = pytest.importorskip("pygame")

from flowbot.game.numbermatch import NumberMatchView  # noqa: E402 - after the skip when pygame is missing
from flowbot.game.render import surface_to_bgr  # noqa: E402
from flowbot.numbermatch.read import read_board  # noqa: E402


def new_game(seed: int = 1, **options) -> tuple[NumberMatchGame, list]:
    """A game whose results go to a list."""
    results: list = []
    game = NumberMatchGame(random.Random(seed), report=results.append, **options)
    return game, results


def test_a_pair_clears_as_the_solver_says_and_scores() -> None:
    game, _ = new_game()
    a, b = find_pairs(game.cells)[0]
    expected = apply_move(game.cells, Move(a, b))
    assert game.click(a) is False and game.selected == a
    assert game.click(b) is True
    assert game.selected is None
    assert game.cells == expected
    assert game.score > 0 and game.moves == 1


def test_a_click_on_a_cell_that_does_not_pair_moves_the_selection() -> None:
    game, _ = new_game(3)
    pairs = set(find_pairs(game.cells))
    a = 0
    b = next(index for index in range(1, len(game.cells)) if (a, index) not in pairs)
    game.click(a)
    assert game.click(b) is False
    assert game.selected == b
    game.click(b)
    assert game.selected is None


def test_add_appends_the_live_digits_in_blue_and_counts_down() -> None:
    game, _ = new_game(rules=Rules(adds=2))
    before = game.cells
    assert game.add()
    assert game.cells == before + before
    assert all(slot.blue for slot in game.slots[len(before) :])
    assert game.add() and not game.add()
    assert game.adds_left == 0


def test_a_cleared_board_reports_and_goes_on_to_the_next_stage() -> None:
    from flowbot.numbermatch.search import solve

    game, results = new_game(5, rules=Rules(adds=4))
    line = solve(game.cells, game.rules).moves
    first = game.rows_text()
    for move in line:
        if move.is_add:
            assert game.add()
        else:
            game.click(move.a)
            assert game.click(move.b)
    assert game.stage == 2 and len(game.slots) == 27
    [result] = results
    record = json.loads(result.to_json())
    assert record["stage"] == 1 and record["cleared"] is True and record["board"] == list(first)
    assert record["moves"] == len(line) and record["adds_used"] == sum(move.is_add for move in line)
    assert record["score"] == game.score > 0


def test_a_stuck_board_is_given_up_as_not_cleared() -> None:
    game, results = new_game(7, rules=Rules(adds=0))
    play_until_no_pair(game)
    assert game.stuck
    game.give_up()
    assert results[-1].cleared is False and game.stage == 1 and not game.stuck


def test_board_text_pads_the_last_row() -> None:
    assert board_text((1, 0, 3, 4), 3) == ("1.3", "4__")


def frame_of(view: NumberMatchView):
    """The view drawn on a surface of its size, as a BGR frame."""
    pygame.font.init()
    surface = pygame.Surface(view.layout.size)
    view.draw(surface)
    return surface_to_bgr(surface)


@pytest.mark.parametrize("seed", [*range(6), 75])
def test_frames_of_played_boards_read_back_exactly(seed: int) -> None:
    """Random boards played a random number of steps, scrolled anywhere: the reader sees the game's rows."""
    rng = random.Random(seed)
    game, _ = new_game(seed, start=rng.choice((27, 35)))
    for _ in range(rng.randint(0, 3)):
        game.add()
    for _ in range(rng.randint(0, 25)):
        pairs = find_pairs(game.cells)
        if not pairs:
            break
        a, b = rng.choice(pairs)
        game.click(a)
        game.click(b)
    live = [index for index, value in enumerate(game.cells) if value]
    game.click(rng.choice(live))  # a selected cell (light blue) on the board
    size = rng.choice(((540, 960), (480, 800), (600, 900)))
    view = NumberMatchView(game, size)
    view.offset = rng.uniform(0, view.layout.max_offset(game.row_count))
    view.resize(size)
    reading = read_board(frame_of(view), f"seed {seed}")
    assert not reading.rectified  # the game's grid is upright: read as it is
    first = round((reading.grid.ys[0] - view.layout.area_top + view.offset) / view.layout.cell)
    expected = game.rows_text()[first : first + len(reading.rows)]
    assert reading.rows == expected
    assert reading.adds_left == (game.adds_left or None)
    for row, flags in enumerate(reading.blue):
        for col, blue in enumerate(flags):
            index = (first + row) * 9 + col
            if index < len(game.slots) and not game.slots[index].cleared:
                assert blue == game.slots[index].blue


def test_a_press_then_release_clicks_and_a_drag_scrolls() -> None:
    game, _ = new_game(2)
    for _ in range(3):
        game.add()
    view = NumberMatchView(game, (540, 700))
    layout = view.layout
    x, y = layout.left + layout.cell / 2, layout.area_top + layout.cell / 2
    view.pointer_down(x, y)
    view.pointer_up(x, y)
    assert game.selected == 0
    view.pointer_down(x, layout.area_bottom - 5)
    view.pointer_move(x, layout.area_bottom - 5 - 3 * layout.cell)
    view.pointer_up(x, layout.area_bottom - 5 - 3 * layout.cell)
    assert view.offset == pytest.approx(3 * layout.cell)
    assert game.selected == 0  # a drag keeps the selection
    cx, cy, _ = layout.plus
    adds = game.adds_left
    view.pointer_down(cx, cy)
    view.pointer_up(cx, cy)
    assert game.adds_left == adds - 1


def play_until_no_pair(game: NumberMatchGame) -> None:
    """Take pairs (the last one found) until none is left; skips a board that clears on the way."""
    while find_pairs(game.cells):
        a, b = find_pairs(game.cells)[-1]
        game.click(a)
        game.click(b)
        if game.stage > 1:
            pytest.skip("this board cleared without adds")


def test_a_game_that_ends_without_pairs_ends_a_board_with_adds_unused() -> None:
    """With ends-without-pairs=yes a board is over the moment no pair is left: "+" adds nothing, an
    end is drawn over the board (no board reads), and a click deals a new one, not cleared."""
    from flowbot.numbermatch.read import NumberMatchReadError

    game, results = new_game(7, rules=Rules(ends_without_pairs=True))
    play_until_no_pair(game)
    assert game.stuck and game.ended_early and game.adds_left == 4
    assert not game.add() and game.adds_left == 4
    view = NumberMatchView(game, (540, 960))
    with pytest.raises(NumberMatchReadError):
        read_board(frame_of(view))
    view.pointer_down(270, 500)
    view.pointer_up(270, 500)
    assert results[-1].cleared is False and results[-1].adds_used == 0 and not game.stuck
    goes_on, _ = new_game(7)
    play_until_no_pair(goes_on)
    assert not goes_on.stuck and goes_on.add()


def test_the_game_takes_rules_by_name_and_refuses_those_it_cannot_play(capsys) -> None:
    from flowbot.errors import UsageError
    from flowbot.game.app import main, numbermatch_rules

    assert numbermatch_rules(3, "ends-without-pairs=yes") == Rules(adds=3, ends_without_pairs=True)
    assert numbermatch_rules(4, None) == Rules()
    for spec, named in (
        ("adds=unlimited", "say how many with --adds"),
        ("ends-without-pairs=yes,add-when-stuck=yes", "not with add-when-stuck=yes or auto-add=yes"),
        ("diagonal=no", "unknown rule 'diagonal'"),
    ):
        with pytest.raises(UsageError, match=named):
            numbermatch_rules(4, spec)
    assert main(["--rules", "ends-without-pairs=yes"]) == 64
    assert "--rules is for --numbermatch" in capsys.readouterr().err


@pytest.mark.parametrize("rules", [Rules(), Rules(diagonals=False)], ids=["phone", "no-diagonals"])
def test_a_seed_deals_the_same_boards_on_a_slow_machine(monkeypatch, rules):
    """Winnable boards are found within a count of positions, not seconds: `--seed` means the same
    game on any machine, however busy."""
    from flowbot.numbermatch.game import new_digits

    quick = [new_digits(random.Random(seed), 27, rules) for seed in range(3)]
    ticks = iter(range(10**12))  # every look at the clock a tenth of a second later
    monkeypatch.setattr("flowbot.numbermatch.search.time.perf_counter", lambda: next(ticks) / 10)
    assert [new_digits(random.Random(seed), 27, rules) for seed in range(3)] == quick
