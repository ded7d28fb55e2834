"""Training a YOLO-OBB finder with ultralytics, offline, exported to ONNX (minutes: slow)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

pytestmark = pytest.mark.slow


def test_train_export_and_find_with_onnx_runtime_alone(tmp_path, monkeypatch):
    import importlib.util

    # found, not imported: importing it before vision.yolo_setup writes its settings to ~/.config
    if importlib.util.find_spec("ultralytics") is None:
        pytest.skip("ultralytics is not installed")
    from vision.labels import write_labels
    from vision.obb_export import export
    from vision.synth import render_table
    from vision.yolo_finder import YoloFinder
    from vision.yolo_train import train

    photos = tmp_path / "photos"
    for k in range(4):
        img, labels = render_table("R7 R8 R9 | K5 B5 O5", seed=k, size=(320, 240))
        write_labels(photos / "train", f"t{k}", img, list(labels))
    export(tmp_path / "obb", photos=photos, synthetic=2, val_synthetic=2, test=False)
    home = tmp_path / "home"
    for var in ("YOLO_OFFLINE", "YOLO_AUTOINSTALL", "YOLO_CONFIG_DIR", "MPLCONFIGDIR",
                "XDG_CACHE_HOME"):  # set by the training; put back after the test
        monkeypatch.setenv(var, os.environ.get(var, ""))
    # nothing may reach the network: ultralytics would try it for fonts, weights, checks
    import socket

    def no_network(*a, **k):
        raise AssertionError("tried the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    card = train(tmp_path / "obb" / "data.yaml", tmp_path / "model", hours=None, epochs=1,
                 imgsz=160, batch=4, workers=0, home=home)
    onnx = tmp_path / "model" / "tile-finder-yolo.onnx"
    assert onnx.is_file() and onnx.stat().st_size < 25 * 2**20
    saved = json.loads((tmp_path / "model" / "tile-finder-yolo.json").read_text())
    assert saved["imgsz"] == 160 and saved["classes"] == ["tile"] == card["classes"]
    assert not (home.parent / "runs").exists() and os.environ["YOLO_OFFLINE"] == "1"
    finder = YoloFinder(onnx, conf=0.0)
    dets = finder.detect(np.full((240, 320, 3), 128, np.uint8))
    assert finder.size == 160
    for d in dets:  # one epoch finds nothing in particular; the answer has the finder's shape
        assert set(d) == {"centre", "short", "long", "down", "score"}
        assert d["short"] <= d["long"] and d["down"][1] >= 0
