"""A reading of a player's rack: its tiles in rows, and the rack's own checks as doubts.

Tiles on a rack are not melds: they stand in one or two rows, and a row holds whatever the
player keeps there. :func:`as_rack` turns any :class:`vision.reading.Reading` (from the
reader, the network or a test) into the reading of a rack:

- ``melds`` become the rows: the back row first (the one farther from the camera, higher in
  the picture as the tiles stand), each left to right as the tiles are read. Rows are found
  along the tiles' own up-down direction, so a photo taken turned or at an angle still
  gives its rows; tiles without an outline keep the order they came in, as one row.
- ``uncertain`` holds the rack's checks, which flag tiles and never refuse the photo: every
  copy of a tile seen more than twice, and every joker when more than two are seen (a set
  holds two of each, so one of them is misread and only a person can say which); a 6 or 9
  standing the other way up from the rest of the rack (tiles stand upright on a rack, so
  it is likely the other numeral); and any tile read with low confidence. The table's meld
  checks do not apply to a rack and are dropped.
- A find whose centre lies inside a much bigger find is dropped with a note: rack tiles stand
  side by side, so it is part of a tile found again (it happens in close-ups).

    >>> from vision.reading import Reading
    >>> r = as_rack(Reading.from_table("R10 R10 R10 K3"))
    >>> r.notations, [u.index for u in r.uncertain]
    (['R10', 'R10', 'R10', 'K3'], [0, 1, 2])
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np

from .reading import Reading, Uncertain

#: A rack photo is read at this longer side at most (the reader's tables: 2048). A rack's
#: tiles are big in its photo (at most about 25 across the picture: 50 pixels or more here,
#: for crops of 40x56), and a 12-megapixel JPEG then decodes at a quarter of its size.
RACK_MAX_SIDE = 1280
#: A find is part of another tile found again when it is smaller than this share of it.
PART_OF_TILE = 0.6
#: A set holds this many of each tile, and this many jokers.
COPIES = 2
#: Two tiles are in different rows when their centres lie further apart than this fraction
#: of a tile's height along the tiles' up-down direction.
ROW_GAP = 0.55
#: A row's direction is looked for within this many degrees of the tiles' own.
ROW_TURN = 35.0
#: Tiles read below this confidence are doubted (the reader's own default).
UNCERTAIN_BELOW = 0.75


def _axes(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The rack's right and down directions (unit vectors) and the median tile height.

    The tiles' own directions are a first guess (a tile read upside down counted the other
    way round); the rows' direction is then taken from the centres: the median direction
    from each tile to its nearest neighbour lying within :data:`ROW_TURN` degrees of that
    guess (the finder's direction of a single tile can be several degrees off, the line of
    a row's centres is not)."""
    right = (corners[:, 1] - corners[:, 0] + corners[:, 2] - corners[:, 3]) / 2
    down = (corners[:, 3] - corners[:, 0] + corners[:, 2] - corners[:, 1]) / 2
    heights = np.hypot(down[:, 0], down[:, 1])
    ref = right[int(np.argmax(np.hypot(right[:, 0], right[:, 1])))]
    sign = np.where(right @ ref >= 0, 1.0, -1.0)[:, None]
    if (sign < 0).sum() * 2 > len(sign):  # most tiles face the other way from the first
        sign = -sign
    r = (right * sign).sum(0)
    r = r / max(float(np.hypot(*r)), 1e-9)
    centres = corners.mean(1)
    d = centres[None, :, :] - centres[:, None, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    np.fill_diagonal(dist, np.inf)
    cos = np.abs(d @ r) / np.maximum(dist, 1e-9)
    dist = np.where(cos >= np.cos(np.radians(ROW_TURN)), dist, np.inf)
    angles = []
    for i in range(len(centres)):
        j = int(np.argmin(dist[i]))
        if np.isfinite(dist[i, j]):
            v = d[i, j] if d[i, j] @ r >= 0 else -d[i, j]
            angles.append(np.arctan2(v[1], v[0]))
    if angles:
        a = float(np.median(angles))
        r = np.array([np.cos(a), np.sin(a)])
    dn = np.array([-r[1], r[0]])  # right turned a quarter clockwise, in image coordinates
    mean_down = (down * sign).sum(0)
    if float(dn @ mean_down) < 0:
        dn = -dn
    return r, dn, float(np.median(heights))


def rack_rows(reading: Reading) -> list[list[int]]:
    """Tile indices in rows: back row first, each row left to right."""
    n = len(reading.tiles)
    if n == 0:
        return []
    with_outline = [i for i, t in enumerate(reading.tiles) if t.corners is not None]
    if len(with_outline) < n:
        return [list(range(n))]
    corners = reading.corners.astype(np.float64)
    right, down, height = _axes(corners)
    centres = corners.mean(1)
    across = centres @ down
    along = centres @ right
    order = sorted(range(n), key=lambda i: across[i])
    rows: list[list[int]] = []
    last = None
    for i in order:
        if last is None or across[i] - last > ROW_GAP * max(height, 1e-9):
            rows.append([])
        rows[-1].append(i)
        last = across[i]
    return [sorted(row, key=lambda i: along[i]) for row in rows]


def rack_checks(reading: Reading, rows: list[list[int]],
                uncertain_below: float = UNCERTAIN_BELOW) -> list[Uncertain]:
    """The tiles of a rack a person should confirm, in tile order (see the module)."""
    tiles = reading.tiles
    flags: dict[int, Uncertain] = {}

    def flag(i: int, reason: str, alts: list[str]) -> None:
        if i in flags:
            flags[i].reason += "; " + reason
            flags[i].alternatives += [a for a in alts if a not in flags[i].alternatives]
        else:
            flags[i] = Uncertain(i, reason, list(alts))

    counts = Counter(t.tile for t in tiles)
    for tile, n in sorted(counts.items()):
        if n <= COPIES:
            continue
        what = "jokers" if tile == "J" else f"copies of {tile}"
        for i, t in enumerate(tiles):
            if t.tile == tile:
                flag(i, f"{n} {what} on the rack; a set has {COPIES}: check which is misread",
                     [a for a, _ in t.alternatives[:2]])
    ups = [t.upside_down for t in tiles if t.corners is not None]
    if len(ups) >= 3:
        most = sum(ups) * 2 > len(ups)
        for i, t in enumerate(tiles):
            other = {"6": "9", "9": "6"}.get(t.tile[1:])
            if other and t.corners is not None and t.upside_down != most:
                flag(i, f"{t.tile} stands the other way up from the rest of the rack (that "
                        f"way up it reads {t.tile[0]}{other})", [t.tile[0] + other])
    for i, t in enumerate(tiles):
        if t.confidence < uncertain_below:
            flag(i, f"{t.tile} read at {t.confidence:.2f}", [a for a, _ in t.alternatives[:2]])
    return [flags[i] for i in sorted(flags)]


def _inside(point: np.ndarray, corners: np.ndarray) -> bool:
    import cv2

    return cv2.pointPolygonTest(corners.astype(np.float32).reshape(-1, 1, 2),
                                (float(point[0]), float(point[1])), False) > 0


def drop_finds_inside(reading: Reading) -> tuple[Reading, list]:
    """Tiles on a rack stand side by side and never cover each other's middle, so a find
    whose centre lies inside the outline of a find at least 1/:data:`PART_OF_TILE` times its
    area is part of that tile found again (a close-up's big tile is sometimes found whole and
    in halves; tiles of one set are one size, so a neighbour found a little too big is kept). Returns the reading
    without them, and the tiles dropped."""
    tiles = reading.tiles
    if len(tiles) < 2 or any(t.corners is None for t in tiles):
        return reading, []
    area = [abs(_area(t.corners)) for t in tiles]
    drop = set()
    for j, t in enumerate(tiles):
        for i, big in enumerate(tiles):
            if i != j and i not in drop and area[j] < PART_OF_TILE * area[i] \
                    and _inside(t.centre, big.corners):
                drop.add(j)
                break
    if not drop:
        return reading, []
    keep = [i for i in range(len(tiles)) if i not in drop]
    return dataclasses.replace(reading, tiles=[tiles[i] for i in keep], uncertain=[],
                               melds=[[k] for k in range(len(keep))]), [tiles[i] for i in
                                                                        sorted(drop)]


def _area(c: np.ndarray) -> float:
    x, y = c[:, 0].astype(np.float64), c[:, 1].astype(np.float64)
    return 0.5 * float(x @ np.roll(y, -1) - y @ np.roll(x, -1))


def as_rack(reading: Reading, uncertain_below: float = UNCERTAIN_BELOW) -> Reading:
    """The same tiles read as a rack: rows in ``melds``, the rack's checks in ``uncertain``,
    and a note saying how many rows were seen (see the module). A find inside a bigger one
    is dropped, with a note (:func:`drop_finds_inside`)."""
    reading, inside = drop_finds_inside(reading)
    rows = rack_rows(reading)
    notes = [n for n in reading.notes if not n.startswith("read as a rack")]
    if inside:
        notes.append("not read: " + ", ".join(f"{t.tile} at {t.confidence:.2f}" for t in inside)
                     + ", found inside a bigger tile (part of it found again)")
    if reading.tiles:
        notes.append(f"read as a rack: {len(rows)} row{'s' if len(rows) != 1 else ''}, "
                     f"back row first")
    return dataclasses.replace(reading, melds=rows, notes=notes,
                               uncertain=rack_checks(reading, rows, uncertain_below))


def rows_notation(reading: Reading) -> list[str]:
    """Each row in notation (``["R1 R2 J", "K5 K13"]``)."""
    return [" ".join(reading.tiles[i].tile for i in row) for row in reading.melds]
