"""The new sets a freed joker may end the turn in, listed for the hint search.

A joker taken from its set must end the turn in a *new set* (see :mod:`referee.accounts`): a
meld that holds no numbered tile of the joker's own set and no two numbered tiles that lay in
one meld before the turn, with at least ``rules.joker_reuse_min_rack_tiles`` other tiles from
the rack. The exact search of :mod:`referee.search` knows nothing of where a tile came from,
so the hint search lays each freed joker in one of these melds itself and solves the rest of
the table exactly.

:func:`new_sets` lists every meld (a run of any window with its jokers in any of its places,
or a group of three or four) holding the given jokers whose numbered tiles are still there,
that can reach the rack-tile minimum, and whose tiles that can only come from the table can
come from different melds, none of them the joker's own set. Each comes with the tiles it
takes (table first, so the rest of the table is solved with the most freedom) and how many of
them could come from the rack.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Iterator, Mapping

from .matching import each_apart
from .tiles import COLOURS, JOKER, MAX_NUMBER, Tile


@dataclass(frozen=True)
class NewSet:
    """One meld for freed jokers: ``tiles`` in laid order (``J`` for the jokers), the numbered
    tiles it takes (``use``), how many rack jokers it holds, and ``from_rack``: how many of
    its numbered tiles the rack could give."""

    tiles: tuple[Tile, ...]
    use: Counter
    rack_jokers: int
    from_rack: int


def new_sets(jokers: int, rack_jokers: int, table_left: Mapping[Tile, int],
             rack_left: Mapping[Tile, int], min_rack: int,
             melds_of: Mapping[Tile, frozenset], own: frozenset,
             limit: int | None = None, memo: dict | None = None,
             shortest: bool = False) -> Iterator[NewSet] | None:
    """Every new set holding ``jokers`` freed jokers and up to ``rack_jokers`` jokers from the
    rack (at most two jokers in all), the most tiles the rack could give first, then the
    shortest. ``table_left`` / ``rack_left``: copies of each tile still free on the table and
    on the rack; ``melds_of[t]``: the melds of the table before that hold a ``t``; ``own``: the
    melds the freed jokers were taken from. With a ``limit``: None as soon as there are more
    sets than that. ``memo``: a dict kept by the caller for one ``melds_of`` (one table), in
    which whether tiles can come from different melds is remembered across calls (a hint asks
    for the sets of many places, and the same tiles come up in most of them). ``shortest``:
    the shortest sets first instead, then the most tiles the rack could give."""
    if memo is None:
        memo = {}
    # which tiles are there, and which the rack has, by colour and number (the shapes are
    # many and most fail the rack-tile minimum: tiles are made only for those that pass)
    there = [[False] * (MAX_NUMBER + 1) for _ in COLOURS]
    in_rack = [[False] * (MAX_NUMBER + 1) for _ in COLOURS]
    table_only = [[False] * (MAX_NUMBER + 1) for _ in COLOURS]  # none left on the rack
    for c in range(len(COLOURS)):
        for k in range(1, MAX_NUMBER + 1):
            t = _TILES[c][k]
            r = rack_left.get(t, 0)
            in_rack[c][k] = r > 0
            table_only[c][k] = r == 0
            there[c][k] = table_left.get(t, 0) + r > 0
    # the sets as (shape, rack jokers, tiles the rack could give): their tiles are made only
    # for a list within the limit, as they are asked for (a caller may stop at the first)
    found = []
    for extra in range(0, min(rack_jokers, 2 - jokers) + 1):
        count = jokers + extra
        for shape in _shapes(count, there, in_rack, min_rack - extra):
            from_rack = 0
            forced = []  # tiles only the table has
            for ck in shape:
                if ck is not None:
                    c, k = ck
                    if in_rack[c][k]:
                        from_rack += 1
                    elif table_only[c][k]:
                        forced.append(ck)
            if from_rack + extra < min_rack:
                continue
            if forced:
                key = (tuple(forced), own)
                apart = memo.get(key)
                if apart is None:
                    apart = memo[key] = _distinct_melds(
                        [_TILES[c][k] for c, k in forced], melds_of, own)
                if not apart:
                    continue
            found.append((shape, extra, from_rack))
            if limit is not None and len(found) > limit:
                return None
    if shortest:
        found.sort(key=lambda s: (len(s[0]), -(s[2] + s[1])))
    else:
        found.sort(key=lambda s: (-(s[2] + s[1]), len(s[0])))
    return _made(found)


def _made(found) -> Iterator[NewSet]:
    """The sets of (shape, rack jokers, tiles the rack could give), in that order."""
    for shape, extra, from_rack in found:
        tiles = tuple(JOKER if ck is None else _TILES[ck[0]][ck[1]] for ck in shape)
        yield NewSet(tiles, Counter([t for t in tiles if not t.is_joker]), extra, from_rack)


_TILES = [[None] + [Tile(colour, k) for k in range(1, MAX_NUMBER + 1)] for colour in COLOURS]


def _shapes(jokers: int, there, in_rack, need: int) -> Iterator[list]:
    """Runs and groups holding exactly ``jokers`` jokers whose other tiles are there, as
    lists of (colour index, number), None for a joker; only where ``need`` of the numbers
    could come from the rack (``in_rack``), the least any of them needs."""
    for c in range(len(COLOURS)):
        have = there[c]
        rack = in_rack[c]
        for lo in range(1, MAX_NUMBER - 1):
            held = 0  # numbers lo..hi the rack has
            gaps = 0
            for hi in range(lo, MAX_NUMBER + 1):
                if not have[hi]:
                    gaps += 1
                    if gaps > jokers:
                        break
                held += rack[hi]
                length = hi - lo + 1
                if length < 3 or length <= jokers or held < need:
                    continue
                missing = [k for k in range(lo, hi + 1) if not have[k]]
                present = [k for k in range(lo, hi + 1) if have[k]]
                for more in itertools.combinations(present, jokers - len(missing)):
                    at = set(missing) | set(more)
                    if len(at) == length:
                        continue
                    yield [None if k in at else (c, k) for k in range(lo, hi + 1)]
    for number in range(1, MAX_NUMBER + 1):
        cols = [c for c in range(len(COLOURS)) if there[c][number]]
        if sum(1 for c in cols if in_rack[c][number]) < need:
            continue
        for size in (3, 4):
            for chosen in itertools.combinations(cols, size - jokers):
                if chosen:
                    yield [(c, number) for c in chosen] + [None] * jokers


def _distinct_melds(tiles, melds_of, own) -> bool:
    """Can each of ``tiles`` come from a different meld of the table, none in ``own``?"""
    return each_apart([[m for m in melds_of.get(t, ()) if m not in own] for t in tiles])
