"""The tile reader: a photo in; every tile (notation, confidence, outline), the melds as laid,
and what it is unsure of out. ONNX Runtime, OpenCV and numpy only.

    >>> import vision
    >>> reading = vision.read_image("table.jpg")          # or a BGR array
    >>> str(reading.table)                                  # 'R7 R8 R9 | K5 B5 O5'
    >>> reading.uncertain[0].reason                         # 'R8 read at 0.58; as R7 ...'

Two models (``models/tile-finder.onnx``, ``models/tile-reader.onnx``; see their cards): the
finder marks each tile's centre, size and direction; each tile is then cut out, straightened
and read by the reader, which also says which way up it lies (a 6 is not a 9) or that the
crop is not a tile at all; a tile read with doubt is read again turned (the finder's direction
can be off). Tiles are grouped into melds by how they lie (see :mod:`vision.melds`); a doubted
6 or 9 follows the way up of its meld, and a doubtful find of a size no tile in the photo has,
or lying across tiles read surely, is dropped (each with a note). The rules are used as a
sanity check only: a reading is never changed to make a meld valid, the doubtful tile is
flagged with the reading that would.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from .geometry import (CROP_H, CROP_W, N_TILES, NOT_A_TILE, CropSource, decode_detections,
                       detector_input, flip_corners, rect_corners)
from .imageio import WORK_MAX_SIDE, ImageError, open_image  # noqa: F401  (ImageError: raised by read)
from .labels import REPO_ROOT, TILES
from .order import reading_order
from .reading import Reading, TileReading

FINDER = "tile-finder.onnx"
#: The finder runs at these sizes (longer image side): 576 alone finds most tiles, 704
#: adds small, distant ones (chosen on synthetic and training images, not the valid photos).
DET_SIZES = (576, 704)
READER = "tile-reader.onnx"
#: A tile the reader is not sure of at the finder's direction is looked at again turned by
#: these angles (degrees): the finder's direction can be well off for a thick tile seen from
#: the side. The surest reading wins; "not a tile" is the average over all the looks.
#: Chosen on the 179 training photos, not on the valid photos (``bench/vision.py --train
#: --second-looks``; the figures are in the reader's model card).
SECOND_LOOK_TURNS = (-45.0, -30.0, -15.0, 15.0, 30.0, 45.0)
#: ... when its best reading at the finder's direction is below this probability.
SECOND_LOOK_BELOW = 0.97
#: The finder sizes a tile well up to about 100 pixels long in its input and finds only the
#: middle of a much bigger one (a close-up: a 300-pixel tile of a 1000x750 photo is 173
#: pixels long at 576, found 0.55 to 0.8 of its length, often turned). Where the finds'
#: median length at the smallest of ``det_sizes`` is over BIG_TILE (under 100, since a big
#: tile's find is short), the photo is looked at again scaled so they are about SCALED_TILE
#: long, the middle of the range the finder sizes well, and each find is replaced by the find
#: of that look whose tile it lies in (:func:`_resized`). On synthetic close-ups (6 per
#: edition, seeds 5000 on) the finder's length was within 15% of the tile's for 81-93% of
#: tiles 40-100 pixels long in its input, 50% at 200-240, none above 260; the two values were
#: chosen on ``bench/racks.py --seed 3`` close-ups, not on its default seed 1.
BIG_TILE = 80.0
SCALED_TILE = 64.0


class ModelsMissingError(FileNotFoundError):
    """The ONNX models are not where the reader looks; the message says where it looked."""


def models_dir(explicit: str | os.PathLike | None = None) -> Path:
    """Where the models are: ``explicit``, else ``$RUMMIREF_MODELS``, else the source tree's
    ``models/`` (editable installs) or ``<prefix>/share/rummiref/models`` (wheel installs)."""
    candidates = []
    if explicit is not None:
        candidates.append(Path(explicit))
    elif os.environ.get("RUMMIREF_MODELS"):
        candidates.append(Path(os.environ["RUMMIREF_MODELS"]))
    else:
        import sys

        candidates += [REPO_ROOT / "models",
                       Path(sys.prefix) / "share" / "rummiref" / "models"]
    for c in candidates:
        if (c / FINDER).is_file() and (c / READER).is_file():
            return c
    raise ModelsMissingError(
        f"the tile reader's models ({FINDER}, {READER}) are not in "
        + " or ".join(str(c) for c in candidates)
        + "; train them with `rummiref train` or set RUMMIREF_MODELS")


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


class Reader:
    """Loads the two models once; :meth:`read` reads images.

    ``threads``: ONNX Runtime threads per model (default 2). ``detect_threshold``: the finder's
    heat threshold. ``min_tile_prob``: detections whose best tile reading is below the
    "not a tile" probability or this value are dropped. ``rules``: referee rules preset for
    the sanity checks (default: the referee's default). ``finder``: another tile finder,
    any object whose ``detect(bgr_image)`` answers like :meth:`detect` (for example
    :class:`vision.yolo_finder.YoloFinder`); ``det_sizes`` then go unused.
    """

    def __init__(self, models: str | os.PathLike | None = None, *, threads: int = 2,
                 detect_threshold: float = 0.5, min_tile_prob: float = 0.2,
                 uncertain_below: float = 0.75, rules=None,
                 det_sizes: tuple[int, ...] = DET_SIZES,
                 second_look_turns: tuple[float, ...] = SECOND_LOOK_TURNS,
                 second_look_below: float = SECOND_LOOK_BELOW, finder=None):
        import onnxruntime as ort

        self.models = models_dir(models)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        # no busy-waiting threads: on a shared laptop CPU they only steal time
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        prov = ["CPUExecutionProvider"]
        self.finder = ort.InferenceSession(str(self.models / FINDER), opts, providers=prov)
        self.reader = ort.InferenceSession(str(self.models / READER), opts, providers=prov)
        self._fin = self.finder.get_inputs()[0].name
        self._rin = self.reader.get_inputs()[0].name
        self.detect_threshold = detect_threshold
        self.det_sizes = tuple(det_sizes)
        self.min_tile_prob = min_tile_prob
        self.uncertain_below = uncertain_below
        self.rules = rules
        self.second_look_turns = tuple(second_look_turns)
        self.second_look_below = second_look_below
        self.other_finder = finder
        #: A tile set's own last layer (:mod:`vision.calibration`), or None: as shipped.
        self.calibration = None

    def detect(self, img: np.ndarray) -> list[dict]:
        """Tiles the finder finds, at each of ``det_sizes`` (longer image side, pixels);
        a tile found at several sizes is kept once (its best find)."""
        if self.other_finder is not None:
            return self.other_finder.detect(img)
        dets: list[dict] = []
        for size in self.det_sizes:
            x, scale = detector_input(img, size)
            out = self.finder.run(None, {self._fin: x})[0][0]
            dets += decode_detections(out, scale, self.detect_threshold)
        if dets:
            side = max(img.shape[:2])
            long = float(np.median([d["long"] for d in dets]))
            if long * min(self.det_sizes) / side > BIG_TILE:
                x, scale = detector_input(img, max(64, round(side * SCALED_TILE / long)))
                out = self.finder.run(None, {self._fin: x})[0][0]
                dets = _resized(dets, decode_detections(out, scale, self.detect_threshold))
        if len(self.det_sizes) < 2 or len(dets) < 2:
            return dets
        dets.sort(key=lambda d: -d["score"])
        c = np.array([d["centre"] for d in dets])
        s = np.array([d["short"] for d in dets])
        dist = np.hypot(c[:, None, 0] - c[None, :, 0], c[:, None, 1] - c[None, :, 1])
        close = dist <= 0.45 * np.minimum(s[:, None], s[None, :])
        keep: list[int] = []
        for i in range(len(dets)):
            if not keep or not close[i, keep].any():
                keep.append(i)
        return [dets[i] for i in keep]

    def classify(self, crops: np.ndarray) -> np.ndarray:
        """Probabilities (N x 107) for straightened crops (N x CROP_H x CROP_W x 3 BGR)."""
        if len(crops) == 0:
            return np.zeros((0, 2 * N_TILES + 1), np.float32)
        x = (crops[:, :, :, ::-1].astype(np.float32) - 127.5) * (1.0 / 64.0)
        x = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
        out = self.reader.run(None, {self._rin: x})
        return _softmax(out[0] if self.calibration is None else self.calibration.logits(out[1]))

    def _second_look(self, src: CropSource, corners: list[np.ndarray],
                     probs: np.ndarray) -> np.ndarray:
        """Probabilities after looking again, turned, at the tiles not read surely at the
        finder's direction (see :data:`SECOND_LOOK_TURNS`)."""
        turns = self.second_look_turns
        if not turns or not len(probs):
            return probs
        both = probs[:, :N_TILES] + probs[:, N_TILES:2 * N_TILES]
        unsure = np.nonzero(both.max(1) < self.second_look_below)[0]
        if not len(unsure):
            return probs
        extra = []
        for i in unsure:
            c = corners[i]
            centre = c.mean(0)
            for deg in turns:
                a = np.radians(deg)
                rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
                extra.append(src.crop((c - centre) @ rot.T + centre))
        more = self.classify(np.stack(extra)).reshape(len(unsure), len(turns), -1)
        looks = np.concatenate([probs[unsure][:, None], more], axis=1)  # n x (1+turns) x 107
        look_both = looks[:, :, :N_TILES] + looks[:, :, N_TILES:2 * N_TILES]
        best = look_both.max(2).argmax(1)
        chosen = looks[np.arange(len(unsure)), best].copy()
        not_tile = looks[:, :, NOT_A_TILE].mean(1)
        tile_mass = np.maximum(chosen[:, :NOT_A_TILE].sum(1), 1e-9)
        chosen[:, :NOT_A_TILE] *= ((1.0 - not_tile) / tile_mass)[:, None]
        chosen[:, NOT_A_TILE] = not_tile
        out = probs.copy()
        out[unsure] = chosen
        return out

    def read(self, image, *, name: str | None = None, rack: bool = False) -> Reading:
        """Read one image (path, bytes or BGR array). Raises :class:`ImageError` for input
        that is not a usable image (the message says why). ``rack``: the photo shows a
        player's rack, so its tiles are read in rows with the rack's checks (see
        :func:`vision.rack.as_rack`) instead of as melds on a table."""
        t0 = time.perf_counter()
        if rack:
            from .rack import RACK_MAX_SIDE
        pic = open_image(image, name, max_side=RACK_MAX_SIDE if rack else WORK_MAX_SIDE)
        label = name if name is not None else (str(image) if isinstance(image, (str, os.PathLike))
                                               else None)
        reading = Reading(image_size=pic.size, image=label, notes=list(pic.notes))
        small, k = pic.image, pic.scale
        if float(small[::4, ::4].std()) < 3.0:
            reading.notes.append("the image is blank (one flat colour): no tiles")
            reading.timings["total_ms"] = round((time.perf_counter() - t0) * 1000, 1)
            return reading
        t1 = time.perf_counter()
        dets = self.detect(small)
        t2 = time.perf_counter()
        src = CropSource(small)
        corners = [rect_corners(d["centre"], d["short"], d["long"], d["down"]) for d in dets]
        crops = np.stack([src.crop(c) for c in corners]) if corners else np.zeros(
            (0, CROP_H, CROP_W, 3), np.uint8)
        probs = self.classify(crops)
        probs = self._second_look(src, corners, probs)
        t3 = time.perf_counter()
        tiles = []
        both = probs[:, :N_TILES] + probs[:, N_TILES:2 * N_TILES]
        bests = both.argmax(1) if len(both) else np.zeros(0, int)
        tops = np.argsort(-both, axis=1)[:, :4] if len(both) else np.zeros((0, 4), int)
        for d, c, p, tile_p, best, order in zip(dets, corners, probs, both, bests, tops):
            best = int(best)
            if p[NOT_A_TILE] >= tile_p[best] or tile_p[best] < self.min_tile_prob:
                continue
            upside = p[N_TILES + best] > p[best]
            cc = flip_corners(c) if upside else c
            alts = [(TILES[i], float(tile_p[i])) for i in order[1:] if tile_p[i] >= 0.01]
            tiles.append(TileReading(TILES[best], float(tile_p[best]), cc / k, alts,
                                     bool(upside), d["score"]))
        tiles = _suppress_duplicates(tiles)
        tiles, straddling = _drop_straddling(tiles, self.uncertain_below, standing=rack)
        if straddling:
            reading.notes.append(
                f"not read: {len(straddling)} doubtful find(s) lying on tiles read surely ("
                + ", ".join(f"{t.tile} at {t.confidence:.2f}" for t in straddling) + ")")
        tiles = [tiles[i] for i in reading_order([t.corners for t in tiles])]
        tiles, odd = _drop_odd_sizes(tiles, self.uncertain_below)
        if odd:
            reading.notes.append(
                f"not read: {len(odd)} doubtful find(s) of a size no tile here has ("
                + ", ".join(f"{t.tile} at {t.confidence:.2f}" for t in odd) + ")")
        from .melds import group_melds, sanity_check

        reading.melds = group_melds([t.corners for t in tiles])
        turned = _six_or_nine_by_neighbours(tiles, reading.melds)
        if turned:
            reading.notes.extend(turned)
            reading.melds = group_melds([t.corners for t in tiles])
        reading.tiles = tiles
        reading.uncertain = sanity_check(reading, self.rules, self.uncertain_below)
        if not tiles:
            reading.notes.append("no tiles found")
        t4 = time.perf_counter()
        reading.timings = {"load_ms": round((t1 - t0) * 1000, 1),
                           "detect_ms": round((t2 - t1) * 1000, 1),
                           "classify_ms": round((t3 - t2) * 1000, 1),
                           "melds_and_checks_ms": round((t4 - t3) * 1000, 1),
                           "total_ms": round((t4 - t0) * 1000, 1)}
        if rack:
            from .rack import as_rack

            reading = as_rack(reading, self.uncertain_below)
        return reading


def _resized(finds: list[dict], scaled: list[dict]) -> list[dict]:
    """Each find replaced by the find of the scaled-down look whose tile it lies in (a big
    tile's size, direction and centre, where the first finds had its middle: at most twice
    as long); a find with none stays. Finds of the scaled look alone are not taken: at that
    size the finder can take a stretch of table for a tile several times bigger than the
    rest."""
    if not scaled:
        return finds
    c = np.array([d["centre"] for d in scaled])
    out = []
    for d in finds:
        dist = np.hypot(*(c - d["centre"]).T)
        j = int(np.argmin(dist))
        fits = dist[j] <= 0.5 * scaled[j]["short"] and scaled[j]["long"] <= 2 * d["long"]
        out.append(scaled[j] if fits else d)
    return out


def _suppress_duplicates(tiles: list[TileReading]) -> list[TileReading]:
    """Drop a detection whose centre lies well inside a better one (a tile found twice)."""
    if not tiles:
        return tiles
    c = np.array([t.centre for t in tiles])
    w = np.array([float(np.hypot(*(t.corners[1] - t.corners[0]))) for t in tiles])
    dist = np.hypot(c[:, None, 0] - c[None, :, 0], c[:, None, 1] - c[None, :, 1])
    close = dist <= 0.45 * np.minimum(w[:, None], w[None, :])
    order = sorted(range(len(tiles)), key=lambda i: -tiles[i].score * tiles[i].confidence)
    keep: list[int] = []
    for i in order:
        if not keep or not close[i, keep].any():
            keep.append(i)
    return [tiles[i] for i in sorted(keep)]


#: Tiles on a table do not lie on each other: a doubtful find whose outline is covered this
#: much by the outlines of tiles read surely is a tile found twice, or the finder taking the
#: edge between two tiles for a tile (seen on a 12-megapixel photo: a "K2" at 0.37 across
#: K12 and B12).
STRADDLE_COVERED = 0.5


def _drop_straddling(tiles: list[TileReading], doubtful_below: float, *,
                     standing: bool = False) -> tuple[list[TileReading], list[TileReading]]:
    """(tiles kept, doubtful finds dropped because sure tiles cover at least
    ``STRADDLE_COVERED`` of their outline). ``standing``: tiles stand on a rack, where a row
    hides part of the row behind and neighbours' outlines overlap, so only a find that one
    sure tile covers that much is dropped."""
    import cv2

    sure = [t.corners.astype(np.float32) for t in tiles if t.confidence >= doubtful_below]
    kept, dropped = [], []
    for t in tiles:
        own = abs(_area(t.corners))
        if t.confidence < doubtful_below and sure and own > 0:
            shares = [cv2.intersectConvexConvex(t.corners.astype(np.float32), s)[0] / own
                      for s in sure]
            if (max(shares) if standing else sum(shares)) >= STRADDLE_COVERED:
                dropped.append(t)
                continue
        kept.append(t)
    return kept, dropped


#: All tiles of a set are one size: a doubtful find more than this many times bigger (or
#: smaller) than the median sure tile of the photo is not a tile (perspective makes the tiles
#: of one photo differ by up to about 1.5 times).
ODD_SIZE = 1.8
ODD_SIZE_SURE = 0.9


def _drop_odd_sizes(tiles: list[TileReading], doubtful_below: float
                    ) -> tuple[list[TileReading], list[TileReading]]:
    """(tiles kept, doubtful finds dropped for their size); needs three sure tiles to judge."""
    if len(tiles) < 4:
        return tiles, []
    size = np.array([float(np.sqrt(abs(_area(t.corners)))) for t in tiles])
    sure = size[[t.confidence >= ODD_SIZE_SURE for t in tiles]]
    if len(sure) < 3:
        return tiles, []
    ratio = size / float(np.median(sure))
    odd = [(t.confidence < doubtful_below) and not (1 / ODD_SIZE <= r <= ODD_SIZE)
           for t, r in zip(tiles, ratio)]
    return ([t for t, o in zip(tiles, odd) if not o], [t for t, o in zip(tiles, odd) if o])


def _area(corners: np.ndarray) -> float:
    """Area of a tile outline (shoelace formula)."""
    x, y = corners[:, 0].astype(np.float64), corners[:, 1].astype(np.float64)
    return 0.5 * float(x @ np.roll(y, -1) - y @ np.roll(x, -1))


#: A 6 or 9 is read the other way up when its own reading is in doubt (the other numeral has at
#: least this probability) and the sure tiles of its meld all lie that other way up.
SIX_NINE_ALT_MIN = 0.05
SIX_NINE_SURE = 0.9


def _six_or_nine_by_neighbours(tiles: list[TileReading], melds: list[list[int]]) -> list[str]:
    """Where a tile's 6 and 9 look alike (no bar under them in some editions), let the way up
    of the rest of its meld decide. A tile read otherwise keeps its doubt: its confidence is
    that of the reading taken, so it is still listed as uncertain. Returns a note for each
    reading changed (``tiles`` is changed in place)."""
    changed: list[str] = []
    for meld in melds:
        for i in meld:
            t = tiles[i]
            other = {"6": "9", "9": "6"}.get(t.tile[1:])
            if other is None:
                continue
            alt = t.tile[0] + other
            p_alt = dict(t.alternatives).get(alt, 0.0)
            if p_alt < SIX_NINE_ALT_MIN:
                continue
            sure = [tiles[j].upside_down for j in meld if j != i
                    and tiles[j].tile[1:] not in ("6", "9") and tiles[j].confidence >= SIX_NINE_SURE]
            if not sure or any(u == t.upside_down for u in sure):
                continue
            alts = [(t.tile, t.confidence)] + [a for a in t.alternatives if a[0] != alt]
            tiles[i] = TileReading(alt, p_alt, flip_corners(t.corners), alts,
                                   not t.upside_down, t.score)
            changed.append(f"{alt}: its 6 and 9 look alike, so it is read the way up of the "
                           f"rest of its meld (on its own: {t.tile} at {t.confidence:.2f})")
    return changed


_default_reader: Reader | None = None


def read_image(image, **kwargs) -> Reading:
    """Read one image with the default models (loaded once and kept)."""
    global _default_reader
    if _default_reader is None:
        _default_reader = Reader()
    return _default_reader.read(image, **kwargs)
