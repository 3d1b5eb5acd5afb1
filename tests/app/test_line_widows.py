"""A Japanese paragraph never ends on a line of one or two characters ("す。" alone under a help line): the line
above gives the last line a piece, at a place a line may break, and no line grows."""

from __future__ import annotations

from companion_app.ui.line_breaks import NO_LINE_START, break_lines

HINT = "フィギュアをタップすると、その移動、全力移動、射程、範囲、貫通、移動妨害が表示されます。"


def _width(text: str) -> float:
    return float(sum(2 if ord(c) > 0x2000 else 1 for c in text))


def test_a_help_line_does_not_leave_its_last_two_characters_alone() -> None:
    for width in range(8, 60):
        lines = break_lines(HINT, width, _width).split("\n")
        assert "".join(lines) == HINT
        assert len(lines) == 1 or len(lines[-1]) > 2, (width, lines)
        assert all(_width(line) <= width for line in lines if len(line) > 1), (width, lines)
        assert not any(line[0] in NO_LINE_START for line in lines[1:]), (width, lines)


def test_the_line_that_left_su_maru_alone_gives_it_a_piece() -> None:
    lines = break_lines(HINT, 22, _width).split("\n")  # eleven characters a line: "…表示されま" / "す。" before
    assert lines[-2:] == ["移動妨害が表示され", "ます。"]


def test_english_and_single_lines_are_left_as_they_were() -> None:
    assert break_lines("Tap a figure to see its moves.", 24, _width) == "Tap a figure to see its\nmoves."
    assert break_lines("表示されます。", 40, _width) == "表示されます。"
