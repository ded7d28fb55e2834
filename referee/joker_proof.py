"""A pattern of the hint search (:mod:`referee.joker_hints`) proven unable to beat the best
turn found, by the new sets its freed jokers must end in.

A joker taken from its set ends the turn in a *new set* (:mod:`referee.newsets`). Every set
it could go into is listed from the whole table and rack, and each is bounded with the set
fixed and the joker melds relaxed as the pattern says (:meth:`Bounds.of_sets
<referee.joker_bounds.Bounds.of_sets>`). When no bound beats the best turn found, no turn of
the pattern does, whatever its places (the places the hint search tries leave out a
two-joker meld split between its staying joker and the tile that freed the other; the sets
do not). Which sets are listed:

* one freed joker: every set holding it (and maybe a rack joker). A joker of another meld
  that stays may lie in that set too: it is listed as the tile it stands for, from no meld
  of the table (it is no numbered tile of a meld, so it never makes two of one meld);
* two freed jokers (then none stays): every set holding both, every set of the first and
  every set of the second. A set of the first whose bound (the second joker anywhere) beats
  the best is paired with each such set of the second: a turn with the two jokers in those
  two sets is bounded by the pair, both fixed.

Each set is a solve (most end at once), so the proof is tried only where the lists are short
(``PROOF_SETS`` sets, ``PROOF_PAIRS`` pairs), and asked again for a pattern only once the best
turn found has grown.
"""

from __future__ import annotations

from collections import Counter

from .joker_places import Place, a_joker_stays
from .newsets import new_sets

#: the most new sets listed for one pattern's proof
PROOF_SETS = 200
#: the most pairs of sets bounded for one pattern's proof (two freed jokers)
PROOF_PAIRS = 400
#: the sets of each of two freed jokers paired first, before every set is bounded alone
PROBE = 4


class PatternProof:
    """The proof step of :class:`referee.joker_hints.JokerSearch`, which holds what it
    reads: the table (``table_count``, ``melds_of``, ``jmeld_index``), the rack
    (``rack_count``, ``rack_j``), the rules, the bounds (``bounds``), the best turn found
    (``best``, ``_best_weight``) and the time limit (``_late``). ``proven`` holds the
    patterns proven so far, ``proof_tried`` the best weight each pattern's last failed
    proof was asked for, ``proof_lists`` each pattern's new sets, ``proof_witness`` the
    sets that failed its last proof, ``apart_with`` the memo of
    :func:`~referee.newsets.new_sets` for the table with the staying jokers as tiles."""

    def _overfull(self, pattern) -> bool:
        """Does a joker that stays stand for a tile whose two copies are on the table and the
        rack already? Counted as that tile, it is a third copy, which the player may lay in a
        third group of its number. The exact search lays it so too (the pattern's bounds
        hold, and rule it out where they do not beat the best), but the proof's new sets
        were not checked for it: such a pattern is not proven by them."""
        seen: Counter = Counter()
        for stands, fate in pattern:
            for s, taken in zip(stands, fate):
                if not taken:
                    if self.table_count[s] + self.rack_count[s] + seen[s] >= 2:
                        return True
                    seen[s] += 1
        return False

    def _proven(self, pattern) -> bool:
        """Is no turn of ``pattern`` (it frees one joker or two) better than the best?
        Never for an overfull pattern (:meth:`_overfull`)."""
        if pattern in self.proven:
            return True
        if self.best is None or self._overfull(pattern):
            return False
        best = self._best_weight()
        if self.proof_tried.get(pattern, -1) >= best:
            return False  # failed already, and the best has not grown since
        self.proof_tried[pattern] = best
        if self._prove(pattern, best):
            self.proven.add(pattern)
            return True
        return False

    def _may_prove(self, pattern) -> bool:
        """Could :meth:`_proven` still say yes for ``pattern`` without being told no at once
        (proven already, or a proof to try)? False for an overfull pattern and one whose
        proof failed for the best found now."""
        if pattern in self.proven:
            return True
        return not (self.best is None or self._overfull(pattern)
                    or self.proof_tried.get(pattern, -1) >= self._best_weight())

    def _prove(self, pattern, best: int) -> bool:
        listed = self._proof_sets(pattern)
        if listed is None:
            return False
        # the sets whose bound beat the best last time first: they most often still do
        witness = self.proof_witness.get(pattern)
        if witness is not None and self._beats(pattern, *witness, best):
            return False
        two = len(listed) == 3
        if two:
            # every set holding both freed jokers; then a few pairs, the sets likeliest to
            # hold many rack tiles: a pair whose bound beats the best fails the proof
            # whatever the other sets (each of its sets alone bounds higher still), and most
            # failing proofs fail there at once
            for place in listed[0][1]:
                if self._beats(pattern, 2, (place,), best):
                    return False
            for first in listed[1][1][:PROBE]:
                for second in listed[2][1][:PROBE]:
                    if self._beats(pattern, 2, (first, second), best):
                        return False
        # every set alone: a set holding every freed joker must not beat the best; a set of
        # one of two freed jokers (the other anywhere) that does is kept for the pairs
        alive = []
        for jokers, sets in listed[1:] if two else listed:
            beats = []
            for place in sets:
                if self._late():
                    return False
                got = self.bounds.of_sets(pattern, [place], jokers, best,
                                          a_joker_stays(pattern))
                if got > best:
                    if not two:
                        self.proof_witness[pattern] = (jokers, (place,))
                        return False
                    beats.append((got, place))
            if not beats:
                return True  # every turn has the first (or second) joker in a set ruled out
            alive.append(beats)
        if not two:
            return True
        firsts, seconds = alive
        if len(firsts) * len(seconds) > PROOF_PAIRS:
            return False
        # the likeliest to beat the best first: a failing proof stops at once
        firsts.sort(key=lambda x: -x[0])
        seconds.sort(key=lambda x: -x[0])
        for _, first in firsts:
            for _, second in seconds:
                if self._late() or self._beats(pattern, 2, (first, second), best):
                    return False
        return True

    def _beats(self, pattern, jokers, places, best) -> bool:
        """Does the bound of these new sets beat the best? If so they are remembered as the
        pattern's witness, to be asked first next time."""
        stays = a_joker_stays(pattern)
        if self.bounds.of_sets(pattern, list(places), jokers, best, stays) > best:
            self.proof_witness[pattern] = (jokers, places)
            return True
        return False

    def _proof_sets(self, pattern):
        """The new sets of a pattern, listed once: [(freed jokers the sets hold, sets)],
        every set holding both first where the pattern frees two; None when the pattern
        frees none or more than two, or the lists are too long."""
        if pattern in self.proof_lists:
            return self.proof_lists[pattern]
        self.proof_lists[pattern] = listed = self._list_sets(pattern)
        return listed

    def _freed(self, pattern):
        """The jokers ``pattern`` frees (their meld's index, the tile each stands for), the
        rack left once the exchanges are made (from the rack unless the preset lets the table
        give the tile), and the joker melds the freed jokers come from."""
        freed = [(i, s) for i, (stands, fate) in enumerate(pattern)
                 for s, taken in zip(stands, fate) if taken]
        rack_left = self.rack_count.copy()
        if not self.rules.joker_replacement_from_table:
            for _, s in freed:
                rack_left[s] -= 1  # the rack's s takes the joker's place
        return freed, rack_left, [self.jmeld_index[i] for i, _ in freed]

    def _set_sources(self, pattern):
        """(tiles of the table, ``melds_of``, memo) for listing the new sets of ``pattern``:
        a joker that stays may share a freed joker's set (the other meld's place, where the
        two joker melds meet), so it is listed as the tile it stands for, from no meld."""
        stays = [s for stands, fate in pattern for s, taken in zip(stands, fate) if not taken]
        table_left, melds_of, memo = self.table_count, self.melds_of, self.apart
        if stays:
            table_left, melds_of = table_left.copy(), dict(melds_of)
            memo = self.apart_with.setdefault(tuple(stays), {})
            for k, s in enumerate(stays):
                table_left[s] += 1
                melds_of[s] = melds_of.get(s, frozenset()) | {-1 - k}
        return table_left, melds_of, memo

    def _list_sets(self, pattern):
        freed, rack_left, owns = self._freed(pattern)
        if not 1 <= len(freed) <= 2:
            return None
        table_left, melds_of, memo = self._set_sources(pattern)
        min_rack = self.rules.joker_reuse_min_rack_tiles
        if len(freed) == 2:
            lists = [(2, frozenset(owns)), (1, frozenset(owns[:1])), (1, frozenset(owns[1:]))]
        else:
            lists = [(1, frozenset(owns))]
        listed = []
        room = PROOF_SETS
        for jokers, own in lists:
            sets = new_sets(jokers, self.rack_j, table_left, rack_left, min_rack, melds_of,
                            own, limit=room, memo=memo)
            if sets is None:
                return None  # too many to bound one by one
            sets = [Place(new.tiles, new.use, Counter(), new.rack_jokers, 0) for new in sets]
            room -= len(sets)
            listed.append((jokers, sets))
        return listed
