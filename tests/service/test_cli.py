"""hexa engine: clear refusals for bad options, before any socket is left open."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import zmq

from engine.cli.main import main as hexa


def test_lan_without_keys_is_refused_with_the_fix(capsys: pytest.CaptureFixture[str]) -> None:
    assert hexa(["engine", "--lan", "--scenario", "tutorial"]) == 2
    assert "hexa keys --dir KEYS" in capsys.readouterr().err


@pytest.mark.parametrize(("args", "expected"), [
    (["--scenario", "no-such-scenario"], "no such scenario file or bundled scenario"),
    (["--scenario", "tutorial", "--vision", "tcp://127.0.0.1:5555,nonsense"], "cannot connect to 'nonsense'"),
    (["--scenario", "tutorial", "--vision", "nowhere"], "give the vision endpoint as tcp://HOST:PORT"),
    (["--scenario", "tutorial", "--keys", "missing-keys"], "run 'hexa keys --dir missing-keys'"),
    (["--journal", "JOURNAL"], "no unfinished game to resume"),
])
def test_bad_options_exit_2_naming_the_problem(args: list[str], expected: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    args = [a.replace("JOURNAL", str(tmp_path / "j.sqlite")).replace("missing-keys", str(tmp_path / "missing-keys"))
            for a in args]
    expected = expected.replace("missing-keys", str(tmp_path / "missing-keys"))
    assert hexa(["engine", "--pub", "tcp://127.0.0.1:*", "--commands", "tcp://127.0.0.1:*", *args]) == 2
    assert expected in capsys.readouterr().err


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A TCP port some other program holds on every interface."""
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    holder = context.socket(zmq.PUB)
    holder.setsockopt(zmq.LINGER, 0)
    port = holder.bind_to_random_port("tcp://0.0.0.0")
    yield port
    holder.close(linger=0)
    context.term()


def test_a_network_bind_without_keys_is_refused_before_anything_is_written(
        busy_port: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "j.sqlite"
    # The port is taken, so an engine that tried to bind would fail for that reason instead of this one.
    assert hexa(["engine", "--scenario", "tutorial", "--journal", str(journal), "--pub", f"tcp://0.0.0.0:{busy_port}",
                 "--commands", "tcp://127.0.0.1:*"]) == 2
    err = capsys.readouterr().err
    assert f"--pub tcp://0.0.0.0:{busy_port}: serving the LAN needs CURVE authentication" in err
    assert "hexa keys --dir KEYS" in err and "tcp://127.0.0.1:PORT" in err
    assert not journal.exists()


@pytest.mark.parametrize("option", ["--pub", "--commands"])
def test_a_busy_port_writes_no_game_to_the_journal(option: str, busy_port: int, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "j.sqlite"
    endpoints = {"--pub": "tcp://127.0.0.1:*", "--commands": "tcp://127.0.0.1:*", option: f"tcp://127.0.0.1:{busy_port}"}
    assert hexa(["engine", "--scenario", "tutorial", "--journal", str(journal), "--new",
                 *[part for pair in endpoints.items() for part in pair]]) == 2
    assert "cannot bind" in capsys.readouterr().err
    assert not journal.exists()
