"""Race's walk-through and the contributor guide quote its code as it is, and its errors as the loader words them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.errors import ScenarioError
from tests.doc_blocks import DOCS, fenced_blocks
from tests.race.conftest import RACE_FOLDER, load_race_text, race_text

README = RACE_FOLDER / "README.md"
CONTRIBUTING = DOCS / "contributing.md"


@pytest.mark.parametrize("doc", [README, CONTRIBUTING], ids=["README", "contributing"])
def test_every_quoted_line_of_race_is_in_its_code(doc: Path) -> None:
    code = "\n".join(p.read_text(encoding="utf-8") for p in sorted(RACE_FOLDER.glob("*.py")))
    lines = {line.strip() for line in code.splitlines()}
    blocks = fenced_blocks(doc, "python")
    assert blocks
    for block in blocks:
        for line in block.text.splitlines():
            quoted = line.strip()
            if not quoted or "..." in quoted or quoted in lines:
                continue
            # A guide may join a declaration onto one line: each piece of it must still be Race's own.
            for piece in re.split(r"(?<=[(,])\s+|\s+(?=\))", quoted):
                assert piece.strip(",") in code, f"{doc.name} {block.where}: {piece!r} of {quoted!r} is not Race's"


@pytest.mark.usefixtures("race_loaded")
def test_the_readmes_error_lines_are_the_loaders() -> None:
    text = README.read_text(encoding="utf-8")
    cases = {
        "line 47: 'stride' is 5": {"stride = 1": "stride = 5"},
        "line 72: 'exits' names Q9": {'exits = ["M1", "M3", "M5"]': 'exits = ["M1", "Q9"]'},
        "line 46: runner 'Dash' starts at E1": {'at = "A1"': 'at = "E1"'},
    }
    for start, change in cases.items():
        with pytest.raises(ScenarioError) as refused:
            load_race_text(race_text(change))
        message = str(refused.value)
        assert message.startswith(f"race.toml, {start}") and message in text, message
