"""The rules of Number Match that differ between versions of the game, and how a game is scored."""

from __future__ import annotations

from dataclasses import dataclass

from flowbot.numbermatch.errors import NumberMatchInputError

# The digit classes: two digits pair when they are equal or sum to 10, which is exactly "same class".
DIGIT_CLASS = (0, 1, 2, 3, 4, 5, 4, 3, 2, 1)


# How "add numbers" adds: a copy of the remaining digits (the phone game), a generated row (the
# remaining digits with every second one replaced by its 10-complement, reversed), or not known yet
# (planned as a copy, and the board read again after every add).
COPY, GENERATED, UNKNOWN = "copy", "generated", "unknown"
ADD_KINDS = (COPY, GENERATED, UNKNOWN)

# How the reading-order line runs past a row's end: not at all (pairs in reading order stay in their
# row), on to the next row's first slot (the phone game), or on to the next row's first slot from the
# row's last-but-one, the last column left out of the line (a slot there pairs across no row's end,
# and a digit there blocks none).
WRAP_NONE, WRAP_NEXT_ROW, WRAP_SKIP_LAST = "none", "next-row", "skip-last-column"
WRAP_KINDS = (WRAP_NONE, WRAP_NEXT_ROW, WRAP_SKIP_LAST)


@dataclass(frozen=True, slots=True)
class Rules:
    """What may pair and how often numbers may be added.

    width: slots per row (9 in every version we know).
    adds: how many times "add numbers" may be used (4 in the article's game, 5 in some versions);
        with `adds_limited` off, how many adds a plan may use (the game allows any number).
    wrap: how the reading-order line runs past a row's end (WRAP_NONE, WRAP_NEXT_ROW or
        WRAP_SKIP_LAST; True and False are taken for WRAP_NEXT_ROW and WRAP_NONE).
    diagonals: pairs along a 45-degree diagonal count, touching or across cleared slots.
    add: how an add adds (COPY, GENERATED or UNKNOWN).
    adds_limited: the game counts its adds (a badge); off, it lets you add without limit.
    add_when_stuck: the game refuses an add while a pair is left.
    auto_add: the game adds by itself when no pair is left (the bot then does not press "+").
    clear_rows: an emptied row vanishes; off, only emptied rows at the bottom go.
    ends_without_pairs: the game ends a board the moment no pair is left, adds or not (True), lets
        "+" be pressed then (False, the phone game), or not known (None: played as if it might).
    """

    width: int = 9
    adds: int = 4
    wrap: str = WRAP_NEXT_ROW
    diagonals: bool = True
    add: str = COPY
    adds_limited: bool = True
    add_when_stuck: bool = False
    auto_add: bool = False
    clear_rows: bool = True
    ends_without_pairs: bool | None = None

    def __post_init__(self) -> None:
        """Reject a width, number of adds, kind of add or wrap no game can have (a yes/no wrap is
        taken for the phone game's or none)."""
        if isinstance(self.wrap, bool):
            object.__setattr__(self, "wrap", WRAP_NEXT_ROW if self.wrap else WRAP_NONE)
        if self.wrap not in WRAP_KINDS:
            raise NumberMatchInputError(f"wrap must be one of {', '.join(WRAP_KINDS)}, got {self.wrap!r}")
        if self.width < 1:
            raise NumberMatchInputError(f"row width must be at least 1, got {self.width}")
        if self.adds < 0:
            raise NumberMatchInputError(f"adds must not be negative, got {self.adds}")
        if self.add not in ADD_KINDS:
            raise NumberMatchInputError(f"add must be one of {', '.join(ADD_KINDS)}, got {self.add!r}")

    @property
    def stuck_may_end(self) -> bool:
        """True when a board left with no pair may end the game though adds are left, so a line must
        never leave one: not known not to, and the game neither adds by itself then nor adds only then
        (either one needs a board with no pair to go on)."""
        return self.ends_without_pairs is not False and not (self.add_when_stuck or self.auto_add)

    def describe(self) -> dict[str, object]:
        """The rules as JSON-ready keys (the bot's report of the rules it played by)."""
        return {
            "diagonals": self.diagonals,
            "wrap": self.wrap,
            "add": self.add,
            "adds_limited": self.adds_limited,
            "add_when_stuck": self.add_when_stuck,
            "auto_add": self.auto_add,
            "clear_rows": self.clear_rows,
            "ends_without_pairs": self.ends_without_pairs,
        }


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points, after the common description of the mobile game (each one an option).

    near_pair: a pair with no slot between them (touching in 8 directions, or consecutive in reading order).
    far_pair: a pair with cleared slots between them.
    row: each row that disappears.
    board: clearing the whole board.
    """

    near_pair: int = 1
    far_pair: int = 4
    row: int = 10
    board: int = 150

    def __post_init__(self) -> None:
        """Negative points would make 'stop early' win, which no version of the game does."""
        for name in ("near_pair", "far_pair", "row", "board"):
            if getattr(self, name) < 0:
                raise NumberMatchInputError(f"score for {name} must not be negative")


# The names `parse_rules` takes, each with the Rules field it sets.
RULE_NAMES = {
    "diagonals": "diagonals",
    "wrap": "wrap",
    "add": "add",
    "adds": "adds_limited",
    "add-when-stuck": "add_when_stuck",
    "auto-add": "auto_add",
    "clear-rows": "clear_rows",
    "ends-without-pairs": "ends_without_pairs",
}
YES, NO = ("yes", "on", "true", "1"), ("no", "off", "false", "0")


def parse_rules(spec: str) -> dict[str, object]:
    """Rules fields from 'name=value,...' (diagonals=no, add=generated, adds=unlimited, ...).

    Names: diagonals, add-when-stuck, auto-add, clear-rows (yes/no); ends-without-pairs (yes, no or
    unknown); wrap (none, next-row, skip-last-column; yes and no for next-row and none); add (copy,
    generated, unknown); adds (limited or unlimited). NumberMatchInputError names a part it cannot read.
    """
    fields: dict[str, object] = {}
    for part in filter(None, (piece.strip() for piece in spec.split(","))):
        name, _, value = part.partition("=")
        name, value = name.strip().lower(), value.strip().lower()
        if name not in RULE_NAMES:
            raise NumberMatchInputError(f"unknown rule {name!r} in {spec!r} (known: {', '.join(RULE_NAMES)})")
        if name == "add":
            if value not in ADD_KINDS:
                raise NumberMatchInputError(f"add={value!r}: expected one of {', '.join(ADD_KINDS)}")
            fields["add"] = value
        elif name == "wrap" and value in WRAP_KINDS:
            fields["wrap"] = value
        elif name == "adds":
            if value not in ("limited", "unlimited"):
                raise NumberMatchInputError(f"adds={value!r}: expected limited or unlimited")
            fields["adds_limited"] = value == "limited"
        elif name == "ends-without-pairs" and value == UNKNOWN:
            fields["ends_without_pairs"] = None
        elif value in YES or value in NO:
            fields[RULE_NAMES[name]] = value in YES
        elif name == "wrap":
            raise NumberMatchInputError(f"wrap={value!r}: expected one of {', '.join(WRAP_KINDS)}, yes or no")
        elif name == "ends-without-pairs":
            raise NumberMatchInputError(f"{name}={value!r}: expected yes, no or unknown")
        else:
            raise NumberMatchInputError(f"{name}={value!r}: expected yes or no")
    return fields


# The defaults, shared so that a default argument is not a call (frozen, so sharing is safe).
DEFAULT_RULES = Rules()
DEFAULT_SCORING = Scoring()
