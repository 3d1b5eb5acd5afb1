"""``hexa print grid|markers|zones|anchors|tray``: parse the options, write the PDF, tell the player."""

from __future__ import annotations

import argparse
import json
import sys

from calibration.anchor_tags import ANCHOR_DICTIONARY, ANCHOR_IDS, FIGURE_DICTIONARY, is_anchor_id
from calibration.board_spec import DICTIONARY_NAMES, PAPER_SIZES_MM, default_spec
from calibration.printables.grid import write_grid
from calibration.printables.tag_sheet import parse_ids, write_tag_sheet
from calibration.printables.tray_mat import write_tray_mat
from calibration.printables.zone_mat import write_zone_mat
from calibration.tray_spec import TRAY_NAMES
from engine.i18n import gettext_for

_ = gettext_for(__name__)

EXIT_OK = 0
EXIT_BAD_INPUT = 2
_PAPERS = sorted(PAPER_SIZES_MM)
DEFAULT_PAPER = "a4"  # one default for every sheet


def _common(sheet: argparse.ArgumentParser, name: str) -> None:
    """The options every sheet has: the paper (A4 unless told) and the output file (NAME.pdf here)."""
    sheet.add_argument("--paper", choices=_PAPERS, default=DEFAULT_PAPER,
                       help=_("paper size (default {DEFAULT_PAPER})", DEFAULT_PAPER=DEFAULT_PAPER))
    sheet.add_argument("-o", "--output", default=f"{name}.pdf", metavar="FILE.pdf",
                       help=_("the PDF to write (default {name}.pdf in the current folder)", name=name))


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hexa print", description=_("Write true-scale PDFs to print at 100% / actual "
                                                                 "size."))
    sub = p.add_subparsers(dest="what", required=True)
    grid = sub.add_parser("grid", help=_("the ChArUco calibration sheet (its spec JSON goes to standard output)"))
    _common(grid, "grid")
    markers = sub.add_parser("markers", help=_("one tag per figure base, id printed under it, cut lines"))
    markers.add_argument("--ids", required=True, help=_("ids such as 0-23 or 0-5,8,10-12"))
    markers.add_argument("--size", type=float, default=25.0, help=_("tag side in mm (default 25)"))
    markers.add_argument("--dictionary", default=FIGURE_DICTIONARY, help=_("ArUco dictionary (default "
                                                                           "{FIGURE_DICTIONARY})",
                                                                           FIGURE_DICTIONARY=FIGURE_DICTIONARY))
    _common(markers, "markers")
    anchors = sub.add_parser("anchors", help=_("board-anchor tags (reserved ids) for a scenario's anchor hexes"))
    anchors.add_argument("--ids", default=f"{ANCHOR_IDS[0]}-{ANCHOR_IDS[-1]}",
                         help=_("anchor ids (default {value}-{value2}, all of them)",
                                value=ANCHOR_IDS[0], value2=ANCHOR_IDS[-1]))
    anchors.add_argument("--size", type=float, default=30.0, help=_("tag side in mm (default 30)"))
    _common(anchors, "anchors")
    zones = sub.add_parser("zones", help=_("the Tenkey battle's 3×3 zone mat"))
    _common(zones, "zones")
    tray = sub.add_parser("tray", help=_("the dice tray mat: roll the dice on it and the camera reads them"))
    tray.add_argument("--tray", choices=TRAY_NAMES, default=TRAY_NAMES[0],
                      help=_("which tray: tray (tags 80-83, default) or tray2 (tags 84-87, a second tray)"))
    _common(tray, "tray")
    return p


def run_print(argv: list[str]) -> int:
    """Entry point behind ``hexa print``."""
    args = _parser().parse_args(argv)
    try:
        if args.what == "grid":
            spec = default_spec(args.paper)
            write_grid(spec, args.output)
            print(json.dumps(spec.to_json()))
            print(_("Wrote {output}: print it at 100% / actual size, then measure the 100 mm check bar.",
                    output=args.output),
                  file=sys.stderr)
            return EXIT_OK
        if args.what == "markers":
            if args.dictionary not in DICTIONARY_NAMES:
                raise ValueError(_("unknown dictionary {dictionary!r}; use one of: {join}",
                                   dictionary=args.dictionary, join=', '.join(DICTIONARY_NAMES)))
            ids = parse_ids(args.ids)
            reserved = [i for i in ids if args.dictionary == ANCHOR_DICTIONARY and is_anchor_id(i)]
            if reserved:
                raise ValueError(_("ids {reserved} are reserved for board anchors; give figures ids below {value}, "
                                   "and print anchors with 'hexa print anchors'",
                                   reserved=reserved, value=ANCHOR_IDS[0]))
            write_tag_sheet(args.output, ids, args.size, args.dictionary, args.paper, _("Hexa figure markers"),
                            _("id {id}"), back_mark=True)  # the triangle points to the figure's back
            print(_("Wrote {output}: {count} tags of {size:g} mm.",
                    output=args.output, count=len(ids), size=args.size))
            return EXIT_OK
        if args.what == "anchors":
            ids = parse_ids(args.ids)
            outside = [i for i in ids if not is_anchor_id(i)]
            if outside:
                raise ValueError(_("ids {outside} are not anchor ids; anchors use {value}-{value2}",
                                   outside=outside, value=ANCHOR_IDS[0], value2=ANCHOR_IDS[-1]))
            write_tag_sheet(args.output, ids, args.size, ANCHOR_DICTIONARY, args.paper, _("Hexa board anchors"),
                            _("anchor {id}"))
            print(_("Wrote {output}: stick each anchor on the hex the scenario names for it, centred.",
                    output=args.output))
            return EXIT_OK
        if args.what == "tray":
            write_tray_mat(args.output, args.paper, args.tray)
            print(_("Wrote {output}: lay it flat where the camera sees all four corner tags, and roll the dice on "
                    "the green.", output=args.output))
            return EXIT_OK
        write_zone_mat(args.output, args.paper)
        print(_("Wrote {output}: the Tenkey zone mat.", output=args.output))
        return EXIT_OK
    except ValueError as exc:
        print(_("hexa print: {exc}", exc=exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(_("hexa print: cannot write {output} ({exc}); choose another -o path.", output=args.output, exc=exc),
              file=sys.stderr)
        return EXIT_BAD_INPUT
