"""What a verdict says about an exchanged joker, and a verdict stored and read back (the live
referee keeps each turn's verdict as JSON with the round)."""

from __future__ import annotations

from referee import check_table, check_turn
from referee.turns import TurnVerdict


def test_the_summary_says_what_an_exchanged_joker_was_swapped_for_and_where_it_went():
    # 003: a joker may be replaced "from the player's rack or from the table"; it goes on to
    # a new set (J K1 K2: K1 and K2 come from the rack)
    from_rack = check_turn("R3 R4 J", "R3 R4 R5 | J K1 K2", "R5 K1 K2", rules="sabra")
    assert from_rack.legal
    assert from_rack.summary().splitlines() == [
        "Valid turn: K1 K2 R5 laid.",
        "The joker in R3 R4 J was exchanged for R5 (from the rack) and laid in J K1 K2."]
    from_table = check_turn("R3 R4 J | R5 K5 B5 O5", "R3 R4 R5 | K5 B5 O5 | J K1 K2",
                            "K1 K2", rules="sabra")
    assert from_table.legal
    assert from_table.summary().splitlines()[1] == (
        "The joker in R3 R4 J was exchanged for R5 (from R5 K5 B5 O5) and laid in J K1 K2.")
    # 004: under tournament rules a joker taken from a group of three needs both missing tiles
    both = check_turn("K5 B5 J", "K5 B5 O5 R5 | J K1 K2", "O5 R5 K1 K2", rules="tournament")
    assert both.legal
    assert both.summary().splitlines()[1] == (
        "The joker in K5 B5 J was exchanged for O5 R5 (from the rack, from the rack) "
        "and laid in J K1 K2.")


def test_a_stored_verdict_reads_back_the_same_tiles_taken_and_penalty_included():
    # K9 B9 O9 left the table: a failed turn (restore the table, draw 3 under sabra)
    v = check_turn("R3 R4 R5 | K9 B9 O9", "R3 R4 R5", "K1", rules="sabra")
    assert not v.legal and [str(t) for t in v.taken] == ["K9", "B9", "O9"]
    back = TurnVerdict.from_dict(v.to_dict())
    assert back == v
    assert (back.restore, back.penalty_draw) == (True, 3)
    exchanged = check_turn("R3 R4 J | R5 K5 B5 O5", "R3 R4 R5 | K5 B5 O5 | J K1 K2", "K1 K2")
    assert TurnVerdict.from_dict(exchanged.to_dict()) == exchanged


def test_a_verdict_stored_with_only_the_required_fields_reads_with_empty_defaults():
    v = TurnVerdict.from_dict({"legal": True, "kind": "draw", "opened": True, "rules": "sabra"})
    assert (v.violations, v.placed, v.taken, v.notes, v.melds, v.jokers) == ((),) * 6
    assert (v.penalty, v.penalty_draw, v.restore) == (None, 0, False)
    assert (str(v.before), str(v.after), v.declared) == ("", "", ())
    assert v.summary() == "No tiles played: draw a tile."


def test_a_table_verdict_as_json_names_each_meld_and_why():
    d = check_table("R1 R2 R3 | K5 B5").to_dict()
    assert (d["table"], d["ok"]) == ("R1 R2 R3 | K5 B5", False)
    assert [(m["meld"], m["ok"]) for m in d["melds"]] == [("R1 R2 R3", True), ("K5 B5", False)]
    assert d["melds"][1]["reason"] == "K5 B5: a meld needs at least 3 tiles, this has 2"


def test_tiles_taken_off_the_table_are_named_in_the_verdict_one_or_several():
    many = check_turn("R3 R4 R5 | K9 B9 O9", "R3 R4 R5", "K1", rules="sabra")
    assert many.summary().splitlines()[:2] == [
        "Not valid:",
        "- K9 B9 O9 were on the table before the turn and are missing now: tiles on the table "
        "stay on the table (harvested tiles must be played)"]
    one = check_turn("R3 R4 R5 R6", "R3 R4 R5", "K1", rules="sabra")
    assert one.summary().splitlines()[1].startswith(
        "- R6 was on the table before the turn and is missing now:")


def test_a_stored_verdict_keeps_the_melds_each_violation_names():
    # 000: "At the end of the turn, all played tiles must be in valid sets." R3 R4 is two
    # tiles, not a set: the violation names that meld, in the JSON the API sends and after
    # the verdict is stored and read back.
    v = check_turn("K7 B7 O7", "K7 B7 O7 | R3 R4", "R3 R4", rules="sabra")
    assert not v.legal
    bad = [x for x in v.to_dict()["violations"] if x["melds"]]
    assert bad and bad[0]["melds"] == ["R3 R4"], v.to_dict()["violations"]
    back = TurnVerdict.from_dict(v.to_dict())
    assert back == v and any(x.melds == ("R3 R4",) for x in back.violations)


def test_a_stored_violation_with_only_its_code_and_message_reads_with_no_melds_or_tiles():
    from referee import Code
    v = TurnVerdict.from_dict({"legal": False, "kind": "play", "opened": True, "rules": "sabra",
                               "violations": [{"code": "invalid-meld", "message": "R3 R4"}]})
    (x,) = v.violations
    assert (x.code, x.message, x.melds, x.tiles) == (Code.INVALID_MELD, "R3 R4", (), ())
