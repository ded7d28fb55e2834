"""The training data: real photos with their reviewed labels (which way up each tile lies,
told by its ink), synthetic scenes, and the jitter and photometric noise applied to both."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ..geometry import CropSource, flip_corners, upright_corners
from ..labels import iter_labelled


def ink_says_upside_down(crop: np.ndarray) -> bool:
    """For a classic tile crop (long side vertical): is the numeral in the lower half?

    The numeral (dark or saturated ink) sits above the middle of an upright tile; the logo
    below is faint. Used to tell which way up the real training tiles lie (their outlines
    do not say)."""
    import cv2

    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).astype(np.float32)
    s, v = hsv[:, :, 1], hsv[:, :, 2]
    h, w = s.shape
    inner = (slice(int(h * 0.08), int(h * 0.92)), slice(int(w * 0.1), int(w * 0.9)))
    ink = ((s > 90) | (v < np.median(v[inner]) * 0.55)).astype(np.float32)
    ink[:int(h * 0.08)] = 0
    ink[int(h * 0.92):] = 0
    total = ink.sum()
    if total < 5:
        return False
    cy = (ink.sum(1) * np.arange(h)).sum() / total
    return cy > h / 2


def jitter(corners: np.ndarray, rng: np.random.Generator, amount: float = 1.0) -> np.ndarray:
    """Corners moved like a detector's error: shift, scale, rotate (keeps the reading order).

    Most turns are small; one crop in four (at full ``amount``) is turned by up to 30 degrees,
    as the finder's direction can be that far off for a tilted, thick tile seen from the side
    (the reader also looks at each tile turned by 15 and 30 degrees, see ``vision.reader``)."""
    c = corners.mean(0)
    width = float(np.hypot(*(corners[1] - corners[0])))
    if rng.random() < 0.25 * amount:
        a = math.radians(rng.uniform(-30.0, 30.0))
    else:
        a = math.radians(rng.normal(0, 3.0 * amount))
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    sc = np.array([rng.uniform(1 - 0.07 * amount, 1 + 0.1 * amount)], np.float32)
    shift = rng.normal(0, 0.04 * amount * width, 2).astype(np.float32)
    return ((corners - c) * sc) @ rot.T + c + shift


def real_items(photos: Path, max_photos: int | None):
    items = list(iter_labelled(photos / "train")) if (photos / "train").is_dir() else []
    if max_photos is not None:
        items = items[:max_photos]
    return items


def load_real(items, max_side: int = 1280):
    import cv2

    out = []
    for it in items:
        img = cv2.imread(str(it.path))
        if img is None:
            continue
        s = min(1.0, max_side / max(img.shape[:2]))
        if s < 1:
            img = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        corners = [c * s for c in it.corners()]
        out.append((img, it.tiles, corners))
    return out


def real_orientations(real):
    """Upright corners for every real tile (down = image-down nearest, then the ink check)."""
    fixed = []
    flipped = 0
    for img, tiles, corners in real:
        src = CropSource(img)
        ups = []
        for c in corners:
            u = upright_corners(c)
            if ink_says_upside_down(src.crop(u)):
                u = flip_corners(u)
                flipped += 1
            ups.append(u)
        fixed.append((img, tiles, ups))
    return fixed, flipped


def synth_scenes(n: int, seed: int, desc: str, pasted_share: float = 0.0,
                 rack_share: float = 0.0):
    from tqdm import tqdm

    from ..synth import random_scene

    out = []
    for k in tqdm(range(n), desc=desc, unit="img", mininterval=2):
        img, labels = random_scene(seed=seed + k, pasted_share=pasted_share,
                                   rack_share=rack_share)
        out.append((img, [t for t, _ in labels], [c for _, c in labels]))
    return out


def photometric(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    import cv2

    f = x.astype(np.float32)
    f = f * rng.uniform(0.8, 1.2, 3).astype(np.float32) * rng.uniform(0.65, 1.3)
    f = (f - f.mean()) * rng.uniform(0.75, 1.25) + f.mean()
    if rng.random() < 0.15:
        g = f.mean(2, keepdims=True)
        f = f * 0.4 + g * 0.6
    if rng.random() < 0.25:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.5, 1.5))
    if rng.random() < 0.5:
        f += rng.normal(0, rng.uniform(2, 8), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)
