"""Scenario files: the bundled ones load and play; bad files name the file, the line and the fix."""

from pathlib import Path

import pytest

from engine.errors import ScenarioError
from engine.game import Game
from engine.hexes import from_label
from engine.rules.base import RuleSet
from engine.rules.fantasy_battle.scenario_fields import kind_of
from engine.scenario import bundled_scenarios, load_scenario, load_scenario_text

GOOD = """
[scenario]
name = "Two Knights"
ruleset = "fantasy-battle"

[map]
drawing = '''
.   .   .
  .   .
.   .   .
'''
walls = ["A1|B1"]

[[sides]]
id = "red"
[[sides]]
id = "blue"

[[figures]]
name = "Red Knight"
marker = 1
side = "red"
at = "A1"

[[figures]]
name = "Blue Knight"
marker = 2
side = "blue"
at = "E2"
"""


def test_bundled_scenarios_load_with_balanced_points() -> None:
    names = set(bundled_scenarios())
    assert {"tutorial", "goblins-treasure", "captured-princess"} <= names
    for name in names:
        scenario = load_scenario(name)
        game = Game(scenario)
        if type(game.rules).points is RuleSet.points:
            continue  # a rule set that counts no points has none to balance (Filtwiz, Lost Worlds)
        points = game.points()
        if not points:  # a rule set that counts no points (Tenkey battle, Laramie)
            continue
        assert len(set(points.values())) == 1, f"{name}: sides differ in points {points}"


def test_goblins_treasure_uses_doors_a_locked_door_low_obstacles_archers_and_a_wizard() -> None:
    s = load_scenario("goblins-treasure")
    kinds = {e.value for e in s.board.edges.values()}
    assert {"wall", "door", "locked"} <= kinds
    assert any(s.board.info(h).terrain.value == "low" for h in s.board)
    assert {kind_of(f).value for f in s.figures} == {"fighter", "archer", "wizard"}
    assert s.board.hexes_with_token("treasure") == [from_label("L4")]
    assert s.figure_by_marker(3) is not None and s.figure_by_marker(3).name == "Mage"  # type: ignore[union-attr]
    assert set(s.anchors) == {90, 91, 92, 93}


def test_a_good_file_loads_with_defaults() -> None:
    s = load_scenario_text(GOOD, "two.toml")
    assert s.id == "two-knights"
    assert [f.id for f in s.figures] == ["red-knight", "blue-knight"]
    assert [p.name for p in s.players] == ["red", "blue"]
    assert [v.type for v in s.victory] == ["destroy", "destroy"]
    assert s.layout.across_flats_mm == pytest.approx(50.0)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("marker = 2", "marker = 1"), r"two.toml, line 27: marker ids repeat: 1 is used twice. Fix: make each one"),
        (('at = "E2"', 'at = "Z9"'), r"line 29: figure 'Blue Knight' starts at Z9, which is not on the map"),
        (('side = "blue"', 'side = "green"'), r"line 28: figure 'Blue Knight' is on side 'green'.*Fix: use one of"),
        (('ruleset = "fantasy-battle"', 'ruleset = "chess"'), r"line 4: rule set 'chess' is unknown.*fantasy-battle"),
        (
            ('walls = ["A1|B1"]', 'walls = ["A1|C3"]'),
            r"line 12: walls entry 'A1\|C3' joins hexes that are not neighbours",
        ),
        (
            ("  .   .\n", "  .   !\n"),
            r"line 8: the map drawing is wrong: unknown map symbol '!' at line 1, character 9",
        ),
        (('[[sides]]\nid = "blue"\n', ""), r"at least two \[\[sides\]\]"),
        (('name = "Two Knights"', "name = 3"), r"line 3: 'name' must be text in quotes, not 3"),
        (("[map]", "[map\n"), r"not valid TOML"),
    ],
)
def test_bad_files_name_the_file_the_line_and_the_fix(change: tuple[str, str], message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        load_scenario_text(GOOD.replace(*change), "two.toml")


def test_unknown_options_are_refused_with_the_known_ones() -> None:
    text = GOOD.replace("[map]", "[options]\nmagik = true\n\n[map]")
    with pytest.raises(
        ScenarioError, match=r"option 'magik' is not an option.*known options: \['doors_stay_open', 'magic'"
    ):
        load_scenario_text(text, "two.toml")


def test_missing_file_lists_bundled_scenarios(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"no such scenario file.*goblins-treasure"):
        load_scenario(tmp_path / "nope.toml")


def test_files_load_from_disk(tmp_path: Path) -> None:
    path = tmp_path / "two.toml"
    path.write_text(GOOD, encoding="utf-8")
    assert load_scenario(path).source == str(path)
