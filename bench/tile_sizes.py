"""How much the labelled tiles of one photo differ in size (the reader's size check,
``vision.reader.ODD_SIZE``, must leave real tiles alone).

    .venv/bin/python bench/tile_sizes.py            # ../shared/data/photos/train
    .venv/bin/python bench/tile_sizes.py valid

A tile's size is the square root of its outline's area; each is compared with the median
tile of its photo, as the reader does. Photos with fewer than four tiles are left out (the
reader does not judge sizes there).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def ratios(folder: Path) -> list[tuple[str, float, float]]:
    """(photo, largest tile / median, median / smallest tile) for each photo of 4+ tiles."""
    from vision.labels import iter_labelled
    from vision.reader import _area

    out = []
    for item in iter_labelled(folder):
        if len(item.tiles) < 4:
            continue
        size = np.array([np.sqrt(abs(_area(c))) for c in item.corners()])
        med = float(np.median(size))
        out.append((item.stem, float(size.max()) / med, med / float(size.min())))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("split", nargs="?", default="train", help="train or valid")
    args = ap.parse_args(argv)
    from vision.labels import shared_photos_dir

    folder = shared_photos_dir() / args.split
    rows = ratios(folder)
    big = max(rows, key=lambda r: r[1])
    small = max(rows, key=lambda r: r[2])
    print(f"{folder}: {len(rows)} photos of 4 or more labelled tiles")
    print(f"largest tile / the photo's median tile: up to {big[1]:.2f} ({big[0]})")
    print(f"the photo's median tile / smallest tile: up to {small[2]:.2f} ({small[0]})")
    spread = sorted(max(a, b) for _, a, b in rows)
    print(f"per photo, the larger of the two: median {np.median(spread):.2f}, "
          f"95th percentile {np.percentile(spread, 95):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
