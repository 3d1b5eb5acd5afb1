"""How the numeral network's answers over several crops of one d10 face become one reading: the outline's few
turns, or the face cut out all round, where a numeral must hold over neighbouring turns to count; and the
network itself, two averaged into one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.dice.numerals import (
    CLASSES,
    NOT_FLAT,
    NOT_UPRIGHT,
    SCAN_TURNS,
    STEADY_TURNS_DEG,
    axes_guess,
    scan_guess,
    steadied,
    steady_mean,
)
from vision.dice.onnx_writer import write_mlp
from vision.dice.train_numerals import Weights, averaged, onnx_model, probabilities


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


def test_the_two_views_networks_fold_into_one_that_cv2_dnn_runs_as_their_average(tmp_path: Path) -> None:
    """The model averages two networks' logits (one per view of the crop): folded into one MLP, it gives the same
    probabilities, through ``cv2.dnn`` as the reader runs it."""
    rng = np.random.default_rng(0)

    def net(inputs: int, hidden: int) -> Weights:
        return [(rng.normal(size=(inputs, hidden)).astype(np.float32), rng.normal(size=hidden).astype(np.float32)),
                (rng.normal(size=(hidden, CLASSES)).astype(np.float32), rng.normal(size=CLASSES).astype(np.float32))]

    nets = [net(5, 4), net(3, 6)]
    x = rng.normal(size=(7, 8)).astype(np.float32)
    logits = (np.log(probabilities(nets[0], x[:, :5])) + np.log(probabilities(nets[1], x[:, 5:]))) / 2.0
    expected = np.exp(logits - logits.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    model = write_mlp(tmp_path / "m.onnx", averaged(nets, [5, 3]))
    assert np.allclose(onnx_model(model)(x), expected, atol=1e-5)


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
