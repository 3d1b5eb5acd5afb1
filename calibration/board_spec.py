"""The printed ChArUco sheet's parameters, and the OpenCV board built from them.

One small value type shared by the printer (``hexa print grid``), the calibrator and the
calibration file, so the sheet on the table and the numbers in the file cannot disagree.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import cv2

# Only the predefined dictionaries OpenCV ships, by their OpenCV names.
DICTIONARY_NAMES: tuple[str, ...] = tuple(
    sorted(n for n in dir(cv2.aruco) if n.startswith("DICT_") and n.upper() == n)
)


def dictionary_by_name(name: str) -> cv2.aruco.Dictionary:
    """The predefined ArUco dictionary called ``name`` (e.g. ``"DICT_4X4_100"``)."""
    if name not in DICTIONARY_NAMES:
        raise ValueError(f"unknown ArUco dictionary {name!r}; use one of: {', '.join(DICTIONARY_NAMES)}")
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def dictionary_size(name: str) -> int:
    """How many distinct markers the dictionary holds."""
    return int(dictionary_by_name(name).bytesList.shape[0])


@dataclass(frozen=True)
class BoardSpec:
    """A ChArUco board: squares across/down, square and marker side in mm, the paper it is for."""

    dictionary: str = "DICT_5X5_100"
    squares_x: int = 7
    squares_y: int = 5
    square_mm: float = 30.0
    marker_mm: float = 22.0
    paper: str = "a4"

    def __post_init__(self) -> None:
        if self.squares_x < 3 or self.squares_y < 3:
            raise ValueError(f"a ChArUco board needs at least 3×3 squares, got {self.squares_x}×{self.squares_y}")
        if not 0 < self.marker_mm < self.square_mm:
            raise ValueError(f"marker side ({self.marker_mm} mm) must be positive and smaller than the square "
                             f"({self.square_mm} mm)")
        needed = (self.squares_x * self.squares_y) // 2
        if needed > dictionary_size(self.dictionary):
            raise ValueError(f"{self.dictionary} has too few markers for a {self.squares_x}×{self.squares_y} board "
                             f"({needed} needed); pick a larger dictionary")

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
            raise ValueError(f"board spec must be a JSON object, got {type(data).__name__}")
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
            raise ValueError(f"board spec is missing {exc.args[0]!r}") from None
        except TypeError as exc:
            raise ValueError(f"board spec has a field of the wrong type: {exc}") from None


def _as_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"board spec field {name!r} must be an integer, got {value!r}")
    return value
