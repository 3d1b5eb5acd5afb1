"""Facing through the engine service: tag angles seen in the table frame, turned by the map registration, set the
figures' facing; a tablet's ``face`` action overrides it until the tag is turned; Fantasy Battle refuses it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import zmq

from engine import rules
from engine.hexes import from_label
from engine.wire import GameStateMessage, MarkerTrack, TableViewMessage
from tests.rulesets import SKIRMISH_FOLDER, SKIRMISH_SCENARIO
from tests.service.conftest import TABLE_ROTATION_DEG, Rig, close_rig, make_rig, map_to_table
from tests.waiting import WAIT_S

UPRIGHT = {"squire": 0.0, "knight": 0.0, "bandit": 0.0}  # map-frame tag angles: each looks up the map


@pytest.fixture()
def skirmish_rig(context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path,
                 monkeypatch: pytest.MonkeyPatch) -> Iterator[Rig]:
    monkeypatch.setenv(rules.FOLDERS_VARIABLE, str(SKIRMISH_FOLDER))
    rules.reload_plugins()
    r = make_rig(context, str(tmp_path / "journal.sqlite"), scenario=str(SKIRMISH_SCENARIO))
    yield r
    close_rig(r)
    monkeypatch.delenv(rules.FOLDERS_VARIABLE)
    rules.reload_plugins()


def send(rig: Rig, angles: dict[str, float]) -> None:
    """The camera sees every figure on its start hex, each tag at a map-frame angle, and the anchors."""
    camera = rig.cameras[0]
    scenario = camera.scenario
    tracks = [t for t in camera.tracks({}) if t.id in scenario.anchors]
    for spec in scenario.figures:
        x, y = map_to_table(*scenario.layout.hex_to_mm(spec.start))
        table_angle = (angles[spec.id] + TABLE_ROTATION_DEG + 180.0) % 360.0 - 180.0  # the table is turned
        tracks.append(MarkerTrack(spec.marker_id, x, y, table_angle, "settled", 0.95, 0.0, 0.0))
    camera.frame += 1
    camera.publisher.publish_tracks(camera.frame, time.time(), tracks)
    camera.publisher.serve_snapshots(0)


def facings(message: object) -> dict[str, int]:
    assert isinstance(message, GameStateMessage)
    return {k: f["facing"] for k, f in message.state["figures"].items()}


def show_until(rig: Rig, angles: dict[str, float], wanted: dict[str, int]) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        send(rig, angles)
        message = rig.tablet.poll(0.05)
        if isinstance(message, GameStateMessage) and facings(message) == wanted:
            return
    raise AssertionError(f"the facings never became {wanted}; the engine has {rig.game()['state']['figures']}")


def test_tag_angles_through_a_turned_table_set_the_facing_and_a_tablet_overrides_it(skirmish_rig: Rig) -> None:
    rig = skirmish_rig
    # The knight looks 45° below +x on the map: direction 0 (at 30°). The camera sees the tag 20° turned with the
    # table; unturned, it would look 65° down, past the border at 60°: direction 5.
    show_until(rig, {**UPRIGHT, "knight": 135.0}, {"squire": 2, "knight": 0, "bandit": 2})
    reply = rig.act("action", action={"kind": "face", "figure": "knight", "direction": 1})
    assert reply["action"] == "face knight 1" and "Knight faces C2 (direction 1)." in reply["events"][0]["text"]
    views = 0
    deadline = time.monotonic() + WAIT_S
    while views < 5 and time.monotonic() < deadline:  # the camera keeps showing the old angle: no revert
        send(rig, {**UPRIGHT, "knight": 135.0})
        views += isinstance(rig.tablet.poll(0.05), TableViewMessage)
    assert views == 5 and rig.game()["state"]["figures"]["knight"]["facing"] == 1
    show_until(rig, {**UPRIGHT, "knight": 240.0}, {"squire": 2, "knight": 4, "bandit": 2})  # the tag turned
    sighting = next(f for f in rig.tablet.wait_for(b"table.view", WAIT_S).figures  # type: ignore[attr-defined]
                    if f.figure == "knight")
    assert sighting.direction == 4 and sighting.angle_deg == pytest.approx(-120.0, abs=0.5)
    assert sighting.hex == [from_label("B2").q, from_label("B2").r]


def test_fantasy_battle_refuses_a_face_action_with_the_reason(rig: Rig) -> None:
    reply = rig.tablet.request("action", action={"kind": "face", "figure": "swordsman", "direction": 2})
    assert not reply.ok and "Fantasy Battle has no facing" in (reply.error or "")
