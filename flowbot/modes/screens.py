"""`flowbot screens`: what a live run would measure before its first press, shown to the person."""

from __future__ import annotations

import json
from typing import TextIO


def run_screens(*, probe: bool, as_json: bool, out: TextIO) -> int:
    """List the monitors (layout box, capture scale, screen pixels), the one showing the game, and the
    pointer's scale (probed unless `probe` is False); a disagreement is the ScaleError a run would stop
    with (status 12)."""
    from flowbot.act.pointer import open_pointer
    from flowbot.capture.monitors import look_at_the_game, what_shows
    from flowbot.capture.screen import MssScreen

    screen = MssScreen()
    try:
        primary = screen.monitor
        shows = {monitor: what_shows(screen, monitor) for monitor in screen.monitors}
        screen.use(primary)
        look_at_the_game(screen, None)
        monitors = [
            {
                "monitor": monitor.index,
                "layout": str(monitor.box),
                "capture_scale": monitor.capture_scale,
                "screen_pixels": str(monitor.bounds),
                "primary": monitor == primary,
                "shows": shows[monitor],  # "board", "dialog" (a won level's) or None
            }
            for monitor in screen.monitors
        ]
        pointer = open_pointer(screen, screen.bounds, probe=probe)
    finally:
        screen.close()
    record = {"monitors": monitors, "pixels_per_pointer_unit": pointer.space.scale, "probed": probe}
    if as_json:
        out.write(json.dumps(record) + "\n")
        return 0
    for entry in monitors:
        notes = ["primary"] if entry["primary"] else []
        notes += [f"a {entry['shows']} shows here"] if entry["shows"] else []
        out.write(
            f"monitor {entry['monitor']}: {entry['layout']} (LEFT,TOP,WIDTH,HEIGHT as laid out), "
            f"captured at {entry['capture_scale']:g}x: {entry['screen_pixels']} in screen pixels"
            + (f"; {', '.join(notes)}" if notes else "")
            + "\n"
        )
    check = "it landed where sent" if probe else "not probed"
    out.write(
        f"mouse: {pointer.space.scale:g} screen pixel(s) per pointer unit on monitor {screen.monitor.index}; "
    )
    out.write(f"{check}\n")
    return 0
