"""The live referee's game state: the table at the start of each turn, whose turn it is, who
has made the initial meld, and whether a failed turn's table must be put back.

A :class:`TurnLog` is fed the tables seen at the end of each turn, in order, and judges each
turn as it comes, as python-chess's ``Board`` takes moves with ``push``. It keeps its inputs
(:class:`Entry`), so a correction to any table seen (a misread tile) judges the whole log
again, and it writes itself to JSON-ready data and back.

    >>> from referee import TurnLog
    >>> log = TurnLog(["Ann", "Ben"])
    >>> log.observe("K5 B5 O5").outcome.value
    'start'
    >>> log.push("K5 B5 O5 | R10 R11 R12").legal          # Ann opens with 33
    True
    >>> log.to_move, sorted(log.opened)
    ('Ben', ['Ann'])
    >>> log.push("K5 B5 O5 | R10 R11 R12 | B1 B2 B3").legal   # Ben opens with 6
    False
    >>> log.restore_pending, str(log.table)                     # his tiles must come back
    (True, 'K5 B5 O5 | R10 R11 R12')
    >>> log.observe("R10 R11 R12 | K5 B5 O5").outcome.value
    'restored'

A turn is judged against the table as it should be: after a failed turn that nobody put back,
the next player is judged against the table before the failed turn (:attr:`Turn.unrestored`).

What a joker stands for can be declared with the table it lies in (``push(..., jokers={1:
"B1 O1"})``, or later with :meth:`TurnLog.declare`, which judges the log again). A
declaration holds while its joker stays: the next turn is judged against it, and the table
after that turn carries it on for every joker that stayed.

A stored log (:meth:`TurnLog.to_dict`) is read back by following its inputs and its judged
turns in order, as :meth:`TurnLog.push` does, without judging anything again: its state is
the one its turns lead to, whatever the stored ``state`` says or lacks. So a log stored
without ``opened`` knows who opened (players whose judged turn opened, and those in
``opened_before``), one without ``restore_pending`` knows whether the last failed turn's table
is still to be put back, and a turn stored without ``unrestored`` is given it from the turn
before. A :class:`Turn` read alone (:meth:`Turn.from_dict`) cannot know: without
``unrestored`` it was judged against the table as it should have been.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any, Iterable, Optional

from .rules import Rules, get_rules
from .tiles import RummirefError, Table, TableLike, Tile, TilesLike, format_tiles, parse_table
from .turns import Declarations, TurnVerdict, _declared, check_turn


class Outcome(str, enum.Enum):
    """What a table seen meant for the game (:meth:`TurnLog.observe`)."""

    START = "start"          #: the first table seen: the log starts from it
    UNCHANGED = "unchanged"  #: the table as it should be now: no turn
    RESTORED = "restored"    #: a failed turn's table was put back: no turn
    TURN = "turn"            #: a turn was played and judged

    def __str__(self) -> str:
        return self.value


class EntryKind(str, enum.Enum):
    """The inputs of a log."""

    START = "start"      #: the table the log starts from
    TURN = "turn"        #: the table after a turn
    RESTORE = "restore"  #: the table put back after a failed turn
    SEAT = "seat"        #: a person said whose turn it is

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Entry:
    """One input of the log. ``table``: the table seen (not checked: a misreading may hold a
    third copy of a tile); ``elapsed``: seconds a turn took, when timed; ``seat``: for SEAT,
    whose turn it is now; ``ref``: the caller's name for what was seen (a snapshot id);
    ``jokers``: what the jokers of ``table`` were declared to stand for, as sorted
    ``(meld index, tiles)`` pairs (see :data:`referee.turns.Declarations`)."""

    kind: EntryKind
    table: Optional[Table] = None
    elapsed: Optional[float] = None
    seat: Optional[int] = None
    ref: Any = None
    jokers: tuple[tuple[int, tuple[Tile, ...]], ...] = ()

    def to_dict(self) -> dict:
        return {"kind": self.kind.value,
                "table": str(self.table) if self.table is not None else None,
                "elapsed": self.elapsed, "seat": self.seat, "ref": self.ref,
                "jokers": {str(i): format_tiles(t) for i, t in self.jokers}}

    @classmethod
    def from_dict(cls, d: dict) -> "Entry":
        table = d.get("table")
        return cls(EntryKind(d["kind"]),
                   parse_table(table, check=False) if table is not None else None,
                   d.get("elapsed"), d.get("seat"), d.get("ref"), _declared(d.get("jokers")))


@dataclass(frozen=True)
class Turn:
    """One judged turn. ``before``: the table it was judged against (the table as it should
    have been); ``after``: the table seen at its end. ``entry`` / ``before_entry``: the
    indices in :attr:`TurnLog.entries` of the inputs holding ``after`` and ``before`` (to
    correct a misread tile on either side). ``verdict`` is None when the table seen cannot be
    judged (``problem`` says why: a misreading). ``unrestored``: the previous failed turn's
    table had not been put back, so this turn was judged against the table before it."""

    number: int
    player: str
    seat: int
    before: Table
    after: Table
    entry: int
    before_entry: Optional[int]
    elapsed: Optional[float]
    verdict: Optional[TurnVerdict]
    problem: Optional[str] = None
    unrestored: bool = False
    before_ref: Any = None
    after_ref: Any = None

    @property
    def legal(self) -> Optional[bool]:
        return None if self.verdict is None else self.verdict.legal

    @property
    def restore(self) -> bool:
        """Must the table go back to ``before``?"""
        return self.verdict is not None and not self.verdict.legal and self.verdict.restore

    def summary(self) -> str:
        if self.verdict is None:
            return (f"The reading cannot be judged: {self.problem}. Correct the misread tile "
                    f"and the turn is judged again.")
        return self.verdict.summary()

    def to_dict(self) -> dict:
        return {"number": self.number, "player": self.player, "seat": self.seat,
                "before": str(self.before), "after": str(self.after), "entry": self.entry,
                "before_entry": self.before_entry, "elapsed": self.elapsed,
                "verdict": self.verdict.to_dict() if self.verdict is not None else None,
                "problem": self.problem, "unrestored": self.unrestored,
                "before_ref": self.before_ref, "after_ref": self.after_ref,
                "legal": self.legal, "summary": self.summary()}

    @classmethod
    def from_dict(cls, d: dict) -> "Turn":
        v = d.get("verdict")
        return cls(int(d["number"]), d["player"], int(d["seat"]),
                   parse_table(d["before"], check=False), parse_table(d["after"], check=False),
                   int(d["entry"]), d.get("before_entry"), d.get("elapsed"),
                   TurnVerdict.from_dict(v) if v is not None else None, d.get("problem"),
                   bool(d.get("unrestored")), d.get("before_ref"), d.get("after_ref"))


@dataclass(frozen=True)
class Step:
    """What :meth:`TurnLog.observe` made of a table: its outcome, and the turn if one was
    judged."""

    outcome: Outcome
    turn: Optional[Turn] = None


class TurnLog:
    """The turns of one round, judged under ``rules`` for ``players`` in seat order, the
    player in seat ``first_seat`` to move first. ``start``: the table the round starts from
    (otherwise the first table observed, or an empty table when a turn is pushed first).
    ``opened``: players who made the initial meld before the log starts (a camera that joins
    a round late)."""

    def __init__(self, players: Iterable[str], rules: "Rules | str | None" = None, *,
                 first_seat: int = 0, start: Optional[TableLike] = None, start_ref: Any = None,
                 opened: Iterable[str] = ()):
        self.players: tuple[str, ...] = tuple(players)
        if not self.players:
            raise ValueError("a turn log needs at least one player")
        self.rules: Rules = get_rules(rules)
        self.first_seat = first_seat % len(self.players)
        self.opened_before: frozenset[str] = frozenset(opened)
        unknown = self.opened_before - set(self.players)
        if unknown:
            raise ValueError(f"{', '.join(sorted(unknown))} is not a player here")
        self.entries: list[Entry] = []
        self._clear()
        if start is not None:
            self._apply(Entry(EntryKind.START, parse_table(start, check=False), ref=start_ref))

    def _clear(self) -> None:
        self.turns: list[Turn] = []
        self._table: Optional[Table] = None
        self._table_entry: Optional[int] = None
        self._seat = self.first_seat
        self._opened: set[str] = set(self.opened_before)
        self._restore_pending = False
        self._declared: dict[int, tuple[Tile, ...]] = {}

    @property
    def started(self) -> bool:
        return self._table is not None

    @property
    def table(self) -> Table:
        """The table as it should be now (after a failed turn: as it was before that turn)."""
        return self._table if self._table is not None else Table()

    @property
    def table_entry(self) -> Optional[int]:
        """The index of the entry that holds :attr:`table`."""
        return self._table_entry

    @property
    def table_ref(self) -> Any:
        return self.entries[self._table_entry].ref if self._table_entry is not None else None

    @property
    def seat(self) -> int:
        """The seat whose turn it is."""
        return self._seat

    @property
    def to_move(self) -> str:
        """The player whose turn it is."""
        return self.players[self._seat]

    @property
    def opened(self) -> frozenset[str]:
        """The players who have made the initial meld."""
        return frozenset(self._opened)

    @property
    def declared(self) -> dict[int, tuple[Tile, ...]]:
        """What the jokers of :attr:`table` stand for, as declared (``{meld index: tiles}``)."""
        return dict(self._declared)

    @property
    def restore_pending(self) -> bool:
        """Did the last turn fail, with its table not yet put back?"""
        return self._restore_pending

    def observe(self, table: TableLike, *, elapsed: Optional[float] = None,
                end_turn: bool = False, ref: Any = None,
                jokers: "Declarations | None" = None) -> Step:
        """A table seen at the end of a turn (the camera's table went still, or a player
        ended the turn). The first table starts the log; the table as it should be is no
        turn (unless ``end_turn``: then the player drew); after a failed turn, the table
        before it is the restore; anything else is a turn, judged. ``jokers``: what its
        jokers stand for, as declared (``{meld index: "B1 O1"}``)."""
        seen = parse_table(table, check=False)
        decl = _declared(jokers, seen)
        outcome = self.outcome_of(seen, end_turn=end_turn)
        if outcome is Outcome.START:
            self._apply(Entry(EntryKind.START, seen, ref=ref, jokers=decl))
        elif outcome is Outcome.RESTORED:
            self._apply(Entry(EntryKind.RESTORE, seen, ref=ref, jokers=decl))
        elif outcome is Outcome.TURN:
            return Step(outcome, self._apply(Entry(EntryKind.TURN, seen, elapsed, ref=ref,
                                                   jokers=decl)))
        return Step(outcome)

    def outcome_of(self, table: TableLike, *, end_turn: bool = False) -> Outcome:
        """What :meth:`observe` would make of ``table``, changing nothing (a caller that
        stores only the tables that count asks first)."""
        seen = parse_table(table, check=False)
        if self._table is None:
            return Outcome.START
        if seen.key() == self._table.key() and not end_turn:
            return Outcome.RESTORED if self._restore_pending else Outcome.UNCHANGED
        return Outcome.TURN

    def push(self, after: TableLike, elapsed: Optional[float] = None, *,
             ref: Any = None, jokers: "Declarations | None" = None) -> Optional[TurnVerdict]:
        """Record a turn by the player to move, ending with the table ``after``; returns its
        verdict (None when ``after`` cannot be judged: see :attr:`Turn.problem`).
        ``jokers``: what the jokers of ``after`` stand for, as declared."""
        table = parse_table(after, check=False)
        return self._apply(Entry(EntryKind.TURN, table, elapsed, ref=ref,
                                 jokers=_declared(jokers, table))).verdict

    def declare(self, index: int, meld: int, tiles: "TilesLike | None") -> list[int]:
        """Declare what the jokers of meld ``meld`` of entry ``index``'s table stand for (in
        the order they lie; None takes the declaration back) and judge the log again.
        Returns the numbers of the turns whose verdict changed."""
        entry = self.entries[index]
        if entry.table is None:
            raise ValueError(f"entry {index} holds no table")
        decl = dict(entry.jokers)
        if tiles is None:
            decl.pop(meld, None)
        else:
            decl[meld] = tiles
        self.entries[index] = dataclasses.replace(entry, jokers=_declared(decl, entry.table))
        return self.replay()

    def set_to_move(self, player: str) -> None:
        """A person says whose turn it is (the camera cannot know who sat down first)."""
        if player not in self.players:
            raise ValueError(f"{player!r} is not a player here; the players are "
                             f"{', '.join(self.players)}")
        self._apply(Entry(EntryKind.SEAT, seat=self.players.index(player)))

    def pop(self) -> Entry:
        """Take back the last input (and the turn it made) and return it."""
        if not self.entries:
            raise IndexError("the turn log is empty")
        entry = self.entries.pop()
        self.replay()
        return entry

    def correct(self, index: int, table: TableLike) -> list[int]:
        """The table of entry ``index`` was misread: put ``table`` in its place and judge
        the log again. Returns the numbers of the turns whose verdict changed."""
        entry = self.entries[index]
        if entry.table is None:
            raise ValueError(f"entry {index} holds no table")
        self.entries[index] = dataclasses.replace(entry, table=parse_table(table, check=False))
        return self.replay()

    def replay(self) -> list[int]:
        """Judge every input again, in order. Returns the numbers of the turns whose
        verdict (legal or not, what it says) or table before changed."""
        old = {t.number: t for t in self.turns}
        entries = list(self.entries)
        self.entries = []
        self._clear()
        for e in entries:
            self._apply(e)
        changed = []
        for t in self.turns:
            o = old.get(t.number)
            if o is None or o.legal != t.legal or o.summary() != t.summary() \
                    or o.before.key() != t.before.key():
                changed.append(t.number)
        return changed

    def _apply(self, entry: Entry) -> Optional[Turn]:
        self.entries.append(entry)
        index = len(self.entries) - 1
        turn = self._judge(entry, index) if entry.kind is EntryKind.TURN else None
        self._follow(entry, index, turn)
        return turn

    def _follow(self, entry: Entry, index: int, turn: Optional[Turn]) -> None:
        """The state after input ``entry`` (``entries[index]``); ``turn``: its judged turn,
        for a TURN."""
        if entry.kind is EntryKind.SEAT:
            self._seat = entry.seat % len(self.players)
            return
        if turn is None:  # START or RESTORE: the table is this one now
            kept = _same_melds(self._table, self._declared, entry.table) \
                if entry.kind is EntryKind.RESTORE else {}
            self._table, self._table_entry = entry.table, index
            self._declared = {**kept, **dict(entry.jokers)}
            self._restore_pending = False
            return
        self.turns.append(turn)
        if turn.restore:
            self._restore_pending = True  # the table should go back to `before`
        else:
            self._declared = {**_carried(turn.verdict, self._declared), **dict(entry.jokers)}
            self._table, self._table_entry = entry.table, index
            self._restore_pending = False
        if turn.verdict is not None and turn.verdict.opened:
            self._opened.add(turn.player)
        self._seat = (turn.seat + 1) % len(self.players)

    def _judge(self, entry: Entry, index: int) -> Turn:
        before = self.table
        seat, player = self._seat, self.players[self._seat]
        number = len(self.turns) + 1
        verdict: Optional[TurnVerdict] = None
        problem = None
        try:
            verdict = check_turn(before, entry.table, rules=self.rules,
                                 opened=player in self._opened, elapsed=entry.elapsed,
                                 jokers=dict(entry.jokers), jokers_before=self._declared)
        except RummirefError as e:
            problem = str(e)
        if verdict is not None and self._restore_pending:
            verdict = dataclasses.replace(verdict, notes=verdict.notes + (
                f"the table was not restored after turn {number - 1}: this turn is judged "
                f"against the table as it was before that turn",))
        before_ref = self.entries[self._table_entry].ref if self._table_entry is not None \
            else None
        return Turn(number, player, seat, before, entry.table, index, self._table_entry,
                    entry.elapsed, verdict, problem, self._restore_pending, before_ref,
                    entry.ref)

    def to_dict(self) -> dict:
        """The log as JSON-ready data: its inputs, its judged turns and its state.
        :meth:`from_dict` gives it back without judging anything again."""
        return {"players": list(self.players), "rules": self.rules.to_dict(),
                "first_seat": self.first_seat, "opened_before": sorted(self.opened_before),
                "entries": [e.to_dict() for e in self.entries],
                "turns": [t.to_dict() for t in self.turns],
                "state": {"table_entry": self._table_entry, "seat": self._seat,
                          "opened": sorted(self._opened),
                          "restore_pending": self._restore_pending,
                          "declared": {str(i): format_tiles(t)
                                       for i, t in sorted(self._declared.items())}}}

    @classmethod
    def from_dict(cls, d: dict) -> "TurnLog":
        """A log from :meth:`to_dict`'s data. Its state is followed from its inputs and its
        judged turns, in order, without judging anything again (``state`` is not read: see
        the module's notes on stored logs). Without ``turns`` (only the inputs kept), the
        turns are judged again."""
        log = cls(d["players"], _rules(d["rules"]), first_seat=int(d.get("first_seat", 0)),
                  opened=d.get("opened_before", ()))
        entries = [Entry.from_dict(e) for e in d.get("entries", ())]
        if "turns" not in d:
            for e in entries:
                log._apply(e)
            return log
        log.entries = entries
        stored = iter(d["turns"])
        for index, e in enumerate(entries):
            turn = None
            if e.kind is EntryKind.TURN:
                turn = dataclasses.replace(Turn.from_dict(next(stored)),
                                           unrestored=log._restore_pending)
            log._follow(e, index, turn)
        return log


def _carried(verdict: Optional[TurnVerdict], before: dict) -> dict:
    """The declarations the table after a turn inherits: each meld whose jokers all stayed,
    from melds whose jokers were declared, keeps what they stood for."""
    if verdict is None or not before:
        return {}
    stays: dict = {}
    for f in verdict.jokers:
        if f.after_meld is None:
            continue
        stays.setdefault(f.after_meld, {})[f.after_position] = (
            None if f.taken or f.before_meld not in before else f.stood_for)
    out = {}
    for a, positions in stays.items():
        slots = [p for p, t in enumerate(verdict.after[a]) if t.is_joker]
        if all(positions.get(p) is not None for p in slots):
            out[a] = tuple(positions[p] for p in slots)
    return out


def _same_melds(old: Optional[Table], declared: dict, new: Table) -> dict:
    """Declarations of ``old`` moved to the identical melds of ``new`` (a table put back)."""
    if old is None or not declared:
        return {}
    free = {i: tuple(sorted(m.tiles)) for i, m in enumerate(old) if i in declared}
    out = {}
    for j, m in enumerate(new):
        key = tuple(sorted(m.tiles))
        i = next((i for i, k in free.items() if k == key), None)
        if i is not None:
            out[j] = declared[i]
            del free[i]
    return out


def _rules(data: "dict | str") -> Rules:
    if isinstance(data, str):
        return get_rules(data)
    return Rules.from_dict(data)
