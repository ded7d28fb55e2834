"""The ultralytics OBB export: what a labelled tile outline becomes, and back."""

from __future__ import annotations

import numpy as np
import pytest

from vision.labels import CLASS_NAMES, iter_labelled, write_labels
from vision.obb_export import export, iter_obb, obb_line, parse_obb_line

cv2 = pytest.importorskip("cv2")


def _photo(w=400, h=300):
    img = np.full((h, w, 3), 90, np.uint8)
    return img


def test_a_tile_outline_survives_the_round_trip():
    corners = np.array([[100.5, 40.25], [160.0, 52.0], [148.0, 130.0], [88.0, 118.5]],
                       np.float32)
    line = obb_line("R7", corners, 400, 300)
    fields = line.split()
    assert CLASS_NAMES[int(fields[0])] == "red_7"
    assert len(fields) == 9
    assert all(0.0 <= float(v) <= 1.0 for v in fields[1:])
    tile, back = parse_obb_line(line, 400, 300)
    assert tile == "R7"
    np.testing.assert_allclose(back, corners, atol=400 * 1e-6)


def test_a_five_point_outline_becomes_its_four_corner_rectangle():
    five = np.array([[10, 10], [60, 10], [62, 40], [60, 80], [10, 80]], np.float32)
    tile, back = parse_obb_line(obb_line("J", five, 100, 100), 100, 100)
    assert tile == "J"
    assert back.shape == (4, 2)
    rect = cv2.boxPoints(cv2.minAreaRect(five))
    assert sorted(map(tuple, np.round(back, 2))) == sorted(map(tuple, np.round(rect, 2)))


def test_corners_off_the_photo_are_clipped_to_its_edge():
    corners = np.array([[-20, 10], [30, 10], [30, 80], [-20, 80]], np.float32)
    _, back = parse_obb_line(obb_line("K1", corners, 100, 100), 100, 100)
    assert back[:, 0].min() == 0.0


@pytest.mark.parametrize("line", ["3 0.1 0.2 0.3", "53 0.1 0.1 0.2 0.1 0.2 0.2 0.1 0.2",
                                  "-1 0.1 0.1 0.2 0.1 0.2 0.2 0.1 0.2"])
def test_bad_label_lines_are_refused(line):
    with pytest.raises(ValueError):
        parse_obb_line(line, 100, 100)


def test_export_writes_the_ultralytics_layout_from_labelled_photos(tmp_path):
    photos = tmp_path / "photos"
    tiles = [("B13", np.array([[50, 40], [90, 40], [90, 96], [50, 96]], np.float32)),
             ("O2", np.array([[200, 100], [240, 110], [226, 164], [186, 154]], np.float32))]
    write_labels(photos / "train", "table", _photo(), tiles)
    write_labels(photos / "valid", "other", _photo(), tiles[:1])
    counts = export(tmp_path / "obb", photos=photos, synthetic=1, val_synthetic=1)
    assert counts == {"train": 2, "val": 1, "test": 1}
    data = (tmp_path / "obb" / "data.yaml").read_text()
    assert "train: images/train" in data and "val: images/val" in data
    assert "test: images/test" in data
    assert "  0: black_1" in data and "  52: red_9" in data
    train = dict((p.stem, labels) for p, labels in iter_obb(tmp_path / "obb", "train"))
    got = train["table"]
    assert [t for t, _ in got] == ["B13", "O2"]
    for (_, want), (_, back) in zip(tiles, got):
        np.testing.assert_allclose(back, want, atol=0.01)
    assert "synth-1000003" in train  # a synthetic photo of the training seeds
    [(_, test_labels)] = list(iter_obb(tmp_path / "obb", "test"))
    assert [t for t, _ in test_labels] == ["B13"]


def test_export_applies_the_label_fixes(tmp_path, monkeypatch):
    photos = tmp_path / "photos"
    tiles = [("K5", np.array([[50, 40], [90, 40], [90, 96], [50, 96]], np.float32))]
    write_labels(photos / "train", "fixed", _photo(), tiles)
    fixes = tmp_path / "fixes.csv"
    fixes.write_text("image,line,old,new,reason\nfixed,0,K5,B5,ink is blue\n")
    import vision.labels as labels

    monkeypatch.setattr(labels, "FIXES_FILE", fixes)
    monkeypatch.setattr(labels.load_fixes, "__defaults__", (fixes,))
    export(tmp_path / "obb", photos=photos, synthetic=0, val_synthetic=0, test=False)
    [(_, got)] = list(iter_obb(tmp_path / "obb", "train"))
    assert [t for t, _ in got] == ["B5"]
    assert [item.tiles for item in iter_labelled(photos / "train", apply_fixes=False)] == [["K5"]]
