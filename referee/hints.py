"""Hints: the move that lays the most rack tiles (then the most points) as a legal turn under
the preset, told as steps a person can follow.

How a hint is found, with the player opened:

1. The exact search of :mod:`referee.search` lays the table and the rack freely, every joker
   anywhere. Its value is an upper bound for every legal turn; with no joker on the table its
   answer is a legal turn, and with jokers it is when :func:`~referee.check_turn` says so.
2. Otherwise each meld holding a joker is given its place after the turn explicitly: a meld
   ``X`` that holds a tile of the old meld and, for each of its jokers, either the joker still
   standing for its tile (it stays) or that tile itself (the joker was exchanged and is free).
   Every such ``X`` the tiles allow is tried (runs: every window of numbers; groups: every set
   of colours); the rest of the table and the rack, with the freed jokers to be placed, is
   solved exactly; every result is judged by ``check_turn``. The search stops when a legal
   turn reaches the upper bound.

Before any place is tried, each *pattern* (what every joker stands for and whether it stays
or is exchanged) gets its own relaxed search: a joker that stays counts as the tile it stands
for wherever it lies, a freed joker goes anywhere. That bounds every turn of the pattern, and
its answer, with each staying joker put back beside a tile of its old meld, is often a legal
turn already. Patterns are taken best bound first; the search stops when the best legal turn
found reaches the next pattern's bound, which proves it best (``Move.exact``). A pattern
whose relaxed answer is not legal has its places tried, closest to the melds as they lie
first (``FIRST_PASS_PLACES`` of each pattern, then the others).

A freed joker must end the turn in a new set, which the exact search of the rest cannot see.
Where the rest's best answer puts it elsewhere, the place is kept aside; once every place has
had that cheap try, each kept place (best bound first) lays its freed jokers in every new set
they could go into (:mod:`referee.newsets`; two jokers in one set, or one set each) and
solves the rest again, its tiles taken from the table where it can (the rest then decides)
and, if that is not legal, from the rack where it can; a set needing some of each is not
tried, and its bound stays unsettled. Under the tournament rule a joker of a group of three
is taken by adding both missing colours, and the group may then be split: the place may be
two groups, each with one of the group's tiles and one missing colour (``J R13 O13`` with
B13 and K13 from ``B13 K13 R13 O13`` -> ``B13 O13 R13 | K13 O13 R13``). With one joker on the
table and none on the rack this covers every other legal turn.

Two joker melds may *meet* (:mod:`referee.joker_meeting`): each
joker needs a meld that holds a tile of its set and the joker, or the tile that exchanged
it (its place), and a freed joker a new set; a turn may use one meld for both places
(``K11 R11 J | J B11 O11`` + ``O9`` -> ``B11 K11 O11 R11 | J J O9``, each joker exchanged for
the other group's tile, from the table), or lay a freed joker in the other meld's place,
which is then its new set (``O3 J O5 O6 | O1 O2 O3 J`` + ``O4`` -> ``J J O3 | O1 O2 O3 |
O4 O5 O6``: the second joker stays, an O4 beside its meld's O3, and the first, exchanged for
the rack's O4, joins it), one way or both ways. Those combinations are tried after a
pattern's other places; with them the places of two joker melds of one joker each cover
every way the jokers can end the turn. Still left out: a two-joker meld split between its
staying joker and the tile that freed the other. With two jokers on the table a pattern
therefore keeps its bound, and a hint below it is legal but not proven best, unless the new
sets of the pattern prove it (:mod:`referee.joker_proof`): every new set its freed jokers
could go into (a joker that stays may lie in it, counted as its tile), and with two freed
jokers every pair of such sets whose bounds alone beat the best, is bounded with the sets
fixed; when none beats the best, no turn of the pattern does, and its places and sets not
yet tried are skipped. A joker that stays standing for a tile whose two copies are on the
table and the rack already is a third copy, which a player may lay in a third group of its
number; the exact search lays it so too (so the pattern bounds hold and rule such a
pattern out like any other), but such a pattern is never proven by its new sets.

Bounds that skip work, each an upper bound on every turn it rules out, so that they change
how fast a hint comes, never which value it has (:mod:`referee.joker_bounds`, used by
:mod:`referee.joker_hints`): every solve of the rest is asked only for more than the best
turn found (``floor``), and each distinct rest is solved once (and the solves share what
they proved about equal ends of the numbers, :mod:`referee.search`, starting with the free
move's); a bound of places or new sets, only ever compared with the best turn found, stops
its solve at the first weight above it; with two joker melds,
each place is bounded alone (the place fixed, the other meld relaxed as its pattern says)
and rules out every combination holding it; a new set is bounded once for all the places of
its pattern (the set fixed, the joker melds relaxed); and a pattern whose freed jokers have
few new sets to go into (a rack-tile minimum) is bounded set by set before any of its places
is tried.

The search stops at ``cpu_limit`` CPU seconds (``HINT_CPU_SECONDS`` by default): the hint is
then the best legal turn found and not proven best. The free move and the turn that leaves
every joker meld as it lies are always tried. A hint is always a legal turn: with no legal
play found it says to draw.
"""

from __future__ import annotations

import gc
import time
from contextlib import contextmanager
from typing import Optional

from .declared import declarations, keeping_declared
from .joker_hints import JokerSearch
from .melds import check_meld, meld_points
from .move import Move, move_value, split_rack, with_steps
from .opening import opening_melds, rack_weights
from .rules import Rules, get_rules
from .search import (
    MAX_NUMBER,
    NCOL,
    Leaning,
    _count_grid,
    _dead_must,
    _lay,
    _prune_optional,
    _table_of,
    _tiles_of,
)
from .solver import TableUnsolvableError, arrange
from .steps import describe
from .tiles import JOKERS, Table, TableLike, TilesLike, check_counts
from .turns import Declarations, check_turn
from .words import plural

__all__ = ["Move", "best_move"]

#: CPU seconds the search for a hint may take; past it the hint is the best legal turn
#: found, not proven best. It stops the rare search that blows up (tens of seconds on a
#: 90-tile table with both jokers) and leaves the usual ones alone.
HINT_CPU_SECONDS = 0.5


def best_move(table: TableLike, rack: TilesLike, rules: "Rules | str | None" = None,
              opened: bool = True, *, cpu_limit: Optional[float] = HINT_CPU_SECONDS,
              jokers: "Declarations | None" = None) -> Move:
    """The move that lays the most rack tiles (ties: the most points) as a legal turn.

    ``opened=True``: the table may be rearranged within the preset's joker rules (taking a
    joker included); ``opened=False``: the initial-meld rule applies: the melds on the table
    stay as they are and the new melds use rack tiles only, reaching
    ``rules.initial_meld_points`` (together, or one set alone with
    ``rules.initial_meld_single_set``); if that is impossible the move places nothing.

    Raises :class:`TableUnsolvableError` when the table's tiles cannot all be laid in valid
    melds even with every rack tile's help (the table was misread or is incomplete), and
    :class:`~referee.NotationError` / :class:`~referee.ImpossibleTilesError` on bad input.

    ``cpu_limit``: CPU seconds the search may take (None: no limit); past it, the search
    ends with the step it is in, the hint is the best legal turn found and ``Move.exact`` is
    False. The free search and the turn that leaves joker melds as they lie always run.

    ``jokers``: what the jokers of ``table`` were declared to stand for (``{meld index:
    tiles}``, as :func:`~referee.check_turn` takes them). The search reads every joker as
    the tiles as laid allow, so its hint is kept when it is legal with the declarations too
    (then it is still the best: a declaration only takes turns away). When it is not (it
    takes a declared joker with another tile than the one declared), the hint is the best
    legal turn of those that leave the declared melds as they lie or add rack tiles at their
    ends, or that read each declared joker as its tile and exchange some for those tiles
    from the rack; ``Move.exact`` then says whether it is as good as the search's hint.
    """
    started = time.process_time()
    declared = {}
    if jokers:
        table = _table_of(table)
        declared = declarations(table, rules, jokers)
    with _collector_paused():
        move = _best_move(table, rack, rules, opened, cpu_limit, started)
        if declared and move.placed and opened:  # an opening leaves the table as it lies
            move = keeping_declared(
                move, table, _tiles_of(rack), get_rules(rules), declared,
                solve=lambda t, r: _best_move(t, r, rules, True, cpu_limit, started),
                late=lambda: cpu_limit is not None and time.process_time() - started > cpu_limit)
        return move


@contextmanager
def _collector_paused():
    """Python's cyclic garbage collector held off while a hint is searched, and run as
    usual after it. The search builds many small lists and tuples it keeps (the memo its
    solves share, the moves of each position) and few cycles; the collector, set off by
    their number, walked everything they hold again and again: about an eighth of the CPU time
    of the slowest hints of the referee bench. It then looks once at what the hint left
    (counted in the hint's time, not in whatever comes next), and the hint leaves no cycles
    to find. Left as it was when a caller has turned it off; the hint is the same either
    way."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)


def _best_move(table, rack, rules, opened: bool, cpu_limit: Optional[float],
               started: float) -> Move:
    rules = get_rules(rules)
    table = _table_of(table)
    rack_tiles = _tiles_of(rack)
    table_grid, table_j = _count_grid(table.tiles, "the table")
    rack_grid, rack_j = _count_grid(rack_tiles, "the rack")
    if table_j + rack_j > JOKERS or any(
            a + b > 2 for ra, rb in zip(table_grid, rack_grid) for a, b in zip(ra, rb)):
        check_counts(table.tiles + rack_tiles, "the table and the rack together")  # raises
    if not opened:
        return _opening_move(table, rack_tiles, rules)
    # the joker search's solves are rests of the free move's problem: they share its memo
    leaning = Leaning(even=True) if table_j else None
    free = _free_move(table, rack_tiles, rules, leaning)
    if not table_j:
        return with_steps(free, table, rack_tiles, rules)
    # legal or not is all the search needs (a legal turn's verdict is the same either way;
    # the reasons an illegal one would be given cost a search of their own)
    verdict = check_turn(table, free.table, rack_tiles, rules=rules, reasons=False)
    if verdict.legal:
        return with_steps(free, table, rack_tiles, rules, verdict)
    deadline = float("inf") if cpu_limit is None else started + cpu_limit
    return JokerSearch(table, rack_tiles, rules, free, deadline, leaning).run()


def _free_move(table: Table, rack_tiles, rules, leaning: Optional[Leaning] = None) -> Move:
    """The best move with every joker free to go anywhere (an upper bound); ``leaning``:
    its memo kept for the solves after it (:class:`~referee.search.Leaning`, ``even``)."""
    n = MAX_NUMBER
    must, must_j = _count_grid(table.tiles)
    rack_grid, rack_j = _count_grid(rack_tiles)
    total = [[must[v][c] + rack_grid[v][c] for c in range(NCOL)] for v in range(n)]
    jokers = must_j + rack_j
    if _dead_must(n, must, total, jokers):
        raise TableUnsolvableError(_unsolvable_message(table))
    avail = _prune_optional(n, must, total, jokers)
    weight, wj = rack_weights(n, rules)
    melds = _lay(n, must, avail, weight, must_j, rack_j, wj, None, leaning)
    if melds is None:
        raise TableUnsolvableError(_unsolvable_message(table))
    placed, remaining = split_rack(melds, table.tiles, rack_tiles)
    # nothing placed: the table stays as it lies, unless it needs the solver's arrangement
    new_table = Table(melds) if placed or not _all_valid(table, rules) else table
    return Move(placed, new_table, move_value(placed, rules)[1], remaining)


def _all_valid(table: Table, rules) -> bool:
    return all(check_meld(m, rules).ok for m in table.melds)


def _unsolvable_message(table: Table) -> str:
    return (f"the table's {plural(len(table.tiles), 'tile')} cannot all be laid in valid melds, even with "
            f"every rack tile: check the table reading ({table or 'empty'})")


def _opening_move(table: Table, rack_tiles, rules: Rules) -> Move:
    if not _all_valid(table, rules):
        arranged = arrange(table.tiles, rules) if table.tiles else Table()
        if arranged is None:
            raise TableUnsolvableError(
                f"the table's melds are not valid and its tiles cannot be laid in valid melds "
                f"({table}): check the table reading")
        table = arranged
    new_melds = opening_melds(rack_tiles, rules)
    if new_melds is None:
        return Move((), table, 0, tuple(rack_tiles), opening=True, initial_points=0)
    placed, remaining = split_rack(new_melds, (), rack_tiles)
    initial = sum(meld_points(m, rules, for_initial_meld=True) for m in new_melds)
    after = Table(tuple(table.melds) + tuple(new_melds))
    steps = describe(table, after, None)
    return Move(placed, after, move_value(placed, rules)[1], remaining, opening=True,
                initial_points=initial, steps=steps)


