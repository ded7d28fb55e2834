"""One tile's face, drawn for an edition: the numeral in its ink, or the joker's face.

    >>> from vision.synth.editions import edition
    >>> face = render_tile("R7", edition("modern-bold"), np.random.default_rng(0))
    >>> face.shape                    # TILE_H x TILE_W x 4 (BGRA; alpha rounds the corners)
    (168, 120, 4)
"""

from __future__ import annotations

import cv2
import numpy as np

from .editions import Edition

TILE_W, TILE_H = 120, 168  # face raster (pixels), aspect of a real tile

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
    if isinstance(font, str) and thickness < 0.85:  # thinner strokes than the font's own
        k = max(1, int(round((0.85 - thickness) * height_px * 0.12)))
        m = cv2.erode(m, np.ones((k + 1, k + 1), np.uint8))
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
    elif edition.joker_style == 3:  # filled face under a filled hat
        cv2.circle(face, (cx, cyi + r // 5), int(r * 0.7), c, -1, cv2.LINE_AA)
        hat = np.array([[cx - r, cyi - r // 6], [cx - r // 2, cyi - r], [cx, cyi - r // 2],
                        [cx + r // 2, cyi - r], [cx + r, cyi - r // 6]], np.int32)
        cv2.fillPoly(face, [hat], c, cv2.LINE_AA)
        light = edition.face
        for dx in (-r // 4, r // 4):
            cv2.circle(face, (cx + dx, cyi + r // 8), max(2, r // 8), light, -1, cv2.LINE_AA)
        cv2.ellipse(face, (cx, cyi + r // 3), (r // 3, r // 5), 0, 15, 165, light, max(2, th // 2),
                    cv2.LINE_AA)
    elif edition.joker_style == 4:  # a star with a J in it
        ang = np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:-1]
        rad = np.where(np.arange(10) % 2 == 0, r * 1.05, r * 0.45)
        star = np.stack([cx + rad * np.cos(ang), cyi + rad * np.sin(ang)], 1).astype(np.int32)
        cv2.fillPoly(face, [star], c, cv2.LINE_AA)
        cv2.putText(face, "J", (cx - r // 5, cyi + r // 5), cv2.FONT_HERSHEY_SIMPLEX,
                    r / 40, edition.face, max(1, th // 2), cv2.LINE_AA)
    else:  # jester hat and face
        pts = np.array([[cx - r, cyi - r // 5], [cx - r // 2, cyi - r], [cx, cyi - r // 3],
                        [cx + r // 2, cyi - r], [cx + r, cyi - r // 5]], np.int32)
        cv2.polylines(face, [pts], False, c, th, cv2.LINE_AA)
        cv2.circle(face, (cx, cyi + r // 4), int(r * 0.65), c, th, cv2.LINE_AA)
        cv2.circle(face, (cx - r // 4, cyi + r // 6), max(2, r // 9), c, -1, cv2.LINE_AA)
        cv2.circle(face, (cx + r // 4, cyi + r // 6), max(2, r // 9), c, -1, cv2.LINE_AA)
