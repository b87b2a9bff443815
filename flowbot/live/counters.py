"""The game's own counters as a contradiction: a count below its total ("flows 4/5", "4/5") or a
share below a whole ("pipe 95%") that changed while the level was drawn says in the game's words
that it has not taken the level, whatever the board shows. Pure functions on words read (OCR)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from flowbot.capture.ocr import Word

# "4/5", "flux:4/5", "(12/14)": a count and its total in one word. OCR reads the slash well; a
# lone "4" and "/5" apart are left alone (too easily a date, a level number, a time).
_COUNT = re.compile(r"(?<![\d/])(\d{1,3})\s*/\s*(\d{1,3})(?![\d/])")
# "95%", "pipe:95%", "95.5%": a share.
_SHARE = re.compile(r"(?<![\d.])(\d{1,3}(?:[.,]\d+)?)\s*%")


def short_counters(words: Iterable[Word]) -> list[str]:
    """The counters among `words` that say "not yet": counts below their total, shares below 100 %."""
    short: list[str] = []
    for word in words:
        text = word.text.strip()
        for done, total in _COUNT.findall(text):
            if 0 <= int(done) < int(total) <= 200:
                short.append(text)
        for share in _SHARE.findall(text):
            if float(share.replace(",", ".")) < 100:
                short.append(text)
    return short


def counters_against(before: Iterable[Word], now: Iterable[Word]) -> list[str]:
    """The counters that say the level is not taken: short now (see short_counters) and not showing
    the same before drawing (a counter that did not change while drawing says nothing about the
    strokes: a level total "3/10", a trial's "solved 2/5")."""
    earlier = Counter(word.text.strip() for word in before)
    return [text for text in short_counters(now) if earlier[text] == 0]


def done_count(against: Iterable[str]) -> int | None:
    """The count done of the first "k/n" among the counters named against a level ("flows 3/4": 3),
    None when none is a count: how many flows the game holds, to tell a redraw it took from one it
    lost."""
    for text in against:
        found = _COUNT.search(text)
        if found:
            return int(found.group(1))
    return None
