"""Top faces kept from frame to frame for blobs that have not changed, while dice come to rest.

In the frames before dice settle, each die's top faces were found again in every frame (a fifth of such a frame's
cost), yet most blobs come out as they were: their box, area and centre within the picture's noise. A blob whose box
lies within ``SAME_BOX_PX`` of the one a blob's top faces were found in, its area within ``SAME_AREA_SHARE`` and its
centre within ``SAME_CENTRE_MM`` of that blob's, takes those faces, moved by as much as its centre moved. They are held
against the blob they were *found* in, never against a frame that took them: a die creeping a little each frame cannot
hide its drift, which adds up against that blob until its faces are found again. Whether a die is still is judged from
its blob (:class:`vision.dice.tracking.Sighting`), so a kept face's place, off by a search's noise, resets no die; the
reader finds faces afresh whenever a die is to be read, so readings always come from their own frame's faces.
"""

from __future__ import annotations

import math
from dataclasses import replace

from vision.dice.segment import Blob
from vision.dice.top_face import TopFace

SAME_CENTRE_MM = 0.3  # a blob's centre this close to the one its faces were found in: the die has not moved …
SAME_AREA_SHARE = 0.03  # … its area within this share of that blob's …
SAME_BOX_PX = 1  # … and each side of its box within this many pixels


class KeptFaces:
    """The top faces found in each blob of the frame last searched, kept for the next frame's blobs."""

    def __init__(self) -> None:
        self._found: list[tuple[Blob, list[TopFace]]] = []  # each blob with the faces found in it (not moved)
        self._next: list[tuple[Blob, list[TopFace]]] = []

    def faces_of(self, blob: Blob) -> list[TopFace] | None:
        """The faces of the kept blob ``blob`` is the same as (kept again for the next frame), moved with its centre;
        None when there is none such."""
        for kept, faces in self._found:
            if (_same_box(kept.box, blob.box) and abs(kept.area_mm2 - blob.area_mm2) <= SAME_AREA_SHARE * kept.area_mm2
                    and math.dist(kept.centroid_mm, blob.centroid_mm) <= SAME_CENTRE_MM):
                self._next.append((kept, faces))
                dx, dy = blob.centroid_mm[0] - kept.centroid_mm[0], blob.centroid_mm[1] - kept.centroid_mm[1]
                return [replace(f, centre_mm=(f.centre_mm[0] + dx, f.centre_mm[1] + dy)) for f in faces]
        return None

    def found(self, blob: Blob, faces: list[TopFace]) -> None:
        """``faces`` were found in ``blob`` in this frame."""
        self._next.append((blob, list(faces)))

    def next_frame(self) -> None:
        """This frame's blobs and faces become those kept (a hand, or no dice: none kept)."""
        self._found, self._next = self._next, []


def _same_box(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether boxes (x0, y0, w, h) have each side within ``SAME_BOX_PX``."""
    return (abs(a[0] - b[0]) <= SAME_BOX_PX and abs(a[1] - b[1]) <= SAME_BOX_PX
            and abs(a[0] + a[2] - b[0] - b[2]) <= SAME_BOX_PX and abs(a[1] + a[3] - b[1] - b[3]) <= SAME_BOX_PX)
