"""``hexa app``: registered in the hexa command; bad options are refused with the fix, before any window opens."""

from __future__ import annotations

import pytest

from companion_app.cli import main
from engine.cli.main import SUBCOMMANDS


def test_hexa_app_is_registered() -> None:
    assert SUBCOMMANDS["app"][0] == "companion_app.cli:main"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--text-scale", "9"], "--text-scale must be between 0.7 and 2.5, got 9.0"),
        (["--size", "big"], "--size must look like 1280x800, got 'big'"),
    ],
)
def test_bad_options_say_what_to_give(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_bad_options_are_refused_in_japanese(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.i18n import speaking

    monkeypatch.setenv("HEXA_LANG", "en")  # --lang sets it for child processes: put back after the test
    with speaking("en"):  # and the language this process speaks
        assert main(["--text-scale", "9", "--lang", "ja"]) == 2
    assert "--text-scale は0.7から2.5の間で指定してください（指定：9.0）" in capsys.readouterr().err
