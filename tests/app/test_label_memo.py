"""The tile labels laid out again only near what changed come out exactly as a layout from scratch would, update
after update, while most of them are put back untouched."""

from __future__ import annotations

import random
from typing import Any

import pytest
from kivy.graphics import Color, InstructionGroup

from companion_app.ui import text_room
from companion_app.ui.label_memo import LabelJob, LabelMemo
from companion_app.ui.text_room import TextRoom
from tests.app.test_text_room import fake_texture

WHITE = (1.0, 1.0, 1.0, 1.0)


@pytest.fixture(autouse=True)
def _fake_font(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_room, "text_texture", fake_texture)


def _draw(group: InstructionGroup, label: str, centre: Any, height: float, rgba: Any, px: int) -> None:
    group.add(Color(*rgba))


def _jobs() -> list[LabelJob]:
    """A cell's label (some long enough to reach the next cell's: an earlier label may push a later one out) and
    its level, on a grid of 12 × 9 cells."""
    rng = random.Random(1)
    jobs = []
    for col in range(12):
        for row in range(9):
            x, y = 10.0 + col * 9.0, 10.0 + row * 8.0
            label = f"{chr(65 + col)}{row + 1}" + "x" * rng.choice((0, 0, 6, 9))
            jobs.append(LabelJob((col, row), label, (x, y - 2.5), 2.2, WHITE, 24, True))
            jobs.append(LabelJob((col, row), "L2", (x, y + 2.5), 2.2, WHITE, 24, False))
    return jobs


def _room(figures: list[tuple[float, float]], names: list[str]) -> TextRoom:
    room = TextRoom(2.0, [(f, 2.5) for f in figures], bounds=(0.0, 0.0, 115.0, 80.0))
    room.add_stroke((40.0, 5.0), (40.0, 40.0), 0.5)
    for (x, y), name in zip(figures, names, strict=True):  # each figure's name below it, then a status line
        room.fit(name, (x, y + 4.0), 2.2, 24, own=(x, y))
        room.fit("hp 10 · carries spear", (x, y - 4.5), 2.0, 24, own=(x, y))
    return room


def test_a_memo_lays_labels_out_as_from_scratch_while_figures_move() -> None:
    rng = random.Random(3)
    figures = [(rng.uniform(5, 110), rng.uniform(5, 75)) for _ in range(6)]
    names = ["Knight", "Elf", "Dwarf", "Troll", "Skeleton", "Goblin Chief"]
    memo, jobs, scene = LabelMemo(), _jobs(), ("tower", 1.0)
    reused = 0
    for step in range(40):
        if step:
            for _ in range(rng.randint(1, 2)):
                i = rng.randrange(len(figures))
                x, y = figures[i]
                figures[i] = (min(110.0, max(5.0, x + rng.uniform(-12, 12))),
                              min(75.0, max(5.0, y + rng.uniform(-10, 10))))
        named = {jobs[2 * rng.randrange(len(jobs) // 2)].key for _ in range(rng.randint(0, 2))}
        asked = [j for j in jobs if not (j.names_cell and j.key in named)]  # a prompt's cells are labelled apart
        kept, fresh = _room(figures, names), _room(figures, names)
        group = InstructionGroup()
        labelled = memo.lay_out(group, kept, asked, scene, _draw)
        assert labelled == LabelMemo().lay_out(InstructionGroup(), fresh, asked, scene, _draw)
        assert kept.placed == fresh.placed
        assert len(group.children) == len(kept.placed) - len(_room(figures, names).placed)
        reused += memo.reused
        assert memo.reused + memo.tried == len(asked)
    assert reused > 0.5 * 39 * len(jobs)  # most labels are put back, not tried again


def test_a_new_scene_lays_everything_out_again() -> None:
    memo, jobs = LabelMemo(), _jobs()
    memo.lay_out(InstructionGroup(), _room([(50.0, 40.0)], ["Elf"]), jobs, "zoom 1", _draw)
    memo.lay_out(InstructionGroup(), _room([(50.0, 40.0)], ["Elf"]), jobs, "zoom 1", _draw)
    assert memo.tried == 0
    memo.lay_out(InstructionGroup(), _room([(50.0, 40.0)], ["Elf"]), jobs, "zoom 2", _draw)
    assert memo.reused == 0 and memo.tried == len(jobs)
