"""The finder's training data in the ultralytics OBB format (``python -m vision.obb_export DIR``).

So anyone can train a tile finder with the tools they know (``yolo obb train data=DIR/data.yaml``).
The layout::

    DIR/data.yaml                 path, train, val, test, names (the shared 53 classes)
    DIR/images/{train,val,test}/  JPEG photos
    DIR/labels/{train,val,test}/  one line per tile: ``class x1 y1 x2 y2 x3 y3 x4 y4``,
                                  corners normalised to the image size

- ``train``: the real training photos (``../shared/data/photos/train``, with the reviewed label
  fixes of ``vision/label_fixes.csv``; a 5-point outline becomes its minimum rectangle) and
  the synthetic photos the current finder trains on (:func:`vision.synth.random_scene`, the
  same seeds as ``rummiref train --seed S``).
- ``val``: synthetic photos of other seeds, for watching training; never the shared valid
  photos, so no choice is made on them.
- ``test``: the shared valid photos (label fixes applied), to measure on afterwards.

Corners are written TL, TR, BR, BL as the tile is read (where known: synthetic tiles, not the
real photos' outlines); ultralytics itself only needs the four corners. The class index is
the shared one (:data:`vision.labels.CLASS_NAMES`, alphabetical); a one-class finder trains
with ``single_cls=True``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from .labels import CLASS_NAMES, iter_labelled, shared_photos_dir, tile_to_class

SPLITS = ("train", "val", "test")
#: Exported photos are scaled down to this longer side at most (YOLO trains at 512 or 640).
MAX_SIDE = 1280


def obb_line(tile: str, corners: np.ndarray, width: int, height: int) -> str:
    """One label line for a tile (notation) with outline ``corners`` (4 or more points,
    pixels) in an image of ``width`` x ``height``."""
    from .labels import tile_corners

    c = tile_corners(corners).astype(np.float64) / [width, height]
    c = np.clip(c, 0.0, 1.0)
    return " ".join([str(tile_to_class(tile))] + [f"{v:.6f}" for v in c.ravel()])


def parse_obb_line(line: str, width: int, height: int) -> tuple[str, np.ndarray]:
    """(tile notation, 4x2 corners in pixels) from one label line; ``ValueError`` if the line
    is not ``class`` and eight coordinates."""
    from .labels import NOTATIONS

    parts = line.split()
    if len(parts) != 9:
        raise ValueError(f"an OBB label line has a class and 8 coordinates, not {line!r}")
    k = int(parts[0])
    if not 0 <= k < len(NOTATIONS):
        raise ValueError(f"class {k} is not one of the {len(NOTATIONS)} tile classes")
    pts = np.array(parts[1:], np.float64).reshape(4, 2) * [width, height]
    return NOTATIONS[k], pts.astype(np.float32)


def write_item(root: Path, split: str, stem: str, image_bgr: np.ndarray, tiles, corners,
               max_side: int = MAX_SIDE) -> Path:
    """Write one photo and its OBB labels into ``root`` (scaled to ``max_side`` at most)."""
    import cv2

    h, w = image_bgr.shape[:2]
    s = min(1.0, max_side / max(h, w))
    if s < 1:
        image_bgr = cv2.resize(image_bgr, (round(w * s), round(h * s)),
                               interpolation=cv2.INTER_AREA)
    h2, w2 = image_bgr.shape[:2]
    sx, sy = w2 / w, h2 / h
    (root / "images" / split).mkdir(parents=True, exist_ok=True)
    (root / "labels" / split).mkdir(parents=True, exist_ok=True)
    img_path = root / "images" / split / f"{stem}.jpg"
    if not cv2.imwrite(str(img_path), image_bgr, [cv2.IMWRITE_JPEG_QUALITY, 93]):
        raise OSError(f"cannot write {img_path}")
    rows = [obb_line(t, np.asarray(c, np.float64) * [sx, sy], w2, h2)
            for t, c in zip(tiles, corners)]
    (root / "labels" / split / f"{stem}.txt").write_text("".join(r + "\n" for r in rows))
    return img_path


def iter_obb(root: Path | str, split: str):
    """``(image path, [(tile, 4x2 corners in pixels)])`` for each photo of a split."""
    import cv2

    root = Path(root)
    for img_path in sorted((root / "images" / split).glob("*.jpg")):
        h, w = cv2.imread(str(img_path)).shape[:2]
        lab = root / "labels" / split / (img_path.stem + ".txt")
        lines = lab.read_text().splitlines() if lab.exists() else []
        yield img_path, [parse_obb_line(ln, w, h) for ln in lines if ln.strip()]


def _labelled_folder(root: Path, split: str, folder: Path) -> int:
    import cv2

    n = 0
    for item in iter_labelled(folder):
        img = cv2.imread(str(item.path))
        if img is None:
            continue
        write_item(root, split, item.stem, img, item.tiles, item.outlines)
        n += 1
    return n


def _synthetic(root: Path, split: str, n: int, first_seed: int, prefix: str) -> int:
    from .synth import random_scene

    for k in range(n):
        img, labels = random_scene(seed=first_seed + k)
        write_item(root, split, f"{prefix}-{first_seed + k}", img,
                   [t for t, _ in labels], [c for _, c in labels])
    return n


def export(root: Path | str, *, photos: Path | str | None = None, synthetic: int = 250,
           val_synthetic: int = 24, seed: int = 1, test: bool = True) -> dict:
    """Write the dataset into ``root``; returns the photo counts per split."""
    root = Path(root)
    photos = Path(photos) if photos is not None else shared_photos_dir()
    counts = {s: 0 for s in SPLITS}
    if (photos / "train").is_dir():
        counts["train"] += _labelled_folder(root, "train", photos / "train")
    # the seeds vision.train renders its synthetic photos from
    counts["train"] += _synthetic(root, "train", synthetic, seed * 1_000_003, "synth")
    counts["val"] += _synthetic(root, "val", val_synthetic, seed * 1_000_003 + 500_000, "synth")
    if test and (photos / "valid").is_dir():
        counts["test"] += _labelled_folder(root, "test", photos / "valid")
    lines = [f"# rummiref tile finder data: {counts}", f"path: {root.resolve()}",
             "train: images/train", "val: images/val"]
    if counts["test"]:
        lines.append("test: images/test")
    lines.append("names:")
    lines += [f"  {i}: {name}" for i, name in enumerate(CLASS_NAMES)]
    (root / "data.yaml").write_text("\n".join(lines) + "\n")
    return counts


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.obb_export",
                                description=__doc__.split("\n")[0])
    p.add_argument("out", help="dataset folder (created)")
    p.add_argument("--photos", default=None, help="labelled photos (train/, valid/); default "
                   "../shared/data/photos")
    p.add_argument("--synthetic", type=int, default=250, help="synthetic training photos")
    p.add_argument("--val-synthetic", type=int, default=24, help="synthetic validation photos")
    p.add_argument("--seed", type=int, default=1, help="as rummiref train --seed")
    p.add_argument("--no-test", action="store_true", help="leave the shared valid photos out")
    args = p.parse_args(argv)
    counts = export(args.out, photos=args.photos, synthetic=args.synthetic,
                    val_synthetic=args.val_synthetic, seed=args.seed, test=not args.no_test)
    print(f"{Path(args.out) / 'data.yaml'}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
