"""Legal joker turns are legal when asked without reasons too.

The hint search asks ``check_turn(..., reasons=False)``, which promises the same ``legal``
and skips the look for the account closest to legal: a legal turn is then legal only if the
pruned search over the accounts of where each tile went finds one that keeps every rule. A
prune that cuts too much would make the hint search miss these turns (and, asked with
reasons, the referee finds them only among the first few accounts). Each turn below keeps
every rule under the rule texts in ../shared/rules/ quoted beside it, and each leans on
one of the search's shortcuts: a staying joker's set split or reached only through a copy
of a tile, copies of the replacing tile lying on the table, a new set's rack tiles with
copies on the table, two jokers taken at once."""

import pytest

from referee import check_turn, get_rules

# 004: "You may take a Joker from a run or group in exchange for a tile of the same value
# from your hand ... Under tournament rules, a Joker taken from a group of three tiles must
# be replaced with both missing tiles": the Sabra Way with its tournament rule.
SABRA_WAY_TOURNAMENT = get_rules("sabra-way").replace(joker_group_needs_both_missing=True)

TURNS = [
    # 001: "Rearrange tiles on the table as you wish, as long as the table stays valid."
    # R3 R4 J R6 R7 R8 split in two, R9 added: the joker still stands for R5 beside R3 R4.
    pytest.param("R3 R4 J R6 R7 R8", "R3 R4 J | R6 R7 R8 R9", "R9", "sabra",
                 id="a joker's run split, the joker staying"),
    # as above: the joker (R7) stays beside R8; which R8 is the run's, the group's or the
    # other, the camera cannot say: only one way keeps the joker with its set
    pytest.param("J R8 R9 R10 | R8 K8 B8", "R6 J R8 | R9 R10 R11 | R8 K8 B8", "R6 R11",
                 "sabra", id="a staying joker's set reached through one of two R8s"),
    pytest.param("J R8 R9 R10 | R8 K8 B8", "R8 K8 B8 | R6 J R8 | R9 R10 R11", "R6 R11",
                 "sabra", id="a staying joker's set reached through one of two R8s, reordered"),
    # 003: "A set containing a joker can have tiles added to it": K4 is added to K1 K2 K3;
    # R3 R4 J lies untouched, listed after it
    pytest.param("R3 R4 J | K1 K2 K3", "K1 K2 K3 K4 | R3 R4 J", "K4", "sabra",
                 id="a joker's meld untouched, listed elsewhere"),
    # 000: "A player with a tile matching the color and value of a joker may replace the
    # joker with that tile. The joker must be played that same turn in a set with at least
    # two other tiles from the player's rack." R5 from the rack frees the joker of R4 J R6;
    # it goes to J K8 K9 with K8 K9 from the rack, beside the K7 K8 K9 that lay there
    pytest.param("R4 J R6 | K7 K8 K9", "R4 R5 R6 | J K8 K9 | K7 K8 K9", "R5 K8 K9",
                 "pressman-1998", id="a new set's two rack tiles with copies on the table"),
    # 004 (above), and "After a Joker has been taken from a meld as shown above, the meld may
    # be manipulated": R5 from the hand frees the joker of R3 R4 J R6, whose R3, R4 and R6
    # look like the R3 R4 and R6 of the runs beside it
    pytest.param("R3 R4 J R6 | R2 R3 R4 | R6 R7 R8",
                 "R2 R3 R4 | R3 R4 R5 R6 | J O9 O10 | R6 R7 R8", "R5 O9 O10", "sabra-way",
                 id="a freed joker's set with copies of its tiles on the table"),
    # 004 (above): R5 and K5 from the hand free the jokers of R3 R4 J and K3 K4 J, each
    # played again with two tiles from the hand; the group R5 K5 B5 holds the other R5, K5
    pytest.param("R3 R4 J | K3 K4 J | R5 K5 B5",
                 "R3 R4 R5 | K3 K4 K5 | R5 K5 B5 | J O9 O10 | J B11 B12",
                 "R5 K5 O9 O10 B11 B12", "sabra-way",
                 id="two jokers freed by tiles with copies on the table"),
    # 004 (above): one joker of R4 J J R7 freed by R5 from the hand; the other stays (R6)
    pytest.param("R4 J J R7", "R4 R5 J R7 | J K9 B9", "R5 K9 B9", "sabra-way",
                 id="one of two jokers freed by a tile from the hand"),
    # 000 (above); 003: "In the case of a group of 3, the joker can be replaced by the tile
    # of either the missing colours."
    pytest.param("K10 B10 J", "K10 B10 O10 | K1 K2 J", "O10 K1 K2", "pressman-1998",
                 id="a group's joker freed by one missing colour from the rack"),
    # 004: "Under tournament rules, a Joker taken from a group of three tiles must be
    # replaced with both missing tiles": O5 and R5, each in one of the two groups K5 B5
    # split into
    pytest.param("K5 B5 J | R1 R2 R3", "K5 O5 B5 | B5 R5 K5 | R1 R2 R3 | K9 J K11",
                 "O5 R5 K5 B5 K9 K11", "tournament",
                 id="a group's joker freed by both missing colours in two groups"),
    # the same rule with the Sabra Way's "from your hand": O10 and R10 from the hand, beside
    # the runs that hold the other O10 and R10
    pytest.param("K10 B10 J | R10 R11 R12 | O10 O11 O12",
                 "K10 B10 O10 R10 | R10 R11 R12 | O10 O11 O12 | J K1 K2", "O10 R10 K1 K2",
                 SABRA_WAY_TOURNAMENT, id="both missing colours from the hand, with copies"),
    # 003: "The tile used to replace the joker can come from the player's rack or from the
    # table": R5 from the rack, the group R5 K5 B5 kept
    pytest.param("R3 R4 J | R5 K5 B5", "R3 R4 R5 | R5 K5 B5 | J K1 K2", "R5 K1 K2",
                 "sabra-way", id="a joker freed by a tile with a copy in a group"),
]


@pytest.mark.parametrize("before, after, rack, rules", TURNS)
def test_a_legal_joker_turn_is_legal_with_or_without_reasons(before, after, rack, rules):
    full = check_turn(before, after, rack, rules=rules)
    assert full.legal, full.summary()
    quick = check_turn(before, after, rack, rules=rules, reasons=False)
    assert quick.legal, quick.summary()
    assert quick.violations == ()
