"""Train the d10 numeral classifier on the synthetic table's renders and write it into this package.

    python -m vision.dice.train_numerals [--throws 400] [--seed 1] [--output vision/dice/d10_numerals.onnx]

Renders throws of d10s (and d6s and some cocked dice: the "not a flat d10" class) under random cameras, light and
glare, cuts each settled die's top face out exactly as the reader does, and fits a small perceptron (one
hidden layer, numpy, Adam) on the crops' gradient histograms. The network is saved as ONNX for ``cv2.dnn``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.detection import MarkerDetector
from vision.dice.numerals import CLASSES, NOT_FLAT, NOT_UPRIGHT, TURN_DEG, features, model_path
from vision.dice.onnx_writer import write_mlp
from vision.dice.reader import locate_dice, numeral_patch, visible_felt
from vision.dice.tray_view import Lens, find_tray
from vision.synthetic.dice_scenes import DiceCondition, DiceScene
from vision.synthetic.dice_tray import DieOrder, HardCase
from vision.synthetic.effects import Effects

Samples = tuple[NDArray[np.float32], NDArray[np.int64]]


def _conditions(rng: np.random.Generator, count: int) -> list[DiceCondition]:
    out = []
    for i in range(count):
        effects = Effects(gain=float(rng.uniform(0.35, 1.15)), noise_sigma=float(rng.uniform(1.0, 4.5)),
                          blur_sigma_px=float(rng.uniform(0.5, 1.0)), jpeg_quality=int(rng.integers(70, 95)))
        if i % 3 == 2:
            out.append(DiceCondition(f"t{i}", float(rng.uniform(40.0, 66.0)), float(rng.uniform(380.0, 480.0)),
                                     effects))
        else:
            out.append(DiceCondition(f"t{i}", float(rng.uniform(5.0, 35.0)), None, effects))
    return out


def collect(throws: int, seed: int, scenes: int = 24) -> Samples:
    """Crops of settled dice with their labels (0–9, or NOT_FLAT)."""
    rng = np.random.default_rng(seed)
    detector = MarkerDetector()
    xs: list[NDArray[np.float32]] = []
    ys: list[int] = []
    per_scene = max(1, throws // scenes)
    for condition in _conditions(rng, scenes):
        scene = DiceScene(condition, seed=int(rng.integers(0, 2**31)))
        for k in range(per_scene):
            cocked = rng.random() < 0.25
            orders = [DieOrder("d10", int(rng.integers(0, 10))) for _ in range(3)]
            orders.append(DieOrder("d6", int(rng.integers(1, 7))))  # a d6's face is "not a flat d10" too
            if cocked:
                orders.append(DieOrder(str(rng.choice(["d6", "d10"])), 1))
            hard = HardCase(glare=bool(rng.random() < 0.3), cocked=cocked)
            t0 = k * 5.0
            rest = scene.throw(orders, t0, hard)
            image, truth = scene.frame(rest + 0.3)
            view = find_tray(detector.detect(image), scene.tray.spec, Lens.of(scene.camera, (image.shape[1],
                                                                                             image.shape[0])))
            if view is None:
                continue
            found, _hand = locate_dice(image, view, visible_felt(view))
            for blob, face, count in found:
                if face is None or count > 1 or blob.touches_edge:
                    continue
                near = min(truth, key=lambda d: math.dist((d.x_mm, d.y_mm), face.centre_mm))
                if math.dist((near.x_mm, near.y_mm), face.centre_mm) > 6.0:
                    continue
                label = NOT_FLAT if near.cocked or near.kind != "d10" else near.value
                for copy in range(3):
                    if label == NOT_FLAT:
                        up, cls = float(rng.uniform(0.0, 360.0)), NOT_FLAT
                    elif copy < 2:  # upright within half a turn step, as the reader's turns find it
                        up, cls = near.up_deg + float(rng.uniform(-TURN_DEG / 2, TURN_DEG / 2)), label
                    else:  # turned away: 0 and 8 read the same upside down, so not near half a turn for them
                        away = float(rng.uniform(30.0, 150.0) if label in (0, 8) else rng.uniform(30.0, 330.0))
                        up, cls = near.up_deg + float(rng.choice([-1.0, 1.0])) * away, NOT_UPRIGHT
                    xs.append(features(numeral_patch(view, image, face, up)))
                    ys.append(cls)
        print(f"  {condition.name}: {len(ys)} crops so far", file=sys.stderr, flush=True)
    return np.stack(xs), np.array(ys, np.int64)


def fit(x: NDArray[np.float32], y: NDArray[np.int64], hidden: int = 96, epochs: int = 600, seed: int = 0
        ) -> list[tuple[NDArray[np.float32], NDArray[np.float32]]]:
    """A one-hidden-layer perceptron by full-batch Adam on cross-entropy; inputs standardised inside layer 1."""
    rng = np.random.default_rng(seed)
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-3
    xn = (x - mean) / std
    n, d = xn.shape
    w1 = rng.normal(0, math.sqrt(2.0 / d), (d, hidden))
    b1 = np.zeros(hidden)
    w2 = rng.normal(0, math.sqrt(2.0 / hidden), (hidden, CLASSES))
    b2 = np.zeros(CLASSES)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    onehot = np.eye(CLASSES)[y]
    lr, decay = 3e-3, 1e-4
    for step in range(1, epochs + 1):
        h = np.maximum(xn @ w1 + b1, 0.0)
        logits = h @ w2 + b2
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        g_logits = (p - onehot) / n
        g_w2 = h.T @ g_logits + decay * w2
        g_b2 = g_logits.sum(axis=0)
        g_h = (g_logits @ w2.T) * (h > 0)
        g_w1 = xn.T @ g_h + decay * w1
        g_b1 = g_h.sum(axis=0)
        for i, g in enumerate((g_w1, g_b1, g_w2, g_b2)):
            m[i] = 0.9 * m[i] + 0.1 * g
            v[i] = 0.999 * v[i] + 0.001 * g * g
            params[i] -= lr * (m[i] / (1 - 0.9 ** step)) / (np.sqrt(v[i] / (1 - 0.999 ** step)) + 1e-8)
    # Fold the standardisation into the first layer: (x − mean)/std · W1 + b1 = x · W1' + b1'.
    w1f = w1 / std[:, None]
    b1f = b1 - (mean / std) @ w1
    return [(w1f.astype(np.float32), b1f.astype(np.float32)), (w2.astype(np.float32), b2.astype(np.float32))]


def accuracy(weights: list[tuple[NDArray[np.float32], NDArray[np.float32]]], x: NDArray[np.float32],
             y: NDArray[np.int64]) -> float:
    (w1, b1), (w2, b2) = weights
    scores = np.maximum(x @ w1 + b1, 0.0) @ w2 + b2
    return float((scores.argmax(axis=1) == y).mean())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.dice.train_numerals", description=__doc__.split("\n")[0])
    p.add_argument("--throws", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--output", type=Path, default=model_path())
    args = p.parse_args(argv)
    start = time.monotonic()
    x, y = collect(args.throws, args.seed)
    order = np.random.default_rng(0).permutation(len(y))
    cut = int(len(y) * 0.85)
    train, test = order[:cut], order[cut:]
    weights = fit(x[train], y[train])
    print(f"{len(y)} crops; held-out accuracy {accuracy(weights, x[test], y[test]):.4f}; "
          f"training accuracy {accuracy(weights, x[train], y[train]):.4f}", file=sys.stderr)
    weights = fit(x, y)  # the shipped model learns from every crop
    write_mlp(args.output, weights)
    print(f"wrote {args.output} in {time.monotonic() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
