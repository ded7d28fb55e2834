"""Training the reader's two models from scratch: ``rummiref train`` (or ``python -m vision.train``).

1. ``tile-finder``: a small fully convolutional network (:class:`vision.nets.TileFinder`)
   that marks every tile's centre, size and long-axis direction, at any angle. Trained on
   random rotated, scaled crops of the real training photos in
   ``../shared/data/photos/train`` and of synthetic photos from :mod:`vision.synth`.
2. ``tile-reader``: a small CNN (:class:`vision.nets.TileReader`) that reads a straightened
   tile crop: 53 tiles x 2 orientations (upright / upside down) + "not a tile". Data: crops
   cut from the real training photos along their label outlines (with the reviewed label
   fixes in ``vision/label_fixes.csv``; which way up each real tile lies is taken from
   where its numeral sits, see :func:`ink_says_upside_down`), jittered like detections,
   in both orientations, plus synthetic tiles of other editions and "not a tile" crops, plus
   the crops the trained finder itself cuts from the training images (labelled from the
   matching true tile; its finds on no tile are "not a tile"), so the reader learns the
   crops it will really be given.

The shared ``valid/`` photos are never used for training or model selection; measure on
them afterwards with ``rummiref evaluate ../shared/data/photos/valid``. Needs the ``train``
extra (torch, onnx, tqdm). No weights are downloaded; everything starts from random.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from .geometry import (CROP_H, CROP_W, DET_SIZE, KERNEL_SHRINK, TRAIN_BASE_SIZE, N_TILES, NOT_A_TILE,
                       STRIDE, CropSource, flip_corners, normalise, rect_corners,
                       rect_from_points, upright_corners)
from .labels import TILES, iter_labelled
from .train_args import add_arguments

CROP = 256  # detector training crop (pixels, at detector scale)
#: Tile sizes the finder trains on, relative to a photo scaled to TRAIN_BASE_SIZE. A finder
#: trained on (0.7, 2.6), closer to the 576 and 704 pixels it runs at, found more tiles in
#: synthetic close-ups but read the real training photos worse (F1 0.983 against 0.991 with
#: the same reader recipe), so the shipped finder keeps this range.
FINDER_SCALES = (0.55, 1.8)


def _log(msg: str) -> None:
    print(f"[train {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ------------------------------------------------------------------ data

def ink_says_upside_down(crop: np.ndarray) -> bool:
    """For a classic tile crop (long side vertical): is the numeral in the lower half?

    The numeral (dark or saturated ink) sits above the middle of an upright tile; the logo
    below is faint. Used to tell which way up the real training tiles lie (their outlines
    do not say)."""
    import cv2

    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).astype(np.float32)
    s, v = hsv[:, :, 1], hsv[:, :, 2]
    h, w = s.shape
    inner = (slice(int(h * 0.08), int(h * 0.92)), slice(int(w * 0.1), int(w * 0.9)))
    ink = ((s > 90) | (v < np.median(v[inner]) * 0.55)).astype(np.float32)
    ink[:int(h * 0.08)] = 0
    ink[int(h * 0.92):] = 0
    total = ink.sum()
    if total < 5:
        return False
    cy = (ink.sum(1) * np.arange(h)).sum() / total
    return cy > h / 2


def _jitter(corners: np.ndarray, rng: np.random.Generator, amount: float = 1.0) -> np.ndarray:
    """Corners moved like a detector's error: shift, scale, rotate (keeps the reading order).

    Most turns are small; one crop in four (at full ``amount``) is turned by up to 30 degrees,
    as the finder's direction can be that far off for a tilted, thick tile seen from the side
    (the reader also looks at each tile turned by 15 and 30 degrees, see ``vision.reader``)."""
    c = corners.mean(0)
    width = float(np.hypot(*(corners[1] - corners[0])))
    if rng.random() < 0.25 * amount:
        a = math.radians(rng.uniform(-30.0, 30.0))
    else:
        a = math.radians(rng.normal(0, 3.0 * amount))
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    sc = np.array([rng.uniform(1 - 0.07 * amount, 1 + 0.1 * amount)], np.float32)
    shift = rng.normal(0, 0.04 * amount * width, 2).astype(np.float32)
    return ((corners - c) * sc) @ rot.T + c + shift


def _real_items(photos: Path, max_photos: int | None):
    items = list(iter_labelled(photos / "train")) if (photos / "train").is_dir() else []
    if max_photos is not None:
        items = items[:max_photos]
    return items


def _load_real(items, max_side: int = 1280):
    import cv2

    out = []
    for it in items:
        img = cv2.imread(str(it.path))
        if img is None:
            continue
        s = min(1.0, max_side / max(img.shape[:2]))
        if s < 1:
            img = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        corners = [c * s for c in it.corners()]
        out.append((img, it.tiles, corners))
    return out


def _real_orientations(real):
    """Upright corners for every real tile (down = image-down nearest, then the ink check)."""
    fixed = []
    flipped = 0
    for img, tiles, corners in real:
        src = CropSource(img)
        ups = []
        for c in corners:
            u = upright_corners(c)
            if ink_says_upside_down(src.crop(u)):
                u = flip_corners(u)
                flipped += 1
            ups.append(u)
        fixed.append((img, tiles, ups))
    return fixed, flipped


def _synth_scenes(n: int, seed: int, desc: str):
    from tqdm import tqdm

    from .synth import random_scene

    out = []
    for k in tqdm(range(n), desc=desc, unit="img", mininterval=2):
        img, labels = random_scene(seed=seed + k)
        out.append((img, [t for t, _ in labels], [c for _, c in labels]))
    return out


# ------------------------------------------------------------------ detector

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
    x = _photometric(x, rng)
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


def _photometric(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    import cv2

    f = x.astype(np.float32)
    f = f * rng.uniform(0.8, 1.2, 3).astype(np.float32) * rng.uniform(0.65, 1.3)
    f = (f - f.mean()) * rng.uniform(0.75, 1.25) + f.mean()
    if rng.random() < 0.15:
        g = f.mean(2, keepdims=True)
        f = f * 0.4 + g * 0.6
    if rng.random() < 0.25:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.5, 1.5))
    if rng.random() < 0.5:
        f += rng.normal(0, rng.uniform(2, 8), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


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

    from .nets import TileFinder

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
    _export(net, torch.zeros(1, 3, 352, 448), out, dynamic={"images": {2: "height", 3: "width"}})
    return {"steps": steps, "batch": batch, "crop": CROP, "train_seconds": round(time.time() - t0, 1),
            "final_loss": round(float(np.mean(hist[-20:])), 4) if hist else None}


# ------------------------------------------------------------------ classifier

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
                    cj = _jitter(c, rng, 1.0 if j else 0.3)
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

    from .evaluate import match
    from .geometry import decode_detections, detector_input

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
                 lr: float = 3e-3, desc: str = "tile-reader") -> dict:
    import torch
    import torch.nn.functional as F
    from tqdm import tqdm

    from .nets import TileReader

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = TileReader()
    n = len(labels)
    steps = max(1, epochs * (n // batch))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    t0 = time.time()
    net.train()
    bar = tqdm(range(steps), desc=desc, unit="step", mininterval=2)
    hist = []
    order = rng.permutation(n)
    pos = 0
    for step in bar:
        if pos + batch > n:
            order, pos = rng.permutation(n), 0
        idx = order[pos:pos + batch]
        pos += batch
        imgs = np.stack([_photometric(crops[i], rng) for i in idx])
        x = torch.from_numpy(np.stack([normalise(im) for im in imgs]))
        y = torch.from_numpy(labels[idx])
        loss = F.cross_entropy(net(x), y, label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        hist.append(loss.item())
        if step % 20 == 0:
            bar.set_postfix(loss=f"{np.mean(hist[-50:]):.3f}")
    net.eval()
    _export(net, torch.zeros(1, 3, CROP_H, CROP_W), out, dynamic={"crops": {0: "n"}},
            input_name="crops")
    from .calibration_model import add_embedding_output

    add_embedding_output(out)  # what calibration refits the last layer on
    return {"epochs": epochs, "crops": int(n), "batch": batch,
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


def _export(net, example, out: Path, dynamic: dict, input_name: str = "images") -> None:
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp.onnx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(net, example, str(tmp), input_names=[input_name],
                          output_names=["out"], dynamic_axes=dynamic, opset_version=17,
                          dynamo=False)
    import onnx

    model = onnx.load(str(tmp))
    onnx.save(model, str(out))  # one self-contained file (no external data)
    tmp.unlink()
    for extra in out.parent.glob(out.name + ".data"):
        extra.unlink()


# ------------------------------------------------------------------ command

def train(args: argparse.Namespace) -> int:
    try:
        import torch
    except ImportError:
        print("rummiref train needs the training extra: pip install -c constraints.txt "
              "-e '.[train]'", file=sys.stderr)
        return 2
    torch.set_num_threads(args.threads)
    photos = Path(args.photos)
    out = Path(args.out)
    t_all = time.time()
    real_items = _real_items(photos, args.max_photos)
    if not real_items and not args.synthetic:
        print(f"no training photos in {photos / 'train'} and --synthetic 0: nothing to "
              f"train on", file=sys.stderr)
        return 2
    _log(f"{len(real_items)} real training photos from {photos / 'train'}; "
         f"{args.synthetic} synthetic photos; output in {out}")
    real = _load_real(real_items)
    real_up, flipped = _real_orientations(real)
    _log(f"real tiles: {sum(len(t) for _, t, _ in real)} ({flipped} read upside down by the "
         f"ink check)")
    synth = _synth_scenes(args.synthetic, args.seed * 1_000_003, "synthetic photos")
    scenes = real_up + synth
    meta_common = {"seed": args.seed, "real_photos": len(real_items),
                   "synthetic_photos": args.synthetic, "command": args.command_line}
    finder_path = out / "tile-finder.onnx"
    reader_path = out / "tile-reader.onnx"
    if not args.skip_finder:
        _log("training the tile finder")
        fm = train_finder(scenes, steps=args.finder_steps, batch=args.batch, seed=args.seed,
                          out=finder_path)
        (out / "tile-finder.json").write_text(json.dumps(
            {"kind": "tile-finder", "train_base_size": TRAIN_BASE_SIZE, "det_size": DET_SIZE,
             "stride": STRIDE,
             "kernel_shrink": KERNEL_SHRINK, **fm, **meta_common}, indent=2) + "\n")
        _log(f"tile finder: {fm}")
    if not args.skip_reader:
        rng = np.random.default_rng(args.seed + 1)
        n_hold = max(1, len(synth) // 10) if synth else 0
        crops, labels = build_crops(real_up, synth[n_hold:], rng, args.jitters, 2, 6)
        if finder_path.exists():
            fx, fy = finder_crops(finder_path, real_up + synth[n_hold:], rng)
            _log(f"{len(fy)} crops where the finder finds tiles ({fy.count(NOT_A_TILE)} "
                 f"not on a tile)")
            if fy:
                crops = np.concatenate([crops, np.stack(fx)])
                labels = np.concatenate([labels, np.array(fy, np.int64)])
        # held out: synthetic scenes the reader never sees (other editions), for a check
        hcrops, hlabels = build_crops([], synth[:n_hold], np.random.default_rng(7), 0, 1, 2) \
            if n_hold else (None, None)
        _log(f"training the tile reader on {len(labels)} crops")
        rm = train_reader(crops, labels, epochs=args.reader_epochs, batch=128, seed=args.seed,
                          out=reader_path)
        if hcrops is not None and len(hlabels):
            rm["heldout_synthetic_crop_accuracy"] = round(reader_accuracy(reader_path, hcrops,
                                                                          hlabels), 4)
        (out / "tile-reader.json").write_text(json.dumps(
            {"kind": "tile-reader", "crop": [CROP_W, CROP_H], "classes": list(TILES),
             "outputs": "53 upright, 53 upside down, not-a-tile", **rm, **meta_common},
            indent=2) + "\n")
        _log(f"tile reader: {rm}")
    _log(f"done in {time.time() - t_all:.0f} s; models in {out}")
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__.split("\n")[0])
    add_arguments(p)
    args = p.parse_args(argv)
    args.command_line = "python -m vision.train " + " ".join(argv if argv is not None else sys.argv[1:])
    return train(args)


if __name__ == "__main__":
    sys.exit(main())
