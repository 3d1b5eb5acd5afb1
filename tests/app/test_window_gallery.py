"""Every bundled scenario's first prompt at the four window sizes a table sees (a phone, a tablet held either way, a
TV) in both languages: screenshots, and the board's drawn texts checked (window_gallery): none outside the board,
none over another, a wall or a facing mark, every cell the prompt names labelled, every zone's figure named in
full, no line starting with closing punctuation. On a TV the board and the texts grow with the screen."""

from __future__ import annotations

import pytest

from engine.scenario import bundled_scenarios
from tests.app.window_run import SHOTS, run_window

SIZES = [("720", "1280"), ("800", "1280"), ("1280", "800"), ("1920", "1080")]


@pytest.mark.window
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["phone", "portrait", "landscape", "tv"])
def test_every_scenario_lays_its_board_out_at_every_size(width: str, height: str, lang: str) -> None:
    result = run_window("tests.app.window_gallery", timeout_s=480,
                        env={"HEXA_TEST_WIDTH": width, "HEXA_TEST_HEIGHT": height, "HEXA_LANG": lang})
    checks = " ".join(result["checks"])
    assert f"every scenario's board texts laid out at {lang}-{width}x{height}" in checks
    for sid in bundled_scenarios():
        shot = SHOTS / f"gallery-{lang}-{width}x{height}-{sid}.png"
        assert shot.exists() and shot.stat().st_size > 10_000, shot.name
    if width == "1920":
        assert "the board and the texts grow on a TV" in checks
