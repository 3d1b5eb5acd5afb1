"""Race's texts come in both languages from its own catalogue, which the catalogue tool keeps whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import i18n, i18n_catalogues
from engine.game import Game
from engine.hexes import Hex
from engine.i18n import catalogue_file
from engine.texts import declared_text
from tests.race.conftest import RACE_FOLDER


def test_races_catalogue_translates_every_text(tmp_path: Path) -> None:
    assert catalogue_file(RACE_FOLDER, "ja").is_file()
    assert i18n_catalogues.untranslated(tmp_path, [RACE_FOLDER]) == []  # only Race's folder: no product package


def test_race_speaks_japanese(game: Game) -> None:
    runner = sorted(game.state.figures)[0]
    far = Hex(99, 99)
    label = game.scenario.label(far)
    assert game.rules.why_not(game.state, runner, far) == f"{label} is not on the course"
    with i18n.speaking("ja"):
        assert game.rules.why_not(game.state, runner, far) == f"{label}はコース上にない"
        assert declared_text(type(game.rules), game.rules.title) == "レース（ルールセットの作例）"


@pytest.mark.usefixtures("race_loaded")
def test_a_race_scenario_error_reads_in_japanese() -> None:
    from engine.errors import ScenarioError
    from tests.race.conftest import load_race_text, race_text

    with i18n.speaking("ja"), pytest.raises(ScenarioError) as refused:
        load_race_text(race_text({'at = "A1"': 'at = "E1"'}))
    assert "ランナー'Dash'の開始位置E1は" in str(refused.value)


def test_races_catalogue_holds_exactly_the_texts_of_its_code(tmp_path: Path) -> None:
    from babel.messages.pofile import read_po

    folder = RACE_FOLDER.resolve()
    roots = i18n_catalogues.catalogue_roots(tmp_path, [folder])
    in_code = {m.id if isinstance(m.id, str) else m.id[0] for m in i18n_catalogues.extract(folder, roots) if m.id}
    with catalogue_file(folder, "ja").open("rb") as f:
        in_po = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    assert in_code == in_po, "run: python -m engine.i18n_catalogues update docs/examples/race"
    assert len(in_code) > 20
