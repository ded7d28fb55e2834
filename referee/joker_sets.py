"""The hint search's freed jokers laid in new sets (:mod:`referee.joker_hints`).

A joker exchanged in a place must end the turn in a new set, which the exact search of the
rest cannot see (it knows no origins). A place whose best rest puts a freed joker elsewhere
is kept aside (deferred); once every place has had that cheap try, each kept place, best
bound first, lays its freed jokers in every new set they could go into
(:mod:`referee.newsets`: one set each, or two jokers in one set) and solves the rest again,
its tiles taken from the table where it can and, if that is not legal, from the rack where it
can; a set needing some of each is not tried, and its bound stays unsettled (``untried``)."""

from __future__ import annotations

from collections import Counter

from .joker_places import Place
from .newsets import new_sets
from .search import BIG


class NewSets:
    """The new-set steps of :class:`referee.joker_hints.JokerSearch`, which holds the state
    they read and write: the deferred places (``deferred``: (bound, try number, places,
    (jokers, their own melds) to place, rack jokers left)), ``alike``, ``settled``, the best
    turn (``best``, ``_best_weight``), ``untried``, and the solve of a rest (``_solve``)."""

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
            if self._proven(tuple(p.pattern for p in combo[:len(self.jmelds)])):
                continue  # no turn of its pattern beats the best (joker_proof)
            if self._late() or (self._new_sets(combo, pairs, opt_j, bound) and self.cut):
                return bound // BIG, bound % BIG
            self.settled.add(tried)
        return 0, 0

    def _new_sets(self, combo, pairs, opt_j, bound) -> bool:
        """Lay freed jokers in new sets: ``pairs`` lists (jokers, their own melds) to place:
        two jokers from two melds first one set each, then both in one set (or the one
        joker in its set). True once a turn reaching ``bound`` is found or time ran out.
        Two sets first: on the full referee bench's fJ#177 the sets holding both jokers
        (most ending without a state, each a rest set up) took 46 ms before its best turn,
        two sets, was found; a turn reaching the bound among the two sets ends the place
        at once. Which of equally good turns comes back may differ with the order."""
        if len(pairs) == 3 and self._two_sets(combo, pairs[1:], opt_j, bound):
            return True
        jokers, own = pairs[0]
        table_left, rack_left = self._left(combo)
        for new in new_sets(jokers, opt_j, table_left, rack_left,
                            self.rules.joker_reuse_min_rack_tiles, self.melds_of, own,
                            memo=self.apart):
            if self._late() or (self.best is not None
                                and self._best_weight() >= bound):
                return True
            place = Place(new.tiles, new.use, Counter(), new.rack_jokers, 0)
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
            place = Place(new.tiles, new.use - strict, strict, new.rack_jokers, 0)
            got = self._solve(combo + [place], 0, opt_j - new.rack_jokers)
            if (got is None or not got[1]) and sum(1 for t in strict if table_left[t] > 0) >= 2:
                # some tiles from the rack, some from the table: not tried
                self.untried = max(self.untried, bound)
        return False

    def _two_sets(self, combo, pairs, opt_j, bound) -> bool:
        (_, own1), (_, own2) = pairs
        table_left, rack_left = self._left(combo)
        min_rack = self.rules.joker_reuse_min_rack_tiles
        # the first joker's sets shortest first (of one length, as listed: the most tiles
        # the rack could give first): a short set leaves the rest more tiles to lay. On the
        # full referee bench's fJ#177 the best turn's first set, B10 J B12, came after
        # about 200 runs of four to ten tiles, none of which could beat the best
        # (about 110 -> 80 ms)
        for first in new_sets(1, opt_j, table_left, rack_left, min_rack, self.melds_of, own1,
                              memo=self.apart, shortest=True):
            place1 = Place(first.tiles, first.use, Counter(), first.rack_jokers, 0)
            # a turn reaching the place's bound ends its sets (no first set beats it either)
            if self._late() or (self.best is not None and self._best_weight() >= bound):
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
                                   self.melds_of, own2, memo=self.apart):
                if self._late() or (self.best is not None
                                    and self._best_weight() >= bound):
                    return True
                place2 = Place(second.tiles, second.use, Counter(), second.rack_jokers, 0)
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
