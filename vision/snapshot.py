"""What the watcher hands on, and to what: a :class:`Snapshot` of the table at the end of a turn,
the watcher's :class:`WatcherStatus`, and the :class:`Sink` protocol that receives them.

Two sinks implement the protocol: :class:`vision.http_sink.HttpSink` posts to a scoresheet
server over HTTP (``rummiref watch``, a camera computer of its own), and the scoresheet's
in-process sink (``rummiref serve --camera`` / ``--demo``) writes through the same path as the
server's HTTP routes.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import uuid
from dataclasses import dataclass, field
from typing import Optional, Protocol

import numpy as np

from .reading import Reading

#: Pictures are sent with their longer side at most this many pixels, as JPEG of this quality.
PICTURE_MAX_SIDE = 1280
PICTURE_QUALITY = 80


class Reason(str, enum.Enum):
    """Why the watcher took a snapshot."""

    START = "start"        #: the first table it saw
    STILL = "still"        #: the table went still, changed, with no hand over it
    END_TURN = "end-turn"  #: a player tapped "End turn" on a phone

    def __str__(self) -> str:
        return self.value


def new_key() -> str:
    """An idempotency key: made once per snapshot and kept across every retry of it."""
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Snapshot:
    """The table at the end of a turn, as agreed by ``frames`` frames. ``picture``: the frame
    (BGR) the reading's outlines refer to; ``end_turn``: the phone's "End turn" tap this
    answers; ``still_for``: seconds from the table going still to the snapshot being handed
    on; ``key``: its idempotency key (a retry of the same snapshot counts once)."""

    reading: Reading
    picture: Optional[np.ndarray]
    reason: Reason
    end_turn: Optional[str] = None
    still_for: float = 0.0
    frames: int = 1
    t: float = 0.0
    key: str = field(default_factory=new_key)

    @property
    def table(self) -> str:
        return str(self.reading.table)

    def jpeg(self, max_side: int = PICTURE_MAX_SIDE, quality: int = PICTURE_QUALITY
             ) -> tuple[Optional[bytes], Reading]:
        """The picture as a JPEG with its longer side at most ``max_side``, and the reading
        scaled to it (None and the reading as it is without a picture)."""
        if self.picture is None:
            return None, self.reading
        data, scale = encode_jpeg(self.picture, quality, max_side)
        reading = self.reading.scaled(scale) if scale != 1.0 else self.reading
        h, w = self.picture.shape[:2]
        return data, dataclasses.replace(reading, image_size=(round(w * scale), round(h * scale)))

    def to_json(self) -> dict:
        """The body ``POST /api/games/<id>/live/snapshots`` takes."""
        data, reading = self.jpeg()
        return {"reading": reading.to_json(), "reason": self.reason.value,
                "end_turn": self.end_turn, "still_for": round(self.still_for, 3),
                "frames": self.frames,
                "picture": base64.b64encode(data).decode("ascii") if data else None}


@dataclass(frozen=True)
class WatcherStatus:
    """The watcher's state, for the phones: the camera's state (``vision.sources.STATES``)
    and detail, and whether a hand is over the table, the table is still."""

    state: str
    detail: str = ""
    source: str = ""
    hand: bool = False
    still: bool = False
    frames: Optional[int] = None
    dropped: Optional[int] = None

    def to_json(self) -> dict:
        return {"state": self.state, "detail": self.detail, "source": self.source,
                "hand": self.hand, "still": self.still, "frames": self.frames,
                "dropped": self.dropped}


class Sink(Protocol):
    """Where a watcher's snapshots and status go."""

    def snapshot(self, snap: Snapshot) -> None:
        """Take a snapshot; a sink that cannot deliver it now keeps it and tries again (with
        the same key)."""

    def status(self, status: WatcherStatus) -> None:
        """Take the watcher's state (sent when it changes)."""

    def end_turn_requested(self) -> Optional[str]:
        """The pending "End turn" tap of a phone (a short token), if any."""


def encode_jpeg(image: np.ndarray, quality: int = PICTURE_QUALITY,
                max_side: int = PICTURE_MAX_SIDE) -> tuple[bytes, float]:
    """(JPEG bytes, the scale applied to fit ``max_side``)."""
    import cv2

    h, w = image.shape[:2]
    scale = 1.0
    if max(h, w) > max_side:
        scale = max_side / float(max(h, w))
        image = cv2.resize(image, (round(w * scale), round(h * scale)),
                           interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("could not encode the picture")
    return buf.tobytes(), scale
