from referee import check_table, check_turn, get_rules
from referee import turns as T

TABLE = "R3 R4 R5 | K7 B7 O7"


def test_a_turn_that_adds_nothing_is_a_draw():
    v = check_turn(TABLE, TABLE, "R9 K1")
    assert v.legal and v.kind == "draw" and v.penalty is None
    assert "draw a tile" in v.summary()


def test_adding_rack_tiles_to_melds():
    v = check_turn(TABLE, "R3 R4 R5 R6 | K7 B7 O7 R7", "R6 R7 K1")
    assert v.legal, v.summary()
    assert [str(t) for t in v.placed] == ["R6", "R7"]


def test_missing_table_tile_is_named():
    v = check_turn(TABLE, "R3 R4 R5 | K7 B7", "R9")
    assert not v.legal and set(v.codes) == {T.TILES_TAKEN, T.INVALID_MELD}   # K7 B7 is left short
    taken = next(x for x in v.violations if x.code == T.TILES_TAKEN)
    assert taken.tiles == ("O7",) and "O7 was on the table" in taken.message


def test_harvested_tile_must_be_played():
    # R3 taken off the run by adding R6, but then kept
    v = check_turn("R3 R4 R5", "R4 R5 R6", "R6")
    assert T.TILES_TAKEN in v.codes and v.restore and v.penalty_draw == 3


def test_tiles_not_on_the_rack():
    v = check_turn(TABLE, TABLE + " | K10 K11 K12", "K10 K11")
    assert T.NOT_FROM_RACK in v.codes
    assert next(x for x in v.violations if x.code == T.NOT_FROM_RACK).tiles == ("K12",)


def test_invalid_meld_names_meld_and_penalty_follows_the_preset():
    v = check_turn(TABLE, TABLE + " | K10 K11 B12", "K10 K11 B12", rules="sabra")
    assert not v.legal and v.codes == (T.INVALID_MELD,)
    assert v.violations[0].melds == ("K10 K11 B12",)
    assert "restore the table" in v.penalty and v.penalty_draw == 3
    assert "K10 K11 B12" in v.summary()


def test_meld_already_invalid_before_is_a_note_not_this_players_fault():
    v = check_turn("R3 R4 | K7 B7 O7", "R3 R4 | K7 B7 O7 R7", "R7")
    assert v.legal
    assert any("already invalid" in n for n in v.notes)


def test_initial_meld_threshold_all_sets_or_single_set():
    after = "K5 K6 K7 | B8 B9 B10"          # 18 + 27 = 45
    assert check_turn("", after, "K5 K6 K7 B8 B9 B10", opened=False, rules="sabra").legal
    v = check_turn("", after, "K5 K6 K7 B8 B9 B10", opened=False, rules="pressman-1998")
    assert not v.legal and v.codes == (T.INITIAL_MELD_TOO_LOW,)   # single set: 27 < 30
    assert "27" in v.violations[0].message
    v = check_turn("", after, "K5 K6 K7 B8 B9 B10", opened=False, rules="sabra-way")
    assert T.INITIAL_MELD_TOO_LOW in v.codes and "50" in v.violations[0].message
    ok = check_turn("", "R10 R11 R12", "R10 R11 R12", opened=False)
    assert ok.legal and ok.kind == "opening" and ok.opened and ok.initial_points == 33


def test_unopened_player_may_not_touch_the_table():
    v = check_turn("R3 R4 R5", "R3 R4 R5 R6 | K10 K11 K12", "R6 K10 K11 K12", opened=False)
    assert T.TABLE_TOUCHED_BEFORE_OPENING in v.codes
    assert not v.opened


def test_joker_counts_what_it_stands_for_or_zero_by_option():
    assert check_turn("", "K10 J K12", "K10 J K12", opened=False).legal
    zero = get_rules().replace(initial_meld_joker_value="zero")
    v = check_turn("", "K10 J K12", "K10 J K12", opened=False, rules=zero)
    assert T.INITIAL_MELD_TOO_LOW in v.codes and v.initial_points == 22


JOKER_TABLE = "R3 R4 J R6 | K10 B10 O10"


def test_joker_retrieved_and_reused_with_two_rack_tiles():
    after = "R3 R4 R5 R6 | K10 B10 O10 | J K5 K6"
    for preset in ("sabra", "pressman-1998", "sabra-way"):
        v = check_turn(JOKER_TABLE, after, "R5 K5 K6", rules=preset)
        assert v.legal, (preset, v.summary())


def test_retrieved_joker_must_go_into_a_new_set():
    after = "R3 R4 R5 R6 | K10 B10 O10 J"
    v = check_turn(JOKER_TABLE, after, "R5")
    assert T.JOKER_NOT_REUSED in v.codes


def test_retrieved_joker_needs_two_rack_tiles_under_pressman():
    before = "R3 R4 J R6 | K10 B10 O10 R10"
    after = "R3 R4 R5 R6 | K10 B10 O10 | J R10 R11"  # new set, but R10 came from the table
    v = check_turn(before, after, "R5 R11", rules="pressman-1998")
    assert v.codes == (T.JOKER_NOT_REUSED,) and "at least 2 other tiles" in v.violations[0].message
    assert check_turn(before, after, "R5 R11", rules="sabra").legal


def test_replacement_from_the_table_only_where_allowed():
    before = "R3 R4 J R6 | R5 O5 B5 K5"
    after = "R3 R4 R5 R6 | O5 B5 K5 | J K8 K9"   # R5 taken from the group
    assert check_turn(before, after, "K8 K9", rules="sabra").legal
    v = check_turn(before, after, "K8 K9", rules="sabra-way")
    assert T.JOKER_REPLACEMENT_FROM_TABLE in v.codes


def test_joker_meld_may_not_be_split_under_sabra_way():
    before = "R3 R4 R5 J R7 R8"
    # splitting a meld with a joker (without retrieving it)
    assert check_turn(before, "R3 R4 R5 | J R7 R8 R9", "R9", rules="sabra").legal
    v = check_turn(before, "R3 R4 R5 | J R7 R8 R9", "R9", rules="sabra-way")
    assert T.JOKER_MELD_MANIPULATED in v.codes
    # adding to it is fine everywhere
    assert check_turn(before, "R3 R4 R5 J R7 R8 R9", "R9", rules="sabra-way").legal


def test_tournament_joker_in_group_of_three_needs_both_missing_colours():
    before = "K10 B10 J"
    one = "K10 B10 O10 | J R1 R2"
    both = "K10 B10 O10 R10 | J R1 R2"
    assert check_turn(before, one, "O10 R1 R2", rules="sabra").legal
    v = check_turn(before, one, "O10 R1 R2", rules="tournament")
    assert T.JOKER_GROUP_NEEDS_BOTH in v.codes
    assert check_turn(before, both, "O10 R10 R1 R2", rules="tournament").legal


def test_turn_timer_and_its_penalty_per_preset():
    after = "R3 R4 R5 R6 | K7 B7 O7"
    v = check_turn(TABLE, after, "R6", elapsed=75, rules="sabra")
    assert v.codes == (T.TIME_EXCEEDED,) and v.restore and v.penalty_draw == 3
    v = check_turn(TABLE, after, "R6", elapsed=130, rules="sabra-way")
    assert v.codes == (T.TIME_EXCEEDED,) and not v.restore and v.penalty_draw == 1
    assert check_turn(TABLE, after, "R6", elapsed=500, rules="pressman-1998").legal
    assert check_turn(TABLE, after, "R6", elapsed=59, rules="sabra").legal


def test_every_violation_is_listed():
    v = check_turn("R3 R4 R5 | K7 B7 O7", "R3 R4 | K7 B7 O7 | K1 K2 K4", "K1 K2")
    assert set(v.codes) >= {T.TILES_TAKEN, T.NOT_FROM_RACK, T.INVALID_MELD}
    d = v.to_dict()
    assert d["legal"] is False and len(d["violations"]) == len(v.violations)
    assert "Penalty" in d["summary"]


def test_check_table():
    v = check_table("R1 R2 R3 | K5 B5")
    assert not v.ok and len(v.invalid) == 1 and str(v.invalid[0].meld) == "K5 B5"
    assert check_table("").ok
