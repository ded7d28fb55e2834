"""The instances `bench/referee.py` times, all drawn from one random generator so that every
run measures the same ones: random subsets of the set, tables with a rack, tables holding both
jokers, opening racks, turns tampered with, and tables with tiles moved out of place."""

from __future__ import annotations

import itertools

import referee

FULL = referee.all_tiles()


def random_subsets(rng, count):
    out = []
    for _ in range(count):
        size = rng.randint(3, len(FULL))
        out.append(tuple(rng.sample(FULL, size)))
    return out


def move_instances(rng, count, table_size, rack_size=14):
    """(table, rack) pairs. The table: random ``table_size``-tile subsets of the set, kept
    when they can be arranged (most 80-tile subsets can); below 60 tiles almost none can, so
    the table is built instead from random runs and groups (and the jokers, when they fit)
    until it holds ``table_size`` tiles or more. The rack: tiles the table does not hold."""
    out, tries = [], 0
    while len(out) < count:
        tries += 1
        tiles = list(FULL)
        rng.shuffle(tiles)
        if table_size >= 60:
            table = referee.arrange(tiles[:table_size])
            if table is None:
                continue
        else:
            table = random_table(rng, table_size)
        left = list(FULL)
        for t in table.tiles:
            left.remove(t)
        out.append((table, tuple(rng.sample(left, rack_size))))
    return out, tries


def random_table(rng, size, jokers=None):
    colours = "KBOR"
    candidates = []
    for c in colours:
        for start in range(1, 12):
            for length in (3, 4, 5):
                if start + length - 1 <= 13:
                    candidates.append([f"{c}{n}" for n in range(start, start + length)])
    for n in range(1, 14):
        for k in (3, 4):
            for cols in itertools.combinations(colours, k):
                candidates.append([f"{c}{n}" for c in cols])
    rng.shuffle(candidates)
    left = {t: 2 for t in (f"{c}{n}" for c in colours for n in range(1, 14))}
    melds, count = [], 0
    for meld in candidates:
        if count >= size:
            break
        if all(left[t] for t in meld):
            for t in meld:
                left[t] -= 1
            melds.append(list(meld))
            count += len(meld)
    for _ in range(2):  # a joker joins a meld at its end, when that stays valid
        for _ in range(1 if jokers is None else 20):
            if jokers is None and rng.random() >= 0.5:
                break
            meld = rng.choice(melds)
            if referee.check_meld(meld + ["J"], referee.get_rules().replace(
                    meld_order="as-laid")).ok:
                meld.append("J")
                break
    return referee.Table(melds)


def joker_cases(rng, count):
    """(table holding both jokers, rack, preset): tables of 15-90 tiles from random runs and
    groups, or arranged random subsets, with both jokers laid; racks of 1-40 of the rest."""
    presets = list(referee.PRESETS)
    out = []
    while len(out) < count:
        size = rng.randint(15, 90)
        if size >= 60:
            tiles = [t for t in FULL if not t.is_joker]
            rng.shuffle(tiles)
            table = referee.arrange(tiles[:size - 2] + [referee.JOKER] * 2)
            if table is None:
                continue
        else:
            table = random_table(rng, size, jokers=2)
            if sum(t.is_joker for t in table.tiles) < 2:
                continue
        left = list(FULL)
        for t in table.tiles:
            left.remove(t)
        rack = tuple(rng.sample(left, rng.randint(1, min(40, len(left)))))
        out.append((table, rack, presets[len(out) % len(presets)]))
    return out


def opening_cases(rng, count):
    presets = list(referee.PRESETS)
    numbered = [t for t in FULL if not t.is_joker]
    out = []
    for i in range(count):
        size = rng.randint(14, 40)
        jokers = 2 if i % 2 else 0
        rack = tuple(rng.sample(numbered, size - jokers)) + (referee.JOKER,) * jokers
        out.append((rack, presets[i % len(presets)]))
    return out


def tampered(rng, table):
    """The table with a joker moved to another meld's end, or two tiles of different melds
    swapped."""
    melds = [list(m.tiles) for m in table]
    holders = [m for m in melds if any(t.is_joker for t in m)]
    if holders and len(melds) > 1 and rng.random() < 0.5:
        src = rng.choice(holders)
        src.remove(referee.JOKER)
        rng.choice([m for m in melds if m is not src]).append(referee.JOKER)
    elif len(melds) > 1:
        a, b = rng.sample(range(len(melds)), 2)
        i, j = rng.randrange(len(melds[a])), rng.randrange(len(melds[b]))
        melds[a][i], melds[b][j] = melds[b][j], melds[a][i]
    return referee.Table([m for m in melds if m])


def dispute_cases(rng, count):
    """(before, after): a valid table of 20-106 tiles, then 1-4 tiles moved to another meld,
    split off alone or taken off the table."""
    out = []
    while len(out) < count:
        size = rng.randint(20, len(FULL))
        tiles = list(FULL)
        rng.shuffle(tiles)
        table = referee.arrange(tiles[:size]) if size >= 60 else random_table(rng, size, jokers=2)
        if table is None or len(table) < 2:
            continue
        melds = [list(m.tiles) for m in table]
        for _ in range(rng.randint(1, 4)):
            src = rng.choice([m for m in melds if m])
            t = src.pop(rng.randrange(len(src)))
            r = rng.random()
            if r < 0.6:
                rng.choice(melds).append(t)
            elif r < 0.85:
                melds.append([t])
        out.append((table, referee.Table([m for m in melds if m])))
    return out
