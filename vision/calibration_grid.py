"""The calibration grid: one of each tile laid out in rows, and finding it in a photo.

The player lays the tiles face up in five rows, all the same way up:

    K1 K2 ... K13        black
    B1 B2 ... B13        blue
    O1 O2 ... O13        orange
    R1 R2 ... R13        red
    J  J                 the jokers (one is enough), under the red row

:func:`locate_grid` takes the tiles the finder found and gives each its tile from where it
lies. It needs no reading of the tiles, so it works for an edition the reader has never
seen: rows are chains of tiles side by side across their long axis, the short joker row says
which way up the grid lies (the finder alone cannot tell up from down), and each row's tiles
are numbered left to right by their spacing (a missing tile leaves a gap). A photo that is not
such a grid raises :class:`GridError`, whose message says what to change.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

COLOURS = "KBOR"
COLOUR_NAMES = {"K": "black", "B": "blue", "O": "orange", "R": "red"}
#: The grid as laid out, row by row.
GRID: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"{c}{n}" for n in range(1, 14)) for c in COLOURS) + (("J", "J"),)
#: Fewest tiles a usable grid photo shows (of 54); each colour row needs this many of its 13.
MIN_TILES = 44
MIN_PER_ROW = 10

_LAYOUT = ("lay the tiles out in five rows, all the same way up: black 1 to 13, blue 1 to 13, "
           "orange 1 to 13, red 1 to 13, and the jokers in a short row under the red tiles")


class GridError(ValueError):
    """The photo is not a usable calibration grid; the message says what to change."""


@dataclass
class GridTile:
    """One tile of the grid found in the photo: its tile, where it lies (``corners``: TL TR
    BR BL as the grid reads, in the pixels of the image searched), its row and column."""

    tile: str
    corners: np.ndarray
    row: int
    column: int


def _axis(dets: list[dict]) -> np.ndarray:
    """The tiles' common long axis (a unit vector, sign arbitrary)."""
    d = np.array([det["down"] for det in dets], np.float64)
    a = np.arctan2(d[:, 1], d[:, 0])
    c, s = np.cos(2 * a).mean(), np.sin(2 * a).mean()
    t = 0.5 * np.arctan2(s, c)
    return np.array([np.cos(t), np.sin(t)])


def _chains(dets: list[dict], down: np.ndarray, short: float, long: float) -> list[list[int]]:
    """Rows: each tile linked to its nearest neighbour on its right (across its own long
    axis, up to one missing tile away), as lists of indices."""
    centres = np.array([d["centre"] for d in dets], np.float64)
    n = len(centres)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, det in enumerate(dets):
        d = np.asarray(det["down"], np.float64)
        d = d if float(d @ down) >= 0 else -d
        right = np.array([d[1], -d[0]])
        delta = centres - centres[i]
        along, across = delta @ right, np.abs(delta @ d)
        ok = (along > 0.5 * short) & (along < 2.6 * short) & (across < 0.35 * long)
        if ok.any():
            j = int(np.nonzero(ok)[0][np.argmin(along[ok])])
            parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _columns(u: np.ndarray, short: float, name: str) -> np.ndarray:
    """Column numbers (0-based, left to right) of one row's tiles at positions ``u``
    (sorted), counting a gap of about two tiles as a missing tile."""
    steps = np.diff(u)
    pitch = float(np.median(steps[steps < 1.6 * short])) if (steps < 1.6 * short).any() else short
    cols = np.concatenate([[0], np.cumsum(np.maximum(1, np.round(steps / pitch)))]).astype(int)
    if cols[-1] > 12:
        raise GridError(f"the {name} row is wider than 13 tiles: push its tiles together, "
                        f"side by side, with no gaps")
    return cols


def locate_grid(dets: list[dict]) -> list[GridTile]:
    """Each found tile's place in the grid. ``dets``: the finder's finds (``centre``,
    ``short``, ``long``, ``down``, in one image's pixels, as ``vision.Reader.detect`` gives
    them). Raises :class:`GridError` for a photo that is not a usable grid."""
    from .geometry import rect_corners

    if len(dets) < MIN_TILES:
        raise GridError(
            f"found {len(dets)} tiles, not enough for a calibration grid (54 tiles, at least "
            f"{MIN_TILES} visible): {_LAYOUT}; keep the whole grid in the photo, in good light")
    short = float(np.median([d["short"] for d in dets]))
    long = float(np.median([d["long"] for d in dets]))
    centres = np.array([d["centre"] for d in dets], np.float64)
    down = _axis(dets)
    rows = _chains(dets, down, short, long)
    big = [r for r in rows if len(r) >= MIN_PER_ROW // 2]
    small = [r for r in rows if len(r) < MIN_PER_ROW // 2]
    if len(big) != 4:
        raise GridError(f"found {len(big)} long rows of tiles where the grid has 4: {_LAYOUT}; "
                        f"leave a finger's width between the rows")
    v = centres @ down
    big.sort(key=lambda r: float(v[r].mean()))
    top, bottom = float(v[big[0]].mean()), float(v[big[-1]].mean())
    right = np.array([down[1], -down[0]])
    u = centres @ right
    grid_u = u[[i for r in big for i in r]]
    near_u = [r for r in small if grid_u.min() - 2 * short < u[r].mean() < grid_u.max() + 2 * short]
    # The joker row lies just beyond one end of the colour rows; a find farther off is
    # something else on the table and is left out.
    below = [r for r in near_u if bottom < float(v[r].mean()) < bottom + 2.5 * long]
    above = [r for r in near_u if top - 2.5 * long < float(v[r].mean()) < top]
    between = [r for r in near_u if top < float(v[r].mean()) < bottom]
    if between:
        raise GridError(f"found tiles between the rows: {_LAYOUT}")
    if not (below or above):
        raise GridError(f"found no jokers under the red row: {_LAYOUT} (the jokers show "
                        f"which way up the grid lies)")
    if below and above:  # the joker row has two tiles; a stray find is one
        n_below, n_above = sum(map(len, below)), sum(map(len, above))
        if n_below != n_above:
            below, above = (below, []) if n_below > n_above else ([], above)
    if below and above:
        raise GridError(f"found tiles both above the black row and under the red row: "
                        f"{_LAYOUT}")
    jokers = below or above
    if len(jokers) > 1 or len(jokers[0]) > 2:
        raise GridError(f"the short row holds {sum(len(r) for r in jokers)} tiles: put only "
                        f"the jokers (one or two) under the red row")
    if above:  # the photo shows the grid upside down: the jokers are its bottom
        down = -down
        big.reverse()
        right, u = -right, -u
    out: list[GridTile] = []
    for r, (colour, row) in enumerate(zip(COLOURS, big)):
        name = COLOUR_NAMES[colour]
        if len(row) < MIN_PER_ROW:
            raise GridError(f"found only {len(row)} of the 13 {name} tiles: lay the whole row, "
                            f"1 to 13, with every tile in the photo")
        row = _one_find_a_place(sorted(row, key=lambda i: float(u[i])), u, dets, short)
        if len(row) > 13:
            raise GridError(f"found {len(row)} tiles in the {name} row: lay one of each, 1 to 13")
        cols = _columns(u[row], short, name)
        if cols[-1] < 12:  # a missing tile at an end: which end shows against the other rows
            cols = cols + _offset(u[row], cols, [sorted(b, key=lambda i: float(u[i]))
                                                 for b in big if len(b) == 13], u, name)
        for i, c in zip(row, cols):
            out.append(GridTile(GRID[r][c], _corners(dets[i], down, rect_corners), r, int(c)))
    for k, i in enumerate(sorted(jokers[0], key=lambda i: float(u[i]))):
        out.append(GridTile("J", _corners(dets[i], down, rect_corners), 4, k))
    return out


def _one_find_a_place(row: list[int], u: np.ndarray, dets: list[dict], short: float
                      ) -> list[int]:
    """A row's finds (sorted left to right) with finds overlapping the one beside them by more
    than half a tile reduced to the surer one (a tile found twice, or two halves of tiles)."""
    kept: list[int] = []
    for i in row:
        if kept and u[i] - u[kept[-1]] < 0.5 * short:
            if dets[i]["score"] > dets[kept[-1]]["score"]:
                kept[-1] = i
            continue
        kept.append(i)
    return kept


def _offset(u_row: np.ndarray, cols: np.ndarray, full_rows: list[list[int]], u: np.ndarray,
            name: str) -> int:
    """How many tiles are missing at the left end of a row that misses tiles at an end,
    from the columns of the complete rows."""
    if not full_rows:
        raise GridError(f"tiles are missing at an end of the {name} row and no row is "
                        f"complete to compare it with: lay every row 1 to 13")
    ref = np.array([[u[i] for i in row] for row in full_rows]).mean(0)
    errors = [float(np.abs(u_row - ref[cols + k]).mean()) for k in range(13 - int(cols[-1]))]
    return int(np.argmin(errors))


def _corners(det: dict, down: np.ndarray, rect_corners) -> np.ndarray:
    """The find's outline, upright as the grid lies (its own axis turned to the grid's down)."""
    d = np.asarray(det["down"], np.float64)
    if float(d @ down) < 0:
        d = -d
    return rect_corners(det["centre"], det["short"], det["long"], d)
