"""Calibration to the player's own tile set: one photo of the grid, the reader's last layer
refitted for that edition in about a second of CPU, kept in the instance folder.

    >>> from vision.calibration import calibrate, save, reader_for
    >>> result = calibrate(reader, "grid.jpg")      # GridError: the photo is not a usable grid
    >>> save(result.calibration, instance)            # the default; game="ab12" for one game
    >>> reader_for(reader, instance, game="ab12").read("table.jpg")

The grid is that of :mod:`vision.calibration_grid`. Each tile found in it is cut out as the
reader cuts tiles (the finder's outline), many times over with small shifts, turns and
changes of light, both ways up, and passed through the reader up to its embedding (the second
output of ``tile-reader.onnx``, see :mod:`vision.calibration_model`). The last layer is then
fitted again on those embeddings by softmax regression, starting from the shipped weights and
held near them (an L2 pull), with crops between tiles as "not a tile". Tiles missing from the
photo keep the shipped weights' reading. The result is only valid for the reader model it was
made with: a calibration of another model is not used (its file names the model).

Stored as ``<instance>/calibration/default.npz`` or ``<instance>/calibration/game-<id>.npz``
(``<instance>``: ``$RUMMIREF_INSTANCE`` or the per-user data folder the scoresheet uses).
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .calibration_grid import GRID, GridError, GridTile, locate_grid  # noqa: F401 (GridError)
from .calibration_model import EMBEDDING
from .geometry import N_TILES, NOT_A_TILE, CropSource
from .labels import TILES
from .instance import default_instance

#: Crops cut from each grid tile, each way up.
CROPS_PER_TILE = 8
#: Pull of the refitted last layer towards the shipped one (L2, per crop).
PULL = 0.002
STEPS = 100
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


class CalibrationUnusable(ValueError):
    """A stored calibration that cannot be used with this reader (another model)."""


@dataclass
class Calibration:
    """The refitted last layer (``weight`` 107 x E, ``bias`` 107) for one tile edition, made
    for the reader model ``model`` (a hash of its file)."""

    weight: np.ndarray
    bias: np.ndarray
    model: str
    tiles: list[str] = field(default_factory=list)   # the tiles it was shown
    created: str = ""

    def logits(self, embedding: np.ndarray) -> np.ndarray:
        return embedding @ self.weight.T + self.bias


@dataclass
class CalibrationResult:
    """What one grid photo taught: the calibration, the tiles found and missing, and how
    many of the grid's tiles the reader read right before and after (its own photo)."""

    calibration: Calibration
    found: list[str]
    missing: list[str]
    right_before: int
    right_after: int
    seconds: float

    def summary(self) -> str:
        n = len(self.found)
        text = (f"learned this tile set from {n} tiles in {self.seconds:.1f} s: the reader now "
                f"reads {self.right_after} of {n} grid tiles right (before: {self.right_before})")
        if self.missing:
            text += f"; not found, read as before: {' '.join(self.missing)}"
        return text


def model_id(reader) -> str:
    """A short hash of the reader model's file: a calibration is valid for that model only."""
    from .reader import READER

    cached = getattr(reader, "_calibration_model_id", None)
    if cached is None:
        cached = hashlib.sha256((Path(reader.models) / READER).read_bytes()).hexdigest()[:16]
        reader._calibration_model_id = cached
    return cached


def _has_embedding(reader) -> bool:
    return any(o.name == EMBEDDING for o in reader.reader.get_outputs())


def embed(reader, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(logits, embeddings) of straightened crops (N x CROP_H x CROP_W x 3 BGR), the shipped
    last layer's logits whatever calibration the reader holds."""
    x = (crops[:, :, :, ::-1].astype(np.float32) - 127.5) * (1.0 / 64.0)
    x = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
    logits, emb = reader.reader.run(["out", EMBEDDING], {reader._rin: x})
    return logits, emb


def _jitter(corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The outline moved, scaled and turned about as much as the finder's own errors."""
    c = corners.mean(0)
    side = float(np.hypot(*(corners[1] - corners[0])))
    deg = rng.normal(0, 4) if rng.random() < 0.75 else rng.uniform(-30, 30)
    a = np.radians(deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    scale = rng.uniform(0.9, 1.1, 2).astype(np.float32)
    axes = np.stack([corners[1] - corners[0], corners[3] - corners[0]])
    axes /= np.maximum(np.linalg.norm(axes, axis=1, keepdims=True), 1e-6)
    local = corners - c
    local = (local @ axes.T * scale) @ axes
    shift = rng.normal(0, 0.05 * side, 2).astype(np.float32)
    return (local @ rot.T + c + shift).astype(np.float32)


def _light(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another light, white balance, blur and noise for one crop."""
    import cv2

    f = crop.astype(np.float32) * rng.uniform(0.85, 1.15, 3).astype(np.float32) \
        * rng.uniform(0.7, 1.25)
    f = (f - f.mean()) * rng.uniform(0.8, 1.2) + f.mean()
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.4, 1.2))
    f += rng.normal(0, rng.uniform(1, 6), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def _training_crops(src: CropSource, grid: list[GridTile], rng: np.random.Generator
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Crops and their reader classes: each grid tile jittered, both ways up, and crops
    between two neighbours of a row ("not a tile")."""
    from .geometry import flip_corners

    crops, labels = [], []
    for g in grid:
        k = TILES.index(g.tile)
        for i in range(CROPS_PER_TILE):
            corners = g.corners if i == 0 else _jitter(g.corners, rng)
            for up, cls in ((corners, k), (flip_corners(corners), N_TILES + k)):
                crop = src.crop(up)
                crops.append(crop if i == 0 else _light(crop, rng))
                labels.append(cls)
    by_place = {(g.row, g.column): g for g in grid}
    for g in grid:
        nxt = by_place.get((g.row, g.column + 1))
        if nxt is not None:
            half = (nxt.corners.mean(0) - g.corners.mean(0)) / 2.0
            for t in (0.0, 0.15, -0.15):
                crops.append(src.crop(g.corners + half * (1.0 + t)))
                labels.append(NOT_A_TILE)
    return np.stack(crops), np.array(labels)


def fit_last_layer(emb: np.ndarray, labels: np.ndarray, weight0: np.ndarray,
                   bias0: np.ndarray, *, pull: float = PULL, steps: int = STEPS,
                   smoothing: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression from the shipped layer (``weight0``, ``bias0``) on ``emb`` with
    classes ``labels``, pulled towards the shipped layer; Adam, full batch."""
    n, k = len(labels), weight0.shape[0]
    target = np.full((n, k), smoothing / k, np.float32)
    target[np.arange(n), labels] += 1.0 - smoothing
    w, b = weight0.astype(np.float32).copy(), bias0.astype(np.float32).copy()
    mw, vw, mb, vb = (np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b))
    lr, b1, b2 = 0.01, 0.9, 0.999
    for t in range(1, steps + 1):
        z = emb @ w.T + b
        z -= z.max(1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        g = (p - target) / n
        gw = g.T @ emb + pull * (w - weight0)
        gb = g.sum(0) + pull * (b - bias0)
        mw = b1 * mw + (1 - b1) * gw
        vw = b2 * vw + (1 - b2) * gw * gw
        mb = b1 * mb + (1 - b1) * gb
        vb = b2 * vb + (1 - b2) * gb * gb
        corr = np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        w -= lr * corr * mw / (np.sqrt(vw) + 1e-8)
        b -= lr * corr * mb / (np.sqrt(vb) + 1e-8)
    return w, b


def shipped_last_layer(logits: np.ndarray, emb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The shipped last layer, recovered exactly from its inputs and outputs (it is linear),
    so calibrating needs ONNX Runtime only."""
    a = np.hstack([emb.astype(np.float64), np.ones((len(emb), 1))])
    sol, *_ = np.linalg.lstsq(a, logits.astype(np.float64), rcond=None)
    return sol[:-1].T.astype(np.float32), sol[-1].astype(np.float32)


def _upright(det: dict) -> np.ndarray:
    from .geometry import rect_corners

    return rect_corners(det["centre"], det["short"], det["long"], det["down"])


def _right(logits: np.ndarray, labels: np.ndarray) -> int:
    both = logits[:, :N_TILES], logits[:, N_TILES:2 * N_TILES]
    best = np.maximum(*both).argmax(1)
    return int((best == labels).sum())


def find_grid(reader, image: np.ndarray) -> list[GridTile]:
    """The calibration grid's tiles in a BGR array (see :func:`locate_grid`): the finder's
    finds, less those the shipped reader is sure are no tile (a shadow, two halves), placed
    with the help of what the reader reads on them. Raises :class:`GridError`."""
    dets = reader.detect(image)
    read: list[str | None] = []
    if dets:
        src = CropSource(image)
        best = embed(reader, np.stack([src.crop(_upright(d)) for d in dets]))[0].argmax(1)
        dets = [d for d, c in zip(dets, best) if int(c) != NOT_A_TILE]
        read = [TILES[int(c) % N_TILES] for c in best if int(c) != NOT_A_TILE]
    return locate_grid(dets, read)


def calibrate(reader, image, *, seed: int = 0) -> CalibrationResult:
    """Learn the tile set photographed as the calibration grid. ``image``: path, bytes or BGR
    array (read through :func:`vision.open_image`). Raises :class:`GridError` for a photo that
    is not a usable grid, ``vision.ImageError`` for a file that is not a usable image, and
    :class:`CalibrationUnusable` for a reader model without an embedding output."""
    from .imageio import WORK_MAX_SIDE, open_image

    t0 = time.perf_counter()
    if not _has_embedding(reader):
        raise CalibrationUnusable(
            "this reader model has no embedding output; add it with "
            "`python -m vision.calibration_model models/tile-reader.onnx`")
    pic = open_image(image, None if not isinstance(image, (str, os.PathLike)) else str(image),
                     max_side=WORK_MAX_SIDE)
    src = CropSource(pic.image)
    grid = find_grid(reader, pic.image)
    rng = np.random.default_rng(seed)
    crops, labels = _training_crops(src, grid, rng)
    logits, emb = embed(reader, crops)
    w0, b0 = shipped_last_layer(logits[::3], emb[::3])
    w, b = fit_last_layer(emb, labels, w0, b0)
    upright = np.array([TILES.index(g.tile) for g in grid])
    plain = np.arange(0, 2 * CROPS_PER_TILE * len(grid), 2 * CROPS_PER_TILE)
    found = [g.tile for g in grid]
    missing = [t for row in GRID for t in row if t != "J" and t not in found]
    if found.count("J") == 0:
        missing.append("J")
    cal = Calibration(w, b, model_id(reader), sorted(set(found), key=TILES.index),
                      time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    before = _right(logits[plain], upright)
    after = _right(cal.logits(emb[plain]), upright)
    return CalibrationResult(cal, found, missing, before, after,
                             round(time.perf_counter() - t0, 2))


def calibration_path(instance: str | os.PathLike | None, game: str | None = None) -> Path:
    """Where the calibration of ``game`` (None: the default one) is kept."""
    folder = Path(instance if instance is not None else default_instance()) / "calibration"
    if game is None:
        return folder / "default.npz"
    if not GAME_ID.fullmatch(str(game)):
        raise ValueError(f"{game!r} is not a game id (1-16 letters, digits, - or _)")
    return folder / f"game-{game}.npz"


def save(cal: Calibration, instance=None, game: str | None = None) -> Path:
    """Keep ``cal`` for ``game`` (or as the default); written aside, then moved into place."""
    path = calibration_path(instance, game)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = json.dumps({"model": cal.model, "tiles": cal.tiles, "created": cal.created})
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz.tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(f, weight=cal.weight, bias=cal.bias, meta=np.array(meta))
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def load(path: str | os.PathLike) -> Calibration:
    with np.load(path, allow_pickle=False) as f:
        meta = json.loads(str(f["meta"]))
        return Calibration(f["weight"].astype(np.float32), f["bias"].astype(np.float32),
                           meta["model"], list(meta.get("tiles", [])), meta.get("created", ""))


def find(instance=None, game: str | None = None) -> Path | None:
    """The calibration that applies: the game's own, else the default, else None."""
    for g in ([game] if game is not None else []) + [None]:
        p = calibration_path(instance, g)
        if p.is_file():
            return p
    return None


def calibrated(reader, cal: Calibration | None):
    """A reader sharing ``reader``'s models that reads with ``cal`` (None: as shipped).
    Raises :class:`CalibrationUnusable` when ``cal`` was made for another model."""
    if cal is not None:
        if not _has_embedding(reader):
            raise CalibrationUnusable("this reader model has no embedding output")
        if cal.model != model_id(reader):
            raise CalibrationUnusable("the calibration was made for another reader model: "
                                      "photograph the grid again")
    out = copy.copy(reader)
    out.calibration = cal
    return out


def reader_for(reader, instance=None, game: str | None = None):
    """``reader`` with the calibration that applies to ``game`` (its own, else the default);
    ``reader`` itself where there is none or it does not fit this model."""
    path = find(instance, game)
    if path is None:
        return reader
    try:
        return calibrated(reader, load(path))
    except (CalibrationUnusable, OSError, ValueError, KeyError):
        return reader
