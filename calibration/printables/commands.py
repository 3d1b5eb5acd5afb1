"""``hexa print grid|markers|zones|anchors``: parse the options, write the PDF, tell the player."""

from __future__ import annotations

import argparse
import json
import sys

from calibration.anchor_tags import ANCHOR_DICTIONARY, ANCHOR_IDS, FIGURE_DICTIONARY, is_anchor_id
from calibration.board_spec import DICTIONARY_NAMES, PAPER_SIZES_MM, default_spec
from calibration.printables.grid import write_grid
from calibration.printables.tag_sheet import parse_ids, write_tag_sheet
from calibration.printables.zone_mat import write_zone_mat

EXIT_OK = 0
EXIT_BAD_INPUT = 2
_PAPERS = sorted(PAPER_SIZES_MM)
DEFAULT_PAPER = "a4"  # one default for every sheet


def _common(sheet: argparse.ArgumentParser, name: str) -> None:
    """The options every sheet has: the paper (A4 unless told) and the output file (NAME.pdf here)."""
    sheet.add_argument("--paper", choices=_PAPERS, default=DEFAULT_PAPER,
                       help=f"paper size (default {DEFAULT_PAPER})")
    sheet.add_argument("-o", "--output", default=f"{name}.pdf", metavar="FILE.pdf",
                       help=f"the PDF to write (default {name}.pdf in the current folder)")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hexa print", description="Write true-scale PDFs to print at 100% / actual size.")
    sub = p.add_subparsers(dest="what", required=True)
    grid = sub.add_parser("grid", help="the ChArUco calibration sheet (its spec JSON goes to standard output)")
    _common(grid, "grid")
    markers = sub.add_parser("markers", help="one tag per figure base, id printed under it, cut lines")
    markers.add_argument("--ids", required=True, help="ids such as 0-23 or 0-5,8,10-12")
    markers.add_argument("--size", type=float, default=25.0, help="tag side in mm (default 25)")
    markers.add_argument("--dictionary", default=FIGURE_DICTIONARY, help=f"ArUco dictionary (default "
                         f"{FIGURE_DICTIONARY})")
    _common(markers, "markers")
    anchors = sub.add_parser("anchors", help="board-anchor tags (reserved ids) for a scenario's anchor hexes")
    anchors.add_argument("--ids", default=f"{ANCHOR_IDS[0]}-{ANCHOR_IDS[-1]}",
                         help=f"anchor ids (default {ANCHOR_IDS[0]}-{ANCHOR_IDS[-1]}, all of them)")
    anchors.add_argument("--size", type=float, default=30.0, help="tag side in mm (default 30)")
    _common(anchors, "anchors")
    zones = sub.add_parser("zones", help="the Tenkey battle's 3×3 zone mat")
    _common(zones, "zones")
    return p


def run_print(argv: list[str]) -> int:
    """Entry point behind ``hexa print``."""
    args = _parser().parse_args(argv)
    try:
        if args.what == "grid":
            spec = default_spec(args.paper)
            write_grid(spec, args.output)
            print(json.dumps(spec.to_json()))
            print(f"Wrote {args.output}: print it at 100% / actual size, then measure the 100 mm check bar.",
                  file=sys.stderr)
            return EXIT_OK
        if args.what == "markers":
            if args.dictionary not in DICTIONARY_NAMES:
                raise ValueError(f"unknown dictionary {args.dictionary!r}; use one of: {', '.join(DICTIONARY_NAMES)}")
            ids = parse_ids(args.ids)
            reserved = [i for i in ids if args.dictionary == ANCHOR_DICTIONARY and is_anchor_id(i)]
            if reserved:
                raise ValueError(f"ids {reserved} are reserved for board anchors; give figures ids below "
                                 f"{ANCHOR_IDS[0]}, and print anchors with 'hexa print anchors'")
            write_tag_sheet(args.output, ids, args.size, args.dictionary, args.paper, "Hexa figure markers",
                            "id {id}", back_mark=True)  # the triangle points to the figure's back
            print(f"Wrote {args.output}: {len(ids)} tags of {args.size:g} mm.")
            return EXIT_OK
        if args.what == "anchors":
            ids = parse_ids(args.ids)
            outside = [i for i in ids if not is_anchor_id(i)]
            if outside:
                raise ValueError(f"ids {outside} are not anchor ids; anchors use {ANCHOR_IDS[0]}-{ANCHOR_IDS[-1]}")
            write_tag_sheet(args.output, ids, args.size, ANCHOR_DICTIONARY, args.paper, "Hexa board anchors",
                            "anchor {id}")
            print(f"Wrote {args.output}: stick each anchor on the hex the scenario names for it, centred.")
            return EXIT_OK
        write_zone_mat(args.output, args.paper)
        print(f"Wrote {args.output}: the Tenkey zone mat.")
        return EXIT_OK
    except ValueError as exc:
        print(f"hexa print: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"hexa print: cannot write {args.output} ({exc}); choose another -o path.", file=sys.stderr)
        return EXIT_BAD_INPUT
