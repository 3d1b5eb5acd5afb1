"""A zone board end to end: the printed keypad mat on the synthetic table (its corner tags, figures in zones), the
camera service, the engine service and a tablet's client, all real processes and sockets, with the zone test rule
set loaded from its folder."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from engine import rules
from engine.board.zones.board import MAT_ANCHOR_IDS, ZoneBoard
from engine.scenario import Scenario, load_scenario
from tests.rulesets import ZONES_FOLDER, ZONES_SCENARIO
from tests.service.table_rig import START_S, SyntheticTable


class MatTable(SyntheticTable):
    """The processes of one zone-mat table and a tablet's view of the engine."""

    def __init__(self) -> None:
        super().__init__(str(ZONES_SCENARIO))

    def seen_cells(self) -> dict[str, list[int] | None]:
        """Figure → the cell the engine places its settled tag in, from the newest table view."""
        if self.view is None:
            return {}
        return {f.figure: f.hex for f in self.view.figures if f.figure is not None and f.state == "settled"}


@pytest.fixture()
def scenario(monkeypatch: pytest.MonkeyPatch) -> Iterator[Scenario]:
    """The keypad scenario; the zone test rule set's folder named in the environment, for the services too."""
    monkeypatch.setenv(rules.FOLDERS_VARIABLE, str(ZONES_FOLDER))
    rules.reload_plugins()
    yield load_scenario(str(ZONES_SCENARIO))
    monkeypatch.delenv(rules.FOLDERS_VARIABLE)
    rules.reload_plugins()


@pytest.fixture()
def table(scenario: Scenario) -> Iterator[MatTable]:
    t = MatTable()
    try:
        yield t
    finally:
        t.close()


def test_figures_on_the_printed_mat_are_placed_in_their_zones_and_a_hand_move_is_played(
        table: MatTable, scenario: Scenario) -> None:
    board = scenario.board
    assert isinstance(board, ZoneBoard) and scenario.anchors == {}  # registered from the mat's own corner tags
    deadline = time.monotonic() + START_S
    while True:  # the engine answers once it is up
        try:
            table.tablet.sync(timeout_s=2.0)
            break
        except TimeoutError:
            if time.monotonic() > deadline:
                raise
    cell = {label: [c.q, c.r] for c in board if (label := board.label(c))}

    def registered() -> bool:
        status = (table.tablet.table or {}).get("registration") or {}
        return status.get("mode") == "anchors" and status.get("ok") is True

    table.wait("the map registered from the mat's corner tags", registered, START_S)
    status = table.tablet.table["registration"]  # type: ignore[index]
    assert status["residual_mm"] < 0.1 * board.zone_mm and "not seen" not in status["text"], status
    table.wait("every figure seen in its start zone",
               lambda: table.seen_cells() == {"ash": cell["1"], "bo": cell["9"], "cy": cell["9"]}, START_S)
    assert table.view is not None
    seen_markers = {f.marker for f in table.view.figures}
    assert set(MAT_ANCHOR_IDS) <= seen_markers  # the printed tags are seen, and are no figures
    assert not (table.tablet.table or {}).get("unknown_markers")
    assert table.tablet.game is not None and table.tablet.game["prompt"]["figure"] == "ash"

    x, y = board.centre_mm(board.from_label("4"))
    table.hand.place(1, x + 8.0, y - 6.0, 0.0)  # the hand sets Ash down in zone 4, off its centre
    table.wait("Ash's move to zone 4 played", lambda: table.figures()["ash"]["hex"] == cell["4"])
    history = [h["text"] for h in table.tablet.game["history"]]
    assert history == ["move ash 4"]  # the zone's own label, as players read it
    assert table.figures()["bo"]["hex"] == cell["9"] and table.figures()["cy"]["hex"] == cell["9"]
    table.wait("the table view showing Ash in zone 4", lambda: table.seen_cells().get("ash") == cell["4"])
