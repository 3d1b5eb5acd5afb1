"""The board's text room: a text is placed where no disc and no placed text is in its way, at a readable size —
the grids it files discs and texts in give exactly the answers of checking every one of them."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import pytest

from companion_app.ui import text_room
from companion_app.ui.text_room import GLYPH_SHARE, TextRoom


@dataclass
class FakeTexture:
    width: int
    height: int


def fake_texture(label: str, font_px: int = 32) -> FakeTexture:
    return FakeTexture(width=max(1, int(len(label) * font_px * 0.6)), height=int(font_px * 1.25))


class EveryOneChecked:
    """The room as it reads without grids: every disc and every placed text checked."""

    def __init__(self, min_mm: float, discs: list[tuple[tuple[float, float], float]]) -> None:
        self.min_mm, self.discs = min_mm, discs
        self.boxes: list[tuple[float, float, float, float]] = []

    def place(self, label: str, centre: tuple[float, float], height_mm: float, font_px: int,
              own: tuple[float, float] | None) -> float | None:
        h = max(height_mm, self.min_mm)
        tex = fake_texture(label, font_px)
        w = h * tex.width / tex.height
        g = h * GLYPH_SHARE / 2
        box = (centre[0] - w / 2, centre[1] - g, centre[0] + w / 2, centre[1] + g)
        for c, r in self.discs:
            if own is not None and c == own:
                continue
            x, y = min(max(c[0], box[0]), box[2]), min(max(c[1], box[1]), box[3])
            if math.hypot(c[0] - x, c[1] - y) < r:
                return None
        if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in self.boxes):
            return None
        self.boxes.append(box)
        return h


@pytest.mark.parametrize("seed", range(12))
def test_the_room_places_texts_as_checking_every_disc_and_text_does(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_room, "text_texture", fake_texture)
    rng = random.Random(seed)
    min_mm = rng.choice([0.5, 2.0, 6.0])
    discs = [((rng.uniform(0, 300), rng.uniform(0, 300)), rng.uniform(3, 15)) for _ in range(rng.randrange(0, 40))]
    room, plain = TextRoom(min_mm, discs[:10]), EveryOneChecked(min_mm, list(discs[:10]))
    room.discs += discs[10:]  # as the board adds the figures' discs to a room made before
    plain.discs += discs[10:]
    placed = 0
    for i in range(300):
        label = "x" * rng.randrange(1, 14)
        centre = (rng.uniform(-20, 320), rng.uniform(-20, 320))
        own = rng.choice(discs)[0] if discs and rng.random() < 0.2 else None
        height = rng.uniform(0.2, 12.0)
        got = room.place(label, centre, height, 24, own=own)
        assert got == plain.place(label, centre, height, 24, own), i
        placed += got is not None
        if i == 150:  # a copy goes on alike
            room = room.copy()
    assert 0 < placed < 300  # some texts found room, some did not: the comparison covered both
