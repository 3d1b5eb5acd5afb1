"""hexa engine: clear refusals for bad options, before any socket is left open."""

from __future__ import annotations

from pathlib import Path

import pytest

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
