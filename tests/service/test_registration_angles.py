"""Tag angles follow the table → map registration: the map turned on the table turns each tag's angle with it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.registration import Registration
from engine.scenario import load_scenario
from engine.service.map_registration import MapRegistration


def _registration(turn_deg: float, mirror: bool = False) -> Registration:
    a = math.radians(turn_deg)
    linear = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    if mirror:
        linear = linear @ np.array([[1.0, 0.0], [0.0, -1.0]])
    matrix = np.concatenate([linear, np.array([[12.0], [-7.0]])], axis=1)
    return Registration(matrix, "similarity", (), (), 0.0, 0.0)


def test_angles_turn_with_the_registration_and_unknown_ones_stay_unknown() -> None:
    registration = MapRegistration(load_scenario("tutorial"))
    assert registration.to_map_angles([30.0, None]) == [30.0, None]  # no registration yet: identity
    registration.manual = _registration(25.0)
    assert registration.current is not None and registration.current.rotation_deg == pytest.approx(25.0)
    turned = registration.to_map_angles([30.0, 170.0, None])
    assert turned[0] == pytest.approx(55.0) and turned[1] == pytest.approx(-165.0) and turned[2] is None
    registration.manual = _registration(0.0, mirror=True)  # an affine fit of a mirrored view turns angles back
    assert registration.to_map_angles([30.0]) == [pytest.approx(-30.0)]
