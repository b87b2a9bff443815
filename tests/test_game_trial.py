"""The bundled game's Time Trial: generated levels against a clock that starts at the first press."""

from __future__ import annotations

import pytest

from flowbot.errors import UsageError
from flowbot.game.app import build_parser, main, trial_from
from flowbot.game.controls import Controls
from flowbot.game.layout import compute_layout
from flowbot.game.trial import TIME_UP, LevelMaker, TrialSession, TrialSpec, generated, trial_spec
from flowbot.solve.sat import solve


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def trial():
    """A 30-second 5x5 trial on a fake clock, with its controls and results; its maker closed after."""
    clock = FakeClock()
    results: list = []
    maker = LevelMaker(generated(5, 5, seed=7))
    session = TrialSession(maker, 30, report=results.append, clock=clock)
    yield session, Controls(session), clock, results
    maker.close()


def layout_of(session):
    """The default layout of the shown board."""
    return compute_layout(540, 960, session.board.puzzle.rows, session.board.puzzle.cols, session.dialog())


def solve_shown(session, controls) -> None:
    """Draw the shown level's solution through the controls, pixel by pixel."""
    layout = layout_of(session)
    for path in solve(session.board.puzzle).solution.paths:
        controls.pointer_down(*layout.geometry.center(path[0]), layout)
        for cell in path[1:]:
            controls.pointer_move(*layout.geometry.center(cell), layout)
        controls.pointer_up()


def test_the_clock_waits_for_the_first_press_on_the_board(trial):
    session, controls, clock, _ = trial
    clock.now += 50
    session.tick()
    assert session.remaining() == 30 and not session.over
    assert session.status() == "time 0:30  solved 0"
    layout = layout_of(session)
    controls.pointer_down(5, 5, layout)  # the page, not the board
    assert session.started_at is None
    controls.pointer_down(*layout.geometry.center((2, 2)), layout)
    controls.pointer_up()
    assert session.started_at == clock.now
    clock.now += 12.5
    assert session.remaining() == pytest.approx(17.5)
    assert session.status() == "time 0:18  solved 0"  # whole seconds, rounded up


def test_a_win_brings_a_fresh_level_at_once_and_counts(trial):
    session, controls, clock, results = trial
    first = session.board.puzzle
    solve_shown(session, controls)
    clock.now += 3
    session.tick()
    assert session.level == 2 and session.solved == 1 and session.dialog() is None
    assert session.board.puzzle != first and session.board.moves == 0
    [result] = results
    assert result.solved and result.level == 1 and result.seconds == pytest.approx(3)
    solve_shown(session, controls)
    session.tick()
    assert session.level == 3 and session.solved == 2
    assert [result.solved for result in results] == [True, True]


def test_time_up_ends_the_trial_reports_the_unfinished_level_and_takes_no_input(trial):
    session, controls, clock, results = trial
    solve_shown(session, controls)
    session.tick()
    layout = layout_of(session)
    path = solve(session.board.puzzle).solution.paths[0]
    controls.pointer_down(*layout.geometry.center(path[0]), layout)
    controls.pointer_move(*layout.geometry.center(path[1]), layout)  # a stroke held at the end
    clock.now += 29.9
    session.tick()
    assert not session.over
    clock.now += 0.1
    session.tick()
    assert session.over and session.closed and session.remaining() == 0
    dialog = session.dialog()
    assert dialog is not None and dialog.title == TIME_UP and dialog.button is None
    assert dialog.lines[0] == "1 level solved"
    assert [(result.level, result.solved) for result in results] == [(1, True), (2, False)]
    # Nothing moves any more: the board, the bottom buttons, keys, next.
    pipes = [list(pipe) for pipe in session.board.pipes]
    ended = layout_of(session)
    controls.pointer_down(*ended.geometry.center(path[0]), ended)
    controls.pointer_move(*ended.geometry.center(path[2]), ended)
    for button in ended.buttons:
        controls.pointer_down(button.x, button.y, ended)
    assert controls.key("n") and controls.key("r")
    session.next()
    session.tick()
    assert session.level == 2 and session.board.pipes == pipes and session.board.drawing is None
    assert session.leave() is None and len(results) == 2  # the window closing adds nothing
    assert not controls.key("q")  # quitting still works


def test_a_trial_cannot_go_back_and_skipping_counts_as_not_solved(trial):
    session, _, _, results = trial
    session.next()
    assert not session.can_go_back
    session.previous()
    assert session.level == 2 and [result.solved for result in results] == [False]


def test_the_same_seed_gives_the_same_levels_in_order():
    make = generated(5, 5, seed=3)
    maker = LevelMaker(make, ahead=2)
    try:
        taken = [maker.take() for _ in range(5)]
    finally:
        maker.close()
    assert [puzzle.to_rows() for puzzle in taken] == [make(index).to_rows() for index in range(5)]
    assert taken[0].to_rows() != generated(5, 5, seed=4)(0).to_rows()
    assert len({tuple(puzzle.to_rows()) for puzzle in taken}) == 5
    assert all(puzzle.rows == 5 and puzzle.cols == 5 for puzzle in taken)


def test_a_generator_failure_reaches_the_game_instead_of_hanging_it():
    make = generated(5, 5, seed=1)

    def failing(index: int):
        if index == 2:
            raise UsageError("no more levels")
        return make(index)

    maker = LevelMaker(failing)
    try:
        maker.take(), maker.take()
        with pytest.raises(UsageError, match="no more levels"):
            maker.take()
    finally:
        maker.close()


# --- the command line ------------------------------------------------------------------------------


def test_trial_options_parse_into_a_spec():
    args = build_parser().parse_args(["--time-trial", "60", "--board", "9x7", "--seed", "5", "--no-grid"])
    assert trial_from(args) == TrialSpec(60.0, 9, 7, 5)
    fresh = trial_spec(30, "5x5", None)
    assert fresh.rows == fresh.cols == 5 and isinstance(fresh.seed, int)
    assert trial_from(build_parser().parse_args(["--pack", "demo"])) is None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--time-trial", "30"], "needs --board"),
        (["--time-trial", "30", "--board", "five"], "expected ROWSxCOLS"),
        (["--time-trial", "30", "--board", "3x3"], "outside 4x4 to 20x20"),
        (["--time-trial", "30", "--board", "5x25"], "outside 4x4 to 20x20"),
        (["--time-trial", "5000", "--board", "5x5"], "at most 3600 seconds"),
        (["--time-trial", "30", "--board", "5x5", "--pack", "demo"], "leave out --pack"),
        (["--board", "5x5"], "are for generated levels"),
        (["--seed", "3"], "are for generated levels"),
    ],
)
def test_bad_trial_options_are_usage_errors(argv, message, capsys):
    assert main(argv) == UsageError.exit_code
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("seconds", ["0", "-3", "soon"])
def test_a_trial_length_must_be_a_positive_number(seconds, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--time-trial", seconds, "--board", "5x5"])
    assert stop.value.code == 2 and "--time-trial" in capsys.readouterr().err
