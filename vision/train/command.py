"""``rummiref train`` (``python -m vision.train``): both models trained in turn, their cards'
figures written beside them."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from ..geometry import (CROP_H, CROP_W, DET_SIZE, KERNEL_SHRINK, TRAIN_BASE_SIZE, NOT_A_TILE,
                        STRIDE)
from ..labels import TILES
from .args import SHIPPED_MODELS, add_arguments
from .classifier import build_crops, finder_crops, reader_accuracy, train_reader
from .data import load_real, real_items, real_orientations, synth_scenes
from .finder import train_finder


def log(msg: str) -> None:
    print(f"[train {time.strftime('%H:%M:%S')}] {msg}", flush=True)


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
    if args.max_photos != 0 and not (photos / "train").is_dir():
        print(f"no labelled photos in {photos / 'train'}: pass --photos DIR (the folder "
              f"holding train/), or --max-photos 0 to train on synthetic photos only",
              file=sys.stderr)
        return 2
    from ..synth.scenes import CLOSEUP_SHARE, RACK_SHARE

    tables = 1 - RACK_SHARE - CLOSEUP_SHARE  # the share the other kinds take the places of
    if not 0.0 <= args.pasted_share <= tables:
        print(f"--pasted-share {args.pasted_share}: must lie between 0 and "
              f"{tables:.1f} (the tables' share)", file=sys.stderr)
        return 2
    if not 0.0 <= args.rack_share <= tables - args.pasted_share:
        print(f"--rack-share {args.rack_share}: must lie between 0 and "
              f"{tables - args.pasted_share:.2f} (the tables' share left after "
              f"--pasted-share)", file=sys.stderr)
        return 2
    if not args.not_a_tile_weight > 0:
        print(f"--not-a-tile-weight {args.not_a_tile_weight}: must be above 0",
              file=sys.stderr)
        return 2
    if args.freeze_batchnorm and not args.init_from:
        print("--freeze-batchnorm keeps the statistics of the reader it starts from: it needs "
              "--init-from", file=sys.stderr)
        return 2
    if args.init_from:
        # checked before the data is made: a wrong file should not cost minutes of rendering
        from ..nets import TileReader
        from .init_from import load_onnx_reader

        try:
            load_onnx_reader(TileReader(), args.init_from)
        except (OSError, ValueError) as e:
            print(f"--init-from {args.init_from}: {e}", file=sys.stderr)
            return 2
    items = real_items(photos, args.max_photos)
    if not items and not args.synthetic:
        print(f"no training photos in {photos / 'train'} and --synthetic 0: nothing to "
              f"train on", file=sys.stderr)
        return 2
    log(f"{len(items)} real training photos from {photos / 'train'}; "
         f"{args.synthetic} synthetic photos; output in {out}")
    real = load_real(items)
    real_up, flipped = real_orientations(real)
    log(f"real tiles: {sum(len(t) for _, t, _ in real)} ({flipped} read upside down by the "
         f"ink check)")
    synth = synth_scenes(args.synthetic, args.seed * 1_000_003, "synthetic photos",
                         args.pasted_share, args.rack_share)
    scenes = real_up + synth
    meta_common = {"seed": args.seed, "real_photos": len(items),
                   "synthetic_photos": args.synthetic, "command": args.command_line}
    finder_path = out / "tile-finder.onnx"
    reader_path = out / "tile-reader.onnx"
    if not args.skip_finder:
        log("training the tile finder")
        fm = train_finder(scenes, steps=args.finder_steps, batch=args.batch, seed=args.seed,
                          out=finder_path)
        (out / "tile-finder.json").write_text(json.dumps(
            {"kind": "tile-finder", "train_base_size": TRAIN_BASE_SIZE, "det_size": DET_SIZE,
             "stride": STRIDE,
             "kernel_shrink": KERNEL_SHRINK, **fm, **meta_common}, indent=2) + "\n")
        log(f"tile finder: {fm}")
    if not args.skip_reader:
        rng = np.random.default_rng(args.seed + 1)
        n_hold = max(1, len(synth) // 10) if synth else 0
        crops, labels = build_crops(real_up, synth[n_hold:], rng, args.jitters, 2, 6)
        # the finder's own finds teach "not a tile": this run's finder, else the shipped one
        crop_finder = finder_path if finder_path.exists() else SHIPPED_MODELS / "tile-finder.onnx"
        if not crop_finder.exists():
            log(f"no tile finder in {out} or {SHIPPED_MODELS}: no crops from the finder")
        else:
            fx, fy = finder_crops(crop_finder, real_up + synth[n_hold:], rng)
            log(f"{len(fy)} crops where the finder finds tiles ({fy.count(NOT_A_TILE)} "
                 f"not on a tile)")
            if fy:
                crops = np.concatenate([crops, np.stack(fx)])
                labels = np.concatenate([labels, np.array(fy, np.int64)])
        # held out: synthetic scenes the reader never sees (other editions), for a check
        hcrops, hlabels = build_crops([], synth[:n_hold], np.random.default_rng(7), 0, 1, 2) \
            if n_hold else (None, None)
        log(f"training the tile reader on {len(labels)} crops")
        rm = train_reader(crops, labels, epochs=args.reader_epochs, batch=128, seed=args.seed,
                          out=reader_path, lr=args.reader_lr,
                          init=Path(args.init_from) if args.init_from else None,
                          not_a_tile_weight=args.not_a_tile_weight,
                          freeze_batchnorm=args.freeze_batchnorm)
        if hcrops is not None and len(hlabels):
            rm["heldout_synthetic_crop_accuracy"] = round(reader_accuracy(reader_path, hcrops,
                                                                          hlabels), 4)
        (out / "tile-reader.json").write_text(json.dumps(
            {"kind": "tile-reader", "crop": [CROP_W, CROP_H], "classes": list(TILES),
             "outputs": "53 upright, 53 upside down, not-a-tile", **rm, **meta_common},
            indent=2) + "\n")
        log(f"tile reader: {rm}")
    log(f"done in {time.time() - t_all:.0f} s; models in {out}")
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.train",
                                description="Train the tile reader's two models from scratch.")
    add_arguments(p)
    args = p.parse_args(argv)
    args.command_line = "python -m vision.train " + " ".join(argv if argv is not None else sys.argv[1:])
    return train(args)
