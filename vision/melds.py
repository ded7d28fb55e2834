"""Grouping read tiles into melds, and the rules as a sanity check (never as a fix).

Melds: two tiles belong to the same meld when they lie side by side along their reading
direction, touching or nearly touching (a gap of at most ``MAX_GAP`` tile widths), lined up
(offset across at most ``MAX_ACROSS`` tile heights) and turned the same way (within
``MAX_TURN`` degrees, either way up), as seen from each of the two, so the melds never depend on
the order the tiles were found in. A line of tiles so joined is then cut where one gap
stands out from its others (``SPLIT_GAP``): a meld's tiles are pushed together and melds on a
row lie apart, while a rack's or a loosely laid row's tiles are spaced alike (each gap under
``MAX_GAP``) and stay one line.
A meld is ordered as laid: left to right as its tiles
are read (tiles of a meld lying upside down for the camera are ordered from the reader's
right to left, as the player across the table laid them); a meld with as many tiles each way
up is listed as the photo is read.

Sanity checks (:func:`sanity_check`) flag tiles, they never change them: a low-confidence
tile that makes its meld invalid where another likely reading would make it valid ("R8 read
at 0.58; as R7 the run would be valid"), a third copy of a tile or a third joker on the
table, a tile lying the other way up from most of the rest of its meld (in a meld with as many
tiles each way up, every tile), and any tile read with low confidence.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from .order import reading_order
from .reading import Reading, Uncertain

MAX_GAP = 0.4      # tile widths between neighbours
MAX_ACROSS = 0.35  # tile heights of misalignment
MAX_TURN = 20.0    # degrees
#: A line of tiles is cut where one gap stands out from the others of the line: at least
#: SPLIT_GAP tile widths, and SPLIT_GAP wider than the median of the line's other gaps.
SPLIT_GAP = 0.2


def _frame(c: np.ndarray):
    c = np.asarray(c, dtype=np.float64)
    right = (c[1] - c[0] + c[2] - c[3]) / 2
    down = (c[3] - c[0] + c[2] - c[1]) / 2
    w = float(np.hypot(*right))
    h = float(np.hypot(*down))
    return c.mean(0), right / max(w, 1e-9), down / max(h, 1e-9), w, h


def group_melds(corners: list[np.ndarray]) -> list[list[int]]:
    """Melds (lists of tile indices, as laid) from tile outlines (TL, TR, BR, BL each)."""
    n = len(corners)
    frames = [_frame(c) for c in corners]
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    cos_turn = np.cos(np.deg2rad(MAX_TURN))
    # candidate neighbour pairs, best first; each tile gets at most one neighbour per side
    pairs = []
    if n > 1:
        c = np.array([f[0] for f in frames])
        r = np.array([f[1] for f in frames])
        dn = np.array([f[2] for f in frames])
        w = np.array([f[3] for f in frames])
        h = np.array([f[4] for f in frames])
        d = c[None, :, :] - c[:, None, :]                  # d[i, j] = c_j - c_i
        wm = (w[:, None] + w[None, :]) / 2
        hm = (h[:, None] + h[None, :]) / 2
        along = np.einsum("ijk,ik->ij", d, r) / np.maximum(wm, 1e-9)
        across = np.einsum("ijk,ik->ij", d, dn) / np.maximum(hm, 1e-9)
        aligned = np.abs(r @ r.T) >= cos_turn
        ok = aligned & (np.abs(across) <= MAX_ACROSS) & (np.abs(along) > 0.75) & \
            (np.abs(along) < 1.0 + MAX_GAP)
        # seen from either tile: the pairs and their costs do not depend on the order the
        # tiles were listed in
        ok &= ok.T
        cost = np.abs(np.abs(along) - 1.0) + np.abs(across)
        cost = (cost + cost.T) / 2
        ok &= np.triu(np.ones((n, n), bool), 1)
        for i, j in zip(*np.nonzero(ok)):
            pairs.append((float(cost[i, j]), int(i), int(j), bool(along[i, j] > 0)))
    pairs.sort()
    taken: set[tuple[int, int]] = set()  # (tile, side in its own frame: +1 right, -1 left)
    for _, i, j, j_right in pairs:
        side_i = 1 if j_right else -1  # where j lies in i's frame
        # where i lies in j's frame: the other side, or the same side where the two tiles
        # face opposite ways (one of them read upside down)
        side_j = -side_i if float(frames[i][1] @ frames[j][1]) >= 0 else side_i
        if (i, side_i) in taken or (j, side_j) in taken:
            continue
        if find(i) == find(j):
            continue
        taken |= {(i, side_i), (j, side_j)}
        parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    melds = []
    for members in groups.values():
        melds += _cut_at_wide_gaps(_laid_order(members, frames, corners), frames)
    # table order: as a person reads the table, by each meld's first tile
    rank = {i: k for k, i in enumerate(reading_order(corners))}
    melds.sort(key=lambda m: rank[m[0]])
    return melds


def _laid_order(members: list[int], frames, corners) -> list[int]:
    if len(members) == 1:
        return members
    r0 = frames[members[0]][1]
    signs = [1 if float(frames[i][1] @ r0) >= 0 else -1 for i in members]
    # the tiles' reading directions, each counted the way the first member reads
    r = sum(frames[i][1] * s for i, s in zip(members, signs))
    laid = sorted(members, key=lambda i: float(frames[i][0] @ r))
    tally = sum(signs)
    if tally == 0:
        # as many tiles each way up: neither way is the meld's, so it is listed as the photo
        # is read (from its end first in reading order), whatever order the tiles came in
        order = reading_order([corners[i] for i in laid])
        return laid if order.index(0) < order.index(len(laid) - 1) else laid[::-1]
    # the way most of its tiles read decides (a tile misread upside down does not reorder)
    return laid if tally > 0 else laid[::-1]


def _gap(i: int, j: int, frames) -> float:
    """Tile widths between neighbours i and j, measured from both (as in group_melds)."""
    ci, ri, _, wi, _ = frames[i]
    cj, rj, _, wj, _ = frames[j]
    d = cj - ci
    w = (wi + wj) / 2
    return (abs(float(d @ ri)) + abs(float(d @ rj))) / 2 / max(w, 1e-9) - 1.0


def _cut_at_wide_gaps(meld: list[int], frames) -> list[list[int]]:
    """A meld cut where a gap stands out from the line's others (see SPLIT_GAP): tiles of
    a meld are pushed together, melds side by side on a row lie apart, while a rack's or a
    hand-laid row's tiles are spaced evenly, whatever their spacing."""
    if len(meld) < 3:
        return [meld]
    gaps = [_gap(a, b, frames) for a, b in zip(meld, meld[1:])]
    k = int(np.argmax(gaps))
    others = gaps[:k] + gaps[k + 1:]
    if gaps[k] < SPLIT_GAP or gaps[k] - float(np.median(others)) < SPLIT_GAP:
        return [meld]
    return _cut_at_wide_gaps(meld[:k + 1], frames) + _cut_at_wide_gaps(meld[k + 1:], frames)


def _kind_word(tiles: list[str]) -> str:
    nums = {t[1:] for t in tiles if t != "J"}
    return "group" if len(nums) == 1 else "run"


def sanity_check(reading: Reading, rules=None, uncertain_below: float = 0.75
                 ) -> list[Uncertain]:
    """The tiles a person should confirm, in tile order. Readings are never changed here."""
    from referee import check_meld, get_rules

    rules = get_rules(rules)
    tiles = reading.tiles
    flags: dict[int, Uncertain] = {}

    def flag(i: int, reason: str, alts: list[str]) -> None:
        if i in flags:
            if reason in flags[i].reason:
                return
            flags[i].reason += "; " + reason
            flags[i].alternatives += [a for a in alts if a not in flags[i].alternatives]
            return
        flags[i] = Uncertain(i, reason, list(alts))

    # 1. melds the rules reject, where one doubtful tile read otherwise would pass
    for meld in reading.melds:
        notes = [tiles[i].tile for i in meld]
        verdict = check_meld(notes, rules)
        if verdict.ok:
            continue
        for pos, i in enumerate(meld):
            t = tiles[i]
            if t.confidence >= 0.97:
                continue
            fixes = []
            for alt, p in t.alternatives:
                if p < 0.02:
                    continue
                trial = notes[:pos] + [alt] + notes[pos + 1:]
                if check_meld(trial, rules).ok:
                    fixes.append(alt)
            if fixes:
                kind = _kind_word(notes[:pos] + [fixes[0]] + notes[pos + 1:])
                flag(i, f"{t.tile} read at {t.confidence:.2f}; as {fixes[0]} the {kind} "
                        f"would be valid", fixes)
    # 2. more copies than a set holds
    counts = Counter(t.tile for t in tiles)
    for tile, n in counts.items():
        limit = 2
        if n > limit:
            idx = sorted((i for i, t in enumerate(tiles) if t.tile == tile),
                         key=lambda i: tiles[i].confidence)
            what = "jokers" if tile == "J" else f"copies of {tile}"
            for i in idx[:n - limit]:
                flag(i, f"{n} {what} on the table; a set has {limit}: one is misread",
                     [a for a, _ in tiles[i].alternatives[:2]])
    # 3. a tile turned the other way from most of the rest of its meld (a 6 upside down is a
    # 9); where as many lie each way up, every tile is, and which are misread nothing says
    for meld in reading.melds:
        if len(meld) < 3:
            continue
        ups = [tiles[i].upside_down for i in meld]
        for i, u in zip(meld, ups):
            if ups.count(not u) * 2 > len(ups) - 1:
                t = tiles[i]
                flip = {"6": "9", "9": "6"}.get(t.tile[1:])
                alt = [t.tile[0] + flip] if flip else []
                flag(i, f"{t.tile} lies the other way up from the rest of its meld"
                        + (f" (upside down it reads {alt[0]})" if alt else ""), alt)
    # 4. anything read with low confidence
    for i, t in enumerate(tiles):
        if t.confidence < uncertain_below:
            flag(i, f"{t.tile} read at {t.confidence:.2f}",
                 [a for a, _ in t.alternatives[:2]])
    return [flags[i] for i in sorted(flags)]
