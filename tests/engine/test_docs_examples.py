"""The annotated scenario in docs/scenario-format.md loads as documented."""

import re
from pathlib import Path

from engine.hexes import from_label
from engine.scenario import load_scenario_text

DOC = Path(__file__).resolve().parents[2] / "docs" / "scenario-format.md"


def test_the_documented_example_loads() -> None:
    text = DOC.read_text(encoding="utf-8")
    example = re.search(r"```toml\n(.*?)```", text, re.S)
    assert example, "the annotated example is missing from docs/scenario-format.md"
    s = load_scenario_text(example.group(1), str(DOC))
    assert s.name == "The Goblins' Treasure"
    assert s.board.level(from_label("E1")) == 1
    assert [p.name for p in s.players] == ["Alice", "Bob"]
    assert s.figure("knight").abilities == ("Shield wall",)
    assert {v.type for v in s.victory} == {"bring", "destroy"}
