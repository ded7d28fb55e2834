"""Synthetic photos of a table: melds of tiles lying in rows, seen by a camera.

    >>> image, labels = render_table("R7 R8 R9 | K5 B5 O5 J", seed=3)
    >>> image.shape[2], len(labels), labels.melds
    (3, 7, [[0, 1, 2], [3, 4, 5, 6]])
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from ..labels import TILES
from .backgrounds import table_surface
from .editions import Edition
from .photo import photo_effects
from .tiles import TILE_H, TILE_W, render_tile


class Labels(list):
    """``[(tile, corners), ...]`` for a rendered image; ``melds``: label indices per meld, as
    laid (the last "melds" may be rack rows, listed in ``racks``); ``hidden``: for a photo of
    a rack, the share of each tile hidden behind the row in front (else empty)."""

    def __init__(self, items=(), melds=None, racks=None):
        super().__init__(items)
        self.melds: list[list[int]] = melds or []
        self.racks: list[list[int]] = racks or []
        self.hidden: list[float] = []


def _table_melds(table) -> list[list[str]]:
    if isinstance(table, str):
        from referee import parse_table
        table = parse_table(table, check=False)
    if hasattr(table, "melds"):
        return [[str(t) for t in m] for m in table.melds]
    return [[str(t) for t in m] for m in table]


def warp_tile(canvas: np.ndarray, face_rgba: np.ndarray, corners: np.ndarray,
               side_colour, thickness_vec: np.ndarray, shadow: float) -> None:
    """Draw a tile (its side, shadow and face) onto ``canvas`` at image ``corners``."""
    h, w = canvas.shape[:2]
    x0, y0 = np.floor(corners.min(0) - np.abs(thickness_vec) - 12).astype(int)
    x1, y1 = np.ceil(corners.max(0) + np.abs(thickness_vec) + 12).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    roi = canvas[y0:y1, x0:x1].astype(np.float32)
    off = np.array([x0, y0], np.float32)
    local = corners - off
    # shadow
    if shadow > 0:
        sh = np.zeros(roi.shape[:2], np.float32)
        cv2.fillPoly(sh, [np.round((local + thickness_vec * 1.6) * 4).astype(np.int32)], 1.0,
                     cv2.LINE_AA, shift=2)
        sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, float(np.hypot(*thickness_vec))))
        roi *= (1 - shadow * sh)[:, :, None]
    # side (the tile's thickness, seen below the face)
    side = np.zeros(roi.shape[:2], np.float32)
    body = np.concatenate([local, local + thickness_vec])
    hull = cv2.convexHull(body.astype(np.float32))
    cv2.fillPoly(side, [np.round(hull.reshape(-1, 2) * 4).astype(np.int32)], 1.0, cv2.LINE_AA,
                 shift=2)
    roi = roi * (1 - side[:, :, None]) + np.float32(side_colour) * side[:, :, None]
    src = np.array([[0, 0], [TILE_W, 0], [TILE_W, TILE_H], [0, TILE_H]], np.float32)
    m = cv2.getPerspectiveTransform(src, local.astype(np.float32))
    warped = cv2.warpPerspective(face_rgba, m, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA
                                 if np.hypot(*(local[1] - local[0])) < TILE_W / 2 else cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    a = warped[:, :, 3:4].astype(np.float32) / 255.0
    roi = roi * (1 - a) + warped[:, :, :3].astype(np.float32) * a
    canvas[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def _homography(w: int, h: int, rng: np.random.Generator, tilt: float) -> np.ndarray:
    """A camera looking at the table plane: maps table coordinates (same units as the
    output image, centred) to image pixels with some perspective."""
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    d = tilt * min(w, h)
    dst = src + rng.uniform(-d, d, (4, 2)).astype(np.float32)
    # keep it a plausible camera: top edge narrower than the bottom sometimes
    if rng.random() < 0.5:
        k = rng.uniform(0, tilt) * w
        dst[0, 0] += k
        dst[1, 0] -= k
    return cv2.getPerspectiveTransform(src, dst)


def apply_h(hm: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float32), hm)
    return p.reshape(-1, 2)


def render_table(table, seed: int = 0, *, size: tuple[int, int] = (1000, 750),
                 tile_width: float | None = None, edition: Edition | None = None,
                 classic: bool | None = None, upside_down: float = 0.15,
                 angle: float | None = None, tilt: float | None = None, rack=None,
                 background: np.ndarray | None = None, quality: bool = True,
                 exclude: tuple[str, ...] = ()) -> tuple[np.ndarray, Labels]:
    """Render a photo of ``table`` (notation text, a ``referee.Table`` or lists of tiles).

    Returns ``(bgr_image, labels)``: ``labels`` is a list of ``(tile, corners)`` (corners
    4x2 float32, TL TR BR BL as the tile is read, in image pixels) in table order, with
    ``labels.melds`` the label indices of each meld as laid. ``rack``: optional tiles
    (notation) standing on a rack at the bottom (their indices in ``labels.racks``).
    ``tile_width``: pixels (default: chosen so the table fits). ``classic``: white tiles like
    the real photos (default: a random edition, classic a third of the time; ``exclude``:
    named editions whose fonts a random edition does not use). The melds are
    laid in rows; each meld may be turned upside down with probability ``upside_down``.
    """
    rng = np.random.default_rng(seed)
    melds = _table_melds(table)
    w, h = size
    if edition is None:
        if classic is None:
            classic = bool(rng.random() < 0.33)
        edition = Edition.random(rng, classic=classic, exclude=exclude)
    img = table_surface(h, w, rng) if background is None else cv2.resize(background, (w, h))
    angle = float(rng.normal(0, 6) if rng.random() < 0.6 else rng.uniform(-180, 180)) \
        if angle is None else angle
    tilt = float(rng.uniform(0.0, 0.12)) if tilt is None else tilt
    # layout in table units (tile width 1, height 1/aspect)
    th_ = TILE_H / TILE_W
    rows: list[list[int]] = []
    widths = [len(m) for m in melds]
    max_row = max([8.0] + [float(x) for x in widths]) * 1.0
    if melds:
        max_row = max(max_row, math.sqrt(sum(widths) * 3.0))
    cur: list[int] = []
    used = 0.0
    for i, n in enumerate(widths):
        if cur and used + n > max_row:
            rows.append(cur)
            cur, used = [], 0.0
        cur.append(i)
        used += n + float(rng.uniform(0.6, 1.6))
    if cur:
        rows.append(cur)
    positions: dict[int, tuple[float, float, float]] = {}  # meld -> x, y, rotation (deg)
    y = 0.0
    for row in rows:
        x = float(rng.uniform(0, 0.8))
        for i in row:
            positions[i] = (x, y + float(rng.uniform(-0.15, 0.15)), float(rng.normal(0, 3)))
            x += widths[i] + float(rng.uniform(0.5, 1.8))
        y += th_ + float(rng.uniform(0.35, 1.0))
    extent_w = max([positions[i][0] + widths[i] for i in positions] + [1.0])
    extent_h = max(y - 0.35, th_)
    rack_tiles = [] if rack is None else [str(t) for t in _table_melds(str(rack))[0]] \
        if isinstance(rack, str) else [str(t) for t in rack]
    if tile_width is None:
        fit = min(w * 0.82 / (extent_w + 0.5), h * (0.62 if rack_tiles else 0.8) / (extent_h + 0.5))
        tile_width = float(min(fit, rng.uniform(55, 110)))
    s = tile_width
    # table units -> table-plane pixels, rotated about the image centre
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    centre = np.array([w / 2, h / 2 - (0.08 * h if rack_tiles else 0)], np.float32)
    hm = _homography(w, h, rng, tilt)
    thick_dir = np.array([rng.normal(0, 0.3), 1.0], np.float32)
    thick_dir /= np.hypot(*thick_dir)
    labels = Labels()
    faces_cache: dict[str, np.ndarray] = {}
    order: list[tuple[str, np.ndarray, int]] = []
    for i, meld in enumerate(melds):
        mx, my, mrot = positions[i]
        flip = rng.random() < upside_down
        ma = math.radians(mrot)
        mr = np.array([[math.cos(ma), -math.sin(ma)], [math.sin(ma), math.cos(ma)]], np.float32)
        idxs = []
        gaps = np.cumsum([0.0] + [float(rng.uniform(0.0, 0.06)) for _ in meld])
        for k, tile in enumerate(meld):
            kk = (len(meld) - 1 - k) if flip else k
            tx = kk + gaps[kk]
            local = np.array([[tx, 0], [tx + 1, 0], [tx + 1, th_], [tx, th_]], np.float32)
            if flip:
                local = local[[2, 3, 0, 1]]
            local = (local - [0, 0]) @ mr.T + [mx, my]
            pts = (local - [extent_w / 2, extent_h / 2]) * s
            pts = pts @ rot.T + centre
            corners = apply_h(hm, pts)
            idxs.append(len(labels))
            labels.append((tile, corners))
            order.append((tile, corners, len(labels) - 1))
        labels.melds.append(idxs)
    if rack_tiles:
        rack_w = len(rack_tiles) * s * 0.9 + s * 0.6
        rx0, ry0 = (w - rack_w) / 2, h - s * th_ * 0.95 - 12
        rack_col = tuple(int(c) for c in rng.uniform(20, 120, 3))
        bar = np.array([[rx0, ry0 + s * th_ * 0.55], [rx0 + rack_w, ry0 + s * th_ * 0.55],
                        [rx0 + rack_w + 8, h], [rx0 - 8, h]], np.float32)
        cv2.fillPoly(img, [np.round(bar).astype(np.int32)], rack_col, cv2.LINE_AA)
        idxs = []
        for k, tile in enumerate(rack_tiles):
            x = rx0 + s * 0.3 + k * s * 0.9
            corners = np.array([[x, ry0], [x + s * 0.9, ry0], [x + s * 0.9, ry0 + s * th_ * 0.9],
                                [x, ry0 + s * th_ * 0.9]], np.float32)
            lean = rng.uniform(0, 0.12) * s
            corners[0, 0] += lean
            corners[1, 0] += lean
            idxs.append(len(labels))
            labels.append((tile, corners))
            order.append((tile, corners, len(labels) - 1))
        labels.racks.append(idxs)
    tv = thick_dir * s * float(rng.uniform(0.05, 0.12))
    shadow = float(rng.uniform(0.15, 0.5))
    for tile, corners, _ in order:
        if tile not in faces_cache:
            faces_cache[tile] = render_tile(tile, edition, rng)
        warp_tile(img, faces_cache[tile], corners, edition.side, tv, shadow)
    if quality:
        img = photo_effects(img, rng)
    return img, labels


def random_table(rng: np.random.Generator, max_melds: int = 12) -> list[list[str]]:
    """Random melds (runs and groups, some with jokers, some deliberately invalid), with at
    most two copies of any tile."""
    pool = {t: 2 for t in TILES}
    melds = []
    for _ in range(int(rng.integers(1, max_melds + 1))):
        kind = rng.random()
        if kind < 0.45:
            c = "KBOR"[int(rng.integers(4))]
            n = int(rng.integers(3, 7))
            start = int(rng.integers(1, 15 - n))
            meld = [f"{c}{k}" for k in range(start, start + n)]
        elif kind < 0.8:
            num = int(rng.integers(1, 14))
            cols = list(rng.permutation(list("KBOR")))[:int(rng.integers(3, 5))]
            meld = [f"{c}{num}" for c in cols]
        else:
            meld = [TILES[int(rng.integers(len(TILES)))] for _ in range(int(rng.integers(1, 6)))]
        if rng.random() < 0.15:
            meld[int(rng.integers(len(meld)))] = "J"
        meld = [t for t in meld if pool.get(t, 0) > 0]
        for t in meld:
            pool[t] -= 1
        if meld:
            melds.append(meld)
    return melds
