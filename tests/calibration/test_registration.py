"""Map registration: anchors → table/map transform, outliers, drift, manual fallback."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.board_spec import dictionary_size
from calibration.registration import (
    ANCHOR_DICTIONARY,
    ANCHOR_IDS,
    ManualPoint,
    RegistrationError,
    RegistrationTracker,
    estimate_registration,
    manual_registration,
    registration_drift,
)

# Anchor positions on the map (mm), as a scenario would name them.
MAP_ANCHORS = {90: (0.0, 0.0), 91: (400.0, 0.0), 92: (0.0, 300.0), 93: (400.0, 300.0), 94: (200.0, 150.0)}
MAP_AREA = [(0.0, 0.0), (400.0, 0.0), (0.0, 300.0), (400.0, 300.0)]


def _place(angle_deg: float, shift: tuple[float, float], scale: float = 1.0,
           anchors: dict[int, tuple[float, float]] = MAP_ANCHORS) -> dict[int, tuple[float, float]]:
    """Where each map anchor lands on the table when the map is turned, shifted (and scaled)."""
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) * scale
    return {i: tuple(rot @ np.array(p) + shift) for i, p in anchors.items()}  # type: ignore[misc]


def test_anchor_ids_are_reserved_at_the_top_of_the_figure_dictionary() -> None:
    size = dictionary_size(ANCHOR_DICTIONARY)
    assert max(ANCHOR_IDS) == size - 1  # the top of the dictionary, so figures keep 0 … min(ANCHOR_IDS) - 1
    assert sorted(ANCHOR_IDS) == list(range(min(ANCHOR_IDS), size))


@settings(max_examples=40, deadline=None)
@given(st.floats(-180, 180), st.floats(-500, 500), st.floats(-500, 500))
def test_exact_anchors_recover_the_transform(angle: float, dx: float, dy: float) -> None:
    table = _place(angle, (dx, dy))
    reg = estimate_registration(table, MAP_ANCHORS)
    for i, p in table.items():
        np.testing.assert_allclose(reg.table_to_map([p])[0], MAP_ANCHORS[i], atol=1e-6)
    assert reg.residual_mm_rms < 1e-6 and reg.outliers == ()
    assert reg.scale == pytest.approx(1.0)
    np.testing.assert_allclose(reg.map_to_table(reg.table_to_map([(10.0, 20.0)])), [(10.0, 20.0)], atol=1e-9)


def test_misplaced_anchor_is_rejected_and_residual_reported_in_mm_and_hexes() -> None:
    rng = np.random.default_rng(1)
    table = {i: (x + rng.normal(0, 0.5), y + rng.normal(0, 0.5)) for i, (x, y) in _place(30.0, (100.0, 50.0)).items()}
    table[94] = (table[94][0] + 60.0, table[94][1])  # stuck on the neighbouring hex
    reg = estimate_registration(table, MAP_ANCHORS, hex_mm=50.0)
    assert reg.outliers == (94,)
    assert set(reg.inliers) == {90, 91, 92, 93}
    assert 0.1 < reg.residual_mm_rms < 1.5
    assert reg.residual_hex == pytest.approx(reg.residual_mm_rms / 50.0)
    assert reg.rotation_deg == pytest.approx(-30.0, abs=0.5)


def test_similarity_absorbs_a_scale_and_affine_needs_three() -> None:
    table = _place(-12.0, (5.0, 7.0), scale=0.97)
    assert estimate_registration(table, MAP_ANCHORS, kind="similarity").scale == pytest.approx(1 / 0.97)
    rigid = estimate_registration(table, MAP_ANCHORS, kind="rigid", inlier_hex=1.0)
    assert rigid.scale == pytest.approx(1.0)
    assert rigid.residual_mm_rms > 3.0
    two = {i: table[i] for i in (90, 91)}
    with pytest.raises(RegistrationError, match="need 3"):
        estimate_registration(two, MAP_ANCHORS, kind="affine")
    assert estimate_registration(table, MAP_ANCHORS, kind="affine").residual_mm_rms < 1e-6


def test_too_few_anchors_names_the_missing_ones() -> None:
    table = {90: (0.0, 0.0), 17: (5.0, 5.0)}
    with pytest.raises(RegistrationError, match=r"only 1 .*ids 90.*anchors 91, 92, 93, 94"):
        estimate_registration(table, MAP_ANCHORS)
    reg = estimate_registration({**_place(0, (0, 0)), 17: (1.0, 1.0)}, MAP_ANCHORS)
    assert reg.unknown == (17,) and reg.missing == ()


def test_drift_beyond_a_fraction_of_a_hex_is_reported() -> None:
    before = estimate_registration(_place(5.0, (100.0, 100.0)), MAP_ANCHORS)
    nudged = estimate_registration(_place(5.0, (103.0, 100.0)), MAP_ANCHORS)
    bumped = estimate_registration(_place(7.0, (100.0, 100.0)), MAP_ANCHORS)
    small = registration_drift(before, nudged, MAP_AREA)
    assert small.max_mm == pytest.approx(3.0, abs=1e-6) and not small.exceeded
    big = registration_drift(before, bumped, MAP_AREA)
    assert big.max_mm > 10.0 and big.exceeded  # 2° over 500 mm ≈ 17 mm ≈ 0.35 hex


def test_tracker_follows_small_changes_and_confirms_a_bump() -> None:
    tracker = RegistrationTracker(MAP_ANCHORS, MAP_AREA, hex_mm=50.0)
    assert tracker.update(_place(0.0, (0.0, 0.0))) is None
    assert tracker.update(_place(0.0, (1.0, 0.0))) is None  # small: taken at once
    assert tracker.current is not None
    assert tracker.current.map_to_table([(0.0, 0.0)])[0][0] == pytest.approx(1.0)
    bumped = _place(0.0, (30.0, 0.0))
    assert tracker.update(bumped) is None  # a hand over the board could do this once
    assert tracker.update(_place(0.0, (1.0, 0.0))) is None  # back: the bump is forgotten
    reports = [tracker.update(bumped) for _ in range(3)]
    assert reports[:2] == [None, None]
    assert reports[2] is not None and reports[2].exceeded and reports[2].max_mm == pytest.approx(29.0, abs=1e-6)
    assert tracker.current.map_to_table([(0.0, 0.0)])[0][0] == pytest.approx(30.0)
    assert tracker.update({}) is None  # anchors hidden: keep the last registration
    assert tracker.current is not None


def test_manual_registration_from_three_named_hexes() -> None:
    table = _place(90.0, (300.0, 20.0))
    points = [ManualPoint("A1", MAP_ANCHORS[90], table[90]), ManualPoint("H1", MAP_ANCHORS[91], table[91]),
              ManualPoint("A6", MAP_ANCHORS[92], table[92])]
    reg = manual_registration(points)
    np.testing.assert_allclose(reg.table_to_map([table[93]])[0], MAP_ANCHORS[93], atol=1e-6)


def test_manual_registration_catches_a_figure_on_the_wrong_hex() -> None:
    table = _place(0.0, (0.0, 0.0))
    wrong = (table[92][0] + 50.0, table[92][1])
    points = [ManualPoint("A1", MAP_ANCHORS[90], table[90]), ManualPoint("H1", MAP_ANCHORS[91], table[91]),
              ManualPoint("A6", MAP_ANCHORS[92], wrong)]
    with pytest.raises(RegistrationError, match="hex A6"):
        manual_registration(points)
    in_a_line = [ManualPoint("A1", (0.0, 0.0), (0.0, 0.0)), ManualPoint("B1", (100.0, 0.0), (100.0, 0.0)),
                 ManualPoint("C1", (200.0, 0.0), (200.0, 0.0))]
    with pytest.raises(RegistrationError, match="in a line"):
        manual_registration(in_a_line)


def test_registration_puts_figures_on_the_right_hexes_of_a_layout() -> None:
    from engine.hexes import Hex, Orientation
    from engine.layout import Layout

    layout = Layout.from_flat_width(Orientation.FLAT, 50.0)
    anchor_hexes = {90: Hex(0, 0), 91: Hex(8, -4), 92: Hex(0, 6), 93: Hex(8, 2)}
    expected = {i: layout.hex_to_mm(h) for i, h in anchor_hexes.items()}
    table = _place(-3.0, (120.0, 80.0), anchors=expected)  # the map as it lies on the table
    reg = estimate_registration(table, expected, hex_mm=layout.across_flats_mm)
    figure_hex = Hex(3, 1)
    seen_at = _place(-3.0, (120.0, 80.0), anchors={0: layout.hex_to_mm(figure_hex)})[0]
    x, y = reg.table_to_map([seen_at])[0]
    assert layout.mm_to_hex(float(x), float(y)) == figure_hex
