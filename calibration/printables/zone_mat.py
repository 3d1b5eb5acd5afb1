"""The Tenkey battle's zone mat: 3×3 square zones numbered like a numeric keypad (7 8 9 on top).

Four board-anchor tags sit just outside the mat's corners so the camera can register the mat
with :mod:`calibration.registration` like any hex map; :func:`zone_mat_geometry` gives their
positions and the zone centres in the mat's own frame (mm, origin at the outer top-left corner
of zone 7, x right, y down).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from calibration.anchor_tags import ANCHOR_DICTIONARY, ANCHOR_IDS
from calibration.printables.pdf_canvas import SCALE_NOTE, TEXT_FONT, draw_check_bar, draw_marker, new_pdf, page_size
from engine.i18n import gettext_for

_ = gettext_for(__name__)

# Keypad layout, top row first.
KEYPAD_ROWS: tuple[tuple[int, int, int], ...] = ((7, 8, 9), (4, 5, 6), (1, 2, 3))
MARGIN_MM = 8.0
ANCHOR_TAG_MM = 15.0
ANCHOR_GAP_MM = 3.0
FOOTER_MM = 18.0


@dataclass(frozen=True)
class ZoneMatGeometry:
    """The mat's size and where its zones and anchors are, in the mat frame (mm)."""

    zone_mm: float
    mat_origin_on_page: tuple[float, float]
    zone_centres: dict[int, tuple[float, float]]
    anchors: dict[int, tuple[float, float]]  # anchor id → tag centre


def zone_mat_geometry(paper: str = "a4") -> ZoneMatGeometry:
    """Zones as large as the (portrait) page allows with room for the corner anchors and the footer."""
    pw, ph = page_size(paper, landscape=False)
    outer = ANCHOR_TAG_MM + ANCHOR_GAP_MM
    side = min(pw - 2 * MARGIN_MM - 2 * outer, ph - 2 * MARGIN_MM - 2 * outer - FOOTER_MM)
    zone = float(int(side / 3.0))  # whole millimetres: easy to check with a ruler
    mat = 3 * zone
    x0 = (pw - mat) / 2.0
    y0 = MARGIN_MM + outer
    centres = {number: ((col + 0.5) * zone, (row + 0.5) * zone)
               for row, numbers in enumerate(KEYPAD_ROWS) for col, number in enumerate(numbers)}
    a = ANCHOR_GAP_MM + ANCHOR_TAG_MM / 2.0
    corners = [(-a, -a), (mat + a, -a), (-a, mat + a), (mat + a, mat + a)]
    anchors = {ANCHOR_IDS[i]: corners[i] for i in range(4)}
    return ZoneMatGeometry(zone, (x0, y0), centres, anchors)


def zone_mat_pdf(paper: str = "a4") -> FPDF:
    """The zone mat as a one-page PDF."""
    geo = zone_mat_geometry(paper)
    pdf = new_pdf(paper, landscape=False, title=_("Hexa Tenkey zone mat"))
    pdf.add_page()
    x0, y0 = geo.mat_origin_on_page
    zone = geo.zone_mm
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.8)
    pdf.set_text_color(170, 170, 170)
    pdf.set_font(TEXT_FONT, style="B", size=zone * 1.2)
    for number, (cx, cy) in geo.zone_centres.items():
        pdf.rect(x0 + cx - zone / 2.0, y0 + cy - zone / 2.0, zone, zone)
        text = str(number)
        pdf.text(x0 + cx - pdf.get_string_width(text) / 2.0, y0 + cy + zone * 0.15, text)
    pdf.set_text_color(0, 0, 0)
    half = ANCHOR_TAG_MM / 2.0
    pdf.set_font(TEXT_FONT, size=6)
    for marker_id, (ax, ay) in geo.anchors.items():
        draw_marker(pdf, ANCHOR_DICTIONARY, marker_id, x0 + ax - half, y0 + ay - half, ANCHOR_TAG_MM)
    _pw, ph = page_size(paper, landscape=False)
    draw_check_bar(pdf, MARGIN_MM + 2.0, ph - MARGIN_MM - 9.0)
    pdf.set_font(TEXT_FONT, style="B", size=9)
    pdf.text(MARGIN_MM + 2.0, ph - MARGIN_MM - 1.0, _("Tenkey zone mat, zones {zone:g} mm - {note}",
                                                      zone=zone, note=_(SCALE_NOTE)))
    return pdf


def write_zone_mat(path: str | Path, paper: str = "a4") -> Path:
    """Write the zone mat PDF to ``path``."""
    target = Path(path)
    zone_mat_pdf(paper).output(str(target))
    return target
