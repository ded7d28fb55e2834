"""The YOLO-OBB finder's output decoding, and the reader with another finder."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.yolo_finder import decode_obb

pytest.importorskip("cv2")


def _raw(*anchors):
    """A raw one-class YOLO-OBB output (6 x anchors) from (cx, cy, w, h, score, angle)."""
    return np.array(anchors, np.float32).T.copy()


def test_a_find_becomes_a_tile_rectangle_in_image_pixels():
    out = _raw((100, 50, 20, 40, 0.9, 0.3))
    [d] = decode_obb(out, scale=0.5)
    np.testing.assert_allclose(d["centre"], [200, 100], atol=1e-4)
    assert d["short"] == pytest.approx(40) and d["long"] == pytest.approx(80)
    # the long side is the box's height, at right angles to the angle's direction
    np.testing.assert_allclose(d["down"], [-math.sin(0.3), math.cos(0.3)], atol=1e-5)
    assert d["score"] == pytest.approx(0.9)


def test_the_long_side_direction_points_down_the_image():
    [d] = decode_obb(_raw((100, 50, 40, 20, 0.9, -1.2)), scale=1.0)
    assert d["long"] == pytest.approx(40)
    assert d["down"][1] > 0
    assert abs(float(d["down"] @ [math.cos(-1.2), math.sin(-1.2)])) == pytest.approx(1, abs=1e-5)


def test_overlapping_finds_are_one_tile_and_weak_ones_are_dropped():
    out = _raw((100, 50, 20, 40, 0.8, 0.0), (102, 51, 20, 40, 0.9, 0.05),
               (300, 50, 20, 40, 0.2, 0.0), (200, 50, 20, 40, 0.6, 0.0))
    dets = decode_obb(out, scale=1.0, conf=0.35)
    assert sorted(round(float(d["centre"][0])) for d in dets) == [102, 200]


def test_nothing_found_is_an_empty_list():
    assert decode_obb(_raw((100, 50, 20, 40, 0.1, 0.0)), scale=1.0) == []


class _TrueFinder:
    """A finder that knows where the tiles are (their labelled outlines)."""

    def __init__(self, corners):
        self.corners = corners
        self.calls = 0
        self.pictures = []

    def detect(self, img):
        from vision.geometry import rect_from_points

        self.calls += 1
        self.pictures.append(img)
        dets = []
        for c in self.corners:
            centre, short, long, u = rect_from_points(c)
            dets.append({"centre": centre, "short": short, "long": long,
                         "down": u if u[1] >= 0 else -u, "score": 0.95})
        return dets


def test_the_reader_reads_what_another_finder_finds():
    from vision.reader import Reader, models_dir
    from vision.synth import render_table

    try:
        models_dir()
    except FileNotFoundError:
        pytest.skip("the tile reader's models are not here")
    img, labels = render_table("R7 R8 R9 | K5 B5 O5", seed=3, classic=True, upside_down=0.0,
                               angle=0.0, tilt=0.02)
    finder = _TrueFinder([c for _, c in labels][:4])  # it finds only four of the six
    reading = Reader(finder=finder).read(img)
    assert finder.calls == 1
    # it is shown the photo itself (no bigger than the reader's working size)
    assert np.array_equal(finder.pictures[0], img)
    assert sorted(t.tile for t in reading.tiles) == sorted(["R7", "R8", "R9", "K5"])


def test_the_committed_yolo_finder_finds_the_tiles_of_a_valid_photo():
    """``models/tile-finder-yolo.onnx`` (measured in models/tile-finder.md) on the first shared
    valid photo with tiles: it finds most labelled tiles, each within half a tile, and little
    else."""
    import cv2

    from vision.evaluate import match
    from vision.geometry import rect_from_points
    from vision.labels import REPO_ROOT, iter_labelled, shared_photos_dir
    from vision.yolo_finder import YoloFinder

    onnx = REPO_ROOT / "models" / "tile-finder-yolo.onnx"
    valid = shared_photos_dir() / "valid"
    if not onnx.is_file() or not valid.is_dir():
        pytest.skip("the YOLO finder or the shared valid photos are not here")
    item = next(it for it in iter_labelled(valid) if len(it.tiles) >= 10)
    dets = YoloFinder(onnx).detect(cv2.imread(str(item.path)))
    found = match(np.array([d["centre"] for d in dets]).reshape(-1, 2), item.outlines)
    assert len(found) >= 0.9 * len(item.tiles)
    assert len(dets) <= len(found) + 2
    for g, p in found.items():  # a find is the size of its tile
        _, short, long, _ = rect_from_points(item.outlines[g])
        assert 0.6 < dets[p]["short"] / short < 1.6 and 0.6 < dets[p]["long"] / long < 1.6
