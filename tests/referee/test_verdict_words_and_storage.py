"""What a verdict says (the faults of a failed turn and its penalty, an exchanged joker), and a
verdict stored and read back (the live referee keeps each turn's verdict as JSON with the round).

Verdicts are worked out from the rule texts in ../shared/rules/, the sentence quoted beside
each: 000 and 002 retell the 1998 Pressman rules, 001 and 003 the current Sabra rules, 004 the
Sabra Way leaflet."""

from __future__ import annotations

from referee import Code, check_table, check_turn, get_rules
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


# The words of a failed turn. Each message is what a player reads on the phone or in the CLI:
# it names the tiles and melds at fault and agrees in number with them.

def test_tiles_not_on_the_rack_are_named_one_or_several():
    # 000: a player plays "one or more tiles from his rack": K11 and K12 are on no rack here
    one = check_turn("R3 R4 R5", "R3 R4 R5 | K10 K11 K12", "K10 K11", rules="sabra")
    assert [v.message for v in one.violations] == [
        "K12 was added to the table but is not on the player's rack"]
    two = check_turn("R3 R4 R5", "R3 R4 R5 | K10 K11 K12", "K10", rules="sabra")
    assert [v.message for v in two.violations] == [
        "K11 K12 were added to the table but are not on the player's rack"]
    assert two.violations[0].tiles == ("K11", "K12")


def test_an_invalid_meld_is_named_with_its_tiles():
    # 003: "at the end of each round only legitimate sets remain"; K10 K11 B12 is none, and
    # the verdict lists its tiles (the phones mark them on the picture)
    v = check_turn("R3 R4 R5", "R3 R4 R5 | K10 K11 B12", "K10 K11 B12", rules="sabra")
    assert v.codes == (Code.INVALID_MELD,)
    assert v.violations[0].tiles == ("K10", "K11", "B12")


def test_over_time_says_how_long_the_turn_took_and_the_limit():
    # 003: "Player's have a time limit of 1 minute per turn"
    v = check_turn("R3 R4 R5", "R3 R4 R5 R6", "R6", elapsed=75, rules="sabra")
    assert [x.message for x in v.violations] == ["the turn took 75 s; the limit is 60 s"]


def test_the_penalty_in_words_names_how_many_tiles_to_draw():
    # 004: "A player who plays past the two-minute time limit must draw one tile from the pool."
    late = check_turn("R3 R4 R5", "R3 R4 R5 R6", "R6", elapsed=130, rules="sabra-way")
    assert (late.penalty, late.penalty_draw, late.restore) == ("draw 1 tile", 1, False)
    assert late.summary().splitlines()[-1] == "Penalty: draw 1 tile."
    # 000: "the offending player must return all sets on the table to their original state,
    # and pick up three tiles as a penalty"
    failed = check_turn("R3 R4 R5", "R3 R4 R5 | K1 K2", "K1 K2", rules="pressman-1998")
    assert failed.penalty == ("restore the table as it was, take back the tiles you laid and "
                              "draw 3 tiles")
    # 000: "the choice of when to invoke this rule depends on how formal or "friendly" the
    # game is": a house rule of one tile to draw, or of two tiles for running out of time
    friendly = get_rules("sabra").replace(failed_turn_draw=1)
    assert check_turn("R3 R4 R5", "R3 R4 R5 | K1 K2", "K1 K2", rules=friendly).penalty == (
        "restore the table as it was, take back the tiles you laid and draw 1 tile")
    two = get_rules("sabra-way").replace(timeout_draw=2)
    late = check_turn("R3 R4 R5", "R3 R4 R5 R6", "R6", elapsed=130, rules=two)
    assert (late.penalty, late.penalty_draw) == ("draw 2 tiles", 2)


def test_a_legal_turn_has_no_penalty_and_names_its_rules():
    # 000: once opened, a player "can, on each turn, play one or more tiles from his rack":
    # nothing to restore, nothing to draw
    for preset in ("sabra", "pressman-1998", "sabra-way", "tournament"):
        v = check_turn("R3 R4 R5", "R3 R4 R5 R6", "R6", rules=preset)
        assert v.legal and (v.penalty, v.penalty_draw, v.restore) == (None, 0, False)
        assert v.rules == preset and v.to_dict()["rules"] == preset
        # the initial-meld count is for a player who had not opened
        assert v.initial_points is None and v.to_dict()["initial_points"] is None


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


def test_a_stored_verdict_keeps_each_jokers_fate():
    # 000: a harvested tile "must be played during the turn; it cannot be kept": the joker of
    # J R5 R6 R7 left the table (it lies nowhere after the turn, and stands for nothing);
    # the joker of K9 J K11 stays, still K10
    gone = check_turn("J R5 R6 R7 | K9 J K11", "R5 R6 R7 | K9 J K11 K12", "K12")
    back = TurnVerdict.from_dict(gone.to_dict())
    assert back == gone
    assert [(f.after_meld, f.stands_for, f.taken) for f in back.jokers] == [
        (None, None, True), (1, gone.jokers[1].stood_for, False)]
    assert str(back.jokers[1].stood_for) == "K10"
    # 003: "The tile used to replace the joker can come from the player's rack or from the
    # table": R5 came from the group, meld 1 before
    moved = check_turn("R4 J R6 | R5 K5 B5 O5", "R4 R5 R6 | K5 B5 O5 | K9 J K11", "K9 K11")
    (fate,) = TurnVerdict.from_dict(moved.to_dict()).jokers
    assert fate == moved.jokers[0]
    assert ([str(t) for t in fate.replaced_by], fate.replaced_from) == (["R5"], (1,))


def test_a_joker_fate_stored_without_its_replacement_reads_as_replaced_by_nothing():
    # a fate stored before replacements were kept: the joker stayed, nothing replaced it
    v = TurnVerdict.from_dict({"legal": True, "kind": "play", "opened": True, "rules": "sabra",
                               "jokers": [{"before_meld": 0, "before_position": 1,
                                           "stood_for": "R5", "after_meld": 0,
                                           "after_position": 1, "stands_for": "R5",
                                           "taken": False}]})
    (f,) = v.jokers
    assert (f.replaced_by, f.replaced_from, f.taken) == ((), (), False)
    assert (str(f.stood_for), str(f.stands_for), f.after_meld, f.after_position) == (
        "R5", "R5", 0, 1)
    assert f.to_dict()["replaced_by"] == [] and f.to_dict()["replaced_from"] == []
