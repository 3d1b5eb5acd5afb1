"""The board draws edges by their kind's style with a shape of its own, so a rule set's edges read without colour."""

from __future__ import annotations

import math

from companion_app.ui import board_drawing as draw
from companion_app.viewmodels import palette
from companion_app.viewmodels.board_model import EdgeView


def _edge(style: str, state: str) -> EdgeView:
    door = style in palette.DOOR_EDGE_STYLES
    colour = palette.DOOR_CLOSED if door else palette.EDGE_COLOURS[style]
    return EdgeView((0, 0), (0, 1), "A1|A2", style, state, ((0.0, 0.0), (10.0, 0.0)), colour, style, door)


def _quads(style: str, state: str = "") -> list[list[float]]:
    """The quads drawn for one edge, each as its four corners' x, y."""
    quads: list[list[float]] = []
    for batch in draw.edge_batches([_edge(style, state or style)], 10.0):
        for vertices, _indices in batch.meshes:
            quads += [[vertices[i + j] for j in (0, 1, 4, 5, 8, 9, 12, 13)] for i in range(0, len(vertices), 16)]
    return quads


def _width(quad: list[float]) -> float:
    """The shorter side of a quad."""
    x0, y0, x1, y1, x2, y2 = quad[:6]
    return min(math.hypot(x1 - x0, y1 - y0), math.hypot(x2 - x1, y2 - y1))


def test_each_edge_style_has_its_own_shape() -> None:
    wall, line, fence = _quads("wall"), _quads("line"), _quads("fence")
    assert len(wall) == 1 and len(line) == 1
    assert _width(line[0]) < _width(wall[0])  # a line is thinner than a wall
    assert len(fence) == 1 + len(draw.FENCE_POSTS)  # a fence has posts across it


def test_each_edge_style_has_its_own_colour() -> None:
    colours = {batch.rgba for style in palette.EDGE_COLOURS for batch in draw.edge_batches([_edge(style, style)], 10.0)
               if any(v for v, _ in batch.meshes)}
    assert len(colours) == len(palette.EDGE_COLOURS)


def test_a_door_style_is_drawn_by_the_door_s_state() -> None:
    assert len(_quads("door", "open")) == 2  # two stubs at the jambs
    assert len(_quads("door", "closed")) == 1
    assert len(_quads("locked", "locked")) == 3  # a bar and a dark cross
