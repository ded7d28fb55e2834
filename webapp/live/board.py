"""The table a live page draws: each tile of a reading with where it lies in the picture, its
meld, whether that meld is valid, whether the camera doubted it, and whether this turn added it.

The page draws the outlines over the camera's own picture (an SVG the size of the reading's
image), so its labels stay legible at any screen size; a reading with no outlines (a table typed
in notation) is drawn as rows of tiles instead."""

from __future__ import annotations

from collections import Counter
from typing import Optional

import referee
from vision.reading import Reading


def board(reading: Reading, image: Optional[str], *, added=(), meld_ok=(),
          turn: Optional[int] = None, side: str = "after") -> dict:
    """What the page needs to draw ``reading``: ``image`` (the picture's address, or None),
    ``size`` ([width, height] of the picture the outlines refer to, or None: draw rows),
    ``melds`` (lists of tile indices), ``tiles`` ({index, tile, corners, meld, ok, added,
    uncertain}). ``added``: the tiles this turn added (notation, repeated as often as added);
    ``meld_ok``: for each meld, whether it is valid. ``turn``/``side``: what a correction of
    a tile changes (None: nothing can be corrected)."""
    melds = [list(m) for m in reading.melds]
    meld_of = {i: k for k, m in enumerate(melds) for i in m}
    doubted = reading.uncertain_indices
    marked = _added_indices(reading, melds, added)
    tiles = []
    for i, t in enumerate(reading.tiles):
        k = meld_of.get(i)
        ok = meld_ok[k] if k is not None and k < len(meld_ok) else None
        corners = None if t.corners is None else [[round(float(x), 1), round(float(y), 1)]
                                                   for x, y in t.corners]
        tiles.append({"index": i, "tile": t.tile, "corners": corners, "meld": k, "ok": ok,
                      "added": i in marked, "uncertain": i in doubted,
                      "colour": t.tile[0] if t.tile[0] in "KBORJ" else "J"})
    w, h = reading.image_size
    outlined = bool(tiles) and all(t["corners"] for t in tiles) and w > 0 and h > 0
    return {"image": image if outlined else None, "size": [int(w), int(h)] if outlined else None,
            "view": _view(tiles, int(w), int(h)) if outlined else None,
            "melds": melds, "tiles": tiles, "turn": turn, "side": side,
            "rows": [[tiles[i] for i in m] for m in melds]}


def _view(tiles: list[dict], width: int, height: int) -> list[float]:
    """The part of the picture worth showing: the tiles, with a tile and a half of table
    around them (a camera sees more table than tiles; the rest of the picture still fills
    the screen around it)."""
    xs = [x for t in tiles for x, _ in t["corners"]]
    ys = [y for t in tiles for _, y in t["corners"]]
    sizes = sorted(max(max(x for x, _ in t["corners"]) - min(x for x, _ in t["corners"]),
                       max(y for _, y in t["corners"]) - min(y for _, y in t["corners"]))
                   for t in tiles)
    pad = 1.5 * sizes[len(sizes) // 2]
    x0, y0 = max(0.0, min(xs) - pad), max(0.0, min(ys) - pad)
    x1, y1 = min(float(width), max(xs) + pad), min(float(height), max(ys) + pad)
    return [round(x0, 1), round(y0, 1), round(max(x1 - x0, 1.0), 1), round(max(y1 - y0, 1.0), 1)]


def _added_indices(reading: Reading, melds: list[list[int]], added) -> set[int]:
    """Which tiles of the reading are the ones this turn added: for each added tile, one
    tile of that name, taken first from melds that hold the most added tiles (a new meld
    before a meld a tile was added to)."""
    want = Counter(str(t) for t in added)
    if not want:
        return set()
    names = [t.tile for t in reading.tiles]
    weight = {k: sum(1 for i in m if want[names[i]]) / max(len(m), 1)
              for k, m in enumerate(melds)}
    order = sorted(range(len(melds)), key=lambda k: -weight[k])
    out: set[int] = set()
    for k in order:
        for i in melds[k]:
            if want[names[i]] > 0:
                want[names[i]] -= 1
                out.add(i)
    return out


def meld_validity(verdict: Optional[dict], table: referee.Table, rules: referee.Rules
                  ) -> list[Optional[bool]]:
    """Whether each meld of ``table`` is valid: the verdict's answer when it judged this
    table, else each meld checked on its own."""
    if verdict and verdict.get("melds") and len(verdict["melds"]) == len(table):
        return [bool(m.get("ok")) for m in verdict["melds"]]
    return [bool(referee.check_meld(m, rules).ok) for m in table]
