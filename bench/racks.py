"""Figures for reading racks and close-ups: accuracy on synthetic phone photos of every
named edition, and the time to read a 12-megapixel rack photo.

    python bench/racks.py                 # 8 racks, close-ups and pasted tables per edition, seed 1
    python bench/racks.py --per-kind 20 --seed 3 --models DIR
    python bench/racks.py --kinds pasted --per-kind 8 --runs 0   # close-ups pasted small

For each edition of ``vision.synth.editions()`` and each kind (``rack``: one or two rows
on a rack under a steep camera, ``closeup``: one to three tiles, one covering 5-20% of the
picture; ``pasted``: a table whose every tile is a close phone photo of that tile, its rim
and side showing, cut out whole and pasted at a table tile's size, as a test set of real
close-ups is made: ``vision.synth.pasted``), scenes are drawn with
``vision.synth.render_scene`` and read with ``Reader.read(image, rack=True)`` (a pasted
table: ``Reader.read(image)``). A labelled tile is *found* when a read tile's centre lies
within half a tile of it (``vision.evaluate.match``); *tile accuracy* is right tiles (number
and colour, or joker) over labelled tiles; *number accuracy* is right numbers (a joker is
its own number) over found tiles; a *rack exact* is one whose rows, in order, are exactly
the labelled rows (for a pasted table: its melds). The most frequent number confusions
(true -> read, over found tiles) are listed per kind. These are synthetic photos, not real
ones.

Speed: the bytes of a 4624x2604 JPEG of a two-row rack (the size of the phone photos the
rack feature gets), read with ``rack=True``, decoding included, model load excluded: median
and 90th percentile over ``--runs`` runs after 2 warm-ups, and the process's peak memory.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


#: Scene kinds measured by default.
KINDS = ("rack", "closeup", "pasted")


def _number(tile: str) -> str:
    return "J" if tile == "J" else tile[1:]


def accuracy(reader, per_kind: int, seed: int, kinds=KINDS) -> dict:
    from collections import Counter

    from vision.evaluate import match
    from vision.synth import editions, render_scene

    out: dict = {}
    confusions = {kind: Counter() for kind in kinds}
    for name in editions():
        for kind in kinds:
            n = found = right = number = exact = 0
            for k in range(per_kind):
                img, labels = render_scene(name, seed * 100_003 + k, kind)
                reading = reader.read(img, rack=kind != "pasted")
                m = match(np.array([t.centre for t in reading.tiles]).reshape(-1, 2),
                          [c for _, c in labels])
                n += len(labels)
                found += len(m)
                for g, (tile, _) in enumerate(labels):
                    if g in m:
                        got = reading.tiles[m[g]].tile
                        right += got == tile
                        number += _number(got) == _number(tile)
                        if _number(got) != _number(tile):
                            confusions[kind][f"{_number(tile)}->{_number(got)}"] += 1
                rows = [[reading.tiles[i].tile for i in r] for r in reading.melds]
                true_rows = labels.racks or labels.melds  # a close-up on the table: one row
                exact += rows == [[labels[i][0] for i in r] for r in true_rows]
            out[f"{name}/{kind}"] = {"scenes": per_kind, "tiles": n, "found": found,
                                     "tile_accuracy": round(right / max(n, 1), 4),
                                     "number_accuracy": round(number / max(found, 1), 4),
                                     "racks_exact": exact}
    for kind in kinds:
        rows = [v for k, v in out.items() if k.endswith("/" + kind)]
        n, found = sum(r["tiles"] for r in rows), sum(r["found"] for r in rows)
        right = sum(r["tile_accuracy"] * r["tiles"] for r in rows)
        number = sum(r["number_accuracy"] * r["found"] for r in rows)
        out[f"all/{kind}"] = {"scenes": sum(r["scenes"] for r in rows), "tiles": n,
                              "found": found, "tile_accuracy": round(right / max(n, 1), 4),
                              "number_accuracy": round(number / max(found, 1), 4),
                              "racks_exact": sum(r["racks_exact"] for r in rows),
                              "confusions": dict(confusions[kind].most_common())}
    return out


def rack_photo_latency(reader, runs: int, seed: int) -> dict:
    import cv2

    from vision.synth import edition, render_rack

    rows = [["R1", "R2", "R3", "J", "K13", "B7", "O4"],
            ["B5", "B6", "O9", "K9", "R10", "R11", "K3", "O12"]]
    img, _ = render_rack(rows, seed, size=(4624, 2604), edition=edition("modern-bold"),
                         perspective=0.3)
    ok, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    data = jpg.tobytes()
    for _ in range(2):
        reading = reader.read(data, rack=True)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        reading = reader.read(data, rack=True)
        times.append((time.perf_counter() - t0) * 1000)
    got = [[reading.tiles[i].tile for i in r] for r in reading.melds]
    return {"image": f"4624x2604 JPEG, {len(data) / 1e6:.1f} MB, 15 tiles in 2 rows",
            "rows_read_right": got == rows, "median_ms": round(float(np.median(times)), 1),
            "p90_ms": round(float(np.percentile(times, 90)), 1), "runs": runs}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--per-kind", type=int, default=8, help="scenes per edition and kind")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--runs", type=int, default=10,
                   help="timed reads of the rack photo (0: no timing)")
    p.add_argument("--kinds", default=",".join(KINDS),
                   help=f"scene kinds, comma-separated (default {','.join(KINDS)})")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--models", default=None)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)

    from vision.reader import Reader

    reader = Reader(args.models, threads=args.threads)
    kinds = tuple(k for k in args.kinds.split(",") if k)
    out = {"threads": args.threads, "seed": args.seed,
           "latency": rack_photo_latency(reader, args.runs, args.seed) if args.runs else None,
           "accuracy": accuracy(reader, args.per_kind, args.seed, kinds),
           "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}
    if args.json:
        print(json.dumps(out))
        return 0
    lat = out["latency"]
    if lat:
        print(f"rack photo, {lat['image']}: median {lat['median_ms']} ms, p90 {lat['p90_ms']} "
              f"ms over {lat['runs']} runs ({args.threads} threads); rows read right: "
              f"{lat['rows_read_right']}; peak RSS {out['peak_rss_mb']} MB")
    print("| edition / kind | scenes | tiles | found | tile accuracy | number accuracy | "
          "racks exact |")
    print("|---|---|---|---|---|---|---|")
    for key, r in out["accuracy"].items():
        print(f"| {key} | {r['scenes']} | {r['tiles']} | {r['found']} | {r['tile_accuracy']:.3f} "
              f"| {r['number_accuracy']:.3f} | {r['racks_exact']}/{r['scenes']} |")
    for key, r in out["accuracy"].items():
        if key.startswith("all/"):
            pairs = ", ".join(f"{p} x{c}" for p, c in list(r["confusions"].items())[:12])
            print(f"{key} number confusions (true->read): {pairs or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
