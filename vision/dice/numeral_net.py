"""The d10 numeral network's layers and its training, with PyTorch (the ``train`` extra: only
:mod:`vision.dice.train_numerals` imports this module; the reader runs the ONNX file it writes through ``cv2.dnn``).

Three 3 × 3 convolutions (16, 32, 64 channels), each followed by ReLU and a 2 × 2 max-pool, over the crop's two views
(:func:`vision.dice.numerals.features`, 2 × 32 × 32), then a hidden layer of ``hidden`` and the classes. Fitted by
AdamW with a one-cycle learning rate on mini-batches of 128, each shifted by up to a pixel either way (the reader's
crops are centred on the outline's axis, which is off by as much); dropout before the last layer.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn

from vision.dice.numerals import CLASSES, SIDE_PX, VIEWS
from vision.dice.onnx_writer import Layers

WIDTHS = (16, 32, 64)
BATCH = 128
SHIFT_PX = 1
PEAK_RATE = 3e-3
DECAY = 1e-4
DROPOUT = 0.3


class NumeralNet(nn.Module):
    """The layers above, as PyTorch fits them (:func:`fit`) and the ONNX file takes them (``layers``)."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        channels = VIEWS
        for width in WIDTHS:
            layers += [nn.Conv2d(channels, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
            channels = width
        self.features = nn.Sequential(*layers)
        side = SIDE_PX // 2 ** len(WIDTHS)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(channels * side * side, hidden), nn.ReLU(),
                                  nn.Dropout(DROPOUT), nn.Linear(hidden, CLASSES))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.head(self.features(x))
        return out

    def layers(self) -> tuple[Layers, Layers]:
        """The convolutions' weights and biases, and the dense layers' (W: inputs × outputs), for
        :func:`vision.dice.onnx_writer.cnn_onnx`."""
        convs = [(_array(m.weight), _array(m.bias)) for m in self.features if isinstance(m, nn.Conv2d)]
        dense = [(_array(m.weight).T.copy(), _array(m.bias)) for m in self.head if isinstance(m, nn.Linear)]
        return convs, dense


def _array(t: torch.Tensor | None) -> NDArray[np.float32]:
    assert t is not None  # every layer here has its bias
    return np.asarray(t.detach().numpy(), np.float32)


def fit(x: NDArray[np.float32], y: NDArray[np.int64], hidden: int = 128, epochs: int = 10, seed: int = 0
        ) -> NumeralNet:
    """The network fitted on crops ``x`` (crops × views × 32 × 32, 0–1) labelled ``y``, on one CPU thread."""
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = NumeralNet(hidden)
    optimiser = torch.optim.AdamW(net.parameters(), lr=PEAK_RATE, weight_decay=DECAY)
    n = len(y)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=PEAK_RATE,
                                                   total_steps=epochs * math.ceil(n / BATCH))
    labels = torch.from_numpy(y)
    loss_of = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        net.train()
        start, total = time.monotonic(), 0.0
        order = rng.permutation(n)
        for first in range(0, n, BATCH):
            idx = order[first:first + BATCH]
            batch = torch.from_numpy(np.ascontiguousarray(x[idx], np.float32))
            if SHIFT_PX:
                dx, dy = (int(v) for v in rng.integers(-SHIFT_PX, SHIFT_PX + 1, 2))
                batch = torch.roll(batch, (dy, dx), (2, 3))
            loss = loss_of(net(batch), labels[idx])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(idx)
        print(f"  epoch {epoch + 1}/{epochs}: loss {total / n:.4f} in {time.monotonic() - start:.0f} s",
              file=sys.stderr, flush=True)
    net.eval()
    return net


def probabilities(net: NumeralNet, x: NDArray[np.float32]) -> NDArray[np.float64]:
    """The class probabilities torch gives (to check the ONNX file against)."""
    with torch.no_grad():
        return np.asarray(torch.softmax(net(torch.from_numpy(np.ascontiguousarray(x, np.float32))), 1).numpy(),
                          np.float64)
