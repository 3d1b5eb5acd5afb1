"""The ChArUco calibration sheet: the board filling the page, a 100 mm check bar and its parameters.

The board's origin (table frame origin) is the top-left outer corner of its chessboard; squares
and markers are placed exactly where :class:`cv2.aruco.CharucoBoard` expects them, read from the
board object itself rather than re-derived.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from fpdf import FPDF

from calibration.board_spec import BoardSpec
from calibration.printables.pdf_canvas import SCALE_NOTE, TEXT_FONT, draw_check_bar, draw_marker, new_pdf, page_size
from engine.i18n import gettext_for

_ = gettext_for(__name__)

MARGIN_MM = 8.0
FOOTER_MM = 26.0  # strip under the board for the check bar and the text


def board_origin_on_page(spec: BoardSpec) -> tuple[float, float]:
    """Where the board's origin sits on the (landscape) page, in mm from the page's top-left."""
    pw, ph = page_size(spec.paper, landscape=True)
    x = (pw - spec.width_mm) / 2.0
    y = MARGIN_MM + max(0.0, (ph - 2 * MARGIN_MM - FOOTER_MM - spec.height_mm) / 2.0)
    if x < MARGIN_MM / 2 or y + spec.height_mm + FOOTER_MM > ph:
        raise ValueError(_("a {width_mm:g}×{height_mm:g} mm board does not fit on {paper} paper; use fewer or "
                           "smaller squares, or a larger paper",
                           width_mm=spec.width_mm, height_mm=spec.height_mm, paper=spec.paper))
    return x, y


def draw_board(pdf: FPDF, spec: BoardSpec, x0: float, y0: float) -> None:
    """Black squares and markers of ``spec`` with the board origin at (x0, y0)."""
    board = spec.make_board()
    ids = [int(i) for i in np.asarray(board.getIds()).reshape(-1)]
    corners = [np.asarray(c, dtype=np.float64).reshape(4, 3) for c in board.getObjPoints()]
    marker_squares: set[tuple[int, int]] = set()
    for c in corners:
        cx, cy = c[:, 0].mean(), c[:, 1].mean()
        marker_squares.add((int(cx // spec.square_mm), int(cy // spec.square_mm)))
    pdf.set_fill_color(0, 0, 0)
    for row in range(spec.squares_y):
        for col in range(spec.squares_x):
            if (col, row) not in marker_squares:
                pdf.rect(x0 + col * spec.square_mm, y0 + row * spec.square_mm, spec.square_mm, spec.square_mm,
                         style="F")
    for marker_id, c in zip(ids, corners, strict=True):
        left, top = float(c[:, 0].min()), float(c[:, 1].min())
        draw_marker(pdf, spec.dictionary, marker_id, x0 + left, y0 + top, spec.marker_mm)


def grid_pdf(spec: BoardSpec) -> FPDF:
    """The calibration sheet as a one-page PDF."""
    pdf = new_pdf(spec.paper, landscape=True, title=_("Hexa calibration sheet"))
    pdf.add_page()
    x0, y0 = board_origin_on_page(spec)
    draw_board(pdf, spec, x0, y0)
    foot = y0 + spec.height_mm
    draw_check_bar(pdf, x0, foot + 9.0)
    pdf.set_font(TEXT_FONT, style="B", size=10)
    pdf.text(x0, foot + 17.0, _(SCALE_NOTE))
    pdf.set_font(TEXT_FONT, size=7.5)
    params = [_("{dictionary}  {squares_x} x {squares_y} squares",
                dictionary=spec.dictionary, squares_x=spec.squares_x, squares_y=spec.squares_y),
              _("square {square_mm:g} mm, marker {marker_mm:g} mm, {upper}",
                square_mm=spec.square_mm, marker_mm=spec.marker_mm, upper=spec.paper.upper()),
              _("origin: top-left board corner, x right, y down")]
    right = x0 + spec.width_mm
    for i, line in enumerate(params):
        pdf.text(right - pdf.get_string_width(line), foot + 6.0 + 4.0 * i, line)
    return pdf


def write_grid(spec: BoardSpec, path: str | Path) -> Path:
    """Write the sheet to ``path`` (PDF)."""
    target = Path(path)
    grid_pdf(spec).output(str(target))
    return target
