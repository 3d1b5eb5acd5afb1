"""Drawing helpers shared by the printables: pages in millimetres, ArUco tags as vector cells.

Tags are drawn as filled rectangles from the dictionary's bit matrix (never as a bitmap), so a
printer renders their edges as sharply as it can and their size is exact.
"""

from __future__ import annotations

import cv2
import numpy as np
from fpdf import FPDF
from numpy.typing import NDArray

from calibration.board_spec import PAPER_SIZES_MM, dictionary_by_name
from engine.fonts import japanese_font
from engine.i18n import N_, gettext_for

_ = gettext_for(__name__)

# The sheets' captions may be Japanese (and figure names either language): a TrueType font with Japanese
# glyphs, embedded (subset) in every PDF, instead of the PDF base fonts that have only Latin-1.
TEXT_FONT = "IPAexGothic"
SCALE_NOTE = N_("print at 100% / actual size (no 'fit to page')")


def new_pdf(paper: str, landscape: bool, title: str) -> FPDF:
    """An empty PDF of ``paper`` in mm, with no automatic page breaks or margins in the way."""
    key = paper.lower()
    if key not in PAPER_SIZES_MM:
        raise ValueError(_("unknown paper {paper!r}; use one of: {join}", paper=paper, join=', '.join(PAPER_SIZES_MM)))
    pdf = FPDF(orientation="L" if landscape else "P", unit="mm", format=PAPER_SIZES_MM[key])
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.set_title(title)
    pdf.set_creator("Hexa Table Companion")
    font = str(japanese_font())
    for style in ("", "B"):  # one face for both: the sheets' bold lines are titles, not emphasis
        pdf.add_font(TEXT_FONT, style, font)
    pdf.set_font(TEXT_FONT, size=9)
    return pdf


def page_size(paper: str, landscape: bool) -> tuple[float, float]:
    """(width, height) of the page in mm."""
    w, h = PAPER_SIZES_MM[paper.lower()]
    return (h, w) if landscape else (w, h)


def marker_bits(dictionary: str, marker_id: int) -> NDArray[np.uint8]:
    """The tag's inner bit matrix (1 = white), rows top to bottom, as OpenCV generates it."""
    d = dictionary_by_name(dictionary)
    count = int(d.bytesList.shape[0])
    if not 0 <= marker_id < count:
        raise ValueError(_("id {marker_id} is not in {dictionary} (ids 0–{value})",
                           marker_id=marker_id, dictionary=dictionary, value=count - 1))
    bits = cv2.aruco.Dictionary.getBitsFromByteList(d.bytesList[marker_id:marker_id + 1], int(d.markerSize))
    return np.asarray(bits, dtype=np.uint8)


def draw_marker(pdf: FPDF, dictionary: str, marker_id: int, x: float, y: float, size: float) -> None:
    """Draw tag ``marker_id`` with its one-cell black border, top-left at (x, y), ``size`` mm wide."""
    bits = marker_bits(dictionary, marker_id)
    n = bits.shape[0]
    cell = size / (n + 2)
    pdf.set_fill_color(0, 0, 0)
    pdf.rect(x, y, size, size, style="F")
    pdf.set_fill_color(255, 255, 255)
    for row in range(n):
        col = 0
        while col < n:  # one rectangle per run of white cells keeps seams out of the print
            if bits[row, col]:
                start = col
                while col < n and bits[row, col]:
                    col += 1
                pdf.rect(x + (start + 1) * cell, y + (row + 1) * cell, (col - start) * cell, cell, style="F")
            else:
                col += 1


def draw_check_bar(pdf: FPDF, x: float, y: float, length: float = 100.0) -> None:
    """A ``length`` mm bar with a tick every 10 mm and its label: the user measures it with a ruler."""
    pdf.set_fill_color(0, 0, 0)
    pdf.rect(x, y, length, 1.2, style="F")
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.25)
    for i in range(int(length // 10) + 1):
        tick = 4.0 if i % 5 == 0 else 2.5
        tx = x + i * 10.0
        pdf.line(tx, y - tick + 1.2, tx, y + 1.2)
    pdf.set_font(TEXT_FONT, size=8)
    pdf.text(x + length + 2.0, y + 1.5, _("check bar: {length:g} mm - measure it", length=length))


def draw_cut_box(pdf: FPDF, x: float, y: float, w: float, h: float) -> None:
    """Thin dashed grey cut lines around a box."""
    pdf.set_draw_color(150, 150, 150)
    pdf.set_line_width(0.15)
    pdf.set_dash_pattern(dash=1.5, gap=1.0)
    pdf.rect(x, y, w, h)
    pdf.set_dash_pattern()
