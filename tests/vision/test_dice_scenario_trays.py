"""Every bundled scenario's synthetic table, with the tray the camera service draws beside its board, reads a throw.

The tray lies where each map leaves room, so what the camera sees around it differs from scenario to scenario: Lost
Worlds' tower leaves the paper beyond the felt without a sample of its colour, which once made every frame of that
tray fail to read (the headless dice demo then waited for its first roll forever).
"""

from __future__ import annotations

import pytest

from calibration.camera_model import CameraModel
from calibration.tray_spec import tray_spec
from engine.scenario import bundled_scenarios
from vision.detection import MarkerDetector
from vision.dice.reader import DiceReader
from vision.sources import SyntheticSource
from vision.synthetic.demo_scene import table_centre
from vision.synthetic.dice_tray import DiceTray, DieOrder, tray_origin_beside, with_tray
from vision.synthetic.renderer import TableRenderer
from vision.synthetic.scenario_scene import load_scenario_table

FPS = 10.0  # few frames: the tracker settles dice on time, not on a frame count


@pytest.mark.parametrize("scenario", sorted(bundled_scenarios()))
def test_a_throw_in_the_scenario_s_tray_is_read(scenario: str) -> None:
    table, _heights = load_scenario_table(scenario)
    spec = tray_spec()
    origin = tray_origin_beside(table, spec)
    table = with_tray(table, spec, origin)
    tray = DiceTray(spec, origin)
    camera = CameraModel.synthetic(look_at_mm=table_centre(table))
    source = SyntheticSource(TableRenderer(camera, table), None, fps=FPS, realtime=False, trays=(tray,))
    rest = tray.throw([DieOrder("d6", 5), DieOrder("d10", 3)], at=0.0)
    detector, reader = MarkerDetector(), DiceReader(camera=camera)
    settled = None
    while settled is None:
        frame = source.read()
        assert frame is not None
        assert frame.index / FPS < rest + 2.0, f"{scenario}: the throw was never read settled"
        seen = reader.read(frame.image, detector.detect(frame.image), frame.monotonic)
        if seen and seen[0].settled:
            settled = seen[0]
    assert sorted(d.value for d in settled.dice if d.read and d.value is not None) == [3, 5], settled
