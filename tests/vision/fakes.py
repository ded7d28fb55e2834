"""Test doubles for the watcher's state-machine tests (NOT the tile reader).

``render_coded(table)`` draws a table as plain rectangles on green felt, each rectangle's fill
colour encoding its tile; ``CodedFrameReader`` decodes exactly those frames. They exist only to
test turn detection, hands, sampling and consensus without depending on the real reader; the
end-to-end tests use ``vision.synth.render_table`` and the real ``vision`` reader.
"""

from __future__ import annotations

import numpy as np

import referee
from vision.reading import Reading, TileReading

FELT = (40, 110, 40)
SKIN = (120, 160, 220)
TILE_W, TILE_H, GAP, MELD_GAP = 26, 36, 3, 24
ALL_TILES = [f"{c}{n}" for c in "KBOR" for n in range(1, 14)] + ["J"]


def _code(tile: str) -> tuple[int, int, int]:
    i = ALL_TILES.index(tile)
    return (150 + 2 * i, 230, 240)   # B channel carries the tile


def _decode(bgr) -> str | None:
    b, g, r = (int(v) for v in bgr)
    if g < 200 or r < 200 or b < 150:
        return None
    i = round((b - 150) / 2)
    return ALL_TILES[i] if 0 <= i < len(ALL_TILES) else None


_NOISE: dict = {}


def _noise(k: int, shape) -> np.ndarray:
    if (k, shape) not in _NOISE:
        _NOISE[(k, shape)] = np.random.default_rng(k).integers(0, 4, shape, dtype=np.uint8)
    return _NOISE[(k, shape)]


def layout(table: str, width: int = 640) -> list[list[tuple[str, tuple[int, int]]]]:
    """Where each tile of each meld lies: melds left to right, wrapping into rows."""
    melds = [[str(t) for t in m] for m in referee.parse_table(table).melds] if table.strip() else []
    out, x, y = [], 40, 60
    for m in melds:
        w = len(m) * (TILE_W + GAP)
        if x + w > width - 40:
            x, y = 40, y + TILE_H + 30
        out.append([(t, (x + i * (TILE_W + GAP), y)) for i, t in enumerate(m)])
        x += w + MELD_GAP
    return out


def render_coded(table: str, size=(640, 480), seed: int = 0, arm: float | None = None,
                 glitch: dict | None = None) -> np.ndarray:
    """A frame of ``table``. ``arm``: a skin-coloured arm reaching in from the bottom edge to
    this fraction of the height (covering tiles). ``glitch``: {tile: other} drawn wrongly
    (a misread frame)."""
    import cv2

    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    img[:] = FELT
    img += _noise(seed % 8, img.shape)  # a little sensor noise, different frame to frame
    for meld in layout(table, w):
        for tile, (x, y) in meld:
            t = (glitch or {}).get(tile, tile)
            cv2.rectangle(img, (x, y), (x + TILE_W - 1, y + TILE_H - 1), _code(t), -1)
    if arm is not None:
        top = int(h * (1 - arm))
        cx = 110  # over the first meld
        pts = np.array([[cx - 60, h], [cx + 60, h], [cx + 40, top], [cx - 40, top]])
        cv2.fillPoly(img, [pts], SKIN)
        cv2.ellipse(img, (cx, top), (55, 40), 0, 0, 360, SKIN, -1)
    return img


class CodedFrameReader:
    """Test double: decodes ``render_coded`` frames (a tile per coded rectangle, melds by rows
    and gaps) into a ``vision.Reading``, as the real reader does."""

    def __init__(self):
        self.calls = 0

    def __call__(self, image):
        import cv2

        self.calls += 1
        mask = np.zeros(image.shape[:2], np.uint8)
        b, g, r = image[..., 0].astype(int), image[..., 1].astype(int), image[..., 2].astype(int)
        mask[(g >= 200) & (r >= 200) & (b >= 150)] = 255
        # split touching tiles apart at the gaps: they are separate components already (GAP px)
        n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, 4)
        tiles = []
        for i in range(1, n):
            x, y, bw, bh, area = stats[i]
            if area < 0.5 * TILE_W * TILE_H or bw > TILE_W + 2 or bh > TILE_H + 2:
                continue
            cx, cy = int(cents[i][0]), int(cents[i][1])
            tile = _decode(image[cy, cx])
            if tile is None:
                continue
            tiles.append((tile, int(x), int(y), int(bw), int(bh)))
        tiles.sort(key=lambda t: (t[2] // 20, t[1]))
        melds, cur, last = [], [], None
        for i, (_, x, y, _, _) in enumerate(tiles):
            if last is not None and (abs(y - last[1]) > 10 or x - (last[0] + TILE_W) > GAP + 6):
                melds.append(cur)
                cur = []
            cur.append(i)
            last = (x, y)
        if cur:
            melds.append(cur)
        return Reading([TileReading(tile, 0.99, np.array(
            [[x, y], [x + bw, y], [x + bw, y + bh], [x, y + bh]], np.float32))
            for tile, x, y, bw, bh in tiles], melds)


class NullSource:
    """A frame source that delivers nothing: the tests feed the watcher's frames by hand."""

    buffer = None

    def start(self):
        return self

    def stop(self):
        pass
