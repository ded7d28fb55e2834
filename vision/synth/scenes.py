"""Random scenes for training and measuring: tables, racks and close-ups, of any edition.

:func:`random_scene` is what training draws from; :func:`render_scene` renders one kind of
scene for one named edition (see :func:`vision.synth.editions`), so an edition can be kept
out of training (``random_scene(seed, exclude=(name,))``) and measured on its own.
"""

from __future__ import annotations

import numpy as np

from ..labels import TILES
from .editions import EDITIONS, Edition, edition as named_edition
from .racks import render_closeup, render_rack
from .table import Labels, random_table, render_table

#: Scene kinds :func:`render_scene` draws (``pasted``: a table of close photos of single
#: tiles shrunk to a table tile's size, :mod:`.pasted`).
KINDS = ("table", "rack", "closeup", "pasted")
#: Shares of rack photos and close-ups among :func:`random_scene`'s scenes (the rest are
#: tables, drawn as before these kinds existed, so a seed gives the same table).
RACK_SHARE = 0.2
CLOSEUP_SHARE = 0.1
#: The share of pasted close-ups of modern editions (:func:`vision.synth.pasted.render_pasted`)
#: with numerals up to 0.6 of the face and stroke weight 1.8 that ``random_scene(...,
#: pasted_share=PASTED_SHARE)`` draws (``rummiref train --pasted-share``): real modern tiles'
#: numerals can be that big and heavy, and a reader trained on 0.26-0.46 read a wide heavy 3
#: as 13. They take the place of tables that came next in the mix, so every other scene stays
#: the same. Off by default: the shipped reader was trained without them
#: (``models/tile-reader.md`` says what the readers trained with them read).
PASTED_SHARE = 0.12
# ``random_scene(..., rack_share=...)`` (``rummiref train --rack-share``) draws a further
# share of rack photos in the places of tables that come after the pasted close-ups in the
# mix, so every other scene stays the same; none by default (``models/tile-reader.md`` says
# what the fine-tune trained with 0.15 read).


def random_rack(rng: np.random.Generator) -> list[list[str]]:
    """One or two rows of 2 to 12 tiles, at most two copies of any tile."""
    pool = {t: 2 for t in TILES}
    rows = []
    for _ in range(1 if rng.random() < 0.3 else 2):
        row = []
        for _ in range(int(rng.integers(2, 13))):
            t = TILES[int(rng.integers(len(TILES)))]
            if pool[t]:
                pool[t] -= 1
                row.append(t)
        if row:
            rows.append(row)
    return rows or [["J"]]


def _modern_names(exclude: tuple[str, ...]) -> list[str]:
    return [n for n in EDITIONS if n.startswith("modern") and n not in exclude]


def _modern_edition(rng: np.random.Generator, exclude: tuple[str, ...]) -> Edition:
    """A modern named edition (not excluded), or a random one when every one is excluded."""
    names = _modern_names(exclude)
    if names:
        return named_edition(names[int(rng.integers(len(names)))], rng)
    return Edition.random(rng, exclude=exclude)


def _edition(rng: np.random.Generator, exclude: tuple[str, ...]) -> Edition:
    """A modern named edition (not excluded) six times in ten, else a random one."""
    if _modern_names(exclude) and rng.random() < 0.6:
        return _modern_edition(rng, exclude)
    return Edition.random(rng, exclude=exclude)


def render_scene(edition: str | Edition, seed: int = 0, kind: str = "table"
                 ) -> tuple[np.ndarray, Labels]:
    """A random scene of ``kind`` (one of :data:`KINDS`) with the tiles of
    ``edition`` (a name from :func:`vision.synth.editions`, or an :class:`Edition`):
    ``(bgr_image, labels)`` as :func:`vision.synth.render_table` gives them."""
    rng = np.random.default_rng(seed)
    ed = named_edition(edition, rng) if isinstance(edition, str) else edition
    if kind == "table":
        return render_table(random_table(rng, max_melds=8), int(rng.integers(1 << 31)),
                            edition=ed, upside_down=0.2)
    if kind == "rack":
        return render_rack(random_rack(rng), int(rng.integers(1 << 31)), edition=ed)
    if kind == "closeup":
        row = random_rack(rng)[0]
        return render_closeup(row, int(rng.integers(1 << 31)), edition=ed)
    if kind == "pasted":
        from .pasted import render_pasted

        return render_pasted(random_table(rng, max_melds=6), int(rng.integers(1 << 31)),
                             edition=ed)
    raise ValueError(f"unknown scene kind {kind!r}; kinds: {', '.join(KINDS)}")


def random_scene(seed: int, size: tuple[int, int] | None = None, *,
                 exclude: tuple[str, ...] = (), pasted_share: float = 0.0,
                 rack_share: float = 0.0) -> tuple[np.ndarray, Labels]:
    """A random synthetic photo for training: mostly a random table (sometimes with a rack
    at its edge, sometimes only a few loose tiles, rarely none), a random edition, camera and
    light; a fifth are phone photos of a rack and a tenth close-ups, mostly of the modern
    editions. ``pasted_share``: that share drawn instead as tables of pasted close-ups of
    modern editions whose numerals are up to 0.6 of the face and heavy (:data:`PASTED_SHARE`;
    none by default). ``rack_share``: a further share drawn instead as rack photos (in the
    places of the tables that come after the pasted ones; none by default). ``exclude``:
    named editions kept out (neither drawn nor their fonts used)."""
    mix = np.random.default_rng([seed, 10]).random()
    if mix < RACK_SHARE + CLOSEUP_SHARE:
        rng = np.random.default_rng([seed, 11])
        ed = _edition(rng, exclude)
        if mix < RACK_SHARE:
            return render_rack(random_rack(rng), int(rng.integers(1 << 31)), size=size,
                               edition=ed)
        return render_closeup(random_rack(rng)[0], int(rng.integers(1 << 31)), size=size,
                              edition=ed)
    if mix < RACK_SHARE + CLOSEUP_SHARE + pasted_share:
        from .pasted import render_pasted

        rng = np.random.default_rng([seed, 12])
        ed = _modern_edition(rng, exclude)
        return render_pasted(random_table(rng, max_melds=6), int(rng.integers(1 << 31)),
                             edition=ed, size=size or (1000, 750))
    if mix < RACK_SHARE + CLOSEUP_SHARE + pasted_share + rack_share:
        rng = np.random.default_rng([seed, 13])
        ed = _edition(rng, exclude)
        return render_rack(random_rack(rng), int(rng.integers(1 << 31)), size=size,
                           edition=ed)
    rng = np.random.default_rng(seed)
    if size is None:
        size = [(1000, 750), (750, 1000), (1024, 768), (800, 800), (1200, 900)][int(rng.integers(5))]
    r = rng.random()
    if r < 0.04:
        melds = []
    elif r < 0.2:
        melds = [[TILES[int(rng.integers(len(TILES)))]] for _ in range(int(rng.integers(1, 6)))]
    else:
        melds = random_table(rng)
    rack = None
    if rng.random() < 0.25:
        rack = [TILES[int(rng.integers(len(TILES)))] for _ in range(int(rng.integers(3, 12)))]
    tile_width = float(np.exp(rng.uniform(np.log(35), np.log(140)))) if rng.random() < 0.5 else None
    return render_table(melds, seed=int(rng.integers(1 << 31)), size=size, rack=rack,
                        tile_width=tile_width, upside_down=0.3, exclude=exclude)
