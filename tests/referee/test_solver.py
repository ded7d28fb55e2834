"""The exact solver: arrange, best_move, max_score.

Examples and corner cases; the property tests against a brute force are in
test_solver_properties.py.
"""

import pytest

from referee import (
    JOKER,
    Colour,
    ImpossibleTilesError,
    Meld,
    NotationError,
    RummirefError,
    UnknownRulesError,
    Table,
    Tile,
    all_tiles,
    check_meld,
    get_rules,
    parse_table,
    parse_tiles,
)
from referee.hints import Move, best_move
from referee.meld_build import absorb, run_meld
from referee.solver import TableUnsolvableError, arrange, max_score, max_score_counts
from tests.referee.oracles import assert_sound, brute_arrangeable, brute_best_move
from tests.referee.random_tables import random_table_with_jokers


def test_empty_input_gives_an_empty_table():
    assert arrange("") == Table()
    assert arrange([]) == Table()
    move = best_move("", "")
    assert move.placed == () and move.table == Table() and move.points == 0


@pytest.mark.parametrize("tiles", ["J", "J J", "R5 J", "K1 B1", "R12 R13 R1", "R13 R1 R2",
                                   "R1 R2 R3 R5", "K5 B5 O5 R5 J", "R7 R7 R8"])
def test_not_arrangeable(tiles):
    assert arrange(tiles) is None


def test_no_wrap_after_13_but_a_joker_below():
    table = arrange("R12 R13 J")
    assert str(table) == "J R12 R13"
    table = arrange("R11 R12 R13 J")
    assert str(table) == "J R11 R12 R13"


def test_full_set_and_joker_only_corner_cases():
    assert_sound(arrange(all_tiles()), list(all_tiles()))
    # groups of four with a spare joker: the joker must go in a run instead
    tiles = parse_tiles("K5 B5 O5 R5 K6 B6 O6 R6 K7 B7 O7 R7 J")
    assert_sound(arrange(tiles), tiles)
    # two jokers split a group of four into two groups of three
    tiles = parse_tiles("K5 B5 O5 R5 J J")
    assert_sound(arrange(tiles), tiles)
    # a joker standing for a third copy of a tile
    tiles = parse_tiles("R4 R5 R6 R4 R5 R6 J R7 R8")
    assert_sound(arrange(tiles), tiles)


def test_both_jokers_beside_a_group_of_four_of_13s():
    """Four 13s and both jokers: the jokers cannot go above 13 (003: a run is "three or more
    consecutive (one after the other) numbers"), so they make two groups of three of the four
    13s, or a run J J 13 beside a group of three; every tile once, every meld valid."""
    for text in ("K13 B13 O13 R13 J J", "K13 B13 O13 R13 K12 B12 O12 R12 J J",
                 "K13 B13 O13 R13 K1 K2 K3 J J"):
        tiles = parse_tiles(text)
        assert_sound(arrange(tiles), tiles)


def test_a_group_of_four_and_one_tile_with_both_jokers():
    """K4 B4 O4 R4 and B8 with both jokers (a run J J B8, or a group of 8s): every tile
    laid, though a joker in the group of four, or one alone beside B8, leads nowhere; a
    way that fails with both jokers used says nothing of the ways with fewer used."""
    for text in ("K4 B4 O4 R4 B8 J J", "K4 B4 O4 R4 K9 K10 K11 K12 B8 J J"):
        tiles = parse_tiles(text)
        assert brute_arrangeable(tiles)
        assert_sound(arrange(tiles), tiles)


def test_spare_jokers_go_where_a_meld_has_room():
    """Jokers the melds do not need go into a group of three, on either end of a run, or
    split a long run; the table then holds each tile once, both jokers included."""
    for text in ("K5 B5 O5 R5 K9 B9 O9 J J", "K13 B13 O13 R13 K9 B9 O9 J J",
                 "K13 B13 O13 R13 R1 R2 R3 J J", "K13 B13 O13 R13 K11 K12 K13 J J",
                 "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 J",
                 "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 K7 B7 O7 R7 J J",
                 "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 J J",
                 "B13 O13 R13 K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 J J"):
        tiles = parse_tiles(text)
        assert_sound(arrange(tiles), tiles)
    # three groups of four and a joker: no group takes it, so two groups give up a tile to
    # a run (J K12 K13 beside B12 O12 R12 and B13 O13 R13); the search that finds this
    # reads the numbers downward, and its melds must come back as the tiles read upward
    tiles = parse_tiles("K6 B6 O6 R6 K12 B12 O12 R12 K13 B13 O13 R13 J")
    table = arrange(tiles)
    assert_sound(table, tiles)
    assert sorted(len(m) for m in table.melds) == [3, 3, 3, 4]


def test_every_5_and_a_joker_make_three_groups():
    """Both copies of the four 5s and a joker: no run, so three groups of three (a group
    holds each colour once, 003: "the same number but in different colours")."""
    tiles = parse_tiles("K5 K5 B5 B5 O5 O5 R5 R5 J")
    table = arrange(tiles)
    assert_sound(table, tiles)
    assert sorted(len(m) for m in table.melds) == [3, 3, 3]


def test_arranged_melds_come_in_reading_order():
    """Runs colour by colour in the notation's order (K, B, O, R), each colour's from its
    lowest number; then the groups, lowest number first."""
    table = arrange("O9 B9 K9 R4 B4 O4 R2 R3 B1 B2 B3 K5 K6 K7 K1 K2 K3 R4")
    assert str(table) == "K1 K2 K3 | K5 K6 K7 | B1 B2 B3 | R2 R3 R4 | B4 O4 R4 | K9 B9 O9"
    # an opening's new sets too, where most of the rack lies at the low numbers
    move = best_move("", "K12 B12 O12 K5 B5 O5 K1 B1 O1 R1", opened=False)
    assert str(move.table) == "K1 B1 O1 R1 | K5 B5 O5 | K12 B12 O12"
    # a run's lowest number is its first joker's where it starts with one: J R11 R12 R13
    # (the joker R10) starts at 10, before the other R11 R12 R13
    assert str(arrange("R11 R12 R13 R11 R12 R13 J")) == "J R11 R12 R13 | R11 R12 R13"


def test_arrange_accepts_text_tokens_tiles_and_tables():
    assert str(arrange("r3 R1 r2")) == "R1 R2 R3"
    assert str(arrange(["R1", "R2", "R3"])) == "R1 R2 R3"
    assert str(arrange(parse_tiles("K7 B7 O7"))) == "K7 B7 O7"
    assert str(arrange(parse_table("R3 R2 | R1 K7 B7 O7"))) == "R1 R2 R3 | K7 B7 O7"
    # a table's text: melds split by | or by lines (a list of tiles refuses both)
    assert str(arrange("R3 R2 | R1 K7 B7 O7")) == "R1 R2 R3 | K7 B7 O7"
    assert str(arrange("R3 R2\nR1 K7 B7 O7\n")) == "R1 R2 R3 | K7 B7 O7"
    move = best_move("R4 R5 R6", "R7 | R3\nB1")
    assert [str(t) for t in move.placed] == ["R3", "R7"]


@pytest.mark.parametrize("bad", ["R14", "X3", "R0", "R", "7R"])
def test_bad_notation_raises(bad):
    with pytest.raises(NotationError) as err:
        arrange(f"R1 R2 {bad}")
    assert err.value.token == bad
    with pytest.raises(NotationError):
        best_move("R1 R2 R3", bad)


def test_impossible_tiles_raise():
    with pytest.raises(ImpossibleTilesError) as err:
        arrange("R7 R7 R7")
    assert err.value.token == "R7"
    assert str(err.value) == "R7: a third R7 in these tiles; a set has only 2 of each tile"
    with pytest.raises(ImpossibleTilesError):
        arrange("J J J R1")
    with pytest.raises(ImpossibleTilesError) as err:
        best_move("R7 R8 R9 | R7 B7 K7", "R7")
    assert "table and the rack" in str(err.value)


def test_unsolvable_table_raises_a_clear_error():
    with pytest.raises(TableUnsolvableError) as err:
        best_move("R1 R2 | K9", "B4")
    assert isinstance(err.value, RummirefError)
    assert str(err.value) == ("the table's 3 tiles cannot all be laid in valid melds, even "
                              "with every rack tile: check the table reading (R1 R2 | K9)")
    # each tile could be in some meld, but not all at once: the search finds no way
    with pytest.raises(TableUnsolvableError) as err:
        best_move("R1 R2 R3 | R2", "K9")
    assert str(err.value) == ("the table's 4 tiles cannot all be laid in valid melds, even "
                              "with every rack tile: check the table reading (R1 R2 R3 | R2)")
    with pytest.raises(TableUnsolvableError) as err:
        best_move("R1 R2", "K10 B10 O10", opened=False)
    assert str(err.value) == ("the table's melds are not valid and its tiles cannot be laid "
                              "in valid melds (R1 R2): check the table reading")
    with pytest.raises(ImpossibleTilesError, match="a third R7 in the table;"):
        best_move("R7 R8 R9 | R7 R8 R9 | R7 B7 O7", "K1")
    with pytest.raises(ImpossibleTilesError, match="a third R7 in the rack;"):
        best_move("R1 R2 R3", "R7 R7 R7")
    # a rack written as melds: still the rack's third copy
    with pytest.raises(ImpossibleTilesError, match="a third R7 in the rack;"):
        best_move("R1 R2 R3", "R7 R8 R9 | R7 R7")
    # a joker on the table and two on the rack: a set has two
    with pytest.raises(ImpossibleTilesError) as err:
        best_move("R4 J R6", "J J")
    assert str(err.value) == "J: a third joker in the table and the rack together; a set has only 2"
    # fragments the rack can complete are fine
    move = best_move("R5 | R6 R7", "R4 R8")
    assert len(move.placed) == 2 and str(move.table) == "R4 R5 R6 R7 R8"


def test_best_move_prefers_tiles_then_points():
    move = best_move("R4 R5 R6", "R7 R3 B1")
    assert [str(t) for t in move.placed] == ["R3", "R7"] and move.points == 10
    assert [str(t) for t in move.remaining] == ["B1"]
    # same number of tiles: the joker (30 on the rack) beats R7 (7)
    move = best_move("R4 R5 R6", "R7 J")
    assert len(move.placed) == 2
    move = best_move("K9 B9 O9 | R1 R2 R3", "R9 J")
    assert move.points == 39 and len(move.placed) == 2


def test_the_joker_or_a_tile_for_the_last_place_of_a_group():
    """K1 B1 O1 takes one more tile, R1 or the joker, not both (003: a group is "three or
    four tiles"). Equal tile counts: the one worth more on the rack goes (003: "The joker has
    a penalty value of 30 points if it remains on a rack"); a joker worth 0 stays."""
    move = best_move("K1 B1 O1", "R1 J")
    assert [str(t) for t in move.placed] == ["J"] and move.points == 30
    move = best_move("K1 B1 O1", "R1 J", get_rules().replace(joker_penalty=0))
    assert [str(t) for t in move.placed] == ["R1"] and move.points == 1


def test_nothing_to_play_keeps_the_table():
    table = parse_table("R4 R5 R6")
    move = best_move(table, "B1 K13")
    assert move.draws and move.table == table and move.points == 0
    assert [str(t) for t in move.remaining] == ["B1", "K13"]
    # a table read as invalid melds is shown laid validly, but a draw tells no steps
    move = best_move([["R2", "R1"], ["R3"]], "K13")
    assert move.draws and str(move.table) == "R1 R2 R3" and move.steps == ()
    # the same with a joker on the table
    table = parse_table("R4 J R6 | K1 K2 K3")
    move = best_move(table, "B1 O13")
    assert move.draws and move.table == table and move.points == 0 and move.exact
    assert [str(t) for t in move.remaining] == ["B1", "O13"] and move.steps == ()
    # O12 and B1 could go down only beside the jokers taken from R3 R4 R5 J J, a meld that
    # may not be touched while it holds them (004: "A meld containing a Joker may not be
    # manipulated"): the joker search finds no legal play
    table = parse_table("R3 R4 R5 J J | B1 B2 B3 B4 B5 | K4 R4 O4")
    move = best_move(table, "O12 B1", "sabra-way")
    assert move.draws and move.table == table and move.points == 0 and move.exact
    assert [str(t) for t in move.remaining] == ["O12", "B1"] and move.steps == ()
    # with no time to search, the draw is not proven the best turn
    move = best_move(table, "O12 B1", "sabra-way", cpu_limit=0)
    assert move.draws and not move.exact and len(move.remaining) == 2


def test_opening_rules():
    sabra = get_rules("sabra")
    rack = "R1 R2 R3 K10 B10 O10"
    assert len(best_move("", rack, sabra, opened=False).placed) == 6  # 6 + 30
    sum31 = sabra.replace(initial_meld_points=31)
    assert len(best_move("", rack, sum31, opened=False).placed) == 6  # 36 together
    single31 = sum31.replace(initial_meld_single_set=True)
    assert best_move("", rack, single31, opened=False).draws  # neither set alone
    single30 = get_rules("pressman-1998")
    move = best_move("", rack, single30, opened=False)
    assert len(move.placed) == 6 and move.initial_points == 36
    # the initial meld may not use table tiles
    assert best_move("R4 R5 R6", "R7", sabra, opened=False).draws
    # a joker counts what it stands for, or nothing in the variant
    assert len(best_move("", "J R12 R13", sabra, opened=False).placed) == 3
    zero = sabra.replace(initial_meld_joker_value="zero")
    assert best_move("", "J R12 R13", zero, opened=False).draws


def test_a_run_laid_out_of_order_under_the_as_laid_variant():
    """With ``meld_order="as-laid"`` a run must lie in order (003: "three or more
    consecutive (one after the other) numbers"): R3 R1 R2 is shown laid R1 R2 R3, whether
    the player draws or opens beside it."""
    as_laid = get_rules().replace(meld_order="as-laid")
    move = best_move("R3 R1 R2", "K5", as_laid)
    assert move.draws and str(move.table) == "R1 R2 R3"
    assert str(best_move("R3 R1 R2", "K5").table) == "R3 R1 R2"  # any order: as it lies
    move = best_move("R3 R1 R2", "K10 B10 O10", as_laid, opened=False)
    assert str(move.table) == "R1 R2 R3 | K10 B10 O10"


def test_an_opening_that_cannot_be_made_as_the_api_sends_it():
    assert best_move("", "R1 R2", opened=False).to_dict() == {
        "placed": [], "table": "", "melds": [], "points": 0, "tiles_placed": 0,
        "remaining": ["R1", "R2"], "opening": True, "initial_points": 0, "draws": True,
        "exact": True, "steps": []}


def test_opening_with_an_invalid_table_rearranges_only_the_table_tiles():
    move = best_move([["R2", "R1"], ["R3"]], "K10 B10 O10", opened=False)
    assert str(move.table) == "R1 R2 R3 | K10 B10 O10"
    with pytest.raises(TableUnsolvableError):
        best_move("R1 R2", "K10 B10 O10", opened=False)


def test_move_to_dict():
    move = best_move("R4 R5 R6", "R7 B1")
    assert isinstance(move, Move)
    data = move.to_dict()
    assert data["placed"] == ["R7"] and data["tiles_placed"] == 1
    assert data["table"] == "R4 R5 R6 R7" and data["remaining"] == ["B1"]
    assert data["points"] == 7 and data["draws"] is False
    with pytest.raises(AttributeError):
        move.points = 0  # frozen


def test_a_move_as_the_api_and_the_cli_send_it():
    """Every field of a hint's stored form: R7 goes on the end of R4 R5 R6, B1 stays."""
    assert best_move("R4 R5 R6", "R7 B1").to_dict() == {
        "placed": ["R7"], "table": "R4 R5 R6 R7", "melds": ["R4 R5 R6 R7"], "points": 7,
        "tiles_placed": 1, "remaining": ["B1"], "opening": False, "initial_points": None,
        "draws": False, "exact": True,
        "steps": [{"action": "add", "tiles": ["R7"], "meld": "R4 R5 R6",
                   "target": "R4 R5 R6 R7", "text": "add R7 to R4 R5 R6", "phrase": "add",
                   "args": {"tiles": "R7", "meld": "R4 R5 R6"}}]}
    # an opening says so, with what its sets count (003: "valued at least 30 points")
    assert best_move("", "K10 B10 O10 R1", opened=False).to_dict() == {
        "placed": ["K10", "B10", "O10"], "table": "K10 B10 O10", "melds": ["K10 B10 O10"],
        "points": 30, "tiles_placed": 3, "remaining": ["R1"], "opening": True,
        "initial_points": 30, "draws": False, "exact": True,
        "steps": [{"action": "lay", "tiles": ["K10", "B10", "O10"], "meld": None,
                   "target": "K10 B10 O10", "text": "lay K10 B10 O10", "phrase": "lay",
                   "args": {"meld": "K10 B10 O10"}}]}
    # nothing to lay: draw, no steps
    data = best_move("R4 R5 R6", "B1").to_dict()
    assert data["draws"] is True and data["steps"] == [] and data["tiles_placed"] == 0
    assert data["table"] == "R4 R5 R6" and data["remaining"] == ["B1"]


def test_max_score():
    assert max_score("") == 0
    assert max_score("R1 R2 R3 K13") == 6
    assert max_score("K13 B13 O13 R1 R2") == 39
    assert max_score("J R1") == 0
    assert max_score("J J R1") == 1  # jokers count 0, but may help
    assert max_score("J R12 R13") == 25
    # both jokers laid and a tile of some numbers left over: K8 K9 K10, R8 R9 J and
    # B9 J B11 B12 (76); the second K8 and O12 then fit nowhere (the brute force of
    # tests/referee/oracles.py over every subset agrees: no valid subset is worth more)
    assert max_score("K8 K8 K9 K10 B9 B11 B12 O12 R8 R9 J J") == 76
    # the generalised puzzle: numbers beyond 13
    assert max_score_counts({(0, 50): 1, (0, 51): 1, (0, 52): 1, (1, 99): 2}, numbers=100) == 153
    with pytest.raises(ValueError):
        max_score_counts({(0, 101): 1}, numbers=100)


def test_max_score_counts_on_boards_far_beyond_13():
    """The generalised puzzle on 150 numbers: the answers worked by hand from the meld rules
    (003: "A “group” is a is a set of either three or four tiles of the same number but in
    different colours", "A “run” is a set of three or more consecutive (one after the other)
    numbers"), a joker standing for any tile and counting 0."""
    # two 16s of different colours and a joker: a group of three, 32
    assert max_score_counts({(0, 16): 1, (1, 16): 1}, numbers=150, jokers=2) == 32
    assert max_score_counts({(1, 5): 1, (3, 5): 1}, numbers=150, jokers=2) == 10
    # a lone tile with both jokers makes a meld; the larger of two lone tiles wins
    assert max_score_counts({(2, 133): 1, (3, 142): 1}, numbers=150, jokers=2) == 142
    assert max_score_counts({(0, 145): 1, (2, 143): 1}, numbers=150, jokers=2) == 145
    # a run at the very top of the board and a group below it
    assert max_score_counts({(0, 148): 2, (0, 149): 1, (0, 150): 1, (1, 148): 1, (2, 148): 1},
                            numbers=150) == 148 + 149 + 150 + 3 * 148
    # the same tiles on the board of 13 numbers and on one of 150 give the same answer:
    # K5 B5 O5 and R9 R10 J (34); K3 K4 K5 would leave B5 O5 or R9 R10 short of the joker
    tiles = parse_tiles("K3 K4 K5 B5 O5 R9 R10 O12 J")
    counts = {}
    for t in tiles:
        if not t.is_joker:
            key = ("KBOR".index(t.colour.value), t.number)
            counts[key] = counts.get(key, 0) + 1
    assert max_score_counts(counts, numbers=150, jokers=1) == max_score(tiles) == 5 * 3 + 9 + 10


def test_max_score_counts_refuses_what_is_no_puzzle():
    # a board of one number is a puzzle (nothing can be laid); 150 numbers at most
    assert max_score_counts({}, numbers=1) == 0
    assert max_score_counts({(3, 150): 1, (3, 149): 1, (3, 148): 1}, numbers=150) == 447
    with pytest.raises(ValueError, match="numbers run from 1 to at most 150"):
        max_score_counts({}, numbers=151)
    with pytest.raises(ValueError, match="numbers run from 1"):
        max_score_counts({}, numbers=0)
    # four colours (0-3), 0-2 copies of a tile (a count of 0 is no tile), 0-2 jokers
    assert max_score_counts({(0, 1): 1, (1, 1): 1, (2, 1): 1, (3, 1): 0}) == 3
    with pytest.raises(ValueError, match=r"bad tile count \(4, 1\): 1"):
        max_score_counts({(4, 1): 1})
    with pytest.raises(ValueError, match=r"bad tile count \(0, 1\): 3"):
        max_score_counts({(0, 1): 3})
    with pytest.raises(ValueError, match=r"bad tile count \(0, 1\): -1"):
        max_score_counts({(0, 1): -1})
    assert max_score_counts({(0, 7): 1}, jokers=2) == 7
    with pytest.raises(ValueError, match="at most 2 jokers"):
        max_score_counts({}, jokers=3)
    # no jokers unless asked for: two tiles alone make no meld
    assert max_score_counts({(0, 1): 1, (0, 2): 1}) == 0
    assert max_score_counts({(0, 1): 1, (0, 2): 1}, jokers=1) == 3


def test_an_unknown_preset_is_refused():
    for ask in (arrange, max_score):
        with pytest.raises(UnknownRulesError, match="unknown rule preset 'nonsense'"):
            ask("R1 R2 R3", "nonsense")




@pytest.mark.parametrize("preset", ["sabra", "sabra-way", "pressman-1998", "tournament"])
def test_every_hint_is_a_legal_turn_under_its_preset(preset):
    """The solver may move jokers freely; a hint must still obey the preset's joker rules."""
    import random

    from referee import PRESETS, best_move, check_turn, parse_table

    rng = random.Random(preset)
    rules = PRESETS[preset]
    moved = 0
    for _ in range(60):
        melds, free = random_table_with_jokers(rng, longest_run=5)
        rest = [t for t in free.elements() if not t.is_joker]
        rng.shuffle(rest)
        table = parse_table([" ".join(map(str, m)) for m in melds])
        rack = rest[:rng.randint(2, 10)]
        move = best_move(table, rack, rules)
        verdict = check_turn(table, move.table, rack, rules=rules)
        assert verdict.legal, f"{table} + {rack}: {move.table}\n{verdict.summary()}"
        moved += bool(move.placed)
    assert moved >= 20


def test_a_rack_that_lays_far_fewer_tiles_than_it_holds():
    """No two of these eight tiles make a meld together (all numbers differ, and no colour has
    two within three numbers), so the best move is one tile with both jokers: K13 J J, 13 +
    30 + 30 points (checked by the brute force). The search asks "all ten?", "nine?", ...
    and must still end far below the top (mutation testing: with the steps between the
    counts asked halving instead of doubling, it asked forever)."""
    rack = parse_tiles("J J R1 B3 K5 O7 R9 B11 K13 O2")
    rules = get_rules("sabra")
    move = best_move("", rack, rules, opened=True)
    assert (len(move.placed), move.points) == (3, 73) == brute_best_move([], list(rack), rules)
    assert sorted(map(str, move.placed)) == ["J", "J", "K13"]


def test_two_spare_jokers_fit_beside_a_full_run_and_a_group_of_four():
    """A full run 1-13 and a group of four take no joker at an end or in a place of their
    own (003: "A "run" is a set of three or more consecutive (one after the other) numbers,
    which are all of the same colour", "number 1 is always played as the lowest number and
    may not follow number 13"); two spare jokers are fitted by splitting the run (1 2 3 J
    and 4-13) and adding the second to the short piece. The melds then hold exactly those
    two jokers, each meld valid: no third joker (002: "104 number tiles ... and two
    jokers")."""
    colours = list(Colour)
    red = colours.index(Colour.RED)
    runs = [[(red, n) for n in range(1, 14)]]
    groups = [(7, [(c, 7) for c in range(len(colours))])]
    assert absorb(runs, groups, 2)
    melds = [run_meld(r) for r in runs] + [
        Meld(tuple(JOKER if s is None else Tile(colours[s[0]], s[1]) for s in g))
        for _, g in groups]
    assert sum(t.is_joker for m in melds for t in m) == 2
    assert all(check_meld(m).ok for m in melds), [str(m) for m in melds]
    assert sorted(str(m) for m in melds) == sorted(
        ["R1 R2 R3 J J", "R4 R5 R6 R7 R8 R9 R10 R11 R12 R13", "K7 B7 O7 R7"])
