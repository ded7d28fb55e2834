"""Synthetic phone photos of a player's rack, and close-ups of a few tiles.

    >>> image, labels = render_rack([["R1", "R2", "J"], ["K5", "B13", "O9", "O9"]], seed=3)
    >>> labels.racks                  # label indices, back row first, left to right
    [[0, 1, 2], [3, 4, 5, 6]]

The tiles stand in one or two rows on a rack seen from the player's seat: the front row
hides the lower part of the back row (up to its lower third; ``labels.hidden`` says how much
of each tile is hidden), the camera looks down at the rack at a steep angle, so the rows
narrow into the distance, and the photo has a phone's white balance, exposure and blur
(:func:`vision.synth.photo.phone_effects`). Label outlines are the whole tiles, hidden part
included. :func:`render_closeup` photographs one to three tiles so close that one tile
covers up to a fifth of the picture.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .backgrounds import table_surface
from .editions import Edition
from .photo import phone_effects
from .table import Labels, apply_h, warp_tile, render_table
from .tiles import TILE_H, TILE_W, render_tile

ASPECT = TILE_H / TILE_W
#: Phone photo sizes (landscape); a portrait photo is one of these turned.
PHONE_SIZES = ((1000, 750), (1200, 900), (1024, 576), (1280, 720))


def _steep_camera(w: int, h: int, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A camera looking down at the rack from the player's seat: the far (top) side of the
    picture narrower than the near side, plus a turn and some skew; ``strength`` 0 is a
    camera straight in front of the rack."""
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    if strength <= 0:
        return np.eye(3)
    narrow = strength * w * rng.uniform(0.5, 1.0)
    side = rng.uniform(-0.5, 0.5) * narrow  # seen a little from one side
    dst = src.copy()
    dst[0, 0] += narrow / 2 + side
    dst[1, 0] -= narrow / 2 - side
    dst[0, 1] += strength * h * rng.uniform(0.0, 0.4)
    dst[1, 1] += strength * h * rng.uniform(0.0, 0.4)
    dst += rng.uniform(-0.03, 0.03, (4, 2)).astype(np.float32) * [w, h]
    a = math.radians(float(rng.normal(0, 6)))
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    c = np.array([w / 2, h / 2], np.float32)
    dst = (dst - c) @ rot.T + c
    # keep everything in the picture: fit the corners back into the frame
    lo, hi = dst.min(0), dst.max(0)
    k = min(1.0, 0.96 * w / float(hi[0] - lo[0]), 0.96 * h / float(hi[1] - lo[1]))
    dst = (dst - (lo + hi) / 2) * k + c
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def render_rack(rows, seed: int = 0, *, size: tuple[int, int] | None = None,
                edition: Edition | None = None, hidden: float | None = None,
                perspective: float | None = None, tile_width: float | None = None,
                quality: bool = True) -> tuple[np.ndarray, Labels]:
    """A phone photo of a rack holding ``rows`` (one or two lists of tiles in notation, back
    row first; a string is one row). Returns ``(bgr_image, labels)``: ``labels`` lists
    ``(tile, corners)`` row by row, ``labels.racks`` and ``labels.melds`` the rows (label
    indices), ``labels.hidden`` the hidden fraction of each tile. ``hidden``: how much of the
    back row the front row hides (default up to a third); ``perspective``: 0 (straight on)
    to about 0.5 (steep; default random 0.1-0.45); ``edition``: default a random modern one."""
    from .editions import EDITIONS, edition as named

    rng = np.random.default_rng(seed)
    if isinstance(rows, str):
        rows = [rows.split()]
    rows = [[str(t) for t in r] for r in rows if len(r)]
    if size is None:
        size = PHONE_SIZES[int(rng.integers(len(PHONE_SIZES)))]
        if rng.random() < 0.25:
            size = (size[1], size[0])
    w, h = size
    if edition is None:
        names = [n for n in EDITIONS if n.startswith("modern")]
        edition = named(names[int(rng.integers(len(names)))], rng)
    hidden = float(rng.uniform(0.0, 1 / 3)) if hidden is None else float(hidden)
    perspective = float(rng.uniform(0.1, 0.45)) if perspective is None else float(perspective)
    img = table_surface(h, w, rng)
    longest = max([len(r) for r in rows] + [1])
    gap = float(rng.uniform(0.01, 0.06))
    th = ASPECT
    rows_h = th * (1 + (1 - hidden) * (len(rows) - 1)) + 0.5
    if tile_width is None:
        tile_width = min(w * 0.86 / (longest * (1 + gap) + 0.6), h * 0.8 / rows_h)
        tile_width *= float(rng.uniform(0.75, 1.0))
    s = float(tile_width)
    # the rack seen straight on (image pixels), rows centred; then the camera
    row_w = [len(r) * s * (1 + gap) - gap * s for r in rows]
    total_h = s * th * (1 + (1 - hidden) * (len(rows) - 1))
    y_front = h / 2 + total_h / 2 - s * th
    tops = [y_front - (len(rows) - 1 - k) * (1 - hidden) * s * th for k in range(len(rows))]
    x_left = w / 2 - max(row_w) / 2
    hm = _steep_camera(w, h, rng, perspective)
    rack_col = np.array(rng.uniform(20, 140, 3))
    pad = 0.35 * s
    body = np.array([[x_left - pad, tops[0] + 0.55 * s * th],
                     [x_left + max(row_w) + pad, tops[0] + 0.55 * s * th],
                     [x_left + max(row_w) + pad, y_front + 1.2 * s * th],
                     [x_left - pad, y_front + 1.2 * s * th]], np.float32)
    cv2.fillPoly(img, [np.round(apply_h(hm, body) * 4).astype(np.int32)],
                 tuple(float(c) for c in rack_col * 0.7), cv2.LINE_AA, shift=2)
    labels = Labels()
    faces: dict[str, np.ndarray] = {}
    tv = np.array([0.0, -s * float(rng.uniform(0.04, 0.1))], np.float32)
    for k, (row, top) in enumerate(zip(rows, tops)):
        x = x_left + (max(row_w) - row_w[k]) * float(rng.uniform(0, 1))
        idxs = []
        for tile in row:
            flat = np.array([[x, top], [x + s, top], [x + s, top + s * th], [x, top + s * th]],
                            np.float32)
            flat += rng.normal(0, 0.01 * s, (1, 2)).astype(np.float32)
            corners = apply_h(hm, flat)
            if tile not in faces:
                faces[tile] = render_tile(tile, edition, rng)
            warp_tile(img, faces[tile], corners, edition.side, tv, 0.0)
            idxs.append(len(labels))
            labels.append((tile, corners))
            labels.hidden.append(hidden if k < len(rows) - 1 else 0.0)
            x += s * (1 + gap)
        labels.racks.append(idxs)
        labels.melds.append(list(idxs))
        # the ledge the row stands on; the front row's ledge hides the foot of its tiles
        ledge = np.array([[x_left - pad, top + 0.93 * s * th],
                          [x_left + max(row_w) + pad, top + 0.93 * s * th],
                          [x_left + max(row_w) + pad, top + 1.12 * s * th],
                          [x_left - pad, top + 1.12 * s * th]], np.float32)
        if k == len(rows) - 1:
            cv2.fillPoly(img, [np.round(apply_h(hm, ledge) * 4).astype(np.int32)],
                         tuple(float(c) for c in rack_col), cv2.LINE_AA, shift=2)
    if quality:
        img = phone_effects(img, rng)
    return img, labels


def render_closeup(tiles, seed: int = 0, *, size: tuple[int, int] | None = None,
                   edition: Edition | None = None, fraction: float | None = None,
                   quality: bool = True) -> tuple[np.ndarray, Labels]:
    """A close photo of one to three ``tiles`` (notation), standing on a rack or lying on
    the table, one tile covering ``fraction`` of the picture (default 5% to 20%)."""
    rng = np.random.default_rng(seed)
    tiles = tiles.split() if isinstance(tiles, str) else [str(t) for t in tiles]
    if size is None:
        size = PHONE_SIZES[int(rng.integers(len(PHONE_SIZES)))]
    w, h = size
    fraction = float(rng.uniform(0.05, 0.2)) if fraction is None else float(fraction)
    s = math.sqrt(fraction * w * h / ASPECT)
    fit = max(1, min(len(tiles), int(0.8 * w / (s * 1.05)), 3))
    tiles = tiles[:fit]
    if edition is None:
        from .editions import EDITIONS, edition as named

        names = [n for n in EDITIONS if n.startswith("modern")]
        edition = named(names[int(rng.integers(len(names)))], rng)
    if rng.random() < 0.5:
        return render_rack([tiles], int(rng.integers(1 << 31)), size=size, edition=edition,
                           tile_width=s, perspective=float(rng.uniform(0.0, 0.3)),
                           quality=quality)
    img, labels = render_table([tiles], int(rng.integers(1 << 31)), size=size, tile_width=s,
                               edition=edition, upside_down=0.0,
                               angle=float(rng.normal(0, 5)), tilt=float(rng.uniform(0, 0.06)),
                               quality=False)
    if quality:
        img = phone_effects(img, rng)
    return img, labels
