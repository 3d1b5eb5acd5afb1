"""Standard dice faces, as the reader expects them and the synthetic table draws them.

A d6 is a cube whose opposite faces sum to 7, with round pips in the usual layouts; a d10 is a
pentagonal trapezohedron with the numerals 0–9 (opposite faces sum to 9).
"""

from __future__ import annotations

D6_SIDE_MM = 16.0
D10_FACE_GAP_MM = 15.0  # between opposite faces, i.e. the height of a d10 resting on a face
D6_FACES: dict[int, tuple[float, float, float]] = {  # outward normals; opposite faces sum to 7
    1: (0.0, 0.0, 1.0), 6: (0.0, 0.0, -1.0), 2: (1.0, 0.0, 0.0), 5: (-1.0, 0.0, 0.0),
    3: (0.0, 1.0, 0.0), 4: (0.0, -1.0, 0.0),
}
PIP_SPOT = 0.5  # pip offset from the face centre, as a fraction of the half side
PIP_RADIUS = 0.19  # as a fraction of the half side (3 mm pips on a 16 mm die)
PIPS: dict[int, tuple[tuple[float, float], ...]] = {  # face coordinates in -1..1, u right and v down
    1: ((0.0, 0.0),),
    2: ((-1.0, -1.0), (1.0, 1.0)),
    3: ((-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)),
    4: ((-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)),
    5: ((-1.0, -1.0), (1.0, -1.0), (0.0, 0.0), (-1.0, 1.0), (1.0, 1.0)),
    6: ((-1.0, -1.0), (-1.0, 0.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 0.0), (1.0, 1.0)),
}
FACE_RANGES: dict[str, tuple[int, int]] = {"d6": (1, 6), "d10": (0, 9)}
DIE_HEIGHT_MM: dict[str, float] = {"d6": D6_SIDE_MM, "d10": D10_FACE_GAP_MM}  # resting on a face
