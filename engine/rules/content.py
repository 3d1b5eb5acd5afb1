"""What a rule set shows on the tablets besides its prompts: its glossary and the queries a tap asks.

The app holds no rule texts of its own: each rule set declares its terms (with the board features a
long press explains) and its query kinds, and they travel in the scenario message.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules.data import load_rule_data
from engine.scenario_schema import REQUIRED, Table, text_field, texts_field

ABOUT: tuple[str, ...] = ("figure", "side")  # what a query is asked about

GLOSSARY_TABLES = {
    "terms": Table("terms", (
        text_field("term", REQUIRED, max_len=60, help="the term as prompts write it, lower case"),
        text_field("text", REQUIRED, max_len=1000, help="the rule in a few plain sentences"),
        texts_field("press", (), max_len=20, help="board features a long press explains with this term: "
                    "'terrain:<terrain>' or 'edge:<door state>' (open, closed, locked)"),
    ), many=True),
}


@dataclass(frozen=True)
class GlossaryTerm:
    """A term of a rule set's glossary: the rule text a long press shows, and the board features it explains."""

    term: str
    text: str
    press: tuple[str, ...] = ()


@dataclass(frozen=True)
class QueryKind:
    """A query a rule set answers for the tablets (``what`` of the ``query`` command), drawn as an overlay.

    ``about`` is what it is asked about: a ``figure`` (the tapped one) or a ``side`` (the tapped figure's).
    ``shown``: drawn as soon as a figure is tapped; a query that would crowd the others is declared False and
    drawn when the player turns it on.
    """

    name: str
    label: str
    about: str = "figure"
    help: str = ""
    shown: bool = True


def load_glossary(package: str, filename: str = "glossary.toml") -> tuple[GlossaryTerm, ...]:
    """A rule set's glossary file (``[[terms]]`` with ``term``, ``text`` and ``press``), read once and checked."""
    rows = load_rule_data(package, filename, GLOSSARY_TABLES)["terms"]
    return tuple(GlossaryTerm(r["term"].lower(), r["text"], tuple(r["press"])) for r in rows)


# The query every rule set answers (its ``reachable``): the cells a tapped figure may reach.
MOVES_QUERY = QueryKind("reachable", "Moves", help="the cells the figure may reach, nearest shaded strongest")
