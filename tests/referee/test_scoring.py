import pytest

from referee import ScoringError, get_rules, rack_value, settle_round


def test_winner_collects_what_losers_pay():
    r = settle_round({"Ann": 0, "Ben": "R5 K13 J", "Cy": 12}, winner="Ann")
    assert r.scores == {"Ann": 60, "Ben": -48, "Cy": -12}
    assert r.total == 0 and r.went_out and r.winner == "Ann"


def test_the_pressman_example_from_the_rules():
    r = settle_round({"A": 0, "B": 5, "C": 10, "D": 3}, winner="A", rules="pressman-1998")
    assert r.scores == {"A": 18, "B": -5, "C": -10, "D": -3}


def test_joker_penalty_follows_the_rules():
    assert rack_value("J R5") == 35
    assert rack_value("J R5", get_rules().replace(joker_penalty=25)) == 30
    r = settle_round({"A": "", "B": "J J"}, winner="A", rules=get_rules().replace(joker_penalty=25))
    assert r.scores == {"A": 50, "B": -50}


def test_no_winner_difference_rule():
    r = settle_round({"Ann": 3, "Ben": "R5 K13 J", "Cy": 12}, winner=None, rules="sabra")
    assert r.winner == "Ann" and not r.went_out
    assert r.scores == {"Ann": 54, "Ben": -45, "Cy": -9} and r.total == 0


def test_no_winner_fewest_tiles_plain_rule_needs_tiles():
    r = settle_round({"Ann": "K13 K12", "Ben": "R1 R2 R3", "Cy": "B4 B5 B6 B7"},
                     winner=None, rules="pressman-1998")
    assert r.winner == "Ann"
    assert r.scores == {"Ann": 28, "Ben": -6, "Cy": -22}
    with pytest.raises(ScoringError, match="fewest tiles"):
        settle_round({"Ann": 25, "Ben": 6}, winner=None, rules="pressman-1998")


def test_no_winner_tie_splits_the_pot_and_still_sums_to_zero():
    r = settle_round({"A": 5, "B": 5, "C": 20}, winner=None)
    assert r.winner == ["A", "B"] and r.total == 0
    assert r.scores == {"A": 8, "B": 7, "C": -15}
    everyone = settle_round({"A": 5, "B": 5}, winner=None)
    assert everyone.scores == {"A": 0, "B": 0}


@pytest.mark.parametrize("racks, winner, match", [
    ({"Ann": 0, "Ben": -5}, "Ann", "cannot be worth -5"),
    ({"Ann": 0, "Ben": 5000}, "Ann", "more than every tile"),
    ({"Ann": 0, "Ben": 2.5}, "Ann", "whole numbers"),
    ({"Ann": 0, "Ben": "R14"}, "Ann", "R14"),
    ({"Ann": 0, "Ben": "R7 R7", "Cy": "R7"}, "Ann", "third R7"),
    ({"Ann": 4, "Ben": 5}, "Ann", "must be empty"),
    ({"Ann": 0}, "Ann", "at least two players"),
    ({"Ann": 0, "Ben": True}, "Ann", "not True"),
])
def test_bad_rounds_are_refused_with_a_reason(racks, winner, match):
    with pytest.raises(ScoringError, match=match):
        settle_round(racks, winner=winner)


def test_winner_may_be_left_out_of_racks():
    r = settle_round({"Ben": 7, "Cy": "K1"}, winner="Ann")
    assert list(r.scores) == ["Ben", "Cy", "Ann"] and r.scores["Ann"] == 8
