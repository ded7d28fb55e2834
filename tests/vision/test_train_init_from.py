"""Fine-tuning the reader (``python -m vision.train --init-from ONNX``): training starts from
an exported reader's weights, so what it reads well is kept while it learns something new."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")
pytest.importorskip("cv2")
ort = pytest.importorskip("onnxruntime")

from vision.geometry import CropSource, normalise  # noqa: E402
from vision.labels import shared_photos_dir  # noqa: E402
from vision.nets import TileReader  # noqa: E402
from vision.synth import render_table  # noqa: E402
from vision.train import command  # noqa: E402
from vision.train.args import SHIPPED_MODELS  # noqa: E402
from vision.train.init_from import load_onnx_reader, restate_batchnorm  # noqa: E402

SHIPPED = SHIPPED_MODELS / "tile-reader.onnx"
pytestmark = pytest.mark.skipif(not SHIPPED.exists(), reason="no shipped reader here")


def _crops() -> np.ndarray:
    """Crops of real-looking tiles as the reader is given them (N x 3 x H x W, normalised)."""
    img, labels = render_table("R3 K7 B11 O1 J | B6 B9 B13", seed=5, upside_down=0.3)
    src = CropSource(img)
    return np.stack([normalise(src.crop(c)) for _, c in labels])


def _onnx_logits(path: Path, x: np.ndarray) -> np.ndarray:
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return sess.run(["out"], {sess.get_inputs()[0].name: x})[0]


def test_a_reader_loaded_from_its_onnx_export_reads_as_the_export_does():
    x = _crops()
    want = _onnx_logits(SHIPPED, x)
    net = TileReader()
    load_onnx_reader(net, SHIPPED)
    net.eval()
    with torch.no_grad():
        got = net(torch.from_numpy(x)).numpy()
    assert np.abs(got - want).max() < 1e-3 * max(1.0, float(np.abs(want).max()))
    assert (got.argmax(1) == want.argmax(1)).all()


def test_batch_norm_restated_from_crops_keeps_the_readings_and_starts_training_there():
    """Training mode normalises by the batch's own statistics: with the file's folded batch
    norm left as "add the bias" it would compute something else, and fine-tuning would start
    from a reader that reads nothing right."""
    x = _crops()
    want = _onnx_logits(SHIPPED, x)
    net = TileReader()
    load_onnx_reader(net, SHIPPED)
    restate_batchnorm(net, torch.from_numpy(x))
    net.eval()
    with torch.no_grad():
        got = net(torch.from_numpy(x)).numpy()
        assert np.abs(got - want).max() < 1e-3 * max(1.0, float(np.abs(want).max()))
        net.train()
        net.drop.eval()  # dropout aside, training mode on the same crops reads the same
        trained_mode = net(torch.from_numpy(x)).numpy()
    assert np.abs(trained_mode - want).max() < 1e-2 * max(1.0, float(np.abs(want).max()))


def test_a_file_of_another_network_is_refused_with_what_differs(tmp_path, capsys):
    finder = SHIPPED_MODELS / "tile-finder.onnx"
    if not finder.exists():
        pytest.skip("no shipped finder here")
    with pytest.raises(ValueError, match="12 convolutions and 0 Gemm"):
        load_onnx_reader(TileReader(), finder)
    # refused before any data is rendered, the output folder untouched
    code = command.main(["--out", str(tmp_path / "m"), "--max-photos", "0", "--synthetic", "2",
                         "--skip-finder", "--init-from", str(finder)])
    assert code == 2
    assert "--init-from" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_fine_tuning_starts_from_the_given_reader_and_says_so(tmp_path):
    """One step at a tiny learning rate: a reader trained from random weights reads nothing
    right after it; one started from the shipped reader reads what the shipped one reads."""
    out = tmp_path / "models"
    photos = shared_photos_dir()
    where = ["--photos", str(photos)] if photos.is_dir() else ["--max-photos", "0"]
    code = command.main(["--out", str(out), "--threads", "2", "--seed", "3", "--skip-finder",
                         "--max-photos", "1", "--synthetic", "2", "--reader-epochs", "1",
                         "--jitters", "1", "--reader-lr", "1e-7", "--init-from", str(SHIPPED),
                         *where])
    assert code == 0
    meta = json.loads((out / "tile-reader.json").read_text())
    assert meta["init_from"] == str(SHIPPED) and meta["lr"] == 1e-7
    assert "--init-from" in meta["command"]
    x = _crops()
    assert (_onnx_logits(out / "tile-reader.onnx", x).argmax(1)
            == _onnx_logits(SHIPPED, x).argmax(1)).all()


@pytest.mark.parametrize("content", [b"", b"this is not a model\n", b"\x08\x07\xff\xff\xff"])
def test_a_damaged_file_is_refused_with_a_message_before_anything_is_made(tmp_path, capsys,
                                                                        content):
    bad = tmp_path / "reader.onnx"
    bad.write_bytes(content)
    code = command.main(["--out", str(tmp_path / "m"), "--max-photos", "0", "--synthetic", "2",
                         "--skip-finder", "--init-from", str(bad)])
    assert code == 2
    err = capsys.readouterr().err
    assert "--init-from" in err and str(bad) in err
    assert not (tmp_path / "m").exists()


def test_a_missing_file_is_refused_with_a_message(tmp_path, capsys):
    code = command.main(["--out", str(tmp_path / "m"), "--max-photos", "0", "--synthetic", "2",
                         "--skip-finder", "--init-from", str(tmp_path / "nowhere.onnx")])
    assert code == 2
    assert "nowhere.onnx" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def _fine_tuned_at_no_rate(tmp_path, freeze: bool) -> np.ndarray:
    """The shipped reader trained for two batches at a learning rate of 0 (so no weight
    moves) on its own crops, drawn relit as training draws them; its logits on those crops."""
    from vision.train.classifier import train_reader

    img, labels = render_table("R3 K7 B11 O1 J | B6 B9 B13", seed=5, upside_down=0.3)
    src = CropSource(img)
    raw = np.stack([src.crop(c) for _, c in labels])
    crops = np.concatenate([raw] * 32)
    ys = np.zeros(len(crops), np.int64)
    out = tmp_path / f"frozen-{freeze}.onnx"
    meta = train_reader(crops, ys, epochs=1, batch=128, seed=2, out=out, lr=0.0,
                        init=SHIPPED, freeze_batchnorm=freeze)
    assert meta.get("freeze_batchnorm", False) == freeze
    return _onnx_logits(out, np.stack([normalise(c) for c in raw]))


def test_frozen_batch_norm_changes_nothing_the_learning_rate_does_not_move(tmp_path):
    """At a learning rate of 0 a fine-tune with ``--freeze-batchnorm`` exports the reader it
    started from, logit for logit: its batch norms neither normalise by each batch nor
    re-estimate their statistics from the new crops."""
    want = _onnx_logits(SHIPPED, _crops())
    got = _fine_tuned_at_no_rate(tmp_path, freeze=True)
    assert np.abs(got - want).max() < 1e-4 * max(1.0, float(np.abs(want).max()))


def test_freeze_batchnorm_needs_a_reader_to_start_from(tmp_path, capsys):
    code = command.main(["--out", str(tmp_path / "m"), "--max-photos", "0", "--synthetic", "2",
                         "--skip-finder", "--freeze-batchnorm"])
    assert code == 2
    assert "--init-from" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()
