"""Frame sources for the live referee: a webcam, a stream URL, a video file or a folder of photos.

A :class:`FrameSource` runs one grabber thread that reads frames as fast as the camera gives
them and keeps only the newest in a :class:`LatestFrame` buffer (one slot: a slow reader makes
the grabber overwrite, never queue). The source's state is one of

``connecting``   opening the camera or stream
``live``         frames arriving
``stalled``      opened, but no frame for ``stall_after`` seconds
``reconnecting`` waiting (exponential backoff) before opening again
``stopped``      stopped by :meth:`FrameSource.stop`, or a video/photo folder that has ended

A camera that drops out, a stream that stalls or fails to open is retried with exponential
backoff (``backoff_initial`` doubling up to ``backoff_max`` seconds) for ever, until stopped;
every state change is reported to ``on_state(state, detail)``.

Sources by ``open_source(spec)``: ``"0"`` (webcam index), ``"http://..."``/``"rtsp://..."``
(a phone running an IP-camera app), a video file, a folder of photos; the captures they open
are in :mod:`vision.captures`.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from .captures import (IMAGE_SUFFIXES, Capture, EndOfSource, IterCapture, PhotoCapture,
                       video_capture)

CONNECTING = "connecting"
LIVE = "live"
STALLED = "stalled"
RECONNECTING = "reconnecting"
STOPPED = "stopped"
STATES = (CONNECTING, LIVE, STALLED, RECONNECTING, STOPPED)



class SourceError(ValueError):
    """A source specification that cannot be used (the message says why)."""


@dataclass(frozen=True)
class Frame:
    image: Any          #: BGR numpy array
    seq: int            #: 1, 2, 3 ... in the order grabbed (gaps = frames dropped)
    t: float            #: time.monotonic() when grabbed


class LatestFrame:
    """A one-slot buffer: ``put`` replaces the frame held, ``get`` waits for a newer one.

    Memory is bounded by one frame whatever the rates; ``dropped`` counts frames replaced
    before anyone took them."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._frame: Optional[Frame] = None
        self._taken = 0
        self.put_count = 0
        self.dropped = 0
        self._closed = False

    def put(self, image: Any, t: Optional[float] = None) -> Frame:
        with self._cond:
            self.put_count += 1
            if self._frame is not None and self._frame.seq > self._taken:
                self.dropped += 1
            self._frame = Frame(image, self.put_count, time.monotonic() if t is None else t)
            self._cond.notify_all()
            return self._frame

    def get(self, after: int = 0, timeout: Optional[float] = None) -> Optional[Frame]:
        """The newest frame with ``seq > after``; None on timeout or when closed and empty."""
        with self._cond:
            ok = self._cond.wait_for(
                lambda: self._closed or (self._frame is not None and self._frame.seq > after),
                timeout)
            if not ok or self._frame is None or self._frame.seq <= after:
                return None
            self._taken = max(self._taken, self._frame.seq)
            return self._frame

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed


class FrameSource:
    """A frame source with its grabber thread, state machine and latest-frame buffer.

    ``opener()`` returns a :class:`Capture` (or raises / returns None when it cannot open).
    ``finite``: a video file or photo folder: its end stops the source instead of reconnecting.
    ``pace_fps``: for files, deliver frames at this rate (like a camera); None = as fast as read.
    """

    def __init__(self, opener: Callable[[], Optional[Capture]], *, name: str = "camera",
                 finite: bool = False, pace_fps: Optional[float] = None,
                 stall_after: float = 3.0, backoff_initial: float = 0.5,
                 backoff_max: float = 30.0,
                 on_state: Optional[Callable[[str, str], None]] = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self.opener = opener
        self.name = name
        self.finite = finite
        self.pace_fps = pace_fps
        self.stall_after = stall_after
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.on_state = on_state
        self.clock = clock
        self._sleep = sleep
        self.buffer = LatestFrame()
        self.state = CONNECTING
        self.detail = ""
        self.history: list[tuple[str, str]] = []
        self.reconnects = 0
        self.frames_read = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._last_frame_t: Optional[float] = None
        self._thread: Optional[threading.Thread] = None
        self._monitor: Optional[threading.Thread] = None

    def _set_state(self, state: str, detail: str = "") -> None:
        with self._lock:
            if state == self.state and detail == self.detail and self.history:
                return
            if self.state == STOPPED and self.history:
                return  # stopped is final
            self.state, self.detail = state, detail
            self.history.append((state, detail))
        if self.on_state is not None:
            try:
                self.on_state(state, detail)
            except Exception:  # a reporting failure must not kill the camera
                pass

    def status(self) -> dict:
        return {"state": self.state, "detail": self.detail, "source": self.name,
                "frames": self.frames_read, "dropped": self.buffer.dropped,
                "reconnects": self.reconnects}

    def start(self) -> "FrameSource":
        if self._thread is None:
            self._set_state(CONNECTING, f"opening {self.name}")
            self._thread = threading.Thread(target=self._run, name=f"rummiref-source-{self.name}",
                                            daemon=True)
            self._thread.start()
            self._monitor = threading.Thread(target=self._watch_stall, daemon=True,
                                             name="rummiref-source-monitor")
            self._monitor.start()
        return self

    def stop(self, detail: str = "stopped") -> None:
        self._stop.set()
        self._set_state(STOPPED, detail)
        self.buffer.close()

    def join(self, timeout: Optional[float] = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def stopped(self) -> bool:
        return self.state == STOPPED

    def _wait(self, seconds: float) -> bool:
        """Sleep unless stopped; True if stopped meanwhile."""
        if self._sleep is time.sleep:
            return self._stop.wait(seconds)
        self._sleep(seconds)
        return self._stop.is_set()

    def _watch_stall(self) -> None:
        while not self._stop.wait(min(0.25, self.stall_after / 4)):
            last = self._last_frame_t
            if self.state == LIVE and last is not None and self.clock() - last > self.stall_after:
                self._set_state(STALLED, f"no frame from {self.name} for "
                                         f"{self.clock() - last:.0f} s")

    def _run(self) -> None:
        delay = self.backoff_initial
        while not self._stop.is_set():
            self._set_state(CONNECTING, f"opening {self.name}")
            cap = None
            try:
                cap = self.opener()
            except Exception as e:  # noqa: BLE001 - any failure to open means "retry"
                err = str(e) or type(e).__name__
            else:
                err = "" if cap is not None else f"could not open {self.name}"
            if cap is None:
                if self.finite:
                    self.stop(f"cannot read {self.name}: {err}")
                    return
                self.reconnects += 1
                self._set_state(RECONNECTING, f"{err}; retrying in {delay:.3g} s")
                if self._wait(delay):
                    return
                delay = min(delay * 2, self.backoff_max)
                continue
            got_any = False
            ended = None
            period = 1.0 / self.pace_fps if self.pace_fps else 0.0
            next_t = self.clock()
            try:
                while not self._stop.is_set():
                    try:
                        ok, image = cap.read()
                    except EndOfSource as e:
                        ended = str(e) or "end of source"
                        break
                    if not ok or image is None:
                        if self.finite:
                            ended = "end of video"
                        break
                    now = self.clock()
                    self._last_frame_t = now
                    self.frames_read += 1
                    if not got_any:
                        got_any = True
                        delay = self.backoff_initial  # a good connection resets the backoff
                    if self.state != LIVE:
                        self._set_state(LIVE, f"{self.name}")
                    self.buffer.put(image, now)
                    if period:
                        next_t += period
                        pause = next_t - self.clock()
                        if pause > 0:
                            if self._wait(pause):
                                break
                        else:
                            next_t = self.clock()
            finally:
                try:
                    cap.release()
                except Exception:
                    pass
            if self._stop.is_set():
                return
            if self.finite:
                self.stop(ended or "end of video")
                return
            self.reconnects += 1
            self._set_state(RECONNECTING, f"{self.name} dropped out; retrying in {delay:.3g} s")
            if self._wait(delay):
                return
            delay = min(delay * 2, self.backoff_max)


def iter_source(frames: Iterable[Any], *, fps: Optional[float] = 30.0, name: str = "frames",
                **kw) -> FrameSource:
    """Frames from any iterable (generated frames, tests, the demo), paced at ``fps``."""
    it = iter(frames)
    return FrameSource(lambda: IterCapture(it), name=name, finite=True, pace_fps=fps, **kw)


def open_source(spec: "str | int", *, fps: float = 30.0, photo_hold: float = 1.5,
                follow: bool = False, realtime: bool = True, **kw) -> FrameSource:
    """A :class:`FrameSource` for ``spec``: a webcam index (``0``), a stream URL, a video file,
    or a folder of photos (each held ``photo_hold`` seconds at ``fps``). ``realtime``: files
    are played at their own frame rate (as a camera would deliver them)."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdecimal()):
        index = int(spec)
        return FrameSource(lambda: video_capture(index), name=f"webcam {index}", **kw)
    spec = str(spec).strip()
    if not spec:
        raise SourceError("give a camera: a webcam index (0), a stream URL, a video file or a "
                          "folder of photos")
    if "://" in spec:
        scheme = spec.split("://", 1)[0].lower()
        if scheme not in ("http", "https", "rtsp", "rtmp", "udp", "tcp"):
            raise SourceError(f"unsupported stream address {spec!r}: use http(s):// or rtsp://")
        return FrameSource(lambda: video_capture(spec), name=_redact(spec), **kw)
    path = Path(spec).expanduser()
    if path.is_dir():
        hold = max(1, round(photo_hold * fps))
        if not follow and not any(p.suffix.lower() in IMAGE_SUFFIXES for p in path.iterdir()):
            raise SourceError(f"{spec}: the folder holds no photos ({', '.join(IMAGE_SUFFIXES)})")
        return FrameSource(lambda: PhotoCapture(path, hold, follow), name=f"photos in {path.name}",
                           finite=not follow, pace_fps=fps if realtime else None, **kw)
    if path.is_file():
        def opener():
            cap = video_capture(str(path))
            if cap is None:
                raise SourceError(f"{path.name} is not a video OpenCV can read")
            return cap

        video_fps = fps
        if realtime:
            import cv2

            probe = cv2.VideoCapture(str(path))
            got = probe.get(cv2.CAP_PROP_FPS) if probe.isOpened() else 0
            probe.release()
            if got and 1 <= got <= 240:
                video_fps = got
        return FrameSource(opener, name=path.name, finite=True,
                           pace_fps=video_fps if realtime else None, **kw)
    raise SourceError(f"{spec}: no such file or folder (a camera is a webcam index like 0, a "
                      f"stream URL, a video file or a folder of photos)")


def _redact(url: str) -> str:
    """A stream URL without its password, for showing on the phones."""
    if "@" in url.split("://", 1)[1].split("/", 1)[0]:
        scheme, rest = url.split("://", 1)
        host = rest.split("@", 1)[1]
        return f"{scheme}://***@{host}"
    return url
