"""Training the tile finder: random rotated, scaled crops of the scenes and the network that
marks every tile's centre, size and direction."""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np

from ..geometry import KERNEL_SHRINK, TRAIN_BASE_SIZE, STRIDE, normalise, rect_from_points
from .data import photometric
from .onnx_export import export_onnx


CROP = 256  # detector training crop (pixels, at detector scale)
#: Tile sizes the finder trains on, relative to a photo scaled to TRAIN_BASE_SIZE. A finder
#: trained on (0.7, 2.6), closer to the 576 and 704 pixels it runs at, found more tiles in
#: synthetic close-ups but read the real training photos worse (F1 0.983 against 0.991 with
#: the same reader recipe), so the shipped finder keeps this range.
FINDER_SCALES = (0.55, 1.8)


def _det_sample(img, corners, rng, crop=CROP):
    """A random rotated, scaled crop at detector scale and its 7-channel targets."""
    import cv2

    h, w = img.shape[:2]
    s = TRAIN_BASE_SIZE / max(h, w) * math.exp(rng.uniform(*np.log(FINDER_SCALES)))
    ang = rng.uniform(0, 360) if rng.random() < 0.6 else rng.normal(0, 8)
    if corners and rng.random() < 0.8:
        c = corners[int(rng.integers(len(corners)))].mean(0) + rng.normal(0, crop / s / 4, 2)
    else:
        c = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    m = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), float(ang), float(s))
    m[:, 2] += np.array([crop / 2, crop / 2]) - c
    fill = tuple(float(v) for v in rng.uniform(0, 255, 3))
    x = cv2.warpAffine(img, m, (crop, crop), flags=cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    x = photometric(x, rng)
    o = crop // STRIDE
    idx = np.zeros((o, o), np.int32)
    params = []
    for k, cn in enumerate(corners):
        p = cn @ m[:, :2].T + m[:, 2]
        centre, short, long, u = rect_from_points(p)
        if long < 8 or not (-long < centre[0] < crop + long and -long < centre[1] < crop + long):
            continue
        ker = centre + (p - centre) * KERNEL_SHRINK
        val = len(params) + 1
        cv2.fillPoly(idx, [np.round(ker / STRIDE * 16 - 8).astype(np.int32)], val, shift=4)
        ci, cj = int(centre[1] // STRIDE), int(centre[0] // STRIDE)
        if 0 <= ci < o and 0 <= cj < o:
            idx[ci, cj] = val
        a = math.atan2(float(u[1]), float(u[0]))
        params.append((centre[0] / STRIDE, centre[1] / STRIDE, math.log(short / STRIDE),
                       math.log(long / STRIDE), math.cos(2 * a), math.sin(2 * a)))
    t = np.zeros((7, o, o), np.float32)
    if params:
        pr = np.array(params, np.float32)
        ys, xs = np.nonzero(idx)
        q = pr[idx[ys, xs] - 1]
        t[0, ys, xs] = 1
        t[1, ys, xs] = q[:, 0] - (xs + 0.5)
        t[2, ys, xs] = q[:, 1] - (ys + 0.5)
        t[3:7, ys, xs] = q[:, 2:6].T
    return normalise(x), t


def _finder_loss(pred, target):
    import torch
    import torch.nn.functional as F

    heat, reg = pred[:, 0], pred[:, 1:]
    pos = target[:, 0]
    bce = F.binary_cross_entropy_with_logits(heat, pos, pos_weight=torch.tensor(2.0))
    p = torch.sigmoid(heat)
    dice = 1 - (2 * (p * pos).sum() + 1) / (p.sum() + pos.sum() + 1)
    n = pos.sum().clamp(min=1)
    l1 = (F.smooth_l1_loss(reg, target[:, 1:], reduction="none", beta=0.2).sum(1) * pos).sum() / n
    return bce + dice + 0.5 * l1, (bce.item(), dice.item(), l1.item())


def train_finder(scenes, *, steps: int, batch: int, seed: int, out: Path, lr: float = 3e-3,
                 desc: str = "tile-finder") -> dict:
    import torch
    from tqdm import tqdm

    from ..nets import TileFinder

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = TileFinder()
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(1, steps),
                                                pct_start=0.1)
    net.train()
    t0 = time.time()
    bar = tqdm(range(steps), desc=desc, unit="step", mininterval=2)
    hist = []
    for step in bar:
        xs, ts = [], []
        for _ in range(batch):
            img, _, corners = scenes[int(rng.integers(len(scenes)))]
            x, t = _det_sample(img, corners, rng)
            xs.append(x)
            ts.append(t)
        x = torch.from_numpy(np.stack(xs))
        t = torch.from_numpy(np.stack(ts))
        loss, parts = _finder_loss(net(x), t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        hist.append(loss.item())
        if step % 10 == 0:
            bar.set_postfix(loss=f"{np.mean(hist[-20:]):.3f}", bce=f"{parts[0]:.3f}",
                            reg=f"{parts[2]:.3f}")
    net.eval()
    export_onnx(net, torch.zeros(1, 3, 352, 448), out, dynamic={"images": {2: "height", 3: "width"}})
    return {"steps": steps, "batch": batch, "crop": CROP, "train_seconds": round(time.time() - t0, 1),
            "final_loss": round(float(np.mean(hist[-20:])), 4) if hist else None}
