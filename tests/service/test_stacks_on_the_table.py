"""Facing and stacks end to end: the synthetic table (a hand places tags, turned), the camera service, the engine
service and a tablet's client, all real processes and sockets, with the Skirmish test rule set from its folder."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from engine import rules
from engine.hexes import from_label
from engine.layout import Layout
from engine.scenario import load_scenario
from tests.rulesets import SKIRMISH_FOLDER, SKIRMISH_SCENARIO
from tests.service.table_rig import START_S, SyntheticTable


class Table(SyntheticTable):
    """The processes of one table and a tablet's view of the engine."""

    def __init__(self) -> None:
        super().__init__(str(SKIRMISH_SCENARIO))

    def sighting(self, figure: str) -> dict[str, Any] | None:
        for view in reversed(self.views[-3:]):
            for f in view.figures:
                if f.figure == figure:
                    return f.to_dict()
        return None


@pytest.fixture()
def layout(monkeypatch: pytest.MonkeyPatch) -> Iterator[Layout]:
    """The scenario's layout; the test rule set's folder named in the environment, for the services too."""
    monkeypatch.setenv(rules.FOLDERS_VARIABLE, str(SKIRMISH_FOLDER))
    rules.reload_plugins()
    yield load_scenario(str(SKIRMISH_SCENARIO)).layout
    monkeypatch.delenv(rules.FOLDERS_VARIABLE)
    rules.reload_plugins()


@pytest.fixture()
def table(layout: Layout) -> Iterator[Table]:
    t = Table()
    try:
        yield t
    finally:
        t.close()


def test_a_turned_tag_and_two_tags_in_one_hex_reach_the_tablet(table: Table, layout: Layout) -> None:
    deadline = time.monotonic() + START_S
    while True:  # the engine answers once it is up
        try:
            table.tablet.sync(timeout_s=2.0)
            break
        except TimeoutError:
            if time.monotonic() > deadline:
                raise
    assert table.tablet.scenario is not None and table.tablet.scenario["uses_facing"] is True
    # First sight: the tags lie upright, so every figure faces up the table (direction 2).
    table.wait("the tags' facing taken on first sight", lambda: all(f["facing"] == 2 for f in table.figures().values()),
               START_S)
    b2 = from_label("B2")
    x, y = layout.hex_to_mm(b2)
    table.hand.place(1, x - 20.0, y, 0.0)  # the knight moves aside within its hex: no move
    table.hand.place(2, x + 20.0, y, 0.0)  # the squire steps onto the knight's hex: the prompt's move
    table.wait("the squire on the knight's hex", lambda: table.figures()["squire"]["hex"] == [b2.q, b2.r])
    assert table.figures()["knight"]["hex"] == [b2.q, b2.r]
    assert table.figures()["squire"]["arrived"] > table.figures()["knight"]["arrived"]  # on top of the stack
    table.hand.place(1, x - 20.0, y, 150.0 + 90.0)  # the knight turns to look down-left: direction 4
    table.wait("the knight facing direction 4", lambda: table.figures()["knight"]["facing"] == 4)
    table.wait("table.view showing the knight's tag angle and direction",
               lambda: (s := table.sighting("knight")) is not None and s["direction"] == 4)
    knight = table.sighting("knight")
    assert knight is not None and abs(((knight["angle_deg"] - 240.0) + 180.0) % 360.0 - 180.0) < 5.0
    history = [h["text"] for h in table.tablet.game["history"]] if table.tablet.game else []
    assert "move squire B2" in history and "face knight 4" in history
