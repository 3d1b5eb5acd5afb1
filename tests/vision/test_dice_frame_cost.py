"""The cheaper forms of a frame's per-pixel steps give exactly what the plain forms give."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from vision.dice.channels import byte_channel_sum
from vision.dice.face_square import SHADOW_DEPTH, SHADOW_TINT, shadow_mask
from vision.dice.paper import BROAD_MM, PaperReference, _broad, _off_at, grid_pixels, off_reference
from vision.dice.paper_memory import PaperMemory
from vision.dice.parts import parts
from vision.dice.segment import COLOUR_STEP, _not_a_mix, component_boxes
from vision.dice.top_face import _pips_filled, swept_away


def test_byte_channel_sum_is_opencvs_transform_saturated() -> None:
    rng = np.random.default_rng(3)
    for shape in ((40, 60, 3), (500, 1, 3), (1, 1, 3)):
        image = rng.integers(0, 256, shape, np.uint8)
        image.reshape(-1, 3)[:5] = 255  # sums far beyond a byte
        plain = cv2.transform(image, np.ones((1, 3), np.float32))
        assert np.array_equal(byte_channel_sum(image).reshape(shape[:-1]), plain.reshape(shape[:-1]))


def _spots(rng: np.random.Generator, size: tuple[int, int], count: tuple[int, int], radius: tuple[int, int]
           ) -> np.ndarray:
    """A mask of a random size (rows and columns in ``size``) holding a random count of round spots (255)."""
    rows, cols = (int(v) for v in rng.integers(size[0], size[1], 2))
    mask = np.zeros((rows, cols), np.uint8)
    for _spot in range(int(rng.integers(count[0], count[1]))):
        centre = (int(rng.integers(0, cols)), int(rng.integers(0, rows)))
        cv2.circle(mask, centre, int(rng.integers(radius[0], radius[1])), 255, -1)
    return mask


def test_paper_off_colour_kept_broad_in_its_box_as_over_the_whole_tray() -> None:
    rng = np.random.default_rng(6)
    for _ in range(300):
        off = _spots(rng, (3, 100), (0, 4), (1, 10))
        rows, cols = off.shape
        off[rng.random((rows, cols)) < 0.03] = 255  # specks, which the opening takes away
        broad = int(rng.choice([3, 5, 7]))
        kept = cv2.morphologyEx(off, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (broad, broad)))
        whole = cv2.bitwise_and(off, cv2.dilate(kept, np.ones((3, 3), np.uint8)))
        assert np.array_equal(_broad(off, broad), whole)


def test_paper_off_colour_tested_on_a_grid_first_as_on_every_pixel() -> None:
    """Off the paper's colour: every third row and column first, the rest only near what they find, gives what
    testing every pixel gives (pale tops, thin rims, specks, at the edges, in odd-sized trays)."""
    rng = np.random.default_rng(11)
    patches = 0
    for _ in range(200):
        rows, cols = (int(v) for v in rng.integers(8, 120, 2))
        colour = np.clip(rng.normal(210.0, 8.0, (rows, cols, 3)), 0, 255).astype(np.uint8)
        smooth = np.clip(colour.astype(int) + rng.integers(-3, 4, (rows, cols, 3)), 0, 255).astype(np.uint8)
        for _top in range(int(rng.integers(0, 4))):  # pale tops, rims, lines a pixel or two wide, some at the edges
            x, y = int(rng.integers(-4, cols)), int(rng.integers(-4, rows))
            w, h = (int(v) for v in rng.integers(1, 14, 2))
            smooth[max(0, y):y + h, max(0, x):x + w] = rng.integers(150, 256, 3)
        smooth[rng.random((rows, cols)) < 0.02] = 120  # specks
        paper = rng.random((rows, cols)) < 0.9 if rng.random() < 0.3 else np.ones((rows, cols), bool)
        known = np.zeros((rows, cols), bool)
        known[int(rng.integers(0, rows)):, int(rng.integers(0, cols)):] = rng.random() < 0.5
        reference = PaperReference(colour, np.zeros((1, 1, 3), np.float32), np.zeros((1, 1), bool),
                                   float(rng.uniform(4.0, 12.0)), float(rng.uniform(6.0, 18.0)))
        for px_per_mm in (2.0, 3.0):  # discs of 5 and 9 pixels
            broad = round(BROAD_MM * px_per_mm) | 1
            every = np.zeros((rows, cols), np.uint8)
            at = np.flatnonzero(paper & ~known)
            every.reshape(-1)[at[_off_at(smooth, at, reference)]] = 255
            plain = _broad(every, broad)
            patches += bool(plain.any())
            assert np.array_equal(off_reference(smooth, paper, known, px_per_mm, reference), plain)
            on_grid = grid_pixels(paper)  # as the mat's masks keep it for the pose
            assert np.array_equal(off_reference(smooth, paper, known, px_per_mm, reference, on_grid), plain)
    assert patches > 50  # the test holds pale tops kept, not only nothing


def _swept_padded_all_round(mask: np.ndarray, away: tuple[float, float], length_px: float,
                            open_sides: tuple[bool, bool, bool, bool]) -> np.ndarray:
    """The sides' sweep taken away as a plain erosion: the box padded by the kernel's reach all round."""
    ux, uy = away
    reach = math.ceil(length_px)
    kernel = np.zeros((2 * reach + 1, 2 * reach + 1), np.uint8)
    cv2.line(kernel, (reach, reach), (round(reach - ux * length_px), round(reach - uy * length_px)), 1, 1)
    padded = cv2.copyMakeBorder(mask, reach, reach, reach, reach, cv2.BORDER_CONSTANT, value=0)
    left, top, right, bottom = open_sides
    if left:
        padded[:, :reach] = 255
    if top:
        padded[:reach, :] = 255
    if right:
        padded[:, -reach:] = 255
    if bottom:
        padded[-reach:, :] = 255
    return np.asarray(cv2.erode(padded, kernel, anchor=(reach, reach))[reach:-reach, reach:-reach], np.uint8)


def test_sides_swept_away_in_a_box_padded_where_the_sweep_reaches_as_padded_all_round() -> None:
    rng = np.random.default_rng(8)
    for _ in range(400):
        mask = _spots(rng, (1, 70), (1, 4), (2, 30))
        angle = rng.uniform(0.0, 2.0 * math.pi)
        away = (math.cos(angle), math.sin(angle))
        length_px = float(rng.uniform(1.0, 40.0))
        sides = tuple(bool(v) for v in rng.random(4) < 0.3)
        open_sides = (sides[0], sides[1], sides[2], sides[3])
        assert np.array_equal(swept_away(mask, away, length_px, open_sides),
                              _swept_padded_all_round(mask, away, length_px, open_sides))


def test_no_side_of_a_parts_smallest_rectangle_is_longer_than_its_boxs_diagonal() -> None:
    """What lets a top face's part go unfitted (``vision.dice.top_face._lit_tops``)."""
    rng = np.random.default_rng(9)
    for _ in range(500):
        part = np.zeros((60, 60), np.uint8)
        centre = (float(rng.uniform(15, 45)), float(rng.uniform(15, 45)))
        sides = (float(rng.uniform(2, 40)), float(rng.uniform(2, 40)))
        corners = cv2.boxPoints((centre, sides, float(rng.uniform(0, 90))))
        cv2.fillConvexPoly(part, np.round(corners).astype(np.int32), 255)
        _x, _y, w, h = cv2.boundingRect(part)
        contours, _h = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        (_cx, _cy), (rw, rh), _a = cv2.minAreaRect(contours[0])
        assert max(rw, rh) <= math.hypot(w - 1, h - 1) + 1e-3


def test_parts_boxes_from_their_borders_are_the_labellings_stats() -> None:
    """Parts with holes, parts in another's hole, parts touching at a corner, specks, parts at the edges."""
    rng = np.random.default_rng(12)
    for _ in range(300):
        mask = _spots(rng, (1, 90), (0, 6), (1, 20))
        rows, cols = mask.shape
        for _hole in range(int(rng.integers(0, 4))):  # rings, and spots inside them
            centre = (int(rng.integers(0, cols)), int(rng.integers(0, rows)))
            radius = int(rng.integers(1, 15))
            cv2.circle(mask, centre, radius, 0, -1)
            cv2.circle(mask, centre, max(0, radius - 4), 255, -1)
        mask[rng.random((rows, cols)) < 0.05] = 255
        count, labels, stats, _c = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
        boxes = component_boxes(mask, np.asarray(labels, np.int32))
        assert [label for label, _box in boxes] == list(range(1, count))
        assert all(box == tuple(int(v) for v in stats[label, :4]) for label, box in boxes)


def _random_masks(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """Speckle of every density, spots and holes, spots with speckle: parts touching at corners, parts in holes."""
    masks = []
    for i in range(count):
        rows, cols = (int(v) for v in rng.integers(1, 90, 2))
        if i % 3 == 0:
            masks.append((rng.random((rows, cols)) < rng.uniform(0.05, 0.95)).astype(np.uint8) * 255)
            continue
        mask = np.zeros((rows, cols), np.uint8)
        for _spot in range(int(rng.integers(1, 8))):
            centre = (int(rng.integers(-5, cols + 5)), int(rng.integers(-5, rows + 5)))
            cv2.circle(mask, centre, int(rng.integers(1, 40)), int(rng.choice([0, 255])), -1)
        if i % 3 == 2:
            mask[rng.random((rows, cols)) < 0.05] ^= 255
        masks.append(mask)
    return masks


def test_parts_are_opencvs_default_labelling() -> None:
    for mask in _random_masks(np.random.default_rng(13), 3000):
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask)
        found = parts(mask)
        assert found[0] == count and np.array_equal(found[1], labels) and np.array_equal(found[2], stats)
        assert np.array_equal(found[3], centroids, equal_nan=True)  # NaN: the background of a mask all set


def test_pip_holes_filled_as_by_the_holes_stats() -> None:
    for mask in _random_masks(np.random.default_rng(14), 2000):
        most_px = 30.0
        framed = cv2.copyMakeBorder(cv2.bitwise_not(mask), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=255)
        cv2.floodFill(framed, None, (0, 0), 0, flags=4)
        _count, labels, stats, _c = cv2.connectedComponentsWithStats(framed[1:-1, 1:-1].copy(), connectivity=4)
        filled = stats[:, cv2.CC_STAT_AREA] <= most_px
        filled[0] = False
        plain = mask.copy()
        plain[filled[labels]] = 255
        assert np.array_equal(_pips_filled(mask, most_px), plain)


def test_the_kept_paper_colour_is_cut_to_the_search_box_once_while_kept() -> None:
    rng = np.random.default_rng(15)
    colour = rng.integers(0, 256, (40, 60, 3), np.uint8)
    reference = PaperReference(colour, np.zeros((1, 1, 3), np.float32), np.zeros((1, 1), bool), 5.0, 7.0)
    memory = PaperMemory()
    box = (6, 30, 12, 55)
    cut = memory.cut(reference, box)
    assert cut is not None and cut.colour.flags.c_contiguous
    assert np.array_equal(cut.colour, colour[6:30, 12:55]) and cut.grey_step == 5.0 and cut.tint_step == 7.0
    assert memory.cut(reference, box) is cut  # kept: not laid out again
    measured_again = replace(reference, colour=colour[::-1].copy())
    again = memory.cut(measured_again, box)
    assert again is not None and np.array_equal(again.colour, colour[::-1][6:30, 12:55])
    moved = memory.cut(measured_again, (0, 12, 0, 18))
    assert moved is not None and np.array_equal(moved.colour, colour[::-1][:12, :18])
    assert memory.cut(None, box) is None


def test_felt_paper_mix_worked_out_channel_by_channel_as_by_rows() -> None:
    rng = np.random.default_rng(16)
    for _ in range(300):
        smooth = rng.integers(0, 256, (int(rng.integers(1, 40)), int(rng.integers(1, 40)), 3), np.uint8)
        band = np.flatnonzero(rng.random(smooth.shape[:2]) < 0.5)
        felt, paper = (rng.integers(0, 511, 3) / 2.0 for _colour in range(2))  # medians of bytes: halves at the finest
        pixels = smooth.reshape(-1, 3)[band].astype(np.float64)
        span = paper - felt
        t = np.clip(((pixels - felt) @ span) / max(float(span @ span), 1.0), 0.0, 1.0)
        plain = np.abs(pixels - (felt + t[:, None] * span)).sum(axis=1) > COLOUR_STEP * max(float(felt.mean()), 8.0)
        assert np.array_equal(_not_a_mix(smooth, band, felt, paper), plain)


def test_shadow_tint_worked_out_channel_by_channel_as_by_rows() -> None:
    rng = np.random.default_rng(17)
    for _ in range(300):
        image = rng.integers(0, 256, (int(rng.integers(1, 40)), int(rng.integers(1, 40)), 3), np.uint8)
        mat = rng.integers(0, 511, 3) / 2.0
        image.reshape(-1, 3)[::3] = np.clip(mat * rng.uniform(0.5, 1.0), 0, 255).astype(np.uint8)  # the mat shaded
        pixels = image.astype(np.float32)
        brightness = pixels.sum(axis=-1)
        mat_brightness = max(float(mat.sum()), 24.0)
        plain = (brightness < mat_brightness) & (brightness >= SHADOW_DEPTH * mat_brightness)
        tint = pixels / np.maximum(brightness, 1.0)[..., None]
        plain &= np.abs(tint - (mat / mat_brightness).astype(np.float32)).sum(axis=-1) <= SHADOW_TINT
        assert np.array_equal(shadow_mask(image, mat), plain)
