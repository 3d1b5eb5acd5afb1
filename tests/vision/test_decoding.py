"""Reading bits from quads: exact reads, blurred tags read against blurred codes, nothing read from non-tags."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.decoding import CodeBook, blur_cells, decode_quads
from vision.detection import dictionary_by_name

CELL_PX = 4  # a 4×4 tag of 6 cells (with its border) is 24 px wide: a small tag at 1 m from a 1080p webcam


def _tag_image(marker_id: int, blur_px: float, noise: float = 2.0, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A 4X4 tag with a one-cell white quiet zone on mid grey, blurred and noisy; and its corners."""
    dictionary = dictionary_by_name("4X4_100")
    tag = cv2.aruco.generateImageMarker(dictionary, marker_id, 6 * CELL_PX)
    label = cv2.copyMakeBorder(tag, CELL_PX, CELL_PX, CELL_PX, CELL_PX, cv2.BORDER_CONSTANT, value=255)
    image = np.full((120, 120), 110, np.uint8)
    o = 60 - label.shape[0] // 2
    image[o:o + label.shape[0], o:o + label.shape[1]] = label
    if blur_px > 0:
        image = cv2.GaussianBlur(image, (0, 0), blur_px)
    rng = np.random.default_rng(seed)
    image = np.clip(image + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)
    a, b = o + CELL_PX - 0.5, o + 7 * CELL_PX - 0.5  # pixel centres at integers: edges at half pixels
    return image, np.array([[a, a], [b, a], [b, b], [a, b]])


def test_blurred_codes_match_a_rendered_blur() -> None:
    grid = np.zeros((8, 8), np.float32)
    grid[3, 3] = grid[4, 5] = 1.0
    r = 32  # pixels per cell of the brute-force rendering
    image = cv2.copyMakeBorder(cv2.resize(grid, (8 * r, 8 * r), interpolation=cv2.INTER_NEAREST),
                               4 * r, 4 * r, 4 * r, 4 * r, cv2.BORDER_CONSTANT, value=0.5)
    rendered = cv2.GaussianBlur(image, (0, 0), 0.45 * r)[4 * r:-4 * r, 4 * r:-4 * r][r // 2::r, r // 2::r]
    assert np.abs(blur_cells(grid, 0.45) - rendered).max() < 0.01
    assert np.array_equal(blur_cells(grid, 0.0), grid)


@pytest.mark.parametrize("marker_id", [0, 7, 17, 42, 64, 99])
@pytest.mark.parametrize("blur_px", [0.7, 2.0])  # 2 px on 4 px cells: the strong blur of the benchmark
def test_reads_the_right_id_sharp_or_blurred(marker_id: int, blur_px: float) -> None:
    codes = CodeBook(dictionary_by_name("4X4_100"))
    image, corners = _tag_image(marker_id, blur_px, seed=marker_id)
    found = decode_quads(image, corners[None], codes)
    assert [(i, m) for i, m, _, _ in found] == [(0, marker_id)]
    assert np.allclose(found[0][2], corners)  # rotation: the tag's top-left first, as generated


def test_a_turned_tag_reports_its_own_top_left_corner() -> None:
    codes = CodeBook(dictionary_by_name("4X4_100"))
    image, corners = _tag_image(23, 0.7)
    turned = np.ascontiguousarray(np.rot90(image))  # counter-clockwise: the tag's top-left goes to bottom-left
    h = image.shape[0]
    rotated = np.stack([corners[:, 1], h - 1 - corners[:, 0]], axis=1)
    clockwise_from_any = rotated[[1, 2, 3, 0]]
    found = decode_quads(turned, clockwise_from_any[None], codes)
    assert found[0][1] == 23
    assert np.allclose(found[0][2], rotated)


def test_nothing_is_read_from_what_is_not_a_tag() -> None:
    codes = CodeBook(dictionary_by_name("4X4_100"))
    rng = np.random.default_rng(1)
    _, corners = _tag_image(0, 0.0)
    patches = [
        np.full((120, 120), 110, np.uint8),  # plain table
        cv2.GaussianBlur(rng.integers(0, 256, (120, 120)).astype(np.uint8), (0, 0), 1.5),  # texture
        np.where((np.indices((120, 120)).sum(axis=0) // 5) % 2 == 0, 30, 220).astype(np.uint8),  # stripes
    ]
    solid = np.full((120, 120), 220, np.uint8)
    cv2.rectangle(solid, (40, 40), (79, 79), 20, -1)  # a black square on white: border only, no bits
    patches.append(solid)
    for patch in patches:
        assert decode_quads(patch, corners[None], codes) == []
    # a real tag read through a quad one cell too small (edge fitted inside the tag) is not read
    image, corners = _tag_image(5, 1.0)
    centre = corners.mean(axis=0)
    assert decode_quads(image, (centre + (corners - centre) * 4 / 6)[None], codes) == []


def test_a_blurred_tag_that_thresholds_as_another_code_is_not_reported_as_it() -> None:
    # Tag 93 has lone white cells and one 2×2 white block. Blurred by 2.5–2.7 px on 4 px cells the
    # lone cells fall below the halfway threshold with room to spare and the bits read exactly as
    # tag 17 (only that block white); the blurred codes model that and know it is 93.
    codes = CodeBook(dictionary_by_name("4X4_100"))
    read = []
    for blur_px in (2.5, 2.6, 2.7):
        for seed in range(4):
            image, corners = _tag_image(93, blur_px, seed=seed)
            read += [m for _, m, _, _ in decode_quads(image, corners[None], codes)]
    assert 17 not in read
    assert read.count(93) >= 9  # of 12
