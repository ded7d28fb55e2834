"""Close phone photos of single tiles, shrunk to a table tile's size and pasted into a table
scene: how a test set is made from close-ups of real tiles of an edition no other photo shows.

    >>> image, labels = render_pasted("R3 R4 R5 | K6 B6 O6", seed=2)
    >>> labels[0][0], labels[0][1].shape     # where each whole tile was pasted
    ('R3', (4, 2))

:func:`photograph_tile` takes one close photo of one tile (its face filling most of a phone
picture): the face's rounded rim (shaded darker towards the edge, a light line where it
meets the side), the tile's side (its thickness) seen at the camera's angle, perspective,
shading across the face, the phone's white balance, blur and noise. :func:`render_pasted`
lays a table out as :func:`vision.synth.render_table` does, and over each tile pastes such a
photo cut around the whole tile (side included, with a little of the photo's background),
scaled so its face covers the table tile's face.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from .backgrounds import table_surface
from .editions import EDITIONS, Edition, edition as named_edition
from .photo import phone_effects, photo_effects
from .table import Labels, render_table
from .tiles import TILE_H, TILE_W, render_tile

#: How much bigger than the face raster a close photo draws the tile.
PHOTO_SCALE = 3


def _rimmed(face_rgba: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The face with a rounded rim: darker towards the edge (lit from one side), and a thin
    light line along the edge where the light catches it."""
    face = face_rgba[:, :, :3].astype(np.float32)
    alpha = face_rgba[:, :, 3]
    h, w = alpha.shape
    dist = cv2.distanceTransform((alpha > 127).astype(np.uint8), cv2.DIST_L2, 5)
    band = float(rng.uniform(0.03, 0.09)) * w
    t = np.clip(dist / band, 0, 1)
    light = rng.normal(0, 1, 2)
    light /= max(float(np.hypot(*light)), 1e-6)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    side = ((xx - w / 2) / w * light[0] + (yy - h / 2) / h * light[1]) * 2  # -1 .. 1
    depth = float(rng.uniform(0.12, 0.45))
    shade = 1 - depth * (1 - t) ** 2 * (0.75 + 0.5 * side)
    edge = np.exp(-((dist - band * 0.25) ** 2) / (2 * (band * 0.12) ** 2))
    shade += float(rng.uniform(0.0, 0.15)) * edge * (0.5 - 0.5 * side)
    face = np.clip(face * shade[:, :, None], 0, 255)
    return np.dstack([face.astype(np.uint8), alpha])


def photograph_tile(tile: str, edition: Edition, rng: np.random.Generator
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A close phone photo of one tile: ``(bgr_photo, face_corners, body_corners)``, the
    face's outline (TL, TR, BR, BL as read) and the outline of the whole tile as seen
    (face and side: 4 to 8 points)."""
    face = render_tile(tile, edition, rng)
    face = cv2.resize(face, (TILE_W * PHOTO_SCALE, TILE_H * PHOTO_SCALE),
                      interpolation=cv2.INTER_CUBIC)
    face = _rimmed(face, rng)
    fw, fh = face.shape[1], face.shape[0]
    # the photo: the face covers 40-75% of its height
    ph = int(fh / rng.uniform(0.4, 0.75))
    pw = int(ph * rng.uniform(0.75, 1.35))
    img = table_surface(ph, pw, rng)
    # the face's outline: a rectangle turned a little, seen in perspective
    ang = np.radians(rng.normal(0, 6))
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]], np.float32)
    rect = np.array([[-fw / 2, -fh / 2], [fw / 2, -fh / 2], [fw / 2, fh / 2],
                     [-fw / 2, fh / 2]], np.float32)
    rect = rect + rng.uniform(-0.08, 0.08, (4, 2)).astype(np.float32) * [fw, fh]
    centre = np.array([pw / 2, ph / 2], np.float32) + rng.uniform(-0.06, 0.06, 2) * [pw, ph]
    corners = (rect @ rot.T + centre).astype(np.float32)
    # the side: the tile's thickness, seen past one or two of its edges
    thick = float(rng.uniform(0.06, 0.3)) * fw
    # seen from below the tile half the time, else from either side of it
    a = rng.uniform(0, 2 * np.pi) if rng.random() < 0.5 else \
        rng.choice([0.0, np.pi]) + rng.normal(0, 0.3)
    tv = np.array([np.cos(a), np.sin(a)], np.float32) * thick
    body = cv2.convexHull(np.concatenate([corners, corners + tv]).astype(np.float32)
                          ).reshape(-1, 2)
    shadow = np.zeros((ph, pw), np.float32)
    cv2.fillPoly(shadow, [np.round((body + tv * 0.8) * 4).astype(np.int32)], 1.0,
                 cv2.LINE_AA, shift=2)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(2.0, thick * 0.6))
    f = img.astype(np.float32) * (1 - float(rng.uniform(0.2, 0.55)) * shadow)[:, :, None]
    side = np.zeros((ph, pw), np.float32)
    cv2.fillPoly(side, [np.round(body * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
    side_colour = np.float32(edition.face) * float(rng.uniform(0.55, 0.95))
    # the side darkens away from the face
    yy, xx = np.mgrid[0:ph, 0:pw].astype(np.float32)
    along = ((xx - centre[0]) * tv[0] + (yy - centre[1]) * tv[1]) / max(thick ** 2, 1e-6)
    side_shade = np.clip(1.05 - 0.02 * np.clip(along, 0, None), 0.7, 1.05)
    f = f * (1 - side[:, :, None]) + (side_colour * side_shade[:, :, None]) * side[:, :, None]
    m = cv2.getPerspectiveTransform(np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32),
                                    corners)
    warped = cv2.warpPerspective(face, m, (pw, ph), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    al = warped[:, :, 3:4].astype(np.float32) / 255.0
    f = f * (1 - al) + warped[:, :, :3].astype(np.float32) * al
    # light falling across the tile
    g = rng.normal(0, 1, 2)
    grad = 1 + float(rng.uniform(0, 0.18)) * ((xx / pw - 0.5) * g[0] + (yy / ph - 0.5) * g[1])
    f *= grad[:, :, None]
    photo = phone_effects(np.clip(f, 0, 255).astype(np.uint8), rng)
    return photo, corners, body.astype(np.float32)


def cut_tile(photo: np.ndarray, body: np.ndarray, rng: np.random.Generator,
             cut: str | None = None, margin: float | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """The whole tile (side included) cut out of its photo: ``(patch, mask)``. ``cut``:
    ``"box"``, an upright box around the tile with ``margin`` (a share of the box's size,
    default up to 6%) of the photo's background; ``"outline"``, along the tile's outline
    (the mask is 0 outside it). Default: either, at random."""
    cut = cut or ("box" if rng.random() < 0.5 else "outline")
    lo, hi = body.min(0), body.max(0)
    margin = (float(rng.uniform(0.0, 0.06)) if margin is None else margin) if cut == "box" \
        else 0.0
    pad = margin * (hi - lo)
    x0, y0 = np.floor(np.maximum(lo - pad, 0)).astype(int)
    x1, y1 = np.ceil(np.minimum(hi + pad, [photo.shape[1], photo.shape[0]])).astype(int)
    mask = np.full((y1 - y0, x1 - x0), 255, np.uint8)
    if cut == "outline":
        mask[:] = 0
        cv2.fillPoly(mask, [np.round((body - [x0, y0]) * 4).astype(np.int32)], 255,
                     cv2.LINE_AA, shift=2)
    elif cut != "box":
        raise ValueError(f"unknown cut {cut!r}: box or outline")
    return photo[y0:y1, x0:x1].copy(), mask


#: The largest numeral :func:`render_pasted` draws by default (share of the face's height).
BIG_NUMERAL = 0.6
#: The heaviest numeral stroke it draws by default (``Edition.thickness``; the named editions
#: draw 0.7 to 1.6).
HEAVY_NUMERAL = 1.8


def render_pasted(table, seed: int = 0, *, edition: Edition | str | None = None,
                  size: tuple[int, int] = (1000, 750), tile_width: float | None = None,
                  numeral: float | None = None, weight: float | None = None,
                  cut: str | None = None,
                  margin: float | None = None, stretch: bool | None = None,
                  quality: bool = True
                  ) -> tuple[np.ndarray, Labels]:
    """A table (notation, as :func:`vision.synth.render_table` takes it) whose every tile is
    a close photo of that tile (:func:`photograph_tile`), cut out whole (:func:`cut_tile`)
    and pasted over the table tile, scaled so the cut's longer side is the tile's length,
    or (``stretch``, default half the time) stretched to the table tile's width and length
    (``tile_width``: the table tiles' width in pixels, default 45 to 90). ``edition``:
    default a modern named one; ``numeral``: its numerals' height as a share of the face's
    (default from the edition's own up to :data:`BIG_NUMERAL`: the named editions draw
    0.33 to 0.42, and a real tile's numeral can fill more of its face); ``weight``: their
    stroke weight (``Edition.thickness``; default from the edition's own up to
    :data:`HEAVY_NUMERAL`). ``labels``: each pasted cut's outline (TL, TR, BR, BL as
    read), melds as laid."""
    rng = np.random.default_rng(seed)
    if edition is None:
        names = [n for n in EDITIONS if n.startswith("modern")]
        edition = names[int(rng.integers(len(names)))]
    if isinstance(edition, str):
        edition = named_edition(edition, rng)
    if numeral is None:
        numeral = float(rng.uniform(min(edition.number_h, BIG_NUMERAL), BIG_NUMERAL))
    if weight is None:
        weight = float(rng.uniform(min(edition.thickness, HEAVY_NUMERAL), HEAVY_NUMERAL))
    edition = replace(edition, number_h=numeral, thickness=weight, number_y=float(
        np.clip(edition.number_y, numeral / 2 + 0.06, 1 - numeral / 2 - 0.15)))
    if tile_width is None:
        tile_width = float(rng.uniform(45, 90))
    img, labels = render_table(table, int(rng.integers(1 << 31)), size=size,
                               tile_width=tile_width * 1.08, edition=edition, upside_down=0.15,
                               tilt=float(rng.uniform(0, 0.06)), quality=False)
    stretch = bool(rng.random() < 0.5) if stretch is None else stretch
    out = Labels(melds=labels.melds, racks=labels.racks)
    canvas = img.astype(np.float32)
    h, w = img.shape[:2]
    for tile, corners in labels:
        photo, _, body = photograph_tile(tile, edition, rng)
        patch, mask = cut_tile(photo, body, rng, cut, margin)
        right, down = corners[1] - corners[0], corners[3] - corners[0]
        long = 0.5 * (float(np.hypot(*down)) + float(np.hypot(*(corners[2] - corners[1]))))
        across = right
        right, down = right / np.hypot(*right), down / np.hypot(*down)
        k = long / patch.shape[0]
        pw, ph = max(2, round(patch.shape[1] * k)), max(2, round(patch.shape[0] * k))
        if stretch:
            pw = max(2, round(0.5 * (float(np.hypot(*across)) + float(np.hypot(
                *(corners[2] - corners[3]))))))
        patch = cv2.resize(patch, (pw, ph), interpolation=cv2.INTER_AREA)
        mask = cv2.resize(mask, (pw, ph), interpolation=cv2.INTER_AREA)
        box = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
        placed = (corners.mean(0) + (box[:, :1] - pw / 2) * right
                  + (box[:, 1:] - ph / 2) * down).astype(np.float32)
        m = cv2.getPerspectiveTransform(box, placed)
        warped = cv2.warpPerspective(patch, m, (w, h), flags=cv2.INTER_LINEAR)
        a = cv2.warpPerspective(mask, m, (w, h), flags=cv2.INTER_LINEAR)
        a = a[:, :, None].astype(np.float32) / 255
        canvas = canvas * (1 - a) + warped.astype(np.float32) * a
        out.append((tile, placed))
    img = np.clip(canvas, 0, 255).astype(np.uint8)
    if quality:
        img = photo_effects(img, rng)
    return img, out


__all__ = ["cut_tile", "photograph_tile", "render_pasted"]
