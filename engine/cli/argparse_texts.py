"""argparse's own words (``usage:``, ``options``, its error messages) in the table's language.

argparse looks its texts up through a module-level ``_`` (the standard library's gettext, which
knows no catalogue of ours); :func:`install` points that at the core catalogue, so ``hexa play
--help --lang ja`` reads in Japanese from the first line. The texts keep argparse's own ``%``
placeholders: argparse fills them in itself.
"""

from __future__ import annotations

import argparse

from engine.i18n import N_, gettext_for

_ = gettext_for(__name__)

# The texts argparse shows a player (Python 3.11's argparse), marked for the catalogue.
TEXTS: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)
PLURAL_TEXTS: tuple[tuple[str, str], ...] = ((N_("expected %s argument"), N_("expected %s arguments")),)


def _gettext(message: str) -> str:
    return _(message)


def _ngettext(singular: str, plural: str, count: int) -> str:
    return _(singular) if count == 1 else _(plural)


def install() -> None:
    """Make argparse look its texts up in the current language (call once, before building parsers)."""
    argparse._ = _gettext  # type: ignore[attr-defined]
    argparse.ngettext = _ngettext  # type: ignore[attr-defined]
