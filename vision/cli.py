"""``rummiref read``, ``rummiref evaluate`` and ``rummiref train``.

``register`` imports nothing heavy: OpenCV, ONNX Runtime and torch load only when one of
these commands runs, so ``rummiref check`` works on a referee-only install.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .cli_output import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, load_reader, report_error


def _annotate_path(out: str, image: str, several: bool) -> Path:
    p = Path(out)
    if not several:
        return p
    return p.with_name(f"{p.stem}-{Path(image).stem}{p.suffix or '.png'}")


def cmd_read(args: argparse.Namespace) -> int:
    reader = load_reader(args)
    if reader is None:
        return EXIT_BAD_INPUT
    from .calibration import reader_for
    from .imageio import ImageError

    reader = reader_for(reader)  # the player's own tile set, where it was calibrated
    if args.annotate:
        import cv2

        # Said before any photo is read: an --annotate name no image writer takes.
        if not cv2.haveImageWriter(str(_annotate_path(args.annotate, "x", len(args.images) > 1))):
            report_error(f"--annotate {args.annotate}: give a .png or .jpg file name", args)
            return EXIT_BAD_INPUT

    failed = 0
    several = len(args.images) > 1
    for image in args.images:
        try:
            reading = reader.read(image, rack=args.rack)
        except ImageError as exc:
            failed += 1
            if args.json:
                print(json.dumps({"image": image, "tiles": [], "melds": [], "uncertain": [],
                                  "error": str(exc)}))
            else:
                report_error(str(exc))
            continue
        if args.json:
            print(json.dumps(reading.to_json(), ensure_ascii=False))
        else:
            table = str(reading.table)
            if args.rack:
                from .rack import rows_notation

                rows = rows_notation(reading)
                print(f"{image}: {' / '.join(rows) if rows else '(no tiles)'}")
            else:
                print(f"{image}: {table if table else '(no tiles)'}")
            for u in reading.uncertain:
                print(f"  ? tile {u.index} {reading.tiles[u.index].tile}: {u.reason}")
            for note in reading.notes:
                print(f"  note: {note}")
        if args.annotate:
            import cv2

            from .annotate import annotate
            from .imageio import load_image

            out = _annotate_path(args.annotate, image, several)
            drawn = annotate(load_image(image), reading, args.rules, rack=args.rack)
            try:
                out.parent.mkdir(parents=True, exist_ok=True)
                written = cv2.imwrite(str(out), drawn)
            except (OSError, cv2.error):
                written = False
            if not written:
                report_error(f"cannot write {out} (use a .png or .jpg name in a writable folder)")
                failed += 1
            elif not args.json:
                print(f"  annotated: {out}")
    return EXIT_FAILED if failed else EXIT_OK


def cmd_evaluate(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    if not folder.is_dir():
        report_error(f"{folder}: no such folder", args)
        return EXIT_BAD_INPUT
    reader = load_reader(args)
    if reader is None:
        return EXIT_BAD_INPUT
    from .evaluate import evaluate, format_result

    png = Path(args.confusion) if args.confusion else Path(f"confusion-{folder.resolve().name}.png")
    # Checked before the folder is read (minutes on a large one), not when the picture is due.
    import cv2

    try:
        png.parent.mkdir(parents=True, exist_ok=True)
        problem = None if cv2.haveImageWriter(str(png)) else "give a .png or .jpg file name"
    except OSError as exc:
        problem = f"cannot make its folder ({exc.strerror or exc})"
    if problem:
        report_error(f"--confusion {png}: {problem}", args)
        return EXIT_BAD_INPUT
    try:
        result = evaluate(folder, reader, confusion_png=png, melds_dir=args.melds,
                          any_order=args.any_order, progress=not args.json)
    except (FileNotFoundError, ValueError) as exc:  # a missing folder, a broken melds file
        report_error(str(exc), args)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps({k: v for k, v in result.items() if k != "per_image" or args.per_image}))
    else:
        print(format_result(result))
        if args.per_image:
            for p in result["per_image"]:
                print(f"  {'ok ' if p['exact'] else 'BAD'} {p['image']}: {p['right']}/{p['tiles']} "
                      f"right, {p['read']} read: {p['table']}")
                for miss in p["meld_misses"]:
                    print(f"      meld missed: {miss}")
    return EXIT_OK


def cmd_train(args: argparse.Namespace) -> int:
    from .train import command as train

    args.command_line = "rummiref train " + " ".join(sys.argv[2:])
    return train.train(args)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--models", default=None, metavar="DIR",
                   help="folder with tile-finder.onnx and tile-reader.onnx (default: the "
                        "installed models, or $RUMMIREF_MODELS)")
    p.add_argument("--rules", default=None, metavar="PRESET",
                   help="rule preset for the sanity checks (default: the referee's)")
    p.add_argument("--threads", type=int, default=2, help="inference threads (default 2)")


def register(subparsers) -> None:
    p = subparsers.add_parser("read", help="read the tiles and melds in photos",
                              description="Read each photo: every tile, the melds as laid, "
                                          "and the tiles the reader is unsure of.")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per image and line: image, tiles, melds, uncertain")
    p.add_argument("--annotate", metavar="OUT.png",
                   help="draw the reading (several images: OUT-<image>.png)")
    p.add_argument("--rack", action="store_true",
                   help="the photos show a player's rack: tiles in rows (back row first, "
                        "left to right, rows separated by /; in --json, the melds), with "
                        "the rack's checks (a third copy of a tile is listed to check)")
    _common(p)
    p.set_defaults(func=cmd_read)

    p = subparsers.add_parser("evaluate", help="measure the reader on a labelled folder",
                              description="Tile precision, recall and F1, whole-image exact "
                                          "rate, meld grouping and the confusions that matter "
                                          "for a folder labelled in the shared format "
                                          "(images/, labels/, optional melds/).")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--confusion", metavar="OUT.png",
                   help="confusion matrix image (default ./confusion-<DIR name>.png)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--per-image", action="store_true",
                   help="also list every image and its melds grouped wrong")
    p.add_argument("--melds", default=None, metavar="MELDS_DIR",
                   help="folder of true melds (<image stem>.txt: label line numbers in laid "
                        "order, one meld a line; default DIR/melds, else derived from the "
                        "outlines)")
    p.add_argument("--any-order", action="store_true",
                   help="a meld read in the exact reverse of its laid order counts as right")
    _common(p)
    p.set_defaults(func=cmd_evaluate)

    p = subparsers.add_parser("train", help="train the tile reader's models from scratch",
                              description="Train the tile finder and the tile reader from "
                                          "../shared/data/photos/train plus synthetic photos "
                                          "and export them to ONNX (needs the train extra).")
    from .train.args import add_arguments

    add_arguments(p)
    p.set_defaults(func=cmd_train)

    from .calibration_cli import register as register_calibrate

    register_calibrate(subparsers)
