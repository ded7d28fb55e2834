"""Table surfaces under the tiles (:func:`table_surface`): wood, marble, cloth, felt, dark
and plain."""

from __future__ import annotations

import cv2
import numpy as np

def table_surface(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
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
