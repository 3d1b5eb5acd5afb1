"""A command counts once: a request that changes the game, resent with the same ``id`` (a client whose reply timed
out), gets the first answer again and is not carried out again, also after the engine restarted; another client's
request with the same ``id`` is its own. Real sockets; the restart case with CURVE keys, which name the client."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import zmq

from engine.actions import Choose, Roll
from engine.errors import IllegalActionError
from engine.journal import Journal
from engine.scenario import load_scenario
from engine.service.answered import CLIENTS, PER_CLIENT, Answer, AnswerBook
from engine.service.client import EngineClient
from engine.service.security import load_client_keys
from engine.wire import EngineReply, EngineRequest
from tests.service.conftest import Rig, goblin_to_move
from tests.service.gm_table import engine_on, table_keys
from tests.waiting import WAIT_S


@pytest.fixture
def context() -> Iterator[zmq.Context[zmq.Socket[bytes]]]:
    ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    yield ctx
    ctx.term()


def send(tablet: EngineClient, cmd: str, request_id: str, **fields: Any) -> EngineReply:
    """One request with a chosen id, as a client resending it would send it."""
    tablet.send(cmd, request_id, **fields)
    return tablet.wait_reply(request_id, WAIT_S)


def own(reply: EngineReply) -> dict[str, Any]:
    """The command's own reply fields (``last_seq`` is the engine's newest message, whenever asked)."""
    return {key: value for key, value in reply.fields.items() if key != "last_seq"}


def played(tablet: EngineClient) -> list[str]:
    return [entry["text"] for entry in tablet.request("snapshot", WAIT_S).fields["game"]["history"]]


def test_three_undos_with_one_id_undo_one_action_and_a_resent_action_is_played_once(rig: Rig) -> None:
    goblin_to_move(rig)  # four actions
    before = played(rig.tablet)
    first = send(rig.tablet, "undo", "u1")
    assert first.ok and first.fields["undone"] == "roll 3"
    for _ in range(2):
        again = send(rig.tablet, "undo", "u1")
        assert again.ok and own(again) == own(first)  # the first answer, nothing undone again
    assert played(rig.tablet) == before[:-1]

    roll = {"kind": "roll", "values": [3]}
    answers = [send(rig.tablet, "action", "a1", action=roll) for _ in range(2)]
    assert answers[0].ok and own(answers[1]) == own(answers[0]) and answers[0].fields["n"] == 4
    assert played(rig.tablet) == before

    other = rig.client()  # another tablet's "u1" is its own request
    assert send(other, "undo", "u1").ok and played(rig.tablet) == before[:-1]
    other.close()
    changed = send(rig.tablet, "undo", "u1", comment="another request")  # the same id, other content: a new one
    assert changed.ok and changed.fields["undone"] == "choose goblin-1"


def test_a_request_resent_to_a_restarted_engine_is_answered_not_done_again(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> None:
    keys = table_keys(tmp_path, "tablet")
    engine = engine_on(context, tmp_path, scenario="tutorial", keys_dir=keys)
    try:
        tablet = engine.tablet(keys=load_client_keys(keys, "tablet"))
        first = send(tablet, "action", "order", action={"kind": "roll", "values": [2, 5]})
        assert first.ok and first.fields["n"] == 1
        assert send(tablet, "action", "done", action={"kind": "choose", "option": "done"}).ok
    finally:
        engine.stop()
    again = engine_on(context, tmp_path, scenario="tutorial", keys_dir=keys)  # the same journal
    try:
        tablet = again.tablet(keys=load_client_keys(keys, "tablet"))  # the same tablet: its key names it
        before = played(tablet)
        assert before == ["roll 2 5", "choose done"]
        resent = send(tablet, "action", "done", action={"kind": "choose", "option": "done"})
        assert resent.ok and resent.fields["n"] == 2 and played(tablet) == before
        assert own(send(tablet, "action", "order", action={"kind": "roll", "values": [2, 5]})) == own(first)
    finally:
        again.stop()


def test_the_answers_kept_are_bounded_per_client_and_in_clients_also_in_the_journal_file(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    book = AnswerBook(path)
    undo = [EngineRequest("undo", {}, f"u{i}") for i in range(PER_CLIENT + 3)]
    for request in undo:
        book.remember("key:tablet", request, Answer(True, None, {"undone": request.id}))
    for client in range(CLIENTS):  # as many other clients: the tablet, least recently heard, is forgotten first
        book.remember(f"route:{client}", undo[0], Answer(True, None, {}))
    assert book.recall("key:tablet", undo[-1]) is None and book.recall("route:0", undo[0]) is not None
    book.close()
    again = AnswerBook(path)
    assert again.recall("route:0", undo[0]) is not None and again.recall("key:tablet", undo[-1]) is None
    again.remember("key:tablet", undo[0], Answer(True, None, {}))
    for request in undo:
        again.remember("key:tablet", request, Answer(True, None, {"undone": request.id}))
    assert again.recall("key:tablet", undo[2]) is None  # the oldest three of this client are forgotten
    kept = again.recall("key:tablet", undo[3])
    assert kept is not None and kept.fields == {"undone": "u3"}
    again.close()
    with closing(sqlite3.connect(path)) as conn:
        rows = conn.execute("SELECT COUNT(*) FROM service_answers WHERE client = 'key:tablet'").fetchone()[0]
        total = conn.execute("SELECT COUNT(*) FROM service_answers").fetchone()[0]
    assert rows == PER_CLIENT and total <= PER_CLIENT * CLIENTS


def test_a_request_is_marked_done_in_the_transaction_of_its_change_so_a_crash_before_its_answer_cannot_redo_it(
        tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    book = AnswerBook(path)
    game = journal.new_game(load_scenario("tutorial"))
    order = EngineRequest("action", {"action": {"kind": "roll", "values": [2, 5]}}, "order")
    done = book.done_row("key:tablet", order)
    assert done is not None
    journal.write_with_next_change(*done)
    game.apply(Roll((2, 5)))  # the engine stops here: its answer is never written
    refused = EngineRequest("action", {"action": {"kind": "roll", "values": [9]}}, "bad")
    held = book.done_row("key:tablet", refused)
    assert held is not None
    journal.write_with_next_change(*held)
    with pytest.raises(IllegalActionError):
        game.apply(Roll((9,)))  # refused in play, nothing written
    journal.drop_riders()  # what the service does after every command
    game.apply(Choose("done"))  # the next change carries nothing of the refused request
    book.close()
    journal.close()
    again = AnswerBook(path)  # the restarted engine
    assert again.recall("key:tablet", order) == Answer(True, None, {})  # done: answered, not carried out again
    assert again.recall("key:tablet", refused) is None
    again.close()
