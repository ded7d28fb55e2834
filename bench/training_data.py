"""What the tile reader's real training data holds: photos, labelled tiles, and how many
lie upside down (which way up a real tile lies is not in its label: the numeral's place
decides, ``vision.train.data.ink_says_upside_down``, as training decides it).

    .venv/bin/python bench/training_data.py     # ../shared/data/photos/train

The same functions as training (``real_items``, ``load_real``, ``real_orientations``), so
the counts are those the training run saw.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.parse_args(argv)
    from vision.labels import shared_photos_dir
    from vision.train.data import load_real, real_items, real_orientations

    photos = shared_photos_dir()
    real = load_real(real_items(photos, None))
    _, flipped = real_orientations(real)
    tiles = sum(len(t) for _, t, _ in real)
    print(f"{photos / 'train'}: {len(real)} photos, {tiles} labelled tiles, "
          f"{flipped} of them upside down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
