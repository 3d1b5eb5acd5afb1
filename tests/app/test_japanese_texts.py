"""The app's own texts in Japanese: the view models speak the table's language (engine.i18n.speaking), counts with
their counter words, lists joined the Japanese way; and Japanese lines break where Japanese breaks them."""

from __future__ import annotations

from typing import Any

import pytest

from companion_app.ui.line_breaks import NO_LINE_END, NO_LINE_START, break_lines, has_japanese
from companion_app.viewmodels.header_model import connection_text, header_view
from companion_app.viewmodels.legend import legend_entries
from companion_app.viewmodels.log_model import LogEntry
from companion_app.viewmodels.overlays import table_overlay
from companion_app.viewmodels.session import GameSession
from companion_app.viewmodels.setup_model import setup_view
from companion_app.viewmodels.words import join_words
from engine.game import Game
from engine.i18n import speaking
from engine.scenario import load_scenario
from engine.snapshot import game_snapshot, scenario_to_dict


@pytest.fixture()
def session() -> GameSession:
    game = Game(load_scenario("goblins-treasure"))
    s = GameSession()
    s.set_scenario(scenario_to_dict(game.scenario, game.points()))
    s.set_snapshot(game_snapshot(game))
    return s


def test_the_header_and_connection_badge_read_in_japanese(session: GameSession) -> None:
    with speaking("ja"):
        header = header_view(session.scenario, session.snapshot, session.board)
        assert header.text == "手番の順番 — 先に行動する側をダイスで決めてください"
        assert connection_text("stale", "") == "途絶：エンジンから応答なし"
        assert connection_text("live") == "接続中"
    assert header_view(session.scenario, session.snapshot, session.board).text.startswith("Turn order")


def test_the_setup_screen_counts_figures_and_points_with_counter_words(session: GameSession) -> None:
    with speaking("ja"):
        view = setup_view(session.scenario)
        first = view.sides[0]
        assert "フィギュア4体" in first.text and "6点" in first.text and "（赤）" in first.text
        assert first.text.startswith(f"{first.name}（赤）")
    assert "4 figures" in setup_view(session.scenario).sides[0].text


def test_a_tap_and_a_refused_drag_are_said_in_japanese(session: GameSession) -> None:
    with speaking("ja"):
        hint = session.tap_hint
        assert hint.startswith("フィギュアをタップすると、その") and hint.endswith("が表示されます。")
        ranger = session.board.figures["ranger"]
        tapped = session.tap(ranger.key)
        assert tapped.kind == "select"
        assert tapped.text == f"{ranger.name}（{ranger.side_name}、{ranger.kind}）：{ranger.label}"
        refused = session.drag(ranger.key, (4, 2))
        assert refused.kind == "refused" and refused.text.startswith(f"{ranger.name}は今は動かせません。")


def test_a_lifted_figure_and_an_illegal_move_are_reported_in_japanese(session: GameSession) -> None:
    board = session.board
    assert board is not None
    table: dict[str, Any] = {"lifted": [{"figure": "ranger", "moves": [[2, 2], [3, 2], [2, 4]]}],
                             "illegal": {"figure": "ranger", "to": [9, 1], "reason": "too far", "legal": [[2, 2]]},
                             "unknown_markers": [41, 42]}
    with speaking("ja"):
        overlay = table_overlay(table, board)
        lines = overlay.lines(board)
    ranger = board.figures["ranger"].name
    assert lines[0] == f"{ranger}が持ち上げられています。行ける3ヘクスを影で表示"
    assert "卓上に未知のマーカー：41、42（カメラ画面で割り当ててください）" in lines
    alarm = overlay.alarm
    assert alarm is not None and alarm.headline == f"{ranger}は{board.label((9, 1))}に止まれません"
    start, legal = board.figures["ranger"].label, board.label((2, 2))
    assert alarm.fix == f"{start}に戻してください。または行けるヘクス（輪郭付き）へ：{legal}。"
    assert alarm.override_label == f"プレイヤーの合意：{ranger}の{board.label((9, 1))}を認める（上書き）"


def test_the_legend_and_the_log_in_japanese(session: GameSession) -> None:
    with speaking("ja"):
        texts = [e.text for e in legend_entries(session.scenario, session.board, session.queries)]
        heading = LogEntry(3, "roll! 4", True, ("a six",)).heading
        undo = LogEntry(3, "roll! 4", True, ("a six",)).undo_label
    assert any(t.startswith("射線：遮られる") for t in texts) and any("脅威" in t for t in texts)
    assert any(t.startswith("扉（開）") for t in texts) and any(t.startswith("壁") for t in texts)
    assert heading == "3. roll! 4（仮想ダイス、アプリが振った）" and undo == "3を取り消す：a six"


def test_lists_are_joined_the_japanese_way() -> None:
    with speaking("ja"):
        assert join_words(["移動", "目標", "脅威"]) == "移動、目標、脅威"
    assert join_words(["moves", "targets", "threats"]) == "moves, targets and threats"


def _width(text: str) -> float:
    """Japanese characters two units wide, others one (a monospaced stand-in for the font)."""
    return sum(2.0 if has_japanese(c) else 1.0 for c in text)


def test_japanese_lines_break_between_characters_never_before_closing_marks_or_inside_english_words() -> None:
    text = "エンジンのアドレス（'hexa engine' を動かしているコンピューター）。ゴブリン2体が攻撃します。"
    lines = break_lines(text, 20, _width).split("\n")
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing lost
    assert all(_width(line) <= 20 for line in lines), lines
    assert all(line[0] not in NO_LINE_START for line in lines[1:]), lines
    assert all(line[-1] not in NO_LINE_END for line in lines), lines
    assert any("'hexa engine'" in line for line in lines), lines  # the English words kept whole


def test_markup_tags_take_no_room_and_english_text_is_left_to_kivy() -> None:
    assert break_lines("[b]決戦[/b]：敵と接触した", 12, _width, markup=True) == "[b]決戦[/b]：敵と接\n触した"
    assert not has_japanese("Tap a figure to see its moves.")


def test_a_description_over_several_lines_reads_as_one_paragraph_in_either_language() -> None:
    from companion_app.viewmodels.words import one_paragraph

    text = "ゴブリンが宝を\n守っている。\n  Goblins guard\nthe gold."
    assert one_paragraph(text) == "ゴブリンが宝を守っている。 Goblins guard the gold."
