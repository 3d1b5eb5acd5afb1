"""Scenario files held to their declared tables: misspelt keys, absurd numbers, oversized maps, bad ids."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import ScenarioError
from engine.game import Game
from engine.scenario import bundled_scenarios, load_scenario_text
from engine.scenario_schema import MARKER_ID_COUNT, MAX_MAP_HEXES, SIDE_COLOURS
from engine.snapshot import game_snapshot, scenario_to_dict
from engine.wire import MAX_MESSAGE_BYTES, GameScenarioMessage, GameStateMessage

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
anchors = { 90 = "C1" }

[[sides]]
id = "red"
colour = "red"
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
kind = "archer"
at = "E2"

[[victory]]
side = "red"
type = "kill"
figures = ["blue-knight"]
"""


def load(text: str) -> None:
    load_scenario_text(text, "two.toml")


def test_the_base_file_loads() -> None:
    s = load_scenario_text(GOOD, "two.toml")
    assert [v.type for v in s.victory] == ["kill"] and s.anchors


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # misspelt keys and tables: the line and the closest known name
        (('kind = "archer"', 'kidn = "archer"'), r"line 30: key 'kidn' is not a key of \[\[figures\]\].*"
                                                 r"Fix: did you mean 'kind'\? If not, remove it"),
        (("[[victory]]", "[[victroy]]"), r"line 33: \[\[victroy\]\] is not a table of a scenario file.*"
                                         r"Fix: did you mean \[\[victory\]\]\?"),
        (('ruleset = "fantasy-battle"', 'ruleset = "fantasy-battle"\nnmae = "x"'),
         r"line 5: key 'nmae' is not a key of \[scenario\]"),
        (("[map]", "[options]\nmagik = true\n\n[map]"),
         r"line 7: option 'magik' is not an option of .*Fantasy Battle.*did you mean 'magic'\?"),
        # colours: the allowed ones listed
        (('colour = "red"', 'colour = "rde"'),
         r"line 16: 'colour' 'rde' is not one of the allowed values\. Fix: did you mean 'red'\? Use one of: "
         + re.escape(", ".join(SIDE_COLOURS))),
        # non-finite and absurd numbers
        (('at = "A1"', 'at = "A1"\nheight_mm = nan'), r"line 25: 'height_mm' is nan, which is not a usable number"),
        (('at = "A1"', 'at = "A1"\nheight_mm = inf'), r"'height_mm' is inf"),
        (('at = "A1"', 'at = "A1"\nheight_mm = -5'), r"'height_mm' is -5, outside 0 to 500 mm"),
        (("[map]", "[map]\nhex_across_flats_mm = 1e300"), r"line 7: 'hex_across_flats_mm' is 1e\+300, outside 5 to"),
        (("[map]", "[map]\nrotation_deg = -inf"), r"'rotation_deg' is -inf"),
        (("[map]", "[map]\norigin_mm = [0, nan]"), r"'origin_mm' is nan"),
        (("[map]", "[map]\norigin_mm = [0]"), r"'origin_mm' has 1 entries, not 2"),
        # marker and anchor ids of the printed dictionary
        (("marker = 1", "marker = 9223372036854775807"), r"line 22: 'marker' is 9223372036854775807, outside 0 to 99"),
        (("marker = 1", "marker = -1"), r"'marker' is -1, outside 0 to 99"),
        (('90 = "C1"', '99999999999 = "C1"'), r"line 12: anchor tag id '99999999999' is not a tag id from 0 to 99"),
        (('90 = "C1"', '2 = "C1"'), r"line 12: anchor tag 2 is also the marker of figure 'Blue Knight'"),
        # table shapes and list items that used to raise TypeError
        (('figures = ["blue-knight"]', "figures = [{a = 1}]"), r"'figures' holds \{'a': 1\}, not text in quotes"),
        (('[[sides]]\nid = "red"', '[[sides]]\nid = "red"\nname = ["x"]'), r"'name' must be text in quotes"),
    ],
)
def test_bad_values_name_the_line_and_the_fix(change: tuple[str, str], message: str) -> None:
    assert change[0] in GOOD
    with pytest.raises(ScenarioError, match=message):
        load(GOOD.replace(*change, 1))


def test_tables_of_the_wrong_shape_are_refused() -> None:
    sides = '[[sides]]\nid = "red"\ncolour = "red"\n[[sides]]\nid = "blue"\n'
    with pytest.raises(ScenarioError, match=r"line 1: 'sides' must be \[\[sides\]\] tables"):
        load("sides = 3\n" + GOOD.replace(sides, ""))
    with pytest.raises(ScenarioError, match=r"line 6: 'map' must be one \[map\] table"):
        load(GOOD.replace("[map]", "[[map]]"))


def _drawing(columns: int, rows: int) -> str:
    top = "   ".join("." for _ in range(0, columns, 2))
    bottom = "  " + "   ".join("." for _ in range(1, columns, 2))
    return "\n".join(f"{top}\n{bottom}" for _ in range(rows))


def _big_map(columns: int, rows: int) -> str:
    start = GOOD.index("drawing = '''") + len("drawing = '''\n")
    end = GOOD.index("'''", start)
    return GOOD[:start] + _drawing(columns, rows) + "\n" + GOOD[end:]


def test_a_map_too_large_for_the_messages_is_refused() -> None:
    with pytest.raises(ScenarioError, match=r"line 7: the map has 160,000 hexes; at most 5,000 fit"):
        load(_big_map(400, 400))


def test_the_largest_map_allowed_fits_in_one_message_with_the_longest_texts() -> None:
    columns = rows = int(MAX_MAP_HEXES**0.5)
    walls = ", ".join(f'"{c}{r}|{c}{r + 1}"' for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for r in range(1, rows))
    text = _big_map(columns, rows).replace('name = "Two Knights"', 'name = "Two Knights"\ndescription = "'
                                           + "d" * 10_000 + '"').replace("anchors =", f"walls = [{walls}]\nanchors =")
    scenario = load_scenario_text(text, "big.toml")
    assert len(scenario.board.tiles) > 0.9 * MAX_MAP_HEXES
    game = Game(scenario)
    for message in (GameScenarioMessage(1, 0.0, "run", 1, scenario_to_dict(scenario, game.points())),
                    GameStateMessage.whole(1, 0.0, "run", 1, 1, game_snapshot(game))):
        size = len(message.to_json())
        assert size < MAX_MESSAGE_BYTES / 2, f"{type(message).__name__}: {size} bytes"


def test_the_colours_are_the_ones_the_tablets_draw() -> None:
    from companion_app.viewmodels.palette import SIDE_COLOURS as DRAWN

    assert set(SIDE_COLOURS) == set(DRAWN)


def test_marker_ids_are_those_of_the_printed_dictionary() -> None:
    from calibration.anchor_tags import ANCHOR_IDS, FIGURE_DICTIONARY

    assert FIGURE_DICTIONARY.endswith(f"_{MARKER_ID_COUNT}")
    assert max(ANCHOR_IDS) < MARKER_ID_COUNT


# -- fuzzing: a mutated bundled scenario loads or gives a ScenarioError, never another exception -------------------
_BASE = bundled_scenarios()["goblins-treasure"]
_VALUES = st.sampled_from(
    ["nan", "inf", "-inf", "1e300", "-1", "0", "9223372036854775807", '"rde"', '""', "[]", "[1, 2]", "{}",
     '{a = 1}', "true", '"Z99"', '"A1|A1"', '"é"', "[[1]]", '["x"]', "1979-05-27", "3.5", '"A1"']
)


@st.composite
def _mutations(draw: st.DrawFn) -> str:
    lines = _BASE.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["value", "delete", "duplicate", "typo", "bytes"]))
        line = lines[i]
        if how == "value" and "=" in line:
            lines[i] = line.split("=", 1)[0] + "= " + draw(_VALUES)
        elif how == "delete":
            del lines[i]
        elif how == "duplicate":
            lines.insert(i, line)
        elif how == "typo" and line:
            j = draw(st.integers(0, len(line) - 1))
            lines[i] = line[:j] + draw(st.sampled_from(list("xq[]=\"'#.,{}0 "))) + line[j + 1:]
        elif how == "bytes":
            lines[i] = draw(st.text(max_size=20))
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations())
def test_mutated_scenarios_load_or_give_a_scenario_error(text: str) -> None:
    try:
        scenario = load_scenario_text(text, "fuzz.toml")
    except ScenarioError as exc:
        assert str(exc).startswith("fuzz.toml") and "Fix:" in str(exc)
        return
    assert Game(scenario).prompt.text  # a loaded scenario starts a game
