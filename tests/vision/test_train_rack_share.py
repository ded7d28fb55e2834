"""More rack photos in the training mix (``rummiref train --rack-share``) and "not a tile"
weighed less in the reader's loss (``--not-a-tile-weight``): both off by default, so the
shipped reader's training command draws the same scenes and the same loss; on, the rack share
replaces only tables that came after the pasted close-ups in the mix."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2")

from vision.synth import random_scene  # noqa: E402
from vision.synth.scenes import CLOSEUP_SHARE, PASTED_SHARE, RACK_SHARE  # noqa: E402
from vision.train import command  # noqa: E402

MORE = 0.15


def _mix(seed: int) -> float:
    """The draw ``random_scene`` decides a scene's kind by."""
    return np.random.default_rng([seed, 10]).random()


def _same(a, b) -> bool:
    return np.array_equal(a[0], b[0]) and [t for t, _ in a[1]] == [t for t, _ in b[1]]


def test_more_racks_take_only_the_places_of_tables_after_the_pasted_ones():
    start = RACK_SHARE + CLOSEUP_SHARE + PASTED_SHARE
    inside = [s for s in range(300) if start <= _mix(s) < start + MORE][:2]
    outside = [s for s in range(300) if _mix(s) >= start + MORE][:2]
    before = [s for s in range(300) if _mix(s) < start][:3]   # racks, close-ups, pasted
    assert inside and outside and before
    for s in outside + before:  # the same scene as without the option
        assert _same(random_scene(s, size=(320, 240), pasted_share=PASTED_SHARE,
                                  rack_share=MORE),
                     random_scene(s, size=(320, 240), pasted_share=PASTED_SHARE))
    for s in inside:  # without the option a table; with it a rack photo
        table = random_scene(s, size=(320, 240), pasted_share=PASTED_SHARE)
        rack = random_scene(s, size=(320, 240), pasted_share=PASTED_SHARE, rack_share=MORE)
        assert not _same(table, rack) and rack[1]
        # a rack: one or two rows of tiles, each tile standing upright
        ys = sorted(float(c[:, 1].mean()) for _, c in rack[1])
        assert len(rack[1]) <= 24 and ys
    # without pasted close-ups the extra racks follow the close-ups directly
    s = next(s for s in range(300)
             if RACK_SHARE + CLOSEUP_SHARE <= _mix(s) < RACK_SHARE + CLOSEUP_SHARE + MORE)
    assert not _same(random_scene(s, size=(320, 240), rack_share=MORE),
                     random_scene(s, size=(320, 240)))


@pytest.mark.parametrize("args", [["--rack-share", "-0.1"],
                                  ["--rack-share", "0.6", "--pasted-share", "0.12"],
                                  ["--not-a-tile-weight", "0"]])
def test_a_share_or_weight_out_of_range_is_refused_before_anything_is_made(tmp_path, capsys,
                                                                          args):
    code = command.main(["--out", str(tmp_path / "m"), "--max-photos", "0", "--synthetic", "2",
                         "--skip-finder", *args])
    assert code == 2
    assert args[0] in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_not_a_tile_weighed_less_lowers_its_share_of_the_loss(tmp_path):
    """Trained on noise crops, three in four labelled "not a tile" and the rest a tile, a
    reader calls most of them no tile; one whose loss weighs that class at 0.05 (so the tile
    weighs more in all) calls fewer of them no tile."""
    pytest.importorskip("torch")
    pytest.importorskip("onnxruntime")
    from vision.geometry import CROP_H, CROP_W, NOT_A_TILE
    from vision.train.classifier import train_reader
    from vision.geometry import normalise

    rng = np.random.default_rng(0)
    # crops the reader cannot tell apart (noise), three in four labelled "not a tile"
    crops = rng.integers(0, 255, (256, CROP_H, CROP_W, 3), dtype=np.uint8)
    labels = np.where(np.arange(256) % 4 != 0, NOT_A_TILE, 7).astype(np.int64)
    shares = {}
    for w in (1.0, 0.05):
        out = tmp_path / f"r{w}.onnx"
        meta = train_reader(crops, labels, epochs=8, batch=64, seed=1, out=out, lr=3e-3,
                            not_a_tile_weight=w)
        assert meta.get("not_a_tile_weight", 1.0) == w
        import onnxruntime as ort

        sess = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
        x = np.stack([normalise(c) for c in crops])
        pred = sess.run(None, {sess.get_inputs()[0].name: x})[0].argmax(1)
        shares[w] = float((pred == NOT_A_TILE).mean())
    assert shares[1.0] > 0.5 and shares[0.05] < shares[1.0] - 0.5, shares
