"""``rummiref calibrate PHOTO [--game ID | --default]``: learn the player's own tile set from
a photo of the calibration grid (see :mod:`vision.calibration_grid`) and keep it in the
instance folder, where ``rummiref read`` and the scoresheet's reader find it."""

from __future__ import annotations

import argparse
import json
import sys

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2


def cmd_calibrate(args: argparse.Namespace) -> int:
    from .calibration import CalibrationUnusable, calibrate, calibration_path, save
    from .calibration_grid import GridError
    from .cli_output import load_reader, report_error
    from .imageio import ImageError

    try:
        calibration_path(args.instance, args.game)
    except ValueError as exc:
        report_error(str(exc), args)
        return EXIT_BAD_INPUT
    reader = load_reader(args)
    if reader is None:
        return EXIT_BAD_INPUT
    try:
        result = calibrate(reader, args.photo)
    except ImageError as exc:  # its message names the file already
        report_error(f"{exc}; nothing was stored", args)
        return EXIT_FAILED
    except (GridError, CalibrationUnusable) as exc:
        report_error(f"{args.photo}: {exc}; nothing was stored", args)
        return EXIT_FAILED
    try:
        path = save(result.calibration, args.instance, args.game)
    except OSError as exc:  # an --instance that is a file, a read-only folder, a full disk
        where = calibration_path(args.instance, args.game).parent
        report_error(f"cannot store the calibration in {where}: {exc.strerror or exc}; "
                     f"nothing was stored (give a writable folder with --instance DIR)", args)
        return EXIT_FAILED
    if args.json:
        print(json.dumps({"stored": str(path), "game": args.game, "found": result.found,
                          "missing": result.missing, "right_before": result.right_before,
                          "right_after": result.right_after, "seconds": result.seconds}))
    else:
        print(result.summary())
        print(f"stored: {path} ({'game ' + args.game if args.game else 'the default'})")
    return EXIT_OK


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "calibrate", help="learn your own tile set from a photo of the calibration grid",
        description="Lay out one of each tile face up in five rows, all the same way up: "
                    "black 1-13, blue 1-13, orange 1-13, red 1-13, then the jokers under "
                    "the red row; photograph the whole grid from above. The reader learns "
                    "that tile set and keeps it in the instance folder, for one game or as "
                    "the default.")
    p.add_argument("photo", metavar="PHOTO")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--game", metavar="ID", help="keep it for this game only")
    which.add_argument("--default", action="store_true",
                       help="keep it as the default for every game (the default)")
    p.add_argument("--instance", metavar="DIR", default=None,
                   help="instance folder (default: $RUMMIREF_INSTANCE or the per-user data "
                        "folder the scoresheet uses)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--models", default=None, metavar="DIR",
                   help="folder with the models (default: the installed models)")
    p.add_argument("--threads", type=int, default=2, help="inference threads (default 2)")
    p.set_defaults(func=cmd_calibrate, rules=None)


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use: rummiref calibrate PHOTO")
