"""CURVE: with keys from 'hexa keys', an unauthenticated tablet gets nothing (and is logged); an allowed one works."""

from __future__ import annotations

import contextlib
import logging
import time
from pathlib import Path

import pytest
import zmq
import zmq.auth

from engine import wire
from engine.service.client import EngineClient
from engine.service.keys import main as keys_main
from engine.service.security import ClientKeys, load_client_keys
from tests.service.conftest import close_rig, make_rig
from tests.waiting import WAIT_S


def test_hexa_keys_makes_server_client_and_allowed_keys_and_refuses_to_overwrite(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    assert keys_main(["--dir", str(keys), "--client", "red", "--client", "blue"]) == 0
    assert (keys / "server.key").exists() and (keys / "server.key_secret").exists()
    assert sorted(p.name for p in (keys / "authorized").iterdir()) == ["blue.key", "engine.key", "red.key"]
    assert (keys / "clients" / "red.key_secret").stat().st_mode & 0o077 == 0
    assert keys_main(["--dir", str(keys)]) == 2  # the tablets already hold keys for this server
    assert keys_main(["--dir", str(keys), "--add-client", "green"]) == 0
    assert load_client_keys(keys, "green").server_public == zmq.auth.load_certificate(str(keys / "server.key"))[0]


def test_unauthenticated_clients_get_nothing_and_an_allowed_tablet_works(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    keys = tmp_path / "keys"
    assert keys_main(["--dir", str(keys)]) == 0
    _, stranger_secret = zmq.auth.create_certificates(str(tmp_path), "stranger")
    caplog.set_level(logging.WARNING, logger="engine.service.security")
    rig = make_rig(context, str(tmp_path / "journal.sqlite"), keys_dir=keys)
    try:
        plain = EngineClient(rig.server.pub_endpoint, rig.server.commands_endpoint, context)
        server_public = load_client_keys(keys).server_public
        pub, sec = zmq.auth.load_certificate(stranger_secret)
        assert sec is not None
        stranger = EngineClient(rig.server.pub_endpoint, rig.server.commands_endpoint, context,
                                keys=ClientKeys(pub, sec, server_public))
        allowed = EngineClient(rig.server.pub_endpoint, rig.server.commands_endpoint, context,
                               keys=load_client_keys(keys))
        try:
            reply = allowed.sync()
            assert reply.ok and allowed.scenario is not None and allowed.scenario["id"] == "tutorial"
            assert allowed.wait_for(wire.TOPIC_ENGINE_HEARTBEAT, WAIT_S) is not None
            for client in (plain, stranger):
                with contextlib.suppress(TimeoutError):  # no connection takes it once the handshake failed
                    client.send_raw([wire.encode_request("snapshot", 1)])
            for _ in range(2):  # two heartbeats reach the allowed tablet meanwhile
                allowed.wait_for(wire.TOPIC_ENGINE_HEARTBEAT, WAIT_S)
            for client in (plain, stranger):
                assert not client.dealer.poll(0, zmq.POLLIN) and client.poll(0.01) is None
        finally:
            for client in (plain, stranger, allowed):
                client.close()
    finally:
        close_rig(rig)
    assert any("refused a client without valid CURVE keys" in r.getMessage() for r in caplog.records)


def test_a_client_retrying_with_a_wrong_key_does_not_flood_the_log(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    keys, other_keys = tmp_path / "keys", tmp_path / "other-keys"
    assert keys_main(["--dir", str(keys)]) == 0
    assert keys_main(["--dir", str(other_keys)]) == 0  # a tablet set up for another table
    caplog.set_level(logging.WARNING, logger="engine.service.security")
    rig = make_rig(context, str(tmp_path / "journal.sqlite"), keys_dir=keys)
    assert rig.server.curve is not None
    stranger = EngineClient(rig.server.pub_endpoint, rig.server.commands_endpoint, context,
                            keys=load_client_keys(other_keys))
    try:
        deadline = time.monotonic() + 10.0
        while rig.server.curve.refused < 10 and time.monotonic() < deadline:
            stranger.poll(0.05)  # it reconnects and is refused again every 100 ms
        assert rig.server.curve.refused >= 10
    finally:
        stranger.close()
        close_rig(rig)
    lines = [r.getMessage() for r in caplog.records if "refused a client without valid CURVE keys" in r.getMessage()]
    assert 1 <= len(lines) <= 2, lines  # one per socket (publisher, commands) until the next report is due


def test_a_tablet_holding_the_engines_own_client_key_is_refused(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    keys = tmp_path / "keys"
    assert keys_main(["--dir", str(keys)]) == 0  # clients/engine.key_secret: the engine's, for its camera services
    caplog.set_level(logging.WARNING, logger="engine.service.security")
    rig = make_rig(context, str(tmp_path / "journal.sqlite"), keys_dir=keys)
    assert rig.server.curve is not None
    impostor = EngineClient(rig.server.pub_endpoint, rig.server.commands_endpoint, context,
                            keys=load_client_keys(keys, "engine"))
    allowed = EngineClient(rig.server.pub_endpoint, rig.server.commands_endpoint, context, keys=load_client_keys(keys))
    try:
        assert allowed.sync(WAIT_S).ok
        deadline = time.monotonic() + WAIT_S
        while rig.server.curve.refused == 0 and time.monotonic() < deadline:  # the impostor's handshakes
            allowed.poll(0.05)
        assert rig.server.curve.refused > 0
        with contextlib.suppress(TimeoutError):  # no connection takes it once the handshake failed
            impostor.send_raw([wire.encode_request("snapshot", 1)])
        for _ in range(2):  # two heartbeats reach the allowed tablet meanwhile
            allowed.wait_for(wire.TOPIC_ENGINE_HEARTBEAT, WAIT_S)
        assert not impostor.dealer.poll(0, zmq.POLLIN) and impostor.poll(0.01) is None
    finally:
        impostor.close()
        allowed.close()
        close_rig(rig)
    assert any("the engine's own, not a tablet's" in r.getMessage() for r in caplog.records)
