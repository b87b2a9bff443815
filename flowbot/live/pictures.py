"""Pictures for the person: the screenshot flowbot could not handle, saved with what the reader
found drawn over it when it can say why."""

from __future__ import annotations

import logging

from flowbot.artifacts import save_failure_picture
from flowbot.capture.screen import Frame
from flowbot.errors import FlowbotError
from flowbot.live.report import Report

log = logging.getLogger(__name__)


class Pictures:
    """Failure pictures (a role of LiveLoop: it reads `artifacts`)."""

    def save_explained(self, report: Report, frame: Frame | None, name: str) -> str:
        """Save the frame with what the reader finds drawn over it (the lattice, the dots, stray
        blobs) and return '; likely cause: ...' for the stop message ('' when it cannot say)."""
        if frame is None:
            return ""
        from flowbot.capture.explain import explain_misread

        try:
            misread = explain_misread(frame.pixels)
        except FlowbotError as error:
            log.warning("could not explain the misread: %s", error)
            self.save_failure(report, frame, name)
            return ""
        self.save_failure(report, Frame(misread.picture, frame.left, frame.top), name)
        return f"; likely cause: {misread.cause}"

    def save_failure(self, report: Report, frame: Frame | None, name: str) -> None:
        """Keep the screenshot flowbot could not handle, for the person to look at."""
        if frame is None:
            return
        from flowbot.capture.overlay import encode_png

        try:
            path = save_failure_picture(self.artifacts, name, encode_png(frame.pixels))
            report.failure_image = str(path)
        except FlowbotError as error:
            log.warning("could not save the failure screenshot: %s", error)
