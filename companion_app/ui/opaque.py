"""Draw a quad without blending: for textures that are opaque everywhere (cached layers, the board's texture).

Software GL (Mesa's llvmpipe) reads every pixel back to blend it; an opaque quad need not, and an Fbo's alpha
(which blending in Kivy leaves below 1 where something translucent was drawn) is ignored, as it should be.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.graphics import Callback
from kivy.graphics import opengl as gl
from kivy.graphics.instructions import Instruction


def _blend_on(*_: Any) -> None:
    gl.glEnable(gl.GL_BLEND)  # Kivy draws everything else blended


def opaque(instruction: Instruction, when: Callable[[], bool] = lambda: True) -> list[Instruction]:
    """The instructions that draw ``instruction`` unblended while ``when()`` (add them in place of it, in order)."""

    def blend_off(*_: Any) -> None:
        if when():
            gl.glDisable(gl.GL_BLEND)

    return [Callback(blend_off), instruction, Callback(_blend_on)]
