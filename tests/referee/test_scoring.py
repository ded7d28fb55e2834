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


# The explanation is what the scoresheet and `rummiref score` show: the arithmetic in words.
# 000: "the losing players must add up the values of the tiles remaining in their racks ...
# The joker has a penalty value of 30 ... each of the losing players' scores for the game is
# added to the winners current [score]"; its example: "player A wins, player B has a score of
# 5, player C has a score of 10 and player D a score of 3. Player A will now have a cumulative
# score of 18".

def test_the_explanation_of_a_round_someone_won():
    r = settle_round({"A": 0, "B": 5, "C": 10, "D": 3}, winner="A", rules="pressman-1998")
    assert r.explanation == ["B: rack 5, scores -5", "C: rack 10, scores -10",
                             "D: rack 3, scores -3", "A went out and collects 18"]
    assert r.rack_values == {"A": 0, "B": 5, "C": 10, "D": 3} and r.rules == "pressman-1998"
    d = r.to_dict()
    assert (d["scores"], d["winner"], d["went_out"], d["total"]) == (
        {"A": 18, "B": -5, "C": -10, "D": -3}, "A", True, 0)
    assert d["explanation"] == r.explanation and d["rack_values"] == r.rack_values
    # racks given as tiles are shown back as tiles; racks given as points as None
    t = settle_round({"Ann": "", "Ben": "r5 k13 j"}, winner="Ann")
    assert t.racks == {"Ann": "", "Ben": "R5 K13 J"} and d["racks"] == {p: None for p in "ABCD"}


def test_the_explanation_of_a_round_nobody_won():
    # 003 (sabra): "the player with the lowest count on his or her rack is the winner"; the
    # others subtract the winner's total ("adds up his or her total tile value and subtract
    # from it the winners total")
    r = settle_round({"Ann": 3, "Ben": "R5 K13 J", "Cy": 12}, winner=None, rules="sabra")
    assert r.explanation == ["Nobody went out; the lowest rack wins: Ann 3, Ben 48, Cy 12",
                             "Ben: rack 48 - 3 = 45, scores -45", "Cy: rack 12 - 3 = 9, scores -9",
                             "Ann collects 54"]
    # 000 (pressman): "the player with the least number of tiles in their rack is the winner.
    # Scoring is then carried out in the normal manner."
    r = settle_round({"Ann": "K13 K12", "Ben": "R1 R2 R3", "Cy": "B4 B5 B6 B7"},
                     winner=None, rules="pressman-1998")
    assert r.explanation == ["Nobody went out; fewest tiles wins: Ann 2, Ben 3, Cy 4",
                             "Ben: rack 6, scores -6", "Cy: rack 22, scores -22",
                             "Ann collects 28"]
    # the same round under sabra: the lowest rack (Ben's 6) wins, and the difference is paid
    r = settle_round({"Ann": "K13 K12", "Ben": "R1 R2 R3", "Cy": "B4 B5 B6 B7"}, winner=None)
    assert r.winner == "Ben" and r.scores == {"Ann": -19, "Ben": 35, "Cy": -16}


def test_a_tie_nobody_won_splits_the_pot_in_seat_order_and_says_so():
    r = settle_round({"A": 5, "B": 5, "C": 20, "D": 5}, winner=None)
    # C pays 20 - 5 = 15 to the three who tie: 5 each
    assert r.scores == {"A": 5, "B": 5, "C": -15, "D": 5} and r.winner == ["A", "B", "D"]
    assert r.explanation[-1] == "A, B, D tie and split 15"
    r = settle_round({"A": 5, "B": 5, "C": 21, "D": 5}, winner=None)
    # 16 in three: 6, 5, 5, the odd point to the first in seat order
    assert r.scores == {"A": 6, "B": 5, "C": -16, "D": 5} and r.total == 0
    everyone = settle_round({"A": 5, "B": 5}, winner=None)
    assert everyone.explanation[-1] == "Every player tied: nobody scores"
    assert everyone.winner == ["A", "B"] and not everyone.went_out


def test_the_most_a_rack_can_hold_is_every_tile_of_the_set():
    # 002: "There are 104 number tiles in the game (valued 1 to 13 in four different colors,
    # but duplicated) and two jokers": 8 x (1 + ... + 13) = 728, and two jokers at 30: 788
    assert settle_round({"A": 0, "B": 788}, winner="A").scores["A"] == 788
    with pytest.raises(ScoringError, match=r"789 points is more than every tile of a set together \(788\)"):
        settle_round({"A": 0, "B": 789}, winner="A")
    # with a 25-point joker the whole set is worth 778
    low = get_rules().replace(joker_penalty=25)
    with pytest.raises(ScoringError, match=r"\(778\)"):
        settle_round({"A": 0, "B": 779}, winner="A", rules=low)


@pytest.mark.parametrize("rack, points", [(12, 12), (12.0, 12), ("12", 12), (" +12 ", 12),
                                          ("K12", 12), (["K12"], 12), ("", 0), (None, 0)])
def test_a_rack_is_points_or_tiles(rack, points):
    assert settle_round({"A": 0, "B": rack}, winner="A").rack_values["B"] == points


@pytest.mark.parametrize("racks, match", [
    ({"Ann": 0, "": 5}, "every player needs a name"),
    ({"Ann": 0, "  ": 5}, "every player needs a name"),
    ({"Ann": 0, "Ben": "-5"}, "cannot be worth -5"),
    ({"Ann": 0, "Ben": "R7 X9"}, "Ben's rack: 'X9'"),
    ({"Ann": 0, "Ben": "J J", "Cy": "J"}, "a third joker in the racks together"),
    ({"Ann": 1, "Ben": 5}, r"Ann's rack must be empty \(it was given as 1 point\)"),
])
def test_more_bad_rounds_are_refused_with_a_reason(racks, match):
    with pytest.raises(ScoringError, match=match):
        settle_round(racks, winner="Ann")


def test_a_round_nobody_won_is_stored_whole():
    # what the scoresheet keeps of a round: the racks' values, the preset's name, how each
    # rack was given, and that nobody went out
    r = settle_round({"Ann": 3, "Ben": "R5 K13 J", "Cy": 12}, winner=None, rules="sabra")
    d = r.to_dict()
    assert (d["rules"], d["went_out"], d["winner"]) == ("sabra", False, "Ann")
    assert d["rack_values"] == {"Ann": 3, "Ben": 48, "Cy": 12}
    assert d["racks"] == {"Ann": None, "Ben": "R5 K13 J", "Cy": None}
    tie = settle_round({"A": 5, "B": "R2 R3"}, winner=None, rules="sabra-way")
    assert (tie.went_out, tie.rules, tie.rack_values) == (False, "sabra-way", {"A": 5, "B": 5})
    assert tie.racks == {"A": None, "B": "R2 R3"}


def test_a_winner_left_out_of_the_racks_gave_no_rack():
    r = settle_round({"Ben": 7, "Cy": "K1"}, winner="Ann")
    assert r.racks == {"Ben": None, "Cy": "K1", "Ann": None}


@pytest.mark.parametrize("racks, winner, message", [
    ({"Ann": 0}, "Ann", "a round needs at least two players"),
    ({"Ann": 0, " ": 5}, "Ann", "every player needs a name"),
    ({"Ann": 0, "Ben": "X9"}, "Ann",
     "Ben's rack: 'X9': 'X' is not a colour (K black, B blue, O orange or Y, R red)"),
])
def test_bad_rounds_say_exactly_why(racks, winner, message):
    with pytest.raises(ScoringError) as e:
        settle_round(racks, winner=winner)
    assert str(e.value) == message
