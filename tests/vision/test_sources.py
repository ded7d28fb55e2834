"""Frame sources: the one-slot buffer, reconnecting with backoff, stalls, files and folders."""

from __future__ import annotations

import threading
import struct
import time
import zlib

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision.sources import (CONNECTING, LIVE, RECONNECTING, STALLED, STOPPED, Capture,
                            FrameSource, LatestFrame, SourceError, iter_source, open_source)


def wait_for(cond, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return False


def test_latest_frame_keeps_one_frame_and_counts_the_dropped():
    buf = LatestFrame()
    for i in range(100):
        buf.put(i)
    f = buf.get(0, timeout=0)
    assert f.image == 99 and f.seq == 100 and buf.dropped == 99
    assert buf.get(f.seq, timeout=0.01) is None  # nothing newer
    buf.put(100)
    assert buf.get(f.seq, timeout=0).image == 100 and buf.dropped == 99


class FlakyCamera:
    """Fails to open twice, gives frames, drops out, opens again, then stalls."""

    def __init__(self):
        self.opens = 0
        self.release_event = threading.Event()

    def open(self):
        self.opens += 1
        if self.opens <= 2:
            raise OSError("no such device")
        cam = self

        class Cap(Capture):
            n = 0

            def read(self):
                self.n += 1
                if cam.opens == 3 and self.n > 5:
                    return False, None  # the camera drops out
                if cam.opens >= 4 and self.n > 5:
                    cam.release_event.wait(10)  # the stream stalls (read blocks)
                    return False, None
                time.sleep(0.005)
                return True, np.zeros((4, 4, 3), np.uint8)

        return Cap()


def test_reconnects_with_exponential_backoff_and_reports_each_state():
    cam = FlakyCamera()
    states = []
    src = FrameSource(cam.open, name="cam", backoff_initial=0.05, backoff_max=1.0,
                      stall_after=0.3, on_state=lambda s, d: states.append((s, d)))
    src.start()
    try:
        assert wait_for(lambda: cam.opens >= 4 and src.state == STALLED, 5)
    finally:
        cam.release_event.set()
        src.stop()
    kinds = [s for s, _ in states]
    assert kinds[:5] == [CONNECTING, RECONNECTING, CONNECTING, RECONNECTING, CONNECTING]
    assert LIVE in kinds and STALLED in kinds and kinds[-1] == STOPPED
    waits = [float(d.rsplit("in ", 1)[1].split(" s")[0]) for s, d in states if s == RECONNECTING]
    assert waits[:2] == [0.05, 0.1]  # doubling
    assert waits[2] == 0.05  # a good connection resets the backoff
    assert src.frames_read >= 10 and src.reconnects >= 3
    assert "no frame from cam" in dict(states)[STALLED]


def test_backoff_is_capped():
    src = FrameSource(lambda: None, name="gone", backoff_initial=0.01, backoff_max=0.04)
    src.start()
    assert wait_for(lambda: src.reconnects >= 6, 5)
    src.stop()
    waits = [float(d.rsplit("in ", 1)[1].split(" s")[0]) for s, d in src.history
             if s == RECONNECTING]
    assert max(waits) == 0.04 and waits[:3] == [0.01, 0.02, 0.04]


def test_video_file_and_photo_folder(tmp_path):
    path = tmp_path / "table.avi"
    vw = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (64, 48))
    for i in range(20):
        vw.write(np.full((48, 64, 3), i * 10, np.uint8))
    vw.release()
    src = open_source(str(path), realtime=False)
    got = []
    src.start()
    while True:
        f = src.buffer.get(got[-1].seq if got else 0, timeout=2)
        if f is None:
            break
        got.append(f)
    src.join(2)
    assert src.state == STOPPED and src.frames_read == 20 and "end" in src.detail
    assert got and got[-1].seq == 20
    photos = tmp_path / "photos"
    photos.mkdir()
    for i in range(3):
        cv2.imwrite(str(photos / f"{i}.png"), np.full((10, 10, 3), i * 50, np.uint8))
    (photos / "notes.txt").write_text("not a photo")
    # A real 8000x8000 PNG of a few kB (64 megapixels, over the reader's limit) is skipped.
    comp = zlib.compressobj(9)
    pixels = b"".join(comp.compress(b"\x00" * 1001) for _ in range(8000)) + comp.flush()
    (photos / "1b.png").write_bytes(b"".join(
        [b"\x89PNG\r\n\x1a\n"] + [struct.pack(">I", len(d)) + k + d + struct.pack(
            ">I", zlib.crc32(k + d)) for k, d in ((b"IHDR", struct.pack(">IIBBBBB", 8000, 8000,
                                                                       1, 0, 0, 0, 0)),
                                                  (b"IDAT", pixels), (b"IEND", b""))]))
    assert cv2.imread(str(photos / "1b.png"), cv2.IMREAD_GRAYSCALE).shape == (8000, 8000)
    src = open_source(str(photos), fps=100, photo_hold=0.05, realtime=False)
    src.start()
    src.join(5)
    assert src.state == STOPPED and src.frames_read == 15  # 3 photos x 5 frames


def test_bad_sources_are_refused_with_a_clear_message(tmp_path):
    with pytest.raises(SourceError, match="no such file"):
        open_source(str(tmp_path / "nope.mp4"))
    with pytest.raises(SourceError, match="no photos"):
        open_source(str(tmp_path))
    with pytest.raises(SourceError, match="unsupported"):
        open_source("ftp://camera/video")
    bad = tmp_path / "x.mp4"
    bad.write_text("not a video")
    src = open_source(str(bad), realtime=False)
    src.start()
    src.join(5)
    assert src.state == STOPPED and "not a video" in src.detail


def test_a_paced_source_never_queues():
    frames = (np.zeros((8, 8, 3), np.uint8) for _ in range(60))
    src = iter_source(frames, fps=120)
    src.start()
    time.sleep(0.25)
    first = src.buffer.get(0, timeout=1)
    src.join(3)
    assert src.frames_read == 60 and src.buffer.dropped >= 55
    assert first is not None


def test_a_camera_that_only_looks_like_a_webcam_index_is_refused_clearly():
    # "²" passed str.isdigit() and then broke int() with a bare ValueError (`rummiref watch
    # --camera ²` printed a traceback); it is a path like any other text.
    with pytest.raises(SourceError, match="no such file"):
        open_source("\u00b2")
