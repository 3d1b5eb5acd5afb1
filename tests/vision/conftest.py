"""Shared fixtures: a known distorted 1080p camera over the demo table, rendered once per session."""

from __future__ import annotations

import pytest

from calibration.camera_model import CameraModel
from vision.synthetic.demo_scene import demo_table, table_centre
from vision.synthetic.renderer import TableRenderer
from vision.synthetic.scene import TableDrawing


@pytest.fixture(scope="session")
def table() -> TableDrawing:
    return demo_table()


@pytest.fixture(scope="session")
def camera(table: TableDrawing) -> CameraModel:
    return CameraModel.synthetic(look_at_mm=table_centre(table), tilt_deg=15.0)


@pytest.fixture(scope="session")
def renderer(camera: CameraModel, table: TableDrawing) -> TableRenderer:
    return TableRenderer(camera, table)
