"""The hint search with each meld holding a joker given its place after the turn explicitly:
patterns best bound first, places closest to the melds as they lie first, freed jokers laid
in every new set they could go into (see :mod:`referee.hints` for the whole method). The
places are listed by :mod:`referee.joker_places`, the bounds that skip work solved by
:mod:`referee.joker_bounds`, the freed jokers laid in new sets by :mod:`referee.joker_sets`,
and the patterns proven unable to beat the best by their new sets by
:mod:`referee.joker_proof`."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from typing import Optional

from .joker_bounds import Bounds
from .joker_meeting import MeetingPlaces
from .joker_places import Place, a_joker_stays, cells_of, place_cells
from .joker_proof import PatternProof
from .joker_sets import NewSets
from .move import Move, draw_move, move_value, split_rack, with_steps
from .newsets import new_sets
from .opening import rack_weights
from .rules import Rules
from .search import BIG, MAX_NUMBER, NCOL, Leaning, _lay, _prune_cells
from .tiles import JOKER, Meld, Table
from .turns import TurnVerdict, check_turn

#: places of each pattern tried before any pattern's other places
FIRST_PASS_PLACES = 6
#: a place's own bound is solved for when this many combinations to try hold it (10, not 4,
#: since a pattern's meeting places come first: the best turn found sooner, a place shared
#: by a few combinations is cheaper tried than bounded; on the full referee bench's fJ#18
#: about 120 -> 100 ms, 2-24 tried)
PLACE_BOUND_SHARED = 10
#: a new set's own bound is solved for when this many deferred places share a pattern
SET_BOUND_ALIKE = 3
#: a pattern's freed joker is bounded set by set when it has this many new sets or fewer
PATTERN_SETS = 100


class JokerSearch(NewSets, PatternProof):
    """One hint: the best legal turn for ``rack_tiles`` on ``table`` under ``rules`` when
    the free move (``free``, jokers anywhere: the upper bound) is not legal, searched until
    the CPU-time ``deadline``."""

    def __init__(self, table: Table, rack_tiles, rules: Rules, free: Move, deadline: float,
                 leaning: Optional[Leaning] = None):
        self.table, self.rack, self.rules = table, tuple(rack_tiles), rules
        self.bound = move_value(free.placed, rules)
        self.table_count = Counter(t for t in table.tiles if not t.is_joker)
        self.rack_count = Counter(t for t in rack_tiles if not t.is_joker)
        self.rack_j = sum(1 for t in rack_tiles if t.is_joker)
        self.jmelds = [m for m in table if any(t.is_joker for t in m)]
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
        #: whether tiles only the table has can come from different melds (new sets)
        self.apart: dict = {}
        self.deadline = deadline
        self.cut = False
        self.tries = 0
        self.deferred: list = []
        self.untried = 0  # the best bound of a new set whose mixed sources were not tried
        self.best: Optional[Move] = None
        self.best_verdict: Optional[TurnVerdict] = None
        self._weighed: tuple = (None, 0)
        # the tiles of the table and of the rack, by search cell (number - 1) * NCOL + colour
        self.table_cells = cells_of(self.table_count)
        self.rack_cells = cells_of(self.rack_count)
        # what a rack tile and a rack joker weigh (read, never changed, by every solve)
        self.weight, self.wj = rack_weights(MAX_NUMBER, rules)
        self.cell_weight = [self.weight[at // NCOL][0] for at in range(MAX_NUMBER * NCOL)]
        #: every tile of the table and the rack by cell, and what the rack's tiles weigh
        self.all_cells = [a + b for a, b in zip(self.table_cells, self.rack_cells)]
        self.rack_weight = sum(k * w for k, w in zip(self.rack_cells, self.cell_weight))
        # the rests are alike: the faster reading stays faster; first, the one starting from
        # the end with fewer tiles
        fewer = Leaning.fewer_first(MAX_NUMBER, [
            [a + b for a, b in zip(self.table_cells[i:i + NCOL], self.rack_cells[i:i + NCOL])]
            for i in range(0, MAX_NUMBER * NCOL, NCOL)])
        # the free move's memo, when given (its rests come first in the series)
        self.leaning = leaning if leaning is not None else fewer
        self.leaning.reverse, self.leaning.even = fewer.reverse, False
        #: the rest of the table solved so far: (floor asked, its best melds or None)
        self.solved: dict = {}
        self.places = MeetingPlaces(rules, self.table_count, self.rack_count, self.rack_j)
        self.bounds = Bounds(rules, self.table_count, self.rack_count, self.rack_j,
                             self.leaning)
        self.alike: Counter = Counter()
        self.settled: set = set()  # deferred places whose new sets were all tried
        self.proven: set = set()  # patterns no turn of which beats the best (joker_proof)
        self.proof_tried: dict = {}
        self.apart_with: dict = {}
        self.proof_lists: dict = {}
        self.proof_witness: dict = {}
        self._options = None  # the places of each joker meld, listed once

    def run(self) -> Move:
        # A pattern says, for each meld holding a joker, what its jokers stand for and which
        # of them stay. Each pattern's relaxed search (a joker that stays counts as the tile
        # it stands for, wherever it lies; a freed joker goes anywhere) bounds every turn of
        # that pattern, and its answer is often a legal turn already.
        top = self.bound[0] * BIG + self.bound[1]
        self._frozen()
        if self.best is not None and self._best_weight() >= top:
            return self._answer(True)
        per_meld = [self.places.patterns(m) for m in self.jmelds]
        bounds = []
        # jokers that stay first: their relaxed answers are the likeliest legal turns
        for pattern in sorted(itertools.product(*per_meld),
                              key=lambda p: sum(sum(f) for _, f in p)):
            if self._late():
                break
            got = self.bounds.pattern(pattern, None if self.best is None
                                      else self._best_weight())
            if got is None:
                continue
            bounds.append((got[0], pattern, got[1]))
            if self._realize(pattern, got[1], first=True) and self._best_weight() >= top:
                return self._answer(True)
        # then, for the relaxed answers whose first form was not legal, their other forms (a
        # staying joker at another copy of its tile): each only if it still beats the best
        for _, pattern, melds in sorted(bounds, key=lambda x: x[0], reverse=True):
            if not self._late() and self._realize(pattern, melds, first=False) \
                    and self._best_weight() >= top:
                return self._answer(True)
        bounds.sort(key=lambda x: x[0], reverse=True)
        options = None
        # the bound of each pattern whose places were tried (or skipped) without covering
        # every turn (two jokers: see the module's notes), unless its new sets prove it
        unproven = {}
        later = []  # (bound, places not tried yet) of each pattern, for a second pass
        for bound, pattern, _ in bounds:
            if self.best is not None and self._best_weight() >= bound:
                break
            # (its relaxed answer was realized in the loop above: a legal one is the best or
            # below it, and one with no legal form has none now; asked again it said no)
            if self._pattern_ruled_out(pattern):
                if not self.complete:
                    unproven[pattern] = bound
                continue
            if options is None:
                options = self._options = self._options or [self.places.of(m)
                                                            for m in self.jmelds]
            # (the product of each meld's places of its pattern: the same combinations, in
            # the same order, as the product of all places filtered by pattern)
            combos = [c for c in itertools.product(*(
                [p for p in places if p.pattern == own] for places, own in zip(options, pattern)))
                if self.places.fits(c)]
            # places closest to the melds as they lie first; a few of each pattern in the
            # first pass, so that every pattern gets its likeliest places early
            combos.sort(key=lambda c: sum(abs(len(p.tiles) - len(m)) for p, m in
                                          zip(c, self.jmelds)))
            later.append((bound, pattern, combos[FIRST_PASS_PLACES:]))
            self._places_up_to(combos[:FIRST_PASS_PLACES], bound, pattern)
            if not self.complete:
                unproven[pattern] = bound
        unsettled = self._settle_deferred()
        for bound, pattern, combos in later:
            # the places where the two joker melds meet (one place for both, or a freed
            # joker in the other meld's place), which the product of places leaves out:
            # listed only for a pattern still open, and not where its new sets prove it.
            # Before the pattern's other places: on the full referee bench's fJ#18 its best
            # turn is one (a freed joker in the other meld's place), and found first it
            # rules out most of the others by their bounds (about 150 -> 120 ms)
            if len(self.jmelds) == 2 and not self._late() and pattern not in self.proven and (
                    self._best_weight() < bound if self.best is not None else True) and not (
                    any(f for _, fate in pattern for f in fate) and self._proven(pattern)):
                self._places_up_to(self._meeting(pattern), bound, pattern)
            self._places_up_to(combos, bound, pattern)
        unsettled = max(unsettled, self._settle_deferred(),
                        (self.untried // BIG, self.untried % BIG))
        got = move_value(self.best.placed, self.rules) if self.best is not None else (0, 0)
        if self.cut or got < unsettled:
            return self._answer(False)
        # the places of two joker melds do not cover every turn: each such pattern whose
        # bound the best does not reach is proven by its new sets (joker_proof); every other
        # pattern's bound, a staying joker counted as a third copy of its tile included
        # (joker_bounds), is at most the best
        left = [p for p, b in unproven.items() if got < (b // BIG, b % BIG)]
        # one that is not is enough: a pattern whose proof failed for this best already
        # (or cannot be tried) is asked first, at no cost, before the proofs that are solves
        left.sort(key=self._may_prove)
        return self._answer(all(self._proven(p) for p in left))

    def _meeting(self, pattern) -> list:
        """The combinations of places of two joker melds that meet: one place for both
        (:meth:`MeetingPlaces.merged`, the other meld's place then empty), or a freed joker of one
        meld in the other's place, its new set (:meth:`MeetingPlaces.borrowing`), one way or both."""
        if len(self.jmelds) != 2:
            return []
        (mx, my), (px, py) = self.jmelds, pattern
        (ix, iy) = self.jmeld_index
        out = [(p, Place((), Counter(), Counter(), 0, 0, pattern=py))
               for p in self.places.merged(mx, my, px, py)]
        frees_x, frees_y = any(px[1]), any(py[1])
        if not (frees_x or frees_y):
            return [c for c in out if self.places.fits(c)]
        if self._options is None:
            self._options = [self.places.of(m) for m in self.jmelds]
        plain_x = [p for p in self._options[0] if p.pattern == px]
        plain_y = [p for p in self._options[1] if p.pattern == py]
        lend_x = self.places.borrowing(mx, px, ix, iy, self.melds_of) if frees_y else []
        lend_y = self.places.borrowing(my, py, iy, ix, self.melds_of) if frees_x else []
        out += [(a, b) for a in plain_x for b in lend_y]
        out += [(a, b) for a in lend_x for b in plain_y]
        out += [(a, b) for a in lend_x for b in lend_y]
        return [c for c in out if self.places.fits(c)]

    def _places_up_to(self, combos, bound, pattern) -> None:
        """Try these places (of ``pattern``) until a turn reaches ``bound``, the pattern is
        proven unable to beat the best (:mod:`referee.joker_proof`: tried before each
        deferred place's new sets, which cost far more than a place) or time runs out."""
        shared = Counter((i, id(p)) for c in combos for i, p in enumerate(c))
        for combo in combos:
            if self.best is not None and self._best_weight() >= bound:
                return
            if self._late() or pattern in self.proven:
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
        if self.best is None or len(combo) < 2 or any(p.merged for p in combo):
            return False
        best = self._best_weight()
        # the bounds known first (free); then those worth a solve, a place that frees a
        # joker first: the other meld, relaxed, then only keeps its jokers, which relaxes
        # least (the reverse leaves a freed joker free to go anywhere)
        unknown = []
        for i in range(len(combo)):
            if self.bounds.place_known(combo, i, best):
                if self.bounds.place(combo, i, best) <= best:
                    return True
            elif shared[(i, id(combo[i]))] >= PLACE_BOUND_SHARED:
                unknown.append(i)
        unknown.sort(key=lambda i: -combo[i].freed)
        return any(self.bounds.place(combo, i, best) <= best for i in unknown)

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
        freed, rack_left, owns = self._freed(pattern)
        if not 1 <= len(freed) <= 2:
            return False
        min_rack = self.rules.joker_reuse_min_rack_tiles
        # a joker that stays may lie in the set, as its tile (the other meld's place)
        table_left, melds_of, memo = self._set_sources(pattern)
        stays_first = a_joker_stays(pattern)
        # the first freed joker's set, the other (if any) anywhere; and both in one set
        lists = []
        for jokers in range(1, len(freed) + 1):
            sets = new_sets(jokers, self.rack_j, table_left, rack_left, min_rack,
                            melds_of, frozenset(owns[:jokers]),
                            limit=PATTERN_SETS - sum(len(x) for _, x in lists),
                            memo=memo)
            if sets is None:
                return False  # too many to bound one by one
            lists.append((jokers, list(sets)))
        best = self._best_weight()
        for jokers, sets in lists:
            for new in sets:
                if self._late():
                    return False
                place = Place(new.tiles, new.use, Counter(), new.rack_jokers, 0)
                if self.bounds.of_sets(pattern, [place], jokers, best, stays_first) > best:
                    if jokers == len(freed):  # it fails a proof too (joker_proof)
                        self.proof_witness[pattern] = (jokers, (place,))
                    return False
        return True

    def _set_ruled_out(self, combo, place, jokers) -> bool:
        """Does the new set's bound (:meth:`Bounds.new_set`) rule it out? Asked only where
        ``SET_BOUND_ALIKE`` or more deferred places share the pattern: the bound costs a
        solve of its own, and pays when many places read it."""
        if self.best is None or self.alike[tuple(
                p.pattern for p in combo[:len(self.jmelds)])] < SET_BOUND_ALIKE:
            return False
        best = self._best_weight()
        return self.bounds.new_set(combo, len(self.jmelds), place, jokers, best) <= best

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
            combo.append(Place(tuple(m.tiles), use, Counter(), 0, 0))
        if self.places.fits(combo):
            self._solve(combo, 0, self.rack_j)  # one solve, tried whatever the time limit

    def _best_weight(self) -> int:
        """The weight of the best turn found (memoised: it is asked after every solve)."""
        if self.best is not self._weighed[0]:
            self._weighed = (self.best, self._weight(self.best.placed))
        return self._weighed[1]

    def _weight(self, placed) -> int:
        count, points = move_value(placed, self.rules)
        return count * BIG + points

    def _realize(self, pattern, melds, first: bool) -> bool:
        """Turn a pattern's relaxed answer into a turn (each staying joker back in a meld
        holding its tile, beside a tile of its old meld where it can, else at another copy of
        its tile) and judge it; the first legal one is kept. ``first``: only the first form
        (``run`` asks for the others after every pattern's first); else only the others."""
        if melds is None:
            return False
        laid = [list(m.tiles) for m in melds]
        # each staying joker's spots: the copies of its tile laid, beside a tile of its old
        # meld first; where that turn is not legal, the joker at another copy may be. The
        # Sabra Way's K6 J J R6 + B6 B7 B8 R6 K6: the relaxed answer K6 B6 R6 | K6 O6 R6 |
        # B6 B7 B8 with both jokers in the groups splits a joker meld, which 004 forbids;
        # with the B6 joker in the run it is exchanged for the group's B6 first, after which
        # "the meld may be manipulated": J B7 B8 | K6 B6 R6 | K6 J R6, the whole rack
        choices = []
        for (stands, fate), old in zip(pattern, self.jmelds):
            own = {t for t in old if not t.is_joker}
            for s, taken in zip(stands, fate):
                if taken:
                    continue
                spots = [(i, p) for i, m in enumerate(laid) for p, t in enumerate(m) if t == s]
                if not spots:
                    return False
                spots.sort(key=lambda ip: not (own & set(laid[ip[0]])))
                choices.append(spots)
        placed = remaining = None
        picks = (p for p in itertools.product(*choices) if len(set(p)) == len(p))
        # (two jokers standing for one tile take two of its copies)
        picks = itertools.islice(picks, 1) if first else itertools.islice(picks, 1, None)
        for pick in picks:
            tried = [m[:] for m in laid]
            for i, p in pick:
                tried[i][p] = JOKER
            after = Table(tried)
            if placed is None:  # the same tiles whichever copy the joker takes
                placed, remaining = split_rack(after.melds, self.table.tiles, self.rack)
                if self.best is not None and self._weight(placed) <= self._best_weight():
                    return False
            verdict = check_turn(self.table, after, self.rack, rules=self.rules, reasons=False)
            if verdict.legal:
                self.best = Move(placed, after, move_value(placed, self.rules)[1], remaining)
                self.best_verdict = verdict
                return True
        return False

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
        own = self._still_freed(combo)
        freed = len(own)
        opt_j = self.rack_j - sum(p.rack_jokers for p in combo)
        got = self._solve(combo, freed, opt_j)
        if got is None or got[1] or not freed:
            return
        bound = self._weight(got[0])  # freed jokers anywhere: the most this combo lays
        if freed == 1:
            pairs = [(1, frozenset(own))]
        else:
            pairs = [(2, frozenset(own)), (1, frozenset(own[:1])), (1, frozenset(own[1:]))]
        # the new sets are tried once every place has had its cheap try, best bound first
        self.deferred.append((bound, self.tries, list(combo), pairs, opt_j))

    def _still_freed(self, combo) -> list:
        """The table meld of each freed joker of the places that is still to be laid (in a
        new set of the rest): not one that another joker meld's place holds (borrowed)."""
        own = []
        for p, i in zip(combo, self.jmeld_index):
            if p.merged:
                own += [self.jmeld_index[0]] * p.merged[0] + [self.jmeld_index[1]] * p.merged[1]
            else:
                own += [i] * p.freed
        for p, i in zip(combo, self.jmeld_index):
            for _ in range(p.borrowed):  # a freed joker of the other meld
                own.remove(next(j for j in own if j != i))
        return own

    def _solve(self, combo, freed, opt_j):
        """Lay the rest exactly for these places (``freed`` jokers to place anywhere,
        ``opt_j`` rack jokers that may be laid) and judge the turn: (placed, legal) or None
        when the rest cannot be laid."""
        if opt_j < 0:
            return None
        n = MAX_NUMBER
        weight, wj = self.weight, self.wj
        tc, rc = self.table_cells, self.rack_cells
        use: dict = {}
        rack_only: dict = {}
        own = 0  # what the places' own rack tiles weigh
        for p in combo:
            cells_use, cells_rack = place_cells(p)
            for cell, k in cells_use:
                use[cell] = use.get(cell, 0) + k
            for cell, k in cells_rack:
                rack_only[cell] = rack_only.get(cell, 0) + k
            own += p.rack_jokers * wj
        must = tc[:]
        avail = self.all_cells[:]
        cell_weight = self.cell_weight
        # what every optional tile laid weighs: the rack's tiles, less what the places take
        # (a cell the places leave alone has its rack tiles optional)
        spare = self.rack_weight
        for cell in use.keys() | rack_only.keys():
            u, r = use.get(cell, 0), rack_only.get(cell, 0)
            must[cell] = m = max(0, tc[cell] - u)
            avail[cell] = a = avail[cell] - u - r
            if a < m:
                return None
            w = cell_weight[cell]
            own += (r + max(0, u - tc[cell])) * w
            spare += (a - m - rc[cell]) * w
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
        elif floor is not None and opt_j * wj + spare <= floor:
            # every optional tile and joker laid would not beat the best: no search (the
            # search would stop at its first position and say so)
            melds = None
            self.solved[key] = (floor, melds)
        else:
            melds = None
            pruned = _prune_cells(n, must, avail, freed + opt_j)
            if pruned is not None:
                before, (avail, dropped) = avail, pruned
                for cell in dropped:
                    spare -= (before[cell] - avail[cell]) * cell_weight[cell]
                # the same test with the tiles that fit no meld dropped (``_lay`` would ask
                # it first and answer None): no grids are made for most of the rests
                if floor is None or opt_j * wj + spare > floor:
                    must = [must[i:i + NCOL] for i in range(0, n * NCOL, NCOL)]
                    avail = [avail[i:i + NCOL] for i in range(0, n * NCOL, NCOL)]
                    melds = _lay(n, must, avail, weight, freed, opt_j, wj, floor,
                                 self.leaning)
            self.solved[key] = (floor, melds)
        if melds is None:
            return None
        after = Table([Meld(p.tiles) for p in combo if p.tiles]
                      + [Meld(m) for p in combo for m in p.more] + list(melds))
        placed, remaining = split_rack(after.melds, self.table.tiles, self.rack)
        if self.best is not None and self._weight(placed) <= self._best_weight():
            return placed, False  # no better than the best: not worth judging
        verdict = check_turn(self.table, after, self.rack, rules=self.rules, reasons=False)
        if not verdict.legal:
            return placed, False
        self.best = Move(placed, after, move_value(placed, self.rules)[1], remaining)
        self.best_verdict = verdict
        return placed, True


