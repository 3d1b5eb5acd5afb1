"""What a rule set shows on the tablets besides its prompts: its glossary and the queries a tap asks.

The app holds no rule texts of its own: each rule set declares its terms (with the board features a
long press explains) and its query kinds, and they travel in the scenario message.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board.base import Cell
from engine.i18n import N_, SOURCE_LANGUAGE, current_language
from engine.rules.data import load_rule_data
from engine.scenario_schema import REQUIRED, Table, text_field, texts_field

ABOUT: tuple[str, ...] = ("figure", "side", "cell")  # what a query is asked about
QUERY_PARAMETERS: tuple[str, ...] = ("cell", "size")  # what else a query may take: a chosen cell, a size in cells

GLOSSARY_TABLES = {
    "terms": Table("terms", (
        text_field("term", REQUIRED, max_len=60, help="the term as prompts write it, lower case"),
        text_field("text", REQUIRED, max_len=1000, help="the rule in a few plain sentences"),
        text_field("term_ja", "", max_len=60, help="the term in Japanese, as the original rule document writes it"),
        text_field("text_ja", "", max_len=1000, help="the rule in Japanese"),
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

    ``about`` is what it is asked about: a ``figure`` (the tapped one), a ``side`` (the tapped figure's) or a
    ``cell`` (a tapped cell, by its label). ``takes`` lists what else it may be given (:data:`QUERY_PARAMETERS`:
    a chosen ``cell``, a ``size`` in cells); each is optional, the rule set says what it does without one.
    ``shown``: drawn as soon as a figure is tapped; a query that would crowd the others is declared False and
    drawn when the player turns it on.
    """

    name: str
    label: str
    about: str = "figure"
    help: str = ""
    takes: tuple[str, ...] = ()
    shown: bool = True

    def __post_init__(self) -> None:
        if self.about not in ABOUT:
            raise ValueError(f"query {self.name!r} is about {self.about!r}; use one of {ABOUT}")
        for p in self.takes:
            if p not in QUERY_PARAMETERS:
                raise ValueError(f"query {self.name!r} takes {p!r}; queries take {QUERY_PARAMETERS}")


@dataclass(frozen=True)
class QueryInput:
    """What a query was given besides its subject: a chosen cell and a size, each None when left out."""

    cell: Cell | None = None
    size: int | None = None


def load_glossary(package: str, filename: str = "glossary.toml") -> tuple[GlossaryTerm, ...]:
    """A rule set's glossary file (``[[terms]]`` with ``term``, ``text``, ``press``, and ``term_ja``, ``text_ja``),
    read once and checked; the terms come in the current language (English where a Japanese one is missing)."""
    rows = load_rule_data(package, filename, GLOSSARY_TABLES)["terms"]
    suffix = "" if current_language() == SOURCE_LANGUAGE else f"_{current_language()}"
    return tuple(
        GlossaryTerm(
            (r.get(f"term{suffix}") or r["term"]).lower(), r.get(f"text{suffix}") or r["text"], tuple(r["press"])
        )
        for r in rows
    )


# The query every rule set answers (its ``reachable``): the cells a tapped figure may reach.
MOVES_QUERY = QueryKind("reachable", N_("Moves"), help=N_("the cells the figure may reach, nearest shaded strongest"))
