"""The watcher's turn detection, hands, consensus and sampling, driven by generated frames.

These use the colour-coded test double (tests/vision/fakes.py), not the real tile reader: they
test the state machine. tests/webapp/live/test_end_to_end.py uses the real reader."""

from __future__ import annotations

import time

import pytest

cv2 = pytest.importorskip("cv2")

from vision.consensus import consensus
from vision.motion import HandDetector
from vision.reading import Reading, TileReading, Uncertain
from vision.snapshot import Reason
from vision.sources import iter_source
from vision.watch import Watcher, WatchConfig

from .fakes import CodedFrameReader, NullSource, render_coded
from .scripted_game import GAME, game_frames


def drive(frames, reader=None, **cfg):
    """Feed sampled frames straight into the watcher with their own timestamps."""
    reader = reader or CodedFrameReader()
    seen = []
    w = Watcher(NullSource(), reader, config=WatchConfig(**cfg),
                on_snapshot=lambda s: seen.append((s.table, s.reason.value)))
    phases = []
    for t, frame, phase in frames:
        if w.step(frame, t) is not None:
            phases.append(phase)
    return w, seen, phases


def test_every_turn_of_the_scripted_game_gives_one_snapshot_and_the_hand_none():
    w, seen, phases = drive(game_frames(fps=10))
    assert seen == [(table, "start" if phase == "start" else "still")
                    for phase, table, _, _ in GAME]
    assert phases == [phase for phase, *_ in GAME]
    assert w.stats["hand_samples"] > 10  # the arm was seen
    # three frames read per snapshot, nothing read while the hand rested on the table
    assert w.stats["reads"] == 2 * len(GAME)  # two frames agreeing settle each table


def test_a_hand_resting_over_the_tiles_never_ends_the_turn():
    # Without the hand detector the covered tiles would be read as taken.
    frames = list(game_frames(fps=10, game=[("start", "R10 R11 R12", 1.0, False),
                                            ("cy", "R10 R11 R12", 1.0, True)]))
    w, seen, _ = drive(frames)
    assert seen == [("R10 R11 R12", "start")]
    w2, seen2, _ = drive(frames, hand=HandDetector(skin_fraction=2.0, use_change=False))
    assert len(seen2) > 1 and seen2[1][0] != "R10 R11 R12"  # the detector is what prevents it


def test_one_misread_frame_decides_nothing():
    w, seen, _ = drive(game_frames(fps=10, glitch_every=3))
    assert [t for t, _ in seen] == [table for _, table, _, _ in GAME]
    # where one of the first two frames was misread they disagreed, so a third frame was read
    assert 2 * len(GAME) < w.stats["reads"] <= 3 * len(GAME)


def test_consensus_majority_label_and_uncertain_mark():
    good = CodedFrameReader()(render_coded("R7 R8 R9"))
    bad = CodedFrameReader()(render_coded("R7 R8 R9", glitch={"R8": "R3"}))
    snap = consensus([good, bad, good])
    assert str(snap.table) == "R7 R8 R9"
    assert [u.index for u in snap.uncertain] == [1]
    assert snap.uncertain[0].reason == "the frames disagreed: R8 in 2 of 3, R3 in 1 of 3"
    # a tile seen in only one frame of three is dropped; seen in two, kept
    lone = CodedFrameReader()(render_coded("R7 R8 R9 | K1 K2 K3"))
    assert str(consensus([good, lone, good]).table) == "R7 R8 R9"
    assert str(consensus([lone, good, lone]).table) == "R7 R8 R9 | K1 K2 K3"


def test_nothing_changes_no_turn_and_end_turn_tap_gives_a_draw():
    frames = [(i / 10, render_coded("R1 R2 R3", seed=i), "x") for i in range(30)]
    w, seen, _ = drive(frames)
    assert seen == [("R1 R2 R3", "start")]
    # stillness again later: nothing new, nothing posted, nothing read again
    reads = w.stats["reads"]
    for i in range(30, 40):
        assert w.step(render_coded("R1 R2 R3", seed=i, arm=0.4), i / 10) is None
    for i in range(40, 60):
        assert w.step(render_coded("R1 R2 R3", seed=i), i / 10) is None
    assert w.stats["reads"] == reads
    w.request_end_turn("tap-1")
    snap = w.step(render_coded("R1 R2 R3", seed=61), 6.1)
    assert snap is not None and snap.table == "R1 R2 R3"
    assert (snap.reason, snap.end_turn) == (Reason.END_TURN, "tap-1")


def test_end_turn_tap_waits_for_the_hand_to_leave():
    w, seen, _ = drive([(i / 10, render_coded("R1 R2 R3", seed=i), "x") for i in range(10)])
    w.request_end_turn("tap")
    for i in range(10, 20):
        assert w.step(render_coded("R1 R2 R3", seed=i, arm=0.9), i / 10) is None
    got = [w.step(render_coded("R1 R2 R3 R4", seed=i), i / 10) for i in range(20, 30)]
    assert [(s.table, s.reason) for s in got if s] == [("R1 R2 R3 R4", Reason.END_TURN)]


def test_every_snapshot_has_its_own_key_and_the_picture_its_reading_refers_to():
    keys = []
    w2 = Watcher(NullSource(), CodedFrameReader(), on_snapshot=lambda s: keys.append(s))
    for t, frame, _ in game_frames(fps=10, game=GAME[:3]):
        w2.step(frame, t)
    assert len(keys) == 3 and len({s.key for s in keys}) == 3
    for s in keys:
        assert 0.4 <= s.still_for < 2.0   # half a second still, then read (frame times)
        assert s.picture.shape == (480, 640, 3)
        data, reading = s.jpeg(max_side=320)   # the picture halved: so are the outlines
        assert data[:3] == b"\xff\xd8\xff" and reading.image_size == (320, 240)
        if len(s.reading):
            assert reading.corners[0, 0, 0] == pytest.approx(s.reading.corners[0, 0, 0] / 2)


def test_a_30fps_camera_is_sampled_not_queued_and_turns_come_within_2_s():
    """Real time: a paced 30 fps source, the watcher sampling at 10/s in its own thread."""
    script = [("start", "R1 R2 R3", 1.2, False), ("ann", "R1 R2 R3 | K9 B9 O9", 1.6, False)]
    frames = [f for _, f, _ in game_frames(fps=30, game=script)]
    src = iter_source(frames, fps=30)
    seen = []
    w = Watcher(src, CodedFrameReader(), on_snapshot=lambda s: seen.append(
        (s.table, time.monotonic())))
    t0 = time.monotonic()
    w.start()
    w.join(20)
    assert not w._thread.is_alive()
    assert [t for t, _ in seen] == ["R1 R2 R3", "R1 R2 R3 | K9 B9 O9"]
    assert src.buffer.dropped > len(frames) // 2  # most frames were skipped, none queued
    assert w.stats["samples"] < len(frames) * 0.6
    # the last change is at the end of the arm movement; the verdict must follow within 2 s
    last_change = t0 + (1.2 + 0.6) + 0.3  # start still + move (tables swap half-way)
    assert seen[1][1] - last_change < 2.0


def test_consensus_keeps_the_readers_doubts_and_outlines():
    import numpy as np

    box = lambda x: np.array([[x, 0], [x + 10, 0], [x + 10, 14], [x, 14]], np.float32)  # noqa: E731
    r = Reading([TileReading("R2", 0.97, box(12)), TileReading("R1", 0.55, box(0)),
                 TileReading("R3", 0.99, box(24))],
                melds=[[1, 0, 2]], uncertain=[Uncertain(1, "R1 read at 0.55")])
    snap = consensus([r, r, r])
    assert str(snap.table) == "R1 R2 R3"
    assert [(u.index, u.reason) for u in snap.uncertain] == [(0, "R1 read at 0.55")]
    assert np.array_equal(snap.tiles[0].corners, box(0))


def test_a_reader_failing_on_frames_never_makes_a_snapshot_nor_stops_the_watcher():
    good = CodedFrameReader()
    calls = {"n": 0}

    def flaky(image):
        calls["n"] += 1
        if calls["n"] in (4, 5):  # two of the three frames of the second still stretch
            raise ValueError("corrupt frame")
        return good(image)

    script = [("start", "R1 R2 R3", 1.0, False), ("ann", "R1 R2 R3 | K10 B10 O10", 1.0, False),
              ("ben", "R1 R2 R3 | K10 B10 O10 | B1 B2 B3", 1.0, False)]
    w, seen, _ = drive(game_frames(fps=10, game=script), reader=flaky)
    # the failed reading is tried again on later frames of the same still stretch: Ann's turn
    # is not merged into Ben's
    assert [t for t, _ in seen] == ["R1 R2 R3", "R1 R2 R3 | K10 B10 O10",
                                    "R1 R2 R3 | K10 B10 O10 | B1 B2 B3"]
    assert w.stats["read_errors"] == 2

    def broken(image):
        raise ValueError("no model")

    w, seen, _ = drive(game_frames(fps=10, game=[("start", "R1 R2 R3", 3.0, False)]),
                       reader=broken)
    assert seen == [] and w.stats["read_errors"] == 3 * 4  # first try + 3 retries, then gives up


def test_a_tap_still_shown_while_its_snapshot_is_on_its_way_is_answered_once():
    class Sink:
        def __init__(self):
            self.snaps = []

        def snapshot(self, snap):
            self.snaps.append(snap)   # not delivered yet: the server still shows the tap

        def status(self, status):
            pass

        def end_turn_requested(self):
            return "tap-1" if self.snaps else None

    sink = Sink()
    w = Watcher(NullSource(), CodedFrameReader(), sink, WatchConfig(end_turn_poll=0.0))
    for i in range(40):
        w.step(render_coded("R1 R2 R3", seed=i), i / 10)
        w._poll_end_turn()
    assert [(s.reason, s.end_turn) for s in sink.snaps] == [(Reason.START, None),
                                                           (Reason.END_TURN, "tap-1")]
