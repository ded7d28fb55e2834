"""Is one meld valid? Runs, groups, and what each joker stands for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional

from .rules import Rules, get_rules
from .tiles import (COLOURS, MAX_NUMBER, MIN_NUMBER, Meld, Tile, TilesLike, format_tiles,
                    parse_tiles)

MeldKind = Literal["run", "group"]


@dataclass(frozen=True)
class MeldVerdict:
    """The verdict on one meld.

    ``ok``: valid or not. ``kind``: ``"run"`` or ``"group"`` (``None`` if invalid).
    ``points``: the sum of the values the tiles stand for (jokers count as the tile they
    represent); for an invalid meld, the face values of its numbered tiles.
    ``stands_for``: for a valid meld, the tile each position stands for, in laid order (a joker
    in a group stands for a colour it could be; ``reason`` says when that is a choice).
    ``reason``: one plain sentence, why valid (and what was assumed) or why not.
    """

    ok: bool
    meld: Meld
    kind: Optional[MeldKind]
    points: int
    reason: str
    stands_for: tuple[Tile, ...] = ()

    def __bool__(self) -> bool:
        return self.ok

    @property
    def jokers(self) -> tuple[tuple[int, Tile], ...]:
        """(position, tile it stands for) for each joker in the meld."""
        return tuple((i, s) for i, (t, s) in enumerate(zip(self.meld.tiles, self.stands_for))
                     if t.is_joker)

    def to_dict(self) -> dict:
        return {"meld": str(self.meld), "ok": self.ok, "kind": self.kind, "points": self.points,
                "reason": self.reason, "stands_for": [str(t) for t in self.stands_for]}

    @classmethod
    def from_dict(cls, d: dict) -> "MeldVerdict":
        return cls(bool(d["ok"]), Meld(parse_tiles(d["meld"], check=False)), d.get("kind"),
                   int(d["points"]), d["reason"],
                   parse_tiles(" ".join(d.get("stands_for", ())), check=False))


def _joker_note(tiles: tuple[Tile, ...], stands: tuple[Tile, ...]) -> str:
    notes = [str(s) for t, s in zip(tiles, stands) if t.is_joker]
    if not notes:
        return ""
    if len(notes) == 1:
        return f"; the joker stands for {notes[0]}"
    return f"; the jokers stand for {' and '.join(notes)}"


def _as_group(tiles: tuple[Tile, ...]) -> tuple[Optional[tuple[Tile, ...]], str]:
    real = [t for t in tiles if not t.is_joker]
    numbers = {t.number for t in real}
    if len(numbers) > 1:
        return None, "numbers differ (" + ", ".join(str(t) for t in real) + ")"
    if len(tiles) > len(COLOURS):
        return None, f"a group has at most {len(COLOURS)} tiles, one of each colour"
    seen = set()
    for t in real:
        if t.colour in seen:
            return None, f"colour repeats ({t} twice)" if tiles.count(t) > 1 else \
                f"colour repeats ({t.colour.name.lower()} twice)"
        seen.add(t.colour)
    number = real[0].number
    missing = iter([c for c in COLOURS if c not in seen])
    stands = tuple(Tile(next(missing), number) if t.is_joker else t for t in tiles)
    return stands, ""


def _run_from(start: int, step: int, tiles: tuple[Tile, ...], colour) -> tuple[Tile, ...]:
    return tuple(t if not t.is_joker else Tile(colour, start + step * i) for i, t in enumerate(tiles))


def _as_run(tiles: tuple[Tile, ...], order: str) -> tuple[Optional[tuple[Tile, ...]], str, bool]:
    """(stands_for in laid order, reason if invalid, rearranged?)"""
    real = [(i, t) for i, t in enumerate(tiles) if not t.is_joker]
    colours = {t.colour for _, t in real}
    n = len(tiles)
    if len(colours) > 1:
        return None, "colours differ (" + ", ".join(str(t) for _, t in real) + ")", False
    colour = real[0][1].colour
    nums = [t.number for _, t in real]
    if len(set(nums)) < len(nums):
        dup = next(t for _, t in real if nums.count(t.number) > 1)
        return None, f"{dup} appears twice", False
    if n > MAX_NUMBER - MIN_NUMBER + 1:
        return None, f"a run has at most {MAX_NUMBER} tiles", False
    # As laid: ascending first, then descending (a run read from the other side of the table).
    for step in (1, -1):
        starts = {t.number - step * i for i, t in real}
        if len(starts) == 1:
            start = starts.pop()
            lo, hi = sorted((start, start + step * (n - 1)))
            if lo >= MIN_NUMBER and hi <= MAX_NUMBER:
                return _run_from(start, step, tiles, colour), "", False
    lo, hi = min(nums), max(nums)
    if hi - lo + 1 > n:
        gaps = [str(Tile(colour, k)) for k in range(lo, hi + 1) if k not in nums]
        return None, f"not consecutive: {', '.join(gaps)} missing and not enough jokers", False
    if order == "as-laid":
        return None, ("the tiles do not lie in sequence (1 never follows 13, and a joker's place "
                      "fixes its value)"), False
    # Rearranged: real tiles in order, spare jokers above the top if there is room, else below.
    spare = n - (hi - lo + 1)
    above = min(spare, MAX_NUMBER - hi)
    start = lo - (spare - above)
    if start < MIN_NUMBER:
        return None, "not consecutive", False
    missing = iter(k for k in range(start, start + n) if k not in nums)
    return tuple(t if not t.is_joker else Tile(colour, next(missing)) for t in tiles), "", True


def check_meld(tiles: "TilesLike | Meld", rules: "Rules | str | None" = None,
               kind: Optional[MeldKind] = None) -> MeldVerdict:
    """Judge one meld given in laid order: ``check_meld("R7 R8 J R10")``.

    ``kind`` (``"run"`` or ``"group"``) judges the meld only as that kind, as when a player
    declares what a meld with jokers is meant to be.
    """
    if kind not in (None, "run", "group"):
        raise ValueError(f"kind must be 'run', 'group' or None, not {kind!r}")
    rules = get_rules(rules)
    meld = tiles if isinstance(tiles, Meld) else Meld(parse_tiles(tiles, check=False))
    t = meld.tiles
    face = sum(x.face_value for x in t)
    if len(t) < 3:
        return MeldVerdict(False, meld, None, face,
                           f"{meld or 'nothing'}: a meld needs at least 3 tiles, this has {len(t)}")
    if all(x.is_joker for x in t):
        return MeldVerdict(False, meld, None, 0, f"{meld}: a meld needs at least one numbered tile")
    run, run_why, rearranged = _as_run(t, rules.meld_order)
    group, group_why = _as_group(t)
    options = []
    if run is not None and kind != "group":
        options.append(("run", run))
    if group is not None and kind != "run":
        options.append(("group", group))
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
    # Both readings possible only with jokers and one numbered tile: take the higher value.
    kind, stands = max(options, key=lambda o: sum(x.number for x in o[1]))
    points = sum(x.number for x in stands)
    what = f"{kind} of {len(t)} worth {points}"
    if kind == "run" and rearranged:
        what += f" when laid as {format_tiles(sorted(stands, key=lambda x: x.number))}"
    reason = f"{meld}: a valid {what}{_joker_note(t, stands)}"
    if len(options) == 2:
        other = options[1] if options[0][0] == kind else options[0]
        reason += f" (it could also be read as a {other[0]})"
    elif kind == "group" and sum(x.is_joker for x in t) and len(t) < len(COLOURS):
        reason += " (or any missing colour)"
    return MeldVerdict(True, meld, kind, points, reason, stands)


def meld_points(tiles: "TilesLike | Meld", rules: "Rules | str | None" = None,
                *, for_initial_meld: bool = False) -> int:
    """Points of a valid meld; with ``for_initial_meld``, jokers count per the rules option."""
    rules = get_rules(rules)
    v = check_meld(tiles, rules)
    if not v.ok:
        return 0
    if for_initial_meld and rules.initial_meld_joker_value == "zero":
        return sum(s.number for t, s in zip(v.meld.tiles, v.stands_for) if not t.is_joker)
    return v.points
