"""Verdict and advice: each problem the issue names produces its advice and the right verdict."""

from __future__ import annotations

from dataclasses import replace

import pytest

from calibration.quality import QualityInputs, assess, expected_error_mm

GOOD = QualityInputs(lens_rms_px=0.25, table_rms_px=0.3, table_rms_mm=0.3, mm_per_px=0.8, views=15, coverage=0.8,
                     uncovered_corners=(), median_sharpness=0.45, max_tilt_deg=40.0)


def test_good_calibration_has_no_advice() -> None:
    q = assess(GOOD)
    assert q.verdict == "good" and q.advice == ()
    assert q.table_error_mm == pytest.approx(0.3)  # max(0.3 mm, 0.25 px × 0.8 mm/px)
    assert q.table_error_hex == pytest.approx(0.3 / 50.0)


def test_expected_error_carries_the_lens_residual_to_the_table() -> None:
    assert expected_error_mm(replace(GOOD, lens_rms_px=0.9, mm_per_px=2.0, table_rms_mm=0.2)) == pytest.approx(1.8)


@pytest.mark.parametrize(
    ("change", "verdict", "phrase"),
    [
        ({"views": 8}, "usable", "Too few views (8)"),
        ({"views": 4}, "redo", "Too few views (4)"),
        ({"uncovered_corners": ("top-left", "bottom-right"), "coverage": 0.7}, "usable",
         "top-left, bottom-right corner(s)"),
        ({"coverage": 0.3}, "usable", "only 30% of the picture"),
        ({"median_sharpness": 0.15}, "usable", "blurred"),
        ({"table_rms_px": 1.2}, "usable", "not seem to lie flat"),
        ({"table_rms_px": 3.0}, "redo", "not seem to lie flat"),
        ({"max_tilt_deg": 8.0}, "usable", "always faced the camera"),
        ({"lens_rms_px": 0.8, "mm_per_px": 1.0}, "usable", "0.80 px"),
        ({"lens_rms_px": 1.6, "mm_per_px": 1.0}, "redo", "1.60 px"),
        ({"table_rms_mm": 2.0}, "usable", "off by about 2.0 mm (0.04 hex)"),
        ({"table_rms_mm": 4.0}, "redo", "off by about 4.0 mm"),
    ],
)
def test_each_problem_gets_its_advice(change: dict[str, object], verdict: str, phrase: str) -> None:
    q = assess(replace(GOOD, **change))  # type: ignore[arg-type]
    assert q.verdict == verdict
    assert any(phrase in a for a in q.advice), q.advice
    assert any("--check-bar" in a for a in q.advice)  # unmeasured print scale is mentioned once not good


def test_wrong_print_scale_is_noted_even_when_good() -> None:
    q = assess(replace(GOOD, check_bar_scale=0.96))
    assert q.verdict == "good"
    assert q.advice == ("The sheet was printed at 96.0% of its true size; distances have been corrected, but print "
                        "at 100% / actual size next time, and check the marker sheet too.",)
    assert assess(replace(GOOD, check_bar_scale=0.998)).advice == ()


def test_error_in_hexes_follows_the_players_hex_size() -> None:
    small_hexes = assess(replace(GOOD, table_rms_mm=2.0, hex_mm=25.0))
    assert small_hexes.table_error_hex == pytest.approx(0.08)
