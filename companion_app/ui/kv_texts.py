"""The .kv files' texts in the app's language: ``_("Play", app.language)`` is looked up again whenever
``app.language`` changes, since Kivy re-evaluates a rule that names a property when the property changes."""

from __future__ import annotations

from typing import Any

from engine.i18n import gettext_for

_lookup = gettext_for(__name__)


def _(text: str, language: str = "", /, **args: Any) -> str:
    """``text`` in the current language; ``language`` is only there for Kivy to bind the rule to."""
    return _lookup(text, **args)
