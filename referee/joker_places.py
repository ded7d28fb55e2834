"""Where a meld holding a joker can lie after the turn, for the hint search
(:mod:`referee.joker_hints`): its *patterns* (what each of its jokers stands for, and
whether it stays or is exchanged) and its *places*: every run window or group that keeps a
tile of the meld and holds each joker's tile (the joker itself where it stays, the tile
where it was exchanged), with the tiles each place takes from the table and the rack.
Under the tournament rule the place of a group of three whose joker is taken may be two
groups (``more``), each with one of its tiles and one of the two missing colours.
Where two joker melds meet, their places are listed by :mod:`referee.joker_meeting`."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

from .melds import meld_readings
from .rules import Rules
from .search import _COLOUR_INDEX, MAX_NUMBER, NCOL
from .tiles import COLOURS, JOKER, Meld, Tile


@dataclass
class Place:
    """One candidate place for the jokers of one meld: the meld ``tiles`` (laid order, J for
    the jokers that stay and for rack jokers), the real tiles it takes (``use``: tile ->
    (from the table or rack, from the rack only)), the rack jokers it takes and the jokers of
    the old meld it frees."""

    tiles: tuple[Tile, ...]
    use: Counter
    rack_only: Counter
    rack_jokers: int
    freed: int
    pattern: tuple = ()  #: (what its jokers stand for, which of them were exchanged)
    cells: tuple | None = None  #: ``use`` and ``rack_only`` by search cell, once asked
    #: freed jokers of the other joker meld it holds (it is their new set: see ``borrowing``)
    borrowed: int = 0
    #: a place of both joker melds at once (``merged``): the jokers it frees of each; the
    #: other meld's place in the combination is then empty (no tiles)
    merged: tuple = ()
    #: more melds of the same place (laid order): under the tournament rule, the second
    #: missing colour of a group of three in another meld holding a tile of the group
    more: tuple = ()


def cell(t: Tile) -> int:
    """The exact search's cell of a numbered tile: (number - 1) * NCOL + colour."""
    return (t.number - 1) * NCOL + _COLOUR_INDEX[t.colour.value]


def cells_of(count) -> list:
    """Tile counts by search cell."""
    out = [0] * (MAX_NUMBER * NCOL)
    for t, k in count.items():
        out[cell(t)] += k
    return out


def place_cells(p: Place) -> tuple:
    """The place's ``use`` and ``rack_only`` by search cell (worked out once)."""
    if p.cells is None:
        p.cells = (tuple((cell(t), k) for t, k in p.use.items() if k),
                   tuple((cell(t), k) for t, k in p.rack_only.items() if k))
    return p.cells


class Places:
    """The patterns and places of the joker melds of one table, for one rack: the numbered
    tiles of the table (``table_count``) and of the rack (``rack_count``) and the rack's
    jokers (``rack_j``)."""

    def __init__(self, rules: Rules, table_count: Counter, rack_count: Counter, rack_j: int):
        self.rules = rules
        self.table_count, self.rack_count, self.rack_j = table_count, rack_count, rack_j
        self.table_cells, self.rack_cells = cells_of(table_count), cells_of(rack_count)

    def patterns(self, meld: Meld) -> list:
        """Every (what its jokers stand for, which of them are exchanged) of ``meld``."""
        slots = [p for p, t in enumerate(meld) if t.is_joker]
        readings = {tuple(r.stands_for[p] for p in slots) for r in meld_readings(meld, self.rules)}
        fates = list(itertools.product((False, True), repeat=len(slots)))
        return [(stands, fate) for stands in sorted(readings, key=str) for fate in fates]

    def of(self, meld: Meld) -> list[Place]:
        """Every place of ``meld`` the tiles allow, under each of its patterns."""
        rules = self.rules
        slots = [p for p, t in enumerate(meld) if t.is_joker]
        real = [t for t in meld if not t.is_joker]
        out, seen = [], set()
        readings = {tuple(r.stands_for[p] for p in slots): r.kind
                    for r in meld_readings(meld, rules)}
        fates = [(False,) * len(slots)]
        fates += [f for f in itertools.product((False, True), repeat=len(slots)) if any(f)]
        for stands, kind in readings.items():
            for fate in fates:
                for place in self._windows(meld, real, stands, kind, fate):
                    place.pattern = (stands, fate)
                    key = (place.tiles, place.more, tuple(sorted(place.use.items())),
                           place.pattern)
                    if key not in seen:
                        seen.add(key)
                        out.append(place)
        return out

    def _windows(self, meld, real, stands, kind, fate):
        """Every meld that keeps a tile of ``meld`` and holds each joker's tile: the joker
        itself where it stays, the tile where it was exchanged."""
        rules = self.rules
        whole = not rules.joker_melds_manipulable and not any(fate)
        stay = {s for s, f in zip(stands, fate) if not f}
        swap = [s for s, f in zip(stands, fate) if f]
        if kind == "run":
            colour = stands[0].colour
            nums = {s.number for s in stands}
            own = {t.number for t in real}
            lo0, hi0 = min(nums | own), max(nums | own)
            for lo in range(1, min(nums) + 1):
                for hi in range(max(max(nums), lo + 2), MAX_NUMBER + 1):
                    if whole and not (lo <= lo0 and hi >= hi0):
                        continue
                    if not any(lo <= k <= hi for k in own):
                        continue
                    tiles = [Tile(colour, k) for k in range(lo, hi + 1)]
                    place = self._fill(tiles, stay, swap, whole and real)
                    if place is not None:
                        yield place
        else:
            number = stands[0].number
            have = {t.colour for t in real}
            need = {s.colour for s in stands}
            if (rules.joker_group_needs_both_missing and swap and len(meld) == 3):
                need |= {c for c in COLOURS if c not in have}
            for size in (3, 4):
                for cols in itertools.combinations(COLOURS, size):
                    cs = set(cols)
                    if not need <= cs or not (cs & have) or (whole and not have <= cs):
                        continue
                    tiles = [Tile(c, number) for c in cols]
                    place = self._fill(tiles, stay, swap, ())
                    if place is not None:
                        yield place
            if (rules.joker_group_needs_both_missing and len(swap) == 1 and len(meld) == 3
                    and len(real) == 2):
                yield from self._split(real, swap[0], number, have)

    def _split(self, real, s, number, have):
        """Under the tournament rule a joker of a group of three is taken by adding both
        missing colours; the group may then be split (003: a set holding a joker "can ...
        be split apart"), so the two may end in two melds, each with one of the group's
        tiles: ``J R13 O13`` (a B13) with B13 and K13 from ``B13 K13 R13 O13`` ->
        ``B13 O13 R13 | K13 O13 R13``. One place of two groups: ``s`` with one of the
        group's tiles, the other missing colour with the other."""
        other = next(Tile(c, number) for c in COLOURS if c not in have and c != s.colour)
        for a, b in ((real[0], real[1]), (real[1], real[0])):
            for first in self._groups(number, {a.colour, s.colour}):
                p1 = self._fill(first, set(), [s], ())
                if p1 is None:
                    continue
                for second in self._groups(number, {b.colour, other.colour}):
                    p2 = self._fill(second, set(), [other], ())
                    if p2 is None:
                        continue
                    place = Place(p1.tiles, p1.use + p2.use, p1.rack_only + p2.rack_only, 0, 1,
                                  more=(p2.tiles,))
                    if self.fits([place]):
                        yield place

    @staticmethod
    def _groups(number, colours):
        """Every group of ``number`` holding ``colours``, in colour order."""
        for size in (3, 4):
            for cols in itertools.combinations(COLOURS, size):
                if colours <= set(cols):
                    yield [Tile(c, number) for c in cols]

    def _fill(self, tiles, stay, swap, must_hold):
        """A Place for the meld ``tiles`` (in order), or None if the tiles are not there."""
        use, rack_only = Counter(), Counter()
        laid, rack_jokers = [], 0
        for t in tiles:
            if t is None:  # the slot of a freed joker of the other joker meld (borrowing)
                laid.append(JOKER)
                continue
            if t in stay:
                laid.append(JOKER)
                continue
            if t in swap and not self.rules.joker_replacement_from_table:
                if self.rack_count[t] - rack_only[t] < 1:
                    return None
                rack_only[t] += 1
                laid.append(t)
                continue
            if self.table_count[t] + self.rack_count[t] - use[t] - rack_only[t] >= 1:
                use[t] += 1
                laid.append(t)
            elif rack_jokers < self.rack_j and t not in swap:
                rack_jokers += 1
                laid.append(JOKER)
            else:
                return None
        return Place(tuple(laid), use, rack_only, rack_jokers, len(swap))

    def fits(self, combo) -> bool:
        """Can the places of ``combo`` all be laid together from the table and the rack?
        (By search cell: it is asked for every combination of places.)"""
        if sum(p.rack_jokers for p in combo) > self.rack_j:
            return False
        use: dict = {}
        rack: dict = {}
        for p in combo:
            cells_use, cells_rack = place_cells(p)
            for at, k in cells_use:
                use[at] = use.get(at, 0) + k
            for at, k in cells_rack:
                use[at] = use.get(at, 0) + k
                rack[at] = rack.get(at, 0) + k
        tc, rc = self.table_cells, self.rack_cells
        return (all(tc[at] + rc[at] >= k for at, k in use.items())
                and all(rc[at] >= k for at, k in rack.items()))


def a_joker_stays(pattern) -> bool:
    """Does a joker of the pattern stay? (A new set may then hold it: see
    :meth:`Bounds.fixed <referee.joker_bounds.Bounds.fixed>`, ``stays_first``.)"""
    return not all(all(fate) for _, fate in pattern)
