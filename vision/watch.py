"""The watcher: camera frames in, one table snapshot per finished turn out.

Pipeline (one thread, fed by a :class:`vision.sources.FrameSource` in another):

1. **Sampling.** The newest frame is taken ``sample_fps`` times a second (10 by default); frames
   the camera delivers in between are dropped by the source's one-slot buffer, so a 30 fps
   camera never builds a queue, however slow the reader.
2. **Stillness.** Each sample is shrunk to a small grey image (160 px wide, blurred); the
   motion is the fraction of pixels that changed by more than ``pixel_delta`` since the last
   sample. ``still_samples`` consecutive samples under ``motion_threshold`` with no hand over
   the table mean the table is still.
3. **Hands.** :class:`HandDetector` looks for a large skin-coloured blob touching the edge of
   the picture (an arm reaching in), and for a large change against the last still table that
   touches the edge and does not settle (a sleeve). A hand resting on the table keeps the turn
   open: tiles under it would otherwise be read as taken.
4. **Reading.** Once still, ``read_frames`` frames from the still stretch (spaced, not
   consecutive) are each read by the tile reader; :func:`consensus` keeps a tile only when a
   majority of the frames saw a tile at that place and takes the majority label, so one
   blurred frame decides nothing.
5. **Deciding.** A snapshot that differs from the last one is posted; an identical one is not
   (no new table, no turn). A player's "end turn" tap (polled from the server) posts the
   current table even if unchanged: a turn without tiles played is a draw.

The tile reader is injected: any callable ``image -> reading`` where the reading is the
vision reader's result (an object with ``tiles``/``melds``) or its JSON form (``{"tiles":
[{"tile", "confidence", "corners"}], "melds": [[...]], "uncertain": [...]}``).
"""

from __future__ import annotations

import base64
import logging
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

import numpy as np

log = logging.getLogger(__name__)

SMALL_WIDTH = 160


# --- frames ------------------------------------------------------------------------------------

def shrink(image: np.ndarray, width: int = SMALL_WIDTH) -> tuple[np.ndarray, np.ndarray]:
    """(small BGR, small blurred grey) copies of a frame for motion and hand detection."""
    import cv2

    h, w = image.shape[:2]
    if w != width:
        small = cv2.resize(image, (width, max(1, round(h * width / w))),
                           interpolation=cv2.INTER_AREA)
    else:
        small = image
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    return small, grey


def changed_fraction(a: np.ndarray, b: np.ndarray, pixel_delta: int) -> float:
    """The fraction of pixels whose grey level differs by more than ``pixel_delta``."""
    import cv2

    if a.shape != b.shape:
        return 1.0
    return float(np.count_nonzero(cv2.absdiff(a, b) > pixel_delta)) / a.size


def skin_mask(small_bgr: np.ndarray) -> np.ndarray:
    """Skin-coloured pixels (YCrCb box, works across skin tones in ordinary light)."""
    import cv2

    ycc = cv2.cvtColor(small_bgr, cv2.COLOR_BGR2YCrCb)
    mask = cv2.inRange(ycc, (40, 138, 80), (250, 175, 125))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _edge_blob(mask: np.ndarray, min_fraction: float, min_border: float = 0.0) -> float:
    """Area fraction of the largest blob of ``mask`` that covers at least ``min_fraction`` of
    the picture and touches its edge along at least ``min_border`` of the perimeter (an arm
    comes in across the edge; a tile lying near it barely touches it). 0 when there is none."""
    import cv2

    n, labels, stats, _ = cv2.connectedComponentsWithStats((mask > 0).astype(np.uint8), 8)
    h, w = mask.shape[:2]
    best = 0.0
    border = None
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        frac = area / float(h * w)
        if frac < min_fraction:
            continue
        if not (x == 0 or y == 0 or x + bw >= w or y + bh >= h):
            continue
        if min_border > 0:
            if border is None:
                border = np.concatenate([labels[0, :], labels[-1, :], labels[1:-1, 0],
                                         labels[1:-1, -1]])
            if np.count_nonzero(border == i) < min_border * 2 * (h + w):
                continue
        best = max(best, frac)
    return best


class HandDetector:
    """Is a hand or arm over the table? Returns ``(skin, change)``:

    ``skin``: a skin-coloured blob reaching in from the edge of the picture, counting only
    pixels that also differ from the last still table (so a wooden table the colour of skin
    is not a hand); ``change`` (with ``use_change``): a large change against the last still
    table reaching in from the edge (a sleeve, a glove)."""

    def __init__(self, skin_fraction: float = 0.012, change_fraction: float = 0.06,
                 pixel_delta: int = 30, use_change: bool = True, change_border: float = 0.025):
        self.change_border = change_border
        self.skin_fraction = skin_fraction
        self.change_fraction = change_fraction
        self.pixel_delta = pixel_delta
        self.use_change = use_change

    def __call__(self, small_bgr: np.ndarray, grey: np.ndarray,
                 reference: Optional[np.ndarray],
                 reference_bgr: Optional[np.ndarray] = None) -> tuple[bool, bool]:
        import cv2

        skin = skin_mask(small_bgr)
        diff = None
        if reference is not None and reference.shape == grey.shape:
            diff = cv2.absdiff(grey, reference) > self.pixel_delta // 2
            if reference_bgr is not None and reference_bgr.shape == small_bgr.shape:
                colour = cv2.absdiff(small_bgr, reference_bgr).max(axis=2) > self.pixel_delta
                diff = diff | colour
            skin = skin & (diff.astype(np.uint8) * 255)
        is_skin = _edge_blob(skin, self.skin_fraction) > 0
        is_change = False
        if self.use_change and reference is not None and reference.shape == grey.shape:
            big = (cv2.absdiff(grey, reference) > self.pixel_delta).astype(np.uint8) * 255
            big = cv2.morphologyEx(big, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
            is_change = _edge_blob(big, self.change_fraction, self.change_border) > 0
        return is_skin, is_change


# --- readings and consensus ----------------------------------------------------------------------

@dataclass
class SeenTile:
    tile: str
    confidence: float
    corners: list[list[float]]
    meld: int = -1
    pos: int = -1
    uncertain: bool = False

    @property
    def center(self) -> tuple[float, float]:
        pts = np.asarray(self.corners, dtype=float).reshape(-1, 2)
        return float(pts[:, 0].mean()), float(pts[:, 1].mean())

    @property
    def size(self) -> float:
        pts = np.asarray(self.corners, dtype=float).reshape(-1, 2)
        if len(pts) < 3:
            return 0.0
        x, y = pts[:, 0], pts[:, 1]
        area = 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))
        return area ** 0.5

    def to_dict(self) -> dict:
        return {"tile": self.tile, "confidence": round(float(self.confidence), 3),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in
                            np.asarray(self.corners, dtype=float).reshape(-1, 2)],
                "meld": self.meld, "pos": self.pos, "uncertain": bool(self.uncertain)}


@dataclass
class FrameReading:
    """One frame's reading, normalised: tiles (each knows its meld and place in it)."""

    tiles: list[SeenTile]
    n_melds: int

    def melds(self) -> list[list[SeenTile]]:
        out: list[list[SeenTile]] = [[] for _ in range(self.n_melds)]
        for t in self.tiles:
            if 0 <= t.meld < self.n_melds:
                out[t.meld].append(t)
        for m in out:
            m.sort(key=lambda t: t.pos)
        return [m for m in out if m]


def _get(obj: Any, *names: str, default: Any = None) -> Any:
    for n in names:
        if isinstance(obj, dict):
            if n in obj:
                return obj[n]
        elif hasattr(obj, n):
            return getattr(obj, n)
    return default


def _tile_text(t: Any) -> str:
    v = _get(t, "tile", "notation", "label", default=None)
    return str(v if v is not None else t).strip().upper()


def normalize_reading(reading: Any) -> FrameReading:
    """Accept the vision reader's result object or its JSON form (see the module doc)."""
    if isinstance(reading, FrameReading):
        return reading
    if hasattr(reading, "to_dict") and not isinstance(reading, dict) and \
            _get(reading, "tiles") is None:
        reading = reading.to_dict()
    raw_tiles = list(_get(reading, "tiles", default=[]) or [])
    uncertain_raw = _get(reading, "uncertain", default=[]) or []
    tiles: list[SeenTile] = []
    index_of: dict[int, int] = {}
    for i, t in enumerate(raw_tiles):
        corners = _get(t, "corners", "outline", "box", default=None)
        if corners is None:
            continue
        conf = _get(t, "confidence", "conf", "score", default=1.0)
        unsure = bool(_get(t, "uncertain", "unsure", default=False))
        index_of[id(t)] = len(tiles)
        tiles.append(SeenTile(_tile_text(t), float(conf if conf is not None else 1.0),
                              np.asarray(corners, dtype=float).reshape(-1, 2).tolist(),
                              uncertain=unsure))
    pos_by_raw = {i: k for k, i in enumerate(i for i, t in enumerate(raw_tiles)
                                             if _get(t, "corners", "outline", "box") is not None)}
    # Uncertain tiles: indices, tile objects, or dicts with an index / the tile.
    for u in uncertain_raw:
        k = None
        if isinstance(u, int):
            k = pos_by_raw.get(u)
        elif id(u) in index_of:
            k = index_of[id(u)]
        else:
            idx = _get(u, "index", "tile_index", default=None)
            if isinstance(idx, int):
                k = pos_by_raw.get(idx)
        if k is not None:
            tiles[k].uncertain = True
    melds_raw = list(_get(reading, "melds", default=[]) or [])
    used: set[int] = set()
    for m_i, meld in enumerate(melds_raw):
        members = _get(meld, "tiles", default=meld)
        for p, member in enumerate(list(members)):
            k = None
            if isinstance(member, (int, np.integer)) and not isinstance(member, bool):
                k = pos_by_raw.get(int(member))
            elif id(member) in index_of:
                k = index_of[id(member)]
            else:
                idx = _get(member, "index", default=None)
                if isinstance(idx, int):
                    k = pos_by_raw.get(idx)
                else:  # a notation: the first unused tile with that label, nearest the last one
                    text = _tile_text(member)
                    cands = [j for j, t in enumerate(tiles) if t.tile == text and j not in used]
                    if cands:
                        prev = [t for t in tiles if t.meld == m_i]
                        if prev:
                            px, py = prev[-1].center
                            cands.sort(key=lambda j: (tiles[j].center[0] - px) ** 2
                                       + (tiles[j].center[1] - py) ** 2)
                        k = cands[0]
            if k is not None and k not in used:
                used.add(k)
                tiles[k].meld, tiles[k].pos = m_i, p
    n = len(melds_raw)
    for t in tiles:  # tiles outside every meld become single-tile melds (shown as invalid)
        if t.meld < 0:
            t.meld, t.pos = n, 0
            n += 1
    return FrameReading(tiles, n)


@dataclass
class Snapshot:
    """The table as agreed by several frames."""

    tiles: list[SeenTile]
    melds: list[list[int]]          #: indices into ``tiles``, in laid order
    frames: int                     #: frames read
    agreement: float                #: mean share of frames agreeing with each kept tile
    image: Optional[np.ndarray] = None
    t: float = 0.0

    @property
    def table(self) -> str:
        return " | ".join(" ".join(self.tiles[i].tile for i in m) for m in self.melds)

    def key(self) -> tuple:
        """What a table is, regardless of where tiles lie and the order of melds."""
        return tuple(sorted(tuple(sorted(self.tiles[i].tile for i in m)) for m in self.melds))

    def to_json(self, jpeg_quality: int = 80, max_side: int = 1280) -> dict:
        out = {"table": self.table,
               "tiles": [t.to_dict() for t in self.tiles],
               "melds": [list(m) for m in self.melds],
               "uncertain": [i for i, t in enumerate(self.tiles) if t.uncertain],
               "frames": self.frames, "agreement": round(self.agreement, 3)}
        if self.image is not None:
            data, scale = encode_jpeg(self.image, jpeg_quality, max_side)
            out["image"] = base64.b64encode(data).decode("ascii")
            out["image_scale"] = scale
            if scale != 1.0:
                for t in out["tiles"]:
                    t["corners"] = [[round(x * scale, 1), round(y * scale, 1)]
                                    for x, y in t["corners"]]
        return out


def encode_jpeg(image: np.ndarray, quality: int = 80, max_side: int = 1280) -> tuple[bytes, float]:
    import cv2

    h, w = image.shape[:2]
    scale = 1.0
    if max(h, w) > max_side:
        scale = max_side / float(max(h, w))
        image = cv2.resize(image, (round(w * scale), round(h * scale)),
                           interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("could not encode the picture")
    return buf.tobytes(), scale


def _same_table(a: Any, b: Any) -> bool:
    """Two readings that see the same tiles in the same melds (and no unsure tile)."""
    sa, sb = consensus([a]), consensus([b])
    return (sa.key() == sb.key() and len(sa.tiles) == len(sb.tiles)
            and not any(t.uncertain for t in sa.tiles + sb.tiles))


def consensus(readings: Sequence[Any], *, low_confidence: float = 0.6) -> Snapshot:
    """One table from several readings of the same still table.

    Tiles are matched across frames by position (nearest centre within half a tile); a tile is
    kept when a strict majority of the frames saw one there, with the label most of them gave.
    A tile is marked uncertain when the frames disagreed on it, the reader was unsure in most
    of them, or its confidence is low. The melds come from the frame that agrees best with the
    kept tiles."""
    frames = [normalize_reading(r) for r in readings]
    k = len(frames)
    if k == 0:
        return Snapshot([], [], 0, 1.0)
    sizes = [t.size for f in frames for t in f.tiles if t.size > 0]
    radius = 0.5 * (float(np.median(sizes)) if sizes else 20.0)
    # clusters: list of dict(center=[x,y], members={frame: tile})
    clusters: list[dict] = []
    for fi, f in enumerate(frames):
        claimed: set[int] = set()
        pairs = []
        for ti, t in enumerate(f.tiles):
            cx, cy = t.center
            for ci, c in enumerate(clusters):
                d = ((c["cx"] - cx) ** 2 + (c["cy"] - cy) ** 2) ** 0.5
                if d <= radius:
                    pairs.append((d, ti, ci))
        pairs.sort()
        taken_t: set[int] = set()
        for d, ti, ci in pairs:
            if ti in taken_t or ci in claimed:
                continue
            taken_t.add(ti)
            claimed.add(ci)
            c = clusters[ci]
            c["members"][fi] = ti
            n = len(c["members"])
            cx, cy = f.tiles[ti].center
            c["cx"] += (cx - c["cx"]) / n
            c["cy"] += (cy - c["cy"]) / n
        for ti, t in enumerate(f.tiles):
            if ti not in taken_t:
                cx, cy = t.center
                clusters.append({"cx": cx, "cy": cy, "members": {fi: ti}})
    kept = []
    for ci, c in enumerate(clusters):
        if len(c["members"]) * 2 <= k:
            continue
        votes: Counter = Counter()
        conf_sum: Counter = Counter()
        unsure = 0
        for fi, ti in c["members"].items():
            t = frames[fi].tiles[ti]
            votes[t.tile] += 1
            conf_sum[t.tile] += t.confidence
            unsure += t.uncertain
        label = max(votes, key=lambda lab: (votes[lab], conf_sum[lab]))
        agree = votes[label] / k
        conf = conf_sum[label] / votes[label] * agree
        uncertain = (len(votes) > 1 or unsure * 2 > len(c["members"]) or conf < low_confidence)
        kept.append((ci, label, conf, uncertain, agree))
    kept_ids = {ci for ci, *_ in kept}
    # The frame whose tiles best match the kept clusters gives the melds and the corners.
    member_of = [{ti: ci for ci, c in enumerate(clusters) for f2, ti in c["members"].items()
                  if f2 == fi} for fi in range(k)]
    best_f = max(range(k), key=lambda fi: (sum(ci in kept_ids for ci in member_of[fi].values())
                                           - sum(ci not in kept_ids for ci in member_of[fi].values()),
                                           -fi))
    info = {ci: (label, conf, unc, agree) for ci, label, conf, unc, agree in kept}
    tiles: list[SeenTile] = []
    melds: list[list[int]] = []
    placed: set[int] = set()
    for meld in frames[best_f].melds():
        out = []
        for t in meld:
            ti = frames[best_f].tiles.index(t)
            ci = member_of[best_f].get(ti)
            if ci not in info:
                continue
            label, conf, unc, _ = info[ci]
            tiles.append(SeenTile(label, conf, t.corners, uncertain=unc))
            out.append(len(tiles) - 1)
            placed.add(ci)
        if out:
            melds.append(out)
    for ci, (label, conf, unc, _) in info.items():
        if ci in placed:
            continue
        c = clusters[ci]
        fi, ti = next(iter(c["members"].items()))
        tiles.append(SeenTile(label, conf, frames[fi].tiles[ti].corners, uncertain=True))
        melds.append([len(tiles) - 1])
    for m_i, m in enumerate(melds):
        for p, i in enumerate(m):
            tiles[i].meld, tiles[i].pos = m_i, p
    agreement = float(np.mean([a for *_, a in kept])) if kept else 1.0
    return Snapshot(tiles, melds, k, agreement)


# --- the turn detector ---------------------------------------------------------------------------

@dataclass
class WatchConfig:
    sample_fps: float = 10.0        #: frames looked at per second
    pixel_delta: int = 18           #: grey-level change that counts as motion
    motion_threshold: float = 0.003  #: fraction of pixels moving below which a sample is still
    still_samples: int = 5          #: consecutive still samples that end a turn (0.5 s at 10/s)
    read_frames: int = 3            #: frames read per snapshot (majority vote)
    agree_early: bool = True        #: two frames reading the same table settle the vote
    same_table: float = 0.002       #: below this change against the last read table: unchanged
    hand: HandDetector = field(default_factory=HandDetector)
    end_turn_poll: float = 1.0      #: seconds between polls of the phones' "end turn" tap
    change_hand_timeout: int = 30   #: samples a non-skin "hand" may stay perfectly still


class TurnDetector:
    """Decides from small grey samples when the table has gone still with no hand over it.

    ``feed`` returns True exactly once per still stretch (when it becomes still); motion or a
    hand starts a new stretch. The reference (the table as last read; at first, the first
    frame) tells hands from the table: a change from the edge that stays perfectly still for
    ``change_hand_timeout`` samples is not a hand (a camera nudged, the light changed) and
    becomes the new reference."""

    def __init__(self, config: WatchConfig):
        self.cfg = config
        self.prev: Optional[np.ndarray] = None
        self.still_count = 0
        self.fired = False
        self.hand = False
        self.motion = 0.0
        #: the background hands are told from (the table at the last reading, or the scene
        #: accepted after a lasting non-hand change)
        self.reference: Optional[np.ndarray] = None
        self.reference_bgr: Optional[np.ndarray] = None
        #: the table at the last reading (grey): a still table like it is "unchanged"
        self.last_read: Optional[np.ndarray] = None
        self._change_still = 0

    def set_reference(self, small_bgr: np.ndarray, grey: np.ndarray) -> None:
        self.reference, self.reference_bgr = grey, small_bgr

    def feed(self, small_bgr: np.ndarray, grey: np.ndarray) -> bool:
        cfg = self.cfg
        if self.reference is None:
            self.set_reference(small_bgr, grey)
        self.motion = 1.0 if self.prev is None else changed_fraction(self.prev, grey,
                                                                      cfg.pixel_delta)
        self.prev = grey
        skin, change = cfg.hand(small_bgr, grey, self.reference, self.reference_bgr)
        moving = self.motion >= cfg.motion_threshold
        if change and not skin and not moving:
            self._change_still += 1
            if self._change_still >= cfg.change_hand_timeout:
                self.set_reference(small_bgr, grey)  # not a hand: the scene itself changed
                change = False
        else:
            self._change_still = 0
        self.hand = bool(skin or change)
        if moving or self.hand:
            self.still_count = 0
            self.fired = False
            return False
        self.still_count += 1
        if self.still_count >= cfg.still_samples and not self.fired:
            self.fired = True
            return True
        return False

    @property
    def still(self) -> bool:
        return self.still_count >= self.cfg.still_samples


# --- the watcher ---------------------------------------------------------------------------------

class Watcher:
    """Runs the pipeline of the module doc on a :class:`~vision.sources.FrameSource`.

    ``reader(image) -> reading``; ``sink`` receives ``snapshot(dict)``, ``status(dict)`` and is
    asked ``end_turn_requested() -> token|None`` (see :class:`vision.watch_cli.LiveClient`).
    ``on_snapshot(snapshot, reason)`` is called for every snapshot posted (tests, bench)."""

    def __init__(self, source, reader: Callable[[np.ndarray], Any], sink=None,
                 config: Optional[WatchConfig] = None,
                 on_snapshot: Optional[Callable[[Snapshot, str], None]] = None,
                 clock: Callable[[], float] = time.monotonic):
        self.source = source
        self.reader = reader
        self.sink = sink
        self.cfg = config or WatchConfig()
        self.on_snapshot = on_snapshot
        self.clock = clock
        self.detector = TurnDetector(self.cfg)
        self.last: Optional[Snapshot] = None
        self.stats = {"samples": 0, "reads": 0, "snapshots": 0, "skipped_unchanged": 0,
                      "hand_samples": 0, "read_seconds": 0.0, "sample_seconds": 0.0,
                      "end_turns": 0}
        self.events: list[dict] = []
        self._still_frames: deque = deque(maxlen=max(self.cfg.still_samples,
                                                     self.cfg.read_frames))
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._pending_end_turn: Optional[str] = None
        self._retries = 0
        self._retry_at: Optional[int] = None
        self._next_poll = 0.0
        self._last_status: Optional[tuple] = None
        self.still_since: Optional[float] = None

    # -- lifecycle ------------------------------------------------------------------------
    def start(self) -> "Watcher":
        self.source.start()
        self._thread = threading.Thread(target=self.run, name="rummiref-watcher", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.source.stop()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(10)

    def join(self, timeout: Optional[float] = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    # -- status ---------------------------------------------------------------------------
    def status(self) -> dict:
        s = self.source.status()
        s.update({"still": self.detector.still, "hand": self.detector.hand,
                  "motion": round(self.detector.motion, 4),
                  "snapshots": self.stats["snapshots"], "samples": self.stats["samples"]})
        return s

    def _report_status(self, force: bool = False) -> None:
        if self.sink is None:
            return
        s = self.status()
        key = (s["state"], s["detail"], s["hand"], s["still"])
        if force or key != self._last_status:
            self._last_status = key
            try:
                self.sink.status(s)
            except Exception as e:  # the server being away must not stop the camera
                log.warning("could not report the watcher's state: %s", e)

    # -- main loop ------------------------------------------------------------------------
    def run(self) -> None:
        period = 1.0 / self.cfg.sample_fps
        seq = 0
        next_t = self.clock()
        buf = self.source.buffer
        while not self._stop.is_set():
            frame = buf.get(seq, timeout=0.5)
            if frame is None:
                self._report_status()
                if self.source.stopped and (buf.closed or self.source.state == "stopped"):
                    break
                self._poll_end_turn()
                continue
            seq = frame.seq
            t0 = time.perf_counter()
            try:
                self.step(frame.image, frame.t)
            except Exception:  # noqa: BLE001 - keep watching; the log says what went wrong
                log.exception("the watcher could not process a frame")
                self.stats["errors"] = self.stats.get("errors", 0) + 1
            self.stats["sample_seconds"] += time.perf_counter() - t0
            self._report_status()
            self._poll_end_turn()
            next_t += period
            pause = next_t - self.clock()
            if pause > 0:
                if self._stop.wait(pause):
                    break
            else:
                next_t = self.clock()
        self._report_status(force=True)

    def _poll_end_turn(self) -> None:
        if self.sink is None or not hasattr(self.sink, "end_turn_requested"):
            return
        now = self.clock()
        if now < self._next_poll:
            return
        self._next_poll = now + self.cfg.end_turn_poll
        try:
            token = self.sink.end_turn_requested()
        except Exception as e:
            log.warning("could not ask the server for an end-turn tap: %s", e)
            return
        if token and token != self._pending_end_turn:
            self._pending_end_turn = token
            self.stats["end_turns"] += 1

    def request_end_turn(self, token: str = "local") -> None:
        """A player ended the turn (tests and in-process use; the phones go through the server)."""
        self._pending_end_turn = token

    def step(self, image: np.ndarray, t: Optional[float] = None) -> Optional[Snapshot]:
        """Look at one sampled frame; returns the snapshot posted, if any."""
        t = self.clock() if t is None else t
        small, grey = shrink(image)
        self.stats["samples"] += 1
        fired = self.detector.feed(small, grey)
        if self.detector.hand:
            self.stats["hand_samples"] += 1
        if self.detector.still_count == 0:
            self._still_frames.clear()
            self.still_since = None
            self._retries, self._retry_at = 0, None
            return None
        if self.detector.still_count == 1:
            self.still_since = t
        self._still_frames.append((image, grey, t, small))
        if fired or (self._retry_at is not None and self.detector.still_count >= self._retry_at):
            self._retry_at = None
            return self._on_still(end_turn=self._pending_end_turn)
        if self._pending_end_turn and self.detector.still:
            return self._on_still(end_turn=self._pending_end_turn)
        return None

    def _on_still(self, end_turn: Optional[str]) -> Optional[Snapshot]:
        cfg = self.cfg
        grey_now = self._still_frames[-1][1]
        ref = self.detector.last_read
        if (ref is not None and self.last is not None and not end_turn
                and changed_fraction(ref, grey_now, cfg.pixel_delta) < cfg.same_table):
            self.stats["skipped_unchanged"] += 1
            return None
        if end_turn and ref is not None and self.last is not None and \
                changed_fraction(ref, grey_now, cfg.pixel_delta) < cfg.same_table:
            snap = self.last  # nothing moved since the last reading: the same table (a draw)
        else:
            frames = list(self._still_frames)
            n = min(cfg.read_frames, len(frames))
            picks = [frames[round(i * (len(frames) - 1) / max(1, n - 1))] for i in range(n)] \
                if n > 1 else frames[-1:]
            readings = []
            t0 = time.perf_counter()
            for image, *_ in picks:
                if (cfg.agree_early and len(readings) == 2 and len(picks) == 3
                        and _same_table(readings[0], readings[1])):
                    break  # a majority already: a third frame could not change the table
                try:
                    readings.append(self.reader(image))
                except Exception as e:  # noqa: BLE001 - one bad frame must not stop the watcher
                    log.warning("the reader failed on a frame: %s", e)
                    self.stats["read_errors"] = self.stats.get("read_errors", 0) + 1
            self.stats["read_seconds"] += time.perf_counter() - t0
            if len(readings) * 2 <= len(picks):
                # Most frames unreadable: no snapshot from them. Try again with the next frames
                # of this still stretch (a few times), so a turn is not merged into the next.
                if self._retries < 3:
                    self._retries += 1
                    self._still_frames.clear()
                    self._retry_at = self.detector.still_count + cfg.read_frames
                return None
            self.stats["reads"] += len(readings)
            snap = consensus(readings)
            snap.image = picks[-1][0]
            snap.t = picks[-1][2]
            self.detector.set_reference(self._still_frames[-1][3], grey_now)
            self.detector.last_read = grey_now
        changed = self.last is None or snap.key() != self.last.key()
        if not changed and not end_turn:
            self.stats["skipped_unchanged"] += 1
            return None
        reason = "end-turn" if end_turn else ("start" if self.last is None else "still")
        self.last = snap
        self._pending_end_turn = None
        self.stats["snapshots"] += 1
        self.events.append({"reason": reason, "table": snap.table, "t": snap.t,
                            "still_since": self.still_since})
        if self.on_snapshot is not None:
            self.on_snapshot(snap, reason)
        if self.sink is not None:
            body = snap.to_json()
            body["reason"] = reason
            if end_turn:
                body["end_turn"] = end_turn
            body["still_for"] = round(max(0.0, self.clock() - (self.still_since or self.clock())), 3)
            try:
                self.sink.snapshot(body)
            except Exception as e:
                log.error("could not post the snapshot: %s", e)
                self.events[-1]["error"] = str(e)
        return snap
