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
