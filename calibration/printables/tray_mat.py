"""The dice tray mat (``hexa print tray``): a felt-green area with a tray tag at each corner, landscape.

The geometry is :mod:`calibration.tray_spec`'s (the reader's and the synthetic table's too): the area's
top-left corner is the tray frame's origin; the tags sit just outside its corners. ``--tray tray2`` prints
the second tray (tags 84–87) for a second side or a second camera.
"""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

from calibration.printables.pdf_canvas import SCALE_NOTE, TEXT_FONT, draw_check_bar, draw_marker, new_pdf, page_size
from calibration.tray_spec import TRAY_DICTIONARY, TRAY_FILL_RGB, TraySpec, tray_spec
from engine.i18n import gettext_for

_ = gettext_for(__name__)

FOOTER_MM = 16.0


def tray_origin_on_page(spec: TraySpec, paper: str) -> tuple[float, float]:
    """Where the area's top-left corner lies on the (landscape) page, mm: centred above the footer."""
    pw, ph = page_size(paper, landscape=True)
    return (pw - spec.width_mm) / 2.0, (ph - FOOTER_MM - spec.height_mm) / 2.0


def tray_mat_pdf(paper: str = "a4", tray: str = "tray") -> FPDF:
    """The tray mat as a one-page landscape PDF."""
    spec = tray_spec(tray)
    pdf = new_pdf(paper, landscape=True, title=_("Hexa dice tray"))
    pdf.add_page()
    x0, y0 = tray_origin_on_page(spec, paper)
    pdf.set_fill_color(*TRAY_FILL_RGB)
    b = spec.border_mm
    pdf.rect(x0 - b, y0 - b, spec.width_mm + 2 * b, spec.height_mm + 2 * b, style="F")
    half = spec.tag_mm / 2.0
    for marker_id, (cx, cy) in spec.tag_centres.items():
        draw_marker(pdf, TRAY_DICTIONARY, marker_id, x0 + cx - half, y0 + cy - half, spec.tag_mm)
    _pw, ph = page_size(paper, landscape=True)
    pdf.set_text_color(255, 255, 255)
    pdf.set_font(TEXT_FONT, size=9)
    caption = _("roll the dice here: a die on the green's outer {border:g} mm counts as outside", border=b)
    pdf.text(x0 + (spec.width_mm - pdf.get_string_width(caption)) / 2.0, y0 + spec.height_mm + b - 3.0, caption)
    pdf.set_text_color(0, 0, 0)
    draw_check_bar(pdf, 10.0, ph - 12.0)
    pdf.set_font(TEXT_FONT, style="B", size=9)
    ids = sorted(spec.tag_centres)
    pdf.text(10.0, ph - 4.0, _("Dice tray {name} (tags {first}-{last}), area {w:g} x {h:g} mm - {note}",
                               name=spec.name, first=ids[0], last=ids[-1], w=spec.width_mm, h=spec.height_mm,
                               note=_(SCALE_NOTE)))
    return pdf


def write_tray_mat(path: str | Path, paper: str = "a4", tray: str = "tray") -> Path:
    """Write the tray mat PDF to ``path``."""
    target = Path(path)
    tray_mat_pdf(paper, tray).output(str(target))
    return target
