"""The solver's "no arrangement from here" value lies below every value and every bar a solve
can meet, and is a machine-word int: the search compares with it at every step, and CPython
compares ints beyond a machine word (the value was -2**60) on a slower path.

A value is a sum of weights laid (never below 0); a bar is a floor less weights still to gain:
the hint search asks for more than the best turn found less the weight of the places' own
rack tiles, so its floors reach down to minus the weight of every tile, and a rebuild asks
each move for the target less that move's weight."""

from referee import PRESETS, all_tiles
from referee import search as solver
from referee.opening import rack_weights
from referee.tiles import MAX_NUMBER


def _heaviest() -> int:
    """The weight of every tile of the set laid from the rack, under the heaviest preset."""
    most = 0
    for name in PRESETS:
        weight, wj = rack_weights(MAX_NUMBER, PRESETS[name])
        most = max(most, sum(wj if t.is_joker else weight[t.number - 1][0]
                             for t in all_tiles()))
    return most


def test_no_arrangement_lies_below_every_value_and_bar_within_a_machine_word():
    heaviest = _heaviest()
    assert heaviest > 100 * solver.BIG  # (the whole set: 106 tiles)
    lowest_bar = -heaviest - heaviest  # a floor of minus everything, less every weight
    assert solver._NEG < lowest_bar
    assert solver._NEG - heaviest > -(1 << 30)  # and what is asked below it, too

