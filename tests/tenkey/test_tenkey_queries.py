"""What a tap on a character shows: moves with costs, range with blocked routes, area, line, obstruction."""

from __future__ import annotations

from engine.rules.content import QueryKind
from tests.tenkey.tenkey_scenarios import game, zone


def test_the_queries_and_the_glossary_are_declared() -> None:
    g = game([("ann", "party", "2", {}), ("orc", "band", "8", {})])
    names = [q.name for q in g.rules.queries]
    assert names == ["reachable", "full_moves", "targets", "area", "line", "obstruct"]
    assert all(isinstance(q, QueryKind) and q.about == "figure" for q in g.rules.queries)
    terms = {t.term: t for t in g.rules.glossary()}
    assert "terrain:obstacle" in terms["obstacle"].press and "footwork" in terms
    assert g.rules.phase_names == {"act": "Characters act"}


def test_moves_are_labelled_with_the_metres_they_need() -> None:
    g = game([("ann", "party", "2", {"movement": 20}), ("orc", "band", "9", {})])
    cells = {g.scenario.label(c.cell): c.label for c in g.rules.query(g.state, "reachable", "ann").cells}
    assert cells == {"1": "3 m", "3": "3 m", "5": "10 m", "4": "13 m", "6": "13 m", "8": "20 m"}


def test_range_shows_every_zones_range_and_the_blocked_ones() -> None:
    g = game([("ann", "party", "2", {"shot_range": 30}), ("orc", "band", "8", {})], obstacles="5")
    overlay = g.rules.query(g.state, "targets", "ann")
    cells = {g.scenario.label(c.cell): (c.style, c.label) for c in overlay.cells}
    assert cells["8"] == ("warn", "20 m") and cells["5"] == ("shade", "10 m") and cells["1"] == ("shade", "10 m")
    (line,) = overlay.lines
    assert line.verdict == "blocked" and line.blocker == zone(g, "5")
    assert line.path == (zone(g, "2"), zone(g, "5"), zone(g, "8"))
    assert "blocked: an obstacle or an enemy in 5" in line.text


def test_the_area_preview_shades_the_area_at_the_nearest_enemy() -> None:
    g = game([("ann", "party", "1", {"area_range": 30, "area_radius": 6}), ("orc", "band", "4", {})])
    overlay = g.rules.query(g.state, "area", "ann")
    shaded = {g.scenario.label(c.cell) for c in overlay.cells if c.style == "shade"}
    assert shaded == {"4", "5"}
    assert overlay.texts[0] == "radius 6 m at 4: 4 and 5"


def test_the_line_preview_lists_who_is_caught() -> None:
    g = game([("ann", "party", "1", {"line_range": 30}), ("gob", "band", "5", {}), ("orc", "band", "9", {})])
    overlay = g.rules.query(g.state, "line", "ann")
    texts = sorted(line.text for line in overlay.lines)
    assert texts == ["through Gob: 1, 5 and 9 (Gob, Orc)"]  # Orc is behind Gob, who blocks a line aimed at Orc


def test_the_obstruct_preview_follows_footwork_and_melee() -> None:
    g = game([("ann", "party", "2", {"abilities": ["footwork"]}), ("orc", "band", "9", {})])
    cells = {g.scenario.label(c.cell) for c in g.rules.query(g.state, "obstruct", "ann").cells}
    assert cells == {"1", "2", "3", "5"}
    g = game([("ann", "party", "2", {"abilities": ["footwork"]}), ("orc", "band", "2", {})])
    cells = {g.scenario.label(c.cell) for c in g.rules.query(g.state, "obstruct", "ann").cells}
    assert cells == {"2"}
