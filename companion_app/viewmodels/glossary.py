"""Rules at hand: the text a long press on a term shows. Reference text only, no rule logic."""

from __future__ import annotations

import re

GLOSSARY: dict[str, str] = {
    "decisive battle": (
        "When the loser of a combat cannot retreat only because a friend blocks the way, both roll again "
        "each round: the previous winner wins on 5–6, the other only on 6. The first to reach its number "
        "kills the other; if both reach it in the same round, roll again."
    ),
    "low obstacle": (
        "Crates or a low wall on a hex: no figure may enter it. A shooter next to it shoots over it; a target "
        "next to it cannot be shot through it unless the obstacle is next to the shooter too."
    ),
    "back space": (
        "Lost Worlds: after moving, each character names one neighbouring space as its back. An enemy who "
        "enters your battle range through your back space cannot be blocked."
    ),
    "retreat": (
        "The loser of a combat steps one hex away from the winner into a free hex, not through a wall and "
        "not next to another enemy; its owner picks when several qualify. No such hex: the loser dies, "
        "unless only a friend blocks the way (then: decisive battle)."
    ),
    "forced combat": (
        "A figure that starts its turn next to an enemy must fight it and cannot move, shoot or cast that turn."
    ),
    "line of sight": (
        "A straight line from centre to centre. Walls, closed doors and solid hexes block it; a friend on the "
        "line forbids the shot. When the line only grazes an edge or corner it is unclear: roll-off."
    ),
    "roll-off": (
        "Unclear line of sight: shooter and target each roll 1d6; the shooter must roll higher to shoot "
        "(a tie fails). A failed roll-off still spends the shooter's action."
    ),
    "locked door": "Stop in front of it; next turn roll 1d6: 1–3 it stays shut, 4–6 it opens and you move on.",
    "door": (
        "Moving up to a closed door ends the move in front of it; next turn it opens and the figure moves on. "
        "An enemy just behind it means an immediate combat."
    ),
    "movement": "Each figure rolls 1d6 before it moves: 5–6 up to 3 hexes, 1–4 up to 2. Staying put is allowed.",
    "shooting": (
        "Archers only, at a target in line of sight: 1d6, 4–6 hits; the target's owner rolls 1d6: 5–6 shrugs "
        "the hit off, 1–4 the target dies. Not allowed when the shooter is next to an enemy or the target is "
        "next to one of the shooter's friends."
    ),
    "magic": "A wizard attacks one visible enemy within 5 hexes: 1d6, a 6 kills, anything else fails.",
    "points": "Melee-only figure 1 point, ranged or magic figure 2, each special ability +1.",
}

_TERMS = sorted(GLOSSARY, key=len, reverse=True)


def lookup(term: str) -> str | None:
    """The rule text for a term (case and plural insensitive), or None."""
    t = term.strip().lower()
    if t in GLOSSARY:
        return GLOSSARY[t]
    if t.endswith("s") and t[:-1] in GLOSSARY:
        return GLOSSARY[t[:-1]]
    return None


def terms_in(text: str) -> list[str]:
    """Glossary terms mentioned in a text, longest first, each once (for long-press on a prompt)."""
    low = text.lower()
    found: list[str] = []
    for term in _TERMS:
        if re.search(r"\b" + re.escape(term) + r"s?\b", low) and not any(term in f for f in found):
            found.append(term)
    return found
