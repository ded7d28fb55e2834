"""Hints on a table whose jokers a player declared (001: two jokers in one set "must be
explicitly declared"): the declarations checked against their melds, and a hint that keeps
them.

The hint search reads every joker as the tiles as laid allow. Its hint is kept when it is
legal with the declarations too (it is then still the best: a declaration only takes turns
away). When it is not (it takes a declared joker with a tile it was not declared as), the
hint is the best legal turn, by ``check_turn`` with the declarations, of these candidates:
the declared melds left as they lie, or with rack tiles added at their ends (a group's
missing colours, a run's next numbers); and turns that read each declared joker as its tile
(a stand-in the search lays like any tile, put back as the joker afterwards), some of them
exchanged for that very tile from the rack, or from the table where the preset allows it,
their jokers laid anew (also with the jokers' new sets laid first). Such a hint is proven
best only when it is as good as the search's undeclared one.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Callable

from .melds import DeclarationError, check_meld, meld_readings
from .move import Move, draw_move, move_value, split_rack, with_steps
from .rules import Rules
from .search import MAX_NUMBER
from .solver import TableUnsolvableError
from .tiles import JOKER, ImpossibleTilesError, Table, Tile, format_tiles
from .turns import _declared, check_turn

#: the hint search for a table and a rack, the player opened
Solve = Callable[[Table, list], Move]


def declarations(table: Table, rules, jokers) -> dict:
    """``jokers`` as ``{meld index: tiles}``, each checked against its meld whether or not
    the hint needs it: a meld the table lacks, the wrong number of tiles for its jokers, or
    tiles that make a valid meld invalid raise :class:`~referee.DeclarationError`."""
    if not jokers:
        return {}
    declared = dict(_declared(jokers, table))
    for i, tiles in declared.items():
        if not meld_readings(table[i], rules, jokers=tiles) and meld_readings(table[i], rules):
            raise DeclarationError(f"{table[i]}: its jokers cannot stand for {format_tiles(tiles)}")
    return declared


def keeping_declared(move: Move, table: Table, rack_tiles, rules: Rules, declared: dict,
                     solve: Solve, late: Callable[[], bool]) -> Move:
    """``move``, the search's hint read without the declarations, if it is legal with them
    (its steps told as they have it); else the best legal turn of the candidates below.
    ``solve(table, rack)``: the hint search, opened; ``late()``: past the CPU limit."""
    verdict = check_turn(table, move.table, rack_tiles, rules=rules, jokers_before=declared,
                         reasons=False)
    if verdict.legal:  # its steps told as the declarations have it (which joker a tile swaps)
        return with_steps(move, table, rack_tiles, rules, verdict, exact=move.exact)
    candidates = _declared_kept(table, rack_tiles, rules, declared, solve, late)
    candidates += _declared_as_tiles(table, rack_tiles, rules, declared, solve, late)
    laid = [(move_value(placed, rules), k, after, placed, remaining)
            for k, after in enumerate(candidates)
            for placed, remaining in [split_rack(after.melds, table.tiles, rack_tiles)] if placed]
    for value, _, after, placed, remaining in sorted(laid, key=lambda c: (-c[0][0], -c[0][1], c[1])):
        verdict = check_turn(table, after, rack_tiles, rules=rules, jokers_before=declared,
                             reasons=False)
        if verdict.legal:  # the best legal candidate (the first listed of equal ones)
            # the search's hint, read without the declarations, is worth at least every turn
            # they allow: a turn as good as a proven one is proven best
            proven = move.exact and value == move_value(move.placed, rules)
            return with_steps(Move(placed, after, value[1], remaining), table, rack_tiles, rules,
                              verdict, exact=proven)
    return draw_move(table, rack_tiles, exact=False)


def _declared_kept(table: Table, rack_tiles, rules: Rules, declared: dict, solve: Solve,
                   late: Callable[[], bool]) -> list[Table]:
    """Tables after turns that leave the declared melds where they lie, each as it is or
    with rack tiles added at its ends (a group's missing colours, a run's next numbers), and
    the rest of the table and rack laid by the search."""
    kept = [i for i in range(len(table)) if i in declared]
    rest = Table(m for i, m in enumerate(table.melds) if i not in declared)
    grown = [[(table[i].tiles, ())] + list(_grown(table[i], declared[i], rack_tiles, rules))
             for i in kept]
    out = []
    for choice in itertools.islice(itertools.product(*grown), DECLARED_CHOICES):
        if out and late():
            break
        rack = list(rack_tiles)
        try:
            for _, used in choice:
                for t in used:
                    rack.remove(t)
        except ValueError:  # two melds asked for one tile
            continue
        sub = solve(rest, rack)
        if sub.placed or any(used for _, used in choice):
            out.append(Table([tiles for tiles, _ in choice] + list(sub.table.melds)))
    return out


#: at most this many ways to add rack tiles to the declared melds are tried for one hint
DECLARED_CHOICES = 64


def _grown(meld, jokers, rack_tiles, rules: Rules):
    """(tiles, rack tiles added) for each valid meld made by adding rack tiles at the ends of
    ``meld``, its jokers standing for the tiles declared."""
    reading = meld_readings(meld, rules, jokers=jokers)
    if not reading:
        return
    stands = reading[0].stands_for
    rack = set(rack_tiles)
    if reading[0].kind == "group":
        number, present = stands[0].number, {t.colour for t in stands}
        more = sorted(t for t in rack if not t.is_joker and t.number == number
                      and t.colour not in present)
        for k in range(1, 5 - len(stands)):
            for added in itertools.combinations(more, k):
                yield meld.tiles + added, added
        return
    # a run: the rack's next numbers below its lowest and above its highest, laid at either
    # end (a run read as laid from either end, or one whose jokers' reading rearranges it)
    colour, numbers = stands[0].colour, [t.number for t in stands]
    lower = list(itertools.takewhile(lambda t: t in rack, (
        Tile(colour, n) for n in range(min(numbers) - 1, 0, -1))))
    higher = list(itertools.takewhile(lambda t: t in rack, (
        Tile(colour, n) for n in range(max(numbers) + 1, MAX_NUMBER + 1))))
    falling = all(x > y for x, y in zip(numbers, numbers[1:]))  # laid from its high end
    for a in range(len(lower) + 1):
        for b in range(len(higher) + 1):
            if not a and not b:
                continue
            low, high = tuple(reversed(lower[:a])), tuple(higher[:b])
            ways = (low + meld.tiles + high, high[::-1] + meld.tiles + low[::-1])
            tiles = next((t for t in (ways[::-1] if falling else ways)
                          if check_meld(t, rules, jokers=jokers).ok), None)
            if tiles is not None:  # the way it is laid first
                yield tiles, low + high


def _declared_as_tiles(table: Table, rack_tiles, rules: Rules, declared: dict, solve: Solve,
                       late: Callable[[], bool]) -> list[Table]:
    """Tables after turns that read every declared joker as the tile declared.

    For each choice of declared jokers to exchange (their tiles on the rack, or on the table
    where the preset allows), the search lays a table where each declared joker is its tile:
    one to exchange is the tile itself, taken from where it was, its joker handed to the rack;
    one that stays is a stand-in for the joker, which is put back after the search (in any
    meld holding its tile). The search so never takes a declared joker with another tile.
    What the rules say of the freed jokers (a new set, say) the caller's ``check_turn``
    judges."""
    slots = []  # (meld index, the joker's place in the meld, the tile declared)
    for i, tiles in declared.items():
        places = [k for k, t in enumerate(table[i].tiles) if t.is_joker]
        slots += [(i, k, t) for k, t in zip(places, tiles)]
    out = []
    for mask in range(1 << len(slots)):
        if late():
            break
        swapped = [s for b, s in enumerate(slots) if mask >> b & 1]
        stays = [s for b, s in enumerate(slots) if not mask >> b & 1]
        rack, melds = list(rack_tiles), [list(m.tiles) for m in table.melds]
        if not all(_taken_for(tile, rack, melds, rules) for _, _, tile in swapped):
            continue
        for i, k, tile in slots:
            melds[i][k] = tile
        freed = [table[i].tiles[k] for i, k, _ in swapped]
        out += _laid(Table(melds), rack, freed, stays, solve)
    return out


def _laid(table: Table, rack: list, freed: list, stays, solve: Solve) -> list[Table]:
    """The search's tables for a table of stand-ins and a rack with the freed jokers, as it
    lays them and with the jokers' new sets laid first; none where the tiles cannot be laid
    (a stand-in making a third copy, a meld a table tile left that the rest cannot mend)."""
    out = []
    try:
        found = solve(table, rack + freed)
        out += _jokers_put_back(found.table, stays) if found.placed else []
        if freed:  # the search may lay a freed joker in an old set: new sets first
            alone = solve(Table(), rack + freed)
            new = [m for m in alone.table.melds if any(t.is_joker for t in m.tiles)]
            left = list((Counter(rack + freed) - Counter(t for m in new for t in m.tiles))
                        .elements())
            found = solve(table, left)
            out += _jokers_put_back(Table(list(found.table.melds) + new), stays)
    except (ImpossibleTilesError, TableUnsolvableError):
        pass
    return out


def _taken_for(tile: Tile, rack: list, melds: list, rules: Rules) -> bool:
    """Take ``tile`` to exchange for a joker from ``rack``, or else, where the preset lets a
    table tile do it, from ``melds`` (the search lays what is left of its meld); False when
    neither holds it."""
    if tile in rack:
        rack.remove(tile)
        return True
    home = next((m for m in melds if tile in m), None) if rules.joker_replacement_from_table else None
    if home is None:
        return False
    home.remove(tile)
    return True


def _jokers_put_back(after: Table, stays) -> list[Table]:
    """``after`` with each staying joker's stand-in turned back into the joker, every way
    the stand-ins can be told from real copies of their tiles (``check_turn`` then judges
    each)."""
    tables = [[list(m.tiles) for m in after.melds]]
    for _, _, tile in stays:
        grown = []
        for melds in tables:
            for j in (j for j, m in enumerate(melds) if tile in m):
                copy = [list(m) for m in melds]
                copy[j][copy[j].index(tile)] = JOKER
                grown.append(copy)
        tables = grown
    return [Table(melds) for melds in tables]
