"""``referee.matching.each_apart``: whether each of several things can have a choice of its
own, as the hint search and the turn judge ask it of a joker's new set (each tile from a
different meld of the table)."""

from __future__ import annotations

import itertools
import random

from referee.matching import each_apart


def test_a_choice_taken_first_is_given_up_for_one_that_has_no_other():
    # the first tile could come from meld 1 or 2, the second only from meld 1: the first
    # must move to meld 2 (an augmenting path), and then a third that needs meld 2 cannot fit
    assert each_apart([[1, 2], [1]])
    assert not each_apart([[1, 2], [1], [2]])
    assert each_apart([[1, 2], [1], [2, 3]])


def test_nothing_to_place_and_nowhere_to_go():
    assert each_apart([])
    assert not each_apart([[]])
    assert not each_apart([[5], [5]])


def test_the_same_answer_as_trying_every_choice():
    rng = random.Random("each-apart")
    for _ in range(400):
        options = [rng.sample(range(5), rng.randint(0, 3)) for _ in range(rng.randint(1, 5))]
        brute = any(len(set(pick)) == len(pick) for pick in itertools.product(*options))
        assert each_apart(options) == brute, options
