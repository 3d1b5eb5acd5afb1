"""Race, the worked example of docs/contributing.md, loaded as any outside rule set is: its folder in HEXA_RULESETS."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import rules
from engine.game import Game
from engine.scenario import Scenario, load_scenario, load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
RACE_FOLDER = ROOT / "docs" / "examples" / "race"
RACE_TOML = RACE_FOLDER / "scenarios" / "race.toml"


def race_env() -> dict[str, str]:
    """The environment a process needs to find Race: its folder named in HEXA_RULESETS."""
    return {rules.FOLDERS_VARIABLE: str(RACE_FOLDER)}


@pytest.fixture()
def race_loaded(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Race's folder named in the environment (for this process and the processes it starts), then forgotten."""
    monkeypatch.setenv(rules.FOLDERS_VARIABLE, str(RACE_FOLDER))
    rules.reload_plugins()
    yield
    monkeypatch.delenv(rules.FOLDERS_VARIABLE)
    rules.reload_plugins()


@pytest.fixture()
def scenario(race_loaded: None) -> Scenario:
    return load_scenario(RACE_TOML)


@pytest.fixture()
def game(scenario: Scenario) -> Game:
    return Game(scenario)


def race_text(replace: dict[str, str] | None = None) -> str:
    """race.toml with some of its lines replaced (to break it on purpose)."""
    text = RACE_TOML.read_text(encoding="utf-8")
    for old, new in (replace or {}).items():
        assert old in text, f"{old!r} is not in race.toml"
        text = text.replace(old, new, 1)
    return text


def load_race_text(text: str) -> Scenario:
    return load_scenario_text(text, "race.toml")
