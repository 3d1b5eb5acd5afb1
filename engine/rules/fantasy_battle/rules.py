"""Hexa-System Fantasy Battle (RULES.md §1): the turn's flow as an explicit state machine.

``state.step`` names the pending decision. ``prompt`` describes it for the table; ``apply`` checks
an action against it, changes the state and moves on through every step that needs no decision
(``_advance``). Turn order: 1d6 each, ties re-roll among the tied. A player's turn: ranged phase
(shoot or cast, results at once) → forced combats (figures that began the turn in contact) → the
other figures one at a time: doors, movement roll, move, combat on contact.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.actions import Action, Choose, Move, Remove, Roll
from engine.board import EdgeKind
from engine.errors import IllegalActionError
from engine.events import Event
from engine.hexes import Edge, Hex, edge
from engine.lines import Sight
from engine.pathfinding import Reach, reachable
from engine.prompts import Chance, DieRequest, Option, Outcome, Prompt, PromptKind
from engine.rules.base import OptionSpec, RuleSet, TargetInfo
from engine.rules.fantasy_battle import melee
from engine.rules.fantasy_battle.ranged import magic_info, shot_info
from engine.rules.fantasy_battle.terrain import FBTerrain
from engine.scenario import FigureKind, Scenario
from engine.state import FigureState, GameState

MOVE_LONG = 3
MOVE_SHORT = 2
SHOT_HITS_AT = 4
SAVE_AT = 5
WIZARD_SAVE_AT = 4
MAGIC_KILLS_AT = 6
UNLOCK_AT = 4


def _hex(v: list[int]) -> Hex:
    return Hex(v[0], v[1])


def _hv(h: Hex) -> list[int]:
    return [h.q, h.r]


def _span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


class FantasyBattle(RuleSet):
    name: ClassVar[str] = "fantasy-battle"
    aliases: ClassVar[tuple[str, ...]] = ("fantasy", "hexa-fantasy-battle", "fb")
    title: ClassVar[str] = "Hexa-System Fantasy Battle"
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("magic", bool, True, "use the additional rules for wizards and magic"),
        OptionSpec("shooting_range", int, 0, "longest shot in hexes; 0 means no limit"),
        OptionSpec("doors_stay_open", bool, True, "an opened door stays open"),
    )

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        self.board = scenario.board
        self._names = {f.id: f.name for f in scenario.figures}
        self._kinds = {f.id: f.kind for f in scenario.figures}
        self._side_names = {s.id: s.name for s in scenario.sides}
        self._bring_tokens = {(v.side, v.token) for v in scenario.victory if v.type == "bring"}

    @classmethod
    def check_scenario(cls, scenario: Scenario) -> None:
        if not scenario.options.get("magic", True) and any(f.kind is FigureKind.WIZARD for f in scenario.figures):
            raise ValueError("the scenario has wizards but turns magic off. Fix: set magic = true or drop the wizards")

    # -- names ------------------------------------------------------------------------------------
    def fname(self, fid: str) -> str:
        return self._names.get(fid, fid)

    def sname(self, side: str) -> str:
        return self._side_names.get(side, side)

    def label(self, h: Hex) -> str:
        return self.board.label(h)

    def player_sides(self, state: GameState) -> tuple[str, ...]:
        if not state.turn_order:
            return ()
        return self.scenario.players[state.turn_order[state.active]].sides

    def active_side_name(self, state: GameState) -> str:
        return self.scenario.players[state.turn_order[state.active]].name

    # -- setup ------------------------------------------------------------------------------------
    def new_state(self) -> GameState:
        figures = {f.id: FigureState(f.id, f.side, f.start) for f in self.scenario.figures}
        doors = {e: ("locked" if k is EdgeKind.LOCKED_DOOR else "closed") for e, k in self.board.doors().items()}
        tokens: dict[str, Hex | None] = {}
        for h in self.board:
            for t in self.board.info(h).tokens:
                if t != "exit":
                    tokens[t] = h
        state = GameState(self.scenario.id, self.name, figures, doors, tokens)
        state.step = {"kind": "order", "groups": [list(range(len(self.scenario.players)))]}
        return state

    def points(self) -> dict[str, int]:
        """Melee-only figure 1 point, ranged or magic 2, each special-ability card +1."""
        totals = {s.id: 0 for s in self.scenario.sides}
        for f in self.scenario.figures:
            totals[f.side] += (1 if f.kind is FigureKind.FIGHTER else 2) + len(f.abilities)
        return totals

    def terrain(self, state: GameState) -> FBTerrain:
        return FBTerrain(self.board, state)

    # -- queries ----------------------------------------------------------------------------------
    def reachable(self, state: GameState, figure: str, budget: float | None = None) -> dict[Hex, Reach]:
        fig = state.figures[figure]
        if not fig.alive or fig.hex is None:
            return {}
        if budget is None:
            step = state.step
            budget = step["allowance"] if step.get("kind") == "move" and step.get("figure") == figure else MOVE_LONG
        t = self.terrain(state)
        start = fig.hex
        occupied = {f.hex for f in state.alive() if f.id != figure}
        return reachable(
            start,
            budget,
            t.step_cost_for(fig.side),
            stops=lambda h: h != start and t.hex_touches_enemy(h, fig.side),
            can_end=lambda h: h not in occupied,
        )

    def targets(self, state: GameState, figure: str) -> list[TargetInfo]:
        fig = state.figures[figure]
        kind = self._kinds[figure]
        if not fig.alive or kind is FigureKind.FIGHTER:
            return []
        t = self.terrain(state)
        out = []
        for enemy in sorted(t.enemies_of(fig.side), key=lambda f: f.id):
            if kind is FigureKind.ARCHER:
                out.append(shot_info(t, fig, enemy, int(self.scenario.options["shooting_range"]), self.fname))
            elif self.scenario.options["magic"]:
                out.append(magic_info(t, fig, enemy, self.fname))
        return out

    def threatened(self, state: GameState, side: str) -> set[Hex]:
        return self.terrain(state).threatened(side)

    # -- prompts ----------------------------------------------------------------------------------
    def prompt(self, state: GameState) -> Prompt:
        if state.pending_removals:
            fid = state.pending_removals[0]
            fig = state.figures[fid]
            where = f" from {self.label(fig.hex)}" if fig.hex is not None else ""
            return Prompt(PromptKind.REMOVE, fig.side, f"Take {self.fname(fid)} off the table{where}.", figure=fid)
        kind = state.step["kind"]
        handler = getattr(self, f"_prompt_{kind}")
        result: Prompt = handler(state, state.step)
        return result

    def _die(self, side: str, purpose: str, figure: str | None = None) -> DieRequest:
        return DieRequest(side, 6, purpose, figure)

    def _prompt_over(self, state: GameState, step: dict[str, Any]) -> Prompt:
        return Prompt(PromptKind.GAME_OVER, state.winner, step["text"])

    def _prompt_order(self, state: GameState, step: dict[str, Any]) -> Prompt:
        group = next(g for g in step["groups"] if len(g) > 1)
        players = [self.scenario.players[i] for i in group]
        dice = tuple(self._die(p.sides[0], "turn order") for p in players)
        if len(group) == len(self.scenario.players) and not step.get("tied"):
            text = "Each player rolls 1d6 for the turn order: highest goes first."
        else:
            text = f"Tie for the turn order: {', '.join(p.name for p in players)} roll 1d6 again."
        return Prompt(
            PromptKind.ROLL,
            dice[0].roller,
            text,
            dice=dice,
            outcomes=tuple((Outcome(1, 6, "higher goes earlier"),) for _ in dice),
        )

    def ranged_options(self, state: GameState) -> list[tuple[str, TargetInfo]]:
        result = []
        active = self.player_sides(state)
        for fig in sorted(state.alive(), key=lambda f: f.id):
            if fig.side not in active or state.in_set("acted", fig.id) or state.in_set("engaged", fig.id):
                continue
            for info in self.targets(state, fig.id):
                if info.allowed:
                    result.append((fig.id, info))
        return result

    def _prompt_ranged(self, state: GameState, step: dict[str, Any]) -> Prompt:
        options = []
        for shooter, info in self.ranged_options(state):
            verb = "shoots at" if info.action == "shoot" else "casts at"
            sight = "clear" if info.sight is Sight.CLEAR else "unclear line: roll-off first"
            target = state.figures[info.target]
            options.append(
                Option(
                    f"{shooter}>{info.target}",
                    f"{self.fname(shooter)} {verb} {self.fname(info.target)} (range {info.range}, {sight})",
                    target.hex,
                    info.target,
                )
            )
        options.append(Option("done", "Finish shooting and casting"))
        side = self.player_sides(state)[0]
        return Prompt(
            PromptKind.CHOOSE,
            side,
            f"{self.active_side_name(state)}: ranged phase — choose who shoots or casts, or finish.",
            options=tuple(options),
        )

    def _prompt_rolloff(self, state: GameState, step: dict[str, Any]) -> Prompt:
        shooter, target = state.figures[step["shooter"]], state.figures[step["target"]]
        dice = (
            self._die(shooter.side, "roll-off for an unclear line", shooter.id),
            self._die(target.side, "roll-off for an unclear line", target.id),
        )
        return Prompt(
            PromptKind.ROLL,
            shooter.side,
            f"Unclear line: {self.sname(shooter.side)} rolls 1d6 for {self.fname(shooter.id)}, "
            f"{self.sname(target.side)} rolls 1d6 for {self.fname(target.id)}. "
            f"{self.fname(shooter.id)} may {'shoot' if step['act'] == 'shoot' else 'cast'} only by rolling higher; "
            "a failed roll-off still spends the action.",
            figure=shooter.id,
            dice=dice,
            outcomes=(
                (Outcome(1, 6, "must be higher than the target's die"),),
                (Outcome(1, 6, "a tie stops the shot"),),
            ),
            chances=(Chance("the shot may go ahead", 15 / 36), Chance("no shot, action spent", 21 / 36)),
            note=step.get("why", ""),
        )

    def _prompt_shot_hit(self, state: GameState, step: dict[str, Any]) -> Prompt:
        shooter = state.figures[step["shooter"]]
        p = (7 - SHOT_HITS_AT) / 6
        return Prompt(
            PromptKind.ROLL,
            shooter.side,
            f"{self.sname(shooter.side)}: roll 1d6 for {self.fname(shooter.id)} shooting at "
            f"{self.fname(step['target'])} — {SHOT_HITS_AT}–6 hits, 1–{SHOT_HITS_AT - 1} misses.",
            figure=shooter.id,
            dice=(self._die(shooter.side, "shot", shooter.id),),
            outcomes=((Outcome(1, SHOT_HITS_AT - 1, "miss"), Outcome(SHOT_HITS_AT, 6, "hit")),),
            chances=(Chance("hit", p), Chance("miss", 1 - p)),
        )

    def _save_at(self, fid: str) -> int:
        return WIZARD_SAVE_AT if self._kinds[fid] is FigureKind.WIZARD else SAVE_AT

    def _prompt_shot_save(self, state: GameState, step: dict[str, Any]) -> Prompt:
        target = state.figures[step["target"]]
        at = self._save_at(target.id)
        p = (7 - at) / 6
        return Prompt(
            PromptKind.ROLL,
            target.side,
            f"{self.sname(target.side)}: {self.fname(target.id)} is hit — roll 1d6: {_span(at, 6)} shrugs it off, "
            f"{_span(1, at - 1)} dies.",
            figure=target.id,
            dice=(self._die(target.side, "save against a hit", target.id),),
            outcomes=((Outcome(1, at - 1, "dies"), Outcome(at, 6, "shrugs off the hit")),),
            chances=(Chance("survives", p), Chance("dies", 1 - p)),
        )

    def _prompt_magic(self, state: GameState, step: dict[str, Any]) -> Prompt:
        wizard = state.figures[step["wizard"]]
        return Prompt(
            PromptKind.ROLL,
            wizard.side,
            f"{self.sname(wizard.side)}: roll 1d6 for {self.fname(wizard.id)}'s spell at {self.fname(step['target'])} "
            f"— 6 kills, anything else fails.",
            figure=wizard.id,
            dice=(self._die(wizard.side, "attack magic", wizard.id),),
            outcomes=((Outcome(1, 5, "the spell fails"), Outcome(6, 6, "the target dies")),),
            chances=(Chance("the target dies", 1 / 6), Chance("the spell fails", 5 / 6)),
        )

    def _pending_forced(self, state: GameState) -> list[str]:
        t = self.terrain(state)
        return [
            fid
            for fid in state.turn_sets.get("engaged", [])
            if state.figures[fid].alive and not state.in_set("fought", fid) and t.contact_enemies(state.figures[fid])
        ]

    def _prompt_forced_pick(self, state: GameState, step: dict[str, Any]) -> Prompt:
        opts = tuple(
            Option(fid, f"{self.fname(fid)} fights", state.figures[fid].hex, fid) for fid in self._pending_forced(state)
        )
        return Prompt(
            PromptKind.CHOOSE,
            self.player_sides(state)[0],
            f"{self.active_side_name(state)}: these figures began the turn next to an enemy and must fight. "
            "Choose who fights first.",
            options=opts,
        )

    def _prompt_pick_enemy(self, state: GameState, step: dict[str, Any]) -> Prompt:
        fig = state.figures[step["figure"]]
        enemies = self.terrain(state).contact_enemies(fig)
        opts = tuple(Option(e.id, f"fight {self.fname(e.id)}", e.hex, e.id) for e in enemies)
        return Prompt(
            PromptKind.CHOOSE,
            fig.side,
            f"{self.sname(fig.side)}: {self.fname(fig.id)} is next to several enemies — choose which one it fights.",
            figure=fig.id,
            options=opts,
        )

    def _kill_numbers(self, attacker: str, defender: str) -> tuple[int, int]:
        a_at = melee.VERSUS_WIZARD_KILL if self._kinds[defender] is FigureKind.WIZARD else melee.NORMAL_KILL
        d_at = melee.VERSUS_WIZARD_KILL if self._kinds[attacker] is FigureKind.WIZARD else melee.NORMAL_KILL
        return a_at, d_at

    def _prompt_melee(self, state: GameState, step: dict[str, Any]) -> Prompt:
        a, d = state.figures[step["attacker"]], state.figures[step["defender"]]
        a_at, d_at = self._kill_numbers(a.id, d.id)
        an, dn = self.fname(a.id), self.fname(d.id)
        return Prompt(
            PromptKind.ROLL,
            a.side,
            f"Combat: {self.sname(a.side)} rolls 1d6 for {an}, {self.sname(d.side)} rolls 1d6 for {dn}. "
            f"Higher wins; equal dice roll again; {an} kills on {_span(a_at, 6)}, {dn} kills on {_span(d_at, 6)}.",
            figure=a.id,
            dice=(self._die(a.side, "combat (attacker)", a.id), self._die(d.side, "combat (defender)", d.id)),
            outcomes=(
                (Outcome(a_at, 6, f"kills {dn} unless {dn}'s die is equal or higher"),),
                (Outcome(d_at, 6, f"kills {an} unless {an}'s die is equal or higher"),),
            ),
            chances=melee.melee_chances(an, dn, a_at, d_at),
            note=step.get("note", ""),
        )

    def _prompt_retreat(self, state: GameState, step: dict[str, Any]) -> Prompt:
        loser = state.figures[step["loser"]]
        opts = tuple(
            Option(self.label(_hex(h)), f"fall back to {self.label(_hex(h))}", _hex(h)) for h in step["options"]
        )
        return Prompt(
            PromptKind.CHOOSE,
            loser.side,
            f"{self.sname(loser.side)}: {self.fname(loser.id)} lost and must fall back one hex — choose where.",
            figure=loser.id,
            options=opts,
        )

    def _prompt_advance(self, state: GameState, step: dict[str, Any]) -> Prompt:
        winner = state.figures[step["winner"]]
        to = _hex(step["to"])
        return Prompt(
            PromptKind.CHOOSE,
            winner.side,
            f"{self.sname(winner.side)}: {self.fname(winner.id)} won — advance into {self.label(to)} or stay?",
            figure=winner.id,
            options=(Option("advance", f"advance to {self.label(to)}", to), Option("stay", "stay")),
        )

    def _prompt_decisive(self, state: GameState, step: dict[str, Any]) -> Prompt:
        fav, oth = state.figures[step["favoured"]], state.figures[step["other"]]
        fn, on = self.fname(fav.id), self.fname(oth.id)
        return Prompt(
            PromptKind.ROLL,
            fav.side,
            f"Decisive battle: {on} cannot fall back because a friend is in the way. {self.sname(fav.side)} rolls "
            f"1d6 for {fn} (wins on {melee.FAVOURED_WINS_AT}–6), {self.sname(oth.side)} rolls 1d6 for {on} "
            f"(wins on 6). If both or neither win, roll again. The loser dies.",
            figure=fav.id,
            dice=(
                self._die(fav.side, "decisive battle (favoured)", fav.id),
                self._die(oth.side, "decisive battle", oth.id),
            ),
            outcomes=((Outcome(melee.FAVOURED_WINS_AT, 6, f"{fn} wins"),), (Outcome(6, 6, f"{on} wins"),)),
            chances=melee.decisive_chances(fn, on),
            note=step.get("note", ""),
        )

    def selectable(self, state: GameState) -> list[str]:
        active = self.player_sides(state)
        return [
            f.id
            for f in sorted(state.alive(), key=lambda f: f.id)
            if f.side in active and not state.in_set("acted", f.id) and not state.in_set("engaged", f.id)
        ]

    def _prompt_select(self, state: GameState, step: dict[str, Any]) -> Prompt:
        opts = [Option(fid, f"move {self.fname(fid)}", state.figures[fid].hex, fid) for fid in self.selectable(state)]
        opts.append(Option("end", "End the turn (the others stay where they are)"))
        return Prompt(
            PromptKind.CHOOSE,
            self.player_sides(state)[0],
            f"{self.active_side_name(state)}: choose the next figure to move, or end the turn.",
            options=tuple(opts),
        )

    def _closed_doors(self, state: GameState, fig: FigureState) -> list[Edge]:
        assert fig.hex is not None
        out = []
        for n in fig.hex.neighbours():
            e = edge(fig.hex, n)
            if state.doors.get(e) in ("closed", "locked"):
                out.append(e)
        return sorted(out)

    def _prompt_door(self, state: GameState, step: dict[str, Any]) -> Prompt:
        fig = state.figures[step["figure"]]
        opts = []
        for e in self._closed_doors(state, fig):
            lab = self.board.edge_label(e)
            if state.doors[e] == "locked":
                opts.append(Option(f"unlock:{lab}", f"try the locked door {lab} (1d6: {UNLOCK_AT}–6 opens)"))
            else:
                opts.append(Option(f"open:{lab}", f"open the door {lab}"))
        opts.append(Option("move", "leave the door shut and move"))
        return Prompt(
            PromptKind.CHOOSE,
            fig.side,
            f"{self.sname(fig.side)}: {self.fname(fig.id)} stands at a door — open it, or just move?",
            figure=fig.id,
            options=tuple(opts),
        )

    def _prompt_unlock(self, state: GameState, step: dict[str, Any]) -> Prompt:
        fig = state.figures[step["figure"]]
        return Prompt(
            PromptKind.ROLL,
            fig.side,
            f"{self.sname(fig.side)}: roll 1d6 for {self.fname(fig.id)} at the locked door — "
            f"{UNLOCK_AT}–6 opens it and {self.fname(fig.id)} moves, 1–{UNLOCK_AT - 1} fails and the move ends.",
            figure=fig.id,
            dice=(self._die(fig.side, "locked door", fig.id),),
            outcomes=((Outcome(1, UNLOCK_AT - 1, "stays locked"), Outcome(UNLOCK_AT, 6, "opens")),),
            chances=(Chance("the door opens", 0.5), Chance("stays locked", 0.5)),
        )

    def _prompt_move_roll(self, state: GameState, step: dict[str, Any]) -> Prompt:
        fig = state.figures[step["figure"]]
        return Prompt(
            PromptKind.ROLL,
            fig.side,
            f"{self.sname(fig.side)}: roll 1d6 for {self.fname(fig.id)} — 5–6 moves up to {MOVE_LONG} hexes, "
            f"1–4 up to {MOVE_SHORT}.",
            figure=fig.id,
            dice=(self._die(fig.side, "movement", fig.id),),
            outcomes=((Outcome(1, 4, f"up to {MOVE_SHORT} hexes"), Outcome(5, 6, f"up to {MOVE_LONG} hexes")),),
            chances=(Chance(f"up to {MOVE_LONG} hexes", 2 / 6), Chance(f"up to {MOVE_SHORT} hexes", 4 / 6)),
        )

    def _prompt_move(self, state: GameState, step: dict[str, Any]) -> Prompt:
        fig = state.figures[step["figure"]]
        moves = self.reachable(state, fig.id)
        return Prompt(
            PromptKind.MOVE,
            fig.side,
            f"{self.sname(fig.side)}: move {self.fname(fig.id)} up to {step['allowance']} hexes "
            "(or leave it where it is). Entering a hex next to an enemy stops the move and starts a fight.",
            figure=fig.id,
            moves=moves,
        )

    # -- applying actions -------------------------------------------------------------------------
    def apply(self, state: GameState, action: Action) -> list[Event]:
        events: list[Event] = []
        if state.pending_removals:
            self._apply_removal(state, action, events)
        else:
            kind = state.step["kind"]
            if kind == "over":
                raise IllegalActionError(f"the game is over ({state.step['text']}); start a new game or undo")
            getattr(self, f"_apply_{kind}")(state, state.step, action, events)
        state.serial += 1
        self._check_victory(state, events)
        self._advance(state, events)
        return events

    def _expect_roll(self, state: GameState, action: Action) -> tuple[int, ...]:
        prompt = self.prompt(state)
        if not isinstance(action, Roll):
            raise IllegalActionError(f"{prompt.text} — answer with the die results (roll …), not {action.kind}")
        if len(action.values) != len(prompt.dice):
            rollers = ", ".join(f"{self.sname(d.roller)} 1d{d.sides}" for d in prompt.dice)
            raise IllegalActionError(
                f"this roll needs {len(prompt.dice)} die result(s) ({rollers}), got {len(action.values)}"
            )
        for v, d in zip(action.values, prompt.dice, strict=True):
            if not 1 <= v <= d.sides:
                raise IllegalActionError(f"{v} is not a result of a {d.sides}-sided die (1–{d.sides})")
        return action.values

    def _expect_choice(self, state: GameState, action: Action) -> str:
        prompt = self.prompt(state)
        if not isinstance(action, Choose):
            raise IllegalActionError(f"{prompt.text} — answer with one of the options (choose …), not {action.kind}")
        if prompt.option(action.option) is None:
            allowed = ", ".join(o.id for o in prompt.options)
            raise IllegalActionError(f"{action.option!r} is not offered here; choose one of: {allowed}")
        return action.option

    def _roll_event(self, values: tuple[int, ...], virtual: bool, what: str) -> Event:
        how = "rolled by the app" if virtual else "rolled"
        return Event(
            "rolled", f"{what}: {' and '.join(map(str, values))} ({how})", {"values": list(values), "virtual": virtual}
        )

    def _apply_removal(self, state: GameState, action: Action, events: list[Event]) -> None:
        fid = state.pending_removals[0]
        if not isinstance(action, Remove) or action.figure != fid:
            raise IllegalActionError(f"first take {self.fname(fid)} off the table (remove {fid})")
        state.pending_removals.pop(0)
        state.figures[fid].on_table = False
        events.append(Event("removed", f"{self.fname(fid)} is off the table.", {"figure": fid}))

    def _apply_order(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        values = self._expect_roll(state, action)
        groups: list[list[int]] = step["groups"]
        gi = next(i for i, g in enumerate(groups) if len(g) > 1)
        group = groups[gi]
        events.append(
            self._roll_event(
                values,
                isinstance(action, Roll) and action.virtual,
                "Turn order: " + ", ".join(self.scenario.players[p].name for p in group),
            )
        )
        by_value: dict[int, list[int]] = {}
        for p, v in zip(group, values, strict=True):
            by_value.setdefault(v, []).append(p)
        new = [by_value[v] for v in sorted(by_value, reverse=True)]
        groups[gi : gi + 1] = new
        step["tied"] = True
        if all(len(g) == 1 for g in groups):
            state.turn_order = [g[0] for g in groups]
            names = ", ".join(self.scenario.players[p].name for p in state.turn_order)
            events.append(Event("turn_order", f"Turn order: {names}.", {"order": list(state.turn_order)}))
            state.active = 0
            state.round = 1
            self._begin_turn(state, events)

    def _begin_turn(self, state: GameState, events: list[Event]) -> None:
        t = self.terrain(state)
        active = self.player_sides(state)
        engaged = [f.id for f in sorted(state.alive(), key=lambda f: f.id) if f.side in active and t.contact_enemies(f)]
        state.turn_sets = {"engaged": engaged, "acted": [], "initiated": [], "fought": []}
        state.phase = "ranged"
        state.step = {"kind": "ranged"}
        events.append(
            Event(
                "turn",
                f"Round {state.round}: {self.active_side_name(state)}'s turn.",
                {"round": state.round, "player": state.turn_order[state.active]},
            )
        )

    def _apply_ranged(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        choice = self._expect_choice(state, action)
        if choice == "done":
            self._to_forced(state)
            return
        shooter_id, target_id = choice.split(">")
        state.add_to_set("acted", shooter_id)
        info = self._target_info(state, shooter_id, target_id)
        act = info.action
        verb = "shoots at" if act == "shoot" else "casts a spell at"
        events.append(
            Event(
                "attack_declared",
                f"{self.fname(shooter_id)} {verb} {self.fname(target_id)} (range {info.range}).",
                {"figure": shooter_id, "target": target_id, "action": act, "sight": info.sight.value},
            )
        )
        if info.sight is Sight.AMBIGUOUS:
            state.step = {"kind": "rolloff", "shooter": shooter_id, "target": target_id, "act": act, "why": info.reason}
        elif act == "shoot":
            state.step = {"kind": "shot_hit", "shooter": shooter_id, "target": target_id}
        else:
            state.step = {"kind": "magic", "wizard": shooter_id, "target": target_id}

    def _target_info(self, state: GameState, shooter: str, target: str) -> TargetInfo:
        return next(i for i in self.targets(state, shooter) if i.target == target)

    def _apply_rolloff(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        s, t = self._expect_roll(state, action)
        virtual = isinstance(action, Roll) and action.virtual
        events.append(
            self._roll_event((s, t), virtual, f"Roll-off {self.fname(step['shooter'])} vs {self.fname(step['target'])}")
        )
        if s <= t:
            events.append(
                Event(
                    "rolloff_failed",
                    f"Roll-off lost: {self.fname(step['shooter'])} cannot "
                    f"{'shoot' if step['act'] == 'shoot' else 'cast'}; its action is spent.",
                    {"figure": step["shooter"]},
                )
            )
            state.step = {"kind": "ranged"}
        elif step["act"] == "shoot":
            state.step = {"kind": "shot_hit", "shooter": step["shooter"], "target": step["target"]}
        else:
            state.step = {"kind": "magic", "wizard": step["shooter"], "target": step["target"]}

    def _apply_shot_hit(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        (v,) = self._expect_roll(state, action)
        events.append(
            self._roll_event((v,), isinstance(action, Roll) and action.virtual, f"{self.fname(step['shooter'])} shoots")
        )
        if v >= SHOT_HITS_AT:
            events.append(
                Event("hit", f"Hit! {self.fname(step['target'])} must roll to survive.", {"target": step["target"]})
            )
            state.step = {"kind": "shot_save", "shooter": step["shooter"], "target": step["target"]}
        else:
            events.append(Event("miss", f"{self.fname(step['shooter'])} misses.", {"figure": step["shooter"]}))
            state.step = {"kind": "ranged"}

    def _apply_shot_save(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        (v,) = self._expect_roll(state, action)
        target = step["target"]
        events.append(
            self._roll_event((v,), isinstance(action, Roll) and action.virtual, f"{self.fname(target)} saves")
        )
        if v >= self._save_at(target):
            events.append(Event("shrugged", f"{self.fname(target)} shrugs off the hit.", {"figure": target}))
        else:
            self._kill(state, target, f"{self.fname(target)} is shot dead.", events)
        state.step = {"kind": "ranged"}

    def _apply_magic(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        (v,) = self._expect_roll(state, action)
        events.append(
            self._roll_event((v,), isinstance(action, Roll) and action.virtual, f"{self.fname(step['wizard'])} casts")
        )
        if v >= MAGIC_KILLS_AT:
            self._kill(state, step["target"], f"{self.fname(step['target'])} is struck down by magic.", events)
        else:
            events.append(
                Event("spell_failed", f"{self.fname(step['wizard'])}'s spell fails.", {"figure": step["wizard"]})
            )
        state.step = {"kind": "ranged"}

    def _to_forced(self, state: GameState) -> None:
        state.phase = "forced"
        state.step = {"kind": "forced_pick"}

    def _apply_forced_pick(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        fid = self._expect_choice(state, action)
        self._start_combat(state, fid, events)

    def _start_combat(self, state: GameState, fid: str, events: list[Event], defender: str | None = None) -> None:
        state.add_to_set("initiated", fid)
        state.add_to_set("fought", fid)
        if defender is None:
            enemies = self.terrain(state).contact_enemies(state.figures[fid])
            if len(enemies) > 1:
                state.step = {"kind": "pick_enemy", "figure": fid}
                return
            defender = enemies[0].id
        self._melee(state, fid, defender, events)

    def _melee(self, state: GameState, attacker: str, defender: str, events: list[Event]) -> None:
        events.append(
            Event(
                "combat",
                f"{self.fname(attacker)} fights {self.fname(defender)}.",
                {"attacker": attacker, "defender": defender},
            )
        )
        state.step = {"kind": "melee", "attacker": attacker, "defender": defender}

    def _apply_pick_enemy(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        enemy = self._expect_choice(state, action)
        self._melee(state, step["figure"], enemy, events)

    def _apply_melee(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        a_die, d_die = self._expect_roll(state, action)
        a, d = step["attacker"], step["defender"]
        events.append(
            self._roll_event(
                (a_die, d_die),
                isinstance(action, Roll) and action.virtual,
                f"Combat {self.fname(a)} vs {self.fname(d)}",
            )
        )
        r = melee.melee_roll(a_die, d_die, *self._kill_numbers(a, d))
        if r.reroll:
            step["note"] = f"Tie ({a_die}–{d_die}): both roll again."
            events.append(Event("tie", step["note"], {}))
            return
        winner, loser = (a, d) if r.winner == "attacker" else (d, a)
        if r.kill:
            self._kill(state, loser, f"{self.fname(winner)} strikes a vital blow: {self.fname(loser)} dies.", events)
            self._after_combat(state)
            return
        events.append(
            Event("beaten", f"{self.fname(winner)} beats {self.fname(loser)}.", {"winner": winner, "loser": loser})
        )
        self._fall_back(state, winner, loser, events)

    def _fall_back(self, state: GameState, winner: str, loser: str, events: list[Event]) -> None:
        t = self.terrain(state)
        opts = melee.retreat_options(t, state.figures[loser], state.figures[winner])
        if len(opts.hexes) == 1:
            self._retreat(state, winner, loser, opts.hexes[0], events)
        elif opts.hexes:
            state.step = {"kind": "retreat", "winner": winner, "loser": loser, "options": [_hv(h) for h in opts.hexes]}
        elif opts.friend_in_the_way:
            events.append(
                Event(
                    "decisive",
                    f"{self.fname(loser)} cannot fall back: a friend is in the way. Decisive battle!",
                    {"favoured": winner, "other": loser},
                )
            )
            state.step = {"kind": "decisive", "favoured": winner, "other": loser}
        else:
            self._kill(state, loser, f"{self.fname(loser)} has nowhere to fall back and dies.", events)
            self._after_combat(state)

    def _retreat(self, state: GameState, winner: str, loser: str, to: Hex, events: list[Event]) -> None:
        fig = state.figures[loser]
        assert fig.hex is not None
        left = fig.hex
        fig.hex = to
        events.append(
            Event(
                "retreated",
                f"{self.fname(loser)} falls back from {self.label(left)} to {self.label(to)}.",
                {"figure": loser, "from": _hv(left), "to": _hv(to)},
            )
        )
        state.step = {"kind": "advance", "winner": winner, "to": _hv(left)}

    def _apply_retreat(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        choice = self._expect_choice(state, action)
        to = self.prompt(state).option(choice)
        assert to is not None and to.hex is not None
        self._retreat(state, step["winner"], step["loser"], to.hex, events)

    def _apply_advance(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        choice = self._expect_choice(state, action)
        if choice == "advance":
            fig = state.figures[step["winner"]]
            assert fig.hex is not None
            left, fig.hex = fig.hex, _hex(step["to"])
            events.append(
                Event(
                    "advanced",
                    f"{self.fname(fig.id)} advances from {self.label(left)} to {self.label(fig.hex)}.",
                    {"figure": fig.id, "from": _hv(left), "to": step["to"]},
                )
            )
            self._pick_up(state, fig, events)
        self._after_combat(state)

    def _apply_decisive(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        f_die, o_die = self._expect_roll(state, action)
        fav, oth = step["favoured"], step["other"]
        events.append(
            self._roll_event(
                (f_die, o_die),
                isinstance(action, Roll) and action.virtual,
                f"Decisive battle {self.fname(fav)} vs {self.fname(oth)}",
            )
        )
        result = melee.decisive_roll(f_die, o_die)
        if result is None:
            step["note"] = f"No decision ({f_die}–{o_die}): both roll again."
            events.append(Event("tie", step["note"], {}))
            return
        winner, loser = (fav, oth) if result == "favoured" else (oth, fav)
        self._kill(state, loser, f"{self.fname(winner)} wins the decisive battle: {self.fname(loser)} dies.", events)
        self._after_combat(state)

    def _after_combat(self, state: GameState) -> None:
        state.step = {"kind": "forced_pick"} if state.phase == "forced" else {"kind": "select"}

    def _apply_select(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        choice = self._expect_choice(state, action)
        if choice == "end":
            events.append(Event("turn_ended", f"{self.active_side_name(state)} ends the turn.", {}))
            self._next_turn(state, events)
            return
        fig = state.figures[choice]
        state.add_to_set("acted", fig.id)
        t = self.terrain(state)
        if t.contact_enemies(fig) and not state.in_set("initiated", fig.id):
            # In contact since a fight earlier this turn: the contact rule applies where it stands.
            self._start_combat(state, fig.id, events)
        elif self._closed_doors(state, fig):
            state.step = {"kind": "door", "figure": fig.id}
        else:
            state.step = {"kind": "move_roll", "figure": fig.id}

    def _apply_door(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        choice = self._expect_choice(state, action)
        fid = step["figure"]
        if choice == "move":
            state.step = {"kind": "move_roll", "figure": fid}
            return
        verb, lab = choice.split(":", 1)
        e = self._edge_by_label(lab)
        if verb == "unlock":
            state.step = {"kind": "unlock", "figure": fid, "door": lab}
            return
        self._open_door(state, fid, e, events)

    def _edge_by_label(self, lab: str) -> Edge:
        return next(e for e in self.board.edges if self.board.edge_label(e) == lab)

    def _open_door(self, state: GameState, fid: str, e: Edge, events: list[Event]) -> None:
        fig = state.figures[fid]
        assert fig.hex is not None
        state.doors[e] = "open"
        events.append(
            Event(
                "door_opened",
                f"{self.fname(fid)} opens the door {self.board.edge_label(e)}.",
                {"figure": fid, "edge": [e.a.q, e.a.r, e.b.q, e.b.r]},
            )
        )
        beyond = state.figure_at(e.other(fig.hex))
        if beyond is not None and beyond.side != fig.side:
            events.append(
                Event(
                    "ambush",
                    f"{self.fname(beyond.id)} stands behind the door: combat at once, {self.fname(fid)}'s move ends.",
                    {"figure": fid, "enemy": beyond.id},
                )
            )
            state.add_to_set("initiated", fid)
            self._melee(state, fid, beyond.id, events)
        else:
            state.step = {"kind": "move_roll", "figure": fid}

    def _apply_unlock(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        (v,) = self._expect_roll(state, action)
        fid = step["figure"]
        events.append(
            self._roll_event((v,), isinstance(action, Roll) and action.virtual, f"{self.fname(fid)} tries the lock")
        )
        if v >= UNLOCK_AT:
            self._open_door(state, fid, self._edge_by_label(step["door"]), events)
        else:
            events.append(Event("lock_held", f"The lock holds; {self.fname(fid)}'s move ends.", {"figure": fid}))
            state.step = {"kind": "select"}

    def _apply_move_roll(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        (v,) = self._expect_roll(state, action)
        fid = step["figure"]
        allowance = MOVE_LONG if v >= 5 else MOVE_SHORT
        events.append(
            self._roll_event(
                (v,), isinstance(action, Roll) and action.virtual, f"{self.fname(fid)} moves up to {allowance}"
            )
        )
        fig = state.figures[fid]
        assert fig.hex is not None
        state.step = {"kind": "move", "figure": fid, "allowance": allowance, "start": _hv(fig.hex)}

    def _apply_move(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        fid = step["figure"]
        if not isinstance(action, Move):
            raise IllegalActionError(f"move {self.fname(fid)} (move {fid} HEX), not {action.kind}")
        if action.figure != fid:
            raise IllegalActionError(f"it is {self.fname(fid)}'s move, not {self.fname(action.figure)}'s")
        moves = self.reachable(state, fid)
        if action.to not in moves:
            legal = ", ".join(self.label(h) for h in sorted(moves, key=lambda h: (moves[h].cost, h)))
            raise IllegalActionError(self.why_not(state, fid, action.to) + f". Legal hexes: {legal}")
        fig = state.figures[fid]
        start = fig.hex
        assert start is not None
        fig.hex = action.to
        if action.to == start:
            events.append(Event("stayed", f"{self.fname(fid)} stays at {self.label(start)}.", {"figure": fid}))
        else:
            events.append(
                Event(
                    "moved",
                    f"{self.fname(fid)} moves from {self.label(start)} to {self.label(action.to)}.",
                    {
                        "figure": fid,
                        "from": _hv(start),
                        "to": _hv(action.to),
                        "path": [_hv(h) for h in moves[action.to].path],
                    },
                )
            )
            self._pick_up(state, fig, events)
        if action.to != start and self.terrain(state).contact_enemies(fig) and not state.in_set("initiated", fid):
            self._start_combat(state, fid, events)
        else:
            state.step = {"kind": "select"}

    def why_not(self, state: GameState, fid: str, to: Hex) -> str:
        """Plain words for why a figure may not end its move on a hex."""
        fig = state.figures[fid]
        name = self.fname(fid)
        if to not in self.board:
            return f"{self.label(to)} is not on the map"
        t = self.terrain(state)
        if not t.enterable(to):
            return f"{self.label(to)} cannot be entered ({self.board.terrain(to).value})"
        other = state.figure_at(to)
        if other is not None and other.id != fid:
            taken = f"{self.label(to)} is taken by {self.fname(other.id)}"
            return f"{taken}: a move may pass friends but never end on a figure"
        far = self.reachable(state, fid, budget=99)
        allowance = state.step.get("allowance", MOVE_LONG)
        if to not in far:
            blockers = "walls, closed doors, enemies or contact with an enemy"
            return f"{name} cannot get to {self.label(to)}: {blockers} are in the way"
        assert fig.hex is not None
        return (
            f"{self.label(to)} is {int(far[to].cost)} hexes away by the shortest open way; {name} may move {allowance}"
        )

    def _pick_up(self, state: GameState, fig: FigureState, events: list[Event]) -> None:
        if not self.scenario.figure(fig.id).can_carry:
            return
        for token, where in list(state.tokens.items()):
            if where == fig.hex and (fig.side, token) in self._bring_tokens:
                state.tokens[token] = None
                fig.carrying.append(token)
                events.append(
                    Event("picked_up", f"{self.fname(fig.id)} takes the {token}.", {"figure": fig.id, "token": token})
                )

    def _kill(self, state: GameState, fid: str, text: str, events: list[Event]) -> None:
        fig = state.figures[fid]
        fig.alive = False
        events.append(Event("killed", text, {"figure": fid, "hex": None if fig.hex is None else _hv(fig.hex)}))
        for token in fig.carrying:
            state.tokens[token] = fig.hex
            events.append(
                Event(
                    "dropped",
                    f"The {token} falls to the ground at {self.label(fig.hex)}."
                    if fig.hex
                    else f"The {token} is dropped.",
                    {"token": token},
                )
            )
        fig.carrying = []
        state.pending_removals.append(fid)

    def _next_turn(self, state: GameState, events: list[Event]) -> None:
        n = len(state.turn_order)
        for _ in range(n):
            state.active = (state.active + 1) % n
            if state.active == 0:
                state.round += 1
            sides = self.player_sides(state)
            if any(f.side in sides for f in state.alive()):
                break
        self._begin_turn(state, events)

    # -- automatic steps and victory ------------------------------------------------------------
    def _advance(self, state: GameState, events: list[Event]) -> None:
        for _ in range(1000):
            if state.winner is not None:
                if state.step.get("kind") != "over":
                    state.step = {"kind": "over", "text": f"{self.sname(state.winner)} win."}
                return
            kind = state.step["kind"]
            if kind == "ranged" and not self.ranged_options(state):
                self._to_forced(state)
            elif kind == "forced_pick":
                pending = self._pending_forced(state)
                if not pending:
                    state.phase = "movement"
                    state.step = {"kind": "select"}
                elif len(pending) == 1:
                    self._start_combat(state, pending[0], events)
                else:
                    return
            elif (
                kind == "pick_enemy"
                and len(self.terrain(state).contact_enemies(state.figures[state.step["figure"]])) == 1
            ):
                enemy = self.terrain(state).contact_enemies(state.figures[state.step["figure"]])[0]
                self._melee(state, state.step["figure"], enemy.id, events)
            elif kind == "select" and not self.selectable(state):
                events.append(Event("turn_ended", f"{self.active_side_name(state)}'s figures have all acted.", {}))
                self._next_turn(state, events)
            else:
                return
        raise RuntimeError("the turn flow did not settle: a rule set bug")

    def _check_victory(self, state: GameState, events: list[Event]) -> None:
        if state.winner is not None:
            return
        alive_sides = {f.side for f in state.alive()}
        for v in self.scenario.victory:
            won = False
            if v.type == "destroy":
                won = v.side in alive_sides and alive_sides == {v.side}
            elif v.type == "kill":
                won = all(not state.figures[f].alive for f in v.figures)
            elif v.type == "bring":
                won = any(f.side == v.side and v.token in f.carrying and f.hex in v.to for f in state.alive())
            if won:
                state.winner = v.side
                events.append(Event("victory", f"{self.sname(v.side)} win: {v.text}", {"side": v.side}))
                return
