"""Rule sets used only by the tests, each a folder loaded through ``HEXA_RULESETS`` (see :func:`skirmish`)."""

from __future__ import annotations

from pathlib import Path

SKIRMISH_FOLDER = Path(__file__).with_name("skirmish")
SKIRMISH_SCENARIO = SKIRMISH_FOLDER / "stacks.toml"
SKIRMISH_PICKS = SKIRMISH_FOLDER / "picks.toml"  # the same table with the option pick: choose prompts on stacks
ZONES_FOLDER = Path(__file__).with_name("zones")  # the zone test rule set (tests/engine/zone_rules.py)
ZONES_SCENARIO = ZONES_FOLDER / "keypad.toml"
