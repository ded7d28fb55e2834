"""The ``rummiref`` command.

The referee's own subcommands live here; the tile reader and the web app add theirs through
the ``rummiref.commands`` entry-point group, so a referee-only install never imports them.

Exit codes: 0 valid / done, 1 invalid (a table, meld or turn that breaks the rules, or no
arrangement), 2 bad input (notation, unknown preset, ...).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import sys
from importlib.metadata import entry_points
from typing import Callable, Optional, Sequence

from . import (PRESETS, DEFAULT_PRESET, RummirefError, arrange, best_move, check_table,
               check_turn, get_rules, parse_table, parse_tiles, settle_round)
from .melds import DeclarationError
from .names import name_key
from .tiles import Meld, Table
from .words import plural, quoted

EXIT_OK, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2


def _json_line(data: dict) -> str:
    """One JSON object, UTF-8 clean: bytes that were not UTF-8 in the input (Python keeps them
    as lone surrogates) are written as \\udcXX escapes, not as the raw bytes again."""
    text = json.dumps(data, ensure_ascii=False)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _emit(args: argparse.Namespace, data: dict, text: str) -> None:
    if getattr(args, "json", False):
        print(_json_line(data))
    else:
        print(text)


def _text_arg(value: str) -> str:
    """``-`` reads the argument from standard input (handy for long tables)."""
    return sys.stdin.read() if value == "-" else value


def _seconds(text: str) -> float:
    """A duration in seconds for argparse: a finite number, not below 0 (``nan`` compared
    with the time limit is never over it, so a NaN turn was always in time)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give the seconds the turn took, 0 or more")
    return value


def _add_rules(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default=DEFAULT_PRESET, metavar="PRESET",
                   help=f"rule preset: {', '.join(PRESETS)} (default {DEFAULT_PRESET})")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _add_jokers(p: argparse.ArgumentParser, flag: str = "--joker", table: str = "the table") -> None:
    p.add_argument(flag, action="append", default=[], metavar="MELD=TILES",
                   help=f"what the jokers of a meld of {table} stand for, in the order they lie: "
                        "the meld as written or its place counting from 1, then '=' and the "
                        "tiles ('J K1 J=B1 O1' or '2=B1 O1'); repeat for another meld")


def _declarations(items: Sequence[str], table: Table) -> dict[int, str]:
    """``--joker`` values as ``{meld index: tiles}``; a meld named by its tiles or its place."""
    out: dict[int, str] = {}
    for item in items:
        meld, sep, tiles = item.rpartition("=")
        meld = meld.strip()
        if not sep or not meld:
            raise DeclarationError(f"--joker {quoted(item)}: write the meld, '=' and the tiles "
                                   "its jokers stand for ('J K1 J=B1 O1' or '2=B1 O1')")
        if meld.isdecimal():  # (not isdigit: "²" is a digit int() refuses)
            place = int(meld)
            if not 1 <= place <= len(table):
                raise DeclarationError(f"--joker {quoted(item)}: the table has "
                                       f"{plural(len(table), 'meld')}, counted from 1")
            index = place - 1
        else:
            wanted = Meld(parse_tiles(meld, check=False))
            found = [i for i, m in enumerate(table) if m.tiles == wanted.tiles]
            if len(found) != 1:
                raise DeclarationError(
                    f"--joker {quoted(item)}: " + (f"no meld of the table reads {wanted}" if not found
                                                   else f"{len(found)} melds read {wanted}: name "
                                                        "one by its place, counting from 1"))
            index = found[0]
        if index in out:
            raise DeclarationError(f"--joker {quoted(item)}: meld {index + 1} is declared twice")
        out[index] = tiles
    return out


def cmd_check(args: argparse.Namespace) -> int:
    rules = get_rules(args.rules)
    table = parse_table(_text_arg(args.table))
    verdict = check_table(table, rules, jokers=_declarations(args.joker, table))
    lines = []
    for v in verdict.melds:
        lines.append(("ok   " if v.ok else "BAD  ") + v.reason)
    data = verdict.to_dict()
    if not verdict.melds:
        lines.append("The table is empty (that is valid).")
    if verdict.ok:
        lines.append(f"Valid: {plural(len(verdict.melds), 'meld')} under {rules.title}.")
    else:
        bad = len(verdict.invalid)
        lines.append(f"Not valid: {bad} of {plural(len(verdict.melds), 'meld')} "
                     f"{'breaks' if bad == 1 else 'break'} the rules.")
        fix = arrange(verdict.table.tiles, rules)
        data["valid_arrangement"] = str(fix) if fix is not None else None
        if fix is not None:
            lines.append(f"These tiles can be laid validly, for example: {fix}")
        else:
            lines.append("No valid arrangement of these tiles exists: restore the table and "
                         f"draw {rules.failed_turn_draw}.")
    _emit(args, data, "\n".join(lines))
    return EXIT_OK if verdict.ok else EXIT_INVALID


def cmd_arrange(args: argparse.Namespace) -> int:
    rules = get_rules(args.rules)
    tiles = parse_tiles(_text_arg(args.tiles))
    table = arrange(tiles, rules)
    data = {"tiles": [str(t) for t in tiles], "arrangeable": table is not None,
            "table": str(table) if table is not None else None}
    if table is None:
        text = (f"No: {plural(len(tiles), 'tile')} cannot "
                f"{'be laid as a valid meld' if len(tiles) == 1 else 'all be laid as valid melds'}.")
    else:
        text = str(table) if len(table) else "(no tiles: nothing to arrange)"
    _emit(args, data, text)
    return EXIT_OK if table is not None else EXIT_INVALID


def cmd_hint(args: argparse.Namespace) -> int:
    rules = get_rules(args.rules)
    table = parse_table(_text_arg(args.table))
    move = best_move(table, parse_tiles(args.rack), rules, opened=not args.not_opened,
                     jokers=_declarations(args.joker, table))
    if move.placed:
        steps = [f"  {i}. {s.text[0].upper()}{s.text[1:]}." for i, s in enumerate(move.steps, 1)]
        text = "\n".join([f"Play {' '.join(map(str, move.placed))} ({plural(len(move.placed), 'tile')}):"]
                          + steps + [f"Table after: {move.table}"])
        if not move.exact:
            text += "\nThe best play found in the time allowed; a better one may exist."
    elif not move.exact:
        text = "No play found in the time allowed: draw a tile (a play may still exist)."
    else:
        text = "No tile can be played: draw a tile."
    _emit(args, move.to_dict(), text)
    return EXIT_OK


def cmd_turn(args: argparse.Namespace) -> int:
    rules = get_rules(args.rules)
    before, after = parse_table(_text_arg(args.before)), parse_table(args.after)
    v = check_turn(before, after, args.rack, rules=rules, opened=not args.not_opened,
                   elapsed=args.elapsed, jokers=_declarations(args.joker, after),
                   jokers_before=_declarations(args.joker_before, before))
    _emit(args, v.to_dict(), v.summary())
    return EXIT_OK if v.legal else EXIT_INVALID


def _parse_rack_arg(item: str) -> tuple[str, str]:
    if "=" not in item:
        raise RummirefError(f"{quoted(item)}: write each player as NAME=RACK, e.g. "
                            f"Ben=\"R5 K13 J\" or Cy=12")
    name, rack = item.split("=", 1)
    return name.strip(), rack.strip()


def _racks(items: Sequence[str], winner: Optional[str]) -> tuple[dict[str, str], Optional[str]]:
    """Each player's rack from NAME=RACK arguments: every name once (``Ann`` and ``ann`` are
    one player), the winner among them; and the winner as spelt in NAME=RACK."""
    racks: dict[str, str] = {}
    spelt: dict[str, str] = {}
    for item in items:
        name, rack = _parse_rack_arg(item)
        first = spelt.get(name_key(name))
        if first is not None:
            raise RummirefError(f"{quoted(name)} is given twice ({first}={racks[first]} and "
                                f"{name}={rack}): give each player's rack once")
        racks[name] = rack
        spelt[name_key(name)] = name
    if winner is not None:
        if name_key(winner) not in spelt:
            raise RummirefError(f"the winner {quoted(winner)} is not one of the players given "
                                f"({', '.join(racks)}): list every player as NAME=RACK, the "
                                f"winner too ({winner}=0)")
        winner = spelt[name_key(winner)]
    return racks, winner


def cmd_score(args: argparse.Namespace) -> int:
    rules = get_rules(args.rules)
    racks, winner = _racks(args.racks, args.winner)
    result = settle_round(racks, winner, rules)
    width = max(len(p) for p in result.scores)
    lines = [f"{p:<{width}}  {s:+d}" for p, s in result.scores.items()]
    lines += ["", *result.explanation, f"Total {result.total:+d} (every round sums to zero)"]
    _emit(args, result.to_dict(), "\n".join(lines))
    return EXIT_OK


def cmd_presets(args: argparse.Namespace) -> int:
    from .rules import DEPARTURES

    data = {}
    lines = []
    for name, r in PRESETS.items():
        cites = r.citations()
        data[name] = {**r.to_dict(),
                      "citations": {f: {"text": c.text, "quote": c.quote} for f, c in cites.items()},
                      "departures": [{"text": c.text, "quote": c.quote}
                                     for c in DEPARTURES.get(name, ())]}
        default = " (default)" if name == DEFAULT_PRESET else ""
        lines.append(f"{name}{default}: {r.title}\n  source: {r.source}")
        lines += [f"  - {line}" for line in r.describe()]
        lines.append("  cited (rule text in shared/rules/, word for word):")
        lines += [f"    {f} = {getattr(r, f)!r}: {c.text} \u201c{c.quote}\u201d"
                  for f, c in cites.items()]
        if DEPARTURES.get(name):
            lines.append("  where it departs from text 001, which says instead:")
            lines += [f"    {c.text} \u201c{c.quote}\u201d" for c in DEPARTURES[name]]
    _emit(args, data, "\n".join(lines))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rummiref",
        description="A table assistant for Rummikub. Tiles: K black, B blue, O orange (or Y), "
                    "R red, then 1-13 (R7, K13); J is a joker. Melds are tiles in laid order; "
                    "a table is melds separated by ' | '.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("check", help="is a table valid? (exit 0 valid, 1 invalid, 2 bad input)")
    p.add_argument("table", help="melds separated by ' | ', e.g. 'R7 R8 J R10 | K5 B5 O5'; - reads stdin")
    _add_jokers(p)
    _add_rules(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("arrange", help="can these tiles all be laid as valid melds?")
    p.add_argument("tiles", help="tiles, e.g. 'R7 R8 R9 K5 B5 O5 J'; - reads stdin")
    _add_rules(p)
    p.set_defaults(func=cmd_arrange)

    p = sub.add_parser("hint", help="the move that lays the most rack tiles")
    p.add_argument("--table", required=True, help="the table now ('' for an empty table)")
    p.add_argument("--rack", required=True, help="the tiles on your rack")
    p.add_argument("--not-opened", action="store_true",
                   help="you have not made your initial meld yet")
    _add_jokers(p)
    _add_rules(p)
    p.set_defaults(func=cmd_hint)

    p = sub.add_parser("turn", help="judge a turn from the table before and after it")
    p.add_argument("--before", required=True, help="the table before the turn")
    p.add_argument("--after", required=True, help="the table after the turn")
    p.add_argument("--rack", help="the player's rack before the turn, if known")
    p.add_argument("--not-opened", action="store_true",
                   help="the player had not made the initial meld before this turn")
    p.add_argument("--elapsed", type=_seconds, help="seconds the turn took")
    _add_jokers(p, table="the table after the turn")
    _add_jokers(p, "--joker-before", "the table before the turn")
    _add_rules(p)
    p.set_defaults(func=cmd_turn)

    p = sub.add_parser("score", help="score a round: losers pay their racks, the winner collects")
    p.add_argument("racks", nargs="+", metavar="NAME=RACK",
                   help="each player's rack as points or tiles: Ann=0 'Ben=R5 K13 J' Cy=12")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--winner", help="the player who went out")
    who.add_argument("--nobody", action="store_true",
                     help="the pool ran out and nobody went out (scored by the preset's rule)")
    _add_rules(p)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("presets", help="list the rule presets and what each says")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_presets)

    missing = []
    for ep in sorted(entry_points(group="rummiref.commands"), key=lambda e: e.name):
        try:
            register: Callable = ep.load()
        except ImportError as e:  # a part that is not installed keeps out of the way
            missing.append(f"{ep.name} ({e})")
            continue
        register(sub)
    if missing:
        parser.epilog = "Commands not available in this install: " + ", ".join(missing)
    return parser


def _json_error(message: str, **extra) -> None:
    """Bad input under ``--json``: one JSON object on standard output, like every answer."""
    print(_json_line({"error": message, "exit": EXIT_BAD_INPUT,
                      **{k: v for k, v in extra.items() if v is not None}}))


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    wants_json = "--json" in argv
    if wants_json:
        try:
            with contextlib.redirect_stderr(io.StringIO()) as usage:
                args = parser.parse_args(argv)
        except SystemExit as e:
            if e.code in (0, None):
                return 0
            text = usage.getvalue().strip().splitlines()
            _json_error(text[-1].split(": error: ", 1)[-1] if text else "bad arguments")
            return EXIT_BAD_INPUT
    else:
        args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.func(args) or 0)
    except RummirefError as e:
        if getattr(args, "json", False):
            # A rack's notation error reaches here wrapped in a ScoringError: its token too.
            token = getattr(e, "token", None) or getattr(e.__cause__, "token", None)
            _json_error(str(e), token=token)
        else:
            print(f"rummiref: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
