"""A figure's name that does not fit in full is shortened with "…" before it is left out (issue: labels that fit;
status before name, then the name): the board shows as much of it as the room has space for."""

from __future__ import annotations

from typing import Any

import pytest

from companion_app.ui import board_drawing as draw
from companion_app.ui import text_room
from companion_app.ui.board_drawing import name_labels, name_lines
from companion_app.ui.text_room import TextRoom
from tests.app.test_text_room import fake_texture


@pytest.fixture()
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(text_room, "text_texture", fake_texture)

    def text(group: Any, label: str, *args: Any, **kwargs: Any) -> None:
        shown.append(label)

    monkeypatch.setattr(draw, "text", text)
    return shown


def test_names_shorten_to_three_quarters_then_half_and_never_below_two_letters() -> None:
    assert name_lines("Goblin Chief") == ["Goblin Chief", "Goblin Ch…", "Goblin…"]
    assert name_lines("ゴブリンの頭") == ["ゴブリンの頭", "ゴブリ…"]
    assert name_lines("Tom") == ["Tom"]  # a cut would save less than the "…" costs


def _one_figure(width_mm: float, drawn: list[str]) -> list[str]:
    room = TextRoom(2.0, discs=[((20.0, 20.0), 4.0)], bounds=(0.0, 0.0, width_mm, 60.0))
    name_labels(None, [("Goblin Chief", (20.0, 20.0), 4.0, 4.0, (1, 1, 1, 1), 24, (), None)], room)
    return [label for label, _ in room.placed]


def test_a_name_too_wide_for_the_board_is_shortened_not_dropped(drawn: list[str]) -> None:
    assert _one_figure(200.0, drawn) == ["Goblin Chief"]
    drawn.clear()
    narrow = fake_texture("Goblin Chief", 24)
    full_mm = 4.0 * narrow.width / narrow.height
    placed = _one_figure(full_mm * 0.9, drawn)
    assert placed == ["Goblin Ch…"] and drawn == ["Goblin Ch…"]


def test_a_name_with_no_room_even_shortened_is_left_out(drawn: list[str]) -> None:
    assert _one_figure(6.0, drawn) == [] and drawn == []
