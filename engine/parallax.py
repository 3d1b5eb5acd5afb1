"""Tags above raised tiles: moving a table position seen at one height to where the tag really stands.

The camera service places each tag on the table as if it stood at its configured height (the figure's tag
height). On a raised tile the tag stands higher — the tile's level × the scenario's level height more — so
it lies elsewhere along the same camera ray. Knowing the camera's centre (x, y and height above the table),
the point at another height on that ray is found exactly; which tile the figure stands on is found from the
corrected position itself, a few rounds until it settles. Pure arithmetic: no camera model, no OpenCV.
"""

from __future__ import annotations

from collections.abc import Callable

ROUNDS = 4  # a figure near the border of two levels settles within a couple of rounds


def reproject(x_mm: float, y_mm: float, camera_mm: tuple[float, float, float], from_mm: float,
              to_mm: float) -> tuple[float, float]:
    """The table position of the point on the camera ray through (x, y) at ``from_mm`` that lies at ``to_mm``."""
    cx, cy, cz = camera_mm
    if cz <= max(from_mm, to_mm):  # a camera below the tag sees no such point: leave the position alone
        return x_mm, y_mm
    k = (cz - to_mm) / (cz - from_mm)
    return cx + (x_mm - cx) * k, cy + (y_mm - cy) * k


def on_raised_tile(x_mm: float, y_mm: float, tag_mm: float, camera_mm: tuple[float, float, float],
                   lift_at: Callable[[float, float], float]) -> tuple[float, float]:
    """Where a tag seen at (x, y) for height ``tag_mm`` stands, when the tile under a position lifts it by
    ``lift_at(x, y)`` millimetres (level × level height)."""
    lift = 0.0
    px, py = x_mm, y_mm
    for _ in range(ROUNDS):
        wanted = lift_at(px, py)
        if wanted == lift:
            break
        lift = wanted
        px, py = reproject(x_mm, y_mm, camera_mm, tag_mm, tag_mm + lift)
    return px, py
