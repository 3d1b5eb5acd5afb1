"""The player's guide agrees with the chart file: every action's cost and star, the start pages, the recovery rows."""

from __future__ import annotations

from pathlib import Path

from engine.rules.lost_worlds import chart

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "rules" / "lost-worlds.md"


def rows() -> dict[str, list[str]]:
    out = {}
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        if line.startswith("| ") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            out[cells[0]] = cells[1:]
    return out


def test_the_guides_movement_chart_is_the_chart_file() -> None:
    table = rows()
    for action in chart.actions().values():
        if action.id == "run":
            assert table["run"][0] == f"+{chart.run_bonus()} points"
            continue
        cost, *_ = table[action.name]
        number = "all" if action.all_points else (f"{action.cost} per level" if action.per_level else str(action.cost))
        assert cost == number + (" *" if action.starred else ""), action.name


def test_the_guides_start_pages_are_the_chart_files_in_order() -> None:
    table = rows()
    pages = [int(table[k][0]) for k in ("you are off-balance or down", "the enemy is in your back space",
                                        "you are in the enemy's back space", "the enemy is down",
                                        "the enemy is off-balance", "otherwise")]
    assert pages == [p for _, p, _ in chart.start_pages()]


def test_the_guides_recovery_table_is_the_chart_files() -> None:
    table = rows()
    for hp, results in chart.recovery_rows().items():
        key = str(hp).replace("-", "−")
        assert [c.replace("−", "-") for c in table[key]] == list(results)


def test_the_guide_leaves_a_place_for_the_tablet_picture() -> None:
    assert "TABLET PICTURE" in GUIDE.read_text(encoding="utf-8")


def test_the_guide_shows_the_tablet_picture_its_window_test_makes() -> None:
    assert "](../images/lost-worlds-tablet.png)" in GUIDE.read_text(encoding="utf-8")
    assert (GUIDE.parents[1] / "images" / "lost-worlds-tablet.png").stat().st_size > 10_000
