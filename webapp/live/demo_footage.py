"""The demo's footage: a generated round drawn frame by frame (``vision.synth.render_table``,
one cloth, tile edition and camera for the whole game), a skin-coloured arm reaching over the
table between turns, a little sensor noise; and a stand-in reader for when no trained reader can
be loaded, answering with the tables it drew. Nothing recorded is shipped."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterator, Optional

import numpy as np

from vision.reading import Reading, TileReading

#: (what happens, the table afterwards, seconds still, a hand rests over the table first)
DEMO_GAME = [
    ("start", "K5 B5 O5", 3.0, False),
    ("Ann opens with 33", "K5 B5 O5 | R10 R11 R12", 4.0, False),
    ("Ben tries to open with 6", "K5 B5 O5 | R10 R11 R12 | B1 B2 B3", 4.0, False),
    ("Ben restores the table", "K5 B5 O5 | R10 R11 R12", 3.0, False),
    ("Cy opens with a group", "K5 B5 O5 | R10 R11 R12 | K13 B13 O13", 4.0, True),
    ("Ann adds R13", "K5 B5 O5 | R10 R11 R12 R13 | K13 B13 O13", 4.0, False),
    ("Ben lays B7 B8 alone", "K5 B5 O5 | R10 R11 R12 R13 | K13 B13 O13 | B7 B8", 4.0, False),
]
DEMO_SEED = 11

Render = Callable[[str, int], tuple[np.ndarray, list]]


def renderer() -> Render:
    """``render(table, seed) -> (image, labels)``: ``vision.synth`` with one table cloth, tile
    edition and fixed camera for the whole game (a camera over a table sees the same light
    from one turn to the next)."""
    from vision.synth import render_table

    return lru_cache(maxsize=32)(lambda table, seed: render_table(
        table, seed=DEMO_SEED, angle=2.0, tilt=0.04, tile_width=64.0, quality=False))


def labels_reading(labels) -> Reading:
    """The reading a perfect reader would give, from ``vision.synth``'s labels."""
    tiles = [TileReading(str(tile), 1.0, np.asarray(corners, np.float32).reshape(4, 2))
             for tile, corners in labels]
    return Reading(tiles, [list(m) for m in labels.melds])


def demo_frames(fps: float = 15.0, game=DEMO_GAME, render: Optional[Render] = None,
                after: Optional[np.ndarray] = None) -> Iterator[np.ndarray]:
    """One round's frames in order, with a skin-coloured arm moving between tables (also
    before the first table, when ``after``, the picture it follows, is given)."""
    import cv2

    render = render or renderer()
    rng = np.random.default_rng(7)
    noise = None
    prev_img = after
    for seed, (_, table, still_s, hand) in enumerate(game):
        img, _ = render(table, seed)
        h, w = img.shape[:2]

        def arm(base, reach, x):
            out = base.copy()
            top = int(h * (1 - reach))
            cv2.rectangle(out, (x - w // 14, top + h // 20), (x + w // 14, h), (120, 160, 220), -1)
            cv2.ellipse(out, (x, top + h // 20), (w // 12, h // 14), 0, 0, 360,
                        (120, 160, 220), -1)
            return out

        if prev_img is not None:
            n = int(fps * 1.2)
            for k in range(n):
                reach = 0.3 + 0.4 * min(k, n - k) / (n / 2)
                yield arm(prev_img if k < n // 2 else img, reach, w // 2 + (k - n // 2) * 6)
            if hand:
                for k in range(int(fps * 1.5)):
                    yield arm(prev_img, 0.85, w // 4)
        if noise is None or noise[0].shape != img.shape:
            noise = [rng.integers(0, 3, img.shape, dtype=np.uint8) for _ in range(4)]
        for k in range(int(still_s * fps)):
            yield cv2.add(img, noise[k % 4])  # a little sensor noise
        prev_img = img


class KnownTablesReader:
    """Stand-in when no trained reader can be loaded: answers with the labels of the table the
    demo drew that the frame looks most like."""

    def __init__(self, render: Render, game=DEMO_GAME):
        self.tables = []
        for seed, (_, table, _, _) in enumerate(game):
            img, labels = render(table, seed)
            self.tables.append((_small(img), labels_reading(labels)))

    def __call__(self, image: np.ndarray) -> Reading:
        s = _small(image)
        return min(self.tables, key=lambda t: float(np.abs(t[0] - s).mean()))[1]


def _small(img: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.resize(img, (96, 64), interpolation=cv2.INTER_AREA).astype(np.float32)
