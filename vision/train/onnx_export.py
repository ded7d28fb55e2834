"""Exporting a trained network to ONNX, checked, for ONNX Runtime to run without torch."""

from __future__ import annotations

from pathlib import Path


def export_onnx(net, example, out: Path, dynamic: dict, input_name: str = "images") -> None:
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp.onnx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(net, example, str(tmp), input_names=[input_name],
                          output_names=["out"], dynamic_axes=dynamic, opset_version=17,
                          dynamo=False)
    import onnx

    model = onnx.load(str(tmp))
    onnx.save(model, str(out))  # one self-contained file (no external data)
    tmp.unlink()
    for extra in out.parent.glob(out.name + ".data"):
        extra.unlink()
