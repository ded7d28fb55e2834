"""The reader's embedding: the second output ``embedding`` of ``tile-reader.onnx``.

Calibration (:mod:`vision.calibration`) refits the reader's last layer, so it needs what
that layer is given: the pooled features (mean and max of the last convolution, 192 values
a crop). :func:`add_embedding_output` adds them to an exported reader as a second output;
the first output ``out`` and every weight stay as they are, so the readings do not change.
``vision.train`` calls it on every reader it exports. Needs the ``onnx`` package (the
``train`` extra); reading the output needs ONNX Runtime only.

    python -m vision.calibration_model models/tile-reader.onnx
"""

from __future__ import annotations

import sys
from pathlib import Path

EMBEDDING = "embedding"


def add_embedding_output(path: str | Path) -> bool:
    """Give the reader at ``path`` the output :data:`EMBEDDING` (the input of its last
    ``Gemm``). Returns False when it already has one; the file is rewritten otherwise."""
    import onnx
    from onnx import TensorProto, helper

    model = onnx.load(str(path))
    graph = model.graph
    if any(o.name == EMBEDDING for o in graph.output):
        return False
    gemm = [n for n in graph.node if n.op_type == "Gemm" and graph.output[0].name in n.output]
    if len(gemm) != 1:
        raise ValueError(f"{path}: the reader's output does not come from one Gemm layer")
    weight = next(i for i in graph.initializer if i.name == gemm[0].input[1])
    width = int(weight.dims[1])  # Gemm weights are (outputs, inputs), transB=1
    graph.node.append(helper.make_node("Identity", [gemm[0].input[0]], [EMBEDDING]))
    graph.output.append(helper.make_tensor_value_info(EMBEDDING, TensorProto.FLOAT,
                                                      ["n", width]))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return True


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    for p in sys.argv[1:]:
        print(p, "embedding added" if add_embedding_output(p) else "already has an embedding")
