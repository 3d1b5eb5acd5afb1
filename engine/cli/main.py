"""The ``hexa`` command: one entry point, one subcommand per part of the product.

Subcommands are looked up by name and imported only when chosen, so ``hexa play`` never loads
OpenCV and ``hexa vision`` never loads Kivy.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

from engine.cli.argparse_texts import install as install_argparse_texts
from engine.i18n import N_, UnknownLanguageError, gettext_for, take_language_option

_ = gettext_for(__name__)

# name → ("module:function", one-line help). The function takes argv (without the name).
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "play": ("engine.cli.play:main", N_("play a scenario in the terminal (no camera, no tablet)")),
    "replay": ("engine.cli.replay:main", N_("print the prompts and outcomes of a game record")),
    "vision": ("vision.cli:main", N_("camera service: find tagged figures and publish them")),
    "calibrate": ("calibration.cli:calibrate_main", N_("calibrate the camera and the table from the printed grid")),
    "print": ("calibration.cli:print_main", N_("print the calibration grid, marker sheets and zone mat as PDF")),
    "app": ("companion_app.cli:main", N_("the tablet app beside the board (or --big-screen for a TV)")),
    "engine": ("engine.service.cli:main", N_("rules engine service: follow the cameras, serve the tablets")),
    "keys": ("engine.service.keys:main", N_("make CURVE keys for 'hexa engine --lan' and its tablets")),
    "demo": ("companion_app.demo.cli:main", N_("the whole product on the synthetic table (window, or --headless)")),
}


def _usage() -> str:
    lines = [_("usage: hexa COMMAND [options] [--lang ja|en]"), "", _("commands:")]
    width = max(len(n) for n in SUBCOMMANDS)
    for name, (_module, help_text) in SUBCOMMANDS.items():
        lines.append(f"  {name.ljust(width)}  {_(help_text)}")
    lines.append("")
    lines.append(_("Run 'hexa COMMAND --help' for the options of one command."))
    lines.append(_("--lang ja or --lang en (anywhere on the line) chooses the language; else the system's."))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = take_language_option(list(sys.argv[1:] if argv is None else argv))
    except UnknownLanguageError as exc:
        print(f"hexa: {exc}", file=sys.stderr)
        return 2
    install_argparse_texts()
    if not args or args[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    name, rest = args[0], args[1:]
    if name not in SUBCOMMANDS:
        print(_("hexa: unknown command {name!r}.", name=name) + f"\n\n{_usage()}", file=sys.stderr)
        return 2
    module_name, func_name = SUBCOMMANDS[name][0].split(":")
    func: Callable[[list[str]], int] = getattr(importlib.import_module(module_name), func_name)
    return int(func(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
