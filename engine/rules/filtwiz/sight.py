"""Line of sight (the original's "遮蔽に関する補足"), judged strictly by the core's exact line tracing.

The line runs from the centre of the user's hex to the centre of the target's. It is blocked when it
passes through a hex the GM declared an obstacle, even slightly; running along an edge or touching a
corner (the outer boundary only) is allowed, so the verdict is never "unclear"
(:func:`engine.lines.judge_sight_strict_interior`). Walls and closed doors it crosses block it too.
When the verdict is hard to call, the GM decides: a ``sight`` ruling overrides it.

Which sight a skill needs:
- a skill aimed at a character needs sight of that character;
- an area centred on a chosen hex needs sight of that hex only (not of everyone inside);
- a fan needs sight of each target inside it;
- a skill centred on the user that affects everyone in it reaches unseen targets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.board import HexBoard
from engine.hexes import Edge, Hex
from engine.lines import Sight, SightVerdict
from engine.sight_board import SightBoard

from . import terrain

SIGHT_RULING = "sight"  # a GM's verdict on one line: "sight:<from>:<to>" → clear | blocked


@dataclass
class SightJudge:
    """Sight on one board position (terrain with its marks, doors as they stand), with the GM's verdicts."""

    board: HexBoard
    doors: Mapping[Edge, str] = field(default_factory=dict)
    rulings: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._fast = SightBoard.from_predicates(
            self.board, lambda h: terrain.blocks_sight(self.board, h),
            lambda e: terrain.edge_blocks_sight(self.board, self.doors, e))

    def line(self, a: Hex, b: Hex) -> SightVerdict:
        """The geometric verdict on the line from ``a`` to ``b`` (CLEAR or BLOCKED, with the first blocker)."""
        return self._fast.judge_strict_interior(a, b)

    def ruled(self, a: Hex, b: Hex) -> str | None:
        """The GM's verdict on this line, either way round, or None."""
        for x, y in ((a, b), (b, a)):
            found = self.rulings.get(f"{SIGHT_RULING}:{self.board.label(x)}:{self.board.label(y)}")
            if found is not None:
                return found
        return None

    def sees(self, a: Hex, b: Hex) -> bool:
        """Whether a character on ``a`` sees hex ``b``: the GM's verdict when given, else the line's."""
        if a == b:
            return True
        ruled = self.ruled(a, b)
        if ruled is not None:
            return ruled == Sight.CLEAR.value
        return self.line(a, b).sight is Sight.CLEAR
