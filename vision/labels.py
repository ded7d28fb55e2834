"""The shared label format, class order and label corrections.

Labelled folders (``../shared/data/photos/train`` and ``valid``, and any folder ``rummiref
evaluate`` reads) hold ``images/*.jpg|png`` and ``labels/<stem>.txt``; each label line is
``CLASS x1 y1 x2 y2 x3 y3 x4 y4 [x5 y5]`` with coordinates normalised to the image size. The
class index is the position in :data:`CLASS_NAMES` (alphabetical: index 1 is ``black_10``).

Label errors in the shared photos are corrected from ``vision/label_fixes.csv`` (image stem,
label line, old label, new label, reason), applied when the data is loaded, never by editing
the shared files. An optional ``melds/<stem>.txt`` gives the true melds: one meld per line,
the 0-based label line numbers of its tiles in laid order; the true melds may also come from
a folder of their own (``melds_dir``), as for the shared photos, which have none.

Only numpy is needed here (OpenCV for :func:`tile_corners` on 5-point outlines).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import numpy as np

_COLOUR_WORDS = {"black": "K", "blue": "B", "orange": "O", "red": "R"}
_WORD_BY_LETTER = {v: k for k, v in _COLOUR_WORDS.items()}

#: The 53 classes in the shared dataset's order (``data.yaml``: alphabetical).
CLASS_NAMES: tuple[str, ...] = tuple(sorted(
    [f"{c}_{n}" for c in _COLOUR_WORDS for n in range(1, 14)] + ["joker"]))

#: Tile notation (``K1`` … ``R13``, ``J``) for each class index.
NOTATIONS: tuple[str, ...] = tuple(
    "J" if name == "joker" else _COLOUR_WORDS[name.split("_")[0]] + name.split("_")[1]
    for name in CLASS_NAMES)

#: Tile notations in the referee's sort order (colour K B O R, then number; joker last):
#: the order of the classifier's outputs.
TILES: tuple[str, ...] = tuple(
    [f"{c}{n}" for c in "KBOR" for n in range(1, 14)] + ["J"])

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")

REPO_ROOT = Path(__file__).resolve().parent.parent
FIXES_FILE = Path(__file__).resolve().parent / "label_fixes.csv"


def shared_photos_dir() -> Path:
    """``<repo>/../shared/data/photos`` (the labelled real photos)."""
    return REPO_ROOT.parent / "shared" / "data" / "photos"


def class_to_tile(index: int) -> str:
    return NOTATIONS[index]


def tile_to_class(tile: str) -> int:
    return NOTATIONS.index(tile)


def tile_name(tile: str) -> str:
    """``R7`` -> ``red_7``, ``J`` -> ``joker`` (the shared class name)."""
    if tile == "J":
        return "joker"
    return f"{_WORD_BY_LETTER[tile[0]]}_{tile[1:]}"


def tile_corners(points: np.ndarray) -> np.ndarray:
    """Four corners (float32, 4x2) for a tile outline of 4 or more points.

    Four points are kept as they are; other outlines become their minimum-area rectangle.
    """
    points = np.asarray(points, dtype=np.float32).reshape(-1, 2)
    if len(points) == 4:
        return points
    import cv2
    return cv2.boxPoints(cv2.minAreaRect(points)).astype(np.float32)


@dataclass
class LabelledImage:
    """One labelled image: tiles (notation), their outlines in pixels, and the true melds."""

    path: Path
    width: int
    height: int
    tiles: list[str] = field(default_factory=list)
    outlines: list[np.ndarray] = field(default_factory=list)  # each Kx2, pixels
    melds: list[list[int]] | None = None  # label line numbers, laid order; None if unknown

    @property
    def stem(self) -> str:
        return self.path.stem

    def corners(self) -> list[np.ndarray]:
        return [tile_corners(o) for o in self.outlines]


def load_fixes(path: Path = FIXES_FILE) -> dict[tuple[str, int], tuple[str, str]]:
    """``{(image stem, label line): (old tile, new tile)}`` from the reviewed corrections."""
    fixes: dict[tuple[str, int], tuple[str, str]] = {}
    if not path.exists():
        return fixes
    with open(path, newline="") as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            fixes[(row["image"], int(row["line"]))] = (row["old"], row["new"])
    return fixes


def _image_size(path: Path) -> tuple[int, int]:
    from .imageio import ImageError, check_image

    try:
        info = check_image(path.read_bytes(), str(path))
    except ImageError as exc:
        raise ValueError(str(exc)) from None
    return info.width, info.height


def iter_labelled(folder: Path | str, *, apply_fixes: bool = True,
                  melds_dir: Path | str | None = None) -> Iterator[LabelledImage]:
    """Labelled images of ``folder`` (``images/`` + ``labels/``, or both side by side), with
    their true melds from ``melds_dir/<stem>.txt`` (default ``folder/melds``) where present."""
    folder = Path(folder)
    img_dir = folder / "images" if (folder / "images").is_dir() else folder
    lab_dir = folder / "labels" if (folder / "labels").is_dir() else folder
    meld_dir = Path(melds_dir) if melds_dir is not None else folder / "melds"
    fixes = load_fixes() if apply_fixes else {}
    for path in sorted(p for p in img_dir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
        w, h = _image_size(path)
        item = LabelledImage(path, w, h)
        lab = lab_dir / (path.stem + ".txt")
        lines = lab.read_text().splitlines() if lab.exists() else []
        for i, line in enumerate(lines):
            parts = line.split()
            if len(parts) < 9:
                continue
            tile = NOTATIONS[int(parts[0])]
            fix = fixes.get((path.stem, i))
            if fix is not None and fix[0] == tile:
                tile = fix[1]
            pts = np.array(parts[1:], dtype=np.float64).reshape(-1, 2) * [w, h]
            item.tiles.append(tile)
            item.outlines.append(pts.astype(np.float32))
        mf = meld_dir / (path.stem + ".txt")
        if mf.exists():
            item.melds = _true_melds(mf, len(item.tiles))
        yield item


def _true_melds(path: Path, tiles: int) -> list[list[int]]:
    """The true melds of a ``melds/<stem>.txt``: a ValueError naming the file and line where
    one is not a list of the label's line numbers (0 to ``tiles`` - 1)."""
    melds = []
    for k, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            meld = [int(x) for x in line.split()]
        except ValueError:
            meld = None
        if meld is None or not all(0 <= i < tiles for i in meld):
            raise ValueError(f"{path}: line {k}: {line.strip()[:40]!r} is not a meld: expected "
                             f"label line numbers from 0 to {tiles - 1}, separated by spaces")
        melds.append(meld)
    return melds


def write_labels(folder: Path, stem: str, image_bgr: np.ndarray,
                 tiles: list[tuple[str, np.ndarray]], melds: list[list[int]] | None = None,
                 suffix: str = ".jpg") -> Path:
    """Write one image and its labels in the shared format (for synthetic sets and tests)."""
    import cv2
    folder = Path(folder)
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    h, w = image_bgr.shape[:2]
    img_path = folder / "images" / (stem + suffix)
    cv2.imwrite(str(img_path), image_bgr)
    rows = []
    for tile, corners in tiles:
        c = np.asarray(corners, dtype=np.float64).reshape(-1, 2) / [w, h]
        rows.append(" ".join([str(tile_to_class(tile))] + [f"{v:.6f}" for v in c.ravel()]))
    (folder / "labels" / (stem + ".txt")).write_text("\n".join(rows) + ("\n" if rows else ""))
    if melds is not None:
        (folder / "melds").mkdir(parents=True, exist_ok=True)
        (folder / "melds" / (stem + ".txt")).write_text(
            "".join(" ".join(map(str, m)) + "\n" for m in melds))
    return img_path
