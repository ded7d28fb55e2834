"""The watcher: camera frames in, one :class:`~vision.snapshot.Snapshot` per finished turn out,
handed to a :class:`~vision.snapshot.Sink`.

One thread, fed by a :class:`vision.sources.FrameSource` in another:

1. **Sampling.** The newest frame is taken ``sample_fps`` times a second (10 by default); frames
   the camera delivers in between are dropped by the source's one-slot buffer, so a 30 fps
   camera never builds a queue, however slow the reader.
2. **Stillness and hands** (:mod:`vision.motion`): ``still_samples`` still samples in a row with
   no hand over the table end a turn.
3. **Reading.** Once still, ``read_frames`` frames from the still stretch (spaced, not
   consecutive) are each read by the tile reader, and :func:`vision.consensus.consensus` keeps
   what most of them saw; two frames that read the same table settle it.
4. **Deciding.** A reading that differs from the last one is handed on; an identical one is not
   (no new table, no turn). A player's "End turn" tap (asked of the sink) hands on the
   current table even if unchanged: a turn without tiles played is a draw.

The tile reader is injected: any callable ``image -> Reading``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from .consensus import consensus, same_table
from .motion import HandDetector, TurnDetector, changed_fraction, shrink
from .reading import Reading
from .snapshot import Reason, Sink, Snapshot, WatcherStatus

log = logging.getLogger(__name__)


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


class Watcher:
    """Runs the pipeline of the module doc on a :class:`~vision.sources.FrameSource`.

    ``reader(image) -> Reading``; ``sink`` (a :class:`~vision.snapshot.Sink`) receives each
    snapshot and the watcher's state, and is asked for "End turn" taps. ``on_snapshot`` is
    called with every snapshot handed on (tests, the bench)."""

    def __init__(self, source, reader: Callable[[np.ndarray], Reading], sink: Optional[Sink] = None,
                 config: Optional[WatchConfig] = None,
                 on_snapshot: Optional[Callable[[Snapshot], None]] = None,
                 clock: Callable[[], float] = time.monotonic):
        self.source = source
        self.reader = reader
        self.sink = sink
        self.cfg = config or WatchConfig()
        self.on_snapshot = on_snapshot
        self.clock = clock
        cfg = self.cfg
        self.detector = TurnDetector(pixel_delta=cfg.pixel_delta,
                                     motion_threshold=cfg.motion_threshold,
                                     still_samples=cfg.still_samples, hand=cfg.hand,
                                     change_hand_timeout=cfg.change_hand_timeout)
        self.last: Optional[Snapshot] = None
        self.stats = {"samples": 0, "reads": 0, "snapshots": 0, "skipped_unchanged": 0,
                      "hand_samples": 0, "read_seconds": 0.0, "sample_seconds": 0.0,
                      "end_turns": 0, "errors": 0, "read_errors": 0}
        self._still_frames: deque = deque(maxlen=max(cfg.still_samples, cfg.read_frames))
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._pending_end_turn: Optional[str] = None
        #: the last tap answered: the server may still show it while the snapshot is on its way
        self._answered_end_turn: Optional[str] = None
        self._retries = 0
        self._retry_at: Optional[int] = None
        self._next_poll = 0.0
        self._last_status: Optional[tuple] = None
        self.still_since: Optional[float] = None

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

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def status(self) -> WatcherStatus:
        s = self.source.status()
        return WatcherStatus(s["state"], s.get("detail", ""), s.get("source", ""),
                             self.detector.hand, self.detector.still, s.get("frames"),
                             s.get("dropped"))

    def _report_status(self, force: bool = False) -> None:
        if self.sink is None:
            return
        s = self.status()
        key = (s.state, s.detail, s.hand, s.still)
        if force or key != self._last_status:
            self._last_status = key
            try:
                self.sink.status(s)
            except Exception as e:  # noqa: BLE001 - the server being away must not stop the camera
                log.warning("could not report the watcher's state: %s", e)

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
                self.stats["errors"] += 1
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
        if self.sink is None:
            return
        now = self.clock()
        if now < self._next_poll:
            return
        self._next_poll = now + self.cfg.end_turn_poll
        try:
            token = self.sink.end_turn_requested()
        except Exception as e:  # noqa: BLE001 - asked again at the next poll
            log.warning("could not ask the server for an end-turn tap: %s", e)
            return
        if token and token not in (self._pending_end_turn, self._answered_end_turn):
            self._pending_end_turn = token
            self.stats["end_turns"] += 1

    def request_end_turn(self, token: str = "local") -> None:
        """A player ended the turn (tests and in-process use; phones go through the sink)."""
        self._pending_end_turn = token

    def step(self, image: np.ndarray, t: Optional[float] = None) -> Optional[Snapshot]:
        """Look at one sampled frame; returns the snapshot handed on, if any."""
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

    def _read(self) -> Optional[tuple[Reading, np.ndarray, float, int]]:
        """(the agreed reading, its picture, its time, frames read) of the still stretch, or
        None when most frames could not be read."""
        cfg = self.cfg
        frames = list(self._still_frames)
        n = min(cfg.read_frames, len(frames))
        picks = [frames[round(i * (len(frames) - 1) / max(1, n - 1))] for i in range(n)] \
            if n > 1 else frames[-1:]
        readings: list[Reading] = []
        t0 = time.perf_counter()
        for image, *_ in picks:
            if (cfg.agree_early and len(readings) == 2 and len(picks) == 3
                    and same_table(readings[0], readings[1])):
                break  # a majority already: a third frame could not change the table
            try:
                readings.append(self.reader(image))
            except Exception as e:  # noqa: BLE001 - one bad frame must not stop the watcher
                log.warning("the reader failed on a frame: %s", e)
                self.stats["read_errors"] += 1
        self.stats["read_seconds"] += time.perf_counter() - t0
        if len(readings) * 2 <= len(picks):
            return None
        self.stats["reads"] += len(readings)
        return consensus(readings), picks[-1][0], picks[-1][2], len(readings)

    def _on_still(self, end_turn: Optional[str]) -> Optional[Snapshot]:
        cfg = self.cfg
        started = time.perf_counter()
        grey_now, t_now = self._still_frames[-1][1], self._still_frames[-1][2]
        ref = self.detector.last_read
        unmoved = (ref is not None and self.last is not None
                   and changed_fraction(ref, grey_now, cfg.pixel_delta) < cfg.same_table)
        if unmoved and not end_turn:
            self.stats["skipped_unchanged"] += 1
            return None
        if unmoved:  # nothing moved since the last reading: the same table (a draw)
            reading, picture, t, frames = (self.last.reading, self.last.picture, self.last.t,
                                           self.last.frames)
        else:
            got = self._read()
            if got is None:
                # Most frames unreadable: no snapshot from them. Try again with the next frames
                # of this still stretch (a few times), so a turn is not merged into the next.
                if self._retries < 3:
                    self._retries += 1
                    self._still_frames.clear()
                    self._retry_at = self.detector.still_count + cfg.read_frames
                return None
            reading, picture, t, frames = got
            self.detector.set_reference(self._still_frames[-1][3], grey_now)
            self.detector.last_read = grey_now
        changed = self.last is None or reading.table.key() != self.last.reading.table.key()
        if not changed and not end_turn:
            self.stats["skipped_unchanged"] += 1
            return None
        reason = Reason.END_TURN if end_turn else (Reason.START if self.last is None
                                                   else Reason.STILL)
        # still from the first still frame to this one (frame times), then the reading
        still_for = max(0.0, t_now - (self.still_since if self.still_since is not None
                                      else t_now)) + time.perf_counter() - started
        snap = Snapshot(reading, picture, reason, end_turn=end_turn, still_for=still_for,
                        frames=frames, t=t)
        self.last = snap
        self._answered_end_turn, self._pending_end_turn = end_turn, None
        self.stats["snapshots"] += 1
        if self.on_snapshot is not None:
            self.on_snapshot(snap)
        if self.sink is not None:
            try:
                self.sink.snapshot(snap)
            except Exception as e:  # noqa: BLE001 - the sink keeps it; the camera goes on
                log.error("could not hand on the snapshot: %s", e)
        return snap
