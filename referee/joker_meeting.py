"""The places of two joker melds that *meet* (see :mod:`referee.hints`), for the hint search
(:mod:`referee.joker_hints`): :meth:`MeetingPlaces.merged` lists the places of both at once
(one meld holding a tile of each and each joker or the tile that exchanged it, an exchanging
tile maybe the other meld's), :meth:`MeetingPlaces.borrowing` the places of one that also
hold a freed joker of the other, as its new set (one numbered tile of its own meld, every
other from the rack or a different meld, none of the freed joker's meld, with the preset's
rack tiles). The places of one joker meld alone are :mod:`referee.joker_places`'."""

from __future__ import annotations

import itertools
from collections import Counter

from .joker_places import Place, Places
from .melds import meld_readings
from .newsets import _distinct_melds
from .search import MAX_NUMBER
from .tiles import COLOURS, Meld, Tile


class MeetingPlaces(Places):
    """:class:`~referee.joker_places.Places`, and the places where two joker melds meet."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        #: whether tiles only the table has can come from different melds, by tiles and meld
        self.apart_memo: dict = {}

    def merged(self, mx: Meld, my: Meld, px, py) -> list[Place]:
        """Every place of the joker melds ``mx`` and ``my`` (patterns ``px``, ``py``) at
        once: one meld that holds a tile of each and, for each of their jokers, the joker
        still standing for its tile or that tile itself (``K11 R11 J | J B11 O11`` + ``O9``
        -> ``B11 K11 O11 R11 | J J O9``: each joker exchanged for a tile of the other meld).
        Each comes with ``merged`` = (jokers freed of ``mx``, of ``my``)."""
        rules = self.rules
        (sx, fx), (sy, fy) = px, py
        if set(sx) & set(sy):
            return []  # one meld cannot hold one tile twice
        readings = []
        for meld, stands, fate in ((mx, sx, fx), (my, sy, fy)):
            real = [t for t in meld if not t.is_joker]
            kinds = {r.kind for r in meld_readings(meld, rules)
                     if tuple(r.stands_for[p] for p, t in enumerate(meld) if t.is_joker)
                     == stands}
            whole = not rules.joker_melds_manipulable and not any(fate)
            readings.append((real, kinds, whole))
        stay = {s for s, f in zip(sx + sy, fx + fy) if not f}
        swap = [s for s, f in zip(sx + sy, fx + fy) if f]
        stands = sx + sy
        out = []
        (real_x, kinds_x, whole_x), (real_y, kinds_y, whole_y) = readings
        shapes = []
        if "run" in kinds_x & kinds_y and len({s.colour for s in stands}) == 1:
            colour = stands[0].colour
            nums = {s.number for s in stands}
            for lo in range(1, min(nums) + 1):
                for hi in range(max(max(nums), lo + 2), MAX_NUMBER + 1):
                    if any(w and not all(lo <= t.number <= hi for t in r)
                           for r, w in ((real_x, whole_x), (real_y, whole_y))):
                        continue
                    shapes.append([Tile(colour, k) for k in range(lo, hi + 1)])
        if "group" in kinds_x & kinds_y and len({s.number for s in stands}) == 1:
            number = stands[0].number
            need = set(stands)
            if rules.joker_group_needs_both_missing:
                for meld, fate in ((mx, fx), (my, fy)):
                    if any(fate) and len(meld) == 3:
                        have = {t.colour for t in meld if not t.is_joker}
                        need |= {Tile(c, number) for c in COLOURS if c not in have}
            for size in (3, 4):
                for cols in itertools.combinations(COLOURS, size):
                    tiles = [Tile(c, number) for c in cols]
                    if not need <= set(tiles) or any(
                            w and not set(r) <= set(tiles)
                            for r, w in ((real_x, whole_x), (real_y, whole_y))):
                        continue
                    shapes.append(tiles)
        for tiles in shapes:
            held = [t for t in tiles if t not in stay]
            # a tile of each meld, two tiles (a meld holds one tile of a kind once); an
            # exchanging tile may be the other meld's (``K6 K7 J | K5 K6 J K8`` -> ``K6 K7
            # K8``, each joker exchanged for the other meld's tile)
            if not any(a != b for a in held if a in real_x for b in held if b in real_y):
                continue
            place = self._fill(tiles, stay, swap, ())
            if place is not None:
                place.pattern = px
                place.merged = (sum(fx), sum(fy))
                out.append(place)
        return out

    def borrowing(self, meld: Meld, pattern, at: int, other: int, melds_of) -> list[Place]:
        """Every place of ``meld`` (the table's meld ``at``) under ``pattern`` that also
        holds a freed joker of the joker meld ``other`` and is a new set for it (see
        :mod:`referee.accounts`): one numbered tile of ``meld``, every other from the rack
        or from a different meld, none of ``other``, and the preset's rack tiles
        (``O3 J O5 O6 | O1 O2 O3 J`` + ``O4`` -> ``J J O3 | O1 O2 O3 | O4 O5 O6``: the second
        meld's joker stays, beside its O3 and the first meld's freed joker). One place for
        each set of its tiles that the rack gives (``rack_only``); ``borrowed`` = 1."""
        rules = self.rules
        stands, fate = pattern
        if not rules.joker_melds_manipulable and not any(fate):
            return []  # the meld stays whole: two of its tiles in the set
        real = [t for t in meld if not t.is_joker]
        stay = {s for s, f in zip(stands, fate) if not f}
        swap = [s for s, f in zip(stands, fate) if f]
        kinds = {r.kind for r in meld_readings(meld, rules)
                 if tuple(r.stands_for[p] for p, t in enumerate(meld) if t.is_joker) == stands}

        def there(t):
            return self.table_count[t] + self.rack_count[t] > 0

        shapes = []
        if "run" in kinds:
            colour = stands[0].colour
            nums = {s.number for s in stands}
            for lo in range(1, min(nums) + 1):
                for hi in range(max(max(nums), lo + 2), MAX_NUMBER + 1):
                    tiles = [Tile(colour, k) for k in range(lo, hi + 1)]
                    # the freed joker's slot may be a tile not there; no other may
                    missing = [t.number for t in tiles if t.number not in nums and not there(t)]
                    if len(missing) > 1:
                        if hi > max(nums):
                            break  # longer windows miss these too
                        continue
                    for k in missing or range(lo, hi + 1):
                        if k not in nums:
                            shapes.append([None if t.number == k else t for t in tiles])
        if "group" in kinds:
            number = stands[0].number
            need = set(stands)
            if rules.joker_group_needs_both_missing and swap and len(meld) == 3:
                have = {t.colour for t in real}
                need |= {Tile(c, number) for c in COLOURS if c not in have}
            for size in (3, 4):
                for cols in itertools.combinations(COLOURS, size):
                    tiles = [Tile(c, number) for c in cols]
                    if not need <= set(tiles):
                        continue
                    missing = [t for t in tiles if t not in need and not there(t)]
                    for t in missing if len(missing) <= 1 else ():
                        shapes.append([None if u == t else u for u in tiles])
                    for t in tiles if not missing else ():
                        if t not in need:
                            shapes.append([None if u == t else u for u in tiles])
        out, seen = [], set()
        min_rack = rules.joker_reuse_min_rack_tiles
        for tiles in shapes:
            numbered = [t for t in tiles if t is not None and t not in stay]
            if not any(t in real for t in numbered):
                continue
            # first, at once: the tiles only the table has must come from different melds
            table_only = tuple(sorted(t for t in numbered if not self.rack_count[t]))
            key = (table_only, other)
            apart = self.apart_memo.get(key)
            if apart is None:
                apart = self.apart_memo[key] = _distinct_melds(
                    list(table_only), melds_of, frozenset((other,)))
            if not apart:
                continue
            for from_rack in _apart(numbered, swap, at, other, melds_of, self.rack_count,
                                    rules.joker_replacement_from_table, min_rack):
                place = self._fill(tiles, stay, swap, ())
                if place is None:
                    continue
                # the tiles the account takes from the rack are laid from the rack
                for t in from_rack:
                    if place.use[t]:
                        place.use[t] -= 1
                        place.rack_only[t] += 1
                place.use = +place.use
                if any(self.rack_count[t] < k for t, k in place.rack_only.items()):
                    continue
                key = (place.tiles, tuple(sorted(place.use.items())),
                       tuple(sorted(place.rack_only.items())))
                if key in seen:
                    continue
                seen.add(key)
                place.pattern = pattern
                place.borrowed = 1
                out.append(place)
        return out


def _apart(numbered, swap, at, other, melds_of, rack_count, from_table, min_rack):
    """The ways the numbered tiles of a new set that is also the place of meld ``at`` can
    come: exactly one from ``at``, each other one from the rack or from a different meld,
    none from ``other`` (the freed joker's own meld), at least ``min_rack`` from the rack (a
    tile exchanged for a joker from the rack where ``from_table`` is False). Yields each
    distinct Counter of the tiles from the rack."""
    found = set()
    rack_left = Counter(rack_count)

    def go(i, used, from_rack, own, go):
        # (passed itself: a closure naming itself is a reference cycle)
        if i == len(numbered):
            if own and sum(from_rack.values()) >= min_rack:
                key = tuple(sorted(from_rack.items()))
                if key not in found:
                    found.add(key)
            return
        t = numbered[i]
        if rack_left[t] > from_rack[t]:
            from_rack[t] += 1
            go(i + 1, used, from_rack, own, go)
            from_rack[t] -= 1
            if not from_rack[t]:
                del from_rack[t]
        if t in swap and not from_table:
            return
        for m in melds_of.get(t, ()):
            if m == other or m in used or (m == at and own):
                continue
            used.add(m)
            go(i + 1, used, from_rack, own or m == at, go)
            used.discard(m)

    go(0, set(), Counter(), False, go)
    for key in sorted(found):
        yield Counter(dict(key))
