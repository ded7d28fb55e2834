"""Drawing a :class:`vision.reading.Reading` onto its image (OpenCV only): the one annotator,
used by ``rummiref read --annotate`` and by the live referee's pictures.

Each tile gets its outline and label (with a small mark on its top edge, so which way up it
was read is visible); each meld is outlined in green when the referee accepts it and in red
when not (single tiles, which are not melds, in grey); uncertain tiles are circled in
magenta with a "?". Tiles without an outline (a table typed in notation) are not drawn.
"""

from __future__ import annotations

import cv2
import numpy as np

from .reading import Reading

GREEN = (60, 200, 60)
RED = (40, 40, 230)
GREY = (160, 160, 160)
MAGENTA = (220, 40, 220)
TILE = (255, 200, 0)


def _text(img, text, org, scale, colour, thick):
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def annotate_tiles(img: np.ndarray, reading: Reading, scale: float) -> None:
    for t in reading.tiles:
        if t.corners is None:
            continue
        c = np.round(t.corners).astype(np.int32)
        cv2.polylines(img, [c], True, TILE, max(1, int(scale)), cv2.LINE_AA)
        top = ((t.corners[0] + t.corners[1]) / 2).astype(int)
        cv2.circle(img, tuple(int(v) for v in top), max(2, int(2 * scale)), TILE, -1)
        org = t.corners.min(0).astype(int) + [0, -int(4 * scale)]
        _text(img, f"{t.tile} {t.confidence:.2f}", (int(org[0]), int(org[1])), 0.45 * scale,
              (255, 255, 255), max(1, int(scale)))


def annotate_melds(img: np.ndarray, reading: Reading, scale: float, rules=None) -> None:
    from referee import check_meld

    for meld in reading.melds:
        outlines = [reading.tiles[i].corners for i in meld if reading.tiles[i].corners is not None]
        if not outlines:
            continue
        pts = np.concatenate(outlines)
        if len(meld) < 2:
            colour = GREY
        else:
            ok = check_meld([reading.tiles[i].tile for i in meld], rules).ok
            colour = GREEN if ok else RED
        rect = cv2.minAreaRect(pts.astype(np.float32))
        (cx, cy), (w, h), a = rect
        pad = 6 * scale
        box = cv2.boxPoints(((cx, cy), (w + pad, h + pad), a))
        cv2.polylines(img, [np.round(box).astype(np.int32)], True, colour,
                      max(2, int(3 * scale)), cv2.LINE_AA)


def annotate_uncertain(img: np.ndarray, reading: Reading, scale: float) -> None:
    for u in reading.uncertain:
        t = reading.tiles[u.index]
        if t.corners is None:
            continue
        c = t.centre
        r = int(0.6 * float(np.hypot(*(t.corners[2] - t.corners[0]))))
        cv2.circle(img, (int(c[0]), int(c[1])), r, MAGENTA, max(2, int(2 * scale)), cv2.LINE_AA)
        _text(img, "?", (int(c[0] + r * 0.7), int(c[1] - r * 0.7)), 0.9 * scale, MAGENTA,
              max(2, int(2 * scale)))


def annotate(image: np.ndarray, reading: Reading, rules=None) -> np.ndarray:
    """A copy of ``image`` (BGR) with the reading drawn on it."""
    out = image.copy()
    scale = max(1.0, max(out.shape[:2]) / 1000.0)
    annotate_melds(out, reading, scale, rules)
    annotate_tiles(out, reading, scale)
    annotate_uncertain(out, reading, scale)
    if not reading.tiles:
        msg = reading.notes[0] if reading.notes else "no tiles found"
        _text(out, msg, (int(10 * scale), int(30 * scale)), 0.8 * scale, (255, 255, 255),
              max(1, int(2 * scale)))
    return out
