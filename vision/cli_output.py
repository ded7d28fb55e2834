"""What the reading commands share: their exit codes, a bad-input answer (a line on standard
error, or one JSON object under ``--json``) and loading the reader with a clear message when
it cannot load."""

from __future__ import annotations

import argparse
import json
import sys

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2


def report_error(msg: str, args: argparse.Namespace | None = None) -> None:
    """Bad input: a line on standard error, or under ``--json`` one JSON object on standard
    output, like every other answer."""
    if getattr(args, "json", False):
        print(json.dumps({"error": msg, "exit": EXIT_BAD_INPUT}, ensure_ascii=False))
    else:
        print(f"rummiref: {msg}", file=sys.stderr)


def load_reader(args):
    try:
        from .reader import ModelsMissingError, Reader
    except ImportError as exc:
        report_error(f"the tile reader needs the vision extra (pip install 'rummiref[vision]'): {exc}",
             args)
        return None
    try:
        return Reader(args.models, threads=args.threads, rules=args.rules)
    except ModelsMissingError as exc:
        report_error(str(exc), args)
        return None
