"""The hint search with each meld holding a joker given its place after the turn explicitly:
patterns best bound first, places closest to the melds as they lie first, freed jokers laid
in every new set they could go into (see :mod:`referee.hints` for the whole method)."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from dataclasses import dataclass
from typing import Optional

from .melds import meld_readings
from .move import Move, draw_move, move_value, split_rack, with_steps
from .newsets import new_sets
from .opening import rack_weights
from .rules import Rules
from .search import (
    _COLOUR_INDEX,
    BIG,
    MAX_NUMBER,
    NCOL,
    Leaning,
    _dead_must,
    _lay,
    _lay_valued,
    _prune_optional,
)
from .tiles import COLOURS, JOKER, Meld, Table, Tile
from .turns import TurnVerdict, check_turn

#: places of each pattern tried before any pattern's other places
FIRST_PASS_PLACES = 6
#: a place's own bound is solved for when this many combinations to try hold it
PLACE_BOUND_SHARED = 4
#: a new set's own bound is solved for when this many deferred places share a pattern
SET_BOUND_ALIKE = 3
#: a pattern's freed joker is bounded set by set when it has this many new sets or fewer
PATTERN_SETS = 100


@dataclass
class _Place:
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


def _cell(t: Tile) -> int:
    return (t.number - 1) * NCOL + _COLOUR_INDEX[t.colour.value]


def _cells_of(count) -> list:
    out = [0] * (MAX_NUMBER * NCOL)
    for t, k in count.items():
        out[_cell(t)] += k
    return out


def _place_cells(p: _Place) -> tuple:
    if p.cells is None:
        p.cells = (tuple((_cell(t), k) for t, k in p.use.items() if k),
                   tuple((_cell(t), k) for t, k in p.rack_only.items() if k))
    return p.cells


class JokerSearch:
    def __init__(self, table: Table, rack_tiles, rules: Rules, free: Move, deadline: float):
        self.table, self.rack, self.rules = table, tuple(rack_tiles), rules
        self.bound = move_value(free.placed, rules)
        self.table_count = Counter(t for t in table.tiles if not t.is_joker)
        self.rack_count = Counter(t for t in rack_tiles if not t.is_joker)
        self.rack_j = sum(1 for t in rack_tiles if t.is_joker)
        self.jmelds = [m for m in table if any(t.is_joker for t in m)]
        self.others = [m for m in table if not any(t.is_joker for t in m)]
        # Beyond the upper bound, the places tried cover every legal turn when the table holds
        # one joker and the rack none (see the module's notes).
        self.complete = sum(1 for t in table.tiles if t.is_joker) == 1 and not self.rack_j
        self.jmeld_index = [i for i, m in enumerate(table) if any(t.is_joker for t in m)]
        melds_of: dict = {}
        for i, m in enumerate(table):
            for t in m:
                if not t.is_joker:
                    melds_of[t] = melds_of.get(t, frozenset()) | {i}
        self.melds_of = melds_of
        self.deadline = deadline
        self.cut = False
        self.tries = 0
        self.deferred: list = []
        self.untried = 0  # the best bound of a new set whose mixed sources were not tried
        self.best: Optional[Move] = None
        self.best_verdict: Optional[TurnVerdict] = None
        self._weighed: tuple = (None, 0)
        # the tiles of the table and of the rack, by search cell (number - 1) * NCOL + colour
        self.table_cells = _cells_of(self.table_count)
        self.rack_cells = _cells_of(self.rack_count)
        # the rests are alike: the faster reading stays faster; first, the one starting from
        # the end with fewer tiles
        self.leaning = Leaning.fewer_first(MAX_NUMBER, [
            [a + b for a, b in zip(self.table_cells[i:i + NCOL], self.rack_cells[i:i + NCOL])]
            for i in range(0, MAX_NUMBER * NCOL, NCOL)])
        #: the rest of the table solved so far: (floor asked, its best melds or None)
        self.solved: dict = {}
        #: upper bounds of the turns through one place, or one new set (see _relaxed_bound)
        self.place_bounds: dict = {}
        self.set_bounds: dict = {}
        self.alike: Counter = Counter()
        self.settled: set = set()  # deferred places whose new sets were all tried

    def run(self) -> Move:
        # A pattern says, for each meld holding a joker, what its jokers stand for and which
        # of them stay. Each pattern's relaxed search (a joker that stays counts as the tile
        # it stands for, wherever it lies; a freed joker goes anywhere) bounds every turn of
        # that pattern, and its answer is often a legal turn already.
        top = self.bound[0] * BIG + self.bound[1]
        self._frozen()
        if self.best is not None and self._best_weight() >= top:
            return self._answer(True)
        per_meld = [self._patterns(m) for m in self.jmelds]
        bounds = []
        # jokers that stay first: their relaxed answers are the likeliest legal turns
        for pattern in sorted(itertools.product(*per_meld),
                              key=lambda p: sum(sum(f) for _, f in p)):
            if self._late():
                break
            got = self._relaxed(pattern)
            if got is None:
                continue
            bounds.append((got[0], pattern, got[1]))
            if self._realize(pattern, got[1]) and self._best_weight() >= top:
                return self._answer(True)
        bounds.sort(key=lambda x: x[0], reverse=True)
        options = None
        unsettled = (0, 0)
        later = []  # (bound, places not tried yet) of each pattern, for a second pass
        for bound, pattern, melds in bounds:
            if self.best is not None and self._best_weight() >= bound:
                break
            if self._realize(pattern, melds) and self._best_weight() >= bound:
                continue
            if self._pattern_ruled_out(pattern):
                if not self.complete:
                    unsettled = max(unsettled, (bound // BIG, bound % BIG))
                continue
            if options is None:
                options = [self._places(m) for m in self.jmelds]
            combos = [c for c in itertools.product(*options)
                      if tuple(p.pattern for p in c) == pattern and self._fits(c)]
            # places closest to the melds as they lie first; a few of each pattern in the
            # first pass, so that every pattern gets its likeliest places early
            combos.sort(key=lambda c: sum(abs(len(p.tiles) - len(m)) for p, m in
                                          zip(c, self.jmelds)))
            later.append((bound, combos[FIRST_PASS_PLACES:]))
            self._places_up_to(combos[:FIRST_PASS_PLACES], bound)
            if not self.complete:
                unsettled = max(unsettled, (bound // BIG, bound % BIG))
        unsettled = max(unsettled, self._settle_deferred())
        for bound, combos in later:
            self._places_up_to(combos, bound)
        unsettled = max(unsettled, self._settle_deferred(),
                        (self.untried // BIG, self.untried % BIG))
        got = move_value(self.best.placed, self.rules) if self.best is not None else (0, 0)
        return self._answer(got >= unsettled and not self.cut)

    def _places_up_to(self, combos, bound) -> None:
        """Try these places until a turn reaches ``bound`` or time runs out."""
        shared = Counter((i, id(p)) for c in combos for i, p in enumerate(c))
        for combo in combos:
            if self.best is not None and self._best_weight() >= bound:
                return
            if self._late():
                return
            if self._beaten(combo, shared):
                continue
            self._try(combo)

    def _beaten(self, combo, shared) -> bool:
        """Can no turn with these places beat the best found? With two joker melds, each
        place is bounded alone: the place fixed, the other meld's jokers relaxed as in its
        pattern. One bound holds for every combination with that place, so the product of
        the places costs about their sum in solves. A bound costs a solve (a larger one than
        a combination's), so it is asked only for a place that ``PLACE_BOUND_SHARED`` or
        more of the combinations to try share (``shared``), else only read if known."""
        if self.best is None or len(combo) < 2:
            return False
        best = self._best_weight()
        # the bounds known first (free); then those worth a solve, a place that frees a
        # joker first: the other meld, relaxed, then only keeps its jokers, which relaxes
        # least (the reverse leaves a freed joker free to go anywhere)
        unknown = []
        for i in range(len(combo)):
            if self._bound_known(combo, i):
                if self._place_bound(combo, i) <= best:
                    return True
            elif shared[(i, id(combo[i]))] >= PLACE_BOUND_SHARED:
                unknown.append(i)
        unknown.sort(key=lambda i: -combo[i].freed)
        return any(self._place_bound(combo, i) <= best for i in unknown)

    def _bound_known(self, combo, i) -> bool:
        return self._bound_key(combo, i) in self.place_bounds

    @staticmethod
    def _bound_key(combo, i):
        return (i, id(combo[i]), tuple(p.pattern for j, p in enumerate(combo) if j != i))

    def _place_bound(self, combo, i) -> int:
        """The most weight a turn could lay with ``combo[i]`` as its place and every other
        joker meld as its pattern says: an upper bound for every combination holding that
        place (see :meth:`_relaxed_bound`)."""
        key = self._bound_key(combo, i)
        got = self.place_bounds.get(key)
        if got is None:
            got = self.place_bounds[key] = self._relaxed_bound([combo[i]], key[2], 0)
        return got

    def _pattern_ruled_out(self, pattern) -> bool:
        """A pattern that frees jokers: can no turn of it beat the best found? A freed
        joker ends in a new set, and every set it could go into is listed from the whole
        table and rack (with two freed jokers: every set of the first, the second then
        anywhere, and every set holding both); each is bounded (the set fixed, the joker
        melds relaxed as the pattern says). When none beats the best, no place of the
        pattern is tried. Only where the lists are short (``PATTERN_SETS`` sets or fewer,
        as under a rack-tile minimum): each set is a solve."""
        if self.best is None:
            return False
        freed = [(i, s) for i, (stands, fate) in enumerate(pattern)
                 for s, taken in zip(stands, fate) if taken]
        if not 1 <= len(freed) <= 2:
            return False
        rack_left = self.rack_count.copy()
        if not self.rules.joker_replacement_from_table:
            for _, s in freed:
                rack_left[s] -= 1  # the rack's s takes the joker's place
        owns = [self.jmeld_index[i] for i, _ in freed]
        min_rack = self.rules.joker_reuse_min_rack_tiles
        # the first freed joker's set, the other (if any) anywhere; and both in one set
        lists = []
        for jokers in range(1, len(freed) + 1):
            sets = new_sets(jokers, self.rack_j, self.table_count, rack_left, min_rack,
                            self.melds_of, frozenset(owns[:jokers]),
                            limit=PATTERN_SETS - sum(len(x) for _, x in lists))
            if sets is None:
                return False  # too many to bound one by one
            lists.append((jokers, list(sets)))
        best = self._best_weight()
        for jokers, sets in lists:
            for new in sets:
                if self._late():
                    return False
                place = _Place(new.tiles, new.use, Counter(), new.rack_jokers, 0)
                if self._relaxed_bound([place], pattern, jokers) > best:
                    return False
        return True

    def _set_ruled_out(self, combo, place, jokers) -> bool:
        """Does the new set's bound (below) rule it out? Asked only where
        ``SET_BOUND_ALIKE`` or more deferred places share the pattern: the bound costs a
        solve of its own, and pays when many places read it."""
        if self.best is None or self.alike[tuple(
                p.pattern for p in combo[:len(self.jmelds)])] < SET_BOUND_ALIKE:
            return False
        return self._set_bound(combo, place, jokers) <= self._best_weight()

    def _set_bound(self, combo, place, jokers) -> int:
        """The most weight a turn could lay with the new set ``place`` holding ``jokers``
        freed jokers, every joker meld relaxed as the combination's pattern says: an upper
        bound for every combination of that pattern with that set, asked once for all."""
        patterns = tuple(p.pattern for p in combo[:len(self.jmelds)])
        fixed = combo[len(self.jmelds):] + [place]
        key = (patterns, jokers) + tuple(
            (p.tiles, tuple(sorted(p.use.items())), tuple(sorted(p.rack_only.items())),
             p.rack_jokers) for p in fixed)
        got = self.set_bounds.get(key)
        if got is None:
            got = self.set_bounds[key] = self._relaxed_bound(fixed, patterns, jokers)
        return got

    def _relaxed_bound(self, fixed, patterns, freed_used) -> int:
        """The most weight a turn could lay with the places ``fixed`` as they are and the
        joker melds of ``patterns`` relaxed (a staying joker counts as its tile, a freed one
        goes anywhere; ``freed_used`` of the freed ones lie in the fixed places already).
        Each fixed place takes the table's copies of its tiles first, which never lays
        fewer rack tiles. A bound at or below the best found when it was asked is given as
        that best."""
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
        best = self._best_weight()
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

    def _answer(self, proven: bool) -> Move:
        if self.best is None or not self.best.placed:
            return draw_move(self.table, self.rack, proven)
        return with_steps(self.best, self.table, self.rack, self.rules, self.best_verdict,
                           proven)

    def _frozen(self) -> None:
        """The turn that leaves every meld holding a joker as it lies and solves the rest
        exactly: always legal when the rest can be laid, and the floor for the search."""
        combo = []
        for m in self.jmelds:
            use = Counter(t for t in m if not t.is_joker)
            combo.append(_Place(tuple(m.tiles), use, Counter(), 0, 0))
        if self._fits(combo):
            self._solve(combo, 0, self.rack_j)  # one solve, tried whatever the time limit

    def _best_weight(self) -> int:
        """The weight of the best turn found (memoised: it is asked after every solve)."""
        if self.best is not self._weighed[0]:
            self._weighed = (self.best, self._weight(self.best.placed))
        return self._weighed[1]

    def _weight(self, placed) -> int:
        count, points = move_value(placed, self.rules)
        return count * BIG + points

    def _patterns(self, meld: Meld) -> list:
        slots = [p for p, t in enumerate(meld) if t.is_joker]
        readings = {tuple(r.stands_for[p] for p in slots) for r in meld_readings(meld, self.rules)}
        fates = list(itertools.product((False, True), repeat=len(slots)))
        return [(stands, fate) for stands in sorted(readings, key=str) for fate in fates]

    def _relaxed(self, pattern):
        """(bound, melds with each staying joker as its tile) for a pattern, or None when no
        turn of it exists."""
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
        floor = None if self.best is None else self._best_weight() - extra
        value, melds = _lay_valued(n, must, avail, weight, freed, self.rack_j, wj, floor,
                                   self.leaning)
        if value is None:
            return None
        return value + extra, melds

    def _realize(self, pattern, melds) -> bool:
        """Turn a pattern's relaxed answer into a turn (each staying joker back in a meld
        holding its tile, beside a tile of its old meld where it can) and judge it."""
        if melds is None:
            return False
        laid = [list(m.tiles) for m in melds]
        for (stands, fate), old in zip(pattern, self.jmelds):
            own = {t for t in old if not t.is_joker}
            for s, taken in zip(stands, fate):
                if taken:
                    continue
                spots = [(i, p) for i, m in enumerate(laid) for p, t in enumerate(m) if t == s]
                if not spots:
                    return False
                spots.sort(key=lambda ip: not (own & set(laid[ip[0]])))
                i, p = spots[0]
                laid[i][p] = JOKER
        after = Table(laid)
        placed, remaining = split_rack(after.melds, self.table.tiles, self.rack)
        if self.best is not None and self._weight(placed) <= self._best_weight():
            return False
        verdict = check_turn(self.table, after, self.rack, rules=self.rules, reasons=False)
        if not verdict.legal:
            return False
        self.best = Move(placed, after, move_value(placed, self.rules)[1], remaining)
        self.best_verdict = verdict
        return True

    # candidates ---------------------------------------------------------------------------

    def _places(self, meld: Meld) -> list[_Place]:
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
                    key = (place.tiles, tuple(sorted(place.use.items())), place.pattern)
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

    def _fill(self, tiles, stay, swap, must_hold):
        """A _Place for the meld ``tiles`` (in order), or None if the tiles are not there."""
        use, rack_only = Counter(), Counter()
        laid, rack_jokers = [], 0
        for t in tiles:
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
        return _Place(tuple(laid), use, rack_only, rack_jokers, len(swap))

    def _fits(self, combo) -> bool:
        use = Counter()
        for p in combo:
            use.update(p.use)
            use.update(p.rack_only)
        if any(self.table_count[t] + self.rack_count[t] < n for t, n in use.items()):
            return False
        rack_only = Counter()
        for p in combo:
            rack_only.update(p.rack_only)
        if any(self.rack_count[t] < n for t, n in rack_only.items()):
            return False
        return sum(p.rack_jokers for p in combo) <= self.rack_j

    def _bound(self, combo) -> tuple[int, int]:
        """Rack tiles (and points) the combo could lay at most: the places' own rack tiles
        and every rack tile left."""
        use = Counter()
        for p in combo:
            use.update(p.use)
            use.update(p.rack_only)
        left = self.rack_count.copy()
        from_rack = sum(p.rack_jokers for p in combo)
        for t, n in use.items():
            extra = max(0, n - self.table_count[t])
            left[t] -= extra
        tiles = sum(left.values()) + self.rack_j
        points = sum(t.number * n for t, n in left.items()) \
            + self.rack_j * self.rules.joker_penalty
        placed_in = sum(max(0, n - self.table_count[t]) for t, n in use.items())
        placed_points = sum(t.number * max(0, n - self.table_count[t]) for t, n in use.items())
        return (tiles + placed_in - (self.rack_j - from_rack) + (self.rack_j - from_rack),
                points + placed_points)

    # solving the rest -----------------------------------------------------------------------

    def _late(self) -> bool:
        """Past the CPU-time limit: the search stops and the hint is the best found."""
        if time.process_time() > self.deadline:
            self.cut = True
        return self.cut

    def _try(self, combo) -> None:
        """Lay the rest of the table for these places, freed jokers anywhere; when that
        puts a freed joker where the rules forbid, lay it in each new set it could go into
        (:mod:`referee.newsets`) and solve the rest again."""
        if self._late():
            return
        self.tries += 1
        freed = sum(p.freed for p in combo)
        opt_j = self.rack_j - sum(p.rack_jokers for p in combo)
        got = self._solve(combo, freed, opt_j)
        if got is None or got[1] or not freed:
            return
        bound = self._weight(got[0])  # freed jokers anywhere: the most this combo lays
        own = [i for p, i in zip(combo, self.jmeld_index) for _ in range(p.freed)]
        if freed == 1:
            pairs = [(1, frozenset(own))]
        else:
            pairs = [(2, frozenset(own)), (1, frozenset(own[:1])), (1, frozenset(own[1:]))]
        # the new sets are tried once every place has had its cheap try, best bound first
        self.deferred.append((bound, self.tries, list(combo), pairs, opt_j))

    def _settle_deferred(self) -> tuple[int, int]:
        """Lay the freed jokers of the deferred places in new sets, best bound first; the
        bound left unsettled when time runs out."""
        # how many deferred places share each pattern: a set's bound serves them all
        self.alike = Counter(tuple(p.pattern for p in d[2]) for d in self.deferred)
        for bound, tried, combo, pairs, opt_j in sorted(self.deferred,
                                                        key=lambda d: (-d[0], d[1])):
            if self.best is not None and self._best_weight() >= bound:
                break
            if tried in self.settled:
                continue  # all its new sets were tried by an earlier call: nothing new
            if self._late() or (self._new_sets(combo, pairs, opt_j, bound) and self.cut):
                return bound // BIG, bound % BIG
            self.settled.add(tried)
        return 0, 0

    def _new_sets(self, combo, pairs, opt_j, bound) -> bool:
        """Lay freed jokers in new sets: ``pairs`` lists (jokers, their own melds) to place,
        first all in one set, then (two jokers from two melds) one set each. True once a
        turn reaching ``bound`` is found or time ran out."""
        jokers, own = pairs[0]
        table_left, rack_left = self._left(combo)
        for new in new_sets(jokers, opt_j, table_left, rack_left,
                            self.rules.joker_reuse_min_rack_tiles, self.melds_of, own):
            if self._late() or (self.best is not None
                                and self._best_weight() >= bound):
                return True
            place = _Place(new.tiles, new.use, Counter(), new.rack_jokers, 0)
            if self._set_ruled_out(combo, place, jokers):
                continue  # no turn of this pattern with this set beats the best
            got = self._solve(combo + [place], 0, opt_j - new.rack_jokers)
            if got is None or got[1] or (self.best is not None and self._weight(got[0])
                                         <= self._best_weight()):
                continue  # laid, or no better than the best: the same set from the rack is not
            # the same set with every tile the rack has from the rack (a rack-tile minimum)
            strict = Counter({t: n for t, n in new.use.items() if rack_left[t] > 0})
            if not strict:
                continue
            place = _Place(new.tiles, new.use - strict, strict, new.rack_jokers, 0)
            got = self._solve(combo + [place], 0, opt_j - new.rack_jokers)
            if (got is None or not got[1]) and sum(1 for t in strict if table_left[t] > 0) >= 2:
                # some tiles from the rack, some from the table: not tried
                self.untried = max(self.untried, bound)
        if len(pairs) == 3:
            # two jokers, each in its own new set
            return self._two_sets(combo, pairs[1:], opt_j, bound)
        return False

    def _two_sets(self, combo, pairs, opt_j, bound) -> bool:
        (_, own1), (_, own2) = pairs
        table_left, rack_left = self._left(combo)
        min_rack = self.rules.joker_reuse_min_rack_tiles
        for first in new_sets(1, opt_j, table_left, rack_left, min_rack, self.melds_of, own1):
            place1 = _Place(first.tiles, first.use, Counter(), first.rack_jokers, 0)
            if self._late():
                return True
            # the second joker anywhere bounds every second set: one solve can rule out
            # all of them (and one relaxed solve, for every combination of the pattern)
            if self._set_ruled_out(combo, place1, 1):
                continue
            got = self._solve(combo + [place1], 1, opt_j - first.rack_jokers)
            if got is None or (self.best is not None
                               and self._weight(got[0]) <= self._best_weight()):
                continue
            left_t, left_r = self._left(combo + [place1])
            for second in new_sets(1, opt_j - first.rack_jokers, left_t, left_r, min_rack,
                                   self.melds_of, own2):
                if self._late() or (self.best is not None
                                    and self._best_weight() >= bound):
                    return True
                place2 = _Place(second.tiles, second.use, Counter(), second.rack_jokers, 0)
                if self._set_ruled_out(combo, place2, 1):
                    continue  # this set with the first joker anywhere: no better turn
                got = self._solve(combo + [place1, place2], 0,
                                  opt_j - first.rack_jokers - second.rack_jokers)
                if got is not None and not got[1] and (
                        self.best is None
                        or self._weight(got[0]) > self._best_weight()) and any(
                        table_left[t] and rack_left[t] for t in first.use + second.use):
                    # the same sets with tiles from the rack instead are not tried
                    self.untried = max(self.untried, bound)
        return False

    def _left(self, combo):
        """(table, rack) copies of each tile the places leave free."""
        use, rack_only = Counter(), Counter()
        for p in combo:
            use.update(p.use)
            rack_only.update(p.rack_only)
        table_left, rack_left = Counter(), Counter()
        for t in set(self.table_count) | set(self.rack_count):
            tc, rc = self.table_count[t], self.rack_count[t]
            table_left[t] = max(0, tc - use[t])
            rack_left[t] = rc - rack_only[t] - max(0, use[t] - tc)
        return table_left, rack_left

    def _solve(self, combo, freed, opt_j):
        """Lay the rest exactly for these places (``freed`` jokers to place anywhere,
        ``opt_j`` rack jokers that may be laid) and judge the turn: (placed, legal) or None
        when the rest cannot be laid."""
        if opt_j < 0:
            return None
        n = MAX_NUMBER
        weight, wj = rack_weights(n, self.rules)
        tc, rc = self.table_cells, self.rack_cells
        use: dict = {}
        rack_only: dict = {}
        own = 0  # what the places' own rack tiles weigh
        for p in combo:
            cells_use, cells_rack = _place_cells(p)
            for cell, k in cells_use:
                use[cell] = use.get(cell, 0) + k
            for cell, k in cells_rack:
                rack_only[cell] = rack_only.get(cell, 0) + k
            own += p.rack_jokers * wj
        must = tc[:]
        avail = [a + b for a, b in zip(tc, rc)]
        for cell in use.keys() | rack_only.keys():
            u, r = use.get(cell, 0), rack_only.get(cell, 0)
            must[cell] = max(0, tc[cell] - u)
            avail[cell] -= u + r
            if avail[cell] < must[cell]:
                return None
            own += (r + max(0, u - tc[cell])) * weight[cell // NCOL][0]
        # Places of different joker melds, the same set from a run's either end, or two new
        # sets in either order often leave the very same rest: it is solved once. (Its
        # floor below depends on the rest and the best found only.)
        key = (tuple(must), tuple(avail), freed, opt_j)
        floor = None
        if self.best is not None:
            # only a turn better than the best found matters: the search is asked for more
            # than the best's weight less what the places' own rack tiles bring
            floor = self._best_weight() - own
        known = self.solved.get(key)
        if known is not None and (known[1] is not None or known[0] is None or (
                floor is not None and floor >= known[0])):
            melds = known[1]  # the best melds, or none worth more than this floor
        else:
            melds = None
            must = [must[i:i + NCOL] for i in range(0, n * NCOL, NCOL)]
            avail = [avail[i:i + NCOL] for i in range(0, n * NCOL, NCOL)]
            if not _dead_must(n, must, avail, freed + opt_j):
                avail = _prune_optional(n, must, avail, freed + opt_j)
                melds = _lay(n, must, avail, weight, freed, opt_j, wj, floor, self.leaning)
            self.solved[key] = (floor, melds)
        if melds is None:
            return None
        after = Table([Meld(p.tiles) for p in combo] + list(melds))
        placed, remaining = split_rack(after.melds, self.table.tiles, self.rack)
        if self.best is not None and self._weight(placed) <= self._best_weight():
            return placed, False  # no better than the best: not worth judging
        verdict = check_turn(self.table, after, self.rack, rules=self.rules, reasons=False)
        if not verdict.legal:
            return placed, False
        self.best = Move(placed, after, move_value(placed, self.rules)[1], remaining)
        self.best_verdict = verdict
        return placed, True


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
