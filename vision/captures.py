"""What a frame source opens: a capture that reads one image at a time (cv2.VideoCapture's shape).

Webcams and streams are OpenCV captures (:func:`video_capture`); a folder of photos is a
:class:`PhotoCapture`, any iterable of frames an :class:`IterCapture`. A finite capture ends by
raising :class:`EndOfSource`. :mod:`vision.sources` runs them in a grabber thread.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Iterator

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")


class Capture:
    """What a source opens: ``read() -> (ok, image)`` and ``release()`` (cv2.VideoCapture's)."""

    def read(self) -> tuple[bool, Any]:  # pragma: no cover - interface
        raise NotImplementedError

    def release(self) -> None:  # pragma: no cover - interface
        pass


class EndOfSource(Exception):
    """Raised by a capture's ``read`` when a finite source (file, folder) has ended."""


class IterCapture(Capture):
    def __init__(self, frames: Iterator[Any]):
        self._it = frames

    def read(self):
        try:
            return True, next(self._it)
        except StopIteration:
            raise EndOfSource("end of frames") from None


class PhotoCapture(Capture):
    """Each photo of a folder held for ``hold`` seconds of frames; with ``follow`` it waits
    for new photos (a phone uploading into the folder) instead of ending."""

    def __init__(self, folder: Path, hold_frames: int, follow: bool, poll: float = 0.5):
        self.folder = folder
        self.hold_frames = max(1, hold_frames)
        self.follow = follow
        self.poll = poll
        self.done: set[str] = set()
        self.current = None
        self.left = 0

    def _next_photo(self):
        from .imageio import WORK_MAX_SIDE, ImageError, open_image

        while True:
            names = sorted(p for p in os.listdir(self.folder)
                           if p.lower().endswith(IMAGE_SUFFIXES) and p not in self.done)
            for name in names:
                self.done.add(name)
                try:  # a photo that is not usable (corrupt, huge, not a photo) is skipped
                    return open_image(self.folder / name, max_side=WORK_MAX_SIDE).image
                except ImageError:
                    continue
            if not self.follow:
                return None
            time.sleep(self.poll)

    def read(self):
        if self.left <= 0:
            img = self._next_photo()
            if img is None:
                raise EndOfSource("no more photos")
            self.current, self.left = img, self.hold_frames
        self.left -= 1
        return True, self.current


def video_capture(target, timeout_ms: int = 5000):
    import cv2

    if isinstance(target, int):
        cap = cv2.VideoCapture(target)
    else:
        params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, timeout_ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC,
                  timeout_ms]
        try:
            cap = cv2.VideoCapture(target, cv2.CAP_FFMPEG, params)
        except Exception:
            cap = cv2.VideoCapture(target)
    if not cap.isOpened():
        cap.release()
        return None
    return cap
