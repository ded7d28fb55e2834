"""The joker rules of a turn, judged over every account of where each tile went.

Two tiles of one kind (two R5s, the two jokers) look alike, so a camera cannot say which of
them went where. An *account* of a turn says, for every tile on the table after it, where it
came from: the player's rack or a meld of the table before. A turn keeps the joker rules when
some account explains the table after it; the search looks at every account that can matter
and keeps the one that breaks the fewest rules (none, for a legal turn).

What an account is judged by, for each joker that lay on the table before the turn (its set:
the meld it lay in; what it stood for: a reading of that meld):

* The joker *stays* when it stands for the same tile after the turn and lies in a meld that
  holds at least one numbered tile of its set (the set was added to, split or shifted around
  it). In a meld left invalid after the turn it stands for no tile known, so it may stay
  there (the invalid meld is the fault, not the joker: ``R3 R4 J`` + ``R7``). A joker that
  stays needs nothing more, except under ``joker_melds_manipulable=False`` (below).
* Otherwise it was *taken* (retrieved), which needs all of:
  - the player had made the initial meld before this turn;
  - a tile it stood for (in a group of three: either missing colour) lies, after the turn, in
    a meld that holds a numbered tile of its set, and came from the rack, or from another
    meld where ``joker_replacement_from_table`` allows; one such tile for each joker taken;
    under ``joker_group_needs_both_missing`` a joker from a group of three also needs the
    group's other missing colour added there;
  - the joker ends the turn in a *new set*: a meld that holds no numbered tile of the joker's
    own set and no two numbered tiles that lay in one meld before the turn (every numbered
    tile in it comes from the rack or from a different meld), with at least
    ``joker_reuse_min_rack_tiles`` other tiles from the rack.
* Under ``joker_melds_manipulable=False`` a meld holding a joker that stays may only be added
  to: all of its tiles end the turn in one meld. Once one of its jokers is taken, it may be
  rearranged.
* A joker in a meld that was already invalid before the turn stood for nothing; no joker rule
  binds it (the invalid meld is the previous player's mistake, noted in the verdict).

Only tiles in melds that held or hold a joker, and the tiles that could replace one, can
change the judgement; the search runs over the accounts of those alone. Looking for a legal
account, it chooses where the copies of one kind went after another and drops a partial
account as soon as no way of finishing it keeps the rules: a joker said to stay has no tile of
its set beside it, a taken joker's tile can no longer come beside its set (from the rack, or
the table where the preset allows), a freed joker's new set holds two tiles of one meld or one
of the joker's own set, or the kinds still to choose must each bring it a table tile and
cannot all bring them from different melds (a matching), or it cannot reach the rack-tile
minimum. Each cut drops only accounts the full judgement would refuse, so the verdict is
the same; on big tables it spares visiting thousands of accounts.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Optional, Sequence

from .rules import Rules
from .tiles import COLOURS, Table, Tile, format_tiles
from .codes import Code, Violation
from .matching import each_apart

RACK = -1  #: the origin of a tile the player added
GONE = -2  #: the destination of a tile that left the table


@dataclass(frozen=True)
class JokerFate:
    """What became of one joker that lay on the table before the turn: its set and what it
    stood for there, where it is after (``after_meld`` is None when it left the table), and,
    when it was taken, the tiles that replaced it and where they came from."""

    before_meld: int
    before_position: int
    stood_for: Optional[Tile]
    after_meld: Optional[int]
    after_position: Optional[int]
    stands_for: Optional[Tile]
    taken: bool
    replaced_by: tuple[Tile, ...] = ()
    replaced_from: tuple[Optional[int], ...] = ()  #: None: the rack; else a before meld index

    def to_dict(self) -> dict:
        return {"before_meld": self.before_meld, "before_position": self.before_position,
                "stood_for": str(self.stood_for) if self.stood_for else None,
                "after_meld": self.after_meld, "after_position": self.after_position,
                "stands_for": str(self.stands_for) if self.stands_for else None,
                "taken": self.taken, "replaced_by": [str(t) for t in self.replaced_by],
                "replaced_from": list(self.replaced_from)}

    @classmethod
    def from_dict(cls, d: dict) -> "JokerFate":
        def tile(x):
            return Tile.parse(x) if x else None
        return cls(int(d["before_meld"]), int(d["before_position"]), tile(d.get("stood_for")),
                   d.get("after_meld"), d.get("after_position"), tile(d.get("stands_for")),
                   bool(d["taken"]), tuple(Tile.parse(x) for x in d.get("replaced_by", ())),
                   tuple(d.get("replaced_from", ())))


@dataclass
class Judgement:
    """The account that breaks the fewest joker rules: its violations, the fate of each
    joker of the table before, and what each joker after the turn stands for in it
    (``(after meld, position) -> tile``)."""

    violations: list[Violation] = field(default_factory=list)
    fates: list[JokerFate] = field(default_factory=list)
    stands: dict = field(default_factory=dict)


# A meld's readings, as the tiles its jokers stand for (in laid order of the jokers).
JokerReadings = Sequence[tuple[Optional[Tile], ...]]


def judge(before: Table, after: Table, rules: Rules, opened: bool,
          before_readings: Sequence[JokerReadings],
          after_readings: Sequence[JokerReadings], reasons: bool = True) -> Judgement:
    """Judge the joker rules of a turn. ``before_readings[i]`` / ``after_readings[i]``: the
    readings meld ``i`` allows (its declaration, or every reading the tiles as laid allow;
    ``[(None, ...)]`` for an invalid meld). ``reasons=False``: for a turn that breaks a rule,
    give the first account's violations rather than look for the account closest to legal
    (the verdict is the same, found sooner)."""
    # A joker in a meld that was invalid before the turn stood for nothing: no rule binds it.
    bj = [(b, p) for b, m in enumerate(before) for p, t in enumerate(m)
          if t.is_joker and any(s is not None for r in before_readings[b] for s in r)]
    if not bj:
        return Judgement()
    return _Search(before, after, rules, opened, before_readings, after_readings, bj).run(reasons)


class _Search:
    def __init__(self, before, after, rules, opened, before_readings, after_readings, bj):
        self.before, self.after, self.rules, self.opened = before, after, rules, opened
        self.bread, self.aread = before_readings, after_readings
        self.bj = bj
        self._homes: dict = {}  # before meld -> the after meld holding most of it (_home)
        self.aj = [(a, p) for a, m in enumerate(after) for p, t in enumerate(m) if t.is_joker]
        self.jmelds_b = sorted({b for b, _ in bj})
        self.jmelds_a = sorted({a for a, _ in self.aj})
        self.ja = set(self.jmelds_a)
        # where each copy of each numbered kind lay before, and lies after
        origins: dict = defaultdict(list)
        dests: dict = defaultdict(list)
        for b, m in enumerate(before):
            for t in m:
                if not t.is_joker:
                    origins[t].append(b)
        for a, m in enumerate(after):
            for t in m:
                if not t.is_joker:
                    dests[t].append(a)
        for k in set(origins) | set(dests):
            o, d = origins[k], dests[k]
            o += [RACK] * (len(d) - len(o))
            d += [GONE] * (len(o) - len(d))
        self.exchange_kinds = self._exchange_kinds()
        relevant, fixed = [], []
        jb, ja = set(self.jmelds_b), set(self.jmelds_a)
        for k in origins:
            o, d = origins[k], dests[k]
            exch = k in self.exchange_kinds
            if not exch and not any(x in jb for x in o) and not any(y in ja for y in d):
                continue  # cannot change the judgement
            options = {}
            for perm in set(itertools.permutations(d)):
                pairs = tuple(sorted(zip(o, perm)))
                sig = tuple(sorted(self._label(x, y, exch, jb, ja) for x, y in pairs))
                options.setdefault(sig, pairs)
            opts = list(options.values())
            (fixed if len(opts) == 1 else relevant).append((k, opts))
        self.fixed = fixed
        # most constrained kinds first: those in joker melds
        self.relevant = sorted(relevant, key=lambda ko: -len(ko[1]))

    def _home(self, b):
        """The meld after holding most of the numbered tiles of meld ``b`` before (the first
        on a tie); None for the rack, or for a meld none of whose tiles lie after."""
        homes = self._homes
        if b not in homes:
            homes[b] = None
            if b >= 0:
                mine = Counter(t for t in self.before[b] if not t.is_joker)
                shared = [sum((mine & Counter(m)).values()) for m in self.after]
                if shared and max(shared):
                    homes[b] = shared.index(max(shared))
        return homes[b]

    @staticmethod
    def _label(o, d, exch, jb, ja):
        keep = exch or o in jb or d in ja
        return (o, d) if keep else (-9, -9)

    def _exchange_kinds(self) -> set:
        kinds = set()
        for b in self.jmelds_b:
            for reading in self.bread[b]:
                kinds.update(t for t in reading if t is not None)
            if self.rules.joker_group_needs_both_missing:
                kinds.update(self._missing(b))
        return kinds

    def _missing(self, b) -> list[Tile]:
        """The tiles a group lacks (its numbered tiles' number, the colours it has not)."""
        real = [t for t in self.before[b] if not t.is_joker]
        if len({t.number for t in real}) != 1:
            return []
        have = {t.colour for t in real}
        return [Tile(c, real[0].number) for c in COLOURS if c not in have]

    # The scenarios: which joker went where, what it stood for, stayed or taken.

    def _scenarios(self):
        bj, aj = self.bj, self.aj
        dests = list(aj) + [None] * max(0, len(bj) - len(aj))
        seen = set()
        for perm in itertools.permutations(dests, len(bj)):
            if perm in seen:
                continue
            seen.add(perm)
            reading_choices = [list(dict.fromkeys(self.bread[b])) or [()] for b in self.jmelds_b]
            for readings in itertools.product(*reading_choices):
                stood = {}
                for b, r in zip(self.jmelds_b, readings):
                    slots = [p for p, t in enumerate(self.before[b]) if t.is_joker]
                    for p, s in zip(slots, r):
                        stood[(b, p)] = s
                for taken in itertools.product((False, True), repeat=len(bj)):
                    stands = self._after_stands(perm, stood, taken)
                    if stands is None:
                        continue  # a joker said to stay cannot stand for the same tile
                    yield perm, stood, taken, stands

    def _after_stands(self, perm, stood, taken):
        """A reading of each after meld with jokers in which every joker said to stay stands
        for what it stood for before; None if there is none."""
        need: dict = defaultdict(dict)
        for (b, p), dest, t in zip(self.bj, perm, taken):
            if dest is None:
                if not t:
                    return None  # a joker that left the table did not stay
                continue
            if not t:
                need[dest[0]][dest[1]] = stood[(b, p)]
        out = {}
        for a in self.jmelds_a:
            slots = [p for p, t in enumerate(self.after[a]) if t.is_joker]
            for r in self.aread[a] or [(None,) * len(slots)]:
                got = dict(zip(slots, r))
                # an invalid meld (no reading: None) is the fault the verdict names; a joker
                # in it may still have stayed, as what it stands for there is unknown
                if all(got.get(p) in (s, None) for p, s in need.get(a, {}).items()):
                    out.update({(a, p): s for p, s in got.items()})
                    break
            else:
                return None
        return out

    # The search.

    def run(self, reasons: bool = True) -> Judgement:
        scenarios = sorted(self._scenarios(), key=lambda sc: sum(sc[2]))  # fewest taken first
        base = {k: opts[0] for k, opts in self.fixed}
        for sc in scenarios:
            found = self._legal(sc, base)
            if found is not None:
                return found
        if not reasons:
            for sc in reversed(scenarios):  # every joker taken: always an account
                j = self._evaluate(next(self._accounts(base)), *sc)
                if j is not None:
                    return j
        # Not legal: explain it with the account that breaks fewest rules among the first few
        # accounts of each scenario (the verdict is exact; the reasons are the likeliest).
        # The likeliest accounts first: each kind's options with the most copies in the meld
        # after that holds most of the tiles of the meld they lay in before.
        self.relevant = [(k, sorted(opts, key=lambda pairs: -sum(
            d == self._home(o) for o, d in pairs))) for k, opts in self.relevant]
        best = None
        for sc in scenarios:
            for kinds in itertools.islice(self._accounts(base), 16):
                j = self._evaluate(kinds, *sc)
                if j is not None and (best is None or len(j.violations) < len(best.violations)):
                    best = j
        assert best is not None  # the scenario where every joker was taken always counts
        return best

    def _accounts(self, base):
        for choice in itertools.product(*(opts for _, opts in self.relevant)):
            kinds = dict(base)
            kinds.update(zip((k for k, _ in self.relevant), choice))
            yield kinds

    def _legal(self, sc, base) -> Optional[Judgement]:
        """An account of scenario ``sc`` that keeps every rule, or None: a depth-first search
        over the kinds whose copies could have gone either way, cut as soon as a rule is
        broken for good."""
        perm, stood, taken, stands = sc
        stays = [(b, dest[0]) for (b, _), dest, t in zip(self.bj, perm, taken) if not t]
        homes = [(b, dest[0]) for (b, _), dest, t in zip(self.bj, perm, taken)
                 if t and dest is not None]
        if homes and not self.opened:
            return None
        taken_from = {b for (b, _), t in zip(self.bj, taken) if t}
        whole = [b for b in self.jmelds_b if b not in taken_from] \
            if not self.rules.joker_melds_manipulable and self.opened else []
        joker_places = defaultdict(set)
        for (b, _), dest in zip(self.bj, perm):
            joker_places[b].add(dest[0] if dest else GONE)
        # Only kinds whose copies touch this scenario's rules are searched; the others keep
        # their first account. Kinds that can give a staying joker its set go first.
        origins = taken_from | set(whole)
        wanted_kinds = set()
        for b in taken_from:
            wanted_kinds |= set(self._missing(b))
            wanted_kinds |= {stood[(bb, p)] for (bb, p) in self.bj if bb == b}
        home_melds = {a for _, a in homes}
        stay_pairs = set(stays)

        def matters(k, opts):
            pairs = {p for o in opts for p in o}
            return (k in wanted_kinds or any(p in stay_pairs for p in pairs)
                    or any(o in origins for o, _ in pairs)
                    or any(d in home_melds for _, d in pairs))

        order, rest = [], []
        for k, opts in self.relevant:
            (order if matters(k, opts) else rest).append((k, opts))
        order.sort(key=lambda ko: not any(p in stay_pairs for o in ko[1] for p in o))
        base = dict(base)
        base.update((k, opts[0]) for k, opts in rest)
        # which kinds (by position in ``order``; -1 for the fixed ones) can give each stay
        providers = []
        for b, a in stays:
            idx = [-1] if any((b, a) in pairs for pairs in base.values()) else []
            idx += [i for i, (_, opts) in enumerate(order) if any((b, a) in p for p in opts)]
            if not idx:
                return None
            providers.append(((b, a), max(idx)))
        # A taken joker needs its tile (or a missing colour) to reach a meld holding a tile of
        # its set, and its new set enough rack tiles: give up at once when no account can.
        need = self.rules.joker_reuse_min_rack_tiles
        joker_in = Counter(d[0] for d in self.aj if d not in perm)
        all_pairs = [p for pairs in base.values() for p in pairs] + \
            [p for _, opts in order for pairs in opts for p in pairs]
        for (b, _), dest, t in zip(self.bj, perm, taken):
            if not t or dest is None:
                continue
            reach = {d for o, d in all_pairs if o == b}
            wanted = set(self._missing(b)) | {stood[(b, p)] for (bb, p) in self.bj if bb == b}
            ok = any(o != b and d in reach and (o == RACK or self.rules.joker_replacement_from_table)
                     for k in wanted if k is not None for pairs in self._options_of(k, base)
                     for o, d in pairs)
            if not ok:
                return None
        rack_room = []  # for each home: (meld, rack tiles fixed there, kinds that could add one)
        for b, a in homes:
            fixed_in = sum(1 for pairs in base.values() for o, d in pairs if o == RACK and d == a)
            could = [i for i, (_, opts) in enumerate(order)
                     if any((RACK, a) in pairs for pairs in opts)]
            if fixed_in + len(could) + joker_in[a] < need:
                return None
            rack_room.append((a, could))
        # A taken joker needs a copy of its tile from the rack (or the table, where the preset
        # allows) in a meld holding a tile of its set: once the kinds that decide it (its tile,
        # and the tiles of its set) are all chosen, an account without one cannot be legal.
        replaced = []
        for (b, p), dest, t in zip(self.bj, perm, taken):
            if t and dest is not None:
                s = stood[(b, p)]
                idx = [i for i, (k, opts) in enumerate(order)
                       if k == s or any(o == b for pairs in opts for o, _ in pairs)]
                replaced.append((b, s, max(idx, default=-1)))
        # The kinds still to choose that bring a tile of the table into a home in every
        # account (their position in ``order``, and the melds each option brings them from)
        forced = [[(j, froms) for j, (_, opts) in enumerate(order)
                   for froms in [[tuple(o for o, d in pairs if d == a and o >= 0)
                                  for pairs in opts]] if all(froms)] for _, a in homes]
        kinds = dict(base)

        def broken(i) -> bool:
            for (b, a), last in providers:
                if last < i and not any((b, a) in pairs for pairs in kinds.values()):
                    return True
            for b, s, last in replaced:
                if last < i and not self._replaceable(kinds, b, s):
                    return True
            for (b, a), later in zip(homes, forced):
                seen = Counter(o for pairs in kinds.values() for o, d in pairs if d == a and o >= 0)
                if seen[b] or any(n >= 2 for n in seen.values()):
                    return True
                if not _apart(later, i, set(seen) | {b}):
                    return True
            for a, could in rack_room:
                got = sum(1 for pairs in kinds.values() for o, d in pairs if o == RACK and d == a)
                if got + sum(1 for x in could if x >= i) + joker_in[a] < need:
                    return True
            for b in whole:
                places = set(joker_places[b])
                places.update(d for pairs in kinds.values() for o, d in pairs if o == b)
                if len(places) > 1 or GONE in places:
                    return True
            return False

        def dfs(i, deeper):
            # (it calls itself as ``deeper``: a closure naming itself is a reference cycle,
            # left for the garbage collector)
            if broken(i):
                return None
            if i == len(order):
                j = self._evaluate(kinds, *sc)
                return j if j is not None and not j.violations else None
            k, opts = order[i]
            for pairs in opts:
                kinds[k] = pairs
                found = deeper(i + 1, deeper)
                if found is not None:
                    return found
            del kinds[k]
            return None

        return dfs(0, dfs)

    def _replaceable(self, kinds, b, s) -> bool:
        """Can the account ``kinds`` give a joker of meld ``b`` standing for ``s`` its
        replacement without breaking a rule: a copy of ``s`` from the rack (or another meld,
        where the preset allows) in a meld holding a tile of ``b``? (What :meth:`_replacement`
        looks for; without it :meth:`_evaluate` finds a violation.)"""
        if s is None:
            return False
        places = {d for pairs in kinds.values() for o, d in pairs if o == b}
        from_table = self.rules.joker_replacement_from_table
        return any(o != b and d != GONE and d in places and (o == RACK or from_table)
                   for o, d in kinds.get(s, ()))

    def _evaluate(self, kinds, perm, stood, taken, stands) -> Optional[Judgement]:
        """The violations of one account (None when a joker said to stay did not)."""
        rules, before, after = self.rules, self.before, self.after
        desc: dict = defaultdict(set)        # before joker meld -> after melds holding its tiles
        held: dict = defaultdict(list)       # after joker meld -> origins of its numbered tiles
        for k, pairs in kinds.items():
            for o, d in pairs:
                if o >= 0:
                    desc[o].add(d)
                if d in self.ja:
                    held[d].append(o)
        jdest: dict = defaultdict(set)       # before meld -> where its jokers went
        rack_jokers: Counter = Counter()
        joker_dest = dict(zip(self.bj, perm))
        for d in self.aj:
            if d not in joker_dest.values():
                rack_jokers[d[0]] += 1
        out: list[Violation] = []
        fates: list[JokerFate] = []
        used: Counter = Counter()
        taken_from: set = set()
        for (b, p), dest, t in zip(self.bj, perm, taken):
            s = stood[(b, p)]
            a = dest[0] if dest else None
            jdest[b].add(a if a is not None else GONE)
            if not t:
                if a not in desc[b]:
                    return None  # the joker is not with its set: it did not stay
                fates.append(JokerFate(b, p, s, a, dest[1], s, False))
                continue
            taken_from.add(b)
            mb = before[b]
            if a is None:
                fates.append(JokerFate(b, p, s, None, None, None, True))
                continue  # the joker left the table: "tiles taken" says so
            now = stands.get(dest)
            if not self.opened:
                out.append(Violation(
                    Code.JOKER_BEFORE_OPENING,
                    f"the joker in {mb} was taken before the player's initial meld; a joker may "
                    f"not be retrieved before the initial meld", melds=(str(mb),)))
                fates.append(JokerFate(b, p, s, a, dest[1], now, True))
                continue
            rep, rep_from = self._replacement(kinds, desc[b], b, s, used)
            if rep is None:
                out.append(Violation(
                    Code.JOKER_NOT_REPLACED,
                    f"the joker in {mb} was taken, but {self._wanted(b, s)} was not put in its "
                    f"place: a joker is taken only in exchange for the tile it stands for",
                    melds=(str(mb),)))
            else:
                if (rules.joker_group_needs_both_missing and len(mb) == 3
                        and self._is_group(b)):
                    more = self._second_missing(kinds, desc[b], b, rep[0], used)
                    if more is None:
                        out.append(Violation(
                            Code.JOKER_GROUP_NEEDS_BOTH,
                            f"the joker in the group {mb} may only be taken by adding both "
                            f"missing colours ({format_tiles(self._missing(b))})",
                            melds=(str(mb),), tiles=tuple(map(str, rep))))
                    else:
                        rep, rep_from = rep + (more[0],), rep_from + (more[1],)
                # each replacing tile, both missing colours alike, from the rack where the
                # rules say so
                for tile, frm in zip(rep, rep_from):
                    if frm is not None and not rules.joker_replacement_from_table:
                        out.append(Violation(
                            Code.JOKER_REPLACEMENT_FROM_TABLE,
                            f"the joker in {mb} was replaced by {tile} from the table; under "
                            f"{rules.title} the replacing tile must come from the player's "
                            f"rack", melds=(str(mb),), tiles=(str(tile),)))
            fates.append(JokerFate(b, p, s, a, dest[1], now, True, rep or (),
                                   rep_from or ()))
            why = self._not_new(a, b, held[a], rack_jokers[a])
            if why:
                need = (f" with at least {rules.joker_reuse_min_rack_tiles} other tiles from "
                        f"the rack" if rules.joker_reuse_min_rack_tiles else "")
                out.append(Violation(
                    Code.JOKER_NOT_REUSED,
                    f"the joker taken from {mb} must be played again this turn in a new set"
                    f"{need}; it was put in {after[a]}, {why}", melds=(str(after[a]),)))
        if not rules.joker_melds_manipulable and self.opened:
            for b in self.jmelds_b:
                if b in taken_from:
                    continue  # 004: once its joker is taken, the meld may be manipulated
                places = set(jdest[b])
                for o_pairs in kinds.values():
                    places.update(d for o, d in o_pairs if o == b)
                if len(places) > 1 or GONE in places:
                    mb = before[b]
                    out.append(Violation(
                        Code.JOKER_MELD_MANIPULATED,
                        f"{mb} holds a joker: under {rules.title} it may only be added to, not "
                        f"split, rearranged or taken from, until its joker is retrieved",
                        melds=(str(mb),)))
        return Judgement(out, fates, stands)

    def _options_of(self, kind, base):
        if kind in base:
            return [base[kind]]
        return next((opts for k, opts in self.relevant if k == kind), [])

    def _is_group(self, b) -> bool:
        real = [t for t in self.before[b] if not t.is_joker]
        return len({t.number for t in real}) == 1 and len({t.colour for t in real}) == len(real)

    def _wanted(self, b, s) -> str:
        if s is None:
            return "the tile it stood for"
        missing = self._missing(b)
        if s in missing and len(self.before[b]) == 3 and len(missing) == 2:
            return " or ".join(str(t) for t in missing)  # a group of three: either colour
        return str(s)

    def _replacement(self, kinds, places, b, s, used):
        """A copy of ``s`` that came from the rack or another meld into a meld holding a tile
        of meld ``b`` (the rack first); marks it used. ((tile,), (origin,)) or (None, None)."""
        if s is None:
            return None, None
        best = None
        for o, d in kinds.get(s, ()):
            if o == b or d == GONE or d not in places:
                continue
            key = (s, o, d)
            if used[key] >= sum(1 for x in kinds[s] if x == (o, d)):
                continue
            if best is None or (o == RACK and best[1] != RACK):
                best = key
        if best is None:
            return None, None
        used[best] += 1
        return (s,), (None if best[1] == RACK else best[1],)

    def _second_missing(self, kinds, places, b, first, used):
        for t in self._missing(b):
            if t == first:
                continue
            got, frm = self._replacement(kinds, places, b, t, used)
            if got is not None:
                return got[0], frm[0]
        return None

    def _not_new(self, a, b, origins, rack_jokers) -> str:
        """Why after meld ``a`` is not a new set for a joker taken from meld ``b``, with
        enough rack tiles ('' if it is)."""
        if b in origins:
            return "which holds tiles of the set the joker was taken from (not a new set)"
        table = Counter(o for o in origins if o >= 0)
        together = [o for o, n in table.items() if n >= 2]
        if together:
            return (f"which holds tiles that lay together in {self.before[together[0]]} "
                    f"before the turn (not a new set)")
        rack = sum(1 for o in origins if o == RACK) + rack_jokers
        need = self.rules.joker_reuse_min_rack_tiles
        if rack < need:
            return (f"with {rack} tile{'s' if rack != 1 else ''} from the rack beside it")
        return ""


def _apart(later, i, taken) -> bool:
    """Can the kinds of ``later`` from position ``i`` on (each with the melds every option of
    it brings table tiles from into a joker's new set) all bring them from melds different
    from each other and from ``taken`` (the joker's own set, and the melds that brought one
    already)? A new set holds no two tiles of one meld before the turn, nor a tile of the
    joker's set: when no choice of distinct melds is left, no account makes it a new set.
    Each kind needs a meld of its own: a matching (:func:`~referee.matching.each_apart`)."""
    choices = []
    for j, froms in later:
        if j < i:
            continue
        can = set()
        for melds in froms:
            if len(set(melds)) == len(melds) and taken.isdisjoint(melds):
                can.update(melds)
        if not can:
            return False
        choices.append(can)
    return each_apart(choices)
