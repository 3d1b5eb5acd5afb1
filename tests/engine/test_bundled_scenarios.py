"""Bundled scenarios live in their rule set's folder (``scenarios/*.toml``) and are found through the registry:
the built-in rule sets', an installed wheel's, and a plug-in folder's from HEXA_RULESETS alike."""

from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from engine import rules
from engine.game import Game
from engine.rules.base import SCENARIO_FOLDER
from engine.scenario import bundled_scenarios, load_scenario

ROOT = Path(__file__).resolve().parents[2]
RACE_FOLDER = ROOT / "docs" / "examples" / "race"


@pytest.fixture()
def plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    yield monkeypatch
    monkeypatch.delenv(rules.FOLDERS_VARIABLE, raising=False)
    rules.reload_plugins()


def test_each_built_in_rule_set_bundles_its_scenarios_in_its_own_folder() -> None:
    built_in = rules.builtin_rulesets()
    assert len(built_in) >= 5
    bundled = bundled_scenarios()
    for cls in built_in:
        folder = resources.files(cls.package()) / SCENARIO_FOLDER  # as an installed wheel is read
        files = {item.name.removesuffix(".toml") for item in folder.iterdir() if item.name.endswith(".toml")}
        assert files, f"{cls.name} bundles no scenario in {cls.package()}/{SCENARIO_FOLDER}/"
        for sid in files:
            assert load_scenario(sid).ruleset == cls.name  # a rule set's folder holds its own scenarios
        assert files <= set(bundled)
    assert not (ROOT / "engine" / "scenarios").exists()  # no hand-kept folder of the core's


def test_the_wheel_ships_every_bundled_scenario() -> None:
    """pyproject's package data covers each rule set's scenarios/*.toml, in a package the wheel includes."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    included = setuptools["packages"]["find"]["include"]
    patterns = [p for key, globs in setuptools["package-data"].items() if key in ("*", "engine") for p in globs]
    for cls in rules.builtin_rulesets():
        package = cls.package()
        assert any(fnmatch.fnmatch(package, pattern) for pattern in included), package
        folder = ROOT.joinpath(*package.split("."))
        assert (folder / "__init__.py").is_file()
        for path in (folder / SCENARIO_FOLDER).glob("*.toml"):
            relative = path.relative_to(folder).as_posix()
            assert any(fnmatch.fnmatch(relative, p) and "/" in p for p in patterns), \
                f"{package}: {relative} is not in the wheel's package data ({patterns})"


def test_a_plugin_folder_bundles_its_scenario(plugins: pytest.MonkeyPatch, tmp_path: Path) -> None:
    folder = tmp_path / "race_copy"
    shutil.copytree(RACE_FOLDER, folder)
    assert "race" not in bundled_scenarios()
    plugins.setenv(rules.FOLDERS_VARIABLE, str(folder))
    rules.reload_plugins()
    assert "race" in bundled_scenarios()
    game = Game(load_scenario("race"))  # by its id, as `hexa play race` and `hexa engine --scenario race` do
    assert game.scenario.ruleset == "race" and game.scenario.name == "Race to the Gate"


def test_hexa_play_finds_a_plugins_bundled_scenario_by_id(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), rules.FOLDERS_VARIABLE: str(RACE_FOLDER)}
    done = subprocess.run([sys.executable, "-m", "engine", "play", "race", "--auto", "--seed", "1"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert "New game #1: Race to the Gate" in done.stdout and "Winner: " in done.stdout
