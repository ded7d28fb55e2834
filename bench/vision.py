"""Figures for the tile reader: speed, peak memory, accuracy.

    python bench/vision.py                      # latency on a 1000x750 photo of 50 tiles
    python bench/vision.py --valid              # + rummiref evaluate on the shared valid photos
                                                # (true melds: bench/valid_melds, made by hand)
    python bench/vision.py --editions 40        # + 40 synthetic photos of other editions
    python bench/vision.py --yolo M.onnx        # with a YOLO-OBB finder (vision.yolo_finder)
    python bench/vision.py --runs 1 --train --editions 150 --seed 9 --second-looks 15,30
                                                # the reader's second looks chosen on the
                                                # training photos (and other editions)

Both finders side by side, with synthetic racks: ``bench/finders.py``.

Latency: ``Reader.read`` on an image already in memory (decoding and model load excluded),
median and 90th percentile over ``--runs`` runs after 3 warm-up runs, with ``--threads``
ONNX Runtime threads, and the CPU time the process used per read (all threads together: a
figure other programs on a busy machine do not inflate). Phone photo: the same, for the bytes
of a 12-megapixel JPEG (4032x3024, as a phone sends a rack photo), decoding included. Peak memory: the process's peak resident set size (models loaded,
all runs done). Every figure printed comes from this run.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: 50 tiles in 12 melds: the latency benchmark's table.
BENCH_TABLE = ("R1 R2 R3 R4 R5 | K7 B7 O7 R7 | B9 B10 B11 B12 B13 | O3 O4 J O6 | "
               "K10 K11 K12 K13 | B1 O1 K1 | R9 R10 R11 R12 | O8 O9 O10 O11 O12 | "
               "K2 K3 K4 K5 K6 | B4 R4 O4 | B5 B6 B7 B8 | R12 K12 B12 J")


#: Our true melds of the shared valid photos (see bench/valid_melds/README.md).
VALID_MELDS = Path(__file__).resolve().parent / "valid_melds"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def latency(reader, runs: int, seed: int) -> dict:
    from referee import parse_table
    from vision.synth import render_table

    table = parse_table(BENCH_TABLE)
    img, labels = render_table(table, seed=seed, size=(1000, 750), classic=True,
                               upside_down=0.0, angle=0.0, tilt=0.05)
    for _ in range(3):
        reading = reader.read(img)
    times, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        reading = reader.read(img)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return {"image": "1000x750 synthetic, classic tiles", "tiles_on_image": len(labels),
            "tiles_read": len(reading.tiles),
            "table_read_right": sorted(map(str, reading.table)) == sorted(map(str, table)),
            "median_ms": round(float(np.median(times)), 1),
            "p90_ms": round(float(np.percentile(times, 90)), 1), "runs": runs,
            "median_cpu_ms": round(float(np.median(cpu)), 1),
            "stages_ms_last_run": reading.timings}


def phone_photo(reader, runs: int, seed: int) -> dict:
    """``latency`` for the bytes of a 12-megapixel JPEG (the latency table, enlarged):
    decoding (reduced) included."""
    import cv2

    from referee import parse_table
    from vision.synth import render_table

    table = parse_table(BENCH_TABLE)
    img, labels = render_table(table, seed=seed, size=(1000, 750), classic=True,
                               upside_down=0.0, angle=0.0, tilt=0.05)
    img = cv2.resize(img, (4032, 3024), interpolation=cv2.INTER_CUBIC)  # tiles as in latency
    # A camera's grain, so the file is the size of a phone's.
    img = cv2.add(img, np.random.default_rng(seed).integers(0, 8, img.shape, dtype=np.uint8))
    ok, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    data = jpg.tobytes()
    for _ in range(3):
        reading = reader.read(data)
    times, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        reading = reader.read(data)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return {"image": f"4032x3024 JPEG, {len(data) / 1e6:.1f} MB", "tiles_on_image": len(labels),
            "tiles_read": len(reading.tiles),
            "table_read_right": sorted(map(str, reading.table)) == sorted(map(str, table)),
            "median_ms": round(float(np.median(times)), 1),
            "p90_ms": round(float(np.percentile(times, 90)), 1), "runs": runs,
            "median_cpu_ms": round(float(np.median(cpu)), 1),
            "stages_ms_last_run": reading.timings}


def synthetic_editions(n: int, seed: int, folder: Path) -> Path:
    """``n`` synthetic photos of non-classic editions, labelled in the shared format."""
    from vision.labels import write_labels
    from vision.synth import Edition, random_table, render_table

    rng = np.random.default_rng(seed)
    for k in range(n):
        r = np.random.default_rng(seed * 7919 + k)
        melds = random_table(r, max_melds=8)
        edition = Edition.random(r, classic=False)
        img, labels = render_table(melds, seed=int(rng.integers(1 << 30)), edition=edition,
                                   upside_down=0.2)
        write_labels(folder, f"edition-{k:03d}", img, list(labels), labels.melds)
    return folder


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--models", default=None)
    p.add_argument("--valid", action="store_true", help="evaluate the shared valid photos")
    p.add_argument("--valid-melds", default=str(VALID_MELDS), metavar="DIR",
                   help="true melds of the valid photos (default: bench/valid_melds, our "
                        "annotations; see its README)")
    p.add_argument("--train", action="store_true",
                   help="evaluate the shared training photos (the models saw them: a check "
                        "of fit, and where the reader's own steps are chosen)")
    p.add_argument("--second-looks", default=None, metavar="DEGREES",
                   help="turns of the second look, comma-separated (default: the reader's, "
                        "vision.reader.SECOND_LOOK_TURNS); '15,30' means -30,-15,15,30")
    p.add_argument("--editions", type=int, default=0,
                   help="evaluate this many synthetic photos of other tile editions")
    p.add_argument("--yolo", default=None, help="use this YOLO-OBB finder (ONNX) instead")
    p.add_argument("--json", action="store_true")
    p.add_argument("--without", choices=["six-nine"], default=None,
                   help="turn a step of the reader off, to measure what it brings "
                        "(six-nine: a doubted 6 or 9 following the way up of its meld)")
    args = p.parse_args(argv)
    if args.without == "six-nine":
        import vision.reader

        vision.reader._six_or_nine_by_neighbours = lambda tiles, melds: []

    from vision.evaluate import evaluate, format_result
    from vision.labels import shared_photos_dir
    from vision.reader import Reader

    rss0 = peak_rss_mb()
    t0 = time.perf_counter()
    finder = None
    if args.yolo:
        from vision.yolo_finder import YoloFinder

        finder = YoloFinder(args.yolo, threads=args.threads)
    kw = {}
    if args.second_looks:
        degrees = sorted({float(x) for x in args.second_looks.split(",") if x.strip()})
        kw["second_look_turns"] = tuple(sorted({-d for d in degrees} | set(degrees)))
    reader = Reader(args.models, threads=args.threads, finder=finder, **kw)
    load_ms = (time.perf_counter() - t0) * 1000
    out = {"threads": args.threads, "model_load_ms": round(load_ms, 1),
           "second_look_turns": list(reader.second_look_turns)}
    out["latency"] = latency(reader, args.runs, args.seed)
    out["phone_photo"] = phone_photo(reader, args.runs, args.seed)
    out["peak_rss_mb"] = round(peak_rss_mb(), 1)
    out["peak_rss_mb_before_models"] = round(rss0, 1)
    if args.valid:
        valid = shared_photos_dir() / "valid"
        if valid.is_dir():
            out["valid"] = evaluate(valid, reader, confusion_png=Path(tempfile.gettempdir()) /
                                    "rummiref-confusion-valid.png", melds_dir=args.valid_melds,
                                    progress=not args.json)
        else:
            out["valid"] = f"{valid} not found"
    if args.train:
        train = shared_photos_dir() / "train"
        out["train"] = (evaluate(train, reader, progress=not args.json) if train.is_dir()
                        else f"{train} not found")
    if args.editions:
        with tempfile.TemporaryDirectory() as tmp:
            folder = synthetic_editions(args.editions, args.seed, Path(tmp) / "editions")
            out["synthetic_editions"] = evaluate(folder, reader, progress=not args.json)
            out["synthetic_editions"]["folder"] = (f"{args.editions} synthetic photos of other "
                                                   f"editions (seed {args.seed})")
    out["peak_rss_mb"] = round(peak_rss_mb(), 1)
    if args.json:
        for v in out.values():
            if isinstance(v, dict):
                v.pop("per_image", None)
        print(json.dumps(out))
        return 0
    lat = out["latency"]
    print(f"model load: {out['model_load_ms']} ms ({args.threads} threads); second looks at "
          f"{out['second_look_turns']} degrees")
    print(f"latency, {lat['image']}, {lat['tiles_on_image']} tiles: median {lat['median_ms']} ms, "
          f"p90 {lat['p90_ms']} ms over {lat['runs']} runs (CPU time, all threads: median "
          f"{lat['median_cpu_ms']} ms); read {lat['tiles_read']} tiles, "
          f"table read right: {lat['table_read_right']}; stages {lat['stages_ms_last_run']}")
    ph = out["phone_photo"]
    print(f"phone photo, {ph['image']}, {ph['tiles_on_image']} tiles, from its bytes: median "
          f"{ph['median_ms']} ms, p90 {ph['p90_ms']} ms over {ph['runs']} runs (CPU median "
          f"{ph['median_cpu_ms']} ms); read {ph['tiles_read']} tiles, table read right: "
          f"{ph['table_read_right']}; stages {ph['stages_ms_last_run']}")
    print(f"peak RSS: {out['peak_rss_mb']} MB (before loading the models: "
          f"{out['peak_rss_mb_before_models']} MB)")
    for key in ("valid", "train", "synthetic_editions"):
        if key in out:
            print(f"--- {key} ---")
            print(format_result(out[key]) if isinstance(out[key], dict) else out[key])
            if key == "valid" and isinstance(out[key], dict):
                for img in out[key]["per_image"]:
                    for miss in img["meld_misses"]:
                        print(f"  meld missed, {img['image'].split('_jpeg')[0]}: {miss}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
