"""The annotated scenario in docs/scenario-format.md loads as documented."""

from engine.hexes import from_label
from engine.rules.fantasy_battle.scenario_fields import abilities
from engine.scenario import load_scenario_text
from tests.doc_blocks import DOCS, fenced_blocks

DOC = DOCS / "scenario-format.md"


def test_the_documented_example_loads() -> None:
    examples = fenced_blocks(DOC, "toml")
    assert examples, "the annotated example is missing from docs/scenario-format.md"
    s = load_scenario_text(examples[0].text, str(DOC))
    assert s.name == "The Goblins' Treasure"
    assert s.board.level(from_label("E1")) == 1
    assert [p.name for p in s.players] == ["Alice", "Bob"]
    assert abilities(s.figure("knight")) == ("Shield wall",)
    assert {v.type for v in s.victory} == {"bring", "destroy"}


def test_every_toml_block_of_the_scenario_doc_is_valid_toml() -> None:
    import tomllib

    for block in fenced_blocks(DOC, "toml"):
        tomllib.loads(block.text)
