"""The hexa command: lists its subcommands, refuses unknown ones with the list, loads each lazily."""

import importlib

import pytest

from engine.cli.main import SUBCOMMANDS, main


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in SUBCOMMANDS)


def test_an_unknown_command_is_refused_with_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["paly"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'paly'" in err and "play" in err


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_subcommand_points_at_a_real_function(name: str) -> None:
    module, func = SUBCOMMANDS[name][0].split(":")
    assert callable(getattr(importlib.import_module(module), func))
