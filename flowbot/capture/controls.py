"""Find the control that moves a game on to its next level, in any style: Flow-style outlined buttons,
plain push buttons with a text label, text links; and tell a win message when one shows.

Labels are read with OCR (flowbot.capture.ocr); an arrow or check mark a label ends with is also told
by its shape (flowbot.capture.icons), in any language. A control whose label undoes, resets, restarts,
solves, hints, buys, shares or goes back is never chosen; one that only skips comes last, and is never
a sign of a win.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace

import cv2
import numpy as np

from flowbot.capture import ocr
from flowbot.capture.buttons import find_next_button
from flowbot.capture.icons import ends_in_go_icon
from flowbot.capture.scrim import Scrim
from flowbot.cellmap import CellMap

log = logging.getLogger(__name__)

# Words that move on, with how strongly; a label scores its best word. Games speak many languages:
# English, French, Spanish, German, Portuguese and Italian, written without accents (see fold).
MOVE_ON = {
    "next": 4, "continue": 4, "new": 3, "play": 2, "proceed": 2, "forward": 2, "skip": 1,
    "suivant": 4, "suivante": 4, "continuer": 4, "nouveau": 3, "nouvelle": 3, "jouer": 2,
    "siguiente": 4, "continuar": 4, "nuevo": 3, "nueva": 3, "jugar": 2,
    "weiter": 4, "nachste": 4, "nachster": 4, "nachstes": 4, "fortfahren": 4, "neues": 3, "neue": 3,
    "spielen": 2,
    "proximo": 4, "proxima": 4, "seguinte": 4, "avancar": 2, "novo": 3, "nova": 3, "jogar": 2,
    "prossimo": 4, "successivo": 4, "continua": 4, "avanti": 4, "nuovo": 3, "gioca": 2,
}  # fmt: skip
# The score of a word that skips ("skip"): it moves on whether the level was taken or not, so a label
# saying no more is never a sign of a win, and is tried after every other control (skips_only).
SKIP_SCORE = 1
# A label with any of these is never pressed, whatever else it says.
FORBIDDEN = frozenset(
    [
        "undo",
        "reset",
        "restart",
        "retry",
        "replay",
        "again",
        "solve",
        "solution",
        "solutions",
        "hint",
        "hints",
        "buy",
        "shop",
        "store",
        "purchase",
        "coins",
        "share",
        "back",
        "previous",
        "prev",
        "menu",
        "home",
        "quit",
        "exit",
        "close",
        "settings",
        "options",
        "clear",
        "reveal",
        "rate",
        "ads",
        "watch",
        "select",
        "levels",
        "give",
        "cancel",
        "delete",
        "remove",
        # French
        "annuler", "recommencer", "rejouer", "reessayer", "reinitialiser", "encore", "indice", "aide",
        "acheter", "boutique", "partager", "retour", "precedent", "precedente", "quitter", "fermer",
        "parametres", "effacer", "niveaux", "accueil", "revoir",
        # Spanish
        "deshacer", "reiniciar", "reintentar", "repetir", "otra", "pista", "pistas", "resolver",
        "comprar", "tienda", "compartir", "atras", "volver", "anterior", "salir", "cerrar", "ajustes",
        "borrar", "niveles", "inicio",
        # German
        "ruckgangig", "zuruck", "neustart", "wiederholen", "nochmal", "erneut", "hinweis", "tipp",
        "losung", "kaufen", "teilen", "vorherige", "vorheriges", "beenden", "schliessen",
        "einstellungen", "loschen", "abbrechen",
        # Portuguese
        "desfazer", "tentar", "novamente", "dica", "dicas", "loja", "compartilhar", "voltar", "sair",
        "fechar", "niveis",
        # Italian
        "annulla", "ricomincia", "riprova", "ancora", "nuovamente", "suggerimento", "aiuto", "risolvi",
        "compra", "negozio", "condividi", "indietro", "precedente", "esci", "chiudi", "impostazioni",
        "livelli",
    ]
)  # fmt: skip
# Labels that say "again" in more than one word ("jugar de nuevo": play again).
FORBIDDEN_PHRASES = ("de nuevo", "di nuovo", "noch einmal", "de novo")
# Arrows and check marks as OCR reads them: a head, after a shaft read as hyphens, equals signs or dashes
# ("->", "=>", "—>", "—»"), or one glyph.
ARROWS = re.compile(r"^([-=—–]*(>|>>|»|›)|→|⟶|➔|➜|➡|⇒|▶|►|▸|❯|✓|✔|☑|✅)$")
# Everything of a label that is no part of a word or an arrow (label_score splits on it).
NOT_A_WORD = re.compile(r"[^a-z0-9>»›→➔➜➡⇒▶►▸❯⟶✓✔☑✅=—–-]+")
# An arrow or check mark told by its shape says to go on as strongly as one read as text.
GO_ICON_SCORE = 3
# A dialog's primary button is filled with a colour: its mean saturation (HSV, 0-255) at least this,
# and PRIMARY_LEAD times any other button's.
PRIMARY_SATURATION, PRIMARY_LEAD = 80.0, 2.0
# A box is the one `before` (drawing) had when its grey differs by less than this on average: a
# control the dimming never reached (a browser's toolbar, another program's window) shows as it did.
SAME_LOOK = 12.0
# Words of a win message.
WIN_WORDS = frozenset(
    [
        "won",
        "win",
        "winner",
        "complete",
        "completed",
        "solved",
        "perfect",
        "congratulations",
        "congrats",
        "cleared",
        "excellent",
        "awesome",
        "amazing",
        "brilliant",
        "bravo",
        # French, Spanish, German, Portuguese, Italian (without accents, see fold)
        "gagne", "felicitations", "termine", "reussi", "victoire", "parfait", "perfecto", "perfekt",
        "perfetto", "perfeito",
        "ganaste", "ganado", "felicidades", "enhorabuena", "completado", "resuelto",
        "gewonnen", "geschafft", "gluckwunsch", "gelost",
        "vinto", "complimenti", "completato", "risolto",
        "vitoria", "parabens", "concluido", "resolvido", "venceu", "ganhou",
    ]
)  # fmt: skip
# Words that name what a move-on control leads to ("next level", "niveau suivant", "nächstes Spiel").
LEVEL_WORDS = frozenset(
    ["level", "puzzle", "game", "stage", "round", "niveau", "partie", "nivel", "juego", "partida",
     "spiel", "runde", "stufe", "jogo", "fase", "livello", "gioco", "partita", "livel"]
)  # fmt: skip
# Push buttons: a label's height in pixels, and how much wider than tall.
MIN_HEIGHT, MAX_HEIGHT = 14, 160
MIN_ASPECT, MAX_ASPECT = 1.6, 12.0
# Labels read at most per search: OCR costs ~50 ms a label.
MAX_LABELS = 16
# Two words on a line are one phrase when the gap between them is at most this many of their
# heights (a space is about half a height); farther apart they are bare words of their own.
PHRASE_GAP = 1.5


@dataclass(frozen=True, slots=True)
class Control:
    """Something to press on a frame: its box in frame pixels, the label read on it, and its kind."""

    left: int
    top: int
    width: int
    height: int
    label: str
    kind: str  # "flow-button", "push-button" or "text"

    @property
    def center(self) -> tuple[float, float]:
        """The pixel (x, y) to click."""
        return self.left + self.width / 2, self.top + self.height / 2

    def shifted(self, dx: int, dy: int) -> Control:
        """The same control in another frame's pixels."""
        return Control(self.left + dx, self.top + dy, self.width, self.height, self.label, self.kind)


def fold(text: str) -> str:
    """Lower case without accents ("Nächste" -> "nachste", "réessayer" -> "reessayer", "ß" -> "ss"):
    the word lists are written so, and OCR drops or keeps accents as it likes."""
    decomposed = unicodedata.normalize("NFKD", text.lower().replace("ß", "ss"))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def label_score(label: str) -> int:
    """How strongly a label says "go on to the next level": 0 for no, or a label never to press."""
    label = fold(label)
    words = [word for word in NOT_A_WORD.split(label) if word]
    if not words or any(word.strip("-=>—–") in FORBIDDEN for word in words) or _says_again(label):
        return 0
    score = max((MOVE_ON.get(word.strip("-=>—–"), 0) for word in words), default=0)
    if any(ARROWS.match(word) for word in words):
        score = max(score, 3)
    if score and any(word in LEVEL_WORDS for word in words):
        score += 1
    return score


def button_score(patch: np.ndarray, label: str) -> int:
    """How strongly a button says "go on": its label's words (label_score), else an arrow or check mark
    its inside (`patch`, BGR) ends with, told by its shape (OCR reads "→" as a dash or drops it); 0
    for a label never to press, whatever icon it has."""
    if is_forbidden(label):
        return 0
    score = label_score(label)
    if not score and ends_in_go_icon(patch):
        score = GO_ICON_SCORE
    return score


def box_score(frame: np.ndarray, box: tuple[int, int, int, int], label: str, board: CellMap | None) -> int:
    """A push button's score (button_score), its icon looked at only off the board: drawn pipes ending
    in a dot are arrows by shape too, and whatever is over the board may be the board."""
    if board is not None and _over(box, board):
        return 0 if is_forbidden(label) else label_score(label)
    return button_score(_inside(frame, box), label)


def _split_labels(frame: np.ndarray, box: tuple[int, int, int, int]) -> list[Control] | None:
    """None when the words inside a box are one label; when two lie on one line farther apart than a
    phrase's words (PHRASE_GAP of their height), the box is a strip of several controls, not one
    button: the ones among them that move on, each at its own words."""
    left, top, w, h = box
    inset = _inset(w, h)  # where _inside's picture starts
    words = sorted(ocr.read_words(_inside(frame, box)), key=lambda word: word.left)
    for index, word in enumerate(words):
        for other in words[index + 1 :]:
            same_line = abs((other.top + other.height / 2) - (word.top + word.height / 2)) < word.height / 2
            gap = other.left - (word.left + word.width)
            if same_line and gap > PHRASE_GAP * max(word.height, other.height):
                dx, dy = left + inset, top + inset
                moved = [replace(word, left=word.left + dx, top=word.top + dy) for word in words]
                return _links_in(sorted(moved, key=lambda word: (word.top // max(1, word.height), word.left)))
    return None


def _over(box: tuple[int, int, int, int], board: CellMap) -> bool:
    """True when a box's centre lies on the board."""
    left, top, right, bottom = board.bounds
    x, y = box[0] + box[2] / 2, box[1] + box[3] / 2
    return left <= x <= right and top <= y <= bottom


def names_move_on(label: str) -> bool:
    """True when a label holds a word of moving on ("next", "continue", ...), not only an arrow: what
    OCR reads off pipes and dots is symbols and stray letters, never such a word."""
    return any(word in MOVE_ON for word in re.split(r"[^a-z]+", fold(label)))


def moves_on_in_words(label: str) -> bool:
    """True when a label moves on in a word stronger than a skip ("Next", "Continuer"), nothing forbidden."""
    scores = [MOVE_ON.get(word, 0) for word in re.split(r"[^a-z]+", fold(label))]
    return max(scores, default=0) > SKIP_SCORE and not is_forbidden(label)


def skips_only(label: str) -> bool:
    """True when a label's only word of moving on is one that skips ("Skip", "Skip level ->")."""
    scores = [MOVE_ON.get(word, 0) for word in re.split(r"[^a-z]+", fold(label))]
    return max(scores, default=0) == SKIP_SCORE


def is_forbidden(label: str) -> bool:
    """True for a label that must never be pressed (undo, restart, hint, buy, back, ...)."""
    words = re.split(r"[^a-z]+", fold(label))
    return any(word in FORBIDDEN for word in words) or _says_again(label)


def _says_again(label: str) -> bool:
    """True for a label saying "again" in words of its own ("jugar de nuevo")."""
    words = " ".join(re.split(r"[^a-z]+", fold(label)))
    return any(f" {phrase} " in f" {words} " for phrase in FORBIDDEN_PHRASES)


def says_won(words: list[ocr.Word], before: list[ocr.Word] = ()) -> bool:
    """True when the words on a frame include a win message ("You won!", "Level complete", ...) that
    was not there before the level was drawn: a counter such as a time trial's "solved 6" or
    "completed 3/10" always shows and says nothing about this level."""
    now = Counter(_win_words(words))
    now.subtract(_win_words(before))
    return any(count > 0 for count in now.values())


def _win_words(words: list[ocr.Word]) -> list[str]:
    """The win words among some words, lower case, letters only."""
    letters = (re.sub(r"[^a-z]", "", fold(word.text)) for word in words)
    return [word for word in letters if word in WIN_WORDS]


def next_controls(
    frame: np.ndarray, board: CellMap | None = None, refused: list[str] | None = None
) -> Iterator[Control]:
    """Every control that could move on, best first, found lazily: the caller tries one, and asks for
    the next only when it did nothing. Labels of buttons never to press are added to `refused`.

    Flow-style dialog buttons near the board come first (found without OCR; OCR only makes sure they
    do not say restart); then push buttons by their labels; then text links (OCR of the whole frame);
    controls that only skip last of all (a "Skip" showing all along beside the board is no move-on).
    """
    seen: list[Control] = []
    skips: list[Control] = []
    flow = find_next_button(frame, board)
    doubtful: Control | None = None
    if flow is not None:
        box = (flow.left, flow.top, flow.width, flow.height)
        label = ocr.read_line(_inside(frame, box))
        if is_forbidden(label):
            if refused is not None:
                refused.append(label)
        elif label and (parts := _split_labels(frame, box)) is not None:
            log.info("not pressing %r: words far apart in one box, several controls", label)
            for part in parts:
                yield from _new_or_later(part, seen, skips)
        elif not label or box_score(frame, box, label, None):
            yield from _new_or_later(Control(*box, label or "next level", "flow-button"), seen, skips)
        else:
            # Words that say nothing about moving on (a won pipe's band read as 'O==Q'): tried
            # after every control that does say so.
            doubtful = Control(*box, label, "flow-button")
    scored = []
    boxes = find_push_buttons(frame, board)[:MAX_LABELS]
    labels = ocr.read_lines([_inside(frame, box) for box in boxes])
    for box, label in zip(boxes, labels, strict=True):
        score = box_score(frame, box, label, board)
        if refused is not None and is_forbidden(label):
            refused.append(label)
        parts = _split_labels(frame, box) if score else None
        if parts is not None:
            # An area holding words far apart ("Restart   Next Level") is several controls, and its
            # middle is none of them: the ones that move on are pressed at their own words.
            log.info("not pressing %r: words far apart in one box, several controls", label)
            scored.extend(((-label_score(part.label), _distance(_box(part), board)), part) for part in parts)
            continue
        if score:
            scored.append(((-score, _distance(box, board)), Control(*box, label, "push-button")))
    for _, control in sorted(scored, key=lambda item: item[0]):
        yield from _new_or_later(control, seen, skips)
    links = _text_links(frame)
    links.sort(key=lambda link: (-label_score(link.label), _distance(_box(link), board)))
    for control in links:
        yield from _new_or_later(control, seen, skips)
    if doubtful is not None:
        yield from _new(doubtful, seen)
    for control in skips:
        yield from _new(control, seen)


def new_move_on_buttons(
    frame: np.ndarray, before: np.ndarray, board: CellMap | None = None, limit: int = 4
) -> list[Control]:
    """Push buttons on `frame` that were not on `before` (no box of about the same place and size)
    and whose label moves on: the game offering its next level, a win signal of its own. A button
    showing all along ("Next Level" always active beside the board) is not one, nor one that only skips
    (a game may offer "Skip" on a level it did not take).

    frame, before : (H, W, 3) uint8 ndarray, BGR, the same part of the screen after and before drawing
    """
    old = find_push_buttons(before, board)
    fresh = [box for box in find_push_buttons(frame, board) if not any(_same_box(box, was) for was in old)]
    fresh = fresh[:limit]
    labels = ocr.read_lines([_inside(frame, box) for box in fresh])
    moving = [
        (box, label)
        for box, label in zip(fresh, labels, strict=True)
        if box_score(frame, box, label, board) and not skips_only(label)
    ]
    # A label already legible in the same place before is no new button: a link or a label showing all
    # along ("Next Level" as plain text), framed for a moment by something drifting behind it.
    was = ocr.read_lines([_inside(before, box) for box, _ in moving])
    return [
        Control(*box, label, "push-button")
        for (box, label), earlier in zip(moving, was, strict=True)
        if _letters(earlier) != _letters(label)
    ]


def modal_control(
    frame: np.ndarray, scrim: Scrim, before: np.ndarray, refused: list[str] | None = None
) -> Control | None:
    """The control that moves on from a modal dialog: the buttons on its card (on `scrim`'s panel, in
    front of what dims the page, and not on `before`) by their labels, in any language: words that say
    to move on, else an arrow or check mark the label ends with (told by shape too), the most saturated
    first; when no button has a word flowbot knows, the one primary button (filled with a colour, the
    others not). Never a button whose words restart, go back, solve or open a menu (added to
    `refused`). Which of these it was is the caller's to weigh (moves_on_in_words, skips_only).

    frame : (H, W, 3) uint8 ndarray, BGR, the frame the scrim was found on
    before : (H, W, 3) uint8 ndarray, BGR, the same part of the screen before drawing
    """
    old = find_push_buttons(before) if before.shape == frame.shape else []
    boxes = [box for box in find_push_buttons(frame) if _on_card(frame, before, scrim, box, old)]
    boxes = _innermost(boxes)[:MAX_LABELS]
    labels = ocr.read_lines([_inside(frame, box) for box in boxes])
    ranked, known = [], False
    for box, label in zip(boxes, labels, strict=True):
        if is_forbidden(label):
            known = True
            if refused is not None:
                refused.append(label)
            continue
        known = known or bool(label_score(label))
        score = button_score(_inside(frame, box), label)
        ranked.append((score, _saturation(frame, box), box, label))
    moving = [entry for entry in ranked if entry[0]]
    if moving:
        _, _, box, label = max(moving, key=lambda entry: entry[:2])
        return Control(*box, label, "push-button")
    primary = _primary(ranked)
    if primary is None or known:
        return None
    return Control(*primary[2], primary[3], "push-button")


def _on_card(
    frame: np.ndarray, before: np.ndarray, scrim: Scrim, box: tuple[int, int, int, int], old: list
) -> bool:
    """True for a box on a modal's card: within the scrim's panel, in front of it, and not as on `before`."""
    # Whatever the dimming never reached shows colours it cannot show too (a browser's tabs and toolbar,
    # another program's window): far from the card, or a box `before` had (`old`) looking the same.
    left, top, width, height = box
    panel_left, panel_top, panel_width, panel_height = scrim.panel
    slack = max(8, height // 2)  # the panel's edges are found on a shrunk frame
    inside = (
        left >= panel_left - slack and top >= panel_top - slack
        and left + width <= panel_left + panel_width + slack
        and top + height <= panel_top + panel_height + slack
    )  # fmt: skip
    if not inside or not scrim.in_front(frame, box):
        return False
    if not any(_same_box(box, was) for was in old):
        return True
    now = cv2.cvtColor(frame[top : top + height, left : left + width], cv2.COLOR_BGR2GRAY)
    then = cv2.cvtColor(before[top : top + height, left : left + width], cv2.COLOR_BGR2GRAY)
    return float(np.mean(cv2.absdiff(now, then))) >= SAME_LOOK


def _primary(ranked: list) -> tuple | None:
    """Of (score, saturation, box, label) entries, the one filled with a colour while the others are
    not (PRIMARY_SATURATION, PRIMARY_LEAD), or None."""
    if not ranked:
        return None
    ordered = sorted(ranked, key=lambda entry: -entry[1])
    first = ordered[0]
    if first[1] < PRIMARY_SATURATION:
        return None
    if len(ordered) > 1 and first[1] < PRIMARY_LEAD * ordered[1][1]:
        return None
    return first


def _saturation(frame: np.ndarray, box: tuple[int, int, int, int]) -> float:
    """The mean saturation (HSV, 0-255) of a box's inside: high for a button filled with a colour."""
    inside = _inside(frame, box)
    if inside.size == 0:
        return 0.0
    return float(cv2.cvtColor(inside, cv2.COLOR_BGR2HSV)[:, :, 1].mean())


def _innermost(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The boxes that hold no other box: buttons, not the dialog's card around them."""
    return [
        box
        for box in boxes
        if not any(
            other is not box and box[0] <= other[0] and box[1] <= other[1]
            and other[0] + other[2] <= box[0] + box[2] and other[1] + other[3] <= box[1] + box[3]
            for other in boxes
        )
    ]  # fmt: skip


def new_move_on_words(frame: np.ndarray, before: np.ndarray, limit: int = 4) -> list[Control]:
    """Bare words on `frame` that move on ("Continue", "Next level"; never "Levels", "Replay" or
    "Skip") and were not legible at about the same place on `before`: a win screen in the board's
    place offering the next level with no box around its words, a win signal of its own. Read on the
    whole frame, then band by band at several sizes (a big title swallows small words, and small words
    on a big frame are too small to read whole); a word showing all along is not one.

    frame, before : (H, W, 3) uint8 ndarray, BGR, the same part of the screen after and before drawing
    """
    if frame.shape != before.shape:
        return []
    fresh = _fresh_links(frame, before, ocr.read_words)
    if not fresh:
        fresh = _fresh_links(frame, before, ocr.read_words_in_bands)
    return fresh[:limit]


def _fresh_links(frame: np.ndarray, before: np.ndarray, read) -> list[Control]:
    """The move-on words `read` finds on `frame` that it does not find, with the same letters and
    about the same place, on `before`; best first. Words that only skip are none of them."""
    links = [link for link in _links_in(read(frame)) if not skips_only(link.label)]
    if not links:
        return []
    earlier = _links_in(read(before))
    slack = max(8, max((link.height for link in links), default=0))
    fresh = [
        link
        for link in links
        if not any(
            _letters(old.label) == _letters(link.label) and _same_box(_box(old), _box(link), slack)
            for old in earlier
        )
    ]
    return sorted(fresh, key=lambda link: -label_score(link.label))


def _letters(label: str) -> str:
    """A label's letters and digits, lower case: two reads of one label compare equal."""
    return re.sub(r"[^a-z0-9]", "", label.lower())


def _same_box(a: tuple[int, int, int, int], b: tuple[int, int, int, int], slack: int = 8) -> bool:
    """True when two boxes are about the same place and size."""
    return all(abs(p - q) <= slack for p, q in zip(a, b, strict=True))


def find_push_buttons(frame: np.ndarray, board: CellMap | None = None) -> list[tuple[int, int, int, int]]:
    """Boxes that look like buttons: closed rectangles (outlined or filled) wider than tall, holding
    something (a label), not the board's cells; nearest the board first.

    frame : (H, W, 3) uint8 ndarray, BGR
    returns : (left, top, width, height) boxes in frame pixels
    """
    height, width = frame.shape[:2]
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(grey, 20, 60)
    edges = cv2.dilate(edges, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    boxes = []
    for contour in contours:
        left, top, w, h = cv2.boundingRect(contour)
        if not (MIN_HEIGHT <= h <= min(MAX_HEIGHT, 0.3 * height)) or w > 0.95 * width:
            continue
        if not MIN_ASPECT <= w / h <= MAX_ASPECT:
            continue
        # Rectangular: the outline fills its bounding box (rounded corners lose a little).
        if cv2.contourArea(cv2.convexHull(contour)) < 0.8 * w * h:
            continue
        if not _holds_something(edges, (left, top, w, h)):
            continue
        boxes.append((left, top, w, h))
    boxes = _outermost(boxes)
    return sorted(boxes, key=lambda box: _distance(box, board))


def _holds_something(edges: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    """True when the middle of a box has some edges (a label or an icon) but is not all edges."""
    left, top, w, h = box
    inner = edges[top + h // 5 : top + h - h // 5, left + w // 10 : left + w - w // 10]
    if inner.size == 0:
        return False
    share = float(np.count_nonzero(inner)) / inner.size
    return 0.02 <= share <= 0.6


def _outermost(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Drop a box nearly the same as a bigger one around it (the two sides of one outline)."""
    kept: list[tuple[int, int, int, int]] = []
    for box in sorted(boxes, key=lambda b: -b[2] * b[3]):
        left, top, w, h = box
        twin = any(
            abs(left - k[0]) <= 8 and abs(top - k[1]) <= 8
            and abs(left + w - k[0] - k[2]) <= 8 and abs(top + h - k[1] - k[3]) <= 8
            for k in kept
        )  # fmt: skip
        if not twin:
            kept.append(box)
    return kept


def _text_links(frame: np.ndarray) -> list[Control]:
    """Words (or two-word phrases) on the frame whose text moves on: links and unboxed labels. When
    the whole frame read at once shows none, each band of text is read on its own (a big "YOU WIN!"
    can swallow the small "NEXT" under it)."""
    return _links_in(ocr.read_words(frame)) or _links_in(ocr.read_words_in_bands(frame))


def _links_in(words: list[ocr.Word]) -> list[Control]:
    """The words (or two-word phrases) whose text moves on, as controls."""
    links = []
    for index, word in enumerate(words):
        # A phrase: this word and the next on the same line, a space apart ("Next" "Level", "New"
        # "puzzle"); bare words far apart on a line are controls of their own ("Continue   Levels").
        following = words[index + 1] if index + 1 < len(words) else None
        same_line = (
            following is not None
            and abs(following.top - word.top) < word.height
            and following.left - (word.left + word.width) <= PHRASE_GAP * max(word.height, following.height)
        )
        phrase = f"{word.text} {following.text}" if same_line and following else word.text
        if label_score(phrase) and label_score(word.text):
            right = following.left + following.width if same_line and following else word.left + word.width
            bottom = max(word.top + word.height, following.top + following.height if same_line else 0)
            links.append(Control(word.left, word.top, right - word.left, bottom - word.top, phrase, "text"))
    return links


def _inside(frame: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """A box's inside, short of its outline."""
    left, top, w, h = box
    inset = _inset(w, h)
    return frame[top + inset : top + h - inset, left + inset : left + w - inset]


def _inset(width: int, height: int) -> int:
    """How far inside a box of this size its outline ends (see _inside)."""
    return max(2, min(width, height) // 8)


def _box(control: Control) -> tuple[int, int, int, int]:
    """A control's box as (left, top, width, height)."""
    return control.left, control.top, control.width, control.height


def _distance(box: tuple[int, int, int, int], board: CellMap | None) -> float:
    """How far a box's centre is from the board's centre (0 with no board known)."""
    if board is None:
        return 0.0
    x, y = box[0] + box[2] / 2, box[1] + box[3] / 2
    left, top, right, bottom = board.bounds
    middle_x, middle_y = (left + right) / 2, (top + bottom) / 2
    return float(np.hypot(x - middle_x, y - middle_y))


def _new_or_later(control: Control, seen: list[Control], later: list[Control]) -> Iterator[Control]:
    """Yield a control as _new does, unless it only skips: kept in `later`, tried after every other."""
    if skips_only(control.label):
        later.append(control)
        return
    yield from _new(control, seen)


def _new(control: Control, seen: list[Control]) -> Iterator[Control]:
    """Yield a control unless its centre lies inside one already yielded of about its size (one button
    found two ways). A button inside a much larger box is its own control: a dialog's area taken for a
    button must not hide the "Next Level" button within it."""
    x, y = control.center
    area = control.width * control.height
    if not any(
        k.left <= x <= k.left + k.width and k.top <= y <= k.top + k.height and k.width * k.height <= 2 * area
        for k in seen
    ):
        seen.append(control)
        yield control
