"""Can each of several things get a choice of its own? (A bipartite matching by augmenting
paths, for the few things a turn's searches ask it of: the tiles of a joker's new set, each
from a different meld of the table.)"""

from __future__ import annotations

from typing import Collection, Sequence


def each_apart(options: Sequence[Collection]) -> bool:
    """True when each entry of ``options`` can be given one of its own options, no option
    given twice."""
    owner: dict = {}
    return all(_own(k, set(), options, owner) for k in range(len(options)))


def _own(k, tried, options, owner) -> bool:
    """Give entry ``k`` an option of its own, taking one from another entry that can move to
    another of its options (an augmenting path; a function, not a closure calling itself,
    so a search leaves no reference cycles)."""
    for m in options[k]:
        if m not in tried:
            tried.add(m)
            if m not in owner or _own(owner[m], tried, options, owner):
                owner[m] = k
                return True
    return False
