"""The original's mass-combat example as a tablet's calculator form: five PCs against two orcs and three goblins
(armour 1+1+1+1+0 = 4); 2×30 + 30 + 20 + 2×25 (an area against five) + 40 = 200 damage, 196 after armour; and the
river ambush played up to the first verdict the GM gives."""

from __future__ import annotations

from typing import Any

from engine.actions import action_to_dict
from engine.autoplay import AutoPlayer
from engine.game import Game
from engine.scenario import load_scenario

RIVER_AMBUSH = "filtwiz-river-ambush"
MAX_ACTIONS_TO_A_VERDICT = 200

MASS_COMBAT_FORM = {
    "pcs": "id=nue hp=40 armour=6\nid=shuran hp=45 armour=6\nid=villetta hp=60 armour=8\nid=palt hp=40 armour=5\n"
           "id=rose hp=30 armour=5",
    "enemies": "id=orc-1 hp=55 armour=1\nid=orc-2 hp=55 armour=1\nid=goblin-1 hp=38 armour=1\n"
               "id=goblin-2 hp=38 armour=1\nid=goblin-3 hp=38 armour=0",
    "pc_attacks": "damage=30 multi_hit=true\ndamage=30\ndamage=20\ndamage=25 area=true\ndamage=40",
    "enemy_attacks": "damage=20; damage=20; damage=20; damage=20; damage=20",
}
# A distribution the rules refuse: Rose would go below 0 HP, and the shares miss the 70 the PCs take.
REFUSED_PC_SHARES = "rose=40, nue=20"


def verdict_actions(seed: int = 3) -> list[dict[str, Any]]:
    """The river ambush's actions from its start to the first verdict the GM gives (the auto player's, the same
    every time), as a tablet sends them: rolls, picks, moves and the attack, all the players' to answer."""
    game = Game(load_scenario(RIVER_AMBUSH))
    player = AutoPlayer(seed)
    out: list[dict[str, Any]] = []
    while not game.prompt.gm:
        assert len(out) < MAX_ACTIONS_TO_A_VERDICT, "no verdict asked in the first actions of the ambush"
        action = player.choose(game)
        game.apply(action)
        out.append(action_to_dict(action))
    return out
