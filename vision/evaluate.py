"""Measuring the reader on a labelled folder (``rummiref evaluate DIR``).

A predicted tile is matched to a labelled one when its centre lies within half a tile of it
(each used once, nearest first). A tile counts as right when it is matched and its number
and colour (or joker) are right: precision = right / read, recall = right / labelled.
Detection figures (matched, whatever the reading) are reported too. An image is read
exactly when every labelled tile is right and nothing else was read.

Melds: with ``melds/<stem>.txt`` in the folder, or in a folder of true melds given apart
(``--melds DIR``; the shared photos' are ``bench/valid_melds``), holding the true melds (label
line numbers in laid order, one meld a line), a true meld counts as grouped right when the
reader's meld holds exactly its tiles in the same order (or the exact reverse when
``--any-order``). A tile lying on its own is a meld of one tile: right when the reader left it
alone. Melds of two or more tiles are also counted apart. Without those files the true melds
are derived from the labelled outlines with the reader's own geometric rule (a circular
measure: changing the rule changes the truth), compared as sets of tiles, and the output says
so. Each image's missed melds are listed (``per_image``: the true meld, and what was read of
its tiles).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from .labels import TILES, iter_labelled


def match(pred_centres: np.ndarray, gt_corners: list[np.ndarray]) -> dict[int, int]:
    """{gt index: pred index}, greedy nearest first within half a tile's short side."""
    pairs = []
    for g, c in enumerate(gt_corners):
        gc = c.mean(0)
        e = np.hypot(*(np.roll(c, -1, 0) - c).T)
        radius = 0.5 * float(min(e[0] + e[2], e[1] + e[3]) / 2)
        for p, pc in enumerate(pred_centres):
            d = float(np.hypot(*(pc - gc)))
            if d <= radius:
                pairs.append((d, g, p))
    pairs.sort()
    out: dict[int, int] = {}
    used: set[int] = set()
    for _, g, p in pairs:
        if g in out or p in used:
            continue
        out[g] = p
        used.add(p)
    return out


def _confusion_png(cm: np.ndarray, names: list[str], path: Path) -> None:
    import cv2

    n = len(names)
    cell, margin = 14, 40
    img = np.full((margin + n * cell + 10, margin + n * cell + 10, 3), 255, np.uint8)
    off = cm.copy().astype(np.float64)
    vmax = max(1.0, float(off.max()))
    for i in range(n):
        for j in range(n):
            v = cm[i, j]
            if v == 0:
                continue
            t = min(1.0, np.log1p(v) / np.log1p(vmax))
            colour = (int(255 * (1 - t)), int(255 * (1 - t)), 255) if i != j else \
                (int(255 * (1 - t)), int(200 - 80 * t), int(255 * (1 - t)))
            y0, x0 = margin + i * cell, margin + j * cell
            cv2.rectangle(img, (x0, y0), (x0 + cell - 1, y0 + cell - 1), colour, -1)
    for k, name in enumerate(names):
        cv2.putText(img, name, (2, margin + k * cell + 10), cv2.FONT_HERSHEY_PLAIN, 0.7,
                    (0, 0, 0), 1, cv2.LINE_AA)
        # column labels, written vertically
        label = np.full((cell, margin - 2, 3), 255, np.uint8)
        cv2.putText(label, name, (1, 10), cv2.FONT_HERSHEY_PLAIN, 0.7, (0, 0, 0), 1, cv2.LINE_AA)
        img[2:margin, margin + k * cell:margin + (k + 1) * cell] = cv2.rotate(
            label, cv2.ROTATE_90_COUNTERCLOCKWISE)
    for k in range(0, n + 1, 13):
        cv2.line(img, (margin, margin + k * cell), (margin + n * cell, margin + k * cell),
                 (120, 120, 120), 1)
        cv2.line(img, (margin + k * cell, margin), (margin + k * cell, margin + n * cell),
                 (120, 120, 120), 1)
    cv2.putText(img, "rows: labelled, columns: read ('-' = none)", (margin, img.shape[0] - 1),
                cv2.FONT_HERSHEY_PLAIN, 0.7, (0, 0, 0), 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), img):
        raise OSError(f"cannot write {path}")


def evaluate(folder, reader=None, *, confusion_png=None, any_order: bool = False,
             melds_dir=None, progress: bool = True) -> dict:
    """Read every labelled image of ``folder`` and return the figures (see module doc);
    the true melds from ``melds_dir`` when given (default: ``folder/melds``)."""
    from .geometry import upright_corners
    from .imageio import ImageError
    from .melds import group_melds
    from .reader import Reader

    folder = Path(folder)
    reader = reader or Reader()
    if melds_dir is not None and not Path(melds_dir).is_dir():
        raise FileNotFoundError(f"{melds_dir}: no such folder of true melds")
    items = list(iter_labelled(folder, melds_dir=melds_dir))
    if not items:
        raise FileNotFoundError(f"{folder}: no labelled images (expected images/ and labels/)")
    names = list(TILES) + ["-"]
    cm = np.zeros((len(names), len(names)), np.int64)
    n_gt = n_pred = n_right = n_matched = 0
    exact = 0
    meld_total = meld_right = 0
    multi_total = multi_right = 0
    meld_source = f"from {melds_dir}" if melds_dir is not None else "melds/ files"
    per_image = []
    times = []
    failures = []
    it = items
    if progress:
        try:
            from tqdm import tqdm
            it = tqdm(items, desc=f"evaluate {folder.name}", unit="img", mininterval=2)
        except ImportError:
            pass
    for item in it:
        t0 = time.perf_counter()
        try:
            reading = reader.read(item.path)
        except ImageError as exc:
            failures.append(str(exc))
            continue
        times.append((time.perf_counter() - t0) * 1000)
        pc = np.array([t.centre for t in reading.tiles]).reshape(-1, 2)
        gt_c = item.corners()
        m = match(pc, gt_c)
        right = 0
        for g, tile in enumerate(item.tiles):
            if g in m:
                got = reading.tiles[m[g]].tile
                cm[TILES.index(tile), TILES.index(got)] += 1
                right += got == tile
            else:
                cm[TILES.index(tile), -1] += 1
        matched_preds = set(m.values())
        for p, t in enumerate(reading.tiles):
            if p not in matched_preds:
                cm[-1, TILES.index(t.tile)] += 1
        n_gt += len(item.tiles)
        n_pred += len(reading.tiles)
        n_right += right
        n_matched += len(m)
        ok = right == len(item.tiles) and len(reading.tiles) == len(item.tiles)
        exact += ok
        # melds
        if item.melds is not None:
            gt_melds = item.melds
            ordered = True
        else:
            meld_source = "derived from the labelled outlines (compared as sets)"
            gt_melds = group_melds([upright_corners(c) for c in gt_c])
            ordered = False
        pred_melds = [tuple(mm) for mm in reading.melds]
        misses = []
        for gm in gt_melds:
            meld_total += 1
            multi_total += len(gm) > 1
            hit = False
            if all(g in m for g in gm):
                want = [m[g] for g in gm]
                for pm in pred_melds:
                    if ordered:
                        hit |= list(pm) == want or (any_order and list(pm) == want[::-1])
                    else:
                        hit |= set(pm) == set(want) and len(pm) == len(want)
            meld_right += hit
            multi_right += hit and len(gm) > 1
            if not hit:
                misses.append(_miss(gm, item.tiles, m, pred_melds, reading.tiles))
        per_image.append({"image": item.path.name, "tiles": len(item.tiles),
                          "read": len(reading.tiles), "right": right, "exact": bool(ok),
                          "table": str(reading.table), "meld_misses": misses})

    def pair_conf(a: str, b: str) -> int:
        return int(cm[TILES.index(a), TILES.index(b)] + cm[TILES.index(b), TILES.index(a)])

    six_nine = sum(pair_conf(f"{c}6", f"{c}9") for c in "KBOR")
    one_seven = sum(pair_conf(f"{c}1", f"{c}7") for c in "KBOR")
    orange_red = sum(pair_conf(f"O{n}", f"R{n}") for n in range(1, 14))
    colour_errors = sum(int(cm[i, j]) for i in range(52) for j in range(52)
                        if i != j and TILES[i][1:] == TILES[j][1:])
    number_errors = sum(int(cm[i, j]) for i in range(53) for j in range(53)
                        if i != j and TILES[i][1:] != TILES[j][1:])
    off = [(int(cm[i, j]), TILES[i], TILES[j]) for i in range(53) for j in range(53)
           if i != j and cm[i, j]]
    off.sort(reverse=True)
    precision = n_right / n_pred if n_pred else 0.0
    recall = n_right / n_gt if n_gt else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    result = {
        "folder": str(folder), "images": len(items), "read": len(per_image),
        "unreadable": failures,
        "tiles_labelled": n_gt, "tiles_read": n_pred, "tiles_right": n_right,
        "precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4),
        "detection_precision": round(n_matched / n_pred, 4) if n_pred else 0.0,
        "detection_recall": round(n_matched / n_gt, 4) if n_gt else 0.0,
        "exact_images": exact, "exact_rate": round(exact / len(items), 4),
        "melds": meld_total, "melds_grouped_right": meld_right,
        "meld_accuracy": round(meld_right / meld_total, 4) if meld_total else None,
        "melds_of_two_or_more": multi_total, "melds_of_two_or_more_right": multi_right,
        "meld_truth": meld_source,
        "confusions": {"6/9": six_nine, "1/7": one_seven, "orange/red": orange_red,
                       "colour (same number)": colour_errors, "number": number_errors,
                       "missed": int(cm[:-1, -1].sum()), "extra": int(cm[-1, :-1].sum()),
                       "top": [f"{a}->{b} x{n}" for n, a, b in off[:10]]},
        "latency_ms_median": round(float(np.median(times)), 1) if times else None,
        "per_image": per_image,
    }
    if confusion_png is not None:
        _confusion_png(cm, names, Path(confusion_png))
        result["confusion_png"] = str(confusion_png)
    return result


def _miss(gm, tiles, m, pred_melds, read_tiles) -> str:
    """``true K6 K7 K8 (lines 0 1 2); read K6 K7 | K8 K9`` for a true meld grouped wrong:
    the reader's melds that hold any of its tiles ('-' where a tile was not found)."""
    true = " ".join(tiles[g] for g in gm)
    lines = " ".join(map(str, gm))
    found = {m[g] for g in gm if g in m}
    read = [" ".join(read_tiles[p].tile for p in pm) for pm in pred_melds if found & set(pm)]
    read += ["-"] * sum(g not in m for g in gm)
    return f"true {true} (lines {lines}); read {' | '.join(read)}"


def format_result(r: dict) -> str:
    c = r["confusions"]
    lines = [
        f"{r['folder']}: {r['images']} images, {r['tiles_labelled']} labelled tiles, "
        f"{r['tiles_read']} read",
        f"tile precision {r['precision']:.4f}  recall {r['recall']:.4f}  F1 {r['f1']:.4f}  "
        f"(a tile counts when number and colour are right)",
        f"detection precision {r['detection_precision']:.4f}  recall {r['detection_recall']:.4f}",
        f"images read exactly: {r['exact_images']}/{r['images']} ({100 * r['exact_rate']:.1f}%)",
        (f"melds grouped right: {r['melds_grouped_right']}/{r['melds']} "
         f"({100 * r['meld_accuracy']:.1f}%; true melds {r['meld_truth']})")
        if r["meld_accuracy"] is not None else "melds: none labelled",
        *([f"melds of two or more tiles grouped right: {r['melds_of_two_or_more_right']}/"
           f"{r['melds_of_two_or_more']}"] if r.get("melds_of_two_or_more") else []),
        f"confusions: 6/9 {c['6/9']}, 1/7 {c['1/7']}, orange/red {c['orange/red']}, "
        f"other colour {c['colour (same number)']}, other number {c['number']}, "
        f"missed {c['missed']}, extra {c['extra']}",
    ]
    if c["top"]:
        lines.append("most frequent: " + ", ".join(c["top"]))
    if r.get("latency_ms_median") is not None:
        lines.append(f"median time per image (including decoding): {r['latency_ms_median']} ms")
    for f in r["unreadable"]:
        lines.append(f"unreadable: {f}")
    if r.get("confusion_png"):
        lines.append(f"confusion matrix: {r['confusion_png']}")
    return "\n".join(lines)


def to_json(r: dict) -> str:
    return json.dumps(r, indent=None)
