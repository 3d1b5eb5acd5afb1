"""How the numeral network's answers over several crops of one d10 face become one reading: the outline's few
turns, or the face cut out all round, where a numeral must hold over neighbouring turns to count; and the
network itself, written as ONNX and run by ``cv2.dnn``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from vision.dice.numerals import (
    CLASSES,
    MODEL_NAMES,
    NOT_FLAT,
    NOT_UPRIGHT,
    SCAN_TURNS,
    SIDE_PX,
    STEADY_TURNS_DEG,
    VIEWS,
    NumeralReader,
    axes_guess,
    features,
    load_numerals,
    scan_guess,
    steadied,
    steady_mean,
)
from vision.dice.onnx_writer import Layers, cnn_onnx
from vision.dice.train_numerals import onnx_model, read_together


def _turned_away(n: int) -> NDArray[np.float64]:
    """``n`` crops the network calls "not upright"."""
    table = np.full((n, CLASSES), 0.01)
    table[:, NOT_UPRIGHT] = 1.0 - 0.01 * (CLASSES - 1)
    return table


def _says(table: NDArray[np.float64], row: int, value: int, p: float) -> None:
    table[row] = (1.0 - p) / (CLASSES - 1)
    table[row, value] = p


def test_a_numeral_upright_over_neighbouring_turns_is_read_surely() -> None:
    table = _turned_away(len(SCAN_TURNS))
    for row in (len(SCAN_TURNS) - 1, 0, 1, 2):  # upright across 0°, as a numeral is within 25° of it
        _says(table, row, 7, 0.97)
    guess = scan_guess(table)
    assert guess.value == 7 and guess.confidence > 0.9


def test_a_numeral_seen_in_one_turn_alone_does_not_outweigh_the_upright_one() -> None:
    """A 5 upside down once taken for a 0: the outline's turns lose the margin to it, the scan does not."""
    scan = _turned_away(len(SCAN_TURNS))
    for row in (3, 4, 5):
        _says(scan, row, 5, 0.98)
    _says(scan, 18, 0, 0.6)
    assert scan_guess(scan).value == 5 and scan_guess(scan).confidence > 0.7
    axes = _turned_away(2)
    _says(axes, 0, 5, 0.98)
    _says(axes, 1, 0, 0.6)
    assert axes_guess(axes).value == 5 and axes_guess(axes).confidence < 0.5


def test_a_face_that_is_no_flat_d10_whichever_way_it_is_turned_is_no_numeral() -> None:
    table = np.full((len(SCAN_TURNS), CLASSES), 0.01)
    table[:, NOT_FLAT] = 1.0 - 0.01 * (CLASSES - 1)
    _says(table, 4, 3, 0.7)  # one turn looks like a 3
    guess = scan_guess(table)
    assert guess.value is None and guess.confidence > 0.5


def _reference(convs: Layers, dense: Layers, x: NDArray[np.float32]) -> NDArray[np.float64]:
    """What :func:`cnn_onnx`'s network computes, written out in numpy: each convolution (padded to keep the size),
    ReLU and a 2 × 2 max-pool; flattened by channel, row, column; dense layers, ReLU between; softmax."""
    out = x.astype(np.float64)
    for w, b in convs:
        k = w.shape[2]
        padded = np.pad(out, ((0, 0), (0, 0), (k // 2, k // 2), (k // 2, k // 2)))
        n, _c, rows, cols = out.shape
        conv = np.zeros((n, w.shape[0], rows, cols))
        for i in range(k):
            for j in range(k):
                conv += np.einsum("ncxy,oc->noxy", padded[:, :, i:i + rows, j:j + cols], w[:, :, i, j])
        conv = np.maximum(conv + b[None, :, None, None], 0.0)
        conv = conv[:, :, : rows // 2 * 2, : cols // 2 * 2]  # an odd last row or column is left out
        out = conv.reshape(n, w.shape[0], rows // 2, 2, cols // 2, 2).max(axis=(3, 5))
    flat = out.reshape(len(out), -1)
    for i, (w, b) in enumerate(dense):
        flat = flat @ w + b
        if i < len(dense) - 1:
            flat = np.maximum(flat, 0.0)
    p = np.exp(flat - flat.max(axis=1, keepdims=True))
    return np.asarray(p / p.sum(axis=1, keepdims=True), np.float64)


def test_a_convolutional_network_written_as_onnx_runs_in_cv2_dnn_as_its_layers_say(tmp_path: Path) -> None:
    """The ONNX file is written field by field (no ONNX package): ``cv2.dnn`` must read it and give the probabilities
    its layers give, channels, rows and columns each in their place (an 8 × 6 input: rows and columns apart, and an odd
    width pooled, as the reader's network never is, to pin the layout down)."""
    rng = np.random.default_rng(0)

    def layer(*shape: int) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        outputs = shape[0] if len(shape) == 4 else shape[1]
        return rng.normal(size=shape).astype(np.float32), rng.normal(size=outputs).astype(np.float32)

    convs = [layer(4, 2, 3, 3), layer(3, 4, 3, 3)]
    dense = [layer(3 * 2 * 1, 5), layer(5, CLASSES)]
    x = rng.random((7, 2, 8, 6)).astype(np.float32)
    model = tmp_path / "m.onnx"
    model.write_bytes(cnn_onnx(convs, dense, (2, 8, 6)))
    assert np.allclose(onnx_model(model)(x), _reference(convs, dense, x), atol=1e-5)


@pytest.mark.train
def test_the_trained_network_and_its_onnx_file_agree(tmp_path: Path) -> None:
    """The network torch fits gives, written out and run by ``cv2.dnn`` as the reader runs it, the same probabilities
    (its layers taken in the order and layout the ONNX file expects). Only where the numerals are trained:
    ``pytest -m train`` with the training extra installed."""
    from vision.dice.numeral_net import fit, probabilities

    rng = np.random.default_rng(1)
    x = rng.random((64, VIEWS, SIDE_PX, SIDE_PX)).astype(np.float32)
    y = rng.integers(0, CLASSES, 64).astype(np.int64)
    net = fit(x, y, hidden=16, epochs=1)
    model = tmp_path / "m.onnx"
    model.write_bytes(cnn_onnx(*net.layers(), (VIEWS, SIDE_PX, SIDE_PX)))
    assert np.allclose(onnx_model(model)(x), probabilities(net, x), atol=1e-5)


def test_a_numeral_that_holds_only_in_the_crop_as_cut_loses_its_margin_once_steadied() -> None:
    """Each crop along the outline's axes is read as cut and turned a little either way: a wrong numeral that the
    network sees in the crop as cut alone weighs a third, a right one upright in all three keeps its margin."""
    crops = 2  # the axis both ways up
    table = _turned_away(len(STEADY_TURNS_DEG) * crops)
    _says(table, 0, 4, 0.95)  # crop 0 as cut: a 4
    for block in range(len(STEADY_TURNS_DEG)):  # crop 1, as cut and turned: a 1
        _says(table, block * crops + 1, 1, 0.9)
    guess = axes_guess(steady_mean(table, crops))
    assert guess.value == 1 and guess.confidence > 0.5
    assert axes_guess(table[:crops]).value == 4  # the crops as cut alone would have read the 4


def test_the_steadied_crops_are_the_crops_as_cut_then_each_turned_about_its_centre() -> None:
    bar = np.zeros((35, 35, 3), np.uint8)
    bar[5:30, 16:19] = 255  # an upright stroke through the centre
    out = steadied([bar, 255 - bar])
    assert len(out) == 2 * len(STEADY_TURNS_DEG)
    assert out[0] is bar and np.array_equal(out[1], 255 - bar)
    for turned in out[2::2]:
        assert turned.shape == bar.shape and turned[17, 17, 0] == 255  # the centre stays put
        assert not np.array_equal(turned, bar)  # the stroke's ends have moved
        assert turned[5, 17, 0] < 255 or turned[29, 17, 0] < 255


def _random_network(seed: int) -> tuple[Layers, Layers]:
    rng = np.random.default_rng(seed)

    def layer(*shape: int) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        outputs = shape[0] if len(shape) == 4 else shape[1]
        return rng.normal(0.0, 0.3, size=shape).astype(np.float32), rng.normal(size=outputs).astype(np.float32)

    return [layer(4, VIEWS, 3, 3)], [layer(4 * (SIDE_PX // 2) ** 2, CLASSES)]


def test_the_reader_reads_its_networks_together_their_probabilities_averaged(tmp_path: Path) -> None:
    """Two networks from different starting weights are each sure of some crops they should not be; the reader takes
    their mean, as the training's held-out report does, so one network's sure misread is halved where the other
    disagrees."""
    paths = []
    for seed in (1, 2):
        paths.append(tmp_path / f"n{seed}.onnx")
        paths[-1].write_bytes(cnn_onnx(*_random_network(seed), (VIEWS, SIDE_PX, SIDE_PX)))
    rng = np.random.default_rng(3)
    crops = [rng.integers(0, 256, (35, 35, 3), dtype=np.uint8) for _ in range(4)]
    both = load_numerals(paths)
    assert both is not None and len(both.nets) == 2
    alone = [load_numerals([p]) for p in paths]
    tables = [r.table(crops) for r in alone if r is not None]
    assert not np.allclose(tables[0], tables[1])  # the two really differ
    assert np.allclose(both.table(crops), (tables[0] + tables[1]) / 2.0, atol=1e-6)
    x = np.stack([features(c) for c in crops])
    assert np.allclose(read_together([onnx_model(p) for p in paths])(x), both.table(crops), atol=1e-6)


def test_the_package_ships_every_network_the_reader_reads() -> None:
    shipped = load_numerals()
    assert isinstance(shipped, NumeralReader) and len(shipped.nets) == len(MODEL_NAMES) >= 2


def test_a_missing_network_leaves_d10s_asked_not_read_by_the_rest(tmp_path: Path) -> None:
    present = tmp_path / "a.onnx"
    present.write_bytes(cnn_onnx(*_random_network(1), (VIEWS, SIDE_PX, SIDE_PX)))
    assert load_numerals([present, tmp_path / "gone.onnx"]) is None
