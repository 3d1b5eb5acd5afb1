"""Shared rendered calibration views (rendered once per test session; they take a few seconds)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from numpy.typing import NDArray

from calibration.board_spec import BoardSpec
from calibration.camera_model import CameraModel
from tests.calibration.rendering import lens_view_cameras, render_sheet, table_camera

A4_SPEC = BoardSpec(dictionary="DICT_5X5_100", squares_x=10, squares_y=6, square_mm=28.0, marker_mm=21.0, paper="a4")


@dataclass(frozen=True, eq=False)
class RenderedSet:
    """Lens views, the flat table view and the camera that took the table view."""

    spec: BoardSpec
    lens_images: list[NDArray[np.uint8]]
    table_image: NDArray[np.uint8]
    truth: CameraModel


@pytest.fixture(scope="session")
def rendered() -> RenderedSet:
    lens = [render_sheet(cam, A4_SPEC, seed=i) for i, cam in enumerate(lens_view_cameras(A4_SPEC))]
    truth = table_camera()
    return RenderedSet(A4_SPEC, lens, render_sheet(truth, A4_SPEC, seed=99), truth)
