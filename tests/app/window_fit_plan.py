"""A prompt's height foreseen (``fit_plan.height_at``) against its height laid out in a real window, at several fits.

``python -m tests.app.window_fit_plan`` prints one JSON line: for each prompt (a long choice in English and in
Japanese, the bundled scenarios' rolls of d6 and d10, opposed ones side by side, with the camera's reading or its
question under the title, and with an illegal move's alarm above), at each fit, the height the panel took once laid
out and the height foreseen.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from companion_app.kivy_start import prepare_kivy

prepare_kivy()

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402

from companion_app.ui.fit_plan import height_at  # noqa: E402
from companion_app.ui.fit_steps import LEAST_FIT  # noqa: E402
from companion_app.ui.fitting_row import FittingRow  # noqa: E402
from companion_app.viewmodels.board_model import build_board  # noqa: E402
from companion_app.viewmodels.dice_model import dice_read  # noqa: E402
from companion_app.viewmodels.overlays import IllegalAlarm  # noqa: E402
from companion_app.viewmodels.prompt_model import OptionView, PromptModel  # noqa: E402
from engine.autoplay import AutoPlayer, Step, play_out  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.scenario import load_scenario  # noqa: E402
from engine.snapshot import game_snapshot, scenario_to_dict  # noqa: E402
from tests.app.window_prompt_fit import FitApp, choose_prompt, run_script  # noqa: E402

FITS = (1.0, 0.8, LEAST_FIT)
TALL_ROOM = 20000  # a room every prompt fits at full size: the fits set by the script stay


def japanese_choice() -> PromptModel:
    return PromptModel(
        kind="choose", side="red", side_name="赤", figure=None, figure_name="",
        text="騎士がこの手番に行う機動を選んでください。どれも費用と終わる場所が書いてあります。",
        note="", dice=[], chances=[], moves={},
        options=[OptionView(f"o{i}", f"機動{i}：横へ一歩動いてから振り、塔の方を向いて終わる", None, None)
                 for i in range(5)])


def played_prompts(scenario_id: str, most: int) -> list[tuple[str, PromptModel]]:
    """The first ``most`` prompts of each kind a bundled scenario played by the auto player asks, as the tablet
    builds them."""
    game = Game(load_scenario(scenario_id))
    board = build_board(scenario_to_dict(game.scenario, game.points()), game_snapshot(game))
    found: list[tuple[str, PromptModel]] = []

    def kept(_step: Step) -> None:
        snapshot = game_snapshot(game)
        kind = str((snapshot.get("prompt") or {}).get("kind"))
        if kind in ("roll", "choose", "move") and sum(k == kind for k, _ in found) < most:
            found.append((kind, PromptModel.from_snapshot(snapshot, board)))

    play_out(game, AutoPlayer(seed=1), on_step=kept)
    return found


def reading(state: str, values: list[int | None], missing: list[int]) -> dict[str, Any]:
    return {"dice": {"state": state, "values": values, "text": "", "tray": "tray", "roll": 1, "n": 0,
                     "missing": missing, "countdown_s": 3.0 if state == "proposal" else None,
                     "remaining_s": 2.5 if state == "proposal" else None}}


def script(app: FitApp, out: dict[str, Any]) -> Iterator[bool]:
    panel, scroll = app.panel, app.scroll
    scroll.height = TALL_ROOM
    while scroll.height != TALL_ROOM:
        yield False
    cases: list[tuple[str, PromptModel, str]] = [("choice", choose_prompt(6), ""), ("japanese", japanese_choice(), "")]
    for scenario_id in ("goblins-treasure", "laramie-station", "tenkey-skirmish", "lost-worlds-ruined-tower"):
        cases += [(f"{scenario_id} {kind} {i}", p, "") for i, (kind, p) in enumerate(played_prompts(scenario_id, 2))]
    most_dice = max((p for _, p, _ in cases), key=lambda p: len(p.dice))  # an opposed roll: columns side by side
    cases += [("camera reading", most_dice, "proposal"), ("camera question", most_dice, "question"),
              ("alarm", most_dice, "alarm")]
    alarm = IllegalAlarm("f1", "Mage may not stop on F4", "An enemy stands within reach of F4 and blocks the way.",
                         "Put it back on D3, or on a legal hex: D4, E5", {"figure": "f1", "to": [3, 4]},
                         "Leave it there (the players agree)")
    seen: list[dict[str, Any]] = []
    for name, prompt, extra in cases:
        panel.show_alarm(alarm if extra == "alarm" else None)
        panel.show(prompt)
        if extra in ("proposal", "question"):
            values: list[int | None] = [3] * len(prompt.dice)
            missing = [] if extra == "proposal" else [len(values) - 1]
            for i in missing:
                values[i] = None
            panel.show_dice(dice_read(reading(extra, values, missing), prompt, 0, 0.0))
        for fit in FITS:
            panel._set_fit(fit)
            while not panel._laid_out():  # every text, box and row of buttons has its size at this fit
                yield False
            kept = frozenset(id(w) for w in panel.alarm.walk(restrict=True)) if panel.alarm is not None else frozenset()
            foreseen = height_at(panel, float(panel.width), fit, kept)
            seen.append({"prompt": name, "fit": fit, "laid_out": round(float(panel.minimum_height), 2),
                         "foreseen": None if foreseen is None else round(foreseen, 2)})
    panel.show_alarm(None)
    # A prompt shown from a clock event, as the app's pump shows an engine message: its rows of buttons are at
    # their columns in the first frame drawn after it (a row still finding its columns takes a frame more).
    scroll.height = TALL_ROOM // 40
    shown: list[bool] = []
    def show_from_the_clock(_dt: float) -> None:
        panel.show(most_dice)
        shown.append(True)

    Clock.schedule_once(show_from_the_clock, 0)
    while not shown:
        yield False
    rows = [w for w in panel.walk(restrict=True) if isinstance(w, FittingRow)]
    out["first_frame"] = {"rows": len(rows), "rows_pending": sum(bool(r._fit.is_triggered) for r in rows),
                          "fit": panel.fit, "fits": panel.fits(), "scrolls": panel._scrolls}
    out["seen"] = seen
    out["dice"] = {name: [d.sides for d in p.dice] for name, p, _ in cases}
    out["width"] = float(panel.width)
    out["window"] = list(Window.size)


if __name__ == "__main__":
    sys.exit(run_script(script))
