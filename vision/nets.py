"""The two networks (torch; training only; inference runs their ONNX exports).

``TileFinder``: a small fully convolutional encoder-decoder. For an image scaled so its longer
side is ``DET_SIZE`` it outputs, at 1/4 resolution, 7 maps: a "tile centre" heat map (the
tile's rectangle shrunk to ``KERNEL_SHRINK`` of its size, logits), the offset from each
pixel to the tile's centre (2), the log of the tile's short and long side (2, in output
pixels) and the direction of its long axis as (cos 2a, sin 2a) (2). Trained on crops, run on
whole images.

``TileReader``: a small CNN over a straightened tile crop (``CROP_W`` x ``CROP_H``, long side
vertical) with 107 outputs: 53 tiles upright, the same 53 upside down, and "not a tile".
"""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

from .geometry import CROP_H, CROP_W, N_CLASSES


def _cbr(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TileFinder(nn.Module):
    def __init__(self, width: int = 1):
        super().__init__()
        c = [16 * width, 16 * width, 32 * width, 64 * width]
        self.stem = _cbr(3, c[0], 2)                                   # 1/2
        self.s4 = nn.Sequential(_cbr(c[0], c[1], 2), _cbr(c[1], c[1]))  # 1/4
        self.s8 = nn.Sequential(_cbr(c[1], c[2], 2), _cbr(c[2], c[2]))  # 1/8
        self.s16 = nn.Sequential(_cbr(c[2], c[3], 2), _cbr(c[3], c[3]),
                                 _cbr(c[3], c[3], dilation=2))          # 1/16
        self.up8 = _cbr(c[3] + c[2], c[2])
        self.up4 = _cbr(c[2] + c[1], c[1])
        self.head = nn.Sequential(_cbr(c[1], c[1]), nn.Conv2d(c[1], 7, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a = self.s4(self.stem(x))
        b = self.s8(a)
        d = self.s16(b)
        b = self.up8(torch.cat([F.interpolate(d, size=b.shape[-2:], mode="bilinear",
                                              align_corners=False), b], 1))
        a = self.up4(torch.cat([F.interpolate(b, size=a.shape[-2:], mode="bilinear",
                                              align_corners=False), a], 1))
        return self.head(a)


class TileReader(nn.Module):
    def __init__(self, n_classes: int = N_CLASSES):
        super().__init__()
        self.features = nn.Sequential(
            _cbr(3, 16), nn.MaxPool2d(2),                 # 28x20
            _cbr(16, 32), nn.MaxPool2d(2),                # 14x10
            _cbr(32, 48), _cbr(48, 48), nn.MaxPool2d(2),  # 7x5
            _cbr(48, 96))
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(96 * 2, n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x)
        # Mean and max pooling keep both "how much ink" and "is there a stroke here".
        f = torch.cat([f.mean((2, 3)), f.amax((2, 3))], 1)
        return self.fc(self.drop(f))


def check_shapes() -> None:
    f = TileFinder()
    y = f(torch.zeros(1, 3, 256, 320))
    assert y.shape == (1, 7, 64, 80), y.shape
    r = TileReader()
    assert r(torch.zeros(2, 3, CROP_H, CROP_W)).shape == (2, N_CLASSES)
