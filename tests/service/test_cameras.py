"""Several camera services on one table: overlapping views fused, a silent camera reported, nothing lost."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import zmq

from engine.wire import GameEventsMessage, TableMessage, TableViewMessage
from tests.service.conftest import START, Rig, close_rig, goblin_to_move, make_rig

WEST = {k: v for k, v in START.items() if not k.startswith("goblin")} | {"goblin-1": "G2"}  # overlap: goblin-1
EAST = {k: v for k, v in START.items() if k.startswith("goblin")}


@pytest.fixture
def two(context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> Iterator[Rig]:
    r = make_rig(context, str(tmp_path / "journal.sqlite"), cameras=2, silent_after_s=0.5)
    r.cameras[0].anchor_ids = (90, 92)  # A1 and A5: the west edge
    r.cameras[1].anchor_ids = (91, 93)  # G1 and G5: the east edge
    yield r
    close_rig(r)


def test_a_figure_seen_by_two_cameras_is_one_figure_and_one_move(two: Rig) -> None:
    def fused(m: object) -> bool:
        return isinstance(m, TableViewMessage) and len(m.figures) == 10 and any(
            f.figure == "goblin-1" and len(f.cameras) == 2 for f in m.figures)

    view = two.show_many([WEST, EAST], fused)
    assert isinstance(view, TableViewMessage)
    goblins = [f for f in view.figures if f.figure == "goblin-1"]
    assert len(goblins) == 1 and goblins[0].hex == [6, -2]
    # Both cameras heard within silent_after_s (a loaded machine may pause the senders: wait for that state).
    table = two.show_many([WEST, EAST], lambda m: isinstance(m, TableMessage) and m.registration["mode"] == "anchors"
                          and [c.status for c in m.cameras] == ["ok", "ok"])
    assert isinstance(table, TableMessage)
    assert table.duplicates == () and table.desync == ()
    goblin_to_move(two)
    moved = two.show_many([WEST | {"goblin-1": "F2"}, EAST | {"goblin-1": "F2"}],
                          lambda m: isinstance(m, GameEventsMessage) and m.source == "camera")
    assert isinstance(moved, GameEventsMessage) and moved.action == "move goblin-1 F2"
    history = two.game()["history"]
    assert [h["text"] for h in history].count("move goblin-1 F2") == 1


def test_a_silent_camera_is_reported_and_its_figures_are_not_taken_off(two: Rig) -> None:
    two.show_many([WEST, EAST], lambda m: isinstance(m, TableMessage) and [c.status for c in m.cameras] == ["ok", "ok"])
    table = two.show_many([WEST, None], lambda m: isinstance(m, TableMessage)
                          and [c.status for c in m.cameras] == ["ok", "silent"])
    assert isinstance(table, TableMessage)
    assert (table.cameras[1].last_seen_age_s or 0) >= 0.5
    assert table.desync == ()  # the goblins the silent camera saw last are still where it saw them
    assert all(f["on_table"] for f in two.game()["state"]["figures"].values())
