"""Race, the worked example of a rule set in a folder of its own (``HEXA_RULESETS=docs/examples/race``).

Importing the package registers the rule set by name; nothing outside this folder names it.
"""

from engine.rules import register

from .rules import Race

register(Race)

__all__ = ["Race"]
