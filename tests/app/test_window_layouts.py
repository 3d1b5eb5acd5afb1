"""Every screen at the three window sizes a table sees (a tablet held either way, a TV): screenshots with their
colour-blind simulations, and the smallest text a player must read measured on the widgets and the board."""

from __future__ import annotations

import pytest

from tests.app.window_run import SHOTS, check_guide_picture, run_window

SIZES = [("1280", "800", ""), ("800", "1280", ""), ("1920", "1080", "1")]
SCREENS = ("play-roll", "play-selection", "legend", "log", "camera", "setup", "big")
GM_PANELS = ("gm-terrain", "gm-ruling", "gm-calculate", "gm-form", "gm-result")  # the GM screen with each tool


@pytest.mark.window
@pytest.mark.parametrize(("width", "height", "big"), SIZES, ids=["landscape", "portrait", "big-screen"])
def test_every_screen_is_readable_from_a_chair(width: str, height: str, big: str) -> None:
    result = run_window("tests.app.window_scenario", "layouts",
                        env={"HEXA_TEST_WIDTH": width, "HEXA_TEST_HEIGHT": height, "HEXA_TEST_BIG": big})
    checks = result["checks"]
    measured = [c for c in checks if "texts at least" in c or "every text at least" in c]
    assert measured and all("(smaller: [])" in c for c in measured)
    screens = ("big",) if big else (*SCREENS, *GM_PANELS)  # a TV is never the GM's tablet
    for name in screens:
        for suffix in ("", "-deuteranopia", "-protanopia"):
            shot = SHOTS / f"layout-{width}x{height}-{name}{suffix}.png"
            assert shot.exists() and shot.stat().st_size > 10_000, shot.name
    if not big:
        assert "the legend names the sides, the edge kinds and the overlays" in " ".join(checks)
        assert all(any(c.startswith(f"gm {p[3:]} {width}x{height}: every text at least") for c in checks)
                   for p in GM_PANELS), "every GM panel measured"
    if (width, height) == ("1280", "800"):
        check_guide_picture("app-play.png", "layout-1280x800-play-selection")


@pytest.mark.window
@pytest.mark.parametrize(("width", "height"), [("1280", "800"), ("800", "1280")], ids=["landscape", "portrait"])
def test_every_screen_reads_in_japanese(width: str, height: str) -> None:
    """The app in Japanese (the engine too: HEXA_LANG reaches it): every screen drawn with the Japanese font, a glyph
    for every character, no text clipped, none smaller than the readable size."""
    result = run_window("tests.app.window_scenario", "layouts",
                        env={"HEXA_TEST_WIDTH": width, "HEXA_TEST_HEIGHT": height, "HEXA_TEST_BIG": "",
                             "HEXA_LANG": "ja"})
    checks = " ".join(result["checks"])
    for needed in ("every text at least", "every label drawn with the Japanese font", "a glyph for every character",
                   "every text inside its label", "the legend names the sides", "the GM code makes this tablet the GM"):
        assert needed in checks, needed
    for name in (*SCREENS, *GM_PANELS):
        shot = SHOTS / f"layout-ja-{width}x{height}-{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000, shot.name
    if (width, height) == ("1280", "800"):
        check_guide_picture("app-play-ja.png", "layout-ja-1280x800-play-selection")
