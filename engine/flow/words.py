"""Words shared by every rule set's prompts and log: possessives and verbs that agree with a side's name.

Side names are usually plural nouns ("Goblins", "Adventurers") and sometimes a colour or a person
("Red", "Gary"): "Goblins roll", "Red rolls"; "Goblins' turn", "Red's turn".
"""

from __future__ import annotations

from engine.i18n import current_language


def is_plural(name: str) -> bool:
    """A name ending in a plain plural 's' ("Goblins", not "Boss" or "Jesus")."""
    return name.endswith("s") and not name.endswith(("ss", "us"))


def verb(name: str, singular: str, plural: str) -> str:
    """``name`` followed by the verb form that agrees with it: verb("Goblins", "rolls", "roll") → "Goblins roll"."""
    return f"{name} {plural if is_plural(name) else singular}"


def their(name: str) -> str:
    """The possessive pronoun for a side: "their" for a plural name, "its" otherwise."""
    return "their" if is_plural(name) else "its"


def possessive(name: str) -> str:
    """'Goblins' turn', 'Red's turn', 'Boss's turn' (a plural name takes the apostrophe alone); 'ゴブリンの'."""
    if current_language() == "ja":
        return f"{name}の"
    return f"{name}'" if is_plural(name) else f"{name}'s"


