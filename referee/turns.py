"""Judging a table, and a turn from the table before and after it.

A turn is judged from two snapshots (what the camera or a person saw before and after), the
player's rack before the turn when it is known, and whether the player had already made the
initial meld. Every violation is listed with a code, a plain sentence, and the melds and tiles
involved; the verdict gives the penalty the preset prescribes.
"""

from __future__ import annotations

import enum
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping, Optional

from . import accounts
from .accounts import JokerFate
from .codes import (INITIAL_MELD_TOO_LOW, INVALID_MELD, NOT_FROM_RACK,  # noqa: F401 (re-exported)
                    TABLE_TOUCHED_BEFORE_OPENING, TILES_TAKEN, TIME_EXCEEDED, Code,
                    JOKER_BEFORE_OPENING, JOKER_GROUP_NEEDS_BOTH, JOKER_MELD_MANIPULATED,
                    JOKER_NOT_REPLACED, JOKER_NOT_REUSED, JOKER_REPLACEMENT_FROM_TABLE,
                    Violation)
from .melds import DeclarationError, MeldVerdict, check_meld, meld_points, meld_readings
from .rules import Rules, get_rules
from .tiles import (Meld, RummirefError, Table, TableLike, Tile, TilesLike, format_tiles,
                    parse_table, parse_tiles)

Declarations = Mapping[int, TilesLike]
"""What the jokers of a table stand for, as a player declared: ``{meld index: tiles}``, the
tiles in the order the meld's jokers lie (``{2: "B1 O1"}``). JSON keys may be strings."""


class TimingError(RummirefError, ValueError):
    """A turn's time that is no time: not a number, infinite or below 0."""


class TurnKind(str, enum.Enum):
    """What a turn did: nothing added (the player draws a tile), the initial meld, or a play."""

    DRAW = "draw"
    OPENING = "opening"
    PLAY = "play"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class TableVerdict:
    """Verdict on a whole table: ``ok`` when every meld is valid."""

    table: Table
    melds: tuple[MeldVerdict, ...]

    @property
    def ok(self) -> bool:
        return all(v.ok for v in self.melds)

    @property
    def invalid(self) -> tuple[MeldVerdict, ...]:
        return tuple(v for v in self.melds if not v.ok)

    def __bool__(self) -> bool:
        return self.ok

    def to_dict(self) -> dict:
        return {"table": str(self.table), "ok": self.ok, "melds": [v.to_dict() for v in self.melds]}


def check_table(table: TableLike, rules: "Rules | str | None" = None, *,
                jokers: "Declarations | None" = None) -> TableVerdict:
    """Judge every meld of a table (``"R7 R8 R9 | K5 B5 O5"``). ``jokers``: what the jokers
    of some melds were declared to stand for (``{meld index: tiles}``, as :func:`check_turn`
    takes them)."""
    rules = get_rules(rules)
    table = parse_table(table)
    declared = dict(_declared(jokers, table))
    return TableVerdict(table, tuple(check_meld(m, rules, jokers=declared.get(i))
                                     for i, m in enumerate(table.melds)))


@dataclass(frozen=True)
class TurnVerdict:
    """The verdict on one turn.

    ``legal``: no violation. ``kind``: a :class:`TurnKind` (draw, opening or play). ``placed``: tiles the player added;
    ``taken``: tiles that were on the table and are gone. ``opened``: has the player made
    the initial meld after this turn. ``initial_points``: what the new melds counted toward
    the initial meld (for a player who had not opened). ``penalty``: what the preset
    prescribes, in words (``None`` when legal); ``penalty_draw``: how many tiles to draw.
    ``notes``: things worth saying that are not this player's fault (a meld that was
    already invalid before the turn). ``jokers``: what became of each joker that lay on the
    table before the turn, in the account that explains the turn (or breaks fewest rules).
    ``declared``: the declarations of the table after the turn it was judged with.
    """

    legal: bool
    kind: TurnKind
    violations: tuple[Violation, ...]
    placed: tuple[Tile, ...]
    taken: tuple[Tile, ...]
    opened: bool
    initial_points: Optional[int]
    penalty: Optional[str]
    penalty_draw: int
    restore: bool
    before: Table
    after: Table
    rules: str
    notes: tuple[str, ...] = ()
    melds: tuple[MeldVerdict, ...] = field(default=(), repr=False)
    jokers: tuple[JokerFate, ...] = ()
    declared: tuple[tuple[int, tuple[Tile, ...]], ...] = ()

    def __bool__(self) -> bool:
        return self.legal

    @property
    def codes(self) -> tuple[Code, ...]:
        return tuple(v.code for v in self.violations)

    def summary(self) -> str:
        """The verdict in plain words, for the phones and the CLI."""
        if self.legal:
            if self.kind is TurnKind.DRAW:
                head = "No tiles played: draw a tile."
            elif self.kind is TurnKind.OPENING:
                head = (f"Valid initial meld ({self.initial_points} points): "
                        f"{format_tiles(self.placed)} laid.")
            else:
                head = f"Valid turn: {format_tiles(self.placed)} laid."
            lines = [head] + [self._fate_line(f) for f in self.jokers if f.taken]
        else:
            lines = ["Not valid:"] + [f"- {v.message}" for v in self.violations]
            if self.penalty:
                lines.append(f"Penalty: {self.penalty}.")
        lines += [f"Note: {n}" for n in self.notes]
        return "\n".join(lines)

    def _fate_line(self, f: JokerFate) -> str:
        where = "" if f.after_meld is None else f" and laid in {self.after[f.after_meld]}"
        if not f.replaced_by:
            return f"The joker was taken from {self.before[f.before_meld]}{where}."
        src = ", ".join("from the rack" if o is None else f"from {self.before[o]}"
                        for o in f.replaced_from)
        return (f"The joker in {self.before[f.before_meld]} was exchanged for "
                f"{format_tiles(f.replaced_by)} ({src}){where}.")

    def to_dict(self) -> dict:
        """The verdict as JSON-ready data; :meth:`from_dict` gives it back."""
        return {
            "legal": self.legal, "kind": self.kind.value,
            "violations": [v.to_dict() for v in self.violations],
            "placed": [str(t) for t in self.placed], "taken": [str(t) for t in self.taken],
            "opened": self.opened, "initial_points": self.initial_points,
            "penalty": self.penalty, "penalty_draw": self.penalty_draw, "restore": self.restore,
            "before": str(self.before), "after": str(self.after), "rules": self.rules,
            "notes": list(self.notes), "melds": [m.to_dict() for m in self.melds],
            "jokers": [f.to_dict() for f in self.jokers],
            "declared": {str(i): format_tiles(t) for i, t in self.declared},
            "summary": self.summary(),
        }

    @classmethod
    def from_dict(cls, d: dict) -> "TurnVerdict":
        """The verdict :meth:`to_dict` wrote (``summary`` is derived, so it is not read)."""
        return cls(
            legal=bool(d["legal"]), kind=TurnKind(d["kind"]),
            violations=tuple(Violation.from_dict(v) for v in d.get("violations", ())),
            placed=parse_tiles(" ".join(d.get("placed", ())), check=False),
            taken=parse_tiles(" ".join(d.get("taken", ())), check=False),
            opened=bool(d["opened"]), initial_points=d.get("initial_points"),
            penalty=d.get("penalty"), penalty_draw=int(d.get("penalty_draw", 0)),
            restore=bool(d.get("restore", False)),
            before=parse_table(d.get("before", ""), check=False),
            after=parse_table(d.get("after", ""), check=False),
            rules=d["rules"], notes=tuple(d.get("notes", ())),
            melds=tuple(MeldVerdict.from_dict(m) for m in d.get("melds", ())),
            jokers=tuple(JokerFate.from_dict(f) for f in d.get("jokers", ())),
            declared=_declared(d.get("declared")))


def _key(meld: Meld) -> tuple:
    return tuple(sorted(meld.tiles))


def _listing(tiles) -> str:
    return format_tiles(sorted(tiles))


def check_turn(before: TableLike, after: TableLike, rack: "TilesLike | None" = None, *,
               rules: "Rules | str | None" = None, opened: bool = True,
               elapsed: Optional[float] = None, jokers: "Declarations | None" = None,
               jokers_before: "Declarations | None" = None, reasons: bool = True) -> TurnVerdict:
    """Judge a turn from the table ``before`` and ``after`` it.

    ``rack``: the player's rack before the turn, if known (then every added tile must come
    from it). ``opened``: whether the player had made the initial meld before this turn.
    ``elapsed``: seconds the turn took, if timed (checked against the preset's limit).
    ``jokers`` / ``jokers_before``: what the jokers of the table after / before stand for,
    as declared (``{meld index: "B1 O1"}``); a joker nobody declared may stand for anything
    the tiles as laid allow, and the turn is legal when some reading and some account of
    where each tile went keep every rule (see :mod:`referee.accounts`). ``reasons=False``
    (for searches that only need legal or not): a joker turn that breaks a rule lists the
    rules one account breaks, not the account closest to legal; ``legal`` is the same.
    """
    rules = get_rules(rules)
    if elapsed is not None and not (math.isfinite(elapsed) and elapsed >= 0):
        # a NaN compared with the limit is never over it: every such turn was in time
        raise TimingError(f"elapsed is the seconds the turn took, a finite number of 0 or more, "
                          f"not {elapsed!r}")
    before_t, after_t = parse_table(before), parse_table(after)
    decl_after = _declared(jokers, after_t)
    decl_before = dict(_declared(jokers_before, before_t))
    rack_tiles = parse_tiles(rack) if rack is not None else None
    b_count, a_count = Counter(before_t.tiles), Counter(after_t.tiles)
    taken = tuple(sorted((b_count - a_count).elements()))
    added = a_count - b_count
    placed = tuple(sorted(added.elements()))
    violations: list[Violation] = []
    notes: list[str] = []

    if taken:
        violations.append(Violation(
            TILES_TAKEN,
            f"{_listing(taken)} {'was' if len(taken) == 1 else 'were'} on the table before the turn "
            f"and {'is' if len(taken) == 1 else 'are'} missing now: tiles on the table stay on the "
            f"table (harvested tiles must be played)", tiles=tuple(map(str, taken))))
    if rack_tiles is not None:
        foreign = tuple(sorted((added - Counter(rack_tiles)).elements()))
        if foreign:
            violations.append(Violation(
                NOT_FROM_RACK,
                f"{_listing(foreign)} {'was' if len(foreign) == 1 else 'were'} added to the table but "
                f"{'is' if len(foreign) == 1 else 'are'} not on the player's rack",
                tiles=tuple(map(str, foreign))))

    # Every meld must be valid at the end of the turn; one that was already invalid, untouched,
    # is the previous player's mistake and is noted, not held against this player.
    before_invalid = Counter(_key(v.meld) for v in (check_meld(m, rules, jokers=decl_before.get(i))
                                                    for i, m in enumerate(before_t)) if not v.ok)
    da = dict(decl_after)
    verdicts = tuple(check_meld(m, rules, jokers=da.get(i)) for i, m in enumerate(after_t))
    for v in verdicts:
        if v.ok:
            continue
        if before_invalid[_key(v.meld)] > 0:
            before_invalid[_key(v.meld)] -= 1
            notes.append(f"{v.meld} was already invalid before this turn ({v.reason.split(': ', 1)[1]})")
            continue
        violations.append(Violation(INVALID_MELD, v.reason, melds=(str(v.meld),),
                                    tiles=tuple(str(t) for t in v.meld)))

    # Melds of the table before, matched to identical melds after (order inside a meld aside).
    after_keys = Counter(_key(m) for m in after_t)
    untouched_after = Counter(after_keys)
    changed_before: list[Meld] = []
    for m in before_t:
        if untouched_after[_key(m)] > 0:
            untouched_after[_key(m)] -= 1
        else:
            changed_before.append(m)

    initial_points: Optional[int] = None
    kind = TurnKind.DRAW if not placed else TurnKind.PLAY
    opened_after = opened
    if not opened:
        if changed_before:
            violations.append(Violation(
                TABLE_TOUCHED_BEFORE_OPENING,
                "before the initial meld a player may not change the melds on the table: "
                + ", ".join(str(m) for m in changed_before) + " changed",
                melds=tuple(str(m) for m in changed_before)))
        if placed:
            kind = TurnKind.OPENING
            new_idx = _new_melds_for_opening(before_t, after_t)
            new_only = [after_t[i] for i in new_idx]
            pts = [meld_points(after_t[i], rules, for_initial_meld=True, jokers=da.get(i))
                   for i in new_idx]
            initial_points = max(pts, default=0) if rules.initial_meld_single_set else sum(pts)
            if initial_points < rules.initial_meld_points:
                how = "in a single set" if rules.initial_meld_single_set else "from the new sets together"
                violations.append(Violation(
                    INITIAL_MELD_TOO_LOW,
                    f"the initial meld is worth {initial_points} {how}; {rules.title} needs at least "
                    f"{rules.initial_meld_points}", melds=tuple(str(m) for m in new_only)))
            opened_after = True

    judgement = accounts.judge(before_t, after_t, rules, opened,
                               _readings(before_t, rules, decl_before),
                               _readings(after_t, rules, da), reasons)
    violations += judgement.violations

    if elapsed is not None and rules.turn_time_limit and elapsed > rules.turn_time_limit:
        violations.append(Violation(
            TIME_EXCEEDED, f"the turn took {elapsed:.0f} s; the limit is {rules.turn_time_limit} s"))

    legal = not violations
    restore, draw, penalty = False, 0, None
    if not legal:
        only_time = all(v.code == TIME_EXCEEDED for v in violations)
        if only_time and rules.timeout_penalty == "draw":
            draw = rules.timeout_draw
            penalty = f"draw {draw} tile{'s' if draw != 1 else ''}"
        else:
            restore, draw = True, rules.failed_turn_draw
            penalty = (f"restore the table as it was, take back the tiles you laid and draw "
                       f"{draw} tile{'s' if draw != 1 else ''}")
        opened_after = opened
    return TurnVerdict(legal, kind, tuple(violations), placed, taken, opened_after, initial_points,
                       penalty, draw, restore, before_t, after_t, rules.name, tuple(notes), verdicts,
                       tuple(judgement.fates), decl_after)


def _new_melds_for_opening(before: Table, after: Table) -> list[int]:
    """Indices of the melds after the turn that were not on the table before."""
    remaining = Counter(_key(m) for m in before)
    out = []
    for i, m in enumerate(after):
        if remaining[_key(m)] > 0:
            remaining[_key(m)] -= 1
        else:
            out.append(i)
    return out


def _readings(table: Table, rules: Rules, declared: dict) -> list:
    """For each meld, the tiles its jokers may stand for: one tuple per reading."""
    out = []
    for i, m in enumerate(table):
        slots = [p for p, t in enumerate(m) if t.is_joker]
        if not slots:
            out.append([()])
            continue
        found = meld_readings(m, rules, jokers=declared.get(i))
        out.append([tuple(r.stands_for[p] for p in slots) for r in found]
                   or [(None,) * len(slots)])
    return out


def _declared(data, table: Optional[Table] = None) -> tuple[tuple[int, tuple[Tile, ...]], ...]:
    """Declarations as sorted ``(meld index, tiles)`` pairs; checked against ``table``."""
    if not data:
        return ()
    out = []
    for key, tiles in dict(data).items():
        i = int(key)
        if table is not None and not 0 <= i < len(table):
            raise DeclarationError(f"a declaration names meld {i}, but the table has "
                                   f"{len(table)} meld{'s' if len(table) != 1 else ''}")
        out.append((i, parse_tiles(tiles, check=False)))
    return tuple(sorted(out))
