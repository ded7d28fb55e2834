"""Is one meld valid? Runs, groups, and what each joker stands for."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Literal, NamedTuple, Optional

from .rules import Rules, get_rules
from .tiles import (COLOURS, MAX_NUMBER, MIN_NUMBER, Meld, RummirefError, Tile, TilesLike,
                    format_tiles, parse_tiles)

MeldKind = Literal["run", "group"]


class Reading(NamedTuple):
    """One way to read a valid meld: its kind, the tile each position stands for (laid order),
    and whether the run needs its tiles laid in another order."""

    kind: MeldKind
    stands_for: tuple[Tile, ...]
    rearranged: bool


@dataclass(frozen=True)
class MeldVerdict:
    """The verdict on one meld.

    ``ok``: valid or not. ``kind``: ``"run"`` or ``"group"`` (``None`` if invalid).
    ``points``: the sum of the values the tiles stand for (jokers count as the tile they
    represent); for an invalid meld, the face values of its numbered tiles.
    ``stands_for``: for a valid meld, the tile each position stands for, in laid order (a joker
    in a group stands for a colour it could be; ``reason`` says when that is a choice).
    ``reason``: one plain sentence, why valid (and what was assumed) or why not.
    ``assumed``: the tiles as laid leave what a joker stands for open and nobody declared it,
    so ``stands_for`` is the reading worth most (``meld_readings`` lists them all).
    ``declared``: the jokers were judged as a player declared them.
    """

    ok: bool
    meld: Meld
    kind: Optional[MeldKind]
    points: int
    reason: str
    stands_for: tuple[Tile, ...] = ()
    assumed: bool = False
    declared: bool = False

    def __bool__(self) -> bool:
        return self.ok

    @property
    def jokers(self) -> tuple[tuple[int, Tile], ...]:
        """(position, tile it stands for) for each joker in the meld."""
        return tuple((i, s) for i, (t, s) in enumerate(zip(self.meld.tiles, self.stands_for))
                     if t.is_joker)

    def to_dict(self) -> dict:
        return {"meld": str(self.meld), "ok": self.ok, "kind": self.kind, "points": self.points,
                "reason": self.reason, "stands_for": [str(t) for t in self.stands_for],
                "assumed": self.assumed, "declared": self.declared}

    @classmethod
    def from_dict(cls, d: dict) -> "MeldVerdict":
        return cls(bool(d["ok"]), Meld(parse_tiles(d["meld"], check=False)), d.get("kind"),
                   int(d["points"]), d["reason"],
                   parse_tiles(" ".join(d.get("stands_for", ())), check=False),
                   bool(d.get("assumed", False)), bool(d.get("declared", False)))


def _joker_note(tiles: tuple[Tile, ...], stands: tuple[Tile, ...]) -> str:
    notes = [str(s) for t, s in zip(tiles, stands) if t.is_joker]
    if not notes:
        return ""
    if len(notes) == 1:
        return f"; the joker stands for {notes[0]}"
    return f"; the jokers stand for {' and '.join(notes)}"


def _group_why(tiles: tuple[Tile, ...]) -> str:
    """Why the tiles are no group ("" when they are one; :func:`_group_readings` reads it)."""
    real = [t for t in tiles if not t.is_joker]
    numbers = {t.number for t in real}
    if len(numbers) > 1:
        return "numbers differ (" + ", ".join(str(t) for t in real) + ")"
    if len(tiles) > len(COLOURS):
        return f"a group has at most {len(COLOURS)} tiles, one of each colour"
    seen = set()
    for t in real:
        if t.colour in seen:
            return f"colour repeats ({t} twice)"  # same number, same colour: t twice
        seen.add(t.colour)
    return ""


def _run_from(start: int, step: int, tiles: tuple[Tile, ...], colour) -> tuple[Tile, ...]:
    return tuple(t if not t.is_joker else Tile(colour, start + step * i) for i, t in enumerate(tiles))


def _wraps(real: list[tuple[int, Tile]], n: int, order: str) -> bool:
    """Would the tiles make a run if 1 could follow 13 (``K12 K13 K1``, or ``K13 J K2``)?
    As laid, read either way; under ``order="any"`` in any order."""
    span = MAX_NUMBER - MIN_NUMBER + 1
    for step in (1, -1):
        if len({(t.number - MIN_NUMBER - step * i) % span for i, t in real}) == 1:
            return True
    if order == "as-laid":
        return False
    nums = {t.number - MIN_NUMBER for _, t in real}
    return any(nums <= {(s + k) % span for k in range(n)} for s in range(span - n + 1, span))


def _run_why(tiles: tuple[Tile, ...], order: str) -> str:
    """Why the tiles are no run under ``order`` ("" when they are one; :func:`_run_readings`
    reads it)."""
    real = [(i, t) for i, t in enumerate(tiles) if not t.is_joker]
    colours = {t.colour for _, t in real}
    n = len(tiles)
    if len(colours) > 1:
        return "colours differ (" + ", ".join(str(t) for _, t in real) + ")"
    colour = real[0][1].colour
    nums = [t.number for _, t in real]
    if len(set(nums)) < len(nums):
        dup = next(t for _, t in real if nums.count(t.number) > 1)
        return f"{dup} appears twice"
    if n > MAX_NUMBER - MIN_NUMBER + 1:
        return f"a run has at most {MAX_NUMBER} tiles"
    # As laid: ascending first, then descending (a run read from the other side of the table).
    for step in (1, -1):
        starts = {t.number - step * i for i, t in real}
        if len(starts) == 1:
            start = starts.pop()
            lo, hi = sorted((start, start + step * (n - 1)))
            if lo >= MIN_NUMBER and hi <= MAX_NUMBER:
                return ""
    wrap = (f"{Tile(colour, MIN_NUMBER)} cannot follow {Tile(colour, MAX_NUMBER)}: a run ends "
            f"at {MAX_NUMBER}, and 1 is always the lowest number")
    lo, hi = min(nums), max(nums)
    if hi - lo + 1 > n:
        if _wraps(real, n, order):
            return wrap
        gaps = [str(Tile(colour, k)) for k in range(lo, hi + 1) if k not in nums]
        return f"not consecutive: {', '.join(gaps)} missing and not enough jokers"
    if order == "as-laid":
        if _wraps(real, n, order):
            return wrap
        return ("the tiles do not lie in sequence (1 never follows 13, and a joker's place "
                "fixes its value)")
    # Rearranged: the real tiles in order, the jokers in the gaps and then above the top or
    # below the bottom; n <= 13 tiles always fit between 1 and 13.
    return ""


def _group_readings(tiles: tuple[Tile, ...]) -> list[Reading]:
    real = [t for t in tiles if not t.is_joker]
    number = real[0].number
    missing = [c for c in COLOURS if c not in {t.colour for t in real}]
    slots = [i for i, t in enumerate(tiles) if t.is_joker]
    out = []
    for colours in itertools.permutations(missing, len(slots)):
        stands = list(tiles)
        for i, c in zip(slots, colours):
            stands[i] = Tile(c, number)
        out.append(Reading("group", tuple(stands), False))
    return out


def _run_readings(tiles: tuple[Tile, ...], rearrange: bool) -> list[Reading]:
    """Runs as laid (read upward, or downward from across the table) and, with ``rearrange``,
    every window of numbers the tiles could fill when laid in order."""
    real = [(i, t) for i, t in enumerate(tiles) if not t.is_joker]
    colour = real[0][1].colour
    n = len(tiles)
    out: list[Reading] = []
    for step in (1, -1):
        starts = {t.number - step * i for i, t in real}
        if len(starts) == 1:
            start = starts.pop()
            lo, hi = sorted((start, start + step * (n - 1)))
            if lo >= MIN_NUMBER and hi <= MAX_NUMBER:
                out.append(Reading("run", _run_from(start, step, tiles, colour), False))
    if not rearrange:
        return out
    nums = [t.number for _, t in real]
    slots = [i for i, t in enumerate(tiles) if t.is_joker]
    laid = {r.stands_for for r in out}
    for start in range(max(MIN_NUMBER, max(nums) - n + 1), min(min(nums), MAX_NUMBER - n + 1) + 1):
        gaps = [k for k in range(start, start + n) if k not in nums]
        for order in set(itertools.permutations(gaps)):
            stands = list(tiles)
            for i, k in zip(slots, order):
                stands[i] = Tile(colour, k)
            if tuple(stands) not in laid:
                out.append(Reading("run", tuple(stands), True))
    return out


#: _all_readings' answers, by tiles and meld order: a search judges the same melds again and
#: again (every turn it weighs holds most of the table's melds as they lie)
_READINGS: dict = {}


def _all_readings(t: tuple[Tile, ...], rules: Rules) -> tuple[tuple[Reading, ...], str, str]:
    """(every valid reading, why not a run, why not a group). Readings valid as laid come
    first; runs that need their tiles rearranged follow (only under ``meld_order="any"``)."""
    key = (t, rules.meld_order)
    got = _READINGS.get(key)
    if got is not None:
        return got
    run_why = _run_why(t, rules.meld_order)
    group_why = _group_why(t)
    out: list[Reading] = []
    if not run_why:
        out += _run_readings(t, rules.meld_order == "any")
    if not group_why:
        out += _group_readings(t)
    if len(_READINGS) > 20_000:  # a few MB; what is dropped is worked out again on demand
        _READINGS.clear()
    got = _READINGS[key] = (tuple(sorted(out, key=lambda r: r.rearranged)), run_why, group_why)
    return got


def meld_readings(tiles: "TilesLike | Meld", rules: "Rules | str | None" = None,
                  kind: Optional[MeldKind] = None,
                  jokers: "TilesLike | None" = None) -> tuple[Reading, ...]:
    """Every way the meld can be read, given in laid order, under ``rules``.

    Where the tiles as laid fix what a joker stands for, only those readings count: a run
    read in the order the tiles lie (either way) or a group. A run that needs its tiles laid
    in another order is a reading only when nothing as laid is (``meld_order="any"``), or
    when a declaration asks for it. ``kind`` keeps runs or groups only; ``jokers`` (the
    tiles the jokers stand for, in laid order) keeps the readings that declaration allows.
    An invalid meld has no reading.
    """
    rules = get_rules(rules)
    meld = tiles if isinstance(tiles, Meld) else Meld(parse_tiles(tiles, check=False))
    t = meld.tiles
    if len(t) < 3 or all(x.is_joker for x in t):
        return ()
    declared = _declaration(t, jokers)
    found, _, _ = _all_readings(t, rules)
    found = [r for r in found if kind is None or r.kind == kind]
    if declared is not None:
        slots = [i for i, x in enumerate(t) if x.is_joker]
        return tuple(r for r in found if tuple(r.stands_for[i] for i in slots) == declared)
    laid = [r for r in found if not r.rearranged]
    return tuple(laid or found)


class DeclarationError(RummirefError, ValueError):
    """A declaration of what jokers stand for that cannot apply to the meld (wrong number of
    tiles, or a joker declared as a joker)."""


def _declaration(t: tuple[Tile, ...], jokers) -> Optional[tuple[Tile, ...]]:
    if jokers is None:
        return None
    declared = parse_tiles(jokers, check=False)
    count = sum(1 for x in t if x.is_joker)
    if len(declared) != count or any(d.is_joker for d in declared):
        raise DeclarationError(
            f"{format_tiles(t)} holds {count} joker{'s' if count != 1 else ''}: declare "
            f"{'one numbered tile' if count == 1 else f'{count} numbered tiles'} for "
            f"{'it' if count == 1 else 'them'}, in the order they lie (got {format_tiles(declared) or 'nothing'})")
    return declared


def check_meld(tiles: "TilesLike | Meld", rules: "Rules | str | None" = None,
               kind: Optional[MeldKind] = None, jokers: "TilesLike | None" = None) -> MeldVerdict:
    """Judge one meld given in laid order: ``check_meld("R7 R8 J R10")``.

    ``kind`` (``"run"`` or ``"group"``) judges the meld only as that kind, as when a player
    declares what a meld with jokers is meant to be. ``jokers`` declares what the jokers
    stand for, in the order they lie (``check_meld("K1 J J", jokers="B1 O1")``): the meld is
    then judged as that reading only. Without a declaration, where the tiles as laid leave a
    joker's meaning open, the verdict takes the reading worth most and says so
    (``assumed``).
    """
    if kind not in (None, "run", "group"):
        raise ValueError(f"kind must be 'run', 'group' or None, not {kind!r}")
    rules = get_rules(rules)
    meld = tiles if isinstance(tiles, Meld) else Meld(parse_tiles(tiles, check=False))
    if kind is not None or jokers is not None:
        return _check_meld(meld, rules, kind, jokers)
    # the verdict depends on the tiles and the meld order only (as _all_readings)
    key = (meld.tiles, rules.meld_order)
    got = _VERDICTS.get(key)
    if got is None:
        if len(_VERDICTS) > 20_000:
            _VERDICTS.clear()
        got = _VERDICTS[key] = _check_meld(meld, rules, None, None)
    return got


#: check_meld's verdicts on melds with nothing declared, by tiles and meld order
_VERDICTS: dict = {}


def _check_meld(meld: Meld, rules: Rules, kind, jokers) -> MeldVerdict:
    t = meld.tiles
    face = sum(x.face_value for x in t)
    if len(t) < 3:
        return MeldVerdict(False, meld, None, face,
                           f"{meld or 'nothing'}: a meld needs at least 3 tiles, this has {len(t)}")
    if all(x.is_joker for x in t):
        return MeldVerdict(False, meld, None, 0, f"{meld}: a meld needs at least one numbered tile")
    declared = _declaration(t, jokers)
    found, run_why, group_why = _all_readings(t, rules)
    options = [r for r in found if kind is None or r.kind == kind]
    if declared is not None:
        slots = [i for i, x in enumerate(t) if x.is_joker]
        fits = [r for r in options if tuple(r.stands_for[i] for i in slots) == declared]
        if not fits and options:
            what = "the joker is declared as" if len(declared) == 1 else "the jokers are declared as"
            return MeldVerdict(False, meld, None, face,
                               f"{meld}: {what} {format_tiles(declared)}, which does not make "
                               f"{'a ' + kind if kind else 'a run or a group'} of these tiles",
                               declared=True)
        options = fits
    if not options:
        real = [x for x in t if not x.is_joker]
        same_colour = len({x.colour for x in real}) == 1
        same_number = len({x.number for x in real}) == 1
        if kind == "run" or (kind is None and same_colour and not same_number):
            why = f"not a run: {run_why}"
        elif kind == "group" or (same_number and not same_colour):
            why = f"not a group: {group_why}"
        else:
            why = f"neither a run ({run_why}) nor a group ({group_why})"
        return MeldVerdict(False, meld, None, face, f"{meld}: {why}")
    laid = [r for r in options if not r.rearranged]
    options = laid or options
    # The reading worth most (runs first on a tie), as the player would count it.
    best = max(options, key=lambda r: sum(x.number for x in r.stands_for))
    kind, stands = best.kind, best.stands_for
    points = sum(x.number for x in stands)
    what = f"{kind} of {len(t)} worth {points}"
    if kind == "run" and best.rearranged:
        what += f" when laid as {format_tiles(sorted(stands, key=lambda x: x.number))}"
    reason = f"{meld}: a valid {what}{_joker_note(t, stands)}"
    kinds = {r.kind for r in options}
    assumed = declared is None and len({r.stands_for for r in options}) > 1
    if declared is not None:
        reason += " (as declared)"
    elif len(kinds) == 2:
        other = "group" if kind == "run" else "run"
        reason += f" (it could also be read as a {other})"
    elif assumed and kind == "group":
        reason += " (or any missing colour)"
    elif assumed:  # a run to rearrange, into more than one window: the jokers' other values
        slots = [i for i, x in enumerate(t) if x.is_joker]
        chosen = tuple(stands[i] for i in slots)
        others = sorted({tuple(r.stands_for[i] for i in slots) for r in options} - {chosen})
        reason += f" (or {' or '.join(format_tiles(o) for o in others)})"
    return MeldVerdict(True, meld, kind, points, reason, stands, assumed=assumed,
                       declared=declared is not None)


def meld_points(tiles: "TilesLike | Meld", rules: "Rules | str | None" = None,
                *, for_initial_meld: bool = False, jokers: "TilesLike | None" = None) -> int:
    """Points of a valid meld; with ``for_initial_meld``, jokers count per the rules option.
    ``jokers``: what the jokers were declared to stand for (see :func:`check_meld`)."""
    rules = get_rules(rules)
    v = check_meld(tiles, rules, jokers=jokers)
    if not v.ok:
        return 0
    if for_initial_meld and rules.initial_meld_joker_value == "zero":
        return sum(s.number for t, s in zip(v.meld.tiles, v.stands_for) if not t.is_joker)
    return v.points
