"""Training the reader's models: a short real run in the default suite, a longer one opt-in."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")
cv2 = pytest.importorskip("cv2")

from vision.train import command, data  # noqa: E402
from vision.labels import shared_photos_dir  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.synth import render_table  # noqa: E402


def _run(tmp_path: Path, *extra: str) -> Path:
    out = tmp_path / "models"
    photos = shared_photos_dir()
    # without the shared photos, synthetic ones only (the last --max-photos wins)
    where = ["--photos", str(photos)] if photos.is_dir() else ["--max-photos", "0"]
    args = ["--out", str(out), "--threads", "2", "--seed", "3", *extra, *where]
    assert command.main(args) == 0
    return out


def test_short_training_run_exports_models_that_load(tmp_path):
    t0 = time.perf_counter()
    out = _run(tmp_path, "--max-photos", "1", "--synthetic", "2", "--finder-steps", "2",
               "--batch", "2", "--reader-epochs", "1", "--jitters", "1")
    assert time.perf_counter() - t0 < 120
    for name in ("tile-finder", "tile-reader"):
        assert (out / f"{name}.onnx").stat().st_size > 10_000
        meta = json.loads((out / f"{name}.json").read_text())
        assert meta["kind"] == name and meta["command"].startswith("python -m vision.train")
    reader = Reader(out)
    img, _ = render_table("R1 R2 R3", seed=1)
    reading = reader.read(img)  # two steps teach nothing; it must still run end to end
    assert isinstance(reading.tiles, list)
    assert reader.classify(np.zeros((2, 56, 40, 3), np.uint8)).shape == (2, 107)


def test_training_without_any_data_is_a_clear_error(tmp_path, capsys):
    code = command.main(["--out", str(tmp_path / "m"), "--max-photos", "0",
                         "--synthetic", "0"])
    assert code == 2
    assert "nothing to train on" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_a_wrong_photo_folder_is_refused_rather_than_trained_without_it(tmp_path, capsys):
    """A mistyped --photos once trained on synthetic photos alone, and said so only in a log line."""
    code = command.main(["--out", str(tmp_path / "m"), "--photos", str(tmp_path / "none"),
                         "--synthetic", "2"])
    assert code == 2
    err = capsys.readouterr().err
    assert str(tmp_path / "none" / "train") in err and "--max-photos 0" in err
    assert not (tmp_path / "m").exists()


def test_the_defaults_are_the_shared_photos_and_the_shipped_models_folder():
    import argparse

    from vision.train.args import add_arguments

    p = argparse.ArgumentParser()
    add_arguments(p)
    args = p.parse_args([])
    root = Path(__file__).resolve().parents[2]
    assert Path(args.out) == root / "models"
    assert Path(args.photos) == shared_photos_dir() == root.parent / "shared" / "data" / "photos"


def test_ink_check_tells_which_way_up_a_classic_tile_lies():
    from vision.geometry import CropSource, flip_corners

    img, labels = render_table("K6 R9 B12 O1", seed=4, classic=True, upside_down=0.0)
    src = CropSource(img)
    for _, corners in labels:
        assert not data.ink_says_upside_down(src.crop(corners))
        assert data.ink_says_upside_down(src.crop(flip_corners(corners)))


@pytest.mark.slow
def test_longer_training_run_finds_tiles(tmp_path, request):
    """A few minutes on 2 cores: the finder learns to find tiles on synthetic tables.
    Runs only when asked for (``pytest -m slow``)."""
    if "slow" not in (request.config.option.markexpr or "") or \
            "not slow" in request.config.option.markexpr:
        pytest.skip("slow: run with `pytest -m slow`")
    out = _run(tmp_path, "--max-photos", "20", "--synthetic", "40", "--finder-steps", "300",
               "--reader-epochs", "2", "--skip-reader")
    from vision.geometry import decode_detections, detector_input
    import onnxruntime as ort

    sess = ort.InferenceSession(str(out / "tile-finder.onnx"))
    img, labels = render_table("R1 R2 R3 R4 | K5 B5 O5", seed=9, classic=True)
    x, scale = detector_input(img)
    dets = decode_detections(sess.run(None, {"images": x})[0][0], scale)
    assert abs(len(dets) - len(labels)) <= 2


def test_training_the_reader_alone_still_learns_from_the_shipped_finder(tmp_path, capsys):
    """--skip-finder into an empty folder once dropped the finder's crops (its false finds are
    what teaches "not a tile") without a word; the shipped finder now provides them."""
    from vision.train.args import SHIPPED_MODELS

    if not (SHIPPED_MODELS / "tile-finder.onnx").exists():
        pytest.skip("no shipped finder in this checkout")
    out = _run(tmp_path, "--skip-finder", "--max-photos", "1", "--synthetic", "2",
               "--reader-epochs", "1", "--jitters", "1")
    logged = capsys.readouterr().out
    assert "crops where the finder finds tiles" in logged
    assert not (out / "tile-finder.onnx").exists() and (out / "tile-reader.onnx").exists()
