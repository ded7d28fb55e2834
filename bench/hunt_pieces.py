"""Families of tables for :mod:`bench.mutant_hunt`, and the rack filler they share with it.
``piece``: a run holding a joker and beside it, as a meld of its own, a piece of one or two
tiles that continues it (a meld misread or half laid). Left as the run lies, the piece is
often complete with nothing the rack holds, so the hint search knows no turn before it
bounds the joker patterns (``--families piece``)."""

from __future__ import annotations

from collections import Counter


def plain_melds(rng, free, melds, most):
    """Up to ``most`` random melds (runs of up to 5 half the time), each added to ``melds``
    where ``free`` still holds its tiles."""
    from tests.referee.random_tables import random_meld

    for _ in range(rng.randint(0, most)):
        m = random_meld(rng, runs=0.5, longest_run=5)
        if all(free[t] >= k for t, k in Counter(m).items()):
            free.subtract(m)
            melds.append(m)


def rack_rest(rng, free, rack, melds):
    """Add to ``rack`` (from ``free``) one to three pairs that need a third tile or a joker
    and up to three more tiles, most often a second copy of a tile of ``melds``."""
    from referee import COLOURS, Tile
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:
            colour, k = rng.choice(COLOURS), rng.randint(1, 12)
            pair = [Tile(colour, k), Tile(colour, min(13, k + rng.choice((1, 2))))]
        else:
            k, (c1, c2) = rng.randint(1, 13), rng.sample(COLOURS, 2)
            pair = [Tile(c1, k), Tile(c2, k)]
        if pair[0] != pair[1] and all(free[t] > 0 for t in pair):
            free.subtract(pair)
            rack += pair
    for _ in range(rng.randint(0, 3)):
        pool = [t for t in free.elements() if not t.is_joker]
        if rng.random() < 0.7:  # often a second copy of a table tile
            pool = [t for t in pool if any(t in m for m in melds)] or pool
        t = rng.choice(pool)
        free[t] -= 1
        rack.append(t)


def piece(rng):
    """A run of 3-6 tiles holding a joker, a piece continuing it, up to two more melds; a
    rack holding, most often, the joker's tile, pairs that need a joker and a few tiles."""
    from referee import COLOURS, JOKER, Tile, all_tiles, parse_table
    free = Counter(all_tiles())
    c, n, k = rng.choice(COLOURS), rng.randint(3, 6), rng.choice((1, 2))
    s = rng.randint(1, 14 - n - k)
    tiles = [Tile(c, v) for v in range(s, s + n + k)]
    run, bit = (tiles[:n], tiles[n:]) if rng.random() < 0.5 else (tiles[k:], tiles[:k])
    free.subtract(tiles)
    i = rng.randrange(len(run))
    stands, run[i] = run[i], JOKER
    free[stands] += 1
    free[JOKER] -= 1
    table = [run, bit]
    plain_melds(rng, free, table, 2)
    rack = []
    if rng.random() < 0.8:
        free[stands] -= 1
        rack.append(stands)
    rack_rest(rng, free, rack, table)
    return parse_table([" ".join(map(str, m)) for m in table]), rack


def both_jokers(rng):
    """One meld holding both jokers (a run of 4-7 tiles or a group of four), up to three more
    melds; a rack holding, most often, the tile each joker stands for, pairs that need a
    joker and a few tiles (at most 9). Such a meld may end the turn split between its staying
    joker and the tile that freed the other, a turn the places leave out and only a realized
    relaxed answer finds (``tests/referee/test_joker_meld_with_both_jokers.py``)."""
    from referee import COLOURS, JOKER, Tile, all_tiles, parse_table
    free = Counter(all_tiles())
    if rng.random() < 0.6:
        c, n = rng.choice(COLOURS), rng.randint(4, 7)
        s = rng.randint(1, 14 - n)
        meld = [Tile(c, v) for v in range(s, s + n)]
    else:
        k = rng.randint(1, 13)
        meld = [Tile(c, k) for c in COLOURS]
    free.subtract(meld)
    at = rng.sample(range(len(meld)), 2)
    stands = [meld[i] for i in at]
    for i in at:
        free[meld[i]] += 1
        meld[i] = JOKER
    free[JOKER] -= 2
    table = [meld]
    plain_melds(rng, free, table, 3)
    rack = []
    for t in stands:
        if rng.random() < 0.75 and free[t] > 0:
            free[t] -= 1
            rack.append(t)
    rack_rest(rng, free, rack, table)
    if len(rack) > 9:
        return None
    return parse_table([" ".join(map(str, m)) for m in table]), rack


def with_rack_joker(base):
    """Tables drawn by ``base`` holding one joker, the other joker added to the rack (the
    bounds then count a rack joker beside the places and sets they fix)."""

    def fam(rng):
        from referee import JOKER
        drawn = base(rng)
        if drawn is None or sum(t.is_joker for t in drawn[0].tiles) != 1:
            return None
        return drawn[0], list(drawn[1]) + [JOKER]
    return fam


def drawn_melds(base, rng):
    """A table drawn by the family ``base`` as ``(melds, rack)``, each meld a list of tiles
    to change; None where ``base`` drew nothing."""
    drawn = base(rng)
    if drawn is None:
        return None
    table, rack = drawn
    return [list(m.tiles) for m in table.melds], rack


def pieced(base):
    """Tables drawn by ``base`` with a piece of one or two tiles continuing a run that holds
    a joker, as a meld of its own (two joker melds, and often no frozen turn)."""

    def fam(rng):
        from referee import Tile, parse_table
        drawn = drawn_melds(base, rng)
        if drawn is None:
            return None
        melds, rack = drawn
        runs = [m for m in melds if any(t.is_joker for t in m)
                and len({t.colour for t in m if not t.is_joker}) == 1
                and len({t.number for t in m if not t.is_joker}) > 1]
        if not runs:
            return None
        m = rng.choice(runs)
        first = next(j for j, t in enumerate(m) if not t.is_joker)
        c, lo = m[first].colour, m[first].number - first
        k = rng.choice((1, 2))
        nums = range(lo + len(m), lo + len(m) + k) if rng.random() < 0.5 else range(lo - k, lo)
        bit = [Tile(c, v) for v in nums if 1 <= v <= 13]
        used = Counter(t for x in melds for t in x) + Counter(rack)
        if not bit or any(used[t] >= 2 for t in bit):
            return None
        return parse_table([" ".join(map(str, x)) for x in melds + [bit]]), rack
    return fam
