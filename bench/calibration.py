"""What calibration to the player's tile set gains, on editions the reader never trained on.

    python bench/calibration.py                  # 4 held-out editions, 12 tables each
    python bench/calibration.py --tables 30 --json
    python bench/calibration.py --grids 25        # finding the grid: 25 photos per edition
    python bench/calibration.py --pairs 4x6 --models DIR   # grid photo against grid photo

For each held-out edition of ``vision.editions`` a photo of the calibration grid is rendered
(seed ``--seed``), the reader is calibrated on it (``vision.calibration.calibrate``), and
``--tables`` random tables of that edition (other seeds, other layouts, light and cameras)
are read with the shipped reader and with the calibrated one. Each true tile is matched to
the read tile whose centre lies within half a tile of its own; over the true tiles it prints
the number error (read with a wrong number, or a joker confused with a number), the colour
error (a numbered tile read in a wrong colour) and the tiles missed (not read at all), and the
seconds (wall and CPU) each calibration took. Every figure printed comes from this run.

``--grids N`` measures instead how often the grid itself is found: N grid photos of each
held-out edition (seeds from 1000: other layouts, turns, light and tables than the tests'),
located as ``vision.calibration.find_grid`` locates them for calibration; it prints the photos
located, refused (with the reason), the tiles placed, and the tiles placed under a wrong name
(which calibration would learn wrongly).

``--pairs CxT`` measures what ``tests/vision/test_calibration.py`` measures on one pair of
photos (calibrated on grid seed 3, read on grid seed 11: at least 52 of 54 tiles named right),
on C calibration photos (seeds from 3) against T other grid photos (seeds from 11) of each
held-out edition: the grid tiles named wrong (best of both ways up, the finder's outline) by the
shipped last layer and by each calibration, summed over the pairs, with the lowest and highest
count of one pair, and the pairs under the test's bar (more than 2 of a photo's tiles wrong).
One pair's count moves by several tiles with the seeds alone, so compare readers on the sums.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def score(reading, labels) -> dict:
    """Counts over the true tiles of one photo: number and colour errors, misses."""
    out = {"tiles": len(labels), "number_wrong": 0, "colour_wrong": 0, "missed": 0}
    if not reading.tiles:
        out["missed"] = len(labels)
        return out
    centres = np.array([t.centre for t in reading.tiles])
    for tile, corners in labels:
        c = corners.mean(0)
        half = 0.5 * float(np.hypot(*(corners[1] - corners[0])))
        d = np.hypot(*(centres - c).T)
        i = int(d.argmin())
        if d[i] > half:
            out["missed"] += 1
            continue
        got = reading.tiles[i].tile
        if (got == "J") != (tile == "J") or (tile != "J" and got[1:] != tile[1:]):
            out["number_wrong"] += 1
        if tile != "J" and got != "J" and got[0] != tile[0]:
            out["colour_wrong"] += 1
    return out


def add(a: dict, b: dict) -> dict:
    return {k: a.get(k, 0) + b[k] for k in b}


def rates(c: dict) -> dict:
    n = max(1, c["tiles"])
    return {"tiles": c["tiles"], "number_error": round(c["number_wrong"] / n, 4),
            "colour_error": round(c["colour_wrong"] / n, 4), "missed": round(c["missed"] / n, 4)}


def run(tables: int, seed: int, threads: int, models=None) -> dict:
    from vision.calibration import calibrate, calibrated
    from vision.editions import HELD_OUT, HELD_OUT_NAMES, grid_photo, table_photo
    from vision.reader import Reader

    reader = Reader(models, threads=threads)
    result = {"tables_per_edition": tables, "seed": seed, "editions": {}}
    total_plain: dict = {}
    total_cal: dict = {}
    for k, (name, edition) in enumerate(zip(HELD_OUT_NAMES, HELD_OUT)):
        grid, _ = grid_photo(edition, seed=seed + k)
        w0, c0 = time.perf_counter(), time.process_time()
        learned = calibrate(reader, grid)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        cal_reader = calibrated(reader, learned.calibration)
        plain: dict = {}
        cal: dict = {}
        for t in range(tables):
            image, labels = table_photo(edition, seed=1000 * (seed + k + 1) + t)
            plain = add(plain, score(reader.read(image), labels))
            cal = add(cal, score(cal_reader.read(image), labels))
        total_plain, total_cal = add(total_plain, plain), add(total_cal, cal)
        result["editions"][name] = {
            "calibration": {"tiles_found": len(learned.found), "wall_s": round(wall, 2),
                            "cpu_s": round(cpu, 2)},
            "shipped": rates(plain), "calibrated": rates(cal)}
    result["all"] = {"shipped": rates(total_plain), "calibrated": rates(total_cal)}
    return result


def grids(n: int, threads: int, models=None) -> dict:
    from collections import Counter

    from vision.calibration import GridError, find_grid
    from vision.editions import HELD_OUT, HELD_OUT_NAMES, grid_photo
    from vision.reader import Reader

    reader = Reader(models, threads=threads)
    out = {"photos": 0, "located": 0, "tiles_placed": 0, "misplaced_tiles": 0,
           "photos_with_a_misplaced_tile": 0, "refused": Counter()}
    for name, edition in zip(HELD_OUT_NAMES, HELD_OUT):
        for seed in range(1000, 1000 + n):
            image, labels = grid_photo(edition, seed=seed)
            out["photos"] += 1
            try:
                grid = find_grid(reader, image)
            except GridError as exc:
                out["refused"][str(exc).split(":")[0]] += 1
                continue
            centres = np.array([c.mean(0) for _, c in labels])
            wrong = sum(g.tile != labels[int(np.hypot(*(centres - g.corners.mean(0)).T).argmin())][0]
                        for g in grid)
            out["located"] += 1
            out["tiles_placed"] += len(grid)
            out["misplaced_tiles"] += wrong
            out["photos_with_a_misplaced_tile"] += wrong > 0
    out["refused"] = dict(out["refused"])
    return out


def pairs(n_cal: int, n_test: int, threads: int, models=None) -> dict:
    from vision.calibration import GridError, calibrate, embed, find_grid
    from vision.editions import HELD_OUT, HELD_OUT_NAMES, grid_photo
    from vision.geometry import N_TILES, CropSource
    from vision.labels import TILES
    from vision.reader import Reader

    reader = Reader(models, threads=threads)
    out = {}
    for name, edition in zip(HELD_OUT_NAMES, HELD_OUT):
        tests = []
        for seed in range(11, 11 + n_test):
            image, labels = grid_photo(edition, seed=seed)
            try:
                grid = find_grid(reader, image)
            except GridError:
                continue
            centres = np.array([c.mean(0) for _, c in labels])
            truth = np.array([TILES.index(labels[int(np.hypot(*(centres - g.corners.mean(0)).T)
                                                      .argmin())][0]) for g in grid])
            src = CropSource(image)
            tests.append((truth, *embed(reader, np.stack([src.crop(g.corners) for g in grid]))))

        def wrong(z, truth):
            return int((np.maximum(z[:, :N_TILES], z[:, N_TILES:2 * N_TILES]).argmax(1)
                        != truth).sum())

        row = {"test_photos": len(tests), "tiles": 0, "wrong_shipped": 0, "wrong_calibrated": 0,
               "pair_min": None, "pair_max": None, "pairs_over_2": 0, "pairs": 0}
        for seed in range(3, 3 + n_cal):
            learned = calibrate(reader, grid_photo(edition, seed=seed)[0])
            for truth, logits, emb in tests:
                w = wrong(learned.calibration.logits(emb), truth)
                row["tiles"] += len(truth)
                row["wrong_shipped"] += wrong(logits, truth)
                row["wrong_calibrated"] += w
                row["pairs"] += 1
                row["pairs_over_2"] += w > 2
                row["pair_min"] = w if row["pair_min"] is None else min(row["pair_min"], w)
                row["pair_max"] = w if row["pair_max"] is None else max(row["pair_max"], w)
        out[name] = row
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=12, help="test tables per edition (default 12)")
    p.add_argument("--seed", type=int, default=1, help="grid and table seeds start here")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--grids", type=int, default=0,
                   help="measure finding the grid instead: this many photos per edition")
    p.add_argument("--pairs", default="",
                   help="CxT: C calibration photos against T grid photos per edition")
    p.add_argument("--models", default=None, help="the models folder (default: as the reader finds them)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.pairs:
        n_cal, n_test = (int(x) for x in args.pairs.lower().split("x"))
        res = pairs(n_cal, n_test, args.threads, args.models)
        if args.json:
            print(json.dumps(res))
            return 0
        print(f"grid tiles named wrong, {n_cal} calibration photos (seeds from 3) x {n_test} "
              "grid photos (seeds from 11) per held-out edition")
        print("| edition | pairs | tiles | wrong shipped | calibrated | one pair: fewest | most "
              "| pairs with more than 2 wrong |")
        print("|---|---|---|---|---|---|---|---|")
        for name, r in res.items():
            print(f"| {name} | {r['pairs']} | {r['tiles']} | {r['wrong_shipped']} | "
                  f"{r['wrong_calibrated']} | {r['pair_min']} | {r['pair_max']} | "
                  f"{r['pairs_over_2']} |")
        return 0
    if args.grids:
        res = grids(args.grids, args.threads, args.models)
        if args.json:
            print(json.dumps(res))
            return 0
        print(f"grid photos of the 4 held-out editions, {args.grids} each (seeds from 1000)")
        print(f"located {res['located']} of {res['photos']}; tiles placed "
              f"{res['tiles_placed']} (of {54 * res['located']}); placed under a wrong name "
              f"{res['misplaced_tiles']} (in {res['photos_with_a_misplaced_tile']} photos)")
        for reason, k in sorted(res["refused"].items(), key=lambda kv: -kv[1]):
            print(f"refused {k}: {reason}")
        return 0
    res = run(args.tables, args.seed, args.threads, args.models)
    if args.json:
        print(json.dumps(res))
        return 0
    print(f"held-out editions, {args.tables} tables each (seed {args.seed}); error over true tiles")
    print("| edition | tiles | number error shipped | calibrated | colour error shipped | "
          "calibrated | missed shipped | calibrated | calibration wall s | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    rows = list(res["editions"].items()) + [("all", res["all"])]
    for name, r in rows:
        s, c = r["shipped"], r["calibrated"]
        cal = r.get("calibration", {})
        print(f"| {name} | {s['tiles']} | {s['number_error']:.3f} | {c['number_error']:.3f} | "
              f"{s['colour_error']:.3f} | {c['colour_error']:.3f} | {s['missed']:.3f} | "
              f"{c['missed']:.3f} | {cal.get('wall_s', '')} | {cal.get('cpu_s', '')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
