"""The printed dice tray mat: where its area and its four corner tags are, in the tray's own frame.

One geometry for the printer (``hexa print tray``), the synthetic table and the dice reader. The tray
frame is millimetres with its origin at the area's top-left corner, x to the right and y down, as the
mat lies in front of the player. Tags 80–83 mark the first tray, 84–87 a second one (DICT_4X4_100,
below the board anchors 90–99), clockwise from the top-left corner.
"""

from __future__ import annotations

from dataclasses import dataclass

TRAY_DICTIONARY = "DICT_4X4_100"
TRAY_TAG_MM = 25.0
TRAY_GAP_MM = 3.0  # paper between the felt's corner and its tag
TRAY_AREA_MM = (170.0, 100.0)  # fits A4 and letter in landscape, with the felt's border, the tags and a footer
# The felt reaches this far beyond the area on every side: a camera looking from an angle sees the top of a die
# near the far edge against felt, not against the paper past it (a die on the border counts as outside).
TRAY_BORDER_MM = 15.0
TRAY_FILL_RGB = (70, 140, 90)  # a felt green: ordinary dice of every colour stand out against it
TRAY_NAMES = ("tray", "tray2")
TRAY_FIRST_IDS: dict[str, int] = {"tray": 80, "tray2": 84}
TRAY_IDS: tuple[int, ...] = tuple(range(80, 88))


@dataclass(frozen=True, slots=True)
class TraySpec:
    """One tray mat: its name, its area (mm), the felt's border around it, its tags' ids and centres (tray frame)."""

    name: str
    width_mm: float
    height_mm: float
    tag_mm: float
    tag_centres: dict[int, tuple[float, float]]  # id → centre; corners clockwise from the top-left
    border_mm: float = TRAY_BORDER_MM

    @property
    def extent_mm(self) -> float:
        """How far the printed mat (felt border, gap, tags) reaches beyond the area on every side."""
        return self.border_mm + TRAY_GAP_MM + self.tag_mm

    def tag_corners(self, marker_id: int) -> tuple[tuple[float, float], ...]:
        """The tag's four corners (mm, tray frame), clockwise from its top-left, as ArUco reports them."""
        cx, cy = self.tag_centres[marker_id]
        s = self.tag_mm / 2.0
        return ((cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s))

    def contains(self, x_mm: float, y_mm: float, margin_mm: float = 0.0) -> bool:
        return (-margin_mm <= x_mm <= self.width_mm + margin_mm
                and -margin_mm <= y_mm <= self.height_mm + margin_mm)


def tray_spec(name: str = "tray") -> TraySpec:
    """The printed mat named ``name`` (``tray`` = tags 80–83, ``tray2`` = tags 84–87)."""
    if name not in TRAY_FIRST_IDS:
        raise ValueError(f"unknown tray {name!r}: use one of {', '.join(TRAY_NAMES)}")
    w, h = TRAY_AREA_MM
    a = TRAY_BORDER_MM + TRAY_GAP_MM + TRAY_TAG_MM / 2.0
    first = TRAY_FIRST_IDS[name]
    centres = ((-a, -a), (w + a, -a), (w + a, h + a), (-a, h + a))
    return TraySpec(name, w, h, TRAY_TAG_MM, {first + i: c for i, c in enumerate(centres)})


def tray_of_tag(marker_id: int) -> str | None:
    """Which tray a tag belongs to, None for any other tag."""
    for name, first in TRAY_FIRST_IDS.items():
        if first <= marker_id < first + 4:
            return name
    return None
