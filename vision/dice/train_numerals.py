"""Train the d10 numeral classifier on the synthetic table's renders and write it into this package.

    python -m vision.dice.train_numerals [--throws 2880] [--hidden 128] [--epochs 10] [--seed 1] [--steep 16]
        [--output-dir DIR] [--cache FILE] [--evaluate MODEL ...]

Training needs PyTorch (``pip install -e '.[train]'``); ``--evaluate`` and the reader do not.

Renders throws of d10s (and d6s and cocked d10s and d6s: the "not a flat d10" class) under random cameras (the
table camera from above, tray cameras 40–69° from vertical), light (dim to bright, noise, blur, JPEG) and
glare (half the throws), finds each settled die and its outline exactly as the reader does
(:mod:`vision.dice.outline`), and cuts its top face out at the turns the reader would (the outline's axes): a
crop within 25° of upright is labelled with its numeral, one further off "not upright" (a 0 or an 8 upside
down reads the same, and keeps its numeral). More crops are cut at the true turn give or take 20°, a little
off centre and a little larger or smaller, and some are blurred, noised, darkened or given a highlight. Two
small convolutional networks (:mod:`vision.dice.numeral_net`, one CPU thread), each from its own fixed starting
weights and batch order, are fitted on the crops' two views (:func:`vision.dice.numerals.features`) and saved as
ONNX for ``cv2.dnn`` (``MODEL_NAMES``; about 8 minutes each here), which the reader reads together. The throws of
the last scenes are held out: the script reports, per die, from above, from an angle and along steep rays, how
often the reader's reading (both networks' probabilities averaged; the outline's turns, else the face cut out
all round) is right, asked or wrong at each margin, and how often another die passes for a numeral, to set the
reader's thresholds on; besides, ``--steep`` scenes from close, steep tray cameras are held out whole (the held-out
scenes above hold few dice seen along rays steeper than 66°).
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detection import MarkerDetector
from vision.dice.numerals import (
    CLASSES,
    MODEL_NAMES,
    NOT_FLAT,
    NOT_UPRIGHT,
    PATCH_MM,
    SCAN_TURNS,
    SIDE_PX,
    VIEWS,
    NumeralGuess,
    axes_guess,
    features,
    model_paths,
    scan_guess,
    steadied,
    steady_mean,
)
from vision.dice.onnx_writer import cnn_onnx
from vision.dice.outline import numeral_turns
from vision.dice.reader import (
    MIN_D10_FIT,
    STEEP_D10_DEG,
    die_outline,
    locate_dice,
    numeral_patch,
    view_deg,
    visible_felt,
)
from vision.dice.tray_view import Lens, find_tray
from vision.synthetic.dice_scenes import DiceCondition, DiceScene
from vision.synthetic.dice_tray import DieOrder, HardCase
from vision.synthetic.effects import Effects

Image = NDArray[np.uint8]
Model = Callable[[NDArray[np.float32]], NDArray[np.float64]]  # features (crops × views × 32 × 32) → probabilities
UPRIGHT_DEG = 25.0  # a crop this near upright shows its numeral
TURNED_DEG = 30.0  # one this far off is "not upright" (between the two: not used)
SAME_UPSIDE_DOWN = (0, 8)
GLARE_SHARE = 0.5  # of the throws: glare is where numerals are lost most
# Of every six scenes, these are dim: one from above, one at an angle (scenes alternate), a third of them in all.
DIM_SCENES = (2, 3)
COPIES = 4  # crops per flat d10 at its true turn give or take 20°, shifted and scaled a little
TURNED_COPIES = 2  # crops per flat d10 turned away from upright (the scan sees many)
# A throw cocks its last die (vision.synthetic.dice_tray.HardCase). Until 2026-12-07 that was always the throw's d6,
# and the network saw no cocked d10 at all: tray cameras at 45–70° then read 25 of 362 cocked d10s, 11 as another
# face at up to 1.0 (bench/dice_steep.py --cocked, seed 7600), the table camera 19 of 60 (seed 8300).
COCKED_SHARE = 0.4  # of the throws
COCKED_D10_SHARE = 0.75  # of the cocked throws; the rest cock their d6
COCKED_COPIES = 3  # more crops per cocked die, at random turns, shifted and scaled a little
THRESHOLDS = (0.3, 0.5, 0.6, 0.7, 0.8, 0.9)
STEEP_THROWS = 30  # per steep scene held out (``--steep``)


@dataclass
class Die:
    """The reader's crops of one held-out die (grey), how its outline fitted, and what it really is."""

    turns: NDArray[np.uint8]  # at the outline's turns (turns × crop)
    scan: NDArray[np.uint8]  # at every one of SCAN_TURNS
    value: int | None  # None: not a flat d10
    angled: bool  # seen by a tray camera at an angle (the reader's surer threshold)
    d10_fit: float  # how well a d10's outline overlaps its blob
    ray_deg: float = 0.0  # the camera's ray at the die, from vertical (:func:`vision.dice.reader.view_deg`)
    rows: NDArray[np.float32] | None = None  # the features of ``turns`` steadied, and of ``scan`` (:func:`featurize`)
    scan_rows: NDArray[np.float32] | None = None


def _gray(patch: Image) -> Image:
    return np.asarray(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), np.uint8)


def featurize(crops: list[Image], dice: list[Die]) -> NDArray[np.float32]:
    """The training crops' features; the held-out dice's are set on them."""
    for die in dice:
        die.rows = np.stack([features(c) for c in steadied(list(die.turns))])
        die.scan_rows = np.stack([features(c) for c in die.scan])
    return np.stack([features(c) for c in crops]) if crops else np.zeros((0, VIEWS, SIDE_PX, SIDE_PX), np.float32)


def _turn_off(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def label_of(value: int, turn: float, up: float) -> int | None:
    """The class a crop of a flat d10 showing ``value`` (upright at ``up``) cut out at ``turn`` should get."""
    off = _turn_off(turn, up)
    if value in SAME_UPSIDE_DOWN:
        off = min(off, 180.0 - off)
    if off <= UPRIGHT_DEG:
        return value
    return NOT_UPRIGHT if off >= TURNED_DEG else None


def scene_conditions(rng: np.random.Generator, count: int) -> list[DiceCondition]:
    """The scenes the throws are rendered in: from above and at an angle in turn, some dim, each with its own noise,
    blur and JPEG quality."""
    out = []
    for i in range(count):
        dim = i % 6 in DIM_SCENES
        effects = Effects(gain=float(rng.uniform(0.3, 0.5) if dim else rng.uniform(0.5, 1.15)),
                          noise_sigma=float(rng.uniform(2.5, 5.0) if dim else rng.uniform(1.0, 3.5)),
                          blur_sigma_px=float(rng.uniform(0.4, 1.1)), jpeg_quality=int(rng.integers(65, 95)))
        if i % 2 == 1:
            out.append(DiceCondition(f"t{i}", float(rng.uniform(40.0, 69.0)), float(rng.uniform(360.0, 480.0)),
                                     effects))
        else:
            out.append(DiceCondition(f"t{i}", float(rng.uniform(5.0, 35.0)), None, effects))
    return out


def augment(patch: Image, rng: np.random.Generator) -> Image:
    """The crop blurred, noised, darkened or lit, or with a highlight, as webcams and glossy dice make it."""
    out: NDArray[np.float64] = patch.astype(np.float64)
    if rng.random() < 0.35:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.4, 1.3))), np.float64)
    if rng.random() < 0.4:
        out = out * float(rng.uniform(0.3, 1.3)) + float(rng.uniform(-15.0, 15.0))
    if rng.random() < 0.25:
        n = patch.shape[0]
        ys, xs = np.mgrid[0:n, 0:n].astype(np.float64)
        cx, cy = rng.uniform(0.2, 0.8, 2) * n
        sigma = float(rng.uniform(0.08, 0.22)) * n
        glow = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma * sigma)) * float(rng.uniform(50.0, 180.0))
        out = out + glow[:, :, None]
    if rng.random() < 0.4:
        out = out + rng.normal(0.0, float(rng.uniform(1.0, 8.0)), out.shape)
    return np.asarray(np.clip(out + 0.5, 0, 255), np.uint8)


Conditions = Callable[[np.random.Generator, int], list[DiceCondition]]


def training_throw(rng: np.random.Generator) -> tuple[list[DieOrder], HardCase]:
    """One throw: four d10s and a d6 (a d6's face is "not a flat d10" too), glossy in GLARE_SHARE of the throws and
    with a die cocked in COCKED_SHARE of them. The throw cocks its last die: a d10 in COCKED_D10_SHARE of the cocked
    throws, else the d6."""
    orders = [DieOrder("d10", int(rng.integers(0, 10))) for _ in range(4)]
    d6 = DieOrder("d6", int(rng.integers(1, 7)))
    cocked = bool(rng.random() < COCKED_SHARE)
    if cocked and rng.random() < COCKED_D10_SHARE:
        orders.insert(0, d6)
    else:
        orders.append(d6)
    return orders, HardCase(glare=bool(rng.random() < GLARE_SHARE), cocked=cocked)


def steep_conditions(rng: np.random.Generator, count: int) -> list[DiceCondition]:
    """Scenes from close, steep tray cameras alone (60–67° from vertical, 360–450 mm: rays of 59–71°), a third of
    them dim: where the numerals are lost most and misread most surely, held out whole (``--steep``)."""
    out = []
    for i in range(count):
        dim = i % 3 == 2
        effects = Effects(gain=float(rng.uniform(0.3, 0.5) if dim else rng.uniform(0.5, 1.15)),
                          noise_sigma=float(rng.uniform(2.5, 5.0) if dim else rng.uniform(1.0, 3.5)),
                          blur_sigma_px=float(rng.uniform(0.4, 1.1)), jpeg_quality=int(rng.integers(65, 95)))
        out.append(DiceCondition(f"s{i}", float(rng.uniform(60.0, 67.0)), float(rng.uniform(360.0, 450.0)), effects))
    return out


def collect(throws: int, seed: int, scenes: int = 48, held_out: int = 8, conditions: Conditions = scene_conditions
            ) -> tuple[list[Image], NDArray[np.int64], list[Die]]:
    """Training crops (grey, of a few sizes) with their labels, and the held-out dice (the last ``held_out`` scenes)."""
    rng = np.random.default_rng(seed)
    detector = MarkerDetector()
    xs: list[Image] = []
    ys: list[int] = []
    dice: list[Die] = []
    per_scene = max(1, throws // scenes)
    for index, condition in enumerate(conditions(rng, scenes)):
        testing = index >= scenes - held_out
        scene = DiceScene(condition, seed=int(rng.integers(0, 2**31)))
        for k in range(per_scene):
            orders, hard = training_throw(rng)
            rest = scene.throw(orders, k * 5.0, hard)
            image, truth = scene.frame(rest + 0.3)
            view = find_tray(detector.detect(image), scene.tray.spec,
                             Lens.of(scene.camera, (image.shape[1], image.shape[0])))
            if view is None:
                continue
            found, _hand = locate_dice(image, view, visible_felt(view))
            for blob, face, count in found:
                if count > 1 or blob.touches_edge:  # a die whose top face is not found is read on its outline too
                    continue
                others = tuple(f for b, f, _n in found if b is blob and f is not None and f is not face)
                fit = die_outline(view, blob, face, others).d10
                near = min(truth, key=lambda d: math.dist((d.x_mm, d.y_mm), fit.centre_mm))
                if math.dist((near.x_mm, near.y_mm), fit.centre_mm) > 5.0:
                    continue
                flat = near.kind == "d10" and not near.cocked
                turns = numeral_turns(fit)
                if testing:
                    cut = np.stack([_gray(numeral_patch(view, image, fit.centre_mm, t)) for t in turns])
                    scan = np.stack([_gray(numeral_patch(view, image, fit.centre_mm, t)) for t in SCAN_TURNS])
                    dice.append(Die(cut, scan, near.value if flat else None, condition.tray_camera_mm is not None,
                                    fit.overlap, view_deg(view, fit.centre_mm)))
                    continue
                crops: list[tuple[tuple[float, float], float, float, int]] = []  # centre, turn, size, class
                for t in turns:
                    label = label_of(near.value, t, near.up_deg) if flat else NOT_FLAT
                    if label is not None:
                        crops.append((fit.centre_mm, t, PATCH_MM, label))
                if flat:
                    for _copy in range(COPIES):
                        shift = rng.normal(0.0, 0.5, 2)
                        centre = (fit.centre_mm[0] + float(shift[0]), fit.centre_mm[1] + float(shift[1]))
                        size = PATCH_MM * float(rng.uniform(0.9, 1.1))
                        crops.append((centre, near.up_deg + float(rng.uniform(-20.0, 20.0)), size, near.value))
                    for _turned in range(TURNED_COPIES):
                        away = float(rng.uniform(TURNED_DEG + 5.0, 180.0 - TURNED_DEG - 5.0)
                                     if near.value in SAME_UPSIDE_DOWN else rng.uniform(TURNED_DEG + 5.0, 180.0))
                        crops.append((fit.centre_mm, near.up_deg + float(rng.choice([-1.0, 1.0])) * away, PATCH_MM,
                                      NOT_UPRIGHT))
                else:
                    for _copy in range(1 + (COCKED_COPIES if near.cocked else 0)):
                        shift = rng.normal(0.0, 0.5, 2)
                        centre = (fit.centre_mm[0] + float(shift[0]), fit.centre_mm[1] + float(shift[1]))
                        crops.append((centre, float(rng.uniform(0.0, 360.0)), PATCH_MM * float(rng.uniform(0.9, 1.1)),
                                      NOT_FLAT))
                for centre, turn, size, label in crops:
                    patch = numeral_patch(view, image, centre, turn, size)
                    xs.append(_gray(augment(patch, rng) if rng.random() < 0.5 else patch))
                    ys.append(label)
        print(f"  {condition.name}: {len(ys)} crops, {len(dice)} held-out dice", file=sys.stderr, flush=True)
    return xs, np.array(ys, np.int64), dice


def die_guess(die: Die, model: Model, sure: float) -> tuple[NumeralGuess, str]:
    """The reader's reading of one held-out die (:meth:`vision.dice.reader.DiceReader._read_numeral`): the
    outline's turns (:func:`axes_guess`), and when they are not sure at ``sure``, the face all round
    (:func:`scan_guess`) if that is; and which of the two gave it."""
    assert die.rows is not None and die.scan_rows is not None
    guess = axes_guess(steady_mean(model(die.rows), len(die.turns)))
    if guess.confidence < sure:
        scan = scan_guess(model(die.scan_rows))
        if scan.confidence >= sure:
            return scan, "scan"
    return guess, "axes"


def held_out_report(model: Model, dice: list[Die]) -> str:
    """Per held-out die, from above, from an angle and along steep rays (``STEEP_D10_DEG``): read right, read wrong,
    at each margin threshold (flat d10s), and other dice (d6s, cocked d10s) taken for numerals; the surest wrong
    margin of each, and whether the outline's turns or the scan all round gave it."""
    lines = []
    steep = f"along rays steeper than {STEEP_D10_DEG:.0f}°"
    groups = {"from above": [d for d in dice if not d.angled],
              "from an angle": [d for d in dice if d.angled and d.ray_deg <= STEEP_D10_DEG],
              steep: [d for d in dice if d.angled and d.ray_deg > STEEP_D10_DEG]}
    for name, group in groups.items():
        flat = [d for d in group if d.value is not None]
        others = [d for d in group if d.value is None]
        lines.append(f"held out, {name}: {len(flat)} flat d10s, {len(others)} other dice")
        for t in THRESHOLDS:
            guesses = [(die_guess(d, model, t), d.value) for d in flat]
            right = sum(1 for (g, _s), v in guesses if g.value == v and g.confidence >= t)
            scanned = sum(1 for (g, s), v in guesses if g.value == v and g.confidence >= t and s == "scan")
            wrong = [(g.confidence, s) for (g, s), v in guesses if g.value not in (v, None) and g.confidence >= t]
            taken = [(g.confidence, s) for g, s in (die_guess(d, model, t) for d in others)
                     if g.value is not None and g.confidence >= t]
            lines.append(f"  margin >= {t:.1f}: {right / max(len(flat), 1):.4f} read right ({scanned} by the scan), "
                         f"{len(wrong)} wrong (surest {max(wrong, default=(0.0, '-'))}); {len(taken)} other dice "
                         f"read as numerals (surest {max(taken, default=(0.0, '-'))})")
        loose = [d for d in flat if d.d10_fit < MIN_D10_FIT]
        for t in (0.7, 0.8):
            loose_guesses = [(die_guess(d, model, t)[0], d.value) for d in loose]
            lines.append(f"  of which {len(loose)} with a d10 outline fitting < {MIN_D10_FIT}, at {t:.1f}: "
                         f"{sum(1 for g, v in loose_guesses if g.value == v and g.confidence >= t)} right, "
                         f"{sum(1 for g, v in loose_guesses if g.value not in (v, None) and g.confidence >= t)} wrong")
    return "\n".join(lines)


def onnx_model(path: Path) -> Model:
    """A saved model's class probabilities through ``cv2.dnn``, as the reader runs it."""
    net = cv2.dnn.readNetFromONNX(str(path))

    def run(x: NDArray[np.float32]) -> NDArray[np.float64]:
        net.setInput(np.ascontiguousarray(x, np.float32))
        return np.asarray(net.forward(), np.float64)

    return run


def read_together(models: list[Model]) -> Model:
    """Several models' class probabilities averaged, as the reader reads its networks
    (:class:`vision.dice.numerals.NumeralReader`)."""

    def run(x: NDArray[np.float32]) -> NDArray[np.float64]:
        return np.asarray(np.mean([m(x) for m in models], axis=0), np.float64)

    return run


def collected(throws: int, seed: int, steep: int, cache: Path | None
              ) -> tuple[list[Image], NDArray[np.int64], list[Die]]:
    """:func:`collect`, plus ``steep`` scenes of ``STEEP_THROWS`` from steep tray cameras held out whole (seed + 6),
    or what they gave before with the same arguments, kept in ``cache`` (a local file, to try the fit's settings or
    compare models on the same held-out dice without rendering again)."""
    args = (throws, seed, steep)
    if cache is not None and cache.is_file():
        with cache.open("rb") as f:
            kept = pickle.load(f)
        if kept["args"] == args:
            return kept["x"], kept["y"], kept["dice"]
    x, y, dice = collect(throws, seed)
    if steep:
        dice += collect(steep * STEEP_THROWS, seed + 6, steep, steep, steep_conditions)[2]
    if cache is not None:
        with cache.open("wb") as f:
            pickle.dump({"args": args, "x": x, "y": y, "dice": dice}, f)
    return x, y, dice


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.dice.train_numerals", description=__doc__.split("\n")[0])
    p.add_argument("--throws", type=int, default=2880)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--output-dir", type=Path, default=model_paths()[0].parent,
                   help=f"where the networks are written ({', '.join(MODEL_NAMES)})")
    p.add_argument("--steep", type=int, default=16, help="scenes from steep tray cameras held out besides")
    p.add_argument("--cache", type=Path, help="keep the rendered crops here, and reuse them")
    p.add_argument("--evaluate", type=Path, nargs="+",
                   help="report these saved networks, read together, on the held-out dice; train nothing")
    args = p.parse_args(argv)
    start = time.monotonic()
    crops, y, dice = collected(args.throws, args.seed, args.steep, args.cache)
    if args.evaluate is not None:
        featurize([], dice)
        print(held_out_report(read_together([onnx_model(m) for m in args.evaluate]), dice), file=sys.stderr)
        return 0
    x = featurize(crops, dice)
    print(f"{len(y)} crops ({np.bincount(y, minlength=CLASSES).tolist()} per class) in "
          f"{time.monotonic() - start:.0f} s", file=sys.stderr)
    from vision.dice import numeral_net  # PyTorch: for training only

    models = []
    for fit_seed, name in enumerate(MODEL_NAMES):  # each network from its own starting weights and batch order
        net = numeral_net.fit(x, y, args.hidden, args.epochs, fit_seed)
        output = args.output_dir / name
        output.write_bytes(cnn_onnx(*net.layers(), x.shape[1:]))
        model = onnx_model(output)
        probe = x[:: max(1, len(x) // 2000)]
        print(f"{name}: fitted at {time.monotonic() - start:.0f} s, training accuracy "
              f"{float((model(x).argmax(axis=1) == y).mean()):.4f}; cv2.dnn against torch: "
              f"{float(np.abs(model(probe) - numeral_net.probabilities(net, probe)).max()):.1e} at most",
              file=sys.stderr)
        models.append(model)
    print(held_out_report(read_together(models), dice), file=sys.stderr)
    print(f"wrote {len(models)} networks to {args.output_dir} in {time.monotonic() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
