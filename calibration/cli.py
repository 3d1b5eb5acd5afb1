"""``hexa calibrate`` and ``hexa print``: argument parsing and what the player reads.

The work is done by the library modules; these functions only gather inputs, show progress,
print the result for people and choose the exit code (0 done, 1 calibration must be redone,
2 bad input).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from calibration.board_spec import PAPER_SIZES_MM, BoardSpec, default_spec
from calibration.calibration_file import save_calibration
from calibration.detection import BoardDetector, BoardView
from calibration.pipeline import CalibrationResult, calibrate_views
from calibration.quality import DEFAULT_HEX_ACROSS_FLATS_MM, verdict_text
from calibration.selection import SelectionRules, select_view
from calibration.solver import CalibrationError
from calibration.sources import image_files, read_image, video_frames
from engine.i18n import gettext_for

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_REDO = 1
EXIT_BAD_INPUT = 2


# --------------------------------------------------------------------------- calibrate

def _calibrate_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hexa calibrate", description=_("Calibrate the camera and the table from the "
                                                                     "printed ChArUco sheet ('hexa print grid')."))
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", type=int, metavar="N", help=_("guided live calibration with camera number N"))
    src.add_argument("--images", metavar="DIR", help=_("calibrate from the pictures in DIR"))
    src.add_argument("--video", metavar="FILE", help=_("calibrate from a video of the sheet"))
    p.add_argument("--table", metavar="IMAGE", help=_("the picture of the sheet lying flat on the table (default: "
                                                      "the last image in file-name order, or the last video frame "
                                                      "showing the sheet)"))
    p.add_argument("-o", "--output", required=True, metavar="FILE", help=_("calibration file to write"))
    p.add_argument("--check-bar", type=float, metavar="MM", help=_("measured length of the printed 100 mm check bar"))
    p.add_argument("--board", metavar="JSON", help=_("board spec file (the JSON 'hexa print grid' printed)"))
    p.add_argument("--paper", choices=sorted(PAPER_SIZES_MM), default="a4",
                   help=_("paper the grid was printed for, when --board is not given (default a4)"))
    p.add_argument("--hex-mm", type=float, default=DEFAULT_HEX_ACROSS_FLATS_MM,
                   help=_("hex width across flats, to express errors in hexes (default "
                          "{DEFAULT_HEX_ACROSS_FLATS_MM:g})", DEFAULT_HEX_ACROSS_FLATS_MM=DEFAULT_HEX_ACROSS_FLATS_MM))
    p.add_argument("--camera-id", help=_("camera id stored in the file (default: the --camera number, else 0)"))
    p.add_argument("--camera-name", default="", help=_("a name for the camera, stored in the file"))
    p.add_argument("--resolution", metavar="WxH", help=_("ask the live camera for this resolution, e.g. 1920x1080"))
    p.add_argument("--save-anyway", action="store_true", help=_("write the file even when the verdict is 'redo'"))
    return p


def _load_board(args: argparse.Namespace) -> BoardSpec:
    if not args.board:
        return default_spec(args.paper)
    path = Path(args.board)
    try:
        return BoardSpec.from_json(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise CalibrationError(_("board spec {path} does not exist; save the JSON 'hexa print grid' printed into it, "
                                 "or leave --board out for the default sheet.", path=path)) from None
    except (json.JSONDecodeError, ValueError) as exc:
        raise CalibrationError(_("board spec {path} is not valid ({exc}); save the JSON 'hexa print grid' printed "
                                 "into it again.", path=path, exc=exc)) from None


def _views_from_images(detector: BoardDetector, folder: str, table: str | None
                       ) -> tuple[list[BoardView], BoardView | None]:
    files = image_files(folder)
    table_path = Path(table) if table else files[-1]
    lens_files = [f for f in files if f.resolve() != table_path.resolve()]
    views: list[BoardView] = []
    for i, path in enumerate(lens_files, 1):
        view = detector.detect(read_image(path), path.name)
        note = _("{count} corners", count=view.count) if view else _("sheet not found, skipped")
        print(f"  [{i}/{len(lens_files)}] {path.name}: {note}", flush=True)
        if view:
            views.append(view)
    table_view = detector.detect(read_image(table_path), table_path.name)
    found = _("{count} corners", count=table_view.count) if table_view else _("sheet not found")
    print(_("  table view {name}: {found}", name=table_path.name, found=found))
    return views, table_view


def _views_from_video(detector: BoardDetector, video: str, table: str | None
                      ) -> tuple[list[BoardView], BoardView | None]:
    kept: list[BoardView] = []
    last_seen: BoardView | None = None
    rules = SelectionRules()
    for index, count, frame in video_frames(video):
        view = detector.detect(frame, f"frame {index}")
        if view is None:
            continue
        last_seen = view
        keep, _why = select_view(view, kept, rules)
        if keep:
            kept.append(view)
        if count > 0:
            print(_("\r  frame {frame}/{count}: {kept} views kept", frame=index + 1, count=count, kept=len(kept)),
                  end="", flush=True)
    print()
    if table:
        return kept, detector.detect(read_image(table), Path(table).name)
    if last_seen is not None and kept and kept[-1] is last_seen:
        kept.pop()  # the table view must not double as a lens view
    return kept, last_seen


def _report(result: CalibrationResult) -> None:
    q = result.record.quality
    cam = result.record.camera
    print()
    if result.dropped_views:
        print(_("Calibration from {views} views ({dropped} left out):", views=q.views,
                dropped=len(result.dropped_views)))
    else:
        print(_("Calibration from {views} views:", views=q.views))
    print(_("  reprojection error   {reprojection_px:.2f} px", reprojection_px=q.reprojection_px))
    print(_("  position error       {table_error_mm:.2f} mm on the table ({table_error_hex:.3f} hex)",
            table_error_mm=q.table_error_mm, table_error_hex=q.table_error_hex))
    print(_("  camera               {height:.0f} mm above the table, {width_px}×{height_px}",
            height=cam.camera_position_mm[2], width_px=cam.image_size[0], height_px=cam.image_size[1]))
    print(_("  verdict              {verdict}", verdict=verdict_text(q.verdict).upper()))
    for line in q.advice:
        print(f"  - {line}")


def calibrate_main(argv: list[str]) -> int:
    """``hexa calibrate``: live, from images or from a video; writes the calibration file."""
    args = _calibrate_parser().parse_args(argv)
    try:
        spec = _load_board(args)
        detector = BoardDetector(spec)
        camera_id = args.camera_id or (str(args.camera) if args.camera is not None else "0")
        if args.camera is not None:
            result = _run_live(args, spec, camera_id)
            if result is None:
                print(_("Calibration cancelled; nothing was written."))
                return EXIT_REDO
        else:
            print(_("Looking for the {squares_x}×{squares_y} sheet ({dictionary}, {square_mm:g} mm squares)…",
                    squares_x=spec.squares_x, squares_y=spec.squares_y, dictionary=spec.dictionary,
                    square_mm=spec.square_mm))
            if args.images:
                views, table_view = _views_from_images(detector, args.images, args.table)
            else:
                views, table_view = _views_from_video(detector, args.video, args.table)
            result = calibrate_views(views, table_view, spec, args.check_bar, args.hex_mm, camera_id,
                                     args.camera_name)
    except CalibrationError as exc:
        print(_("hexa calibrate: {exc}", exc=exc), file=sys.stderr)
        print(_("Nothing was written."), file=sys.stderr)
        return EXIT_BAD_INPUT
    _report(result)
    if result.record.quality.verdict == "redo" and not args.save_anyway:
        print(_("Not saved: this calibration would misplace figures. Follow the advice above and run again (or pass "
                "--save-anyway). {output} was left untouched.", output=args.output))
        return EXIT_REDO
    try:
        save_calibration(result.record, args.output)
    except OSError as exc:
        print(_("hexa calibrate: cannot write {output} ({exc}); choose another -o path.", output=args.output, exc=exc),
              file=sys.stderr)
        return EXIT_BAD_INPUT
    print(_("Saved {output}", output=args.output))
    return EXIT_OK


def _ask_check_bar() -> float | None:
    """Ask the player for the measured check bar in the terminal (Enter skips)."""
    if not sys.stdin.isatty():
        return None
    while True:
        answer = input(_("Measure the bar marked '100 mm' on the printed sheet. Its length in mm "
                         "(Enter if exactly 100): ")).strip().replace(",", ".")
        if not answer:
            return None
        try:
            return float(answer)
        except ValueError:
            print(_("Please type a number such as 99.5, or just press Enter."))


def _run_live(args: argparse.Namespace, spec: BoardSpec, camera_id: str) -> CalibrationResult | None:
    from calibration.live import LiveSession
    from calibration.live_window import run_live, show_verdict

    width = height = None
    if args.resolution:
        try:
            width, height = (int(v) for v in args.resolution.lower().split("x"))
        except ValueError:
            raise CalibrationError(_("--resolution {resolution!r} is not WIDTHxHEIGHT, e.g. 1920x1080",
                                     resolution=args.resolution)) from None
    check_bar = args.check_bar if args.check_bar is not None else _ask_check_bar()
    print(_("A window opens: follow its instructions (tilt the sheet around, then lay it flat and press SPACE)."))
    session = LiveSession(spec)
    if not run_live(session, args.camera, width, height):
        return None
    result = session.finish(check_bar, args.hex_mm, camera_id, args.camera_name)
    show_verdict(result.record.quality, session.coverage_image())
    return result


# --------------------------------------------------------------------------- print

def print_main(argv: list[str]) -> int:
    """``hexa print grid|markers|zones|anchors``: true-scale vector PDFs."""
    from calibration.printables.commands import run_print

    return run_print(argv)
