"""The printed ChArUco sheet's parameters, and the OpenCV board built from them.

One small value type shared by the printer (``hexa print grid``), the calibrator and the
calibration file, so the sheet on the table and the numbers in the file cannot disagree.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import cv2

from engine.i18n import gettext_for

_ = gettext_for(__name__)

# Only the predefined dictionaries OpenCV ships, by their OpenCV names.
DICTIONARY_NAMES: tuple[str, ...] = tuple(
    sorted(n for n in dir(cv2.aruco) if n.startswith("DICT_") and n.upper() == n)
)


# Paper sizes in millimetres, portrait (width, height).
PAPER_SIZES_MM: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
}


def dictionary_by_name(name: str) -> cv2.aruco.Dictionary:
    """The predefined ArUco dictionary called ``name`` (e.g. ``"DICT_4X4_100"``)."""
    if name not in DICTIONARY_NAMES:
        raise ValueError(_("unknown ArUco dictionary {name!r}; use one of: {join}",
                           name=name, join=', '.join(DICTIONARY_NAMES)))
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def dictionary_size(name: str) -> int:
    """How many distinct markers the dictionary holds."""
    return int(dictionary_by_name(name).bytesList.shape[0])


@dataclass(frozen=True)
class BoardSpec:
    """A ChArUco board: squares across/down, square and marker side in mm, the paper it is for.

    The defaults are the A4 sheet's board (see :func:`default_spec`).
    """

    dictionary: str = "DICT_5X5_100"
    squares_x: int = 10
    squares_y: int = 6
    square_mm: float = 28.0
    marker_mm: float = 21.0
    paper: str = "a4"

    def __post_init__(self) -> None:
        if self.squares_x < 3 or self.squares_y < 3:
            raise ValueError(_("a ChArUco board needs at least 3×3 squares, got {squares_x}×{squares_y}",
                               squares_x=self.squares_x, squares_y=self.squares_y))
        if not 0 < self.marker_mm < self.square_mm:
            raise ValueError(_("marker side ({marker_mm} mm) must be positive and smaller than the square "
                               "({square_mm} mm)", marker_mm=self.marker_mm, square_mm=self.square_mm))
        needed = (self.squares_x * self.squares_y) // 2
        if needed > dictionary_size(self.dictionary):
            raise ValueError(_("{dictionary} has too few markers for a {squares_x}×{squares_y} board ({needed} "
                               "needed); pick a larger dictionary",
                               dictionary=self.dictionary, squares_x=self.squares_x, squares_y=self.squares_y,
                               needed=needed))

    @property
    def width_mm(self) -> float:
        return self.squares_x * self.square_mm

    @property
    def height_mm(self) -> float:
        return self.squares_y * self.square_mm

    @property
    def corner_count(self) -> int:
        """Number of inner chessboard corners (the points a view can contribute)."""
        return (self.squares_x - 1) * (self.squares_y - 1)

    def scaled(self, factor: float) -> BoardSpec:
        """The same board as actually printed at ``factor`` × true size (from the check bar)."""
        return BoardSpec(self.dictionary, self.squares_x, self.squares_y, self.square_mm * factor,
                         self.marker_mm * factor, self.paper)

    def make_board(self) -> cv2.aruco.CharucoBoard:
        """The OpenCV board object (current, non-legacy pattern)."""
        return cv2.aruco.CharucoBoard((self.squares_x, self.squares_y), float(self.square_mm),
                                      float(self.marker_mm), dictionary_by_name(self.dictionary))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON object with exactly the keys the issue names."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> BoardSpec:
        """Parse and validate; raises ``ValueError`` naming the bad field."""
        if not isinstance(data, dict):
            raise ValueError(_("board spec must be a JSON object, got {name__}", name__=type(data).__name__))
        try:
            return cls(
                dictionary=str(data["dictionary"]),
                squares_x=_as_int(data["squares_x"], "squares_x"),
                squares_y=_as_int(data["squares_y"], "squares_y"),
                square_mm=float(data["square_mm"]),
                marker_mm=float(data["marker_mm"]),
                paper=str(data.get("paper", "a4")),
            )
        except KeyError as exc:
            raise ValueError(_("board spec is missing {value!r}", value=exc.args[0])) from None
        except TypeError as exc:
            raise ValueError(_("board spec has a field of the wrong type: {exc}", exc=exc)) from None


def _as_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(_("board spec field {name!r} must be an integer, got {value!r}", name=name, value=value))
    return value


# The board printed on each paper (landscape, leaving a strip for the check bar and the text).
# Squares as large as the page allows: bigger squares are found from further away.
_PAPER_BOARDS: dict[str, tuple[int, int, float, float]] = {
    "a4": (10, 6, 28.0, 21.0),
    "letter": (9, 6, 28.0, 21.0),
    "a3": (10, 6, 40.0, 30.0),
}


def default_spec(paper: str = "a4") -> BoardSpec:
    """The calibration board ``hexa print grid`` puts on ``paper``."""
    key = paper.lower()
    if key not in _PAPER_BOARDS:
        raise ValueError(_("unknown paper {paper!r}; use one of: {join}", paper=paper, join=', '.join(PAPER_SIZES_MM)))
    sx, sy, square, marker = _PAPER_BOARDS[key]
    return BoardSpec("DICT_5X5_100", sx, sy, square, marker, key)
