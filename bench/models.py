"""What the shipped models are, and what their training runs recorded: the figures of the
model cards' network and training lines.

    .venv/bin/python bench/models.py            # models/ (or --models DIR)

For each ONNX model: its parameters (the elements of its weights), file size, opset, inputs
and outputs, read from the file (needs ``onnx``, in the ``train`` extra). Then what the
training command wrote beside it (``tile-finder.json``, ``tile-reader.json``): steps or
epochs, batch, crops, seconds of training, the held-out accuracy, the command itself.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RECORDED = ("steps", "epochs", "batch", "crop", "crops", "train_seconds",
            "heldout_synthetic_crop_accuracy", "real_photos", "synthetic_photos", "command")


def facts(path: Path) -> dict:
    import numpy as np
    import onnx

    model = onnx.load(str(path))
    params = sum(int(np.prod(t.dims)) for t in model.graph.initializer)

    def shape(v):
        return "x".join(d.dim_param or str(d.dim_value) for d in v.type.tensor_type.shape.dim)

    return {"file": path.name, "parameters": params, "bytes": path.stat().st_size,
            "opset": max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx")),
            "inputs": {v.name: shape(v) for v in model.graph.input},
            "outputs": {v.name: shape(v) for v in model.graph.output}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", type=Path, default=None, help="default: the reader's models/")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from vision.reader import FINDER, READER, models_dir

    folder = models_dir(args.models)
    out = {}
    for name in (FINDER, READER):
        f = facts(folder / name)
        card = folder / name.replace(".onnx", ".json")
        recorded = json.loads(card.read_text()) if card.is_file() else {}
        f["training_recorded"] = {k: recorded[k] for k in RECORDED if k in recorded}
        out[name] = f
    if args.json:
        print(json.dumps(out))
        return 0
    for name, f in out.items():
        print(f"{name}: {f['parameters']:,} parameters, {f['bytes'] / 1e6:.2f} MB, opset "
              f"{f['opset']}; in {f['inputs']}; out {f['outputs']}")
        rec = dict(f["training_recorded"])
        if "train_seconds" in rec:
            rec["train_minutes"] = round(rec["train_seconds"] / 60, 1)
        print("  recorded by its training run: "
              + ", ".join(f"{k} {v}" for k, v in rec.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
