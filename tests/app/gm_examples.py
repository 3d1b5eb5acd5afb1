"""The original's mass-combat example as a tablet's calculator form: five PCs against two orcs and three goblins
(armour 1+1+1+1+0 = 4); 2×30 + 30 + 20 + 2×25 (an area against five) + 40 = 200 damage, 196 after armour."""

from __future__ import annotations

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
