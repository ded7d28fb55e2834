"""Melds from the exact search's decisions: the counts chosen at each number and colour
replayed into runs and groups, spare jokers absorbed, the melds in the order a person lays
them."""

from __future__ import annotations

from typing import Optional

from .tiles import COLOURS, JOKER, MAX_NUMBER, Meld, Tile

NCOL = len(COLOURS)
TILE_AT = {(c, number): Tile(colour, number) for c, colour in enumerate(COLOURS)
           for number in range(1, MAX_NUMBER + 1)}


def build_melds(decisions, n):
    """Replay the decisions into melds: (runs, groups), each a list of slots in natural
    order, a slot being (colour index, number) or None for a joker."""
    runs_done: list[list] = []
    open_runs: list[list[list]] = [[] for _ in range(NCOL)]
    groups_done: list = []
    for v in range(n):
        number = v + 1
        group_real = []  # (colour index, count)
        g_total = most = jg = 0
        for c in range(NCOL):
            u, g, jr, jgc = decisions[v][c]
            if c == NCOL - 1:
                jg = jgc
            slots = [(c, number)] * (u - g) + [None] * jr
            # runs of 1-2 go on first, then runs of 3+; spare slots start new runs
            new_open = []
            for run in sorted(open_runs[c], key=len):
                if slots:
                    run.append(slots.pop())
                    new_open.append(run)
                elif len(run) < 3:  # pragma: no cover - excluded by the search
                    raise AssertionError("a run stopped short")
                else:
                    runs_done.append(run)
            new_open += [[slot] for slot in slots]
            open_runs[c] = new_open
            if g:
                group_real.append((c, g))
                g_total += g
                most = max(most, g)
        total = g_total + jg
        if total:
            k = max(most, -(-total // 4))
            groups: list[list] = [[] for _ in range(k)]
            for c, g in sorted(group_real, key=lambda x: -x[1]):
                for grp in sorted(groups, key=len)[:g]:
                    grp.append((c, number))
            for _ in range(jg):
                min(groups, key=len).append(None)
            groups_done += [(number, grp) for grp in groups]
    for c in range(NCOL):
        runs_done.extend(open_runs[c])
    return runs_done, groups_done


def jokers_used(decisions):
    return sum(d[2] + d[3] for row in decisions for d in row)


def absorb(runs, groups, spare) -> bool:
    """Fit ``spare`` more jokers into the melds (in place); False if they do not fit."""
    while spare:
        if absorb_one(runs, groups):
            spare -= 1
            continue
        if spare >= 2:  # a group of four and two jokers make two groups of three
            four = next((g for g in groups if len(g[1]) == 4 and None not in g[1]), None)
            if four is not None:
                number, tiles = four
                groups.remove(four)
                groups.append((number, tiles[:2] + [None]))
                groups.append((number, tiles[2:] + [None]))
                spare -= 2
                continue
        return False
    return True


def absorb_one(runs, groups) -> bool:
    for number, tiles in groups:
        if len(tiles) == 3:
            tiles.append(None)
            return True
    for run in runs:
        i, real = next((i, s) for i, s in enumerate(run) if s is not None)
        start = real[1] - i
        if start + len(run) - 1 < MAX_NUMBER:
            run.append(None)
            return True
        if start > 1:
            run.insert(0, None)
            return True
    for run in runs:
        if len(run) >= 6:  # a full run splits: 1 2 3 J(4) and 4 .. 13
            runs.remove(run)
            runs.append(run[:3] + [None])
            runs.append(run[3:])
            return True
    return False


def melds_from(decisions, n, spare_jokers=0, search=None) -> Optional[list[Meld]]:
    runs, groups = build_melds(decisions, n)
    if search is not None and search.reverse:  # back to numbers read upward
        runs = [[None if s is None else (s[0], n + 1 - s[1]) for s in reversed(run)]
                for run in runs]
        groups = [(n + 1 - number, [None if s is None else (s[0], n + 1 - s[1]) for s in grp])
                  for number, grp in groups]
    if spare_jokers and not absorb(runs, groups, spare_jokers):
        return None
    melds = []
    for run in sorted(runs, key=lambda r: run_key(r)):
        melds.append(run_meld(run))
    for number, grp in sorted(groups, key=lambda g: g[0]):
        real = [TILE_AT[s] for s in sorted(s for s in grp if s is not None)]
        melds.append(Meld(tuple(real) + (JOKER,) * sum(1 for s in grp if s is None)))
    return melds


def run_key(run):
    real = next(s for s in run if s is not None)
    idx = run.index(real)
    return (real[0], real[1] - idx)


def run_meld(run) -> Meld:
    return Meld(tuple(JOKER if s is None else TILE_AT[s] for s in run))
