"""Shapes shared by training and inference (numpy + OpenCV only).

Corners of a tile are always given as 4x2 float arrays in the tile's own upright frame:
top-left, top-right, bottom-right, bottom-left (as a person reading the tile sees them),
so the corners also say which way up the tile lies.
"""

from __future__ import annotations

import numpy as np

from .labels import TILES

#: The detector sees the image with its longer side scaled to this many pixels.
DET_SIZE = 576
#: Training scales each image relative to this longer side (x 0.55 to 1.8), so the finder
#: has seen tiles at the sizes DET_SIZE gives (chosen on synthetic and training images).
TRAIN_BASE_SIZE = 448
#: Detector input sides are padded to a multiple of this.
DET_PAD = 32
#: The detector's output resolution is 1/STRIDE of its input.
STRIDE = 4
#: The detector's "centre" target is the tile rectangle shrunk to this fraction.
KERNEL_SHRINK = 0.5
#: Straightened tile crops for the classifier (width x height, long side vertical).
CROP_W, CROP_H = 40, 56
#: Each side of a crop shows this fraction of the tile's size beyond its outline.
CROP_MARGIN = 0.06
#: Classifier outputs: 53 tiles upright, the same 53 upside down, then "not a tile".
N_TILES = len(TILES)
NOT_A_TILE = 2 * N_TILES
N_CLASSES = 2 * N_TILES + 1
#: Typical tile aspect (short side / long side).
TILE_ASPECT = 0.72


def normalise(rgb_or_bgr: np.ndarray) -> np.ndarray:
    """HxWx3 uint8 BGR -> 3xHxW float32 RGB, centred (the networks' input)."""
    x = rgb_or_bgr[:, :, ::-1].astype(np.float32)
    x = (x - 127.5) * (1.0 / 64.0)
    return np.ascontiguousarray(x.transpose(2, 0, 1))


def rect_from_points(points: np.ndarray) -> tuple[np.ndarray, float, float, np.ndarray]:
    """(centre, short side, long side, unit vector along the long side) of an outline."""
    import cv2

    (cx, cy), (a, b), ang = cv2.minAreaRect(np.asarray(points, dtype=np.float32).reshape(-1, 2))
    t = np.deg2rad(ang)
    ux = np.array([np.cos(t), np.sin(t)], dtype=np.float32)  # along side "a"
    uy = np.array([-np.sin(t), np.cos(t)], dtype=np.float32)  # along side "b"
    if a >= b:
        return np.array([cx, cy], np.float32), float(b), float(a), ux
    return np.array([cx, cy], np.float32), float(a), float(b), uy


def rect_corners(centre, short: float, long: float, down) -> np.ndarray:
    """Corners TL, TR, BR, BL of a tile whose "down" direction is the unit vector ``down``."""
    d = np.asarray(down, dtype=np.float32)
    d = d / max(float(np.hypot(*d)), 1e-9)
    r = np.array([d[1], -d[0]], dtype=np.float32)  # down (0, 1) -> right (1, 0)
    c = np.asarray(centre, dtype=np.float32)
    hw, hh = short / 2.0, long / 2.0
    return np.stack([c - hw * r - hh * d, c + hw * r - hh * d,
                     c + hw * r + hh * d, c - hw * r + hh * d]).astype(np.float32)


def upright_corners(points: np.ndarray, down_hint=(0.0, 1.0)) -> np.ndarray:
    """Corners TL, TR, BR, BL of an outline, "down" being the long-axis direction nearest
    ``down_hint``. For 4-point outlines the points themselves are kept (perspective)."""
    pts = np.asarray(points, dtype=np.float32).reshape(-1, 2)
    centre, short, long, u = rect_from_points(pts)
    hint = np.asarray(down_hint, dtype=np.float32)
    if float(u @ hint) < 0:
        u = -u
    rect = rect_corners(centre, short, long, u)
    if len(pts) != 4:
        return rect
    # Match each rectangle corner to the nearest outline point (keeps perspective).
    out = np.empty_like(rect)
    used: set[int] = set()
    for i, p in enumerate(rect):
        dists = np.hypot(*(pts - p).T)
        order = [j for j in np.argsort(dists) if j not in used]
        j = order[0]
        used.add(j)
        out[i] = pts[j]
    return out


def flip_corners(corners: np.ndarray) -> np.ndarray:
    """The same outline, read the other way up (TL<->BR, TR<->BL)."""
    c = np.asarray(corners)
    return c[[2, 3, 0, 1]].copy()


def crop_matrix(corners: np.ndarray, margin: float = CROP_MARGIN) -> np.ndarray:
    """Perspective transform taking the tile (TL, TR, BR, BL) to a CROP_W x CROP_H crop."""
    import cv2

    mx, my = margin * CROP_W, margin * CROP_H
    dst = np.array([[mx, my], [CROP_W - mx, my], [CROP_W - mx, CROP_H - my],
                    [mx, CROP_H - my]], dtype=np.float32)
    return cv2.getPerspectiveTransform(np.asarray(corners, dtype=np.float32), dst)


class CropSource:
    """Cuts straightened tile crops from one image, from a coarser pyramid level for big
    tiles (so a close-up does not alias)."""

    def __init__(self, image: np.ndarray):
        self.levels = [image]

    def _level(self, k: int) -> np.ndarray:
        import cv2

        while len(self.levels) <= k:
            self.levels.append(cv2.pyrDown(self.levels[-1]))
        return self.levels[k]

    def crop(self, corners: np.ndarray, margin: float = CROP_MARGIN) -> np.ndarray:
        import cv2

        c = np.asarray(corners, dtype=np.float32)
        width = float(np.hypot(*(c[1] - c[0])))
        k = 0
        while width / (2 ** (k + 1)) >= 1.5 * CROP_W and k < 6:
            k += 1
        m = crop_matrix(c / (2 ** k), margin)
        return cv2.warpPerspective(self._level(k), m, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)


def detector_input(img: np.ndarray, size: int = DET_SIZE) -> tuple[np.ndarray, float]:
    """The detector's input (1x3xHxW float32) for a BGR image, and the scale applied."""
    import cv2

    h, w = img.shape[:2]
    scale = size / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(img, (nw, nh), interpolation=interp)
    ph, pw = -(-nh // DET_PAD) * DET_PAD, -(-nw // DET_PAD) * DET_PAD
    canvas = np.full((ph, pw, 3), 114, dtype=np.uint8)
    canvas[:nh, :nw] = small
    return normalise(canvas)[None], scale


#: A set has 106 tiles: more finds than this in one image mean noise, not tiles.
MAX_DETECTIONS = 300


def decode_detections(out: np.ndarray, scale: float, threshold: float = 0.5,
                      min_pixels: int = 1, max_detections: int = MAX_DETECTIONS) -> list[dict]:
    """Tiles from the detector's 7xHxW output: centre, short and long side (image pixels),
    long-axis direction and score. The long-axis sign is arbitrary (the classifier decides
    which way is up)."""
    import cv2

    heat = 1.0 / (1.0 + np.exp(-out[0]))
    mask = heat > threshold
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        return []
    # Every pixel votes for its tile's centre (its offset output); votes of one tile land
    # within a pixel or so, so touching tiles whose centre maps merge still come apart.
    hh, ww = heat.shape
    vx = np.clip(np.round(xs + out[1, ys, xs]).astype(np.int64), 0, ww - 1)
    vy = np.clip(np.round(ys + out[2, ys, xs]).astype(np.int64), 0, hh - 1)
    votes = np.zeros((hh, ww), np.uint8)
    votes[vy, vx] = 1
    votes = cv2.dilate(votes, np.ones((3, 3), np.uint8))
    n, lab = cv2.connectedComponents(votes, connectivity=8)
    comp = lab[vy, vx]
    wgt = heat[ys, xs].astype(np.float64)

    def wsum(v):
        return np.bincount(comp, weights=wgt * v, minlength=n)

    total = np.bincount(comp, weights=wgt, minlength=n)
    count = np.bincount(comp, minlength=n)
    peak = np.zeros(n)
    np.maximum.at(peak, comp, heat[ys, xs])
    cx = wsum(xs + 0.5 + out[1, ys, xs]) / np.maximum(total, 1e-9)
    cy = wsum(ys + 0.5 + out[2, ys, xs]) / np.maximum(total, 1e-9)
    ls = wsum(out[3, ys, xs]) / np.maximum(total, 1e-9)
    ll = wsum(out[4, ys, xs]) / np.maximum(total, 1e-9)
    c2 = wsum(out[5, ys, xs])
    s2 = wsum(out[6, ys, xs])
    k = STRIDE / scale
    dets = []
    ids = [i for i in range(1, n) if count[i] >= min_pixels]
    if len(ids) > max_detections:  # bounded work, whatever the model outputs
        ids = sorted(ids, key=lambda i: -total[i])[:max_detections]
    for i in ids:
        a = 0.5 * np.arctan2(s2[i], c2[i])
        u = np.array([np.cos(a), np.sin(a)], dtype=np.float32)
        if u[1] < 0 or (u[1] == 0 and u[0] < 0):
            u = -u  # point "down" the image by default
        short, long = float(np.exp(ls[i]) * k), float(np.exp(ll[i]) * k)
        if long < short:
            short, long = long, short
        dets.append({"centre": np.array([cx[i] * k, cy[i] * k], np.float32), "short": short,
                     "long": long, "down": u, "score": float(peak[i])})
    return dets
