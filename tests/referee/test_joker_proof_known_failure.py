"""After the hint search, a hint is proven best only if every pattern its best turn does not
reach is proven unable to beat it by its new sets (``referee.joker_proof``). One pattern
whose proof already failed for that best turn settles it: the hint is not proven, and the
proofs of the other patterns, each a series of solves, are not tried.

The rule text for ``pressman-1998`` (``shared/rules/`` 000): "A player with a tile matching
the color and value of a joker may replace the joker with that tile. The joker must be
played that same turn in a set with at least two other tiles from the player's rack."
"""

from referee import PRESETS
from referee.joker_hints import JokerSearch
from referee.joker_proof import PatternProof
from tests.referee.test_hints import hint_beside_worked_out


def test_a_pattern_whose_proof_failed_ends_the_last_proofs_at_once(monkeypatch):
    # K9 goes to K5 K6 K7 K8 K9 (the K8 off R8 K8 B8 O8, three stay) and B7 to B7 B8 B9 J J
    # (the B8 off B8 O8 R8 K8): 2 tiles, 16 points. K3 needs a K4 or two other 3s, O11 an
    # O10, O12 or two other 11s: none is on the table or the rack. A joker of B9 J J freed
    # (by K9, the meld read as a group of 9s) must go to a new set with two more rack tiles
    # (000), and the rack's others (K3, O11, B7) make none with it. The brute force of
    # ``test_hints`` agrees (2, 16),
    # run once by hand: it takes about 25 seconds. The search cannot prove it: one
    # pattern's proof by new sets fails during the search, so the hint is the best found.
    table, rack, rules = ("K5 K6 K7 | R8 K8 B8 O8 | R13 O13 K13 | B9 J J | B8 O8 R8 K8",
                          "K3 O11 K9 B7", PRESETS["pressman-1998"])
    after = "K5 K6 K7 K8 K9 | B7 B8 B9 J J | K8 O8 R8 | B8 O8 R8 | K13 O13 R13"
    stage = {"settled": 0, "last": 0}
    settle, prove = JokerSearch._settle_deferred, PatternProof._prove

    def counted_settle(self):
        got = settle(self)
        stage["settled"] += 1  # the search calls it twice; then only the last proofs
        return got

    def counted_prove(self, pattern, best):
        stage["last"] += stage["settled"] >= 2
        return prove(self, pattern, best)

    monkeypatch.setattr(JokerSearch, "_settle_deferred", counted_settle)
    monkeypatch.setattr(PatternProof, "_prove", counted_prove)
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == (2, 16), move.table
    assert sorted(map(str, move.placed)) == ["B7", "K9"]
    assert stage["settled"] == 2
    assert not move.exact and stage["last"] == 0
