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
