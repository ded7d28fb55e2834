"""Two tile finders side by side, each with the same tile reader: accuracy and speed.

    python bench/finders.py --yolo /tmp/yolo/model/tile-finder-yolo.onnx --editions 20 --racks 20

For each finder (``today``: models/tile-finder.onnx at its two sizes; ``yolo``: a YOLO-OBB
ONNX model from ``python -m vision.yolo_train``, run by :class:`vision.yolo_finder.YoloFinder`)
the whole reader (``vision.Reader``, same tile-reader model) is measured with
``vision.evaluate`` on the shared valid photos, on synthetic photos of other editions
(``bench/vision.py``'s set) and on synthetic racks (tiles standing on a rack, close up,
1600x900): tile precision, recall and F1 (number and colour right), and the finder's own
precision and recall (a find within half a tile of a labelled tile, whatever it reads).
Speed: the finder alone (``detect``) and the whole read, on the 1000x750 table of 50 tiles
of ``bench/vision.py`` and on a 12-megapixel rack photo (4032x3024), median over ``--runs``
runs after 3 warm-up runs, with ``--threads`` ONNX Runtime threads, decoding excluded.
Every figure printed comes from this run.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def synthetic_racks(n: int, seed: int, folder: Path, size=(1600, 900)) -> Path:
    """``n`` synthetic photos of 8 to 14 tiles standing on a rack, close up, half of them of
    other editions, labelled in the shared format."""
    from vision.labels import TILES, write_labels
    from vision.synth import Edition, render_table

    for k in range(n):
        r = np.random.default_rng(seed * 104_729 + k)
        tiles = [TILES[int(r.integers(len(TILES)))] for _ in range(int(r.integers(8, 15)))]
        width = size[0] / (len(tiles) * 0.9 + 0.6) * float(r.uniform(0.55, 0.9))
        edition = Edition.random(r, classic=bool(r.random() < 0.5))
        img, labels = render_table([], seed=int(r.integers(1 << 30)), size=size, rack=tiles,
                                   tile_width=width, edition=edition)
        write_labels(folder, f"rack-{k:03d}", img, list(labels))
    return folder


def _bench_table():
    """(the 50-tile table, ``synthetic_editions``) of ``bench/vision.py``, loaded by path: its
    module name is the package's."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_vision",
                                                  Path(__file__).parent / "vision.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.BENCH_TABLE, mod.synthetic_editions


def speed_images(seed: int) -> dict:
    """The photos timed: the 1000x750 table of 50 classic tiles and a 12-megapixel photo of
    14 tiles of another edition on a rack."""
    from referee import parse_table
    from vision.labels import TILES
    from vision.synth import Edition, render_table

    table_text, _ = _bench_table()
    table, _ = render_table(parse_table(table_text), seed=seed, size=(1000, 750), classic=True,
                            upside_down=0.0, angle=0.0, tilt=0.05)
    r = np.random.default_rng(seed)
    tiles = [TILES[int(r.integers(len(TILES)))] for _ in range(14)]
    rack, _ = render_table([], seed=seed, size=(4032, 3024), rack=tiles,
                           tile_width=4032 / (14 * 0.9 + 0.6) * 0.8,
                           edition=Edition.random(r, classic=False))
    return {"table 1000x750, 50 tiles": table, "rack 4032x3024, 14 tiles": rack}


def speed(readers: dict, images: dict, runs: int) -> dict:
    """Median ms of each finder (``detect_ms``) and of the whole read, per image, and the
    process's CPU time per read (all threads). The readers take turns run by run, so a
    machine busy with other work slows them alike."""
    out: dict = {name: {} for name in readers}
    for img_name, img in images.items():
        for reader in readers.values():
            for _ in range(3):
                reader.read(img)
        rec = {name: ([], [], []) for name in readers}
        for _ in range(runs):
            for name, reader in readers.items():
                t0, c0 = time.perf_counter(), time.process_time()
                reading = reader.read(img)
                rec[name][0].append((time.perf_counter() - t0) * 1000)
                rec[name][1].append((time.process_time() - c0) * 1000)
                rec[name][2].append(reading.timings.get("detect_ms", float("nan")))
                out[name][img_name] = {"tiles_read": len(reading.tiles)}
        for name, (total, cpu, det) in rec.items():
            out[name][img_name].update({"finder_ms": round(float(np.median(det)), 1),
                                        "read_ms": round(float(np.median(total)), 1),
                                        "read_cpu_ms": round(float(np.median(cpu)), 1)})
    return out


def _short(r: dict) -> dict:
    keys = ("images", "tiles_labelled", "tiles_read", "precision", "recall", "f1",
            "detection_precision", "detection_recall", "exact_images")
    return {k: r[k] for k in keys}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--yolo", default="models/tile-finder-yolo.onnx",
                   help="the YOLO-OBB finder (ONNX)")
    p.add_argument("--yolo-conf", type=float, default=0.35)
    p.add_argument("--models", default=None, help="folder of today's models")
    p.add_argument("--editions", type=int, default=20)
    p.add_argument("--racks", type=int, default=20)
    p.add_argument("--no-valid", action="store_true")
    p.add_argument("--runs", type=int, default=10, help="timed runs (0: no timing)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--only", choices=("today", "yolo"), default=None,
                   help="measure the accuracy of this finder only (speed: both)")
    args = p.parse_args(argv)

    from vision.evaluate import evaluate
    from vision.labels import shared_photos_dir
    from vision.reader import Reader
    from vision.yolo_finder import YoloFinder

    finders = {"today": lambda: None,
               "yolo": lambda: YoloFinder(args.yolo, threads=args.threads, conf=args.yolo_conf)}
    _, synthetic_editions = _bench_table()
    # speed compares both finders; accuracy alone needs only the one asked for
    readers = {name: Reader(args.models, threads=args.threads, finder=make())
               for name, make in finders.items()
               if args.runs or not args.only or name == args.only}
    results: dict = {name: {} for name in readers}
    with tempfile.TemporaryDirectory() as tmp:
        sets = {}
        if not args.no_valid:
            sets["shared valid photos"] = shared_photos_dir() / "valid"
        if args.editions:
            sets[f"{args.editions} synthetic editions (seed {args.seed})"] = synthetic_editions(
                args.editions, args.seed, Path(tmp) / "editions")
        if args.racks:
            sets[f"{args.racks} synthetic racks (seed {args.seed})"] = synthetic_racks(
                args.racks, args.seed, Path(tmp) / "racks")
        for name, reader in readers.items():
            if args.only and name != args.only:
                continue
            for s, folder in sets.items():
                results[name][s] = _short(evaluate(folder, reader, progress=False))
                print(json.dumps({name: {s: results[name][s]}}), flush=True)
    if sets:
        print("| set | finder | tile P | tile R | tile F1 | finding P / R | exact images |")
        print("|---|---|---|---|---|---|---|")
    for s in sets:
        for name, res in results.items():
            if s not in res:
                continue
            r = res[s]
            print(f"| {s} ({r['tiles_labelled']} tiles) | {name} | {r['precision']:.3f} | "
                  f"{r['recall']:.3f} | **{r['f1']:.3f}** | {r['detection_precision']:.3f} / "
                  f"{r['detection_recall']:.3f} | {r['exact_images']}/{r['images']} |")
    if args.runs:
        sp = speed(readers, speed_images(args.seed), args.runs)
        print(json.dumps({"speed": sp}), flush=True)
        print(f"\n| photo | finder | finder ms | whole read ms | read CPU ms | tiles read |  "
              f"(median of {args.runs}, {args.threads} threads)")
        print("|---|---|---|---|---|---|")
        for name, res in sp.items():
            for img, v in res.items():
                print(f"| {img} | {name} | {v['finder_ms']} | {v['read_ms']} | "
                      f"{v['read_cpu_ms']} | {v['tiles_read']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
