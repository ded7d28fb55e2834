"""The new sets of a deferred place (``referee.joker_sets``) stop at the first turn reaching
the place's bound.

A place kept aside comes with a bound: the most its rest lays with the freed jokers anywhere,
an upper bound of every turn through it. Once a turn reaching that bound is found, no other
new set of the place can beat it, and the search solves none of them: neither another
second set for the same first set nor another first set (each first set costs a solve of
its own, the second joker anywhere). The hint is the same either way; only the solves after
it are saved. Two freed jokers are tried in two new sets before one set holding both, so a
turn of two sets reaching the bound spares those too.

The rule text for ``sabra`` (``shared/rules/`` 003): "A joker can be retrieved from a set by
placing it with a tile of the same numerical value and colour it represents. The tile used
to replace the joker can come from the player's rack or from the table. [...] A joker that
has been replaced must be used in the player's same turn as part of a new set."
"""

from referee import PRESETS
from referee.joker_hints import JokerSearch
from referee.joker_sets import NewSets
from tests.referee.test_hints import hint_beside_worked_out


def test_a_deferred_places_two_new_sets_stop_at_a_turn_reaching_its_bound(monkeypatch):
    # The rack's K11 takes the place of the joker of J B11 O11 R11 (a K11), whose B11 then
    # takes the joker's place in O11 J R11 (the tile from the table, 003): both jokers are
    # freed, each into a new set of its own, K5 J K7 (the K5 off K2 K3 K4 K5, the rack's K7)
    # and O1 J O3 (the O1 off the group of four 1s, the rack's O3): 3 tiles, 21 points. O8
    # fits nowhere (no other 8, no O6, O7, O9 nor O10 on the table or the rack), nor does
    # B12 (no other 12; B11 B12 J would hold a tile of the joker's own set, or leave the
    # group of three's joker without its tile). The brute force of ``test_hints`` agrees
    # (3, 21), run once by hand: it takes about 40 seconds.
    table, rack, rules = ("J B11 O11 R11 | O11 J R11 | K2 K3 K4 K5 | R1 O1 B1 K1",
                          "K7 O8 K11 O3 B12", PRESETS["sabra"])
    after = "K11 O11 R11 | B11 O11 R11 | K5 J K7 | K2 K3 K4 | O1 J O3 | K1 B1 R1"
    asked = {"bound": None, "late": 0, "reached": 0}
    two_sets, solve = NewSets._two_sets, JokerSearch._solve

    def counted_two_sets(self, combo, pairs, opt_j, bound):
        asked["bound"] = bound
        try:
            return two_sets(self, combo, pairs, opt_j, bound)
        finally:
            asked["bound"] = None
            asked["reached"] += self.best is not None and self._best_weight() >= bound

    def counted_solve(self, *args):
        if (asked["bound"] is not None and self.best is not None
                and self._best_weight() >= asked["bound"]):
            asked["late"] += 1  # a solve after the place's bound was reached
        return solve(self, *args)

    monkeypatch.setattr(NewSets, "_two_sets", counted_two_sets)
    monkeypatch.setattr(JokerSearch, "_solve", counted_solve)
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == (3, 21) and move.exact, move.table
    assert sorted(map(str, move.placed)) == ["K11", "K7", "O3"]
    assert asked["reached"]  # the best turn was found among two new sets, at the bound
    assert asked["late"] == 0


def test_two_new_sets_are_tried_before_one_set_holding_both_jokers(monkeypatch):
    # The same table and rack: the best turn lays the two freed jokers in two new sets
    # (K5 J K7, O1 J O3) and reaches the deferred place's bound, so no set holding both
    # jokers (J J K7, O3 J J, ...: one or two rack tiles at most) is solved after it; they
    # come second, and the place ends at the turn found among the two sets.
    table, rack, rules = ("J B11 O11 R11 | O11 J R11 | K2 K3 K4 K5 | R1 O1 B1 K1",
                          "K7 O8 K11 O3 B12", PRESETS["sabra"])
    after = "K11 O11 R11 | B11 O11 R11 | K5 J K7 | K2 K3 K4 | O1 J O3 | K1 B1 R1"
    both = []
    solve = JokerSearch._solve

    def counted_solve(self, combo, freed, opt_j):
        new = combo[len(self.jmelds):]
        if new and sum(t.is_joker for t in new[-1].tiles) == 2:
            both.append(new[-1].tiles)  # (the rack holds no joker)
        return solve(self, combo, freed, opt_j)

    monkeypatch.setattr(JokerSearch, "_solve", counted_solve)
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == (3, 21) and move.exact, move.table
    assert both == []
