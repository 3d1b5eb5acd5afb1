"""hexa keys: private files, plain client names, no silent replacement, nothing half-made after a failure."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
import zmq.auth

from engine.service.keys import main as keys_main
from engine.service.security import load_client_keys


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """Files and folders come out world-readable unless the program says otherwise."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def public_key(path: Path) -> bytes:
    return zmq.auth.load_certificate(str(path))[0]


def test_the_keys_folder_and_every_secret_key_are_private(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    assert keys_main(["--dir", str(keys), "--client", "red"]) == 0
    assert keys_main(["--dir", str(keys), "--add-client", "blue"]) == 0
    secrets = list(keys.rglob("*.key_secret"))
    assert sorted(p.name for p in secrets) == ["blue.key_secret", "engine.key_secret", "red.key_secret",
                                               "server.key_secret"]
    assert {p.name: mode(p) for p in secrets} == {p.name: 0o600 for p in secrets}
    assert {p.name: mode(p) for p in (keys, keys / "clients", keys / "authorized")} == {
        "keys": 0o700, "clients": 0o700, "authorized": 0o700}
    assert [p.name for p in tmp_path.iterdir()] == ["keys"]  # no staging folder left behind


def test_adding_a_client_to_an_older_world_readable_folder_makes_it_private(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    assert keys_main(["--dir", str(keys)]) == 0
    for path in (keys, keys / "clients"):
        path.chmod(0o755)
    (keys / "server.key_secret").chmod(0o644)
    assert keys_main(["--dir", str(keys), "--add-client", "blue"]) == 0
    assert mode(keys) == 0o700 and mode(keys / "clients") == 0o700 and mode(keys / "server.key_secret") == 0o600


def test_an_existing_client_is_replaced_only_with_replace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys = tmp_path / "keys"
    assert keys_main(["--dir", str(keys), "--client", "kitchen"]) == 0
    before = load_client_keys(keys, "kitchen").public
    capsys.readouterr()
    assert keys_main(["--dir", str(keys), "--add-client", "kitchen"]) == 2
    err = capsys.readouterr().err
    assert "--add-client kitchen: kitchen already has a key" in err and "--replace" in err
    assert load_client_keys(keys, "kitchen").public == before  # that tablet still gets in
    assert keys_main(["--dir", str(keys), "--add-client", "kitchen", "--replace"]) == 0
    after = load_client_keys(keys, "kitchen").public
    assert after != before and public_key(keys / "authorized" / "kitchen.key") == after


@pytest.mark.parametrize("name", ["../evil", "a/b", ".hidden", "", "x" * 65, "tab let"])
def test_client_names_are_plain_names_and_a_refused_run_makes_nothing(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys = tmp_path / "keys"
    assert keys_main(["--dir", str(keys), "--client", name]) == 2
    assert "a client name is a plain name" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    assert keys_main(["--dir", str(keys), "--client", "kitchen"]) == 0  # nothing blocks the rerun
    made = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert keys_main(["--dir", str(keys), "--add-client", name]) == 2
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == made


def test_a_run_failing_half_way_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    keys = tmp_path / "keys"
    real = zmq.auth.create_certificates
    calls: list[str] = []

    def failing(folder: str, name: str) -> tuple[str, str]:
        calls.append(name)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(folder, name)

    monkeypatch.setattr(zmq.auth, "create_certificates", failing)
    assert keys_main(["--dir", str(keys), "--client", "red", "--client", "blue"]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(zmq.auth, "create_certificates", real)
    assert keys_main(["--dir", str(keys), "--client", "red", "--client", "blue"]) == 0


def test_force_replaces_every_key_and_no_old_client_stays_allowed(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    assert keys_main(["--dir", str(keys), "--client", "old-tablet"]) == 0
    old_server = public_key(keys / "server.key")
    assert keys_main(["--dir", str(keys), "--client", "new-tablet", "--force"]) == 0
    assert public_key(keys / "server.key") != old_server
    assert sorted(p.name for p in (keys / "authorized").iterdir()) == ["engine.key", "new-tablet.key"]
    assert not (keys / "clients" / "old-tablet.key_secret").exists()
    assert mode(keys) == 0o700 and mode(keys / "server.key_secret") == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["keys"]
