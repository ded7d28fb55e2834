"""Training the tile reader: straightened crops of true tiles in both orientations, "not a
tile" crops, the crops the trained finder cuts, and the classifier over them."""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np

from ..geometry import (CROP_H, CROP_W, N_TILES, NOT_A_TILE,
                        CropSource, flip_corners, normalise, rect_corners)
from ..labels import TILES
from .args import READER_LR
from .data import jitter, photometric
from .onnx_export import export_onnx


def _not_a_tile(img, corners, rng, n):
    """Crops that are not one whole tile: background, and windows across two tiles."""
    h, w = img.shape[:2]
    src = CropSource(img)
    out = []
    if corners:
        sizes = [float(np.hypot(*(c[1] - c[0]))) for c in corners]
        tw = float(np.median(sizes))
    else:
        tw = float(rng.uniform(40, 110))
    for _ in range(n):
        r = rng.random()
        if corners and r < 0.5:
            c = corners[int(rng.integers(len(corners)))]
            # half a tile sideways or along: shows parts of two tiles or tile and table
            d = (c[1] - c[0]) if rng.random() < 0.6 else (c[3] - c[0])
            frac = rng.uniform(0.4, 0.6) * (1 if rng.random() < 0.5 else -1)
            cc = c + d * frac
        else:
            centre = np.array([rng.uniform(0, w), rng.uniform(0, h)], np.float32)
            far = all(np.hypot(*(centre - c.mean(0))) > tw * 0.9 for c in corners)
            if not far:
                continue
            cc = rect_corners(centre, tw * rng.uniform(0.6, 1.6), tw / 0.72 * rng.uniform(0.6, 1.6),
                              (math.cos(rng.uniform(0, 6.3)), math.sin(rng.uniform(0, 6.3))))
        out.append(src.crop(cc.astype(np.float32)))
    return out


def build_crops(real_up, synth, rng, jitters_real: int, jitters_synth: int, neg_per_image: int):
    """Crops (N x CROP_H x CROP_W x 3 uint8) and labels (0..N_CLASSES-1)."""
    from tqdm import tqdm

    xs, ys = [], []
    for source, jit in ((real_up, jitters_real), (synth, jitters_synth)):
        for img, tiles, corners in tqdm(source, desc="tile crops", unit="img", mininterval=2):
            src = CropSource(img)
            for tile, c in zip(tiles, corners):
                if tile not in TILES:
                    continue
                k = TILES.index(tile)
                for j in range(jit):
                    cj = jitter(c, rng, 1.0 if j else 0.3)
                    flip = rng.random() < 0.5
                    if flip:
                        cj = flip_corners(cj)
                    xs.append(src.crop(cj))
                    ys.append(k + N_TILES if flip else k)
            for crop in _not_a_tile(img, corners, rng, neg_per_image):
                xs.append(crop)
                ys.append(NOT_A_TILE)
    return np.stack(xs), np.array(ys, np.int64)


def finder_crops(finder_path: Path, scenes, rng):
    """Crops cut where the trained finder finds tiles in the training images, labelled from
    the matching true tile (and which way up it lies); finds that match no tile become "not
    a tile" examples. So the reader learns the crops it will really be given."""
    import onnxruntime as ort
    from tqdm import tqdm

    from ..evaluate import match
    from ..geometry import decode_detections, detector_input

    sess = ort.InferenceSession(str(finder_path), providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    xs, ys = [], []
    for img, tiles, corners in tqdm(scenes, desc="finder crops", unit="img", mininterval=2):
        x, scale = detector_input(img)
        dets = decode_detections(sess.run(None, {name: x})[0][0], scale)
        if not dets:
            continue
        src = CropSource(img)
        det_corners = [rect_corners(d["centre"], d["short"], d["long"], d["down"]) for d in dets]
        m = match(np.array([d["centre"] for d in dets]), corners)
        matched = {p: g for g, p in m.items()}
        for p, dc in enumerate(det_corners):
            g = matched.get(p)
            if g is None:
                xs.append(src.crop(dc))
                ys.append(NOT_A_TILE)
                continue
            if tiles[g] not in TILES:
                continue
            k = TILES.index(tiles[g])
            true_down = corners[g][3] - corners[g][0]
            det_down = dc[3] - dc[0]
            upright = float(true_down @ det_down) > 0
            for flip in (False, True):
                c = flip_corners(dc) if flip else dc
                xs.append(src.crop(c))
                ys.append(k if upright != flip else k + N_TILES)
    return xs, ys


def train_reader(crops, labels, *, epochs: int, batch: int, seed: int, out: Path,
                 lr: float = READER_LR, desc: str = "tile-reader",
                 init: Path | None = None, not_a_tile_weight: float = 1.0,
                 freeze_batchnorm: bool = False) -> dict:
    """Train the reader on ``crops`` and export it to ``out``: from random weights, or
    (``init``: an exported reader) from that reader's weights, to fine-tune it.
    ``not_a_tile_weight``: the "not a tile" class's weight in the loss (every tile's is 1).
    ``freeze_batchnorm`` (with ``init``): the batch norms keep the statistics restated from
    the init reader (eval mode) instead of normalising by each batch and re-estimating them,
    so the network computes the init reader's function until its weights move: what changes
    is only what the learning rate moves."""
    import torch
    import torch.nn.functional as F
    from tqdm import tqdm

    from ..nets import TileReader

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = TileReader()
    if init is not None:
        from .init_from import load_onnx_reader, restate_batchnorm

        load_onnx_reader(net, init)
        some = rng.choice(len(labels), min(len(labels), 2048), replace=False)
        restate_batchnorm(net, torch.from_numpy(np.stack([normalise(crops[i]) for i in some])))
    n = len(labels)
    steps = max(1, epochs * (n // batch))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    weight = None
    if not_a_tile_weight != 1.0:
        weight = torch.ones(2 * N_TILES + 1)
        weight[NOT_A_TILE] = not_a_tile_weight
    t0 = time.time()
    net.train()
    if freeze_batchnorm:
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.eval()
    bar = tqdm(range(steps), desc=desc, unit="step", mininterval=2)
    hist = []
    order = rng.permutation(n)
    pos = 0
    for step in bar:
        if pos + batch > n:
            order, pos = rng.permutation(n), 0
        idx = order[pos:pos + batch]
        pos += batch
        imgs = np.stack([photometric(crops[i], rng) for i in idx])
        x = torch.from_numpy(np.stack([normalise(im) for im in imgs]))
        y = torch.from_numpy(labels[idx])
        loss = F.cross_entropy(net(x), y, label_smoothing=0.05, weight=weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        hist.append(loss.item())
        if step % 20 == 0:
            bar.set_postfix(loss=f"{np.mean(hist[-50:]):.3f}")
    net.eval()
    export_onnx(net, torch.zeros(1, 3, CROP_H, CROP_W), out, dynamic={"crops": {0: "n"}},
                input_name="crops")
    from ..calibration_model import add_embedding_output

    add_embedding_output(out)  # what calibration refits the last layer on
    started = {"init_from": str(init), "lr": lr} if init is not None else {}
    if weight is not None:
        started["not_a_tile_weight"] = not_a_tile_weight
    if freeze_batchnorm:
        started["freeze_batchnorm"] = True
    return {**started, "epochs": epochs, "crops": int(n), "batch": batch,
            "train_seconds": round(time.time() - t0, 1),
            "final_loss": round(float(np.mean(hist[-50:])), 4)}


def reader_accuracy(onnx_path: Path, crops, labels) -> float:
    import onnxruntime as ort

    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    correct = 0
    for i in range(0, len(labels), 256):
        x = np.stack([normalise(c) for c in crops[i:i + 256]])
        pred = sess.run(None, {sess.get_inputs()[0].name: x})[0].argmax(1)
        correct += int((pred == labels[i:i + 256]).sum())
    return correct / max(1, len(labels))
