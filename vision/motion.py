"""Motion and hands: is the table still, with no hand over it?

Each sampled frame is shrunk to a small grey image (:func:`shrink`: 160 px wide, blurred); the
motion is the fraction of pixels that changed by more than ``pixel_delta`` since the last
sample. :class:`HandDetector` looks for a large skin-coloured blob touching the edge of the
picture (an arm reaching in), and for a large change against the last still table that touches
the edge and does not settle (a sleeve). :class:`TurnDetector` says when ``still_samples``
samples in a row were still with no hand: a hand resting on the table keeps the turn open, as
the tiles under it would otherwise be read as taken.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

SMALL_WIDTH = 160


def shrink(image: np.ndarray, width: int = SMALL_WIDTH) -> tuple[np.ndarray, np.ndarray]:
    """(small BGR, small blurred grey) copies of a frame for motion and hand detection."""
    import cv2

    h, w = image.shape[:2]
    if w != width:
        small = cv2.resize(image, (width, max(1, round(h * width / w))),
                           interpolation=cv2.INTER_AREA)
    else:
        small = image
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    return small, grey


def changed_fraction(a: np.ndarray, b: np.ndarray, pixel_delta: int) -> float:
    """The fraction of pixels whose grey level differs by more than ``pixel_delta``."""
    import cv2

    if a.shape != b.shape:
        return 1.0
    return float(np.count_nonzero(cv2.absdiff(a, b) > pixel_delta)) / a.size


def skin_mask(small_bgr: np.ndarray) -> np.ndarray:
    """Skin-coloured pixels (YCrCb box, works across skin tones in ordinary light)."""
    import cv2

    ycc = cv2.cvtColor(small_bgr, cv2.COLOR_BGR2YCrCb)
    mask = cv2.inRange(ycc, (40, 138, 80), (250, 175, 125))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _edge_blob(mask: np.ndarray, min_fraction: float, min_border: float = 0.0) -> float:
    """Area fraction of the largest blob of ``mask`` that covers at least ``min_fraction`` of
    the picture and touches its edge along at least ``min_border`` of the perimeter (an arm
    comes in across the edge; a tile lying near it barely touches it). 0 when there is none."""
    import cv2

    n, labels, stats, _ = cv2.connectedComponentsWithStats((mask > 0).astype(np.uint8), 8)
    h, w = mask.shape[:2]
    best = 0.0
    border = None
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        frac = area / float(h * w)
        if frac < min_fraction:
            continue
        if not (x == 0 or y == 0 or x + bw >= w or y + bh >= h):
            continue
        if min_border > 0:
            if border is None:
                border = np.concatenate([labels[0, :], labels[-1, :], labels[1:-1, 0],
                                         labels[1:-1, -1]])
            if np.count_nonzero(border == i) < min_border * 2 * (h + w):
                continue
        best = max(best, frac)
    return best


class HandDetector:
    """Is a hand or arm over the table? Returns ``(skin, change)``:

    ``skin``: a skin-coloured blob reaching in from the edge of the picture, counting only
    pixels that also differ from the last still table (so a wooden table the colour of skin
    is not a hand); ``change`` (with ``use_change``): a large change against the last still
    table reaching in from the edge (a sleeve, a glove)."""

    def __init__(self, skin_fraction: float = 0.012, change_fraction: float = 0.06,
                 pixel_delta: int = 30, use_change: bool = True, change_border: float = 0.025):
        self.change_border = change_border
        self.skin_fraction = skin_fraction
        self.change_fraction = change_fraction
        self.pixel_delta = pixel_delta
        self.use_change = use_change

    def __call__(self, small_bgr: np.ndarray, grey: np.ndarray,
                 reference: Optional[np.ndarray],
                 reference_bgr: Optional[np.ndarray] = None) -> tuple[bool, bool]:
        import cv2

        skin = skin_mask(small_bgr)
        diff = None
        if reference is not None and reference.shape == grey.shape:
            diff = cv2.absdiff(grey, reference) > self.pixel_delta // 2
            if reference_bgr is not None and reference_bgr.shape == small_bgr.shape:
                colour = cv2.absdiff(small_bgr, reference_bgr).max(axis=2) > self.pixel_delta
                diff = diff | colour
            skin = skin & (diff.astype(np.uint8) * 255)
        is_skin = _edge_blob(skin, self.skin_fraction) > 0
        is_change = False
        if self.use_change and reference is not None and reference.shape == grey.shape:
            big = (cv2.absdiff(grey, reference) > self.pixel_delta).astype(np.uint8) * 255
            big = cv2.morphologyEx(big, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
            is_change = _edge_blob(big, self.change_fraction, self.change_border) > 0
        return is_skin, is_change


class TurnDetector:
    """Decides from small grey samples when the table has gone still with no hand over it.

    ``feed`` returns True exactly once per still stretch (when it becomes still); motion or a
    hand starts a new stretch. The reference (the table as last read; at first, the first
    frame) tells hands from the table: a change from the edge that stays perfectly still for
    ``change_hand_timeout`` samples is not a hand (a camera nudged, the light changed) and
    becomes the new reference."""

    def __init__(self, *, pixel_delta: int = 18, motion_threshold: float = 0.003,
                 still_samples: int = 5, hand: Optional[HandDetector] = None,
                 change_hand_timeout: int = 30):
        self.pixel_delta = pixel_delta
        self.motion_threshold = motion_threshold
        self.still_samples = still_samples
        self.hand_detector = hand or HandDetector()
        self.change_hand_timeout = change_hand_timeout
        self.prev: Optional[np.ndarray] = None
        self.still_count = 0
        self.fired = False
        self.hand = False
        self.motion = 0.0
        #: the background hands are told from (the table at the last reading, or the scene
        #: accepted after a lasting non-hand change)
        self.reference: Optional[np.ndarray] = None
        self.reference_bgr: Optional[np.ndarray] = None
        #: the table at the last reading (grey): a still table like it is "unchanged"
        self.last_read: Optional[np.ndarray] = None
        self._change_still = 0

    def set_reference(self, small_bgr: np.ndarray, grey: np.ndarray) -> None:
        self.reference, self.reference_bgr = grey, small_bgr

    def feed(self, small_bgr: np.ndarray, grey: np.ndarray) -> bool:
        if self.reference is None:
            self.set_reference(small_bgr, grey)
        self.motion = 1.0 if self.prev is None else changed_fraction(self.prev, grey,
                                                                      self.pixel_delta)
        self.prev = grey
        skin, change = self.hand_detector(small_bgr, grey, self.reference, self.reference_bgr)
        moving = self.motion >= self.motion_threshold
        if change and not skin and not moving:
            self._change_still += 1
            if self._change_still >= self.change_hand_timeout:
                self.set_reference(small_bgr, grey)  # not a hand: the scene itself changed
                change = False
        else:
            self._change_still = 0
        self.hand = bool(skin or change)
        if moving or self.hand:
            self.still_count = 0
            self.fired = False
            return False
        self.still_count += 1
        if self.still_count >= self.still_samples and not self.fired:
            self.fired = True
            return True
        return False

    @property
    def still(self) -> bool:
        return self.still_count >= self.still_samples
