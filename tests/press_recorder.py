"""Every mouse button press on an X display, seen by the server (XRecord), with the window under it.

    with PressRecorder() as recorder:      # on the display DISPLAY names (or display=":91")
        ...                                # a bot plays
    for press in recorder.presses: ...

The recorder watches the server's own device events, so it sees every press whoever makes it
(xdotool, pyautogui, XTest), not only the presses of one program. For each press it keeps the
screen point, the top-level window under the point with its WM_CLASS and _NET_WM_PID, how far the
pointer travelled before the button went up (a click or a drag), and a crop of the screen around
the point taken just before the press, so that the label of the control pressed can be read later
(`press_label`). Importable by any live test; it needs python-xlib (pyautogui's X backend) and mss.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass, field

import numpy as np

# Half the size of the screen area kept around each press: room for a button label on either side.
CROP_HALF_WIDTH, CROP_HALF_HEIGHT = 180, 45
# A press whose pointer moved less than this before the release is a click, not a drag.
CLICK_TRAVEL_PX = 4
# Control labels that skip a level, start it again, or have the game solve it.
SKIP_WORDS = re.compile(r"skip|restart|reset|auto\s*-?\s*solve|solution|replay|retry", re.IGNORECASE)
# Labels that move on to another level: a skip unless the game has judged the level won.
MOVE_ON_WORDS = re.compile(r"next|continue|prev", re.IGNORECASE)


@dataclass
class Press:
    """One button press: where, when, on which window, and what the pointer did until the release."""

    time: float  # time.monotonic() when the server's event reached the recorder
    x: int
    y: int
    button: int
    window: int  # the top-level window under the point; 0 on the bare root window
    wm_class: tuple[str, ...] = ()
    pid: int | None = None
    travel: float = 0.0  # the farthest the pointer got from (x, y) before the release
    released: float | None = None
    crop: np.ndarray | None = field(default=None, repr=False)  # (h, w, 3) uint8 BGR around the point
    crop_origin: tuple[int, int] = (0, 0)  # the crop's top-left corner on the screen, x, y
    display: str = ""  # the X display it was made on (window ids repeat from one server to the next)
    session: int | None = None  # the session id of the window's process (a harness starts a game in one)
    frame: np.ndarray | None = field(default=None, repr=False)  # the whole screen before a click (kept for
    # clicks only: a drag's is let go on release, so that a long run does not hold a frame per line)

    @property
    def is_click(self) -> bool:
        """A press released (or still held) near where it went down: a control, not a drawn line."""
        return self.travel < CLICK_TRAVEL_PX

    def as_dict(self) -> dict:
        """The press as JSON-ready values (no crop)."""
        return {
            "time": round(self.time, 3), "x": self.x, "y": self.y, "button": self.button,
            "window": self.window, "wm_class": list(self.wm_class), "pid": self.pid,
            "travel": round(self.travel, 1), "click": self.is_click,
        }  # fmt: skip


class PressRecorder:
    """Records every button press on the display DISPLAY names, from start() (or `with`) to stop().

    `crops=False` keeps no screen around the presses (no labels to read) and grabs no frames: only
    the windows, which is all a check of where presses land needs, at a fraction of the cost.
    `travel=False` leaves the pointer's motions unrecorded (every press then reads as a click): a
    drag's hundreds of motions cost the server and this process more than its press.
    """

    def __init__(
        self,
        frames_per_second: float = 5.0,
        *,
        display: str | None = None,
        crops: bool = True,
        travel: bool = True,
    ) -> None:
        self.presses: list[Press] = []
        self.display = display or os.environ["DISPLAY"]
        self.crops = crops
        self.travel = travel
        self.lost = False  # True once the display went away under the recorder (its server ended)
        self._frame_interval = 1.0 / frames_per_second
        self._frame: np.ndarray | None = None  # the latest whole-screen frame, BGR
        self._windows: list = []  # the latest top_level_windows(), topmost first
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._held: Press | None = None
        self._control = None
        self._context = None
        self._error: BaseException | None = None
        self._ready = threading.Event()  # set by the recording thread once the server records
        self._sampled = threading.Event()  # set by the sampler once the first frame and windows are kept

    @property
    def running(self) -> bool:
        """True from start() to stop()."""
        return bool(self._threads) and not self._stopping.is_set()

    def __enter__(self) -> PressRecorder:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Open the recording context and start the recording and frame-sampling threads."""
        from Xlib.ext import record

        self._control = _connect(self.display)
        if not self._control.has_extension("RECORD"):
            raise RuntimeError(f"the X server on {self.display} has no RECORD extension")
        from Xlib import X

        self._context = self._control.record_create_context(
            0,
            [record.AllClients],
            [{
                "core_requests": (0, 0), "core_replies": (0, 0),
                "ext_requests": (0, 0, 0, 0), "ext_replies": (0, 0, 0, 0),
                "delivered_events": (0, 0),
                "device_events": (X.ButtonPress, X.MotionNotify if self.travel else X.ButtonRelease),
                "errors": (0, 0), "client_started": False, "client_died": False,
            }],
        )  # fmt: skip
        self._control.sync()  # the context must exist on the server before another connection enables it
        self._threads = [
            threading.Thread(target=self._record, name="press-recorder", daemon=True),
            threading.Thread(target=self._sample_frames, name="press-frames", daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        # The server answers enable_context with a first reply, StartOfData, once it records; and a
        # press right after start needs the first frame for its crop (its label) and the windows.
        self._ready.wait(5)
        self._sampled.wait(5)

    def stop(self) -> None:
        """Stop recording; the presses stay in `presses`. A display that went away first ends the
        recording too (`lost`), and is not an error: its presses up to then are kept."""
        from flowbot.display import connection_broken, display_alive

        self._stopping.set()
        # A call on the connection to a server that has gone can hang for ever: ask the socket first.
        self.lost = self.lost or not display_alive(self.display, timeout=0.5)
        try:
            if self._control is not None and self._context is not None and not self.lost:
                self._control.record_disable_context(self._context)
                self._control.sync()
            for thread in self._threads:
                thread.join(5)
            if self._control is not None and self._context is not None and not self.lost:
                self._control.record_free_context(self._context)
        except Exception as error:
            if not connection_broken(error):
                raise
            self.lost = True
        finally:
            if self._control is not None:
                _close(self._control)
            self._control = self._context = None
        if self._error is not None and not (self.lost or connection_broken(self._error)):
            raise RuntimeError(f"the press recorder failed: {self._error}") from self._error

    def _record(self) -> None:
        """The recording thread: a connection of its own, blocked in enable_context until stop()."""
        try:
            recording = _connect(self.display)
            self._lookup = _connect(self.display)  # window queries, from this thread only
            recording.record_enable_context(self._context, self._on_reply)
            _close(recording)
            _close(self._lookup)
        except BaseException as error:  # reported by stop(), in the caller's thread
            self._error = error
            self._ready.set()

    def _on_reply(self, reply) -> None:
        """Parse the device events of one intercepted reply."""
        from Xlib import X
        from Xlib.ext import record
        from Xlib.protocol import rq

        if reply.category == record.StartOfData:
            self._ready.set()
            return
        if reply.category != record.FromServer or reply.client_swapped or not reply.data:
            return
        data = reply.data
        while len(data) >= 32:
            event, data = rq.EventField(None).parse_binary_value(data, self._lookup.display, None, None)
            now = time.monotonic()
            if event.type == X.ButtonPress and event.detail in (1, 2, 3):
                self._on_press(now, event.root_x, event.root_y, event.detail)
            elif event.type == X.ButtonRelease and self._held is not None:
                self._held.released = now
                if not self._held.is_click:
                    self._held.frame = None
                self._held = None
            elif event.type == X.MotionNotify and self._held is not None:
                held = self._held
                held.travel = max(held.travel, float(np.hypot(event.root_x - held.x, event.root_y - held.y)))

    def _on_press(self, now: float, x: int, y: int, button: int) -> None:
        """Keep one press with the window under it and the screen around it just before."""
        window, wm_class, pid = window_at(self._lookup, x, y)
        with self._lock:
            frame, windows = self._frame, self._windows
        if window == 0:
            # The server records a press before it delivers it, and a button that closes its window
            # (a dialog's OK) may be gone by the time it is looked up: the last look at the windows says.
            window, wm_class, pid = next(
                ((top, cls, owner) for top, (left, up, width, height), cls, owner in windows
                 if left <= x < left + width and up <= y < up + height),
                (0, (), None),
            )  # fmt: skip
        press = Press(now, x, y, button, window, wm_class, pid, display=self.display, session=_session(pid))
        if frame is not None:
            left, top = max(0, x - CROP_HALF_WIDTH), max(0, y - CROP_HALF_HEIGHT)
            press.crop = frame[top : y + CROP_HALF_HEIGHT, left : x + CROP_HALF_WIDTH].copy()
            press.crop_origin = (left, top)
            press.frame = frame  # the sampler replaces frames and never writes into one: no copy needed
        self.presses.append(press)
        self._held = press

    def _sample_frames(self) -> None:
        """Keep the latest frame of the whole screen (with crops) and the latest list of windows on it, a
        few times a second, for the crops of presses and the windows of presses whose window closed at
        once. Ends quietly when the display goes away."""
        import contextlib

        try:
            windows_display = _connect(self.display)
        except Exception:  # the display went before the sampler started: nothing to sample
            self._sampled.set()
            return
        with contextlib.ExitStack() as stack:
            grabber = None
            if self.crops:
                import mss

                grabber = stack.enter_context(mss.MSS(display=self.display))
            try:
                while not self._stopping.is_set():
                    shot = (
                        None if grabber is None else np.asarray(grabber.grab(grabber.monitors[0]))[:, :, :3]
                    )
                    windows = top_level_windows(windows_display)
                    with self._lock:
                        self._frame, self._windows = shot, windows
                    self._sampled.set()
                    self._stopping.wait(self._frame_interval)
            except Exception:  # the server ended (a test that kills it): the presses so far stay
                self.lost = True
        self._sampled.set()  # a start() waiting for a first sample that never came goes on
        _close(windows_display)


def _session(pid: int | None) -> int | None:
    """The session id of a process, or None (no pid, or the process is gone)."""
    if pid is None:
        return None
    try:
        return os.getsid(pid)
    except OSError:
        return None


def _close(connection) -> None:
    """Close a python-xlib connection; one to a server that has gone (closing flushes) is let go."""
    from flowbot.display import connection_broken

    try:
        connection.close()
    except Exception as error:
        if not connection_broken(error):
            raise


def _connect(name: str):
    """A python-xlib connection to the display `name` (quiet about a missing Xauthority file)."""
    from Xlib.display import Display

    from flowbot.display import quiet_x_client

    with quiet_x_client():
        return Display(name)


def window_at(display, x: int, y: int) -> tuple[int, tuple[str, ...], int | None]:
    """The top-level window at screen point (x, y), its WM_CLASS and _NET_WM_PID (0 on the root)."""
    from Xlib import error

    root = display.screen().root
    try:
        child = root.translate_coords(root, x, y).child
    except error.XError:
        return 0, (), None
    if not child:
        return 0, (), None
    top = child.id
    client = _client_window(display, child)
    if client is None:
        return top, (), None
    try:
        wm_class = tuple(client.get_wm_class() or ())
        prop = client.get_full_property(display.intern_atom("_NET_WM_PID"), 0)
    except error.XError:
        return top, (), None
    pid = int(prop.value[0]) if prop is not None and len(prop.value) else None
    return top, wm_class, pid


def top_level_windows(display) -> list[tuple[int, tuple[int, int, int, int], tuple[str, ...], int | None]]:
    """The mapped top-level windows, topmost first: id, (x, y, width, height), WM_CLASS, _NET_WM_PID."""
    from Xlib import X, error

    found = []
    try:
        children = display.screen().root.query_tree().children
    except error.XError:
        return found
    for child in reversed(children):  # query_tree lists the stack bottom first
        try:
            if child.get_attributes().map_state != X.IsViewable:
                continue
            box = child.get_geometry()
        except error.XError:
            continue
        client = _client_window(display, child)
        wm_class, pid = (), None
        if client is not None:
            try:
                wm_class = tuple(client.get_wm_class() or ())
                prop = client.get_full_property(display.intern_atom("_NET_WM_PID"), 0)
                pid = int(prop.value[0]) if prop is not None and len(prop.value) else None
            except error.XError:
                pass
        found.append((child.id, (box.x, box.y, box.width, box.height), wm_class, pid))
    return found


def _client_window(display, window, depth: int = 0):
    """The window itself or the first descendant that carries WM_CLASS (a window manager's frame holds
    the client inside it)."""
    from Xlib import error

    try:
        if window.get_wm_class():
            return window
        if depth >= 3:
            return None
        for child in window.query_tree().children:
            found = _client_window(display, child, depth + 1)
            if found is not None:
                return found
    except error.XError:
        return None
    return None


def press_label(press: Press) -> str:
    """The label of the control pressed, read by tesseract from the screen just before the press: the
    text of the button face under the point when there is one (a patch of one colour smaller than the
    crop), else the text line nearest the point ('' when there is none, or no OCR)."""
    if press.crop is None or press.crop.size == 0:
        return ""
    try:
        import pytesseract
    except ImportError:
        return ""
    point = (press.x - press.crop_origin[0], press.y - press.crop_origin[1])
    face = _button_face(press.crop, *point)
    if face is not None:
        text = _read_button(pytesseract, face).strip(" .|:;,'\"-_")
        if re.search(r"[A-Za-z]{2}", text):
            return text
    return _nearest_line(pytesseract, press.crop, *point)


def _button_face(crop: np.ndarray, x: int, y: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The button under (x, y) in a crop: its pixels and its face colour (the commonest colour near the
    point: the label's strokes are the minority), or None when the colour spreads over the whole crop
    (a bare background, not a button)."""
    import cv2

    patch = crop[max(0, y - 6) : y + 7, max(0, x - 20) : x + 21].reshape(-1, 3).astype(int)
    keys, counts = np.unique(patch // 8, axis=0, return_counts=True)
    face = patch[(patch // 8 == keys[counts.argmax()]).all(axis=1)].mean(axis=0)
    alike = (np.abs(crop.astype(int) - face).sum(axis=2) < 40).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(alike, connectivity=4)
    # The face is the part most of the point's neighbourhood belongs to (the point may be on a stroke).
    near = labels[max(0, y - 6) : y + 7, max(0, x - 20) : x + 21]
    parts, counts = np.unique(near[near > 0], return_counts=True)
    if not len(parts):
        return None
    left, top, width, height, _ = stats[parts[counts.argmax()]]
    if width >= crop.shape[1] - 2 or height >= crop.shape[0] - 2:
        return None
    return crop[top : top + height, left : left + width], face


def _read_button(pytesseract, button: tuple[np.ndarray, np.ndarray]) -> str:
    """The one line of text on a button face: what differs from the face colour is ink."""
    import cv2

    pixels, face = button
    ink = (np.abs(pixels.astype(int) - face).sum(axis=2) > 90).astype(np.uint8) * 255
    image = cv2.resize(255 - ink, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    image = cv2.copyMakeBorder(image, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
    try:
        return pytesseract.image_to_string(image, config="--psm 7").strip()
    except pytesseract.TesseractError:
        return ""


def _nearest_line(pytesseract, crop: np.ndarray, x: int, y: int) -> str:
    """The text line of the crop nearest (x, y), within a button's height of it."""
    import cv2

    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    gray = cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    px, py = x * 2, y * 2
    best: tuple[float, str] | None = None
    # Light text on a dark background and dark text on a light one: read both ways, keep the nearest line.
    for image in (gray, 255 - gray):
        try:
            data = pytesseract.image_to_data(image, config="--psm 11", output_type=pytesseract.Output.DICT)
        except pytesseract.TesseractError:
            continue
        lines: dict[tuple[int, int, int], list[int]] = {}
        for i, word in enumerate(data["text"]):
            if word.strip() and float(data["conf"][i]) > 30:
                line = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
                lines.setdefault(line, []).append(i)
        for words in lines.values():
            left = min(data["left"][i] for i in words)
            right = max(data["left"][i] + data["width"][i] for i in words)
            top = min(data["top"][i] for i in words)
            bottom = max(data["top"][i] + data["height"][i] for i in words)
            distance = float(np.hypot(max(left - px, 0, px - right), max(top - py, 0, py - bottom)))
            text = " ".join(data["text"][i] for i in words)
            if best is None or distance < best[0]:
                best = (distance, text)
    # A line farther than a button's half-height from the point is text beside the press, not its label.
    if best is None or best[0] > 2 * 40:
        return ""
    return best[1]


def control_kind(label: str) -> str | None:
    """'skip' for a label that skips, restarts or auto-solves; 'move-on' for next/continue; else None."""
    if SKIP_WORDS.search(label):
        return "skip"
    if MOVE_ON_WORDS.search(label):
        return "move-on"
    return None
