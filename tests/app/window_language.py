"""The language switch at the table: the Setup screen's 日本語 and English buttons turn the app's own texts at once
(the .kv texts too), send the engine the table's new language, and the game goes on as it was."""

from __future__ import annotations

from typing import Any

from tests.app.window_driver import BigButton, Driver, Step, _play


def _buttons(app: Any) -> list[str]:
    return [w.text for w in app.sm.current_screen.walk() if isinstance(w, BigButton)]


def language_script(d: Driver) -> Step:
    """English to Japanese and back on the Setup screen, with the game's prompt and history kept."""
    app = d.app
    s = app.session

    def live() -> bool:
        """the app live with the first prompt"""
        return app.agent.state == "live" and s.prompt is not None

    yield live
    yield d.expect(lambda: "Play" in _buttons(app) and app.language == "en", "the app starts in English")
    history = len(s.entries)
    prompt_kind = s.prompt.kind if s.prompt else None
    app.show_screen("setup")
    yield d.drawn()
    setup = app.sm.get_screen("setup")
    d.tap_widget(setup.ids.lang_ja)
    yield d.expect(lambda: app.language == "ja" and "プレイ" in _buttons(app) and "接続" in _buttons(app),
                   "日本語: the navigation and the Setup screen's buttons in Japanese at once")
    yield d.expect(lambda: setup.ids.lang_ja.active and not setup.ids.lang_en.active, "日本語 is the lit choice")
    kept = "エンジンは言語を切り替えませんでした"  # an engine without the language command
    yield d.expect(lambda: (s.scenario or {}).get("language") == "ja" or kept in s.notice,
                   "the engine speaks Japanese now (its scenario says so), or the notice says it kept its language")
    yield d.drawn()
    d.screenshot("language-ja-setup")
    app.show_screen("play")
    yield d.drawn()
    play = _play(app)
    d.check(app.header_text.startswith("手番の順番"), f"the header in Japanese ({app.header_text})")
    d.check(play.ids.legend.text == "凡例" and "振る前の確率：" in [w.text for w in play.ids.prompt.walk()
                                                                 if hasattr(w, "text")],
            "the play screen's tools and the prompt panel in Japanese")
    d.check(len(s.entries) == history and s.prompt is not None and s.prompt.kind == prompt_kind,
            "the game goes on: the same prompt and history")
    d.screenshot("language-ja-play")
    app.show_screen("setup")
    yield d.drawn()
    d.tap_widget(setup.ids.lang_en)
    yield d.expect(lambda: app.language == "en" and "Play" in _buttons(app) and "Connect" in _buttons(app),
                   "English: the app's texts back in English")
    yield d.expect(lambda: app.header_text.startswith("Turn order"), "the header in English again")
