"""Upper bounds for the hint search (:mod:`referee.joker_hints`) on the turns of a
*pattern* (what each joker of the table stands for, and whether it stays or is exchanged),
each a relaxed exact search: a joker that stays counts as the tile it stands for wherever it
lies, a freed one goes anywhere. With places fixed (a joker meld's place, a new set for a
freed joker) the bound holds for every turn with those places, and is asked once for all the
combinations that share them. Every bound is an upper bound on every turn it rules out, so
the bounds change how fast a hint comes, never which value it has."""

from __future__ import annotations

from collections import Counter
from typing import Optional

from .opening import rack_weights
from .rules import Rules
from .search import (
    _COLOUR_INDEX,
    MAX_NUMBER,
    NCOL,
    Leaning,
    _dead_must,
    _lay_valued,
    _prune_optional,
)


class Bounds:
    """The bounds of one table and rack: the numbered tiles of the table (``table_count``)
    and of the rack (``rack_count``), the rack's jokers (``rack_j``); the solves share
    ``leaning``. Bounds of places and new sets are remembered (``places``, ``sets``)."""

    def __init__(self, rules: Rules, table_count: Counter, rack_count: Counter, rack_j: int,
                 leaning: Leaning):
        self.rules = rules
        self.table_count, self.rack_count, self.rack_j = table_count, rack_count, rack_j
        self.leaning = leaning
        #: upper bounds of the turns through one place, or one new set (see :meth:`fixed`)
        self.places: dict = {}
        self.sets: dict = {}

    def pattern(self, pattern, best: Optional[int]):
        """(bound, melds with each staying joker as its tile) for a pattern, or None when no
        turn of it exists, or (``best``: the weight of the best turn found) none beats it."""
        n = MAX_NUMBER
        table_count = self.table_count.copy()
        rack_count = self.rack_count
        must_extra = Counter()
        freed = 0
        for stands, fate in pattern:
            for s, taken in zip(stands, fate):
                if not taken:
                    table_count[s] += 1  # the joker, standing for s, is a tile s
                    continue
                freed += 1
                if not self.rules.joker_replacement_from_table:
                    if rack_count[s] < 1:
                        return None
                    must_extra[s] += 1  # a rack s takes its place
                elif table_count[s] + rack_count[s] < 1:
                    return None
        must, avail = _grids(n, table_count, rack_count, must_extra)
        if _dead_must(n, must, avail, freed + self.rack_j):
            return None
        avail = _prune_optional(n, must, avail, freed + self.rack_j)
        weight, wj = rack_weights(n, self.rules)
        # the weight of the tiles a rack s adds in place of a joker is not in ``value``
        extra = sum(weight[t.number - 1][0] * k for t, k in must_extra.items())
        # a pattern whose bound does not beat the best found is never tried: asked only
        # for more, the search says no at once
        floor = None if best is None else best - extra
        value, melds = _lay_valued(n, must, avail, weight, freed, self.rack_j, wj, floor,
                                   self.leaning)
        if value is None:
            return None
        return value + extra, melds

    def place_known(self, combo, i) -> bool:
        return self._place_key(combo, i) in self.places

    @staticmethod
    def _place_key(combo, i):
        return (i, id(combo[i]), tuple(p.pattern for j, p in enumerate(combo) if j != i))

    def place(self, combo, i, best: int) -> int:
        """The most weight a turn could lay with ``combo[i]`` as its place and every other
        joker meld as its pattern says: an upper bound for every combination holding that
        place (see :meth:`fixed`); ``best``: the weight of the best turn found."""
        key = self._place_key(combo, i)
        got = self.places.get(key)
        if got is None:
            got = self.places[key] = self.fixed([combo[i]], key[2], 0, best)
        return got

    def new_set(self, combo, joker_melds: int, place, jokers, best: int) -> int:
        """The most weight a turn could lay with the new set ``place`` holding ``jokers``
        freed jokers, every joker meld relaxed as the combination's pattern says: an upper
        bound for every combination of that pattern with that set, asked once for all
        (``combo[:joker_melds]``: the places of the joker melds)."""
        patterns = tuple(p.pattern for p in combo[:joker_melds])
        fixed = combo[joker_melds:] + [place]
        key = (patterns, jokers) + tuple(
            (p.tiles, tuple(sorted(p.use.items())), tuple(sorted(p.rack_only.items())),
             p.rack_jokers) for p in fixed)
        got = self.sets.get(key)
        if got is None:
            got = self.sets[key] = self.fixed(fixed, patterns, jokers, best)
        return got

    def fixed(self, fixed, patterns, freed_used, best: int) -> int:
        """The most weight a turn could lay with the places ``fixed`` as they are and the
        joker melds of ``patterns`` relaxed (a staying joker counts as its tile, a freed one
        goes anywhere; ``freed_used`` of the freed ones lie in the fixed places already).
        Each fixed place takes the table's copies of its tiles first, which never lays
        fewer rack tiles. A bound at or below the best found when it was asked is given as
        that best (``best``: the weight of the best turn found)."""
        n = MAX_NUMBER
        weight, wj = rack_weights(n, self.rules)
        table_count = self.table_count.copy()
        rack_count = self.rack_count.copy()
        own = 0  # the rack tiles the fixed places themselves lay
        rack_j, freed = self.rack_j, -freed_used
        for place in fixed:
            own += place.rack_jokers * wj
            for t, k in place.use.items():
                from_table = min(k, table_count[t])
                table_count[t] -= from_table
                rack_count[t] -= k - from_table
                own += (k - from_table) * weight[t.number - 1][0]
            for t, k in place.rack_only.items():
                rack_count[t] -= k
                own += k * weight[t.number - 1][0]
            rack_j -= place.rack_jokers
            freed += place.freed
        must_extra = Counter()
        for stands, fate in patterns:
            for s, taken in zip(stands, fate):
                if not taken:
                    table_count[s] += 1  # the joker, standing for s, is a tile s
                    continue
                freed += 1
                if not self.rules.joker_replacement_from_table:
                    must_extra[s] += 1  # a rack s takes its place
        bound = best
        if rack_j >= 0 and freed >= 0 and all(k >= 0 for k in rack_count.values()) and all(
                rack_count[s] >= k for s, k in must_extra.items()):
            must, avail = _grids(n, table_count, rack_count, must_extra)
            extra = own + sum(weight[t.number - 1][0] * k for t, k in must_extra.items())
            if not _dead_must(n, must, avail, freed + rack_j):
                avail = _prune_optional(n, must, avail, freed + rack_j)
                value, _ = _lay_valued(n, must, avail, weight, freed, rack_j, wj,
                                       best - extra, self.leaning)
                if value is not None:
                    bound = max(bound, value + extra)
        return bound


def _grids(n: int, table_count: Counter, rack_count: Counter, must_extra: Counter):
    """The search's (must, avail) grids, number by colour: the table's tiles (and the rack
    tiles that must replace freed jokers) must be laid; the rack's may be."""
    must = [[0] * NCOL for _ in range(n)]
    avail = [[0] * NCOL for _ in range(n)]
    for t in set(table_count) | set(rack_count):
        v, c = t.number - 1, _COLOUR_INDEX[t.colour.value]
        must[v][c] = min(4, table_count[t] + must_extra[t])
        avail[v][c] = min(4, table_count[t] + rack_count[t])
    return must, avail
