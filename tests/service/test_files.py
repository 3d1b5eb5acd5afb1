"""What a tablet may name: bundled scenarios or the engine's scenario folder by name, plain file names to save.
Nothing it names makes the engine block, read without limit, or tell what else is on the disk."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import zmq

from engine.scenario import bundled_scenarios
from engine.service.client import EngineClient
from engine.service.files import MAX_SCENARIO_BYTES
from engine.service.server import ServerConfig
from tests.service.conftest import ANY_PORT, Rig, serve_engine

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")


def _refused(rig: Rig, cmd: str, **fields: object) -> str:
    reply = rig.tablet.request(cmd, timeout_s=5.0, **fields)
    assert not reply.ok and reply.error, reply
    assert "internal error" not in reply.error
    return reply.error


def test_new_game_takes_names_not_paths_and_says_nothing_about_other_files(rig: Rig, tmp_path: Path) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text(bundled_scenarios()["tutorial"])
    exists = _refused(rig, "new_game", scenario=str(secret))
    missing = _refused(rig, "new_game", scenario=str(tmp_path / "missing.toml"))
    assert exists.replace("secret", "missing") == missing, "the answer tells whether a file exists"
    assert "no scenario named" in exists and "tutorial" in exists
    for name in ("/etc/passwd", "../tutorial", "/dev/zero"):
        assert "no scenario named" in _refused(rig, "new_game", scenario=name)
    assert rig.act("new_game", scenario="goblins-treasure")["game_id"] > 1


@needs_fifo
def test_new_game_with_a_fifo_path_does_not_block(rig: Rig, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.toml")
    assert "no scenario named" in _refused(rig, "new_game", scenario=str(tmp_path / "pipe.toml"))
    assert rig.tablet.request("snapshot").ok


@pytest.fixture
def folder_rig(context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> Iterator[Rig]:
    """An engine started with a scenario file, so tablets may also start the other files of its folder."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "start.toml").write_text(bundled_scenarios()["tutorial"])
    config = ServerConfig(pub=ANY_PORT, commands=ANY_PORT)
    session, server, thread = serve_engine(context, str(tmp_path / "journal.sqlite"), str(folder / "start.toml"),
                                           config)
    tablet = EngineClient(server.pub_endpoint, server.commands_endpoint, context)
    tablet.sync()
    yield Rig(context, server, session, thread, [], tablet)
    server.stop()
    thread.join(5.0)
    tablet.close()
    assert not thread.is_alive(), "the engine loop did not stop"


def test_new_game_from_the_scenario_folder_by_name(folder_rig: Rig, tmp_path: Path) -> None:
    folder = tmp_path / "scenarios"
    text = bundled_scenarios()["goblins-treasure"]
    (folder / "my-map.toml").write_text(text)
    assert folder_rig.act("new_game", scenario="my-map")["game_id"] > 1
    assert folder_rig.act("snapshot")["scenario"]["id"] == "goblins-treasure"
    assert folder_rig.act("new_game", scenario="tutorial")["game_id"] > 2  # bundled ones stay available
    (folder / "huge.toml").write_text(text + "#" * MAX_SCENARIO_BYTES)
    assert "larger than" in _refused(folder_rig, "new_game", scenario="huge")
    (folder / "link.toml").symlink_to(tmp_path / "elsewhere.toml")
    assert "not a link" in _refused(folder_rig, "new_game", scenario="link")
    listed = _refused(folder_rig, "new_game", scenario="nothing-here")
    assert "my-map" in listed and "tutorial" in listed and str(tmp_path) not in listed


@needs_fifo
def test_a_fifo_in_the_scenario_folder_is_refused_without_blocking(folder_rig: Rig, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "scenarios" / "pipe.toml")
    assert "not a regular file" in _refused(folder_rig, "new_game", scenario="pipe")
    assert folder_rig.tablet.request("snapshot").ok


def test_save_takes_a_plain_file_name_in_the_save_folder(rig: Rig, tmp_path: Path) -> None:
    assert rig.act("save", path="game 1.txt")["path"] == "game 1.txt"
    assert (tmp_path / "game 1.txt").read_text().startswith("#")
    for name in ("records/a.txt", "../a.txt", str(tmp_path / "a.txt"), ".hidden"):
        assert "not a plain file name" in _refused(rig, "save", path=name)
    assert "control character" in _refused(rig, "save", path="a\0b.txt")
    assert not (tmp_path / "records").exists()


@needs_fifo
def test_save_onto_a_fifo_is_refused_without_blocking(rig: Rig, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.txt")
    assert "pick another file name" in _refused(rig, "save", path="pipe.txt")
    assert rig.tablet.request("snapshot").ok


def test_out_of_range_names_and_ids_get_clear_refusals(rig: Rig) -> None:
    assert "must be at most" in _refused(rig, "load", game_id=2**63)
    assert "too long" in _refused(rig, "new_game", scenario="x" * 5000)
    assert "too long" in _refused(rig, "save", path="x" * 5000)
    rig.tablet.send_raw([b'{"cmd": "load", "game_id": ' + b"9" * 5000 + b"}"])
    reply = rig.tablet.wait_reply(None, 5.0)
    assert not reply.ok and "too many digits" in (reply.error or "")
    assert rig.tablet.request("snapshot").ok
