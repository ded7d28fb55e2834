"""Upper bounds for the hint search (:mod:`referee.joker_hints`) on the turns of a
*pattern* (what each joker of the table stands for, and whether it stays or is exchanged),
each a relaxed exact search: a joker that stays counts as the tile it stands for wherever it
lies (beside both copies of that tile too: the exact search lays such a third copy in a
third group of its number, as a player may lay the joker), a freed one goes anywhere. With
places fixed (a joker meld's place, a new set for a freed joker) the bound holds for every turn with those places, and is asked once for all the
combinations that share them. Every bound is an upper bound on every turn it rules out, so
the bounds change how fast a hint comes, never which value it has. A bound is only compared
with the best turn found, so its solve stops at the first weight above that best
(:func:`~referee.search._beats_floor`); that weight is remembered as beating every best below
it, and the bound is solved again for a best at or above it."""

from __future__ import annotations

from collections import Counter
from typing import Optional

from .joker_places import cell, cells_of, place_cells
from .opening import rack_weights
from .rules import Rules
from .search import (
    _COLOUR_INDEX,
    MAX_NUMBER,
    NCOL,
    Leaning,
    _beats_floor,
    _dead_must,
    _lay_valued,
    _prune_cells,
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
        self.weight, self.wj = rack_weights(MAX_NUMBER, rules)
        #: the tiles of the table and of the rack, and what a rack tile weighs, by cell
        self.table_cells, self.rack_cells = cells_of(table_count), cells_of(rack_count)
        self.cell_weight = [self.weight[at // NCOL][0] for at in range(MAX_NUMBER * NCOL)]
        #: upper bounds of the turns through one place, or one new set (see :meth:`fixed`)
        self.places: dict = {}
        self.sets: dict = {}

    def pattern(self, pattern, best: Optional[int]):
        """(bound, melds with each staying joker as its tile) for a pattern, or None when no
        turn of it exists, or (``best``: the weight of the best turn found) none beats it.
        A staying joker whose tile has two copies on the table and the rack already counts
        as a third copy of it: the bound holds, the exact search laying such a copy in a
        third group of its number or a run of its own (``tests/referee/test_joker_third_copies.py``)."""
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

    def place_known(self, combo, i, best: int) -> bool:
        """Is the bound of ``combo[i]`` known to beat ``best`` or not, without a solve?"""
        return _known(self.places.get(self._place_key(combo, i)), best)

    @staticmethod
    def _place_key(combo, i):
        # the bound reads the tiles the place takes, not their order nor where its jokers
        # lie: places alike share it (a freed joker of the other meld at either end)
        p = combo[i]
        return (i, tuple(tuple(sorted(x)) for x in place_cells(p)), p.rack_jokers, p.freed,
                p.borrowed, tuple(q.pattern for j, q in enumerate(combo) if j != i))

    def place(self, combo, i, best: int) -> int:
        """The most weight a turn could lay with ``combo[i]`` as its place and every other
        joker meld as its pattern says: an upper bound for every combination holding that
        place (see :meth:`fixed`); ``best``: the weight of the best turn found."""
        key = self._place_key(combo, i)
        got = self.places.get(key)
        if not _known(got, best):
            got = self.places[key] = self.fixed([combo[i]], key[-1], 0, best)
        return got

    def new_set(self, combo, joker_melds: int, place, jokers, best: int) -> int:
        """The most weight a turn could lay with the new set ``place`` holding ``jokers``
        freed jokers, every joker meld relaxed as the combination's pattern says: an upper
        bound for every combination of that pattern with that set, asked once for all
        (``combo[:joker_melds]``: the places of the joker melds)."""
        patterns = tuple(p.pattern for p in combo[:joker_melds])
        return self.of_sets(patterns, combo[joker_melds:] + [place], jokers, best)

    def of_sets(self, patterns, fixed, jokers, best: int, stays_first: bool = False) -> int:
        """:meth:`fixed`, remembered: the most weight a turn could lay with the new sets
        ``fixed`` (holding ``jokers`` freed jokers) and the joker melds relaxed as
        ``patterns`` say."""
        # the bound reads the tiles the sets take, not their order: a run with its joker at
        # either end is one key
        key = (patterns, jokers, stays_first) + tuple(
            (*(tuple(sorted(x)) for x in place_cells(p)), p.rack_jokers, p.freed)
            for p in fixed)
        got = self.sets.get(key)
        if not _known(got, best):
            got = self.sets[key] = self.fixed(fixed, patterns, jokers, best, stays_first)
        return got

    def fixed(self, fixed, patterns, freed_used, best: int, stays_first: bool = False) -> int:
        """The most weight a turn could lay with the places ``fixed`` as they are and the
        joker melds of ``patterns`` relaxed (a staying joker counts as its tile, a freed one
        goes anywhere; ``freed_used`` of the freed ones lie in the fixed places already).
        Each fixed place takes the table's copies of its tiles first, which never lays
        fewer rack tiles. A bound at or below the best found when it was asked is given as
        that best (``best``: the weight of the best turn found); one above it, as the first
        weight above the best its solve finds (:class:`_Above`, not necessarily its most:
        the callers only ask whether it beats the best). ``stays_first``: a joker
        that stays counts as its tile before the fixed places take theirs, so that a place
        may hold it (a new set holding that joker); otherwise the places take real tiles.
        Worked out by search cell (the tile counts as flat lists): it is asked for every new
        set of a pattern."""
        n = MAX_NUMBER
        weight, wj, cell_weight = self.weight, self.wj, self.cell_weight
        table, rack = self.table_cells[:], self.rack_cells[:]
        own = 0  # the rack tiles the fixed places themselves lay
        rack_j, freed = self.rack_j, -freed_used
        stays = [cell(s) for stands, fate in patterns
                 for s, taken in zip(stands, fate) if not taken]
        for at in stays if stays_first else ():
            table[at] += 1  # the joker, standing for s, is a tile s
        for place in fixed:
            own += place.rack_jokers * wj
            use, rack_only = place_cells(place)
            for at, k in use:
                from_table = min(k, table[at])
                table[at] -= from_table
                rack[at] -= k - from_table
                own += (k - from_table) * cell_weight[at]
            for at, k in rack_only:
                rack[at] -= k
                own += k * cell_weight[at]
            rack_j -= place.rack_jokers
            freed += place.freed - place.borrowed
        must_extra: dict = {}  # a rack tile that takes a freed joker's place, by cell
        for at in () if stays_first else stays:
            table[at] += 1
        for stands, fate in patterns:
            for s, taken in zip(stands, fate):
                if taken:
                    freed += 1
                    if not self.rules.joker_replacement_from_table:
                        at = cell(s)
                        must_extra[at] = must_extra.get(at, 0) + 1
        if rack_j < 0 or freed < 0 or min(rack) < 0 or any(
                rack[at] < k for at, k in must_extra.items()):
            return best
        extra = own + sum(cell_weight[at] * k for at, k in must_extra.items())
        must = [t if t < 4 else 4 for t in table]  # (no call per cell: asked per new set)
        for at, k in must_extra.items():
            must[at] = min(4, table[at] + k)
        avail = [t + r if t + r < 4 else 4 for t, r in zip(table, rack)]
        # every optional tile and joker laid cannot beat the best: the search would say so
        # at its first position (what the cells above cost is most of a bound's work)
        spare = extra + rack_j * wj + sum((a - m) * w for a, m, w in zip(avail, must, cell_weight))
        if spare <= best:
            return best
        pruned = _prune_cells(n, must, avail, freed + rack_j)
        if pruned is None:
            return best
        # the same with the tiles that fit no meld dropped (``_beats_floor`` would ask it
        # first): no grids are made then
        for at in pruned[1]:
            spare -= (avail[at] - must[at]) * cell_weight[at]
        if spare <= best:
            return best
        must = [must[i:i + NCOL] for i in range(0, n * NCOL, NCOL)]
        avail = [pruned[0][i:i + NCOL] for i in range(0, n * NCOL, NCOL)]
        value = _beats_floor(n, must, avail, weight, freed, rack_j, wj, best - extra,
                             self.leaning)
        return best if value is None else _Above(value + extra)


class _Above(int):
    """A weight above the best found that the bound of :meth:`Bounds.fixed` reaches, not
    necessarily its most (the search stops at the first such weight): for a larger best,
    it says nothing unless it still beats it."""


def _known(got, best: int) -> bool:
    """Does a remembered answer of :meth:`Bounds.fixed` say whether its bound beats
    ``best`` (the best has only grown since)? An upper bound always does; a weight the bound
    reaches (:class:`_Above`) only while it is above ``best``."""
    return got is not None and (not isinstance(got, _Above) or got > best)


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
