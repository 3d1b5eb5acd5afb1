"""Dice the camera reads answer roll prompts: real ``dice`` messages on a real camera socket, a real engine and tablet.

The tutorial's first prompt is the turn order: Knights roll 1d6, then Goblins 1d6 (one throw after the other
through the shared tray).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import zmq

from engine.actions import Roll
from engine.wire import (
    DiceAnswer,
    DieDoubt,
    DieKind,
    DieSeen,
    EngineMessage,
    GameEventsMessage,
    TableMessage,
    TraySeen,
)
from tests.service.conftest import Rig, close_rig, make_rig
from tests.waiting import WAIT_S


def settled(roll: int, *faces: int | None, doubt: DieDoubt | None = None, tray: str = "tray") -> TraySeen:
    """A settled tray of d6 laid out left to right (a face None: unreadable; ``doubt`` on the last die)."""
    dice = []
    for i, face in enumerate(faces):
        why = doubt if i == len(faces) - 1 else None
        why = DieDoubt.UNREADABLE if face is None else why
        dice.append(DieSeen(i + 1, DieKind.D6, face, 0.98 if why is None else 0.4, 30.0 + 40 * i, 50.0, True, why))
    return TraySeen(tray, roll, True, tuple(dice))


def throw(rig: Rig, tray: TraySeen, until: Callable[[EngineMessage], bool], then: TraySeen | None = None
          ) -> EngineMessage:
    """The camera keeps publishing this tray (as it does every frame; ``then`` after it each time) until the tablet
    sees ``until``."""
    camera = rig.cameras[0]
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        publisher = camera.publisher
        for seen in (tray,) if then is None else (tray, then):
            camera.frame += 1
            publisher.publish_dice(camera.frame, time.time(), (seen,))
        while (message := rig.tablet.poll(0.02)) is not None:
            if until(message):
                return message
    raise AssertionError(f"the tablet did not see the expected update within {WAIT_S} s")


def dice_shown(state: str) -> Callable[[EngineMessage], bool]:
    return lambda m: isinstance(m, TableMessage) and m.dice is not None and m.dice.state == state


def read_by_camera(m: EngineMessage) -> bool:
    return isinstance(m, GameEventsMessage) and m.source == "camera"


def shown(message: EngineMessage) -> DiceAnswer:
    assert isinstance(message, TableMessage) and message.dice is not None
    return message.dice


@pytest.fixture
def quick(context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> Iterator[Rig]:
    """Camera dice taken after a countdown too short to wait for."""
    r = make_rig(context, str(tmp_path / "journal.sqlite"), dice_mode="camera", dice_countdown_s=0.05)
    yield r
    close_rig(r)


@pytest.fixture
def patient(context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> Iterator[Rig]:
    """Camera dice shown for a minute: long enough for any command to come first."""
    r = make_rig(context, str(tmp_path / "journal.sqlite"), dice_mode="camera", dice_countdown_s=60.0)
    yield r
    close_rig(r)


def test_a_settled_roll_answers_the_prompt_after_the_countdown_marked_as_read_by_the_camera(quick: Rig) -> None:
    partial = shown(throw(quick, settled(1, 2), dice_shown("partial")))
    assert partial.values == (2, None) and partial.text == "Read: 2 –. Next: 1d6 for Goblins."
    played = throw(quick, settled(2, 5), read_by_camera)
    assert isinstance(played, GameEventsMessage) and played.action == "roll 2 5 @camera"
    rows = quick.journal_rows()
    assert [r.action for r in rows] == [Roll((2, 5), source="camera")] and rows[0].source == "camera"
    history = quick.game()["history"]
    assert history[0]["action"]["source"] == "camera" and "Goblins" in quick.game()["prompt"]["text"]


def test_a_doubtful_die_is_a_question_and_its_tapped_face_completes_the_roll(patient: Rig) -> None:
    question = shown(throw(patient, settled(1, 4, doubt=DieDoubt.COCKED), dice_shown("question")))
    assert question.values == (None, None) and question.missing == (0,)
    assert question.text == "I see one die I can't read (cocked): reroll it or tap its face."
    assert patient.act("dice", op="faces", tray="tray", roll=1, faces=[4])["taken"] is None
    proposal = shown(throw(patient, settled(2, 6), dice_shown("proposal")))
    assert proposal.values == (4, 6) and proposal.countdown_s == 60.0 and proposal.text == "Read: 4 6"
    assert proposal.remaining_s is not None and 0 < proposal.remaining_s <= 60.0
    assert patient.act("dice", op="take", tray="tray", roll=2)["taken"] == [4, 6]
    assert [r.action for r in patient.journal_rows()] == [Roll((4, 6), source="camera+tablet")]


def test_a_throw_that_does_not_fit_asks_and_takes_nothing(patient: Rig) -> None:
    both = shown(throw(patient, settled(1, 3, 5), dice_shown("question")))
    assert both.missing == () and both.values == (None, None) and "one throw at a time" in both.text
    refused = patient.tablet.request("dice", op="faces", tray="tray", roll=1, faces=[3])
    assert not refused.ok and "asks for no tapped face" in (refused.error or "")
    assert patient.journal_rows() == []


def test_a_settled_roll_is_taken_once_however_often_it_is_sent(quick: Rig) -> None:
    throw(quick, settled(1, 2), dice_shown("partial"))
    throw(quick, settled(2, 5), read_by_camera)
    for option in ("done", "goblin-1"):
        quick.act("action", action={"kind": "choose", "option": option})
    assert quick.game()["prompt"]["kind"] == "roll"  # goblin-1's movement: 1d6
    # The tray still holds roll 2 (5), sent again and again: only the next roll, 3, answers the new prompt.
    for _frame in range(20):
        throw(quick, settled(2, 5), lambda m: True)
    played = throw(quick, settled(3, 1), read_by_camera)
    assert isinstance(played, GameEventsMessage) and played.action == "roll 1 @camera"
    rolls = [r.action for r in quick.journal_rows() if isinstance(r.action, Roll)]
    assert rolls == [Roll((2, 5), source="camera"), Roll((1,), source="camera")]


def test_thats_wrong_drops_the_reading_and_typing_still_answers(patient: Rig) -> None:
    throw(patient, settled(1, 2), dice_shown("partial"))
    throw(patient, settled(2, 5), dice_shown("proposal"))
    assert patient.act("dice", op="wrong", tray="tray", roll=2)["taken"] is None
    cleared = throw(patient, settled(2, 5), lambda m: isinstance(m, TableMessage) and m.dice is None)
    assert isinstance(cleared, TableMessage) and cleared.dice_mode == "camera"
    late = patient.tablet.request("dice", op="take", tray="tray", roll=2)
    assert not late.ok and "no longer shown" in (late.error or "")
    patient.act("action", action={"kind": "roll", "values": [6, 1], "source": "camera"})
    assert [r.action for r in patient.journal_rows()] == [Roll((6, 1))]  # typed: only the engine marks camera reads


def test_in_tablet_mode_the_tray_answers_nothing_until_the_table_switches_to_the_camera(rig: Rig) -> None:
    heard = throw(rig, settled(1, 3), lambda m: isinstance(m, TableMessage) and m.cameras[0].last_seen_age_s
                  is not None)  # the engine heard the camera: it has had roll 1
    assert isinstance(heard, TableMessage) and heard.dice is None and heard.dice_mode == "tablet"
    assert rig.act("dice", op="mode", mode="camera")["mode"] == "camera"
    partial = shown(throw(rig, settled(1, 3), dice_shown("partial"), then=settled(2, 6)))
    assert partial.values == (6, None)  # roll 1 lay in the tray before: never taken


def test_a_question_is_replaced_when_the_same_roll_settles_again_readable(patient: Rig) -> None:
    throw(patient, settled(1, 2), dice_shown("partial"))
    question = shown(throw(patient, settled(2, 4, doubt=DieDoubt.COCKED), dice_shown("question")))
    assert question.roll == 2 and question.missing == (1,)
    proposal = shown(throw(patient, settled(2, 3), dice_shown("proposal")))  # the cocked die fell flat
    assert (proposal.roll, proposal.values, proposal.text) == (2, (2, 3), "Read: 2 3")
    assert patient.act("dice", op="take", tray="tray", roll=2)["taken"] == [2, 3]
