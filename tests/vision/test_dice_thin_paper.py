"""Paper seen only as a thin strip (a map's edge hides the rest of it, as Lost Worlds' tower does): its colour
cannot be sampled, so it counts as unknown, and the dice on the felt are still found, with no NaN colour anywhere."""

from __future__ import annotations

import warnings

import numpy as np

from vision.dice.segment import FELT, MIN_PAPER_PX, PAPER, SAMPLE_STEP, UNKNOWN, find_blobs, mat_masks

PX_PER_MM = 2.0


def _felt_with_a_die() -> tuple[np.ndarray, np.ndarray]:
    visible = np.full((240, 300), FELT, np.uint8)
    image = np.zeros((240, 300, 3), np.uint8)
    image[:] = (40, 110, 30)  # green felt
    image[100:132, 120:152] = (235, 235, 235)  # a white die's top, 16 mm
    return visible, image


def test_a_paper_strip_off_the_sampling_grid_counts_as_unknown() -> None:
    visible, _image = _felt_with_a_die()
    visible[:, 280:] = UNKNOWN
    visible[:, 277] = PAPER  # a strip one pixel wide, on a column the colour samples skip
    visible[:, 278] = PAPER
    assert 277 % SAMPLE_STEP and 278 % SAMPLE_STEP
    assert np.count_nonzero(visible == PAPER) >= MIN_PAPER_PX  # enough pixels, none of them sampled
    mat = mat_masks(visible)
    assert not mat.paper.any()
    assert not mat.seen[:, 277].any()


def test_dice_on_the_felt_are_found_beside_such_a_strip() -> None:
    visible, image = _felt_with_a_die()
    visible[:, 280:] = UNKNOWN
    visible[:, 277:279] = PAPER
    image[:, 277:279] = (250, 250, 250)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a NaN colour warns (mean of nothing) before it spoils the masks
        blobs = find_blobs(image, mat_masks(visible), PX_PER_MM)
    assert len(blobs) == 1
    assert 16 * 16 <= blobs[0].area_mm2 <= 18 * 18  # its top, a pixel wider all round for the blur
    assert blobs[0].centroid_mm == (68.0, 58.0)


def test_a_sampled_paper_strip_is_kept() -> None:
    visible, _image = _felt_with_a_die()
    visible[:, 270:] = PAPER
    assert mat_masks(visible).paper[:, 270:].all()


def test_a_felt_too_thin_to_sample_finds_nothing() -> None:
    visible = np.full((60, 60), UNKNOWN, np.uint8)
    visible[:, 31] = FELT  # on no sampled column
    image = np.full((60, 60, 3), 200, np.uint8)
    assert find_blobs(image, mat_masks(visible), PX_PER_MM) == []
