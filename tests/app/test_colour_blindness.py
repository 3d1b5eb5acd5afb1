"""Sides and overlays stay apart for people with red-green colour blindness (they also differ by shape and text)."""

from __future__ import annotations

import itertools

import numpy as np

from companion_app.viewmodels import palette
from tests.app.colour_blindness import simulate_rgb


def _luma(rgb: np.ndarray) -> float:
    return float(rgb @ np.array([0.2126, 0.7152, 0.0722]))


def test_grey_is_unchanged_and_red_green_collapse() -> None:
    grey = np.array([0.5, 0.5, 0.5])
    for kind in ("deuteranopia", "protanopia"):
        assert np.allclose(simulate_rgb(grey, kind), grey, atol=0.01)
    red, green = np.array([0.8, 0.2, 0.2]), np.array([0.45, 0.5, 0.2])
    normal = np.linalg.norm(red - green)
    assert np.linalg.norm(simulate_rgb(red, "deuteranopia") - simulate_rgb(green, "deuteranopia")) < normal / 2


def test_the_first_two_side_colours_stay_distinguishable_and_shapes_differ() -> None:
    red = np.array(palette.side_colour("red")[:3])
    blue = np.array(palette.side_colour("blue")[:3])
    for kind in ("deuteranopia", "protanopia"):
        a, b = simulate_rgb(red, kind), simulate_rgb(blue, kind)
        assert np.linalg.norm(a - b) > 0.3, kind
    shapes = [palette.side_shape(i) for i in range(4)]
    assert len(set(shapes)) == 4
    for a, b in itertools.combinations(range(4), 2):
        assert palette.side_shape(a) != palette.side_shape(b)


def test_sight_verdicts_differ_by_dash_pattern_not_only_colour() -> None:
    assert len(set(palette.SIGHT_DASH.values())) == len(palette.SIGHT_DASH)
