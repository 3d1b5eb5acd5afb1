"""The board's textures render again only where their drawing changed: which boxes, from what was drawn before and
after (the window tests check the texels themselves against a whole render at every screenshot)."""

from __future__ import annotations

import random

from companion_app.ui.partial_render import Primitive, _common_start, _groups, _join, box_of, changed_boxes, cover

WHITE = (1.0, 1.0, 1.0, 1.0)


def square(x: float, y: float, side: float = 10.0, rgba: tuple[float, ...] = WHITE) -> Primitive:
    """A mesh polygon's entry: its colour, no texture, its vertices (x, y, u, v)."""
    points = (x, y, 0.0, 0.0, x + side, y, 0.0, 0.0, x + side, y + side, 0.0, 0.0, x, y + side, 0.0, 0.0)
    return ("mesh", rgba, None, points)


def text(x: float, y: float, w: float = 30.0, h: float = 8.0) -> Primitive:
    return ("rect", WHITE, "a texture", x, y, w, h, (0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0))


def inside(box: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def test_where_a_primitive_draws() -> None:
    assert box_of(square(5, 7)) == (5, 7, 15, 17)
    assert box_of(text(1, 2)) == (1, 2, 31, 10)
    assert box_of(("rect", WHITE, None, 10.0, 10.0, -4.0, 5.0, ())) == (6.0, 10.0, 10.0, 15.0)  # a mirrored quad


def test_nothing_changed_renders_nothing() -> None:
    drawn = [square(i * 20, 0) for i in range(30)] + [text(i * 20, 30) for i in range(30)]
    assert changed_boxes(drawn, [tuple(p) for p in drawn]) == []


def test_a_figure_moved_renders_where_it_was_and_where_it_is() -> None:
    old = [square(i * 20, 0) for i in range(30)]
    new = list(old)
    new[12] = square(500, 300)
    assert sorted(changed_boxes(old, new)) == sorted([box_of(old[12]), box_of(new[12])])


def test_one_added_or_taken_away_renders_only_its_box() -> None:
    old = [square(i * 20, 0) for i in range(30)]
    new = [*old[:10], text(400, 400), *old[10:]]
    assert changed_boxes(old, new) == [box_of(text(400, 400))]
    assert changed_boxes(new, old) == [box_of(text(400, 400))]
    fewer = old[:5] + old[6:]
    assert changed_boxes(old, fewer) == [box_of(old[5])]


def test_primitives_drawn_in_another_order_render_where_they_are() -> None:
    a, b = square(0, 0, rgba=(1, 0, 0, 0.5)), square(5, 5, rgba=(0, 0, 1, 0.5))  # overlapping, translucent
    assert sorted(changed_boxes([a, b], [b, a])) == sorted([box_of(a), box_of(b)] * 2)  # both places, in the new order
    c, far = text(100, 100), square(900, 900)  # one taken away as the others changed order: all of them, not `far`
    boxes = changed_boxes([far, a, b, c, far], [far, b, a, far])
    assert sorted(boxes) == sorted([box_of(a), box_of(b), box_of(c), box_of(b), box_of(a)])


def test_common_start_is_the_length_both_begin_with() -> None:
    rng = random.Random(4)
    for _ in range(300):
        a = [rng.randrange(4) for _ in range(rng.randrange(12))]
        b = a[:rng.randrange(len(a) + 1)] + [rng.randrange(4) for _ in range(rng.randrange(5))]
        n = 0
        while n < min(len(a), len(b)) and a[n] == b[n]:
            n += 1
        assert _common_start(a, b) == n


def _random_boxes(rng: random.Random, most: int, span: int, size: int) -> list[tuple[int, int, int, int]]:
    """1 to ``most`` boxes at random in a square of ``span`` texels, each at most ``size`` texels across."""
    boxes = []
    for _ in range(rng.randrange(1, most)):
        x, y = rng.randrange(0, span), rng.randrange(0, span)
        boxes.append((x, y, x + rng.randrange(1, size), y + rng.randrange(1, size)))
    return boxes


def test_cover_keeps_every_box_inside_at_most_the_passes_given() -> None:
    rng = random.Random(7)
    for _ in range(200):
        boxes = _random_boxes(rng, 60, 2000, 80)
        for most in (1, 2, 3):
            covered = cover(boxes, most)
            assert 1 <= len(covered) <= most
            assert all(any(inside(b, c) for c in covered) for b in boxes)


def _near(a: tuple[int, int, int, int], b: tuple[int, int, int, int], cell: int) -> bool:
    """Whether two boxes lie in the same or neighbouring cells of the grid."""
    return (a[0] // cell - 1 <= (b[2] - 1) // cell and b[0] // cell <= (a[2] - 1) // cell + 1
            and a[1] // cell - 1 <= (b[3] - 1) // cell and b[1] // cell <= (a[3] - 1) // cell + 1)


def test_groups_join_exactly_the_boxes_chained_by_neighbouring_cells() -> None:
    rng = random.Random(11)
    for _ in range(300):
        boxes = _random_boxes(rng, 40, 900, 120)
        group = list(range(len(boxes)))  # brute force: join every near pair's groups
        for i in range(len(boxes)):
            for j in range(i):
                if _near(boxes[i], boxes[j], 32) and group[i] != group[j]:
                    old = group[j]
                    group = [group[i] if g == old else g for g in group]
        expected: dict[int, tuple[int, int, int, int]] = {}
        for i, g in enumerate(group):
            expected[g] = _join(expected[g], boxes[i]) if g in expected else boxes[i]
        assert sorted(_groups(boxes, 32)) == sorted(expected.values())


def test_two_changes_far_apart_cost_two_small_boxes() -> None:
    near_a = [(100 + i, 100, 110 + i, 112) for i in range(0, 40, 4)]
    near_b = [(1800 + i, 1700, 1810 + i, 1712) for i in range(0, 40, 4)]
    two = cover(near_a + near_b, 2)
    area = sum((b[2] - b[0]) * (b[3] - b[1]) for b in two)
    assert len(two) == 2 and area < 2 * 60 * 20  # not the 1,700 × 1,600 box that spans both
    assert cover(near_a + near_b, 1) == [(100, 100, 1846, 1712)]
