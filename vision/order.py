"""The order a person reads tiles in: row by row from the top, each row left to right.

A photo taken a little askew slants every row of tiles. Sorting by the picture's own y
would then list a row that rises to the right from its right end, and a row that crosses
some fixed band of pixels in two pieces. The rows are found instead along the tiles' own
slant: the tiles' reading directions, averaged as lines (a tile lying upside down slants
the same way), turn the centres back level; a new row starts where the next centre lies
more than half a tile's height below the last.
"""

from __future__ import annotations

import numpy as np

#: Below this agreement of the tiles' directions (1: all parallel) the photo is read level.
SLANT_AGREEMENT = 0.5


def reading_order(corners: list[np.ndarray]) -> list[int]:
    """Indices of the tiles (corners TL TR BR BL as each is read) in reading order."""
    n = len(corners)
    if n < 2:
        return list(range(n))
    quads = np.array([np.asarray(c, float)[:4] for c in corners])
    centres = quads.mean(axis=1)
    along = quads[:, 1] - quads[:, 0]
    angle = np.arctan2(along[:, 1], along[:, 0])
    doubled = np.array([np.cos(2 * angle).sum(), np.sin(2 * angle).sum()])
    # the slant nearest the picture's own level: within 90 degrees either way
    slant = 0.5 * float(np.arctan2(doubled[1], doubled[0])) \
        if np.hypot(*doubled) >= SLANT_AGREEMENT * n else 0.0
    ux, uy = np.cos(slant), np.sin(slant)
    x = centres[:, 0] * ux + centres[:, 1] * uy
    y = centres[:, 1] * ux - centres[:, 0] * uy
    height = float(np.median(np.hypot(*(quads[:, 3] - quads[:, 0]).T)))
    rows: list[list[int]] = []
    last = None
    for i in np.argsort(y, kind="stable"):
        if last is None or y[i] - last > 0.5 * height:
            rows.append([])
        rows[-1].append(int(i))
        last = y[i]
    return [i for row in rows for i in sorted(row, key=lambda k: x[k])]
