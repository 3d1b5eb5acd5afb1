"""War cry (鼓咆): the zones a war leader's (軍師) call reaches, by its radius (the original's Q&A, third reading).

「Q:鼓咆の適用範囲はどうなりますか？」 — measured from the war leader's own zone:

- 6 m: its zone and the zones beside it (「『半径6m』 →軍師の横に隣接するマス。」);
- 10 m: its zone and every zone touching it (「『半径10m』→軍師が隣接するマス全て。」);
- 15 m: those and one more zone (「軍師が隣接するマスに加えて、更に1マス。」): the GM rules which, the 10 m
  zones offered first;
- 20 m and more: all nine (「『半径20m』→9マス全てに適用。これ以上の半径は9マス全てに適用としてください。」).

A radius between two rows of the table reaches as the row below it; under 6 m (below the table) the war leader's
own zone. The original recommends that a war leader's effects simply reach every zone whatever the radius
(「ウォーリーダー技能による効果は半径に問わず9マス全てに適用される、と処理するのが推奨です」): the scenario option
``war_cry_everywhere`` does that. Whom it reaches, and what it does, is the war leader's side in those zones and
its game's 鼓咆: the engine names them; the players apply the effect as their game says.
"""

from __future__ import annotations

from engine.board.zones.board import ZoneBoard
from engine.hexes import Hex

from .areas import Area, area, around, in_order

ROW_M = 6.0  # its zone and the horizontal neighbours
AROUND_M = 10.0  # its zone and every adjacent zone
ONE_MORE_M = 15.0  # the adjacent zones and one more: the GM's ruling
EVERY_ZONE_M = 20.0  # all nine


def war_cry(board: ZoneBoard, leader: Hex, radius_m: float, everywhere: bool = False) -> Area:
    """The zones a war cry of ``radius_m`` from the war leader's zone ``leader`` reaches (``gm_rules``: 15 m up to
    20 m where zones are left beyond the adjacent ones — ``zones`` is then the default the GM is offered)."""
    if radius_m < 0:
        raise ValueError(f"a radius is at least 0 m, got {radius_m!r}")
    if everywhere or radius_m >= EVERY_ZONE_M:
        return Area(leader, radius_m, in_order(*board))
    if radius_m >= AROUND_M:
        near = around(board, leader)
        return Area(leader, radius_m, near, gm_rules=radius_m >= ONE_MORE_M and len(near) < len(board))
    if radius_m >= ROW_M:
        return Area(leader, radius_m, area(board, leader, ROW_M).zones)  # as a 6 m area spell: the row of three
    return Area(leader, radius_m, (leader,))


def one_more(board: ZoneBoard, a: Area) -> list[tuple[Hex, tuple[Hex, ...]]]:
    """The GM's choices for "adjacent plus one more zone": each zone beyond the adjacent ones, with the zones then
    reached."""
    return [(z, in_order(*a.zones, z)) for z in in_order(*board) if z not in a.zones]
