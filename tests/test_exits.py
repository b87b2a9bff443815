"""The exit status table in code names every status an error class ends with, and nothing else."""

from __future__ import annotations

import importlib
import pkgutil
import signal

import flowbot
from flowbot.errors import FlowbotError
from flowbot.exits import EXIT_STATUSES, exit_table, meaning


def _error_classes() -> set[type[FlowbotError]]:
    """Every FlowbotError class in flowbot, each module imported (none needs a display to import)."""
    for module in pkgutil.walk_packages(flowbot.__path__, "flowbot."):
        if module.name.endswith("__main__"):
            continue
        importlib.import_module(module.name)
    found, todo = set(), [FlowbotError]
    while todo:
        for child in todo.pop().__subclasses__():
            if child.__module__.startswith("flowbot") and child not in found:
                found.add(child)
                todo.append(child)
    return found | {FlowbotError}


def test_every_error_class_s_status_is_in_the_table():
    for kind in _error_classes():
        if isinstance(kind.__dict__.get("exit_code"), property) or kind.__name__ == "Interrupted":
            continue  # 128 + the signal: its own row
        assert meaning(kind.exit_code), kind


def test_the_signals_a_live_run_stops_on_are_in_the_table():
    from flowbot.act.pointer import Interrupted

    for number in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
        assert meaning(Interrupted(number).exit_code)


def test_each_status_has_one_meaning_and_the_table_renders_every_row():
    statuses = [status for row, _ in EXIT_STATUSES for status in row]
    assert len(statuses) == len(set(statuses))
    table = exit_table()
    assert table.count("\n") == len(EXIT_STATUSES) + 2
    assert "| 13 | the display went away mid-run" in table


def test_the_manual_s_exit_table_is_the_code_s():
    from pathlib import Path

    page = Path(__file__).resolve().parents[1] / "docs" / "guarantees.md"
    assert exit_table() in page.read_text(), (
        "docs/guarantees.md: paste the table that flowbot.exits.exit_table() prints"
    )
