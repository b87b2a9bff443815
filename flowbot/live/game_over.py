"""A game's end screen (a time trial's "Time's up!"): the run is over, not stuck."""

from __future__ import annotations

import re

from flowbot.capture.ocr import Word

# What end screens say, letters only: "Time's up!", "Time is up", "Time out", "Game over".
END_WORDS = ("timesup", "timeisup", "timeup", "timeout", "gameover")
# Words of the end screen kept for the summary after its title ("12 levels solved in 60 seconds").
SHOWN_AFTER = 7


def game_over_message(words: list[Word]) -> str | None:
    """The end screen's words ("Time's up! 12 levels solved in 60 seconds") when the words read on a
    frame include an end title, else None."""
    texts = [word.text for word in words]
    letters = [re.sub(r"[^a-z]", "", text.lower()) for text in texts]
    for start in range(len(texts)):
        for length in (1, 2, 3):
            if letters[start] and "".join(letters[start : start + length]) in END_WORDS:
                shown = texts[start : start + length + SHOWN_AFTER]
                ends = [index for index, text in enumerate(shown) if text.lower().startswith("second")]
                return " ".join(shown[: ends[0] + 1] if ends else shown)
    return None
