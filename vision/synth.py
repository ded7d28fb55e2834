"""Synthetic Rummikub photos with known labels: tiles of many editions on many tables.

    >>> from vision.synth import render_table
    >>> image, labels = render_table("R7 R8 R9 | K5 B5 O5 J", seed=3)
    >>> image.shape[2], len(labels), labels.melds
    (3, 7, [[0, 1, 2], [3, 4, 5, 6]])
    >>> tile, corners = labels[0]     # 'R7', 4x2 float32: TL, TR, BR, BL in image pixels

Editions differ in tile shade (white to ivory), numeral font (OpenCV's Hershey fonts and any
TrueType font on the machine), numeral size and height on the tile, ink colours (orange to
yellow), bars under 6 and 9, logo, and joker (black, red or coloured faces). Scenes vary the
table surface (wood, cloth, marble, felt, plain), the camera (rotation, tilt, distance),
the light (colour, gradients, shadows), blur, noise and JPEG compression, and can hold tiles
on racks. Everything is drawn from a seed, so a seed always gives the same image.

Used to train the reader (``vision.train``), to test it, and by the live referee's demo.
"""

from __future__ import annotations

import glob
import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .labels import TILES

TILE_W, TILE_H = 120, 168  # face raster (pixels), aspect of a real tile

# Ink colours (BGR) per colour letter: a range each edition draws from.
_INK = {
    "K": [(25, 25, 25), (40, 35, 30), (10, 10, 10), (55, 50, 50)],
    "B": [(170, 90, 20), (190, 110, 30), (140, 60, 10), (200, 130, 60), (150, 80, 40)],
    "O": [(30, 130, 240), (40, 150, 245), (20, 110, 230), (30, 190, 235), (40, 170, 250)],
    "R": [(40, 40, 210), (50, 30, 190), (60, 60, 225), (35, 20, 170)],
}
_HERSHEY = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
            cv2.FONT_HERSHEY_COMPLEX]


@lru_cache(maxsize=1)
def _ttf_fonts() -> tuple[str, ...]:
    """Bold-ish TrueType fonts on this machine (numerals in them look like real tiles)."""
    paths = []
    for pattern in ("/usr/share/fonts/**/*.ttf", "/usr/local/share/fonts/**/*.ttf"):
        paths += glob.glob(pattern, recursive=True)
    try:
        import matplotlib
        paths += glob.glob(f"{matplotlib.get_data_path()}/fonts/ttf/*.ttf")
    except ImportError:
        pass
    keep = [p for p in sorted(set(paths))
            if not any(s in p for s in ("Math", "Symbol", "STIX", "cmex", "cmsy", "Display",
                                        "ExtraLight", "Oblique", "Italic", "cmmi", "cmb10", "cmti"))]
    return tuple(keep)


@dataclass
class Edition:
    """How one tile edition looks."""

    face: tuple[int, int, int]
    font: object  # Hershey font id (int) or a TTF path (str)
    thickness: float
    number_y: float  # numeral centre, fraction of tile height from the top
    number_h: float  # numeral height, fraction of tile height
    inks: dict
    circle: bool
    bars_69: bool
    logo: bool
    joker_colour: tuple[int, int, int]
    joker_style: int
    corner_r: float
    side: tuple[int, int, int]

    @classmethod
    def random(cls, rng: np.random.Generator, classic: bool = False) -> "Edition":
        if classic:  # close to the white tiles in the real photos
            shade = int(rng.integers(228, 250))
            face = (shade - int(rng.integers(8, 20)), shade - int(rng.integers(0, 6)), shade)
            return cls(face=face, font=_pick_font(rng, bold=True),
                       thickness=float(rng.uniform(0.9, 1.2)),
                       number_y=float(rng.uniform(0.34, 0.42)),
                       number_h=float(rng.uniform(0.3, 0.36)),
                       inks={k: v[0] for k, v in _INK.items()}, circle=True, bars_69=False,
                       logo=True, joker_colour=(20, 20, 20), joker_style=0,
                       corner_r=0.1, side=tuple(int(c * 0.82) for c in face))
        shade = int(rng.integers(205, 256))
        tint = rng.uniform(0, 1)
        face = (int(shade - tint * rng.integers(5, 35)), int(shade - tint * rng.integers(0, 12)),
                shade)
        inks = {k: v[int(rng.integers(len(v)))] for k, v in _INK.items()}
        jc = [(20, 20, 20), (40, 40, 200), (30, 30, 30), (30, 120, 230)][int(rng.integers(4))]
        return cls(face=face, font=_pick_font(rng), thickness=float(rng.uniform(0.7, 1.5)),
                   number_y=float(rng.uniform(0.3, 0.56)), number_h=float(rng.uniform(0.26, 0.46)),
                   inks=inks, circle=bool(rng.random() < 0.4), bars_69=bool(rng.random() < 0.5),
                   logo=bool(rng.random() < 0.5), joker_colour=jc,
                   joker_style=int(rng.integers(3)), corner_r=float(rng.uniform(0.04, 0.16)),
                   side=tuple(int(c * rng.uniform(0.7, 0.9)) for c in face))


def _pick_font(rng: np.random.Generator, bold: bool = False):
    fonts = _ttf_fonts()
    if bold:
        bolds = [f for f in fonts if "Bold" in f and "Mono" not in f]
        if bolds:
            return bolds[int(rng.integers(len(bolds)))]
    if fonts and rng.random() < 0.65:
        return fonts[int(rng.integers(len(fonts)))]
    return _HERSHEY[int(rng.integers(len(_HERSHEY)))]


def _text_mask(text: str, font, height_px: int, thickness: float) -> np.ndarray:
    """A tight uint8 mask (0/255) of ``text`` about ``height_px`` high."""
    if isinstance(font, str):
        from PIL import Image, ImageDraw, ImageFont

        f = ImageFont.truetype(font, size=max(8, int(height_px * 1.35)))
        box = f.getbbox(text)
        w, h = box[2] - box[0] + 8, box[3] - box[1] + 8
        img = Image.new("L", (w, h), 0)
        stroke = max(0, int(round((thickness - 1.0) * height_px * 0.05)))
        ImageDraw.Draw(img).text((4 - box[0], 4 - box[1]), text, font=f, fill=255,
                                 stroke_width=stroke, stroke_fill=255)
        m = np.array(img)
    else:
        scale = height_px / 22.0
        th = max(1, int(round(scale * 2.2 * thickness)))
        (w, h), base = cv2.getTextSize(text, font, scale, th)
        m = np.zeros((h + base + 2 * th + 4, w + 2 * th + 4), np.uint8)
        cv2.putText(m, text, (th + 2, h + th + 2), font, scale, 255, th, cv2.LINE_AA)
    ys, xs = np.nonzero(m > 40)
    if len(ys) == 0:
        return np.zeros((height_px, height_px // 2), np.uint8)
    m = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    scale = height_px / m.shape[0]
    return cv2.resize(m, (max(1, int(m.shape[1] * scale)), height_px),
                      interpolation=cv2.INTER_AREA)


def _paste_ink(face: np.ndarray, mask: np.ndarray, cx: float, cy: float, colour) -> None:
    h, w = mask.shape
    x0, y0 = int(round(cx - w / 2)), int(round(cy - h / 2))
    fx0, fy0 = max(0, x0), max(0, y0)
    fx1, fy1 = min(face.shape[1], x0 + w), min(face.shape[0], y0 + h)
    if fx1 <= fx0 or fy1 <= fy0:
        return
    m = mask[fy0 - y0:fy1 - y0, fx0 - x0:fx1 - x0].astype(np.float32)[:, :, None] / 255.0
    roi = face[fy0:fy1, fx0:fx1].astype(np.float32)
    face[fy0:fy1, fx0:fx1] = (roi * (1 - m) + np.float32(colour) * m).astype(np.uint8)


def render_tile(tile: str, edition: Edition, rng: np.random.Generator) -> np.ndarray:
    """The upright face of one tile, TILE_H x TILE_W x 4 (BGRA; alpha rounds the corners)."""
    face = np.empty((TILE_H, TILE_W, 3), np.uint8)
    face[:] = edition.face
    # Slight shading across the face (moulded plastic).
    g = np.linspace(1.02, 0.95, TILE_H, dtype=np.float32)[:, None, None]
    face = np.clip(face * g, 0, 255).astype(np.uint8)
    cy = edition.number_y * TILE_H
    if edition.circle:
        shade = tuple(int(c * 0.95) for c in edition.face)
        cv2.circle(face, (TILE_W // 2, int(cy)), int(TILE_W * 0.4), shade, -1, cv2.LINE_AA)
    if edition.logo:
        logo = tuple(int(c * 0.8) for c in edition.face)
        ly = int(min(TILE_H * 0.88, cy + TILE_H * 0.4))
        cv2.putText(face, "Rummikub", (int(TILE_W * 0.12), ly), cv2.FONT_HERSHEY_SIMPLEX,
                    0.45 * TILE_W / 120, logo, 1, cv2.LINE_AA)
    nh = int(edition.number_h * TILE_H)
    if tile == "J":
        _draw_joker(face, edition, cy, nh)
    else:
        colour = edition.inks[tile[0]]
        jitter = np.array(colour, np.float32) + rng.normal(0, 8, 3)
        colour = tuple(int(v) for v in np.clip(jitter, 0, 255))
        text = tile[1:]
        mask = _text_mask(text, edition.font, nh, edition.thickness)
        if mask.shape[1] > TILE_W * 0.86:
            mask = cv2.resize(mask, (int(TILE_W * 0.86), nh), interpolation=cv2.INTER_AREA)
        _paste_ink(face, mask, TILE_W / 2, cy, colour)
        if edition.bars_69 and text in ("6", "9"):
            y = int(cy + nh / 2 + nh * 0.12)
            cv2.line(face, (int(TILE_W * 0.35), y), (int(TILE_W * 0.65), y), colour,
                     max(2, nh // 12), cv2.LINE_AA)
    alpha = np.zeros((TILE_H, TILE_W), np.uint8)
    r = int(edition.corner_r * TILE_W)
    cv2.rectangle(alpha, (r, 0), (TILE_W - 1 - r, TILE_H - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (TILE_W - 1, TILE_H - 1 - r), 255, -1)
    for x, y in ((r, r), (TILE_W - 1 - r, r), (r, TILE_H - 1 - r), (TILE_W - 1 - r, TILE_H - 1 - r)):
        cv2.circle(alpha, (x, y), r, 255, -1, cv2.LINE_AA)
    return np.dstack([face, alpha])


def _draw_joker(face: np.ndarray, edition: Edition, cy: float, nh: int) -> None:
    c = edition.joker_colour
    cx, r = TILE_W // 2, int(nh * 0.55)
    cyi = int(cy)
    th = max(2, r // 7)
    if edition.joker_style == 0:  # smiling face
        cv2.circle(face, (cx, cyi), r, c, th, cv2.LINE_AA)
        cv2.circle(face, (cx - r // 3, cyi - r // 4), max(2, r // 7), c, -1, cv2.LINE_AA)
        cv2.circle(face, (cx + r // 3, cyi - r // 4), max(2, r // 7), c, -1, cv2.LINE_AA)
        cv2.ellipse(face, (cx, cyi + r // 8), (r // 2, r // 3), 0, 15, 165, c, th, cv2.LINE_AA)
    elif edition.joker_style == 1:  # filled face, light features
        cv2.circle(face, (cx, cyi), r, c, -1, cv2.LINE_AA)
        light = edition.face
        cv2.circle(face, (cx - r // 3, cyi - r // 4), max(2, r // 6), light, -1, cv2.LINE_AA)
        cv2.circle(face, (cx + r // 3, cyi - r // 4), max(2, r // 6), light, -1, cv2.LINE_AA)
        cv2.ellipse(face, (cx, cyi + r // 8), (r // 2, r // 3), 0, 15, 165, light, th, cv2.LINE_AA)
    else:  # jester hat and face
        pts = np.array([[cx - r, cyi - r // 5], [cx - r // 2, cyi - r], [cx, cyi - r // 3],
                        [cx + r // 2, cyi - r], [cx + r, cyi - r // 5]], np.int32)
        cv2.polylines(face, [pts], False, c, th, cv2.LINE_AA)
        cv2.circle(face, (cx, cyi + r // 4), int(r * 0.65), c, th, cv2.LINE_AA)
        cv2.circle(face, (cx - r // 4, cyi + r // 6), max(2, r // 9), c, -1, cv2.LINE_AA)
        cv2.circle(face, (cx + r // 4, cyi + r // 6), max(2, r // 9), c, -1, cv2.LINE_AA)


# ---------------------------------------------------------------- backgrounds

def _background(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    kind = rng.choice(["wood", "wood", "cloth", "marble", "felt", "plain", "dark"])
    if kind == "wood":
        base = np.array([rng.uniform(40, 110), rng.uniform(80, 150), rng.uniform(120, 200)])
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        f = rng.uniform(0.02, 0.08)
        grain = np.sin(y * f + 3 * np.sin(x * rng.uniform(0.002, 0.01)) +
                       rng.normal(0, 1, (h, 1)).cumsum(0) * 0.02)
        noise = cv2.resize(rng.normal(0, 1, (max(2, h // 8), max(2, w // 64))).astype(np.float32),
                           (w, h))
        v = (grain * 0.12 + noise * 0.06)[:, :, None]
        img = base[None, None, :] * (1 + v)
    elif kind == "marble":
        base = rng.uniform(200, 240)
        n = cv2.resize(rng.normal(0, 1, (h // 40 + 2, w // 40 + 2)).astype(np.float32), (w, h))
        veins = np.abs(np.sin(n * 4 + np.arange(w)[None, :] * 0.01)) < 0.08
        img = np.full((h, w, 3), base, np.float32) - veins[:, :, None] * rng.uniform(30, 80)
        img = cv2.GaussianBlur(img, (0, 0), 1.5)
    elif kind == "cloth":
        base = rng.uniform(90, 200, 3)
        img = base[None, None, :] + rng.normal(0, 18, (h, w, 1))
        img += (np.sin(np.arange(w) * rng.uniform(0.5, 1.5)) * 8)[None, :, None]
    elif kind == "felt":
        base = np.array([rng.uniform(20, 80), rng.uniform(80, 140), rng.uniform(20, 70)])
        if rng.random() < 0.5:
            base = base[[2, 1, 0]] if rng.random() < 0.5 else base[[0, 2, 1]]
        img = base[None, None, :] + rng.normal(0, 6, (h, w, 1))
    elif kind == "dark":
        img = rng.uniform(15, 60, 3)[None, None, :] + rng.normal(0, 5, (h, w, 1))
    else:
        img = rng.uniform(60, 235, 3)[None, None, :] + rng.normal(0, 4, (h, w, 1))
    return np.clip(img, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- scenes

class Labels(list):
    """``[(tile, corners), ...]`` for a rendered image; ``melds``: label indices per meld, as
    laid (the last "melds" may be rack rows, listed in ``racks``)."""

    def __init__(self, items=(), melds=None, racks=None):
        super().__init__(items)
        self.melds: list[list[int]] = melds or []
        self.racks: list[list[int]] = racks or []


def _table_melds(table) -> list[list[str]]:
    if isinstance(table, str):
        from referee import parse_table
        table = parse_table(table, check=False)
    if hasattr(table, "melds"):
        return [[str(t) for t in m] for m in table.melds]
    return [[str(t) for t in m] for m in table]


def _warp_tile(canvas: np.ndarray, face_rgba: np.ndarray, corners: np.ndarray,
               side_colour, thickness_vec: np.ndarray, shadow: float) -> None:
    """Draw a tile (its side, shadow and face) onto ``canvas`` at image ``corners``."""
    h, w = canvas.shape[:2]
    x0, y0 = np.floor(corners.min(0) - 12).astype(int)
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


def _apply_h(hm: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float32), hm)
    return p.reshape(-1, 2)


def render_table(table, seed: int = 0, *, size: tuple[int, int] = (1000, 750),
                 tile_width: float | None = None, edition: Edition | None = None,
                 classic: bool | None = None, upside_down: float = 0.15,
                 angle: float | None = None, tilt: float | None = None, rack=None,
                 background: np.ndarray | None = None, quality: bool = True
                 ) -> tuple[np.ndarray, Labels]:
    """Render a photo of ``table`` (notation text, a ``referee.Table`` or lists of tiles).

    Returns ``(bgr_image, labels)``: ``labels`` is a list of ``(tile, corners)`` (corners
    4x2 float32, TL TR BR BL as the tile is read, in image pixels) in table order, with
    ``labels.melds`` the label indices of each meld as laid. ``rack``: optional tiles
    (notation) standing on a rack at the bottom (their indices in ``labels.racks``).
    ``tile_width``: pixels (default: chosen so the table fits). ``classic``: white tiles like
    the real photos (default: a random edition, classic a third of the time). The melds are
    laid in rows; each meld may be turned upside down with probability ``upside_down``.
    """
    rng = np.random.default_rng(seed)
    melds = _table_melds(table)
    w, h = size
    if edition is None:
        if classic is None:
            classic = bool(rng.random() < 0.33)
        edition = Edition.random(rng, classic=classic)
    img = _background(h, w, rng) if background is None else cv2.resize(background, (w, h))
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
            corners = _apply_h(hm, pts)
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
        _warp_tile(img, faces_cache[tile], corners, edition.side, tv, shadow)
    if quality:
        img = _photo_effects(img, rng)
    return img, labels


def _photo_effects(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    # light: colour temperature, brightness gradient, a soft shadow
    temp = rng.uniform(-0.12, 0.12)
    f *= np.array([1 - temp, 1.0, 1 + temp], np.float32)
    gx = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    gy = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    grad = 1 + rng.uniform(-0.25, 0.25) * gx + rng.uniform(-0.25, 0.25) * gy
    f *= grad[:, :, None] * rng.uniform(0.6, 1.2)
    if rng.random() < 0.3:
        m = np.zeros((h, w), np.float32)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        cv2.ellipse(m, (int(cx), int(cy)), (int(rng.uniform(0.1, 0.5) * w), int(rng.uniform(0.1, 0.4) * h)),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), w * 0.03)
        f *= (1 - rng.uniform(0.2, 0.5) * m)[:, :, None]
    if rng.random() < 0.4:
        k = float(rng.uniform(0.5, 1.6))
        f = cv2.GaussianBlur(f, (0, 0), k)
    f += rng.normal(0, rng.uniform(1, 6), f.shape).astype(np.float32)
    img = np.clip(f, 0, 255).astype(np.uint8)
    q = int(rng.integers(55, 95))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img


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


def random_scene(seed: int, size: tuple[int, int] | None = None) -> tuple[np.ndarray, Labels]:
    """A random synthetic photo for training: a random table (sometimes a rack, sometimes
    only a few loose tiles, rarely none), a random edition, camera and light."""
    rng = np.random.default_rng(seed)
    if size is None:
        size = [(1000, 750), (750, 1000), (1024, 768), (800, 800), (1200, 900)][int(rng.integers(5))]
    r = rng.random()
    if r < 0.04:
        melds = []
    elif r < 0.2:
        melds = [[TILES[int(rng.integers(len(TILES)))]] for _ in range(int(rng.integers(1, 6)))]
    else:
        melds = random_table(rng)
    rack = None
    if rng.random() < 0.25:
        rack = [TILES[int(rng.integers(len(TILES)))] for _ in range(int(rng.integers(3, 12)))]
    tile_width = float(np.exp(rng.uniform(np.log(35), np.log(140)))) if rng.random() < 0.5 else None
    return render_table(melds, seed=int(rng.integers(1 << 31)), size=size, rack=rack,
                        tile_width=tile_width, upside_down=0.3)
