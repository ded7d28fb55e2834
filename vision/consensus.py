"""One table from several readings of the same still table, so that one blurred frame decides
nothing.

Tiles are matched across frames by position (nearest centre within half a tile); a tile is
kept when a strict majority of the frames saw one there, with the label most of them gave. A
kept tile is uncertain when the frames disagreed on it, the reader doubted it in most of them,
or its confidence (the reader's, times the share of frames that agree) is low. The melds and
outlines come from the frame that agrees best with the kept tiles; a kept tile that frame did
not see lies on its own, and is uncertain.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from .reading import Reading, TileReading, Uncertain

#: Below this confidence a kept tile is uncertain.
LOW_CONFIDENCE = 0.6


def same_table(a: Reading, b: Reading) -> bool:
    """Do two readings see the same tiles in the same melds, none of them doubted? (Then a
    third frame could not change the majority.)"""
    return (len(a) == len(b) and not a.uncertain and not b.uncertain
            and a.table.key() == b.table.key())


def consensus(readings: Sequence[Reading], *, low_confidence: float = LOW_CONFIDENCE) -> Reading:
    """The table most of ``readings`` agree on (each reading's tiles need outlines)."""
    k = len(readings)
    if k == 0:
        return Reading()
    if k == 1:
        return readings[0]
    sizes = [t.size for r in readings for t in r.tiles if t.size > 0]
    radius = 0.5 * (float(np.median(sizes)) if sizes else 20.0)
    clusters = _clusters(readings, radius)
    kept: dict[int, tuple[str, float, str | None, float]] = {}
    for ci, members in enumerate(clusters):
        if len(members) * 2 <= k:
            continue  # seen by too few frames: not a tile
        votes: Counter = Counter()
        conf_sum: Counter = Counter()
        doubts: list[str] = []
        for fi, ti in members.items():
            t = readings[fi].tiles[ti]
            votes[t.tile] += 1
            conf_sum[t.tile] += t.confidence
            doubts += [u.reason for u in readings[fi].uncertain if u.index == ti]
        label = max(votes, key=lambda lab: (votes[lab], conf_sum[lab]))
        agree = votes[label] / k
        conf = conf_sum[label] / votes[label] * agree
        why = None
        if len(votes) > 1:
            why = "the frames disagreed: " + ", ".join(
                f"{lab} in {n} of {k}" for lab, n in votes.most_common())
        elif len(doubts) * 2 > len(members):
            why = doubts[0]
        elif conf < low_confidence:
            why = f"{label} read at {conf:.2f}"
        kept[ci] = (label, conf, why, agree)
    # The frame whose tiles best match the kept clusters gives the melds and the outlines.
    member_of = [{ti: ci for ci, members in enumerate(clusters) for f2, ti in members.items()
                  if f2 == fi} for fi in range(k)]
    best = max(range(k), key=lambda fi: (sum(ci in kept for ci in member_of[fi].values())
                                         - sum(ci not in kept for ci in member_of[fi].values()),
                                         -fi))
    frame = readings[best]
    out = Reading(image_size=frame.image_size, image=frame.image)
    placed: set[int] = set()

    def add(ci: int, seen: TileReading, why: str | None) -> int:
        label, conf, own_why, _ = kept[ci]
        out.tiles.append(TileReading(label, conf, seen.corners,
                                     [a for a in seen.alternatives if a[0] != label],
                                     seen.upside_down, seen.score))
        why = own_why or why
        if why:
            out.uncertain.append(Uncertain(len(out.tiles) - 1, why,
                                           [a for a, _ in out.tiles[-1].alternatives[:2]]))
        placed.add(ci)
        return len(out.tiles) - 1

    for meld in frame.melds:
        indices = [add(member_of[best][ti], frame.tiles[ti], None)
                   for ti in meld if member_of[best].get(ti) in kept]
        if indices:
            out.melds.append(indices)
    for ci in kept:
        if ci not in placed:
            fi, ti = next(iter(clusters[ci].items()))
            out.melds.append([add(ci, readings[fi].tiles[ti],
                                  "seen by most frames, but not where the melds were read")])
    return out


def _clusters(readings: Sequence[Reading], radius: float) -> list[dict[int, int]]:
    """Tiles of different frames at the same place: [{frame index: tile index}]."""
    clusters: list[dict[int, int]] = []
    centres: list[list[float]] = []  # running mean centre of each cluster
    for fi, r in enumerate(readings):
        pairs = []
        for ti, t in enumerate(r.tiles):
            cx, cy = (float(v) for v in t.centre)
            for ci, (x, y) in enumerate(centres):
                d = ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5
                if d <= radius:
                    pairs.append((d, ti, ci))
        pairs.sort()
        taken_t: set[int] = set()
        claimed: set[int] = set()
        for _, ti, ci in pairs:
            if ti in taken_t or ci in claimed:
                continue
            taken_t.add(ti)
            claimed.add(ci)
            clusters[ci][fi] = ti
            n = len(clusters[ci])
            cx, cy = (float(v) for v in r.tiles[ti].centre)
            centres[ci][0] += (cx - centres[ci][0]) / n
            centres[ci][1] += (cy - centres[ci][1]) / n
        for ti, t in enumerate(r.tiles):
            if ti not in taken_t:
                clusters.append({fi: ti})
                centres.append([float(v) for v in t.centre])
    return clusters
