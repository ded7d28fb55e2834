"""Judging a table, and a turn from the table before and after it.

A turn is judged from two snapshots (what the camera or a person saw before and after), the
player's rack before the turn when it is known, and whether the player had already made the
initial meld. Every violation is listed with a code, a plain sentence, and the melds and tiles
involved; the verdict gives the penalty the preset prescribes.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

from .melds import MeldVerdict, check_meld, meld_points
from .rules import Rules, get_rules
from .tiles import COLOURS, JOKER, Meld, Table, TableLike, Tile, TilesLike, format_tiles, parse_table, parse_tiles

class Code(str, enum.Enum):
    """Why a turn is not valid, most basic first. A ``str`` enum: ``Code.INVALID_MELD ==
    "invalid-meld"``, and its value is what the JSON forms carry."""

    TILES_TAKEN = "tiles-taken"                  #: a tile on the table before is gone after
    NOT_FROM_RACK = "not-from-rack"              #: a tile added that the player did not hold
    INVALID_MELD = "invalid-meld"                #: a meld left invalid at the end of the turn
    TABLE_TOUCHED_BEFORE_OPENING = "table-touched-before-opening"
    INITIAL_MELD_TOO_LOW = "initial-meld-too-low"
    JOKER_MELD_MANIPULATED = "joker-meld-manipulated"
    JOKER_REPLACEMENT_FROM_TABLE = "joker-replacement-from-table"
    JOKER_GROUP_NEEDS_BOTH = "joker-group-needs-both"
    JOKER_NOT_REUSED = "joker-not-reused"
    TIME_EXCEEDED = "time-exceeded"

    def __str__(self) -> str:
        return self.value


class TurnKind(str, enum.Enum):
    """What a turn did: nothing added (the player draws a tile), the initial meld, or a play."""

    DRAW = "draw"
    OPENING = "opening"
    PLAY = "play"

    def __str__(self) -> str:
        return self.value


# Each code by name at module level too (``turns.INVALID_MELD``).
TILES_TAKEN = Code.TILES_TAKEN
NOT_FROM_RACK = Code.NOT_FROM_RACK
INVALID_MELD = Code.INVALID_MELD
TABLE_TOUCHED_BEFORE_OPENING = Code.TABLE_TOUCHED_BEFORE_OPENING
INITIAL_MELD_TOO_LOW = Code.INITIAL_MELD_TOO_LOW
JOKER_MELD_MANIPULATED = Code.JOKER_MELD_MANIPULATED
JOKER_REPLACEMENT_FROM_TABLE = Code.JOKER_REPLACEMENT_FROM_TABLE
JOKER_GROUP_NEEDS_BOTH = Code.JOKER_GROUP_NEEDS_BOTH
JOKER_NOT_REUSED = Code.JOKER_NOT_REUSED
TIME_EXCEEDED = Code.TIME_EXCEEDED


@dataclass(frozen=True)
class Violation:
    code: Code
    message: str
    melds: tuple[str, ...] = ()
    tiles: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"code": self.code.value, "message": self.message, "melds": list(self.melds),
                "tiles": list(self.tiles)}

    @classmethod
    def from_dict(cls, d: dict) -> "Violation":
        return cls(Code(d["code"]), d["message"], tuple(d.get("melds", ())),
                   tuple(d.get("tiles", ())))


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


def check_table(table: TableLike, rules: "Rules | str | None" = None) -> TableVerdict:
    """Judge every meld of a table (``"R7 R8 R9 | K5 B5 O5"``)."""
    rules = get_rules(rules)
    table = parse_table(table)
    return TableVerdict(table, tuple(check_meld(m, rules) for m in table.melds))


@dataclass(frozen=True)
class TurnVerdict:
    """The verdict on one turn.

    ``legal``: no violation. ``kind``: a :class:`TurnKind` (draw, opening or play). ``placed``: tiles the player added;
    ``taken``: tiles that were on the table and are gone. ``opened``: has the player made
    the initial meld after this turn. ``initial_points``: what the new melds counted toward
    the initial meld (for a player who had not opened). ``penalty``: what the preset
    prescribes, in words (``None`` when legal); ``penalty_draw``: how many tiles to draw.
    ``notes``: things worth saying that are not this player's fault (a meld that was
    already invalid before the turn).
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
            lines = [head]
        else:
            lines = ["Not valid:"] + [f"- {v.message}" for v in self.violations]
            if self.penalty:
                lines.append(f"Penalty: {self.penalty}.")
        lines += [f"Note: {n}" for n in self.notes]
        return "\n".join(lines)

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
            melds=tuple(MeldVerdict.from_dict(m) for m in d.get("melds", ())))


def _key(meld: Meld) -> tuple:
    return tuple(sorted(meld.tiles))


def _contains(big: Counter, small: Counter) -> bool:
    return all(big[t] >= n for t, n in small.items())


def _listing(tiles) -> str:
    return format_tiles(sorted(tiles))


def check_turn(before: TableLike, after: TableLike, rack: "TilesLike | None" = None, *,
               rules: "Rules | str | None" = None, opened: bool = True,
               elapsed: Optional[float] = None) -> TurnVerdict:
    """Judge a turn from the table ``before`` and ``after`` it.

    ``rack``: the player's rack before the turn, if known (then every added tile must come
    from it). ``opened``: whether the player had made the initial meld before this turn.
    ``elapsed``: seconds the turn took, if timed (checked against the preset's limit).
    """
    rules = get_rules(rules)
    before_t, after_t = parse_table(before), parse_table(after)
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
    before_invalid = Counter(_key(v.meld) for v in (check_meld(m, rules) for m in before_t) if not v.ok)
    verdicts = tuple(check_meld(m, rules) for m in after_t)
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
            new_only = _new_melds_for_opening(before_t, after_t)
            pts = [meld_points(m, rules, for_initial_meld=True) for m in new_only]
            initial_points = max(pts, default=0) if rules.initial_meld_single_set else sum(pts)
            if initial_points < rules.initial_meld_points:
                how = "in a single set" if rules.initial_meld_single_set else "from the new sets together"
                violations.append(Violation(
                    INITIAL_MELD_TOO_LOW,
                    f"the initial meld is worth {initial_points} {how}; {rules.title} needs at least "
                    f"{rules.initial_meld_points}", melds=tuple(str(m) for m in new_only)))
            opened_after = True

    violations += _check_jokers(before_t, after_t, added, rules, opened)

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
                       penalty, draw, restore, before_t, after_t, rules.name, tuple(notes), verdicts)


def _new_melds_for_opening(before: Table, after: Table) -> list[Meld]:
    remaining = Counter(_key(m) for m in before)
    out = []
    for m in after:
        if remaining[_key(m)] > 0:
            remaining[_key(m)] -= 1
        else:
            out.append(m)
    return out


def _check_jokers(before: Table, after: Table, added: Counter, rules: Rules,
                  opened: bool) -> list[Violation]:
    """Joker rules, judged from the melds that held a joker before the turn."""
    out: list[Violation] = []
    after_counts = [Counter(m.tiles) for m in after]
    before_counts = [Counter(m.tiles) for m in before]
    freed = 0
    for meld in before:
        if not any(t.is_joker for t in meld):
            continue
        mc = Counter(meld.tiles)
        if any(_contains(ac, mc) for ac in after_counts):
            continue  # the meld is still whole (perhaps added to): its joker did not move
        verdict = check_meld(meld, rules)
        real = Counter(t for t in meld.tiles if not t.is_joker)
        replaced_by: list[Tile] = []
        if verdict.ok:
            for _, stands in verdict.jokers:
                candidates = [stands]
                if verdict.kind == "group":  # any colour the group lacks frees the joker
                    candidates = [Tile(c, stands.number) for c in COLOURS
                                  if real[Tile(c, stands.number)] == 0]
                hit = _replacement(real, candidates, after_counts, verdict, rules)
                if hit is not None:
                    replaced_by.extend(hit)
                    real = real + Counter(hit)
        if not replaced_by:
            if not rules.joker_melds_manipulable and opened:
                out.append(Violation(
                    JOKER_MELD_MANIPULATED,
                    f"{meld} holds a joker: under {rules.title} it may only be added to, not split, "
                    f"rearranged or taken from, until the joker is retrieved", melds=(str(meld),)))
            continue
        freed += sum(1 for t in meld if t.is_joker)
        if opened and not rules.joker_replacement_from_table:
            from_table = [t for t in replaced_by if added[t] == 0]
            if from_table:
                out.append(Violation(
                    JOKER_REPLACEMENT_FROM_TABLE,
                    f"the joker in {meld} was replaced by {_listing(from_table)} from the table; "
                    f"under {rules.title} the replacing tile must come from the player's rack",
                    melds=(str(meld),), tiles=tuple(map(str, from_table))))
        if (rules.joker_group_needs_both_missing and verdict.kind == "group"
                and len(meld) == 3 and len(replaced_by) < 2):
            out.append(Violation(
                JOKER_GROUP_NEEDS_BOTH,
                f"the joker in the group {meld} may only be taken by adding both missing colours "
                f"(tournament rule)", melds=(str(meld),), tiles=tuple(map(str, replaced_by))))
    if freed:
        out += _check_joker_reuse(after, after_counts, before_counts, added, rules, freed)
    return out


def _replacement(real: Counter, candidates: list[Tile], after_counts: list[Counter],
                 verdict: MeldVerdict, rules: Rules) -> Optional[list[Tile]]:
    """Which tile(s) took the joker's place: an after meld holding the old meld's tiles and
    the candidate, with one joker fewer."""
    jokers_before = sum(1 for t in verdict.meld if t.is_joker)
    for ac in after_counts:
        if not _contains(ac, real) or ac[JOKER] >= jokers_before:
            continue
        hits = [c for c in candidates if ac[c] > real[c]]
        if hits:
            if verdict.kind == "group" and rules.joker_group_needs_both_missing and len(hits) >= 2:
                return hits[:2]
            return hits[:1]
    return None


def _check_joker_reuse(after: Table, after_counts, before_counts, added: Counter, rules: Rules,
                       freed: int) -> list[Violation]:
    """A freed joker must be played this turn in a new set (with enough rack tiles)."""
    ok_homes = 0
    bad: list[str] = []
    for meld, ac in zip(after, after_counts):
        jokers = ac[JOKER]
        if not jokers:
            continue
        extends_old = any(_contains(ac, bc) for bc in before_counts)
        from_rack = sum(min(n, added[t]) for t, n in ac.items() if not t.is_joker)
        if not extends_old and from_rack >= rules.joker_reuse_min_rack_tiles:
            ok_homes += jokers
        elif not any(bc == ac for bc in before_counts):
            bad.append(str(meld))
    # Jokers that never moved sit in unchanged melds; only the freed ones need a proper home.
    if ok_homes >= freed:
        return []
    need = (f"in a new set with at least {rules.joker_reuse_min_rack_tiles} other tiles from the rack"
            if rules.joker_reuse_min_rack_tiles else "in a new set")
    return [Violation(JOKER_NOT_REUSED,
                      f"a joker taken from the table must be played again this turn {need}"
                      + (f"; it was put in {', '.join(bad)}" if bad else ""),
                      melds=tuple(bad))]
