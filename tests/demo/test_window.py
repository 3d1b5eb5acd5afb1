"""The demo in a real window under Xvfb (own process): the app comes up on the table hand and a drag is judged by
the engine through the camera."""

from __future__ import annotations

import pytest

from tests.app.window_run import SHOTS, run_window


@pytest.mark.window
@pytest.mark.parametrize(("scenario", "shots"), [("goblins-treasure", ("demo", "demo-camera")),
                                                 ("tenkey-skirmish", ("demo-tenkey-skirmish",
                                                                      "demo-tenkey-skirmish-camera"))])
def test_demo_window_drag_is_judged_through_the_camera(scenario: str, shots: tuple[str, str]) -> None:
    """The hex map, and the zone mat: a figure dragged on the tablet is moved on the table and judged from it."""
    result = run_window("tests.demo.window_demo", scenario, timeout_s=300)
    assert any(c.startswith("dragged ") and "the camera saw it" in c for c in result["checks"])
    assert "the camera preview of the synthetic table is shown" in result["checks"]
    for name in shots:
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000


@pytest.mark.window
def test_demo_window_throws_the_dice_the_camera_reads() -> None:
    """``hexa demo --dice camera`` in a window: the demo throws each roll's dice into the synthetic tray, the camera
    reads them and the tablet shows the reading with its countdown; taken, the roll is the camera's."""
    result = run_window("tests.demo.window_demo_dice", timeout_s=300)
    checks = " ".join(result["checks"])
    for needed in ("the camera read the thrown d6", "the faces read, on the tablet", "its countdown shown",
                   "the roll read by the camera played"):
        assert needed in checks, needed
    for name in ("demo-dice", "demo-dice-camera"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
