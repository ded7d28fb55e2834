"""Drawing a :class:`vision.reading.Reading` onto its image (OpenCV only): the one annotator,
used by ``rummiref read --annotate``, the live referee's pictures and the rack photos.

The pictures are looked at on phones, where a 12-megapixel photo is shrunk to the width of
the screen (about 400 points). So everything is sized to the picture, not to its pixels: a
label's capital height is :data:`LABEL_HEIGHT` of the picture's width (a tenth of an inch
or so on a phone held upright, whatever the photo's resolution), and lines scale alike.

- Each tile gets a thin outline, a small mark on its top edge (which way up it was read) and
  its label on a dark box: the tile in notation only. The label sits on the tile's lower
  part, below its numeral (:data:`LABEL_AT`), so the numeral it names stays visible to
  compare and a label covers its own tile rather than a neighbour (on a rack, the front row
  hides the lower part of the back row anyway).
- A tile to check (``reading.uncertain``) is outlined thickly in magenta just inside its own
  edges, so its neighbours stay uncovered, and its label, in magenta, carries a "?" and, on a
  second line (so it is no wider than a sure tile's), the confidence. Sure tiles show no confidence: a number on every tile is noise.
- Melds are outlined in green when the referee accepts them, red when not, grey for a lone
  tile. On a rack (``rack=True``) the rows are not melds: they are outlined in blue, with no
  verdict.

Tiles without an outline (a table typed in notation) are not drawn.
"""

from __future__ import annotations

import cv2
import numpy as np

from .reading import Reading

GREEN = (60, 200, 60)
RED = (40, 40, 230)
GREY = (160, 160, 160)
BLUE = (230, 150, 40)
MAGENTA = (220, 40, 220)
TILE = (255, 200, 0)
WHITE = (255, 255, 255)
BACKING = (30, 30, 30)

#: Capital height of a label, as a fraction of the picture's width: about 10 points on a
#: phone showing the picture across its screen.
LABEL_HEIGHT = 0.025
#: ... and never below this many pixels (small pictures).
LABEL_MIN_PX = 12
#: Where a label's centre sits along a tile, from its top edge (0) to its bottom edge (1)
#: as read: below the numeral, which sits in the upper half.
LABEL_AT = 0.72
_FONT = cv2.FONT_HERSHEY_DUPLEX


def label_px(image_shape) -> int:
    """Capital height of the labels (pixels) for a picture of this shape."""
    return max(LABEL_MIN_PX, int(round(LABEL_HEIGHT * image_shape[1])))


def _font_scale(px: int) -> float:
    (_, h), _ = cv2.getTextSize("R", _FONT, 1.0, 1)
    return px / h


def label_box_px(px: int) -> int:
    """Height of a label's box for capital height ``px``."""
    (_, h), base = cv2.getTextSize("R", _FONT, _font_scale(px), max(1, px // 7))
    return h + base + 2 * max(2, px // 4)


def _label(img: np.ndarray, text: str, anchor: tuple[float, float], px: int, colour,
           box_colour) -> None:
    """``text`` (lines split at new lines, centred) on a filled box centred on ``anchor``
    (x, the box's bottom y), kept inside the picture."""
    scale = _font_scale(px)
    thick = max(1, px // 7)
    lines = text.split("\n")
    sizes = [cv2.getTextSize(line, _FONT, scale, thick) for line in lines]
    pad = max(2, px // 4)
    line_h = max(h + base for (_, h), base in sizes) + pad
    bw = max(w for (w, _), _ in sizes) + 2 * pad
    bh = line_h * len(lines) + pad
    x0 = int(round(anchor[0] - bw / 2))
    y0 = int(round(anchor[1] - bh))
    H, W = img.shape[:2]
    x0 = min(max(0, x0), max(0, W - bw))
    y0 = min(max(0, y0), max(0, H - bh))
    roi = img[y0:y0 + bh, x0:x0 + bw]
    roi[:] = (roi.astype(np.float32) * 0.25 + np.float32(box_colour) * 0.75).astype(np.uint8)
    for k, (line, ((w, h), _)) in enumerate(zip(lines, sizes)):
        x = x0 + (bw - w) // 2
        cv2.putText(img, line, (x, y0 + pad + k * line_h + h), _FONT, scale, colour, thick,
                    cv2.LINE_AA)


def _line(px: int, k: float = 0.12) -> int:
    return max(1, int(round(px * k)))


def annotate_melds(img: np.ndarray, reading: Reading, px: int, rules=None,
                   rack: bool = False) -> None:
    from referee import check_meld

    for meld in reading.melds:
        outlines = [reading.tiles[i].corners for i in meld if reading.tiles[i].corners is not None]
        if not outlines:
            continue
        pts = np.concatenate(outlines)
        if rack:
            colour = BLUE
        elif len(meld) < 2:
            colour = GREY
        else:
            ok = check_meld([reading.tiles[i].tile for i in meld], rules).ok
            colour = GREEN if ok else RED
        (cx, cy), (w, h), a = cv2.minAreaRect(pts.astype(np.float32))
        pad = 0.4 * px
        box = cv2.boxPoints(((cx, cy), (w + pad, h + pad), a))
        cv2.polylines(img, [np.round(box).astype(np.int32)], True, colour, _line(px, 0.15),
                      cv2.LINE_AA)


def _inset(corners: np.ndarray, by: float) -> np.ndarray:
    """The outline moved ``by`` pixels towards its centre."""
    c = corners.mean(0)
    d = corners - c
    n = np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-6)[:, None]
    return c + d * np.maximum(0.0, 1.0 - by / n)


def annotate_tiles(img: np.ndarray, reading: Reading, px: int) -> None:
    doubt = {u.index for u in reading.uncertain}
    drawn = [(i, t) for i, t in enumerate(reading.tiles) if t.corners is not None]
    for i, t in drawn:  # outlines first, so no outline crosses a label
        if i in doubt:
            w = _line(px, 0.3)
            c = np.round(_inset(t.corners, w / 2 + 1)).astype(np.int32)
            cv2.polylines(img, [c], True, MAGENTA, w, cv2.LINE_AA)
        else:
            c = np.round(t.corners).astype(np.int32)
            cv2.polylines(img, [c], True, TILE, _line(px, 0.08), cv2.LINE_AA)
        top = (t.corners[0] + t.corners[1]) / 2
        cv2.circle(img, (int(top[0]), int(top[1])), max(2, px // 5), TILE, -1, cv2.LINE_AA)
    for i, t in drawn:
        top, bottom = (t.corners[0] + t.corners[1]) / 2, (t.corners[3] + t.corners[2]) / 2
        at = top + (bottom - top) * LABEL_AT
        if i in doubt:  # two lines, so the label is no wider than a sure one
            anchor = (float(at[0]), float(at[1]) + label_box_px(px))
            _label(img, f"{t.tile}?\n{t.confidence:.2f}", anchor, px, WHITE, MAGENTA)
        else:
            anchor = (float(at[0]), float(at[1]) + label_box_px(px) / 2)
            _label(img, t.tile, anchor, px, WHITE, BACKING)


def annotate(image: np.ndarray, reading: Reading, rules=None, *, rack: bool = False
             ) -> np.ndarray:
    """A copy of ``image`` (BGR) with the reading drawn on it; ``rack``: the reading is a
    rack's (rows, not melds; see :func:`vision.rack.as_rack`)."""
    out = image.copy()
    px = label_px(out.shape)
    annotate_melds(out, reading, px, rules, rack)
    annotate_tiles(out, reading, px)
    if not reading.tiles:
        msg = reading.notes[0] if reading.notes else "no tiles found"
        _label(out, msg, (out.shape[1] / 2, 2.5 * px), px, WHITE, BACKING)
    return out
