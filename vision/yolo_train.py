"""A YOLO-OBB tile finder, trained from scratch with ultralytics (``python -m vision.yolo_train``).

    python -m vision.obb_export /tmp/yolo/data                  # the data (see vision.obb_export)
    python -m vision.yolo_train /tmp/yolo/data/data.yaml --hours 0.7 --out /tmp/yolo/model

Builds ``yolo11n-obb`` from its model YAML (no weights are downloaded: none can be here), trains
it as a one-class "tile" finder (``single_cls``: which tile it is stays the tile reader's job),
and exports the last weights (not the epoch best on the validation split: no choice is made on
any photo) to ``tile-finder-yolo.onnx`` with a JSON card beside it. Use it with
:class:`vision.yolo_finder.YoloFinder`. Needs the ``yolo`` extra (ultralytics); every
ultralytics setting stays under ``--home`` (see :mod:`vision.yolo_setup`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

#: Training and inference size (longer image side, pixels; a multiple of 32).
IMGSZ = 640
MODEL_YAML = "yolo11n-obb.yaml"
ONNX_NAME = "tile-finder-yolo.onnx"


def train(data_yaml: str | Path, out: str | Path, *, hours: float | None = 0.7,
          epochs: int = 100, imgsz: int = IMGSZ, batch: int = 16, workers: int = 2,
          threads: int = 2, seed: int = 1, home: str | Path = "/tmp/yolo/home",
          fraction: float = 1.0, command: str = "") -> dict:
    """Train, export to ONNX in ``out``; returns what the card records. ``hours`` bounds the
    wall time (ultralytics then fits the epochs and the learning-rate schedule to it)."""
    from .yolo_setup import prepare

    home = prepare(home, threads)
    from ultralytics import YOLO

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    model = YOLO(MODEL_YAML, task="obb")
    kwargs = dict(data=str(Path(data_yaml).resolve()), imgsz=imgsz, epochs=epochs, batch=batch,
                  workers=workers, device="cpu", single_cls=True, pretrained=False, amp=False,
                  plots=False, seed=seed, deterministic=False, project=str(home / "runs"),
                  name="tile-finder", exist_ok=True, fraction=fraction,
                  # tiles lie at any angle; a mirrored tile is still a tile
                  degrees=30.0, fliplr=0.5, flipud=0.5, patience=1000)
    if hours:
        kwargs["time"] = hours
    model.train(**kwargs)
    card = {"batch": batch, "threads": threads, "seed": seed, "data": str(data_yaml)}
    return export(Path(model.trainer.save_dir) / "weights" / "last.pt", out, imgsz=imgsz,
                  train_seconds=time.time() - t0, command=command, **card)


def export(weights: str | Path, out: str | Path, *, imgsz: int = IMGSZ,
           home: str | Path | None = None, **card) -> dict:
    """``weights`` (an ultralytics ``.pt``) to ``out/tile-finder-yolo.onnx`` and its JSON card
    (the run's last validation figures, from ``results.csv`` beside the weights)."""
    if home is not None:
        from .yolo_setup import prepare

        prepare(home)
    from ultralytics import YOLO

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    weights = Path(weights)
    metrics = _last_metrics(weights.parent.parent / "results.csv")
    onnx = YOLO(str(weights), task="obb").export(format="onnx", imgsz=imgsz, dynamic=False,
                                                  simplify=False, opset=17, device="cpu")
    shutil.copyfile(onnx, out / ONNX_NAME)
    if "train_seconds" in card:
        card["train_seconds"] = round(card["train_seconds"], 1)
    card = {"kind": "tile-finder-yolo", "model": MODEL_YAML, "imgsz": imgsz,
            "classes": ["tile"], "weights": f"{weights.name} (no selection on any photo)",
            "epochs_run": metrics.get("epoch"), "last_val_metrics": metrics, **card}
    (out / (ONNX_NAME.replace(".onnx", ".json"))).write_text(json.dumps(card, indent=2) + "\n")
    return card


def _last_metrics(csv_path: Path) -> dict:
    import csv

    if not csv_path.exists():
        return {}
    rows = list(csv.DictReader(csv_path.open()))
    if not rows:
        return {}
    return {k.strip(): float(v) for k, v in rows[-1].items() if v.strip()}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.yolo_train",
                                description=__doc__.split("\n")[0])
    p.add_argument("data", nargs="?", help="data.yaml written by python -m vision.obb_export")
    p.add_argument("--export", metavar="WEIGHTS", default=None,
                   help="only export these ultralytics weights (.pt) to ONNX")
    p.add_argument("--out", default="/tmp/yolo/model", help="where the ONNX model goes")
    p.add_argument("--hours", type=float, default=0.7, help="wall-time budget (0: use --epochs)")
    p.add_argument("--epochs", type=int, default=100)
    p.add_argument("--imgsz", type=int, default=IMGSZ)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--fraction", type=float, default=1.0, help="use this part of train/")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--home", default="/tmp/yolo/home", help="ultralytics settings and runs")
    args = p.parse_args(argv)
    command = "python -m vision.yolo_train " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.export:
        print(json.dumps(export(args.export, args.out, imgsz=args.imgsz, home=args.home,
                                command=command), indent=2))
        return 0
    if not args.data:
        p.error("give the data.yaml to train on, or --export WEIGHTS")
    card = train(args.data, args.out, hours=args.hours or None, epochs=args.epochs,
                 imgsz=args.imgsz, batch=args.batch, workers=args.workers, threads=args.threads,
                 seed=args.seed, home=args.home, fraction=args.fraction, command=command)
    print(json.dumps(card, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
