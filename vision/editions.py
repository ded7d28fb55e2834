"""Tile editions the reader never trained on, to measure calibration honestly.

The reader's synthetic training editions (``vision.synth.Edition.random``) draw numerals from
four Hershey fonts (simplex, duplex, triplex, complex) and the machine's TrueType fonts, inks
from fixed ranges, and faces from white to ivory. The editions here step outside all three:
numerals in the Hershey fonts training never uses (plain, script, small complex, italic),
inks of other hues (teal blue, magenta red, amber orange, brown-grey black) and faces of
other shades (cream, pale grey, pale blue).

    >>> from vision.editions import HELD_OUT, grid_photo, table_photo
    >>> image, labels = grid_photo(HELD_OUT[0], seed=1)   # the calibration grid, laid out
    >>> image, labels = table_photo(HELD_OUT[0], seed=2)  # a random table of that edition
"""

from __future__ import annotations

import cv2
import numpy as np

from .calibration_grid import GRID
from .synth import Edition, Labels, random_table, render_table


def _edition(face, font, inks, joker, style, **kw) -> Edition:
    return Edition(face=face, font=font, thickness=kw.get("thickness", 1.0),
                   number_y=kw.get("number_y", 0.4), number_h=kw.get("number_h", 0.36),
                   inks=dict(zip("KBOR", inks)), circle=kw.get("circle", False),
                   bars_69=kw.get("bars_69", True), logo=kw.get("logo", False),
                   joker_colour=joker, joker_style=style, corner_r=0.1,
                   side=tuple(int(c * 0.8) for c in face))


#: Held-out editions (BGR colours): name -> edition.
HELD_OUT_NAMES = ("plain-teal", "script-magenta", "small-amber", "italic-grey")
HELD_OUT: tuple[Edition, ...] = (
    _edition((200, 235, 245), cv2.FONT_HERSHEY_PLAIN,
             [(60, 70, 90), (140, 120, 0), (0, 140, 255), (90, 0, 200)], (90, 0, 200), 0,
             thickness=1.3, number_h=0.4),
    _edition((215, 215, 215), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
             [(20, 20, 20), (200, 60, 60), (0, 100, 200), (140, 20, 220)], (140, 20, 220), 2,
             thickness=1.0, number_y=0.45),
    _edition((235, 225, 215), cv2.FONT_HERSHEY_COMPLEX_SMALL,
             [(30, 30, 60), (150, 70, 30), (0, 170, 230), (30, 30, 160)], (30, 30, 30), 1,
             thickness=1.4, number_h=0.32, circle=True),
    _edition((230, 245, 250), cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC,
             [(70, 70, 80), (170, 110, 20), (20, 120, 220), (50, 50, 180)], (50, 50, 180), 0,
             thickness=1.1, number_y=0.36, logo=True),
)


def grid_photo(edition: Edition, seed: int = 0, *, size=(1400, 1050), angle: float | None = None,
               jokers: int = 2) -> tuple[np.ndarray, Labels]:
    """A photo of the calibration grid laid out in ``edition``: the four colour rows and the
    jokers, a little askew, from a phone held over it, with a gap between the rows as the
    calibration page asks (layouts whose rows touch are drawn again)."""
    rows = [list(r) for r in GRID[:4]] + ([["J"] * jokers] if jokers else [])
    for attempt in range(50):
        rng = np.random.default_rng([seed, attempt])
        turn = float(rng.normal(0, 4)) if angle is None else angle
        image, labels = render_table(rows, seed=int(rng.integers(1 << 31)), size=size,
                                     edition=edition, upside_down=0.0, angle=turn,
                                     tilt=float(rng.uniform(0.0, 0.08)))
        if _row_gap(labels) >= 0.3:
            break
    return image, labels


def _row_gap(labels: Labels) -> float:
    """The narrowest gap between two rows of a rendered grid, in tile widths."""
    width = float(np.median([np.hypot(*(c[1] - c[0])) for _, c in labels]))
    gaps = []
    for upper, lower in zip(labels.melds, labels.melds[1:]):
        for i in lower:
            c = labels[i][1]
            above = [labels[j][1] for j in upper if abs(labels[j][1][:, 0].mean() - c[:, 0].mean()) < width]
            for a in above:
                reach = (np.ptp(a[:, 1]) + np.ptp(c[:, 1])) / 2
                gaps.append(abs(a[:, 1].mean() - c[:, 1].mean()) - reach)
    return min(gaps) / width if gaps else 0.0


def table_photo(edition: Edition, seed: int = 0, *, size=(1000, 750)) -> tuple[np.ndarray, Labels]:
    """A random table of ``edition`` (melds valid and not, some upside down)."""
    rng = np.random.default_rng(seed)
    return render_table(random_table(rng), seed=seed, size=size, edition=edition,
                        upside_down=0.3)
