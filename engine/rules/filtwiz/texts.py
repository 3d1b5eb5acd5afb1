"""Filtwiz's words for lists in the table's language ("A, B" in English, "A、B" in Japanese)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.i18n import gettext_for

_ = gettext_for(__name__)


def listing(items: Iterable[str]) -> str:
    """The items as one list in the current language."""
    return _(", ").join(items)
