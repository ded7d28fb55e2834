"""The proof of a pattern by its new sets (``referee.joker_proof``) keeps to its caps, and
never calls a pattern proven while a pair of sets it must bound beats the best.

The module's promise: "Each set is a solve (most end at once), so the proof is tried only
where the lists are short (``PROOF_SETS`` sets, ``PROOF_PAIRS`` pairs)"; ``PROOF_SETS`` is
"the most new sets listed for one pattern's proof", ``PROOF_PAIRS`` "the most pairs of sets
bounded for one pattern's proof (two freed jokers)"; and with two freed jokers "a set of the
first whose bound (the second joker anywhere) beats the best is paired with each such set of
the second: a turn with the two jokers in those two sets is bounded by the pair". So:

- a pattern whose lists hold more than ``PROOF_SETS`` sets in all is not listed for a proof
  (``_proof_sets`` answers None: "None when ... the lists are too long"), whichever list
  runs over;
- where the sets alive make more than ``PROOF_PAIRS`` pairs, the pairs are not bounded and
  the pattern is not proven (a pair left unbounded may beat the best: here one does); at
  most ``PROOF_PAIRS``, every pair is bounded, and where none beats the best the pattern is
  proven (each turn of it has its two jokers in two sets, or both in one, all ruled out).

The pairs are told apart with a stand-in for the bounds (``FakeBounds``): which sets and pairs
beat the best is set by the test, so that the proof's own logic is what is asked.
"""

import itertools

from referee import PRESETS, parse_table, parse_tiles
from referee.joker_hints import JokerSearch
from referee.joker_proof import PROBE, PROOF_PAIRS, PROOF_SETS, PatternProof
from referee.move import draw_move
from referee.newsets import new_sets

# A pattern freeing both jokers (every fate True: no joker stays), as the proof reads it.
TWO_FREED = (((None,), (True,)), ((None,), (True,)))


class FakeBounds:
    """``of_sets`` beating the best for every set alone and for the pairs in ``beating``,
    counting the pairs bounded."""

    def __init__(self, beating):
        self.beating = beating
        self.pairs = 0

    def of_sets(self, pattern, fixed, jokers, best, stays_first=False):
        if len(fixed) == 2:
            self.pairs += 1
            return best + 1 if tuple(fixed) in self.beating else best
        (place,) = fixed
        return best if place == "both" else best + 1


class Proof(PatternProof):
    def __init__(self, firsts, seconds, beating):
        self.bounds = FakeBounds(beating)
        self.proof_lists = {TWO_FREED: [(2, ["both"]), (1, firsts), (1, seconds)]}
        self.proof_witness = {}

    def _late(self):
        return False


def test_more_alive_pairs_than_the_cap_are_not_bounded_and_not_proven():
    # 21 x 20 = 420 pairs alive; one pair, past the first PROBE sets of each list (so not
    # among the probe's pairs), beats the best: the proof cannot hold, and it gives up
    # before bounding more than PROOF_PAIRS pairs
    firsts = [f"a{i}" for i in range(21)]
    seconds = [f"b{i}" for i in range(20)]
    assert len(firsts) * len(seconds) > PROOF_PAIRS
    proof = Proof(firsts, seconds, {("a20", "b19")})
    assert not proof._prove(TWO_FREED, 1000)
    assert proof.bounds.pairs <= PROBE * PROBE + PROOF_PAIRS


def test_as_many_alive_pairs_as_the_cap_are_all_bounded_and_prove_the_pattern():
    # 20 x 20 = PROOF_PAIRS pairs alive, none beating the best: each is bounded, the
    # pattern is proven
    firsts = [f"a{i}" for i in range(20)]
    seconds = [f"b{i}" for i in range(20)]
    assert len(firsts) * len(seconds) == PROOF_PAIRS
    proof = Proof(firsts, seconds, set())
    assert proof._prove(TWO_FREED, 1000)
    assert proof.bounds.pairs >= PROOF_PAIRS


def test_a_pattern_with_more_new_sets_than_the_cap_is_not_listed_for_a_proof():
    # sabra (no rack-tile minimum: a freed joker's new set may take table tiles). Both
    # jokers freed (R6 and K2 from the rack): 185 sets hold both, 57 and 60 the one or the
    # other -- each list under PROOF_SETS, together over it. Counted here with no limit.
    table = parse_table("R5 J R7 | B1 B2 B3 B4 | K6 K7 K8 | O9 O10 O11 | K1 J K3 | "
                        "R10 B10 K10 | O4 O5 O6 O7".split("|"))
    rack = parse_tiles("R6 B5 K9 O8 R1 R2 K2 B8 O12 R12")
    rules = PRESETS["sabra"]
    search = JokerSearch(table, rack, rules, draw_move(table, rack, False), float("inf"))
    pattern = tuple((stands, (True,)) for stands, _ in
                    (search.places.patterns(m)[0] for m in search.jmelds))
    freed, rack_left, owns = search._freed(pattern)
    assert len(freed) == 2
    table_left, melds_of, _ = search._set_sources(pattern)
    counts = [len(list(new_sets(j, search.rack_j, table_left, rack_left,
                                rules.joker_reuse_min_rack_tiles, melds_of, frozenset(own),
                                memo={})))
              for j, own in ((2, owns), (1, owns[:1]), (1, owns[1:]))]
    assert all(k <= PROOF_SETS for k in counts) and sum(counts) > PROOF_SETS, counts
    assert search._proof_sets(pattern) is None
    # and every pattern's lists, where given, hold PROOF_SETS sets or fewer in all
    for p in itertools.product(*(search.places.patterns(m) for m in search.jmelds)):
        listed = search._proof_sets(p)
        assert listed is None or sum(len(sets) for _, sets in listed) <= PROOF_SETS


def _sets(listed):
    return None if listed is None else [
        (jokers, sorted(" ".join(map(str, s.tiles)) for s in sets)) for jokers, sets in listed]


def test_a_patterns_new_sets_do_not_depend_on_the_patterns_listed_before():
    # tournament, J O10 O11 O12 O13 | J K13 R13 + K5 R5 O6 K6 B12. The group's joker reads
    # as B13 or O13; O9 frees the run's joker. The module: "A joker of another meld that
    # stays may lie in that set too: it is listed as the tile it stands for, from no meld of
    # the table (it is no numbered tile of a meld, so it never makes two of one meld)". So
    # with the group's joker staying as O13, the freed joker's sets include K13 O13 J and
    # O13 R13 J (K13 or R13 from the group, O13 the staying joker), and with it staying as
    # B13, B13 R13 J and K13 B13 J. What is listed for one pattern is the tiles' answer,
    # the same whether or not another pattern (another staying joker) was listed first.
    table = parse_table(["J O10 O11 O12 O13", "J K13 R13"])
    rack = parse_tiles("K5 R5 O6 K6 B12")
    rules = PRESETS["tournament"]

    def search():
        return JokerSearch(table, rack, rules, draw_move(table, rack, False), float("inf"))

    patterns = list(itertools.product(*(search().places.patterns(m) for m in search().jmelds)))
    one = search()
    for pattern in patterns:
        assert _sets(one._list_sets(pattern)) == _sets(search()._list_sets(pattern)), pattern
    (stays_o13,) = [p for p in patterns if p[0][1] == (True,) and p[1][1] == (False,)
                    and str(p[1][0][0]) == "O13"]
    (jokers, sets), = _sets(search()._list_sets(stays_o13))
    assert jokers == 1 and {"K13 O13 J", "O13 R13 J"} <= set(sets), sets
