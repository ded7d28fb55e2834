"""A turn told as steps a person can follow: "swap the joker in R4 J R6 for your R5, then lay
it with K9 B9", "split B6…B10 at B8", "move R6 from R3 R4 R5 R6 to R6 R7 R8", "add R6 to
R3 R4 R5", "lay K9 B9 O9".

Each meld of the table before is followed to the meld after the turn that holds most of its
tiles (where it "went"); tiles that end elsewhere were moved, rack tiles were added, and a
meld after the turn that holds no meld's majority was laid new.

    >>> from referee.steps import describe
    >>> [s.text for s in describe("R3 R4 R5 | B6 B7 B8 B9 B10", "R3 R4 R5 R6 | B6 B7 B8 | B8 B9 B10")]
    ['split B6…B10 at B8', 'add R6 to R3 R4 R5', 'add B8 to B6 B7']
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Optional

from .tiles import JOKER, Meld, Table, TableLike, format_tiles, parse_table

RACK = -1


#: Each step's words in English, by phrase: a step's ``text`` is its phrase's template filled
#: in with its ``args`` (tiles and melds in notation). A page in another language words the
#: same phrase itself, so every language says the whole step. ``moved`` (of ``lay-with``) is a
#: list of ``(tiles, meld)`` pairs, each told as "tiles from meld", joined by "; ".
PHRASES = {
    "swap": "swap the joker in {meld} for your {tiles}",
    "swap-lay": "swap the joker in {meld} for your {tiles}, then lay it with {rest}",
    "swap-add": "swap the joker in {meld} for your {tiles}, then add it to {rest}",
    "swap-from": "swap the joker in {meld} for {tiles} from {sources}",
    "swap-from-lay": "swap the joker in {meld} for {tiles} from {sources}, then lay it with {rest}",
    "swap-from-add": "swap the joker in {meld} for {tiles} from {sources}, then add it to {rest}",
    "split": "split {meld} at {tile}",
    "move": "move {tiles} from {meld} to {target}",
    "add": "add {tiles} to {meld}",
    "lay": "lay {meld}",
    "lay-with": "lay {meld} ({moved})",
}


def say(phrase: str, args: dict) -> str:
    """A step's phrase filled in, in English."""
    filled = dict(args)
    if "moved" in filled:
        filled["moved"] = "; ".join(f"{t} from {m}" for t, m in args["moved"])
    return PHRASES[phrase].format(**filled)


@dataclass(frozen=True)
class MoveStep:
    """One step: ``action`` is ``swap`` (a joker exchanged), ``split``, ``move`` (table tiles
    to another meld), ``add`` (rack tiles to a meld) or ``lay`` (a new meld); ``tiles``: the
    tiles it handles; ``meld``: the meld it starts from; ``target``: the meld it ends in;
    ``text``: the step in words; ``phrase`` and ``args``: the same words as data (the text is
    ``say(phrase, args)``, see :data:`PHRASES`)."""

    action: str
    tiles: tuple[str, ...]
    meld: Optional[str]
    target: Optional[str]
    phrase: str
    args: dict = field(hash=False)  # compared, not hashed (a dict)

    @property
    def text(self) -> str:
        return say(self.phrase, self.args)

    def to_dict(self) -> dict:
        return {"action": self.action, "tiles": list(self.tiles), "meld": self.meld,
                "target": self.target, "text": self.text, "phrase": self.phrase,
                "args": {k: ([list(p) for p in v] if k == "moved" else v)
                         for k, v in self.args.items()}}


def name(meld: Meld) -> str:
    """A meld as a person reads it: a long run by its ends (``B6…B10``)."""
    tiles = meld.tiles
    if len(tiles) >= 5 and not tiles[0].is_joker and not tiles[-1].is_joker \
            and len({t.colour for t in tiles if not t.is_joker}) == 1:
        return f"{tiles[0]}…{tiles[-1]}"
    return str(meld)


def describe(before: TableLike, after: TableLike, verdict=None) -> tuple[MoveStep, ...]:
    """The steps that turn ``before`` into ``after``. ``verdict``: the turn's
    :class:`~referee.TurnVerdict`, whose joker fates give the exchanges."""
    b = parse_table(before, check=False)
    a = parse_table(after, check=False)
    origin = _account(b, a)
    home = _homes(b, a, origin)
    based = defaultdict(list)  # after meld -> before melds that went there
    for i, j in home.items():
        based[j].append(i)
    # melds joined into one: the first continues, the others' tiles are told as moved to it
    joined = {i for bases in based.values() for i in bases[1:]}
    steps: list[MoveStep] = []
    freed_into = set()  # melds after where a freed joker was laid anew: told by the swap
    jokers_laid = Counter()  # freed jokers told into each of those melds so far
    exchanged = Counter()  # rack tiles that took a joker's place: told by the swap step
    swapped = Counter()  # table tiles that took a joker's place: (tile, from, joker's meld)
    for f in (verdict.jokers if verdict is not None else ()):
        exchanged.update(t for t, o in zip(f.replaced_by, f.replaced_from) if o is None)
        swapped.update((t, o, f.before_meld) for t, o in zip(f.replaced_by, f.replaced_from)
                       if o is not None)
    for f in (verdict.jokers if verdict is not None else ()):
        if not f.taken or f.after_meld is None:
            continue
        old = b[f.before_meld]
        args = {"meld": name(old), "tiles": format_tiles(f.replaced_by)}
        phrase = "swap"
        if not all(o is None for o in f.replaced_from):
            phrase = "swap-from"
            args["sources"] = ", ".join(name(b[o]) for o in f.replaced_from if o is not None)
        new = a[f.after_meld]
        if not based.get(f.after_meld):
            rest = [t for t, o in zip(new.tiles, origin[f.after_meld]) if not t.is_joker]
            laid = jokers_laid[f.after_meld]  # freed jokers already told into this meld
            phrase += "-lay" if not laid else "-add"
            args["rest"] = format_tiles(rest + [JOKER] * laid)
            jokers_laid[f.after_meld] += 1
            freed_into.add(f.after_meld)
        steps.append(MoveStep("swap", tuple(map(str, f.replaced_by)), str(old), str(new),
                              phrase, args))
    # splits: a run of the table before whose tiles now lie in two or more melds (two pieces
    # of two tiles or more, each with a tile of its own: jokers that left together were
    # exchanged, and their swap tells it), none of them another meld's continuation
    for i, m in enumerate(b):
        dests = [j for j in range(len(a)) if any(o == i for o in origin[j])]
        if all(based.get(j) in ([i], None) or i in based.get(j, []) for j in dests):
            pieces = [j for j in dests if sum(1 for o in origin[j] if o == i) >= 2
                      and any(o == i and not t.is_joker for t, o in zip(a[j].tiles, origin[j]))]
            if len(pieces) >= 2:
                second = sorted(pieces, key=lambda j: _first_number(a[j]))[1]
                at = next(t for t, o in zip(a[second].tiles, origin[second])
                          if o == i and not t.is_joker)
                steps.append(MoveStep("split", (str(at),), str(m), None, "split",
                                      {"meld": name(m), "tile": str(at)}))
                for j in pieces:
                    if home.get(i) != j:
                        based[j] = based.get(j, []) + [i]
    # table tiles moved into another meld, rack tiles added, new melds
    for j, m in enumerate(a):
        bases = based.get(j, [])
        moved: dict = defaultdict(list)
        added = []
        for t, o in zip(m.tiles, origin[j]):
            if o == RACK and exchanged[t] > 0:
                exchanged[t] -= 1
            elif o == RACK:
                added.append(t)
            elif (o not in bases or o in joined) and o is not None:
                told = next(((t, o, i) for i in bases if swapped[(t, o, i)] > 0), None)
                if told is not None:  # the swap step moved it
                    swapped[told] -= 1
                else:
                    moved[o].append(t)
        if j in freed_into:
            continue
        if not bases:
            args = {"meld": str(m)}
            if moved:
                args["moved"] = [(format_tiles(ts), name(b[o])) for o, ts in moved.items()]
            steps.append(MoveStep("lay", tuple(str(t) for t in added), None, str(m),
                                  "lay-with" if moved else "lay", args))
            continue
        for o, ts in moved.items():
            steps.append(MoveStep("move", tuple(map(str, ts)), str(b[o]), str(m), "move",
                                  {"tiles": format_tiles(ts), "meld": name(b[o]),
                                   "target": name(b[bases[0]])}))
        if added:
            real = [t for t in added if not t.is_joker] + [t for t in added if t.is_joker]
            steps.append(MoveStep("add", tuple(map(str, real)), str(b[bases[0]]), str(m), "add",
                                  {"tiles": format_tiles(real),
                                   "meld": _piece(b, a, j, bases, origin)}))
    return tuple(steps)


def _piece(b: Table, a: Table, j: int, bases, origin) -> str:
    """The meld rack tiles are added to: the old meld, or the piece of it left after a split."""
    own = [t for t, o in zip(a[j].tiles, origin[j]) if o in bases]
    whole = [t for i in bases for t in b[i].tiles]
    return name(b[bases[0]]) if Counter(own) == Counter(whole) else format_tiles(own)


def _first_number(meld: Meld) -> int:
    for i, t in enumerate(meld.tiles):
        if not t.is_joker:
            return t.number - i
    return 0


def _account(b: Table, a: Table) -> list[list]:
    """For each meld after, the origin of each of its tiles: a before meld index or RACK.
    Copies of one tile go back to the meld they most likely stayed with."""
    overlap = _overlap(b, a)
    pool: dict = defaultdict(list)  # tile -> before melds holding a copy
    for i, m in enumerate(b):
        for t in m.tiles:
            pool[t].append(i)
    origin = [[None] * len(m) for m in a]
    wanted = sorted(((overlap[i][j], i, j, p) for j, m in enumerate(a) for p, t in enumerate(m)
                     for i in set(pool[t])), reverse=True)
    for _, i, j, p in wanted:
        t = a[j].tiles[p]
        if origin[j][p] is None and i in pool[t]:
            origin[j][p] = i
            pool[t].remove(i)
    for row in origin:
        for p, o in enumerate(row):
            if o is None:
                row[p] = RACK
    return origin


def _overlap(b: Table, a: Table) -> list[list[int]]:
    """``[i][j]``: the tiles before meld ``i`` and after meld ``j`` have in common, copies
    counted (two jokers and one joker share one). Summed tile by tile over the melds after
    that hold it: a hint's answer is told once, but its tables have dozens of melds, and a
    Counter intersection for each pair of melds was most of the telling."""
    holders: dict = defaultdict(list)  # tile -> (meld after, copies there)
    for j, am in enumerate(a):
        for t, k in Counter(am.tiles).items():
            holders[t].append((j, k))
    overlap = []
    for bm in b:
        row = [0] * len(a)
        for t, k in Counter(bm.tiles).items():
            for j, there in holders.get(t, ()):
                row[j] += k if k < there else there
        overlap.append(row)
    return overlap


def _homes(b: Table, a: Table, origin) -> dict:
    """Each before meld -> the meld after that holds most of its numbered tiles, then most
    of its tiles (ties: the first). Its jokers count only after its numbered tiles: two
    jokers exchanged and laid together in a new set leave their meld where its numbered
    tiles are (``J K1 J`` -> ``B1 K1 O1 | R1 R2 R3 J J``: the group stays, the run is new)."""
    home = {}
    for i in range(len(b)):
        counts = [(sum(1 for t, o in zip(a[j].tiles, origin[j]) if o == i and not t.is_joker),
                   sum(1 for o in origin[j] if o == i)) for j in range(len(a))]
        if counts and max(counts)[1] > 0:
            home[i] = counts.index(max(counts))
    return home
