"""Tenkey's own terrain: a zone holding an obstacle, which blocks shots passing through it.

Characters may stand in such a zone (a pillar, rocks, a wagon stand somewhere in it); only a shot
or a spell between two other zones is stopped by it, unless the shooter has Hawk Eye.
"""

from __future__ import annotations

from engine.board import TerrainKind
from engine.i18n import N_

OBSTACLE = "obstacle"
KIND_NAMES = (N_("obstacle"),)  # the kind's name as people read it

TERRAIN_KINDS: tuple[TerrainKind, ...] = (
    TerrainKind(OBSTACLE, N_("an obstacle in the zone: blocks shots and spells passing through it"),
                standable=True, blocks_sight=True, style="rough"),
)
