"""``hexa replay FILE``: walk through a game record, printing each pending prompt, the answer and what happened."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from engine.actions import action_to_text
from engine.cli.play import event_lines, prompt_lines, quiet_broken_pipe
from engine.errors import EngineError
from engine.game import Game
from engine.i18n import gettext_for
from engine.prompts import PromptKind
from engine.record import RecordError, read_record_file, record_actions, resolve_scenario

_ = gettext_for(__name__)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hexa replay", description=_("Print the prompts and outcomes of a game record."))
    p.add_argument("file", help=_("a game record (written by 'record FILE' in hexa play)"))
    p.add_argument("--brief", action="store_true", help=_("only the prompt's first line, not its dice and options"))
    return p


def replay_to(out: TextIO, path: str, brief: bool = False) -> int:
    """Print the replay of one record file; returns the exit code."""
    record = read_record_file(path)
    scenario, warnings = resolve_scenario(record)
    for w in warnings:
        print(_("warning: {text}", text=w), file=out)
    game = Game(scenario)
    print(_("{name} ({ruleset}), {n} actions", name=scenario.name, ruleset=scenario.ruleset, n=len(record.lines)),
          file=out)
    for line, action in record_actions(record, scenario.board):
        prompt = game.prompt
        shown = [prompt.text] if brief else prompt_lines(game, prompt)
        print(f"\n[{line.number}] {shown[0]}", file=out)
        for extra in shown[1:]:
            print(extra, file=out)
        try:
            events = game.apply(action)
        except EngineError as exc:
            raise RecordError(_("{file}, line {line} (action {n}) refused: {error}", file=record.source,
                                line=line.line_no, n=line.number, error=exc)) from None
        print(f"> {action_to_text(action, scenario.board)}", file=out)
        for text in event_lines(events):
            print(text, file=out)
    print("", file=out)
    if game.over:
        victory = [e.text for p in game.history for e in p.events if e.kind == "victory"]
        print(_("Result: {text} (winner: {winner})", text=victory[-1] if victory else game.state.winner,
                winner=game.state.winner), file=out)
    elif game.prompt.kind is not PromptKind.GAME_OVER:
        print(_("Result: the record stops with the game under way; next: {prompt}", prompt=game.prompt.text), file=out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        return replay_to(sys.stdout, args.file, brief=args.brief)
    except BrokenPipeError:
        return quiet_broken_pipe()
    except EngineError as exc:
        print(_("hexa replay: {error}", error=exc), file=sys.stderr)
        return 2
