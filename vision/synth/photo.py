"""What a camera does to a scene: light colour and gradients, shadows, blur, noise, JPEG.

:func:`photo_effects` is the general mix used for tables; :func:`phone_effects` adds what
phone photos of racks and close-ups show: the phone's white balance (warm under lamps, cool
by a window, a green or magenta cast), a white face pushed towards clipping by the
exposure, and defocus or motion blur from a hand-held camera close to the tiles.
"""

from __future__ import annotations

import cv2
import numpy as np

def photo_effects(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
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


def phone_effects(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A phone's photo of ``img``: white balance, exposure, blur, then :func:`photo_effects`."""
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    warm = rng.uniform(-0.25, 0.3)                   # + under lamps, - in shade
    tint = rng.uniform(-0.08, 0.08)                  # + green (fluorescent), - magenta
    f *= np.array([1 - warm, 1 + tint, 1 + warm * 0.8], np.float32)
    f *= rng.uniform(0.9, 1.35)                      # exposure: white faces near clipping
    if rng.random() < 0.6:
        sigma = rng.uniform(0.5, 2.5) * max(h, w) / 1000
        if rng.random() < 0.5:
            f = cv2.GaussianBlur(f, (0, 0), sigma)
        else:
            k = max(3, int(sigma * 4) | 1)
            kernel = np.zeros((k, k), np.float32)
            cv2.line(kernel, (0, k // 2), (k - 1, k // 2), 1.0)
            rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
            kernel = cv2.warpAffine(kernel, rot, (k, k))
            f = cv2.filter2D(f, -1, kernel / max(kernel.sum(), 1e-6))
    return photo_effects(np.clip(f, 0, 255).astype(np.uint8), rng)
