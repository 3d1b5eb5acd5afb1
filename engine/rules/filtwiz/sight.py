"""Line of sight (the original's "遮蔽に関する補足"), judged strictly by the core's exact line tracing.

The line runs from the centre of the user's hex to the centre of the target's. It is blocked when it
passes through a hex the GM declared an obstacle, even slightly; running along an edge or touching a
corner (the outer boundary only) is allowed, so the verdict is never "unclear"
(:func:`engine.lines.judge_sight_strict_interior`). Walls and closed doors it crosses block it too.
When the verdict is hard to call, the GM decides: a ``sight`` ruling overrides it. A clear line that
touches a blocking hex's boundary is the one hard to call (third reading): :meth:`SightJudge.touched`
names those hexes, the tablets draw them, and the turn asks the GM to rule on such a line
(「判断が難しい場合は最終的にＧＭが決定します」).

Which sight a skill needs:
- a skill aimed at a character needs sight of that character;
- an area centred on a chosen hex needs sight of that hex only (not of everyone inside);
- a fan needs sight of each target inside it;
- a skill centred on the user that affects everyone in it reaches unseen targets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.board.hex import HexBoard
from engine.hexes import Edge, Hex
from engine.lines import Sight, SightVerdict, sight_line
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

    def touched(self, a: Hex, b: Hex) -> tuple[Hex, ...]:
        """The blocking hexes the line from ``a`` to ``b`` only touches on their outer boundary (an edge or a
        corner), nearest ``a`` first; empty when it touches none (or passes through one: then it is blocked)."""
        if a == b or self.line(a, b).sight is not Sight.CLEAR:
            return ()
        grazed = (h for h in sight_line(a, b).grazed_hexes if terrain.blocks_sight(self.board, h))
        return tuple(sorted(grazed, key=lambda h: (a.distance(h), h)))

    def ruling_key(self, a: Hex, b: Hex) -> str:
        """The key of the GM's verdict on the line from ``a`` to ``b`` (``sight:<from>:<to>``)."""
        return f"{SIGHT_RULING}:{self.board.label(a)}:{self.board.label(b)}"

    def ruled(self, a: Hex, b: Hex) -> str | None:
        """The GM's verdict on this line, either way round, or None."""
        for x, y in ((a, b), (b, a)):
            found = self.rulings.get(self.ruling_key(x, y))
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
