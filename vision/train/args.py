"""Arguments of ``rummiref train`` (kept apart so the CLI can list them without torch)."""

from __future__ import annotations

import argparse
from pathlib import Path

#: The repository's root (this file is ``vision/train/args.py``).
_REPO = Path(__file__).resolve().parents[2]
#: Where the shipped models live (the default ``--out``).
SHIPPED_MODELS = _REPO / "models"
#: The reader's peak learning rate (one cycle) from random weights; a fine-tune
#: (``--init-from``) wants a lower one.
READER_LR = 3e-3


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--photos", default=str(_REPO.parent / "shared" / "data" / "photos"),
                   help="labelled photos (with train/), default ../shared/data/photos")
    p.add_argument("--out", default=str(SHIPPED_MODELS), help="where the ONNX models go")
    p.add_argument("--synthetic", type=int, default=400, help="synthetic photos to render")
    p.add_argument("--pasted-share", type=float, default=0.0,
                   help="share of the synthetic photos drawn as pasted close-ups with big heavy "
                        "numerals (vision.synth.scenes.PASTED_SHARE is the 0.12 tried; the "
                        "shipped reader had none)")
    p.add_argument("--rack-share", type=float, default=0.0,
                   help="a further share of the synthetic photos drawn as rack photos, in the "
                        "places of tables after the pasted ones (the shipped reader had none "
                        "beyond the mix's fifth)")
    p.add_argument("--finder-steps", type=int, default=1200, help="tile finder training steps")
    p.add_argument("--batch", type=int, default=16, help="tile finder batch (crops)")
    p.add_argument("--reader-epochs", type=int, default=18, help="tile reader epochs")
    p.add_argument("--reader-lr", type=float, default=READER_LR,
                   help=f"tile reader's peak learning rate (one cycle; default {READER_LR})")
    p.add_argument("--not-a-tile-weight", type=float, default=1.0,
                   help="weight of the 'not a tile' class in the reader's loss (1: as every "
                        "tile; lower makes the reader slower to call a crop no tile)")
    p.add_argument("--init-from", default=None, metavar="ONNX",
                   help="start the tile reader from this exported reader's weights (to "
                        "fine-tune it, with a lower --reader-lr) instead of random ones")
    p.add_argument("--freeze-batchnorm", action="store_true",
                   help="with --init-from: keep the batch norms' statistics those of the reader "
                        "it starts from (no per-batch normalising, no re-estimating), so only "
                        "the weights the learning rate moves change what it reads")
    p.add_argument("--jitters", type=int, default=4, help="crops per real tile")
    p.add_argument("--max-photos", type=int, default=None,
                   help="use only the first N photos (0: synthetic photos only)")
    p.add_argument("--threads", type=int, default=1,
                   help="torch threads (1 is fastest on a busy 2-core machine)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--skip-finder", action="store_true", help="train only the tile reader")
    p.add_argument("--skip-reader", action="store_true", help="train only the tile finder")
