"""Sheets of single ArUco tags: one per figure base (or per anchor hex), id under each, cut lines.

Figure markers and board anchors are the same drawing with different labels, so both come from
:func:`tag_sheet_pdf`; :func:`parse_ids` reads the ``--ids 0-5,8,10-12`` syntax.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from calibration.board_spec import dictionary_by_name, dictionary_size
from calibration.printables.pdf_canvas import (
    SCALE_NOTE,
    TEXT_FONT,
    draw_check_bar,
    draw_cut_box,
    draw_marker,
    new_pdf,
    page_size,
)
from engine.i18n import gettext_for

_ = gettext_for(__name__)

PAGE_MARGIN_MM = 10.0
HEADER_MM = 10.0
FOOTER_MM = 14.0
LABEL_MM = 5.0


@dataclass(frozen=True)
class TagLayout:
    """Where tags go on a page: tag side, quiet margin, and the cell each tag is cut out in."""

    size_mm: float
    quiet_mm: float

    @property
    def cell_w(self) -> float:
        return self.size_mm + 2 * self.quiet_mm

    @property
    def cell_h(self) -> float:
        return self.size_mm + 2 * self.quiet_mm + LABEL_MM


def quiet_margin(size_mm: float, cells: int) -> float:
    """White margin around a tag: at least one bit cell (what the detector needs) and 3 mm to cut in."""
    return max(3.0, size_mm / cells)


def parse_ids(text: str) -> list[int]:
    """``"0-5,8,10-12"`` → [0, 1, 2, 3, 4, 5, 8, 10, 11, 12] (order kept, duplicates dropped)."""
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        try:
            if "-" in part:
                lo_text, hi_text = part.split("-", 1)
                lo, hi = int(lo_text), int(hi_text)
                if hi < lo:
                    raise ValueError
                ids.extend(range(lo, hi + 1))
            else:
                ids.append(int(part))
        except ValueError:
            raise ValueError(_("cannot read ids {part!r}: write ranges and single ids like 0-23 or 0-5,8,10-12",
                               part=part)
                             ) from None
    if not ids:
        raise ValueError(_("no ids given: write them like 0-23 or 0-5,8,10-12"))
    return list(dict.fromkeys(ids))


def tag_positions(layout: TagLayout, paper: str, count: int) -> list[tuple[int, float, float]]:
    """(page, x, y) of each tag's top-left corner, filling pages row by row."""
    pw, ph = page_size(paper, landscape=False)
    cols = int((pw - 2 * PAGE_MARGIN_MM) // layout.cell_w)
    rows = int((ph - 2 * PAGE_MARGIN_MM - HEADER_MM - FOOTER_MM) // layout.cell_h)
    if cols < 1 or rows < 1:
        raise ValueError(_("a {size_mm:g} mm tag does not fit on {paper} paper; choose a smaller --size",
                           size_mm=layout.size_mm, paper=paper))
    x_start = (pw - cols * layout.cell_w) / 2.0
    y_start = PAGE_MARGIN_MM + HEADER_MM
    out: list[tuple[int, float, float]] = []
    for i in range(count):
        page, slot = divmod(i, cols * rows)
        row, col = divmod(slot, cols)
        out.append((page, x_start + col * layout.cell_w + layout.quiet_mm,
                    y_start + row * layout.cell_h + layout.quiet_mm))
    return out


BACK_MARK_MM = 2.0  # the triangle under a figure tag pointing to the figure's back


def tag_sheet_pdf(ids: list[int], size_mm: float, dictionary: str, paper: str, title: str, label: str,
                  back_mark: bool = False) -> FPDF:
    """Pages of tags ``ids``; ``label`` is formatted with ``id`` for the text under each tag.

    With ``back_mark`` a small triangle beside the label points down, away from the tag's top: a figure faces
    the way its tag's top points, so the mark shows its back (the back space of rule sets with facing).
    """
    limit = dictionary_size(dictionary)
    bad = [i for i in ids if not 0 <= i < limit]
    if bad:
        raise ValueError(_("ids {bad} are not in {dictionary} (it has ids 0–{value})",
                           bad=bad, dictionary=dictionary, value=limit - 1))
    if not 5.0 <= size_mm <= 150.0:
        raise ValueError(_("tag size {size_mm:g} mm is not sensible; use 5–150 mm (25 fits most figure bases)",
                           size_mm=size_mm))
    cells = int(dictionary_by_name(dictionary).markerSize) + 2
    layout = TagLayout(size_mm, quiet_margin(size_mm, cells))
    pdf = new_pdf(paper, landscape=False, title=title)
    positions = tag_positions(layout, paper, len(ids))
    pages = positions[-1][0] + 1
    _pw, ph = page_size(paper, landscape=False)
    current = -1
    for marker_id, (page, x, y) in zip(ids, positions, strict=True):
        if page != current:
            current = page
            pdf.add_page()
            pdf.set_font(TEXT_FONT, style="B", size=9)
            pdf.text(PAGE_MARGIN_MM, PAGE_MARGIN_MM + 3.0,
                     _("{title} - {dictionary}, {size:g} mm - page {page}/{pages} - {note}", title=title,
                       dictionary=dictionary, size=size_mm, page=page + 1, pages=pages, note=_(SCALE_NOTE)))
            draw_check_bar(pdf, PAGE_MARGIN_MM, ph - PAGE_MARGIN_MM - 4.0, 50.0)
        draw_marker(pdf, dictionary, marker_id, x, y, size_mm)
        draw_cut_box(pdf, x - layout.quiet_mm, y - layout.quiet_mm, layout.cell_w, layout.cell_h)
        pdf.set_font(TEXT_FONT, size=max(5.0, min(9.0, size_mm / 3.0)))
        text = label.format(id=marker_id)
        tx, baseline = x + (size_mm - pdf.get_string_width(text)) / 2.0, y + size_mm + layout.quiet_mm / 2.0 + 2.5
        pdf.text(tx, baseline, text)
        if back_mark:
            left, m = tx + pdf.get_string_width(text) + 1.0, BACK_MARK_MM
            pdf.polygon([(left, baseline - m), (left + m, baseline - m), (left + m / 2.0, baseline)], style="F")
    return pdf


def write_tag_sheet(path: str | Path, ids: list[int], size_mm: float, dictionary: str, paper: str, title: str,
                    label: str, back_mark: bool = False) -> Path:
    """Write a tag sheet PDF to ``path``."""
    target = Path(path)
    tag_sheet_pdf(ids, size_mm, dictionary, paper, title, label, back_mark).output(str(target))
    return target
