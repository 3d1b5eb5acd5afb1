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
from engine.prompts import Prompt
from engine.rules.base import OptionSpec, RuleSet, TargetInfo
from engine.rules.fantasy_battle import melee
from engine.rules.fantasy_battle.constants import (
    MAGIC_KILLS_AT,
    MOVE_LONG,
    MOVE_SHORT,
    SAVE_AT,
    SHOT_HITS_AT,
    UNLOCK_AT,
    WIZARD_SAVE_AT,
)
from engine.rules.fantasy_battle.prompting import FBPrompter
from engine.rules.fantasy_battle.ranged import magic_info, shot_info
from engine.rules.fantasy_battle.terrain import FBTerrain
from engine.scenario import FigureKind, Scenario
from engine.state import FigureState, GameState


def possessive(name: str) -> str:
    """'Goblins' turn', 'Red's turn'."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _hex(v: list[int]) -> Hex:
    return Hex(v[0], v[1])


def _hv(h: Hex) -> list[int]:
    return [h.q, h.r]


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
        self.prompter = FBPrompter(self)

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
        contact = t.threatened(fig.side) - {start}
        return reachable(
            start,
            budget,
            t.step_cost_for(fig.side),
            stops=contact.__contains__,
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

    def prompt(self, state: GameState) -> Prompt:
        return self.prompter.prompt(state)

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

    def save_at(self, fid: str) -> int:
        return WIZARD_SAVE_AT if self._kinds[fid] is FigureKind.WIZARD else SAVE_AT

    def pending_forced(self, state: GameState) -> list[str]:
        t = self.terrain(state)
        return [
            fid
            for fid in state.turn_sets.get("engaged", [])
            if state.figures[fid].alive and not state.in_set("fought", fid) and t.contact_enemies(state.figures[fid])
        ]

    def kill_numbers(self, attacker: str, defender: str) -> tuple[int, int]:
        a_at = melee.VERSUS_WIZARD_KILL if self._kinds[defender] is FigureKind.WIZARD else melee.NORMAL_KILL
        d_at = melee.VERSUS_WIZARD_KILL if self._kinds[attacker] is FigureKind.WIZARD else melee.NORMAL_KILL
        return a_at, d_at

    def selectable(self, state: GameState) -> list[str]:
        active = self.player_sides(state)
        return [
            f.id
            for f in sorted(state.alive(), key=lambda f: f.id)
            if f.side in active and not state.in_set("acted", f.id) and not state.in_set("engaged", f.id)
        ]

    def closed_doors(self, state: GameState, fig: FigureState) -> list[Edge]:
        assert fig.hex is not None
        out = []
        for n in fig.hex.neighbours():
            e = edge(fig.hex, n)
            if state.doors.get(e) in ("closed", "locked"):
                out.append(e)
        return sorted(out)

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

    def _expect_roll(self, state: GameState, action: Action) -> Roll:
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
        return action

    def _expect_choice(self, state: GameState, action: Action) -> str:
        prompt = self.prompt(state)
        if not isinstance(action, Choose):
            raise IllegalActionError(f"{prompt.text} — answer with one of the options (choose …), not {action.kind}")
        if prompt.option(action.option) is None:
            allowed = ", ".join(o.id for o in prompt.options)
            raise IllegalActionError(f"{action.option!r} is not offered here; choose one of: {allowed}")
        return action.option

    def _rolled(self, roll: Roll, what: str, then: str = "") -> Event:
        """The log line of a roll: what it was for, the dice, who rolled them, what it means."""
        values, virtual = roll.values, roll.virtual
        how = "rolled by the app" if virtual else "rolled"
        tail = f" — {then}" if then else ""
        return Event(
            "rolled",
            f"{what}: {' and '.join(map(str, values))} ({how}){tail}",
            {"values": list(values), "virtual": virtual},
        )

    def _apply_removal(self, state: GameState, action: Action, events: list[Event]) -> None:
        fid = state.pending_removals[0]
        if not isinstance(action, Remove) or action.figure != fid:
            raise IllegalActionError(f"first take {self.fname(fid)} off the table (remove {fid})")
        state.pending_removals.pop(0)
        state.figures[fid].on_table = False
        events.append(Event("removed", f"{self.fname(fid)} is off the table.", {"figure": fid}))

    def _apply_order(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        roll = self._expect_roll(state, action)
        values = roll.values
        groups: list[list[int]] = step["groups"]
        gi = next(i for i, g in enumerate(groups) if len(g) > 1)
        group = groups[gi]
        events.append(
            self._rolled(
                roll,
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
                f"Round {state.round}: {possessive(self.active_side_name(state))} turn.",
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
        roll = self._expect_roll(state, action)
        s, t = roll.values
        events.append(
            self._rolled(roll, f"Roll-off, {self.fname(step['shooter'])} against {self.fname(step['target'])}")
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
        roll = self._expect_roll(state, action)
        (v,) = roll.values
        events.append(self._rolled(roll, f"Shot by {self.fname(step['shooter'])}"))
        if v >= SHOT_HITS_AT:
            events.append(
                Event("hit", f"Hit! {self.fname(step['target'])} must roll to survive.", {"target": step["target"]})
            )
            state.step = {"kind": "shot_save", "shooter": step["shooter"], "target": step["target"]}
        else:
            events.append(Event("miss", f"{self.fname(step['shooter'])} misses.", {"figure": step["shooter"]}))
            state.step = {"kind": "ranged"}

    def _apply_shot_save(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        roll = self._expect_roll(state, action)
        (v,) = roll.values
        target = step["target"]
        events.append(self._rolled(roll, f"Save roll for {self.fname(target)}"))
        if v >= self.save_at(target):
            events.append(Event("shrugged", f"{self.fname(target)} shrugs off the hit.", {"figure": target}))
        else:
            self._kill(state, target, f"{self.fname(target)} is shot dead.", events)
        state.step = {"kind": "ranged"}

    def _apply_magic(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        roll = self._expect_roll(state, action)
        (v,) = roll.values
        events.append(self._rolled(roll, f"Spell roll for {self.fname(step['wizard'])}"))
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
        roll = self._expect_roll(state, action)
        a_die, d_die = roll.values
        a, d = step["attacker"], step["defender"]
        events.append(
            self._rolled(
                roll,
                f"Combat {self.fname(a)} vs {self.fname(d)}",
            )
        )
        r = melee.melee_roll(a_die, d_die, *self.kill_numbers(a, d))
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
        roll = self._expect_roll(state, action)
        f_die, o_die = roll.values
        fav, oth = step["favoured"], step["other"]
        events.append(
            self._rolled(
                roll,
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
        elif self.closed_doors(state, fig):
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
        roll = self._expect_roll(state, action)
        (v,) = roll.values
        fid = step["figure"]
        events.append(self._rolled(roll, f"Lock roll for {self.fname(fid)}"))
        if v >= UNLOCK_AT:
            self._open_door(state, fid, self._edge_by_label(step["door"]), events)
        else:
            events.append(Event("lock_held", f"The lock holds; {self.fname(fid)}'s move ends.", {"figure": fid}))
            state.step = {"kind": "select"}

    def _apply_move_roll(self, state: GameState, step: dict[str, Any], action: Action, events: list[Event]) -> None:
        roll = self._expect_roll(state, action)
        (v,) = roll.values
        fid = step["figure"]
        allowance = MOVE_LONG if v >= 5 else MOVE_SHORT
        events.append(
            self._rolled(
                roll,
                f"Movement roll for {self.fname(fid)}",
                f"up to {allowance} hexes",
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
        if not self.scenario.options["doors_stay_open"]:
            self._close_empty_doorways(state, events)
        n = len(state.turn_order)
        for _ in range(n):
            state.active = (state.active + 1) % n
            if state.active == 0:
                state.round += 1
            sides = self.player_sides(state)
            if any(f.side in sides for f in state.alive()):
                break
        self._begin_turn(state, events)

    def _close_empty_doorways(self, state: GameState, events: list[Event]) -> None:
        """With doors_stay_open = false, an open door swings shut at the end of a turn when nobody stands in it."""
        occupied = {f.hex for f in state.alive()}
        for e, door in sorted(state.doors.items()):
            if door == "open" and e.a not in occupied and e.b not in occupied:
                state.doors[e] = "closed"
                events.append(
                    Event(
                        "door_closed",
                        f"The door {self.board.edge_label(e)} swings shut.",
                        {"edge": [e.a.q, e.a.r, e.b.q, e.b.r]},
                    )
                )

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
                pending = self.pending_forced(state)
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
                events.append(
                    Event("turn_ended", f"{possessive(self.active_side_name(state))} figures have all acted.", {})
                )
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
