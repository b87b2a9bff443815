"""`flowbot auto-clear` on the real screen: pick the loop for the game on screen (classic Flow or a
sister game), play, print the summary or JSON, and return the exit code. The one place that joins
the loops to the screen, the pointer and the profile."""

from __future__ import annotations

import logging
from collections.abc import Callable

from flowbot.act.plan import PointerSettings
from flowbot.capture.screen import Region
from flowbot.errors import FlowbotError
from flowbot.live.controls import RememberedControl
from flowbot.live.report import AutoClearError, Report
from flowbot.progress import Progress

log = logging.getLogger(__name__)


def run_auto_clear(
    *,
    count: int | None,
    region: Region | None,
    dry_run: bool,
    settings: PointerSettings,
    artifacts: str | None,
    as_json: bool,
    out,
    err,
    profile=None,
    tune: bool = False,
) -> int:
    """Play the game on the real screen with the real mouse, print the summary, and return the exit code.
    With `tune` (no pointer flag given), the pointer settings are tuned to the game as it plays."""
    import json

    from flowbot.act.tuning import start_tuner
    from flowbot.artifacts import artifacts_folder
    from flowbot.modes.live import game_on_screen
    from flowbot.modes.variant_clear import VariantClear, live_loop

    region = region or (profile.region if profile else None)
    with game_on_screen(region, dry_run=dry_run) as game:
        loop = live_loop(
            game.screen,
            game.pointer,
            settings,
            region,
            count,
            dry_run,
            artifacts_folder(artifacts),
            windows=game.windows,
        )
        if tune and not dry_run and not isinstance(loop, VariantClear):
            loop.tuner = start_tuner(settings, on_proven=_saver(profile))
        if profile is not None:
            loop.advance, loop.next_button, loop.arrow_button = (
                profile.advance,
                profile.next_button,
                profile.arrow_button,
            )
        progress = Progress(count or 0, "auto-clear", err)
        report = loop.run(progress)
        _remember_control(profile, loop.control)
        progress.close()
    out.write((json.dumps(report_record(report, count)) if as_json else report.summary()) + "\n")
    if report.halt is not None:
        raise report.halt  # after the summary: the CLI adds its one line and the stop's own exit status
    short = count is not None and report.cleared < count
    failed = any(not level.cleared for level in report.levels) or not report.levels or short
    return AutoClearError.exit_code if failed else 0


def report_record(report: Report, count: int | None) -> dict:
    """The run's report as `--json` keys."""
    return {
        "levels": len(report.levels),
        "asked": count,
        "cleared": report.cleared,
        "bot_overhead_ms_median": round(report.overhead_median_ms(), 1),
        "timing_ms_median": {part: round(ms, 1) for part, ms in report.split_median_ms().items()},
        "per_level_ms": [
            {part: round(ms, 1) for part, ms in level.timing.split_ms().items()} for level in report.levels
        ],
        "per_level": [level.record() for level in report.levels],
        "pointer": report.pointer,
        "stopped": report.stopped,
        "interrupted": interrupted(report.halt),
        "failure_image": report.failure_image,
    }


def interrupted(halt: FlowbotError | None) -> bool:
    """True when a stop signal (Ctrl-C, SIGTERM, SIGHUP, ...) ended the run early: scripts tell it
    from a run that stopped on its own without parsing `stopped`."""
    from flowbot.act.pointer import Interrupted

    return isinstance(halt, Interrupted)


def _remember_control(profile, control: RememberedControl | None) -> None:
    """Keep the control that moved the game on in the profile in use, when it names none yet: the
    next run presses it when it finds no control on screen."""
    if profile is None or control is None or profile.next_button is not None:
        return
    from flowbot.profiles import update_profile

    point = (round(control.center[0]), round(control.center[1]))
    try:
        path = update_profile(profile, next_button=point)
        log.info("saved the control %r at %s in %s", control.label, point, path)
    except FlowbotError as error:
        log.warning("could not save the next-level control in the profile: %s", error)


def _saver(profile) -> Callable | None:
    """What keeps tuned pointer settings: the profile in use, saved again with them (None: no profile)."""
    if profile is None:
        return None

    def save(rung) -> None:
        """Save the profile with the rung's settings; a failure to save does not stop the run."""
        from flowbot.profiles import save_tuned

        try:
            path = save_tuned(profile, rung.settings)
            log.info("saved pointer settings %r in %s", rung.name, path)
        except FlowbotError as error:
            log.warning("could not save the tuned pointer settings: %s", error)

    return save
