"""Keep the translation catalogues whole: extract every message with Babel, merge, check.

    python -m engine.i18n_catalogues update [FOLDER ...]  # add new messages to every .po, drop the gone ones
    python -m engine.i18n_catalogues check [FOLDER ...]   # list messages with no translation (exit 1 if any)

A catalogue root is a package folder with a ``locale/`` folder (see :mod:`engine.i18n`). Its
messages are those of the Python and kv files below it, leaving out the folders below that are
roots of their own (each rule set keeps its own catalogue). Besides the product's packages, the
tool takes rule-set folders of one's own: those named on its command line and in ``HEXA_RULESETS``
(each is a root, so ``update`` writes its first catalogue).
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from engine.i18n import CATALOGUE_DIR, LANGUAGES, SOURCE_LANGUAGE, catalogue_file
from engine.rules import FOLDERS_VARIABLE

PACKAGES: tuple[str, ...] = ("engine", "companion_app", "calibration", "vision")
KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "N_": None, "_n": (1, 2)}
PROJECT = "Hexa Table Companion"
HEADER = (
    "# The {language} texts of Hexa Table Companion (see engine/i18n.py).\n"
    "# Rule terms as the original rule documents write them. Update with\n"
    "# 'python -m engine.i18n_catalogues update'; check with '... check'."
)


@dataclass(frozen=True)
class Untranslated:
    """A message with no (or only a fuzzy) translation in a language's catalogue."""

    catalogue: Path
    message: str
    where: str

    def __str__(self) -> str:
        return f"{self.catalogue}: no translation for {self.message!r} ({self.where})"


def project_root() -> Path:
    """The folder holding the product's packages."""
    return Path(__file__).resolve().parent.parent


def _roots_below(folder: Path) -> list[Path]:
    return [d.parent for d in sorted(folder.rglob(CATALOGUE_DIR))
            if d.is_dir() and (d.parent / "__init__.py").is_file()]


def plugin_folders(environ: Mapping[str, str] | None = None) -> list[Path]:
    """The rule-set folders named in ``HEXA_RULESETS`` (as :mod:`engine.rules` loads them)."""
    value = (os.environ if environ is None else environ).get(FOLDERS_VARIABLE, "")
    return [Path(part).expanduser().resolve() for part in value.split(os.pathsep) if part.strip()]


def catalogue_roots(top: Path | None = None, folders: Sequence[Path] = ()) -> list[Path]:
    """Every package folder with its own catalogue, outermost first: the product's, and each rule-set folder of
    ``folders`` (a package: its ``__init__.py`` beside it) with those below it."""
    top = top or project_root()
    roots: list[Path] = []
    for package in PACKAGES:
        roots += _roots_below(top / package)
    for folder in folders:
        folder = folder.resolve()
        if not (folder / "__init__.py").is_file():
            raise ValueError(f"{folder} is not a rule-set package: it has no __init__.py")
        roots += [folder, *_roots_below(folder)]
    return sorted(dict.fromkeys(roots), key=lambda p: len(p.parts))


def source_files(root: Path, roots: Sequence[Path]) -> Iterator[Path]:
    """The files whose messages belong to ``root``'s catalogue."""
    inner = [r for r in roots if r != root and root in r.parents]
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".py", ".kv") or not path.is_file():
            continue
        if any(r in path.parents for r in inner):
            continue
        yield path


def extract(root: Path, roots: Sequence[Path]) -> Catalog:
    """A template catalogue of every message in ``root``'s files."""
    template = Catalog(project=PROJECT, locale=None)
    for path in source_files(root, roots):
        for lineno, message, comments, _context in extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=("Translators:",), strip_comment_tags=True
        ):
            where = (str(path.relative_to(root.parent)), lineno)
            template.add(message, locations=[where], auto_comments=comments)
    return template


def _read(path: Path, lang: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _catalogues(top: Path | None, folders: Sequence[Path]) -> Iterator[tuple[Catalog, str, Path, Catalog]]:
    """Each package's messages in its code (a template) with each translated language's catalogue of them."""
    roots = catalogue_roots(top, folders)
    for root in roots:
        template = extract(root, roots)
        for lang in LANGUAGES:
            if lang == SOURCE_LANGUAGE:
                continue
            path = catalogue_file(root, lang)
            yield template, lang, path, (_read(path, lang) if path.is_file() else Catalog(locale=lang, project=PROJECT))


def update(top: Path | None = None, folders: Sequence[Path] = ()) -> list[Path]:
    """Merge the extracted messages into every language's catalogue; returns the files written."""
    written: list[Path] = []
    for template, lang, path, catalog in _catalogues(top, folders):
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        catalog.obsolete.clear()
        catalog.fuzzy = False
        catalog.header_comment = HEADER.format(language=lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        out = io.BytesIO()
        # No line numbers: a catalogue changes when a message does, not when code moves.
        write_po(out, catalog, width=0, include_lineno=False, sort_output=False, ignore_obsolete=True)
        # Nor does it change with the Babel version that wrote it.
        path.write_bytes(re.sub(rb'"Generated-By: [^"]*\\n"\n', b"", out.getvalue()))
        written.append(path)
    return written


def untranslated(top: Path | None = None, folders: Sequence[Path] = ()) -> list[Untranslated]:
    """Every message in the code that some language's catalogue does not translate."""
    found: list[Untranslated] = []
    for template, _lang, path, catalog in _catalogues(top, folders):
        for message in template:
            if not message.id:
                continue
            entry = catalog.get(message.id)
            strings = entry.string if entry is not None else None
            texts = [strings] if isinstance(strings, str) or strings is None else list(strings)
            if entry is None or entry.fuzzy or not all(t and str(t).strip() for t in texts):
                key = message.id if isinstance(message.id, str) else message.id[0]
                file, line = message.locations[0] if message.locations else ("?", 0)
                found.append(Untranslated(path, key, f"{file}:{line}"))
    return found


def _shown(path: Path) -> str:
    return str(path.relative_to(project_root())) if path.is_relative_to(project_root()) else str(path)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in ("update", "check"):
        print("usage: python -m engine.i18n_catalogues update|check [RULE-SET FOLDER ...]", file=sys.stderr)
        return 2
    folders = list(dict.fromkeys([*(Path(a).resolve() for a in args[1:]), *plugin_folders()]))
    for folder in folders:
        if not (folder / "__init__.py").is_file():
            print(f"{folder} is not a rule-set package: it has no __init__.py. Fix: name the folder that holds the "
                  "rule set's __init__.py", file=sys.stderr)
            return 2
    if args[0] == "update":
        for path in update(None, folders):
            print(f"updated {_shown(path)}")
        return 0
    missing = untranslated(None, folders)
    for item in missing:
        print(item)
    print(f"{len(missing)} untranslated message(s)")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
