"""``hexa play``: a scenario in the terminal, every action saved in the game journal as it happens.

Interactive by default: the board, the prompt, its numbered options and chances; answer with a number,
a cell label (a hex's ``C3``, a zone's ``7``), die results (``5 3``) or ``r`` to let the software roll.
``--auto`` lets the auto player answer everything and prints the game's log, and ``--players human,auto``
mixes the two.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from engine.actions import Action, Choose, Move, Remove, Roll, action_from_text
from engine.autoplay import DEFAULT_MAX_ACTIONS, AutoPlayer, stopped_message
from engine.board import Cell
from engine.board.kinds import find_board_kind
from engine.board.text_drawing import TextView
from engine.errors import EngineError
from engine.events import Event
from engine.game import Game
from engine.i18n import N_, gettext_for
from engine.journal import DEFAULT_JOURNAL, MEMORY_JOURNAL, Journal, JournaledGame, JournalError
from engine.lines import Sight
from engine.prompts import Prompt, PromptKind, decider_text
from engine.record import export_record
from engine.rules.base import RuleSet
from engine.texts import agreeing, cell_noun, declared_text, join_list, possessive

if TYPE_CHECKING:
    from engine.scenario import FigureSpec, Scenario

_ = gettext_for(__name__)
# Sentences in the two forms that agree with a name (Goblins roll / Red rolls), translated alike.
DIE_ROLLS = (N_("die {i}: {side} rolls 1d{sides} for {purpose}"), N_("die {i}: {side} roll 1d{sides} for {purpose}"))

DEFAULT_SCENARIO = "tutorial"
RESERVED_LETTERS = set("TtPpXxOo")  # map symbols (treasure, prisoner, exit, low obstacle)
HELP = N_("""Answers:
  N            pick option N of a choice
  CELL         move the figure to that hex or zone, by its label (e.g. C3; 7 on the keypad mat)
  5 3          die results, in the order the dice are listed
  r            let the software roll the dice (saved as a virtual roll)
  ok           confirm a figure was taken off the table
  (the one-line forms work too: roll 5 3, choose advance, move knight C3, remove goblin-2)
Commands:
  board        show the board and the figures
  reach FIG    hexes the figure could move to now, with their cost
  targets FIG  range and line of sight to every enemy, and why a shot is or is not allowed
  undo         take back the last action
  record FILE  write the game record to FILE
  help         this text
  quit         stop here (the game stays in the journal: hexa play --resume)""")


# -- text for people --------------------------------------------------------------------------------
def figure_letters(game: Game) -> dict[str, str]:
    """One letter per figure: uppercase for the first side, lowercase for the others, avoiding map symbols."""
    taken: set[str] = set()
    letters: dict[str, str] = {}
    first_side = game.scenario.sides[0].id
    for spec in game.scenario.figures:
        upper = spec.side == first_side
        wanted = [c for c in spec.name + spec.id + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c.isalpha() and c.isascii()]
        for c in wanted:
            c = c.upper() if upper else c.lower()
            if c not in taken and c not in RESERVED_LETTERS and c not in game.scenario.symbols:
                break
        else:
            c = "?"
        taken.add(c)
        letters[spec.id] = c
    return letters


def board_text(game: Game, letters: dict[str, str], extra: dict[Cell, str] | None = None) -> str:
    """The map with headers, figures as letters (``extra`` marks go under them), and the legend."""
    state = game.state
    board = game.scenario.board
    figures = {f.hex: "".join(letters[g.id] for g in state.figures_at(f.hex))
               for f in state.figures.values() if f.alive and f.hex is not None}
    view = TextView(figures=figures, marks=dict(extra or {}), terrain_marks=state.marks, doors=state.doors,
                    symbols=game.scenario.symbols, word=type(game.rules).word)
    drawing = find_board_kind(board.kind).text_drawing(board, view)
    lines = [drawing.map, ""]
    rows: list[tuple[str, str, str, str]] = []
    for spec in game.scenario.figures:
        fig = state.figures[spec.id]
        where = game.scenario.label(fig.hex) if fig.alive and fig.hex is not None else _("dead")
        if fig.carrying:
            things = join_list(game.rules.item_name(t) for t in fig.carrying)
            where = _("{where}, carrying the {things}", where=where, things=things)
        rows.append((spec.name, game.scenario.side(spec.side).name, own_fields_text(spec, type(game.rules)), where))
    # Each column as wide as its widest entry, so long names (and Japanese, two columns a character) stay in line.
    name_w, side_w = (max((_columns(row[i]) for row in rows), default=0) for i in (0, 1))
    for spec, (name, side, fields, where) in zip(game.scenario.figures, rows, strict=True):
        lines.append(f"  {letters[spec.id]}  {_pad(name, name_w)} {_pad(side, side_w)} {fields} {where}")
    lines.extend(f"  {line}" for line in drawing.legend)
    return "\n".join(lines)


def _columns(text: str) -> int:
    """How many terminal columns ``text`` takes (a Japanese character takes two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns."""
    return text + " " * max(0, width - _columns(text))


def own_fields_text(spec: FigureSpec, rules: type[RuleSet] | None = None) -> str:
    """The rule set's own fields of a figure in a few words ("archer", "wizard, fireball", "speed 2").

    With ``rules``, its words (field names, kinds, items) are in the table's language.
    """

    def word(text: str) -> str:
        return rules.word(text) if rules is not None else text

    parts: list[str] = []
    for key, value in spec.fields.items():
        if isinstance(value, Enum):
            parts.append(word(str(value.value)))
        elif isinstance(value, str):
            parts.append(word(value))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            parts.append(_("{field} {value:g}", field=word(key.replace("_", " ")), value=value))
        elif isinstance(value, (tuple, list)):
            parts.extend(word(str(v)) for v in value)
    return join_list(parts)


def points_lines(game: Game) -> list[str]:
    """Each side's points, and a warning when they differ (as the app's setup screen shows them)."""
    points = game.points()
    notes = [_("Warning: {text}", text=w) for w in game.scenario.warnings]
    if not points:
        return notes
    parts = join_list(_("{side} {n}", side=game.scenario.side(sid).name, n=n) for sid, n in points.items())
    out = [_("Points: {parts}.", parts=parts)]
    if len(set(points.values())) > 1:
        out.append(_("Warning: the points differ ({parts}). Balance the sides or agree on the handicap.", parts=parts))
    return out + notes


def prompt_lines(game: Game, prompt: Prompt) -> list[str]:
    """The prompt as the terminal shows it: text, dice and outcomes, chances, numbered options, legal hexes."""
    out = [prompt.text]
    if prompt.note:
        out.append(f"  ({prompt.note})")
    if prompt.gm:  # one terminal, no game master: the table decides
        out.append(f"  ({decider_text(prompt.decider(gm_at_table=False))})")
    for i, die in enumerate(prompt.dice):
        who = game.scenario.side(die.roller).name
        outcomes = "; ".join(o.label() for o in prompt.outcomes[i]) if i < len(prompt.outcomes) else ""
        purpose = (f"{possessive(game.scenario.figure(die.figure).name)} {die.purpose}" if die.figure
                   else die.purpose)  # a figure's own roll-off die names whose order it settles
        rolls = _(agreeing(who, *DIE_ROLLS), i=i + 1, side=who, sides=die.sides, purpose=purpose)
        out.append(f"  {rolls}" + (f" — {outcomes}" if outcomes else ""))
    if prompt.chances:
        chances = join_list(_("{text} {percent:.0%}", text=c.text, percent=c.probability) for c in prompt.chances)
        out.append("  " + _("chances: {chances}", chances=chances))
    for i, opt in enumerate(prompt.options, start=1):
        out.append(f"  {i}) {opt.label}")
    if prompt.kind is PromptKind.MOVE and prompt.moves:
        by_cost = sorted(prompt.moves.items(), key=lambda kv: (kv[1].cost, kv[0]))
        legal = join_list(f"{game.scenario.label(h)} ({int(r.cost)})" for h, r in by_cost)
        out.append("  " + _("legal {cells} (cost): {legal}", cells=cell_noun(game.scenario.board.kind, 2), legal=legal))
    return out


def event_lines(events: Iterable[Event]) -> list[str]:
    return [f"  - {e.text}" for e in events]


def expected_answer(prompt: Prompt, board_kind: str = "hex") -> str:
    """What the current prompt accepts, for error messages; cells are named as ``board_kind``'s are."""
    if prompt.kind is PromptKind.ROLL:
        n = len(prompt.dice)
        example = " ".join(["4"] * n)
        return _("{n} die result(s) like '{example}', or 'r' to let the software roll", n=n, example=example)
    if prompt.kind is PromptKind.CHOOSE:
        return _("an option number 1–{n}", n=len(prompt.options))
    if prompt.kind is PromptKind.MOVE:
        return _("a {one} label from the legal {many} (its own {one} to stay)", one=cell_noun(board_kind, 1),
                 many=cell_noun(board_kind, 2))
    if prompt.kind is PromptKind.REMOVE:
        return _("'ok' once the figure is off the table")
    return _("'undo', 'record FILE' or 'quit' (the game is over)")


# -- the session --------------------------------------------------------------------------------------
class Session:
    """One terminal game: turns typed lines into actions and commands, printing what happens."""

    def __init__(
        self,
        jg: JournaledGame,
        out: TextIO,
        *,
        auto_sides: set[str],
        seed: int | None,
        log_mode: bool = False,
        max_auto: int = DEFAULT_MAX_ACTIONS,
    ) -> None:
        self.jg = jg
        self.game = jg.game
        self.out = out
        self.auto_sides = auto_sides
        self.auto = AutoPlayer(seed if seed is not None else random.randrange(2**31))
        self.dice = random.Random(None if seed is None else seed + 1)
        self.letters = figure_letters(self.game)
        self.log_mode = log_mode
        self.max_auto = max_auto  # auto answers in a row before the game is stopped as unwinnable
        self.auto_run = 0

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def figure(self, word: str) -> str | None:
        """A figure by id, letter or name (case-insensitive for ids and names)."""
        for fid, letter in self.letters.items():
            if word == letter:
                return fid
        w = word.lower()
        for spec in self.game.scenario.figures:
            if w in (spec.id.lower(), spec.name.lower()):
                return spec.id
        return None

    def is_auto(self, prompt: Prompt) -> bool:
        actors = {prompt.side, *(d.roller for d in prompt.dice)} - {None}
        return bool(actors) and actors <= self.auto_sides

    def show_prompt(self) -> None:
        prompt = self.game.prompt
        if self.log_mode:
            self.say(prompt.text)
            return
        if prompt.kind is PromptKind.MOVE:
            costs = {h: str(int(r.cost)) for h, r in prompt.moves.items()}
            cells = cell_noun(self.game.scenario.board.kind, 2)
            note = "  " + _("(digits: {cells} the figure may move to, by cost)", cells=cells)
            self.say("", board_text(self.game, self.letters, costs), note)
        self.say("", *prompt_lines(self.game, prompt))

    def expected(self, prompt: Prompt) -> str:
        """What the prompt accepts, cells named as this board's are."""
        return expected_answer(prompt, self.game.scenario.board.kind)

    def play_action(self, action: Action, who: str = "") -> bool:
        """Apply an action through the journal; print its events, or why it was refused."""
        try:
            events = self.jg.apply(action)
        except EngineError as exc:
            self.say(_("Not accepted: {error}", error=exc),
                     _("Expected: {what}.", what=self.expected(self.game.prompt)))
            return False
        self.say(f"> {who}{self.game.sentence(len(self.game.history))}", *event_lines(events))
        if any(e.kind == "turn" for e in events) and not self.log_mode:
            self.say("", board_text(self.game, self.letters))
        return True

    def auto_answer(self) -> None:
        self.play_action(self.auto.choose(self.game), who=_("(auto) "))

    def handle(self, line: str) -> bool:
        """Act on one typed line; False when the player quits."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0].lower(), words[1:]
        prompt = self.game.prompt
        if cmd in ("quit", "exit", "q"):
            return False
        if cmd in ("help", "?", "h"):
            self.say(_(HELP))
        elif cmd == "board":
            self.say(board_text(self.game, self.letters))
        elif cmd == "undo":
            self.undo()
        elif cmd in ("reach", "targets"):
            self.query(cmd, args)
        elif cmd == "record":
            self.write_record(args)
        else:
            action = self.read_answer(prompt, line.strip())
            if action is not None:
                self.play_action(action)
        return True

    def read_answer(self, prompt: Prompt, text: str) -> Action | None:
        board = self.game.scenario.board
        words = text.split()
        try:
            if prompt.kind is PromptKind.GAME_OVER:
                self.say(_("The game is over: {result} Allowed: {what}.", result=prompt.text,
                           what=self.expected(prompt)))
                return None
            if text.lower() == "r" and prompt.kind is PromptKind.ROLL:
                return Roll(tuple(self.dice.randint(1, d.sides) for d in prompt.dice), virtual=True)
            if prompt.kind is PromptKind.ROLL and all(w.isdigit() for w in words):
                return Roll(tuple(int(w) for w in words))
            if prompt.kind is PromptKind.CHOOSE and text.isdigit():
                n = int(text)
                if not 1 <= n <= len(prompt.options):
                    self.say(_("There is no option {n}. Expected: {what}.", n=n, what=self.expected(prompt)))
                    return None
                return Choose(prompt.options[n - 1].id)
            if prompt.kind is PromptKind.CHOOSE and prompt.option(text):
                return Choose(text)
            if prompt.kind is PromptKind.REMOVE and text.lower() in ("ok", "done", "y", "yes", "1"):
                assert prompt.figure is not None
                return Remove(prompt.figure)
            if prompt.kind is PromptKind.MOVE and len(words) == 1:
                assert prompt.figure is not None
                return Move(prompt.figure, board.from_label(words[0]))
            return action_from_text(text, board)
        except (EngineError, ValueError) as exc:
            self.say(_("Not understood: {error}", error=exc),
                     _("Expected: {what} — or 'help'.", what=self.expected(prompt)))
            return None

    def undo(self) -> None:
        said = self.game.sentence(len(self.game.history)) if self.game.history else ""
        try:
            self.jg.undo()
        except IndexError as exc:
            self.say(_("Cannot undo: {error}.", error=exc))
            return
        self.say(_("Undone: {action}", action=said))

    def query(self, cmd: str, args: list[str]) -> None:
        fid = self.figure(args[0]) if len(args) == 1 else None
        if fid is None:
            names = join_list(f"{letter} ({fid})" for fid, letter in self.letters.items())
            self.say(_("Usage: {cmd} FIGURE — a letter or id: {names}", cmd=cmd, names=names))
            return
        name = self.game.scenario.figure(fid).name
        if not self.game.state.figures[fid].alive:
            self.say(_("{name} is dead.", name=name))
            return
        if cmd == "reach":
            moves = self.game.reachable(fid)
            costs = {h: str(int(r.cost)) for h, r in moves.items()}
            by_cost = sorted(moves.items(), key=lambda kv: (kv[1].cost, kv[0]))
            self.say(
                board_text(self.game, self.letters, costs),
                _("{name} could move to (cost): {cells}", name=name,
                  cells=join_list(f"{self.game.scenario.label(h)} ({int(r.cost)})" for h, r in by_cost)),
            )
            return
        infos = self.game.targets(fid)
        self.say(f"{name} ({self.letters[fid]}):")
        if not infos:
            self.say(_("{name} has no ranged attack (or no enemy is left).", name=name))
        for info in infos:
            verdict = {Sight.CLEAR: _("clear"), Sight.AMBIGUOUS: _("unclear (roll-off)"), Sight.BLOCKED: _("blocked")}[
                info.sight
            ]
            act = declared_text(type(self.game.rules), info.action)
            allowed = _("may {act}", act=act) if info.allowed else _("may not {act}", act=act)
            target = self.game.scenario.figure(info.target).name
            self.say("  " + _("{target} ({id}): range {range}, sight {verdict}, {allowed} — {reason}", target=target,
                              id=info.target, range=info.range, verdict=verdict, allowed=allowed, reason=info.reason))

    def write_record(self, args: list[str]) -> None:
        if len(args) != 1:
            self.say(_("Usage: record FILE — writes the game record (one action per line) to FILE."))
            return
        path = Path(args[0])
        try:
            path.write_text(export_record(self.game), encoding="utf-8")
        except OSError as exc:
            self.say(_("Cannot write {path}: {error}. Give a file in a folder you can write to.", path=path,
                       error=exc.strerror or exc))
            return
        self.say(_("Game record written to {path} ({n} actions).", path=path, n=len(self.game.history)))

    def finished_text(self) -> str:
        victory = [e.text for p in self.game.history for e in p.events if e.kind == "victory"]
        winner = self.game.state.winner or ""
        name = self.game.rules.side_name(winner) if hasattr(self.game.rules, "side_name") else winner
        # Translators: {name} is the winning side's name, {winner} its id.
        return _("Winner: {winner} — {text}", winner=winner, name=name,
                 text=victory[-1] if victory else self.game.prompt.text)

    def run(self, lines: TextIO, interactive: bool) -> int:
        """Play until the game is over and confirmed, the player quits, or input ends."""
        self.show_prompt()
        announced = False
        while True:
            prompt = self.game.prompt
            if prompt.kind is not PromptKind.GAME_OVER:
                announced = False  # an undo after the end reopens the game
            elif not announced:
                if self.log_mode:
                    self.say("", board_text(self.game, self.letters))
                self.say("", self.finished_text())
                announced = True
                if not interactive:
                    return 0
            if prompt.kind is not PromptKind.GAME_OVER and self.is_auto(prompt):
                if self.auto_run >= self.max_auto:
                    why = stopped_message(self.auto_run, self.game)
                    self.say("", f"{why[0].upper()}{why[1:]}.")
                    self.say(_("The game is saved in the journal (hexa play --resume to go on)."))
                    return 3
                self.auto_run += 1
                self.auto_answer()
                self.show_prompt()
                continue
            if interactive:
                self.out.write("? ")
                self.out.flush()
            try:
                line = lines.readline()
            except KeyboardInterrupt:
                self.say("", _("Interrupted; the game is saved in the journal (hexa play --resume to go on)."))
                return 130
            if not line:
                self.say("", _("Input ended; the game is saved in the journal (hexa play --resume to go on)."))
                return 0
            self.auto_run = 0
            if not self.handle(line):
                self.say(_("Stopped; the game is saved in the journal (hexa play --resume to go on)."))
                return 0
            if self.game.prompt is not prompt:
                self.show_prompt()


# -- command line -------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hexa play",
                                description=_("Play a scenario in the terminal (no camera, no tablet)."))
    p.add_argument("scenario", nargs="?", help=_("bundled scenario id or .toml file (default {name})",
                                                 name=DEFAULT_SCENARIO))
    p.add_argument("--journal", default=DEFAULT_JOURNAL,
                   help=_("journal file (default ./{name})", name=DEFAULT_JOURNAL))
    p.add_argument(
        "--resume", nargs="?", const=0, type=int, metavar="ID", help=_("resume a game (default: latest unfinished)")
    )
    p.add_argument("--auto", action="store_true", help=_("let the auto player play every side and print the log"))
    p.add_argument("--seed", type=int, help=_("seed for the auto player and the software's rolls"))
    p.add_argument("--players", help=_("who plays each player, in the scenario's order: human or auto, e.g. "
                                       "'human,auto'"))
    p.add_argument(
        "--max-actions",
        type=int,
        default=DEFAULT_MAX_ACTIONS,
        metavar="N",
        help=_("stop after N auto answers in a row when nobody wins (default {n})", n=DEFAULT_MAX_ACTIONS),
    )
    return p


def _auto_sides(scenario: Scenario, spec: str | None, all_auto: bool) -> set[str]:
    players = scenario.players
    if all_auto:
        return {s for p in players for s in p.sides}
    if not spec:
        return set()
    who = [w.strip().lower() for w in spec.split(",")]
    if len(who) != len(players) or any(w not in ("human", "auto") for w in who):
        names = join_list(p.name for p in players)
        raise ValueError(_("--players needs {n} entries (human or auto) for {names}, got {spec!r}", n=len(players),
                           names=names, spec=spec))
    return {s for p, w in zip(players, who, strict=True) if w == "auto" for s in p.sides}


def _offer_resume(journal: Journal, stdin: TextIO, out: TextIO) -> JournaledGame | None:
    latest = journal.latest_unfinished()
    if latest is None:
        return None
    out.write(
        _("An unfinished game is in the journal: #{id} {name}, {n} actions, started {created}. Resume it? [y/N] ",
          id=latest.id, name=latest.scenario_name, n=latest.actions, created=latest.created)
    )
    out.flush()
    answer = stdin.readline().strip().lower()
    return journal.resume(latest.id) if answer in ("y", "yes") else None


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    from engine.scenario import load_scenario

    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    path = Path(args.journal)
    # Nothing is written until the inputs are good: the scenario and --players are checked before the
    # journal file is created, and resuming never creates one.
    scenario: Scenario | None = None
    try:
        if args.resume is not None and not path.exists():
            raise JournalError(_("{path}: no such journal file, so no game to resume. Fix: pass the journal with "
                                 "--journal FILE, or start a new game without --resume", path=path))
        if args.resume is None:
            scenario = load_scenario(args.scenario or DEFAULT_SCENARIO)
            _auto_sides(scenario, args.players, args.auto)
        journal = Journal(path)
    except (EngineError, ValueError) as exc:
        print(_("hexa play: {error}", error=exc), file=sys.stderr)
        return 2
    with journal:
        if args.journal == MEMORY_JOURNAL:
            print(_("Journal: in memory only, so nothing is kept after this game (pass --journal FILE to keep it)"),
                  file=out)
        else:
            print(_("Journal: {path} (every action is saved as it happens)", path=path.resolve()), file=out)
        try:
            jg: JournaledGame | None = None
            if args.resume is not None:
                jg = journal.resume(args.resume or None)
            elif not args.auto:
                jg = _offer_resume(journal, stdin, out)
            if jg is None:
                assert scenario is not None
                jg = journal.new_game(scenario)
                print(_("New game #{id}: {name}", id=jg.id, name=jg.scenario.name), file=out)
            else:
                print(_("Resumed game #{id}: {name} after {n} actions", id=jg.id, name=jg.scenario.name,
                        n=len(jg.game.history)), file=out)
            auto_sides = _auto_sides(jg.scenario, args.players, args.auto)
        except (EngineError, ValueError) as exc:
            print(_("hexa play: {error}", error=exc), file=sys.stderr)
            return 2
        session = Session(
            jg, out, auto_sides=auto_sides, seed=args.seed, log_mode=args.auto, max_auto=max(1, args.max_actions)
        )
        session.say(*points_lines(jg.game))
        if not args.auto:
            session.say(
                jg.scenario.description, "", board_text(jg.game, session.letters), "", _("Type 'help' for the answers.")
            )
        try:
            return session.run(stdin, interactive=not args.auto)
        except BrokenPipeError:
            return quiet_broken_pipe()


def quiet_broken_pipe() -> int:
    """The reader of our output went away (``| head``): stop quietly; the journal already holds the game."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0
