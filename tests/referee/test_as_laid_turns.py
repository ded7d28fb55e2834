"""The house option ``meld_order="as-laid"`` (a run's tiles must lie in order, so a joker's
place fixes its value) holds everywhere a table or a turn is judged: the melds after the
turn, the melds before it, and what the jokers before it stood for.

000: "Runs are composed of three or more, same-colored tiles, in consecutive number order."
Read as laid, R5 R3 R4 is not in that order, though its tiles could be laid so."""

from referee import Code, check_table, check_turn, get_rules

AS_LAID = get_rules("sabra").replace(meld_order="as-laid")


def test_a_table_is_judged_under_the_rules_it_is_given():
    assert check_table("R5 R3 R4 | K7 B7 O7").ok
    v = check_table("R5 R3 R4 | K7 B7 O7", AS_LAID)
    assert not v.ok and [str(m.meld) for m in v.invalid] == ["R5 R3 R4"]


def test_a_meld_out_of_order_before_the_turn_is_noted_not_held_against_the_player():
    # 000: "the offending player must return all sets on the table to their original state":
    # R5 R3 R4 lay out of order before this turn; R7 went on the group
    before, after = "R5 R3 R4 | K7 B7 O7", "R5 R3 R4 | K7 B7 O7 R7"
    v = check_turn(before, after, "R7", rules=AS_LAID)
    assert v.legal, v.summary()
    assert len(v.notes) == 1 and v.notes[0].startswith("R5 R3 R4 was already invalid")
    # the same meld laid this turn is this player's own mistake
    own = check_turn("K7 B7 O7", "K7 B7 O7 | R5 R3 R4", "R3 R4 R5", rules=AS_LAID)
    assert own.codes == (Code.INVALID_MELD,) and own.violations[0].melds == ("R5 R3 R4",)


def test_a_joker_in_a_meld_invalid_as_laid_stood_for_nothing():
    # 003: "A joker can be retrieved from a set by placing it with a tile of the same numerical
    # value and colour it represents." As laid, R3 J R4 is no set and its joker represents
    # no tile, so no tile is owed for it. Where the order does not count, it is the run
    # R3 R4 J (or J R3 R4): the joker stands for R5 or R2, and neither was put in its place.
    before = "R3 J R4"
    after, rack = "R3 K3 B3 | R4 K4 B4 | J K7 K8", "K3 B3 K4 B4 K7 K8"
    v = check_turn(before, after, rack, rules=AS_LAID)
    assert v.legal, v.summary()
    anyhow = check_turn(before, after, rack, rules="sabra")
    assert anyhow.codes == (Code.JOKER_NOT_REPLACED,)


def test_a_joker_laid_into_a_meld_invalid_as_laid_stands_for_nothing_there():
    # 003: the exchanged joker "must be used in the player's same turn as part of a new set";
    # K1 J K2 is no set as laid (the joker would have to lie between 1 and 2), so the turn
    # fails for that meld, and the verdict's account of the joker agrees with its verdict on
    # the meld: exchanged for R5, laid in K1 J K2, standing for no tile there (in any order
    # it would be the run K1 K2 K3)
    v = check_turn("R3 R4 J", "R3 R4 R5 | K1 J K2", "R5 K1 K2", rules=AS_LAID)
    assert v.codes == (Code.INVALID_MELD,) and v.violations[0].melds == ("K1 J K2",)
    assert not v.melds[1].ok and v.melds[1].stands_for == ()
    (fate,) = v.jokers
    assert fate.taken and [str(t) for t in fate.replaced_by] == ["R5"]
    assert (fate.after_meld, fate.stands_for) == (1, None)
    anyhow = check_turn("R3 R4 J", "R3 R4 R5 | K1 J K2", "R5 K1 K2", rules="sabra")
    assert anyhow.legal and str(anyhow.jokers[0].stands_for) == "K3"
