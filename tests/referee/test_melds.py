import pytest

from referee import check_meld, get_rules, meld_points

STRICT = get_rules().replace(meld_order="as-laid")


@pytest.mark.parametrize("meld, kind, points", [
    ("R4 R5 R6", "run", 15),
    ("R11 R12 R13", "run", 36),
    ("K1 K2 K3", "run", 6),
    ("R7 R8 J R10", "run", 34),
    ("R10 R9 R8", "run", 27),            # read from the other side of the table
    ("K5 B5 O5", "group", 15),
    ("K5 B5 O5 R5", "group", 20),
    ("K5 J O5", "group", 15),
    ("J R2 R3", "run", 6),               # joker as R1
    ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13", "run", 91),
])
def test_valid_melds(meld, kind, points):
    v = check_meld(meld)
    assert v.ok, v.reason
    assert (v.kind, v.points) == (kind, points)
    assert str(v.meld) in v.reason


@pytest.mark.parametrize("meld, why", [
    ("R4 R5", "at least 3"),
    ("R12 R13 R1", "R1 cannot follow R13"),  # text 003: "1 ... may not follow number 13"
    ("K13 K1 K2", "K1 cannot follow K13"),
    ("B13 J B2", "B1 cannot follow B13"),    # the joker would be B1
    ("O2 O1 O13", "O1 cannot follow O13"),   # read from the other side of the table
    ("R4 R5 R7", "R6 missing"),
    ("R4 B5 R6", "neither"),
    ("K5 B5 B5", "colour repeats"),
    ("K5 B5 O5 R5 J", "at most 4"),
    ("R5 R5 R6", "R5 appears twice"),
    ("J J", "at least 3"),
    ("K5 B6 O5", "neither"),
])
def test_invalid_melds_say_why(meld, why):
    v = check_meld(meld)
    assert not v.ok and v.kind is None
    assert why in v.reason


def test_a_wrapping_run_is_not_called_a_gap():
    # K13 K1 K2 lacks no tile in between: the reason is that 1 may not follow 13, under every
    # preset, laid in order or not.
    for rules in (None, STRICT):
        v = check_meld("K13 K1 K2", rules)
        assert not v.ok and "missing" not in v.reason and "K1 cannot follow K13" in v.reason
    assert "K3 missing" in check_meld("K1 K2 K4").reason


def test_joker_value_follows_laid_order_and_the_verdict_says_so():
    v = check_meld("R7 R8 J R10")
    assert [str(t) for t in v.stands_for] == ["R7", "R8", "R9", "R10"]
    assert "joker stands for R9" in v.reason
    v = check_meld("R5 R6 J")          # laid at the end: R7, not R4
    assert str(v.stands_for[2]) == "R7" and v.points == 18
    v = check_meld("J R5 R6")
    assert str(v.stands_for[0]) == "R4" and v.points == 15


def test_out_of_order_run_is_valid_by_default_and_says_how_to_lay_it():
    v = check_meld("R12 R13 J")
    assert v.ok and "when laid as R11 R12 R13" in v.reason
    assert str(v.stands_for[2]) == "R11"
    assert not check_meld("R12 R13 J", STRICT).ok
    assert not check_meld("J R1 R2", STRICT).ok
    assert check_meld("R11 R12 J", STRICT).ok


def test_declared_kind():
    assert not check_meld("R4 B4 K4", kind="run").ok
    assert check_meld("R4 B4 K4", kind="group").ok
    assert check_meld("J J R5", kind="run").kind == "run"
    with pytest.raises(ValueError):
        check_meld("R4 B4 K4", kind="set")


def test_points_for_initial_meld_with_joker_as_zero_variant():
    rules = get_rules().replace(initial_meld_joker_value="zero")
    assert meld_points("K1 J K3") == 6
    assert meld_points("K1 J K3", rules, for_initial_meld=True) == 4
    assert meld_points("K1 K3 K9") == 0   # invalid melds are worth nothing


# 000: "Runs are composed of three or more, same-colored tiles, in consecutive number order.
# ... A 1 may not follow a 13." "Groups are three or four same-value tiles in distinct
# colors." The reasons below say which of these a meld breaks, naming its tiles.

def test_a_meld_that_is_neither_names_its_tiles_in_both_reasons():
    assert check_meld("K5 B6 O5").reason == (
        "K5 B6 O5: neither a run (colours differ (K5, B6, O5)) nor a group (numbers differ "
        "(K5, B6, O5))")
    assert check_meld("K5 B5 B5").reason == "K5 B5 B5: not a group: colour repeats (B5 twice)"
    # a valid meld with no joker says nothing of jokers
    assert check_meld("R4 R5 R6").reason == "R4 R5 R6: a valid run of 3 worth 15"
    # two jokers: both named, in the order they lie
    v = check_meld("R5 J J", kind="run")
    assert v.reason.startswith("R5 J J: a valid run of 3 worth 18; the jokers stand for R6 and "
                               "R7")


@pytest.mark.parametrize("meld", ["K13 K2 K1", "K13 K1 K12"])
def test_a_run_that_would_need_1_after_13_is_called_so_in_any_order(meld):
    # laid in any order (the default), these tiles make a run only if 1 followed 13
    v = check_meld(meld)
    assert not v.ok and "K1 cannot follow K13" in v.reason, v.reason


def test_as_laid_a_run_read_downward_may_not_wrap_either_and_a_gap_is_a_gap():
    # O2 O1 O13 read from across the table is O13 O1 O2: 1 after 13
    assert "O1 cannot follow O13" in check_meld("O2 O1 O13", STRICT).reason
    assert "K3 missing" in check_meld("K1 K2 K4", STRICT).reason


def test_a_run_read_downward_fixes_its_joker_as_laid():
    # R10 R9 J lies in sequence read from across the table: the joker is R8, nothing to
    # rearrange, and nothing assumed
    v = check_meld("R10 R9 J")
    assert [str(t) for t in v.stands_for] == ["R10", "R9", "R8"]
    assert not v.assumed and "when laid as" not in v.reason


def test_readings_as_laid_come_alone_and_only_of_the_kind_asked():
    from referee import meld_readings
    from referee.tiles import Meld, parse_tiles

    def tiles(readings):
        return [" ".join(str(t) for t in r.stands_for) for r in readings]

    # R5 R6 J as laid fixes the joker as R7: a rearranged R4 is no reading of it
    assert tiles(meld_readings("R5 R6 J")) == ["R5 R6 R7"]
    # R6 J R5 lies in no sequence: the rearranged runs are its readings, R4 or R7 only
    assert sorted(tiles(meld_readings("R6 J R5"))) == ["R6 R4 R5", "R6 R7 R5"]
    assert all(r.rearranged for r in meld_readings("R6 J R5"))
    # ... and under as-laid rules a run that must be rearranged has no reading at all
    assert meld_readings("R6 J R5", STRICT) == () and meld_readings("R12 R13 J", STRICT) == ()
    assert tiles(meld_readings(Meld(parse_tiles("R12 R13 J")))) == ["R12 R13 R11"]
    # kind: K5 J J is a run (either way) or a group of any two missing colours
    assert {r.kind for r in meld_readings("K5 J J", kind="run")} == {"run"}
    assert len(meld_readings("K5 J J", kind="group")) == 6
    # too few tiles, jokers only, or tiles no set holds (a misread third R7): no reading
    assert meld_readings("R5 R6") == () and meld_readings("J J J") == ()
    assert meld_readings("R7 R7 R7") == ()


def test_meld_points_follow_the_rules_given():
    zero = get_rules().replace(initial_meld_joker_value="zero")
    assert meld_points("K1 J K3", zero) == 6   # outside the initial meld a joker counts
    assert meld_points("R12 R13 J", STRICT) == 0 and meld_points("R12 R13 J") == 36


def test_a_meld_verdict_as_json_and_back():
    # the live page reads "assumed": which jokers the owner may declare (K5 J O5: B5 or R5)
    from referee import MeldVerdict
    v = check_meld("K5 J O5")
    d = v.to_dict()
    assert (d["assumed"], d["declared"], d["stands_for"]) == (True, False, ["K5", "B5", "O5"])
    assert MeldVerdict.from_dict(d) == v
    declared = check_meld("K5 J O5", jokers="R5")
    assert MeldVerdict.from_dict(declared.to_dict()) == declared and declared.declared
    # a misread table may hold tiles no set has: stored and read back all the same
    bad = check_meld("R7 R7 R7")
    assert MeldVerdict.from_dict(bad.to_dict()) == bad
    short = MeldVerdict.from_dict({"ok": False, "meld": "R7", "points": 7, "reason": "short"})
    assert (short.stands_for, short.assumed, short.declared) == ((), False, False)


def test_run_reasons_name_the_tile_that_breaks_them():
    # the repeated tile is named wherever it lies
    assert "R5 appears twice" in check_meld("R6 R5 R5").reason
    # 000: "The only limit to the length of a run is the extremes of the tile values": 13
    v = check_meld("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J")
    assert not v.ok and "a run has at most 13 tiles" in v.reason


def test_runs_in_either_direction_and_out_of_order():
    # read from across the table R10 R9 R8 lies in sequence, also when the order is strict
    assert check_meld("R10 R9 R8", STRICT).ok
    # out of order, no joker: valid by default, laid as R4 R5 R6; not when strict
    v = check_meld("R5 R4 R6")
    assert v.ok and "when laid as R4 R5 R6" in v.reason
    assert not check_meld("R5 R4 R6", STRICT).ok
    # strict order reads a run as laid only (either way): K13 K2 K1 is no 1-after-13 as laid,
    # it lacks K3 to K12
    v = check_meld("K13 K2 K1", STRICT)
    assert not v.ok and "cannot follow" not in v.reason and "K3" in v.reason


def test_what_the_jokers_are_declared_as_must_make_the_meld():
    # 003: "A joker can be retrieved from a set by placing it with a tile of the same
    # numerical value and colour it represents": what a joker stands for can be declared;
    # a declaration that makes no run or group of the tiles is no reading of them
    v = check_meld("K5 J O5", jokers="R6")
    assert (v.ok, v.kind, v.points, v.declared) == (False, None, 10, True)
    assert str(v.meld) == "K5 J O5"
    assert v.reason == ("K5 J O5: the joker is declared as R6, which does not make a run or a "
                        "group of these tiles")
    v = check_meld("K1 J J", jokers="B2 B3")
    assert v.reason == ("K1 J J: the jokers are declared as B2 B3, which does not make a run "
                        "or a group of these tiles")
    v = check_meld("K1 J J", kind="run", jokers="B1 O1")
    assert v.reason.endswith("which does not make a run of these tiles")


@pytest.mark.parametrize("meld, jokers, message", [
    ("K5 J O5", "B5 R5", "K5 J O5 holds 1 joker: declare one numbered tile for it, in the "
                         "order they lie (got B5 R5)"),
    ("K1 J J", "B1", "K1 J J holds 2 jokers: declare 2 numbered tiles for them, in the order "
                     "they lie (got B1)"),
    ("K1 J J", "J O1", "K1 J J holds 2 jokers: declare 2 numbered tiles for them, in the order "
                       "they lie (got J O1)"),
    ("K5 J O5", "", "K5 J O5 holds 1 joker: declare one numbered tile for it, in the order "
                    "they lie (got nothing)"),
])
def test_a_declaration_that_cannot_apply_says_what_to_declare(meld, jokers, message):
    from referee import DeclarationError
    with pytest.raises(DeclarationError) as e:
        check_meld(meld, jokers=jokers)
    assert str(e.value) == message


def test_melds_too_short_or_all_jokers_and_a_bad_kind():
    # 000: "All tiles in play must be arranged in sets with at least three tiles"
    v = check_meld("")
    assert (v.ok, v.kind, v.points) == (False, None, 0)
    assert v.reason == "nothing: a meld needs at least 3 tiles, this has 0"
    v = check_meld("J J J")
    assert (v.ok, v.kind, v.points, str(v.meld)) == (False, None, 0, "J J J")
    assert v.reason == "J J J: a meld needs at least one numbered tile"
    with pytest.raises(ValueError, match=r"^kind must be 'run', 'group' or None, not 'set'$"):
        check_meld("R4 B4 K4", kind="set")


def test_strict_order_says_why_a_run_is_not_as_laid():
    # under strict order a run's tiles must lie in sequence: R5 R4 R6 does not; R12 R13 J
    # would need the joker as R14 (000: "A 1 may not follow a 13")
    assert check_meld("R5 R4 R6", STRICT).reason == (
        "R5 R4 R6: not a run: the tiles do not lie in sequence (1 never follows 13, and a "
        "joker's place fixes its value)")
    assert check_meld("R12 R13 J", STRICT).reason == (
        "R12 R13 J: not a run: R1 cannot follow R13: a run ends at 13, and 1 is always the "
        "lowest number")


def test_a_meld_worth_the_same_as_a_run_or_a_group_is_called_a_run():
    # J R5 J: R4 R5 R6 or a group of 5s, 15 either way; the verdict calls it a run and says
    # it could also be a group
    v = check_meld("J R5 J")
    assert (v.kind, v.points) == ("run", 15)
    assert v.reason.endswith("(it could also be read as a group)")


@pytest.mark.parametrize("meld, kw, reason", [
    # one colour, numbers apart: judged as a run only
    ("R4 R5 R7", {}, "R4 R5 R7: not a run: not consecutive: R6 missing and not enough jokers"),
    # asked as a run or a group: judged as that only
    ("R4 B4 K4", {"kind": "run"}, "R4 B4 K4: not a run: colours differ (R4, B4, K4)"),
    ("R4 R5 R6", {"kind": "group"}, "R4 R5 R6: not a group: numbers differ (R4, R5, R6)"),
    # worth more as a group (39) than as a run (36): a group, and the run is mentioned
    ("J J K13", {}, "J J K13: a valid group of 3 worth 39; the jokers stand for B13 and O13 "
                    "(it could also be read as a run)"),
    ("K5 J O5", {"jokers": "R5"}, "K5 J O5: a valid group of 3 worth 15; the joker stands "
                                  "for R5 (as declared)"),
    ("R12 R13 J", {}, "R12 R13 J: a valid run of 3 worth 36 when laid as R11 R12 R13; the "
                      "joker stands for R11"),
    ("K5 J O5", {}, "K5 J O5: a valid group of 3 worth 15; the joker stands for B5 (or any "
                    "missing colour)"),
    ("K5 B5 O5", {}, "K5 B5 O5: a valid group of 3 worth 15"),
    ("R4 R7 R8", {}, "R4 R7 R8: not a run: not consecutive: R5, R6 missing and not enough "
                     "jokers"),
    # out of order, the joker may be R4 or R7: the verdict takes R7 (worth more) and names R4
    ("R6 J R5", {}, "R6 J R5: a valid run of 3 worth 18 when laid as R5 R6 R7; the joker "
                    "stands for R7 (or R4)"),
    # two jokers: every other pair of values they could take, in the order they lie
    ("R6 J J R5", {}, "R6 J J R5: a valid run of 4 worth 26 when laid as R5 R6 R7 R8; the "
                      "jokers stand for R8 and R7 (or R3 R4 or R4 R3 or R4 R7 or R7 R4 or "
                      "R7 R8)"),
])
def test_each_verdict_says_why_in_full(meld, kw, reason):
    assert check_meld(meld, **kw).reason == reason
