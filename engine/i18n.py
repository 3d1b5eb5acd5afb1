"""The languages the table speaks: gettext catalogues beside each package, compiled by Babel.

Every text a player or game master reads is written in English in the code and looked up in the
chosen language when it is made::

    from engine.i18n import gettext_for, ngettext_for, N_

    _ = gettext_for(__name__)
    _n = ngettext_for(__name__)

    _("Round {round}: {side}' turn.", round=3, side=name)
    _n("{n} goblin", "{n} goblins", count)          # ``n`` is filled in with the count
    TITLE = N_("Turn order")                          # marked for extraction, looked up later: _(TITLE)

A module's catalogue is the one of its nearest enclosing package that has a ``locale`` folder:
``locale/<lang>/LC_MESSAGES/messages.po`` (``engine/``, each rule set's package, ``companion_app/``,
``calibration/``, ``vision/``). The ``.po`` files are the source; Babel compiles one into memory the
first time its language is used, so a catalogue is never stale. A message missing from a catalogue
reads in English. ``engine/i18n_catalogues.py`` extracts the messages and checks every one has its
translation.

The language is chosen once per process (``--lang``, ``HEXA_LANG``, or the system locale) and may be
changed at the table with :func:`set_language`; texts made afterwards are in the new language.
"""

from __future__ import annotations

import gettext
import importlib.util
import io
import logging
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "ja")
SOURCE_LANGUAGE = "en"
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "ja": "日本語"}
LANG_ENV = "HEXA_LANG"
CATALOGUE_DIR = "locale"
CATALOGUE_DOMAIN = "messages"

log = logging.getLogger(__name__)


class UnknownLanguageError(ValueError):
    """A language the table does not speak was asked for."""


def check_language(lang: str) -> str:
    """``lang`` as a supported code (``ja_JP.UTF-8`` → ``ja``), or a clear error naming the choices."""
    code = lang.strip().replace("-", "_").split(".")[0].split("_")[0].lower()
    if code not in LANGUAGES:
        choices = ", ".join(LANGUAGES)
        raise UnknownLanguageError(f"unknown language {lang!r}: choose one of {choices} (--lang ja or --lang en)")
    return code


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language ``HEXA_LANG`` names, else the system locale's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else en."""
    env = os.environ if environ is None else environ
    explicit = env.get(LANG_ENV, "").strip()
    if explicit:
        return check_language(explicit)
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "").strip()
        if not value:
            continue
        for part in value.split(":"):  # LANGUAGE may list several, most wanted first
            try:
                return check_language(part)
            except UnknownLanguageError:
                continue
        if value not in ("C", "POSIX") and not value.startswith("C."):
            return SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


_language: str = SOURCE_LANGUAGE
_listeners: list[Callable[[str], None]] = []


def current_language() -> str:
    """The language texts are made in now."""
    return _language


def set_language(lang: str) -> str:
    """Make texts in ``lang`` from now on (and tell the listeners); returns the checked code."""
    global _language
    code = check_language(lang)
    changed = code != _language
    _language = code
    if changed:
        for listener in list(_listeners):
            listener(code)
    return code


def on_language_change(listener: Callable[[str], None]) -> None:
    """Call ``listener(lang)`` whenever :func:`set_language` changes the language."""
    _listeners.append(listener)


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Make texts in ``lang`` inside the block, then go back to the language before."""
    global _language
    before = _language
    _language = check_language(lang)
    try:
        yield
    finally:
        _language = before


def take_language_option(argv: list[str]) -> list[str]:
    """Remove ``--lang X`` / ``--lang=X`` from ``argv``, set the language (and ``HEXA_LANG`` for child processes).

    Without the option, the language comes from the environment. Returns the remaining arguments.
    """
    rest: list[str] = []
    chosen: str | None = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--lang":
            if i + 1 >= len(argv):
                raise UnknownLanguageError("--lang needs a language: --lang ja or --lang en")
            chosen = argv[i + 1]
            i += 2
            continue
        if arg.startswith("--lang="):
            chosen = arg.split("=", 1)[1]
            i += 1
            continue
        rest.append(arg)
        i += 1
    code = check_language(chosen) if chosen is not None else language_from_environment()
    os.environ[LANG_ENV] = code
    set_language(code)
    return rest


def catalogue_root(module_name: str) -> Path:
    """The package folder whose ``locale`` catalogue holds ``module_name``'s texts (LookupError: none has one)."""
    root = _catalogue_root_or_none(module_name)
    if root is None:
        raise LookupError(f"no {CATALOGUE_DIR}/ folder in any package enclosing {module_name!r}: add one beside the "
                          "package's __init__.py")
    return root


_without_catalogue: set[str] = set()  # the packages already warned about, to warn once each


def _english_only(module_name: str) -> None:
    """Say once per package that its texts will read in English: it has no catalogue (a plug-in's folder, say)."""
    parts = module_name.split(".")
    package = ".".join(parts[:2]) if parts[0] == "hexa_rulesets" else parts[0]
    if package in _without_catalogue:
        return
    _without_catalogue.add(package)
    log.warning("%s has no %s/ catalogue: its texts are shown in English in every language. Fix: add "
                "%s/<lang>/LC_MESSAGES/%s.po beside its __init__.py (python -m engine.i18n_catalogues update FOLDER "
                "writes it)", package, CATALOGUE_DIR, CATALOGUE_DIR, CATALOGUE_DOMAIN)


def _catalogue_root_or_none(module_name: str) -> Path | None:
    parts = module_name.split(".")
    for end in range(len(parts), 0, -1):
        name = ".".join(parts[:end])
        module = sys.modules.get(name)
        spec = getattr(module, "__spec__", None) if module is not None else importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue
        folder = Path(next(iter(spec.submodule_search_locations)))
        if (folder / CATALOGUE_DIR).is_dir():
            return folder
    return None


def catalogue_file(root: Path, lang: str) -> Path:
    """Where ``lang``'s ``.po`` file for the package at ``root`` lives."""
    return root / CATALOGUE_DIR / lang / "LC_MESSAGES" / f"{CATALOGUE_DOMAIN}.po"


@cache
def _translations(root: Path, lang: str) -> gettext.NullTranslations:
    """``lang``'s catalogue for the package at ``root``, compiled by Babel (English: the texts as written)."""
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    path = catalogue_file(root, lang)
    if not path.is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def _fill(text: str, args: Mapping[str, Any]) -> str:
    return text.format(**args) if args else text


def gettext_for(module_name: str) -> Callable[..., str]:
    """``_(text, **args)`` for a module: ``text`` in the current language, with ``args`` filled in by ``str.format``.

    A module of a package without a catalogue (no ``locale/`` in it or around it) gets its texts in English, and
    the package is named once in a warning."""
    root = _catalogue_root_or_none(module_name)
    if root is None:
        _english_only(module_name)

    def _(text: str, /, **args: Any) -> str:
        if root is None:
            return _fill(text, args)
        return _fill(_translations(root, _language).gettext(text), args)

    return _


def ngettext_for(module_name: str) -> Callable[..., str]:
    """``_n(singular, plural, count, **args)`` for a module; ``{n}`` is the count unless given (English without a
    catalogue, as :func:`gettext_for`)."""
    root = _catalogue_root_or_none(module_name)
    if root is None:
        _english_only(module_name)

    def _n(singular: str, plural: str, count: int, /, **args: Any) -> str:
        args = {"n": count, **args}
        if root is None:
            return _fill(singular if count == 1 else plural, args)
        return _fill(_translations(root, _language).ngettext(singular, plural, count), args)

    return _n


def N_(text: str) -> str:
    """Mark ``text`` for extraction; it is looked up later, where it is shown, with ``_(text)``."""
    return text


def localised(value: str | Mapping[str, str], lang: str | None = None) -> str:
    """A text a file gives in one language (a string) or several (``{en = "…", ja = "…"}``), in ``lang``.

    Falls back to English, then to the first language given.
    """
    if isinstance(value, str):
        return value
    code = lang or _language
    for key in (code, SOURCE_LANGUAGE):
        if value.get(key):
            return value[key]
    return next(iter(value.values()), "")
