"""The calibration grid: one of each tile laid out in rows, and finding it in a photo.

The player lays the tiles face up in five rows, all the same way up:

    K1 K2 ... K13        black
    B1 B2 ... B13        blue
    O1 O2 ... O13        orange
    R1 R2 ... R13        red
    J  J                 the jokers (one is enough), under the red row

:func:`locate_grid` takes the tiles the finder found and gives each its tile from where it
lies, so it works for an edition the reader has never seen: rows are chains of tiles side by
side across their long axis, the short joker row says which way up the grid lies (the finder
alone cannot tell up from down), and each row's tiles are numbered left to right by their
spacing (a missing tile leaves a gap). The finder is not perfect on an edition it never saw:
finds lying across the grid or of another size, and finds between two places (a box across
two tiles' edge, a tile found twice), get no place rather than a wrong one, since calibration
would learn a tile under another's name. Where a row misses a tile at an end, the numbers the
reader reads on the row settle which end (most of them are right even on a new edition). A
photo that is not such a grid raises :class:`GridError`, whose message says what to change.
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
    """Rows: each tile linked to every find on its right (across its own long axis) up to
    one missing tile away, as lists of indices. Finds lying between two places (the finder's
    box across two tiles' edge) are linked too; :func:`_places` leaves them out."""
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
        ok = (along > 0) & (along < 2.6 * short) & (across < 0.35 * long)
        for j in np.nonzero(ok)[0]:
            parent[root(i)] = root(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


#: A find lying more than this many degrees across the grid's tiles, or of a size this far
#: from the grid's (a factor either way), is no tile of the grid: two tiles found as one, a
#: half tile, a speck at the photo's edge.
ACROSS_DEGREES = 25.0
SIZE_FACTOR = 1.5
#: A find whose distance from the one kept before it is further than this from a whole number
#: of tiles lies off the row's places (the finder's box across two tiles' edge).
OFF_PLACE = 0.3


def _plausible(dets: list[dict], down: np.ndarray, short: float, long: float) -> list[int]:
    """The finds that could be tiles of the grid: lying along the grid's axis and of the size
    of the grid's tiles."""
    keep = []
    for i, det in enumerate(dets):
        d = np.asarray(det["down"], np.float64)
        cos = abs(float(d @ down)) / max(1e-9, float(np.hypot(*d)))
        if cos < np.cos(np.radians(ACROSS_DEGREES)):
            continue
        if not (1 / SIZE_FACTOR < det["short"] / short < SIZE_FACTOR
                and 1 / SIZE_FACTOR < det["long"] / long < SIZE_FACTOR):
            continue
        keep.append(i)
    return keep


def _pitch(rows: list[list[int]], u: np.ndarray, width: np.ndarray) -> float:
    """The distance from one tile's centre to the next in a row, as a multiple of the tiles'
    width (the tiles touch, or nearly: about 1); from the steps between neighbours that are
    about one tile apart."""
    ratios = []
    for row in rows:
        row = sorted(row, key=lambda i: float(u[i]))
        for a, b in zip(row, row[1:]):
            r = (u[b] - u[a]) / (0.5 * (width[a] + width[b]))
            if 0.8 < r < 1.4:
                ratios.append(r)
    return float(np.median(ratios)) if ratios else 1.0


def _places(row: list[int], u: np.ndarray, width: np.ndarray, pitch: float
            ) -> tuple[list[int], list[int]]:
    """A row's finds (sorted left to right) that lie on its places, with their columns
    counted from the first kept (0-based). The most finds whose steps from one kept find to
    the next are each a whole number of tiles (within :data:`OFF_PLACE`; a step of two is a
    missing tile), the closest fit among equals; a find between two places (the finder's box
    across two tiles' edge, or a tile found twice) is left out rather than given a place."""
    n = len(row)
    # best[j]: (finds kept, -misfit, previous kept, column) of the best chain ending at j
    best = [(1, 0.0, -1, 0) for _ in range(n)]
    for j in range(n):
        for i in range(j):
            step = (u[row[j]] - u[row[i]]) / (pitch * 0.5 * (width[row[i]] + width[row[j]]))
            k = round(step)
            if k < 1 or abs(step - k) > OFF_PLACE:
                continue
            cand = (best[i][0] + 1, best[i][1] - (step - k) ** 2, i, best[i][3] + k)
            if cand[:2] > best[j][:2]:
                best[j] = cand
    j = max(range(n), key=lambda x: best[x][:2])
    kept, cols = [], []
    while j >= 0:
        kept.append(row[j])
        cols.append(best[j][3])
        j = best[j][2]
    return kept[::-1], cols[::-1]


def locate_grid(dets: list[dict], read: list[str | None] | None = None) -> list[GridTile]:
    """Each found tile's place in the grid. ``dets``: the finder's finds (``centre``,
    ``short``, ``long``, ``down``, in one image's pixels, as ``vision.Reader.detect`` gives
    them). ``read``: the tile the reader reads on each find (``"K5"``, ``"J"``; None: no
    reading). Readings never name a tile; they tell which end of a row misses a tile (see
    :func:`_offset`) and catch rows laid in another order (see :func:`_check_row`). Raises
    :class:`GridError` for a photo that is not a usable grid."""
    from .geometry import rect_corners

    if len(dets) < MIN_TILES:
        raise GridError(
            f"found {len(dets)} tiles, not enough for a calibration grid (54 tiles, at least "
            f"{MIN_TILES} visible): {_LAYOUT}; keep the whole grid in the photo, in good light")
    short = float(np.median([d["short"] for d in dets]))
    long = float(np.median([d["long"] for d in dets]))
    down = _axis(dets)
    kept = _plausible(dets, down, short, long)
    dets = [dets[i] for i in kept]
    read = [None if not read else read[i] for i in kept]
    centres = np.array([d["centre"] for d in dets], np.float64)
    width = np.array([d["short"] for d in dets], np.float64)
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
    spans = [(float(u[r].min()), float(u[r].max())) for r in big]
    for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
        if min(a1, b1) - max(a0, b0) < 0.5 * min(a1 - a0, b1 - b0):
            raise GridError(f"found rows of tiles side by side, not one under another: "
                            f"{_LAYOUT}")
    pitch = _pitch(big, u, width)
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
    if above:  # the photo shows the grid upside down: the jokers are its bottom
        down = -down
        big.reverse()
        right, u = -right, -u
    jokers = [_places(sorted(r, key=lambda i: float(u[i])), u, width, pitch)[0]
              for r in below or above]
    if len(jokers) > 1 or len(jokers[0]) > 2:
        raise GridError(f"the short row holds {sum(len(r) for r in jokers)} tiles: put only "
                        f"the jokers (one or two) under the red row")
    placed = []
    for colour, row in zip(COLOURS, big):
        row, cols = _places(sorted(row, key=lambda i: float(u[i])), u, width, pitch)
        if cols[-1] > 12:
            raise GridError(f"the {COLOUR_NAMES[colour]} row is wider than 13 tiles: push its "
                            f"tiles together, side by side, with no gaps")
        placed.append((row, np.array(cols)))
    out: list[GridTile] = []
    full = [row for row, cols in placed if len(row) == 13]
    for r, (colour, (row, cols)) in enumerate(zip(COLOURS, placed)):
        name = COLOUR_NAMES[colour]
        if len(row) < MIN_PER_ROW:
            raise GridError(f"found only {len(row)} of the 13 {name} tiles: lay the whole row, "
                            f"1 to 13, with every tile in the photo")
        if cols[-1] < 12:  # a tile missing at an end: which end, see _offset
            cols = cols + _offset(u[row], cols, full, u, name, _numbers(read, row))
        _check_row(colour, [read[i] for i in row], cols)
        for i, c in zip(row, cols):
            out.append(GridTile(GRID[r][c], _corners(dets[i], down, rect_corners), r, int(c)))
    for k, i in enumerate(jokers[0]):
        out.append(GridTile("J", _corners(dets[i], down, rect_corners), 4, k))
    return out


def _offset(u_row: np.ndarray, cols: np.ndarray, full_rows: list[list[int]], u: np.ndarray,
            name: str, numbers: list[int | None]) -> int:
    """How many tiles are missing at the left end of a row that misses tiles at an end: the
    count the reader's numbers agree with for most of the row's tiles (a reader that misreads
    a new edition's numbers now and then still reads most of them, and a misread rarely
    matches a neighbour's place); where they do not settle it, from the columns of the
    complete rows (people lay rows a little shifted, so this is the weaker guess)."""
    shifts = range(13 - int(cols[-1]))
    votes = [sum(n == c + k + 1 for n, c in zip(numbers, cols)) for k in shifts]
    best = max(votes)
    if 2 * best > len(cols) and votes.count(best) == 1:
        return votes.index(best)
    if not full_rows:
        raise GridError(f"tiles are missing at an end of the {name} row and no row is "
                        f"complete to compare it with: lay every row 1 to 13")
    ref = np.array([[u[i] for i in row] for row in full_rows]).mean(0)
    errors = [float(np.abs(u_row - ref[cols + k]).mean()) for k in range(13 - int(cols[-1]))]
    return int(np.argmin(errors))


def _numbers(read: list[str | None], row: list[int]) -> list[int | None]:
    """The numbers read on a row's finds (None: a joker, or no reading)."""
    return [None if read[i] in (None, "J") else int(read[i][1:]) for i in row]


def _check_row(colour: str, read: list[str | None], cols) -> None:
    """Refuse a row the reader reads as another colour, or as running from 13 down to 1: a
    grid laid in another order than the page shows would teach every tile of it under another
    tile's name. Only a clear majority counts (a new edition's ink or numerals may fool the
    reader now and then)."""
    name = COLOUR_NAMES[colour]
    colours = [t[0] for t in read if t not in (None, "J")]
    if colours:
        top = max(COLOURS, key=colours.count)
        if top != colour and 2 * colours.count(top) > len(colours) \
                and 4 * colours.count(colour) <= len(colours):
            raise GridError(f"the {name} row reads as {COLOUR_NAMES[top]} tiles: {_LAYOUT}")
    numbers = [(int(t[1:]), int(c)) for t, c in zip(read, cols) if t not in (None, "J")]
    forward = sum(n == c + 1 for n, c in numbers)
    backward = sum(n == 13 - c for n, c in numbers)
    if 2 * backward > len(numbers) and backward > forward:
        raise GridError(f"the {name} row reads 13 to 1: lay each row 1 to 13 from left to "
                        f"right, with the jokers under the red row")


def _corners(det: dict, down: np.ndarray, rect_corners) -> np.ndarray:
    """The find's outline, upright as the grid lies (its own axis turned to the grid's down)."""
    d = np.asarray(det["down"], np.float64)
    if float(d @ down) < 0:
        d = -d
    return rect_corners(det["centre"], det["short"], det["long"], d)
