"""A plain reference for a centre-to-centre line "nudged both ways", for property tests.

The line from hex ``a`` to hex ``b`` is shifted sideways by a tiny exact distance (``±DELTA`` times a
perpendicular vector, in fractions) and clipped against every hex near the cube-lerp line: a hex is on the
nudged line when the shifted segment runs a positive length through its interior. Far smaller than any gap
between a line and a corner on a map of this size, the shift decides exactly as an infinitesimal one, and a
corner the line passes through is clipped by one of the two shifts (a sliver no sampling would see).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

from engine.hexes import DIRECTIONS, Edge, Hex, edge, hex_distance, hex_round

DELTA = Fraction(1, 10**12)
_CUBE = tuple((d.q, d.r, d.s) for d in DIRECTIONS)


def _dot(u: tuple[int, int, int] | tuple[Fraction, Fraction, Fraction], v: tuple[int, int, int]) -> Fraction:
    return Fraction(u[0] * v[0] + u[1] * v[1] + u[2] * v[2])


def _entry(h: Hex, target: tuple[int, int, int], shift: tuple[Fraction, Fraction, Fraction]) -> Fraction | None:
    """Where (t in 0..1) the shifted segment enters the interior of ``h``, or None when it does not run through it.

    The cell of ``h`` is {p : (p - h)·d < 1 for the six directions d}; the segment is p(t) = t·target + shift."""
    lo, hi = Fraction(0), Fraction(1)
    hc = (h.q, h.r, h.s)
    for d in _CUBE:
        speed = _dot(target, d)
        room = 1 + _dot(hc, d) - _dot(shift, d)  # t·speed < room
        if speed == 0:
            if room <= 0:
                return None
        elif speed > 0:
            hi = min(hi, room / speed)
        else:
            lo = max(lo, room / speed)
    return lo if lo < hi else None


def lerp_line(t: Hex) -> list[Hex]:
    """The cube-lerp line from the origin to ``t``: the hex of each of ``distance + 1`` evenly spaced points."""
    n = max(hex_distance(Hex(0, 0), t), 1)
    return [hex_round(t.q * i / n, t.r * i / n) for i in range(n + 1)]


def nudged_hexes(a: Hex, b: Hex, way: int) -> tuple[Hex, ...]:
    """Every hex the segment a → b enters, shifted ``way`` (+1 or -1) × DELTA sideways, in order from ``a``."""
    t = b - a
    target = (t.q, t.r, t.s)
    n = (t.r - t.s, t.s - t.q, t.q - t.r)  # perpendicular to the line, in the plane q + r + s = 0
    shift = (way * DELTA * n[0], way * DELTA * n[1], way * DELTA * n[2])
    near = {h + d for h in lerp_line(t) for d in (*DIRECTIONS, Hex(0, 0))}
    entered = [(e, h) for h in near if (e := _entry(h, target, shift)) is not None]
    return tuple(h + a for _e, h in sorted(entered, key=lambda eh: (eh[0], eh[1])))


def nudged_way(a: Hex, b: Hex, way: int) -> tuple[Hex | Edge, ...]:
    """The nudged line's inner hexes and crossed sides in order from ``a`` (``a`` and ``b`` left out)."""
    hexes = nudged_hexes(a, b, way)
    out: list[Hex | Edge] = []
    for prev, h in pairwise(hexes):
        assert prev.distance(h) == 1, f"the nudged line jumps from {prev} to {h}: the reference missed a hex"
        out.append(edge(prev, h))
        if h != b:
            out.append(h)
    return tuple(out)
