"""The zone test rule set (:mod:`tests.engine.zone_rules`) as a folder for ``HEXA_RULESETS``, with a scenario.

Processes started apart from the tests (``hexa demo``, ``hexa vision --synthetic``, ``hexa engine``) load
the rule set through ``HEXA_RULESETS=tests/rulesets/zones`` from the repository's root. ``keypad.toml``
plays on the printed keypad mat and names no anchors: the mat's own corner tags register the table.
"""

from __future__ import annotations

from pathlib import Path

from tests.engine.zone_rules import ZoneSteps

SCENARIO = Path(__file__).with_name("keypad.toml")

__all__ = ["SCENARIO", "ZoneSteps"]
