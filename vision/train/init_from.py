"""Starting training from an exported reader (``python -m vision.train --init-from ONNX``):
its weights loaded into a :class:`vision.nets.TileReader`, to fine-tune rather than retrain.

The export folds each batch norm into the convolution before it, so the ONNX file holds one
weight and one bias per convolution and no normalisation statistics. :func:`load_onnx_reader`
puts each convolution's weight back and turns its batch norm into "add the bias": in eval mode
the network then gives the file's outputs. :func:`restate_batchnorm` then gives each batch
norm the statistics of the training crops while keeping that same function, so that in
training mode (which normalises by each batch's own statistics) the network starts about
where the file is instead of far from it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def _conv_pairs(net):
    """Each convolution with the batch norm after it, in the order the network runs them."""
    import torch.nn as nn

    mods = list(net.features.modules())
    pairs = []
    for i, m in enumerate(mods):
        if isinstance(m, nn.Conv2d):
            bn = mods[i + 1] if i + 1 < len(mods) else None
            if not isinstance(bn, nn.BatchNorm2d):
                raise ValueError(f"convolution {len(pairs)} of the network has no batch norm "
                                 f"after it")
            pairs.append((m, bn))
    return pairs


def load_onnx_reader(net, path: str | Path) -> None:
    """Load the weights of the exported reader at ``path`` into ``net`` (a fresh
    :class:`vision.nets.TileReader`): the file's convolutions in graph order onto the net's,
    its last ``Gemm`` onto ``fc``. Every weight of the file must find a place of the same
    shape, and every place a weight: otherwise a :class:`ValueError` says what differs."""
    import onnx
    import torch
    from onnx import numpy_helper

    try:
        model = onnx.load(str(path))
    except OSError:
        raise
    except Exception as e:  # a damaged or foreign file: protobuf's DecodeError and the like
        raise ValueError(f"{path}: not an ONNX model ({type(e).__name__}: {e})") from e
    g = model.graph
    init = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    convs = [n for n in g.node if n.op_type == "Conv"]
    gemms = [n for n in g.node if n.op_type == "Gemm"]
    pairs = _conv_pairs(net)
    if len(convs) != len(pairs) or len(gemms) != 1:
        raise ValueError(f"{path}: {len(convs)} convolutions and {len(gemms)} Gemm layers; "
                         f"the reader network has {len(pairs)} convolutions and one linear layer")
    used = set()
    with torch.no_grad():
        for k, (node, (conv, bn)) in enumerate(zip(convs, pairs)):
            if len(node.input) != 3 or node.input[1] not in init or node.input[2] not in init:
                raise ValueError(f"{path}: convolution {k} ({node.name}) has no weight and "
                                 f"bias of its own (is the batch norm not folded into it?)")
            w, b = init[node.input[1]], init[node.input[2]]
            if tuple(w.shape) != tuple(conv.weight.shape) or tuple(b.shape) != (bn.num_features,):
                raise ValueError(f"{path}: convolution {k} has weight {tuple(w.shape)} and bias "
                                 f"{tuple(b.shape)}; the network's is "
                                 f"{tuple(conv.weight.shape)} with {bn.num_features} channels")
            conv.weight.copy_(torch.from_numpy(w.copy()))
            # batch norm as "add b": (z - 0) / sqrt(1 + eps) * sqrt(1 + eps) + b
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0)
            bn.weight.fill_(float(np.sqrt(1.0 + bn.eps)))
            bn.bias.copy_(torch.from_numpy(b.copy()))
            used.update(node.input[1:3])
        gemm = gemms[0]
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in gemm.attribute}
        if (attrs.get("transB", 0) != 1 or len(gemm.input) != 3
                or gemm.input[1] not in init or gemm.input[2] not in init):
            raise ValueError(f"{path}: the Gemm layer is not a linear layer's export (transB=1 "
                             f"with a weight and bias of its own)")
        w, b = init[gemm.input[1]], init[gemm.input[2]]
        if w.shape != tuple(net.fc.weight.shape) or b.shape != tuple(net.fc.bias.shape):
            raise ValueError(f"{path}: the last layer is {w.shape}; the network's is "
                             f"{tuple(net.fc.weight.shape)}")
        net.fc.weight.copy_(torch.from_numpy(w.copy()))
        net.fc.bias.copy_(torch.from_numpy(b.copy()))
        used.update(gemm.input[1:3])
    left = sorted(set(init) - used)
    if left:
        raise ValueError(f"{path}: weights with no place in the reader network: {left}")


def restate_batchnorm(net, x) -> None:
    """Give each batch norm of ``net`` the mean and variance its input has over ``x`` (a
    batch of normalised crops, N x 3 x H x W), changing its scale and shift so that the
    network in eval mode computes exactly what it did."""
    import torch

    pairs = _conv_pairs(net)
    seen = {}
    hooks = [conv.register_forward_hook(
        lambda m, i, o, k=k: seen.__setitem__(k, (o.mean((0, 2, 3)), o.var((0, 2, 3),
                                                                            unbiased=False))))
        for k, (conv, _) in enumerate(pairs)]
    was_training = net.training
    net.eval()
    try:
        with torch.no_grad():
            net(x)
            for k, (_, bn) in enumerate(pairs):
                m, v = seen[k]
                a = bn.weight / torch.sqrt(bn.running_var + bn.eps)   # y = a z + c
                c = bn.bias - bn.running_mean * a
                bn.running_mean.copy_(m)
                bn.running_var.copy_(v)
                bn.weight.copy_(a * torch.sqrt(v + bn.eps))
                bn.bias.copy_(c + m * a)
    finally:
        for h in hooks:
            h.remove()
        net.train(was_training)
